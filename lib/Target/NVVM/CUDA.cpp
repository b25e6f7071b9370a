//===- CUDA.cpp - NVIDIA chips, PTX versions and the CUDA toolkit ---------===//

#include "kiln/Target/NVVM/CUDA.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

using namespace llvm;

namespace {
struct Chip {
  StringLiteral name;
  unsigned minPTX;
};

// The oldest PTX ISA LLVM 22's NVPTX back end accepts for each processor it
// knows (its "Minimum required PTX version" check), so that a mismatch is
// reported here, with a location, instead of aborting in the back end.
constexpr Chip kChips[] = {
    {"sm_20", 32},   {"sm_21", 32},   {"sm_30", 32},   {"sm_32", 40},
    {"sm_35", 32},   {"sm_37", 41},   {"sm_50", 40},   {"sm_52", 41},
    {"sm_53", 42},   {"sm_60", 50},   {"sm_61", 50},   {"sm_62", 50},
    {"sm_70", 60},   {"sm_72", 61},   {"sm_75", 63},   {"sm_80", 70},
    {"sm_86", 71},   {"sm_87", 74},   {"sm_88", 90},   {"sm_89", 78},
    {"sm_90", 78},   {"sm_90a", 80},  {"sm_100", 86},  {"sm_100a", 86},
    {"sm_100f", 88}, {"sm_101", 86},  {"sm_101a", 86}, {"sm_101f", 88},
    {"sm_103", 88},  {"sm_103a", 88}, {"sm_103f", 88}, {"sm_110", 90},
    {"sm_110a", 90}, {"sm_110f", 90}, {"sm_120", 87},  {"sm_120a", 87},
    {"sm_120f", 88}, {"sm_121", 88},  {"sm_121a", 88}, {"sm_121f", 88},
};

// PTX ISA versions LLVM 22 writes.
constexpr unsigned kPTXVersions[] = {32, 40, 41, 42, 43, 50, 60, 61, 62, 63,
                                     64, 65, 70, 71, 72, 73, 74, 75, 76, 77,
                                     78, 80, 81, 82, 83, 84, 85, 86, 87, 88,
                                     90};

bool isExecutable(const Twine &path) {
  return sys::fs::exists(path) && sys::fs::can_execute(path);
}

std::optional<kiln::cuda::Toolkit> toolkitAt(StringRef root,
                                             StringRef foundBy) {
  SmallString<256> ptxas(root);
  sys::path::append(ptxas, "bin", "ptxas");
  if (!isExecutable(ptxas))
    return std::nullopt;
  kiln::cuda::Toolkit toolkit;
  toolkit.root = root.str();
  toolkit.ptxas = ptxas.str().str();
  toolkit.foundBy = foundBy.str();
  SmallString<256> fatbinary(root);
  sys::path::append(fatbinary, "bin", "fatbinary");
  if (isExecutable(fatbinary))
    toolkit.fatbinary = fatbinary.str().str();
  SmallString<256> libdevice(root);
  sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  if (sys::fs::exists(libdevice))
    toolkit.libdevice = libdevice.str().str();
  return toolkit;
}

/// /usr/local/cuda-X.Y directories, newest first.
std::vector<std::string> versionedPrefixes() {
  std::vector<std::pair<std::pair<unsigned, unsigned>, std::string>> found;
  std::error_code ec;
  for (sys::fs::directory_iterator it("/usr/local", ec), end; !ec && it != end;
       it.increment(ec)) {
    StringRef name = sys::path::filename(it->path());
    if (!name.consume_front("cuda-"))
      continue;
    auto [majorText, minorText] = name.split('.');
    unsigned major = 0, minor = 0;
    if (majorText.getAsInteger(10, major) ||
        (!minorText.empty() && minorText.getAsInteger(10, minor)))
      continue;
    found.push_back({{major, minor}, it->path()});
  }
  llvm::sort(found, [](const auto &a, const auto &b) { return a > b; });
  std::vector<std::string> paths;
  for (auto &entry : found)
    paths.push_back(entry.second);
  return paths;
}
} // namespace

