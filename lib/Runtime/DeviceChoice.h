//===- DeviceChoice.h - Picking a device by index or name ------*- C++ -*-===//
//
// How the runtimes read one entry of a device list (--device=,
// KILN_VULKAN_DEVICE, KILN_CUDA_DEVICE; DeviceList.h splits the list): an
// index (digits only), a UUID (32 hex digits, dashes and a "GPU-" prefix
// allowed, as nvidia-smi prints them), or any part of a device's name,
// case-insensitive. Also where an MPI launcher says which of a node's ranks
// this process is, which the backends' default device choices honour.
// Standard library only; each runtime words its own messages.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_DEVICECHOICE_H
#define KILN_RUNTIME_DEVICECHOICE_H

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

namespace kiln {
namespace rt {

enum class DeviceMatch { Found, IndexOutOfRange, NoSuchName, NoSuchUUID };

/// "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" for a 16-byte UUID.
inline std::string formatUUID(const unsigned char bytes[16]) {
  static const char digits[] = "0123456789abcdef";
  std::string text;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10)
      text += '-';
    text += digits[bytes[i] >> 4];
    text += digits[bytes[i] & 15];
  }
  return text;
}

/// The 32 lower-case hex digits of `text` when it spells a UUID (dashes
/// anywhere, an optional "GPU-" prefix); "" otherwise.
inline std::string uuidDigits(const std::string &text) {
  std::string s = text;
  if (s.size() > 4 &&
      (s.compare(0, 4, "GPU-") == 0 || s.compare(0, 4, "gpu-") == 0))
    s = s.substr(4);
  std::string digits;
  for (char c : s) {
    if (c == '-')
      continue;
    if (!std::isxdigit(static_cast<unsigned char>(c)))
      return "";
    digits += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return digits.size() == 32 ? digits : "";
}

/// Finds `choice` among `names` (and their `uuids`, formatUUID's text; may
/// be empty when the backend has none); on Found sets `index`. A choice
/// that spells a UUID is matched against the UUIDs only.
inline DeviceMatch matchDevice(const std::string &choice,
                               const std::vector<std::string> &names,
                               size_t &index,
                               const std::vector<std::string> &uuids = {}) {
  auto isDigit = [](unsigned char c) { return std::isdigit(c) != 0; };
  if (!choice.empty() && std::all_of(choice.begin(), choice.end(), isDigit)) {
    // Digit by digit, so that a huge number is out of range, not a crash.
    size_t value = 0;
    for (char c : choice) {
      value = value * 10 + static_cast<size_t>(c - '0');
      if (value >= names.size())
        return DeviceMatch::IndexOutOfRange;
    }
    index = value;
    return DeviceMatch::Found;
  }
  if (std::string wanted = uuidDigits(choice); !wanted.empty()) {
    for (size_t i = 0; i < uuids.size(); ++i)
      if (uuidDigits(uuids[i]) == wanted) {
        index = i;
        return DeviceMatch::Found;
      }
    return DeviceMatch::NoSuchUUID;
  }
  auto lower = [](std::string s) {
    for (char &c : s)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  std::string wanted = lower(choice);
  for (size_t i = 0; i < names.size(); ++i)
    if (lower(names[i]).find(wanted) != std::string::npos) {
      index = i;
      return DeviceMatch::Found;
    }
  return DeviceMatch::NoSuchName;
}

/// Where a launcher (mpirun, mpiexec, srun) placed this process among the
/// ranks of its node: `rank` from 0, and `size` ranks on the node (0 when
/// the launcher does not say).
struct LocalRank {
  int rank = 0;
  int size = 0;
};

/// A non-negative decimal number at the start of `text` (Slurm writes
/// "2(x3)" for per-node task counts); -1 for none.
inline int leadingCount(const char *text) {
  if (!text || !std::isdigit(static_cast<unsigned char>(*text)))
    return -1;
  long value = 0;
  for (; std::isdigit(static_cast<unsigned char>(*text)); ++text) {
    value = value * 10 + (*text - '0');
    if (value > 1 << 24)
      return -1;
  }
  return static_cast<int>(value);
}

/// The process's local rank as its launcher set it in the environment:
/// Open MPI's OMPI_COMM_WORLD_LOCAL_RANK (and _LOCAL_SIZE), MPICH's Hydra
/// MPI_LOCALRANKID (MPI_LOCALNRANKS), then Slurm's SLURM_LOCALID
/// (SLURM_NTASKS_PER_NODE, SLURM_TASKS_PER_NODE). False when none is set: a
/// process not started by a launcher, which takes the default device. The
/// variables are set before MPI_Init, so the device is chosen the same
/// whether or when the program initializes MPI.
inline bool launcherLocalRank(LocalRank &local) {
  struct Launcher {
    const char *rank;
    const char *size;
    const char *otherSize;
  };
  static const Launcher launchers[] = {
      {"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE", nullptr},
      {"MPI_LOCALRANKID", "MPI_LOCALNRANKS", nullptr},
      {"SLURM_LOCALID", "SLURM_NTASKS_PER_NODE", "SLURM_TASKS_PER_NODE"}};
  for (const Launcher &launcher : launchers) {
    int rank = leadingCount(std::getenv(launcher.rank));
    if (rank < 0)
      continue;
    int size = leadingCount(std::getenv(launcher.size));
    if (size < 0 && launcher.otherSize)
      size = leadingCount(std::getenv(launcher.otherSize));
    local.rank = rank;
    local.size = size > 0 ? size : 0;
    return true;
  }
  return false;
}

/// Which of `candidates` devices (those the backend's default would choose
/// among, in its order) the default device of this process is: the local
/// rank's, round-robin (`localRank mod candidates`), so that the ranks of one
/// node spread over its devices; the first without a launcher.
inline size_t defaultDeviceForLocalRank(size_t candidates) {
  LocalRank local;
  if (candidates == 0 || !launcherLocalRank(local))
    return 0;
  return static_cast<size_t>(local.rank) % candidates;
}

/// The share of `threads` (the host's cores) that one of the node's ranks
/// takes when the launcher says how many ranks the node runs: `threads`
/// divided by the local size, at least 1.
inline unsigned shareAmongLocalRanks(unsigned threads) {
  LocalRank local;
  if (!launcherLocalRank(local) || local.size <= 1)
    return threads;
  unsigned share = threads / static_cast<unsigned>(local.size);
  return share ? share : 1;
}

/// "\n  0: NAME\n  1: NAME..." for messages.
inline std::string listDevices(const std::vector<std::string> &names) {
  std::string all;
  for (size_t i = 0; i < names.size(); ++i)
    all += "\n  " + std::to_string(i) + ": " + names[i];
  return all;
}

} // namespace rt
} // namespace kiln

#endif // KILN_RUNTIME_DEVICECHOICE_H
