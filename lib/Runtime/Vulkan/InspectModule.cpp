//===- InspectModule.cpp - What the runtime reads of a module at load -----===//
//
// inspectModule: a container or raw SPIR-V as mgpuModuleLoad receives it,
// checked before anything is built from it or a driver sees it: the
// container's layout, the SPIR-V's instruction stream, entry points and
// workgroup sizes, debug printf formats, and the container's argument table
// against the SPIR-V (container::checkInterface). It keeps no state, so the
// fuzz targets call it directly.
//
//===----------------------------------------------------------------------===//

#include "Context.h"
#include "kiln/Contract/PrintfFormat.h"

#include <spirv/unified1/NonSemanticDebugPrintf.h>
#include <spirv/unified1/spirv.h>

#include <cstring>
#include <map>

using namespace kiln;
using namespace kiln::vkrt;

/// Names of the GLCompute entry points of a SPIR-V module; false when the
/// words are not a well-formed instruction stream (drivers may crash on
/// those rather than fail) or a debug printf format is unsafe.
static bool scanEntryPoints(const std::vector<uint32_t> &words,
                            std::vector<std::string> &names, bool &debugPrintf,
                            std::string &error) {
  std::map<uint32_t, std::string> strings;
  uint32_t printfSet = 0;
  if (words.size() < 5 || words[0] != container::kSPIRVMagic) {
    error = "the SPIR-V header is missing or has a bad magic number";
    return false;
  }
  for (size_t i = 5; i < words.size();) {
    uint32_t count = words[i] >> 16, opcode = words[i] & 0xFFFF;
    if (count == 0 || i + count > words.size()) {
      error = "SPIR-V instruction at word " + std::to_string(i) +
              " runs past the end of the module";
      return false;
    }
    // The literal string that starts at operand word `first`.
    auto literal = [&](uint32_t first) {
      const char *chars = reinterpret_cast<const char *>(&words[i + first]);
      return std::string(chars, strnlen(chars, (count - first) * 4));
    };
    if (opcode == SpvOpEntryPoint && count >= 4 &&
        words[i + 1] == SpvExecutionModelGLCompute)
      names.push_back(literal(3));
    if (opcode == SpvOpExtInstImport && count >= 3 &&
        literal(2) == "NonSemantic.DebugPrintf") {
      debugPrintf = true;
      printfSet = words[i + 1];
    }
    if (opcode == SpvOpString && count >= 3)
      strings[words[i + 1]] = literal(2);
    // A debug printf's format is checked as the compiler checks it: the
    // validation layer gives it to snprintf, which would read (%s) or write
    // (%n) memory that is not there. It takes one value per conversion.
    if (opcode == SpvOpExtInst && count >= 6 && printfSet &&
        words[i + 3] == printfSet &&
        words[i + 4] == NonSemanticDebugPrintfDebugPrintf) {
      auto format = strings.find(words[i + 5]);
      if (format == strings.end()) {
        error = "a debug printf's format is not an OpString declared before it";
        return false;
      }
      std::vector<printf_format::Conversion> conversions;
      std::string why = printf_format::parse(format->second, conversions);
      if (why.empty() && conversions.size() != count - 6)
        why = "format has " + std::to_string(conversions.size()) +
              " conversions for " + std::to_string(count - 6) + " values";
      if (!why.empty()) {
        error = "its debug printf format \"" + format->second + "\": " + why;
        return false;
      }
    }
    i += count;
  }
  return true;
}

bool kiln::vkrt::inspectModule(const void *data, size_t size, Module &module,
                               std::string &error) {
  if (!data && size) {
    error = "a null module of " + std::to_string(size) + " bytes";
    return false;
  }
  module.bytes.assign(static_cast<const uint8_t *>(data),
                      static_cast<const uint8_t *>(data) + size);
  if (container::isContainer(data, size)) {
    if (!container::parse(module.bytes.data(), size, module.info, error))
      return false;
    module.isContainer = true;
  } else {
    uint32_t magic = 0;
    if (size >= 4)
      std::memcpy(&magic, data, 4);
    if (size < 20 || size % 4 != 0 || magic != container::kSPIRVMagic) {
      error = std::to_string(size) +
              " bytes that are neither a Kiln container nor SPIR-V (bad "
              "magic or size)";
      return false;
    }
    module.info.spirv.resize(size / 4);
    std::memcpy(module.info.spirv.data(), data, size);
  }
  if (!scanEntryPoints(module.info.spirv, module.entryPoints,
                       module.debugPrintf, error))
    return false;
  // The container's argument table is trusted only where the SPIR-V agrees
  // (entry points, workgroup sizes, bindings, push constants).
  return !module.isContainer || container::checkInterface(module.info, error);
}