namespace kiln {
namespace cuda {

std::optional<unsigned> minPTXVersion(StringRef chip) {
  for (const Chip &c : kChips)
    if (c.name == chip)
      return c.minPTX;
  return std::nullopt;
}

unsigned maxPTXVersion() { return kPTXVersions[std::size(kPTXVersions) - 1]; }

std::vector<StringRef> knownChips() {
  std::vector<StringRef> names;
  for (const Chip &c : kChips)
    names.push_back(c.name);
  return names;
}

std::string ptxFeature(unsigned version) {
  return "+ptx" + std::to_string(version);
}

std::string ptxVersionString(unsigned version) {
  return std::to_string(version / 10) + "." + std::to_string(version % 10);
}

std::optional<unsigned> ptxVersionOf(StringRef features, std::string &error) {
  std::optional<unsigned> version;
  SmallVector<StringRef> parts;
  features.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef part : parts) {
    part = part.trim();
    if (!part.consume_front("+ptx"))
      continue;
    unsigned v = 0;
    if (part.getAsInteger(10, v) || !llvm::is_contained(kPTXVersions, v)) {
      error = "unknown PTX version '+ptx" + part.str() +
              "' (LLVM writes PTX 3.2 to " + ptxVersionString(maxPTXVersion()) +
              ")";
      return std::nullopt;
    }
    if (version && *version != v) {
      error = "features '" + features.str() + "' name two PTX versions";
      return std::nullopt;
    }
    version = v;
  }
  return version;
}

std::string targetFeatures(StringRef chip, StringRef features) {
  if (features.empty())
    if (std::optional<unsigned> minimum = minPTXVersion(chip))
      return ptxFeature(*minimum);
  return features.str();
}

std::optional<std::string> checkTarget(StringRef chip, StringRef features) {
  std::optional<unsigned> minimum = minPTXVersion(chip);
  if (!minimum)
    return "unknown NVIDIA chip '" + chip.str() + "' (known: " +
           llvm::join(knownChips(), ", ") + ")";
  std::string error;
  std::optional<unsigned> version = ptxVersionOf(features, error);
  if (!error.empty())
    return error;
  // Without a +ptx feature LLVM uses its oldest PTX, which only the oldest
  // chips accept.
  unsigned asked = version.value_or(kPTXVersions[0]);
  if (asked < *minimum)
    return "chip '" + chip.str() + "' needs PTX " +
           ptxVersionString(*minimum) + " or newer, but the target asks for " +
           "PTX " + ptxVersionString(asked) +
           (version ? " (features '" + features.str() + "')"
                    : std::string(" (no +ptx feature)")) +
           "; use features \"" + ptxFeature(*minimum) + "\" or newer";
  return std::nullopt;
}

std::optional<Toolkit> findToolkit(StringRef explicitPath,
                                   std::vector<std::string> *searched) {
  auto note = [&](StringRef where) {
    if (searched)
      searched->push_back(where.str());
  };
  // An explicit path is the only place looked at: a typo must not silently
  // pick another toolkit.
  if (!explicitPath.empty()) {
    note(("--cuda-path=" + explicitPath).str());
    return toolkitAt(explicitPath, "--cuda-path");
  }
  if (std::optional<std::string> env = sys::Process::GetEnv("CUDA_PATH");
      env && !env->empty()) {
    note("CUDA_PATH=" + *env);
    if (auto toolkit = toolkitAt(*env, "CUDA_PATH"))
      return toolkit;
  }
  note("PATH");
  std::optional<Toolkit> partial;
  if (ErrorOr<std::string> ptxas = sys::findProgramByName("ptxas")) {
    SmallString<256> real;
    if (sys::fs::real_path(*ptxas, real))
      real = *ptxas;
    StringRef root = sys::path::parent_path(sys::path::parent_path(real));
    // A ptxas on PATH may be a wrapper script (say /usr/local/bin/ptxas
    // exec'ing the real one) whose directory holds no nvvm/ tree. Such a
    // partial toolkit is used only when no conventional prefix holds a
    // complete one, so that libdevice is still found.
    if (auto toolkit = toolkitAt(root, "PATH")) {
      if (!toolkit->libdevice.empty())
        return toolkit;
      partial = std::move(toolkit);
    }
  }
  // KILN_CUDA_PREFIXES (colon-separated) replaces the conventional
  // prefixes, for toolkits installed elsewhere and for tests.
  std::vector<std::string> prefixes;
  if (std::optional<std::string> env = sys::Process::GetEnv("KILN_CUDA_PREFIXES")) {
    SmallVector<StringRef> parts;
    StringRef(*env).split(parts, ':', -1, /*KeepEmpty=*/false);
    for (StringRef part : parts)
      prefixes.push_back(part.str());
  } else {
    prefixes.push_back("/usr/local/cuda");
    for (const std::string &prefix : versionedPrefixes())
      prefixes.push_back(prefix);
  }
  for (const std::string &prefix : prefixes) {
    note(prefix);
    if (auto toolkit = toolkitAt(prefix, prefix))
      if (!partial || !toolkit->libdevice.empty())
        return toolkit;
  }
  return partial;
}

} // namespace cuda
} // namespace kiln
