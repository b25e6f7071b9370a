//===- DeviceChoice.h - Picking a device by index or name ------*- C++ -*-===//
//
// How both runtimes read KILN_VULKAN_DEVICE / KILN_CUDA_DEVICE: an index
// (digits only), or any part of a device's name, case-insensitive. Standard
// library only; each runtime words its own messages.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_DEVICECHOICE_H
#define KILN_RUNTIME_DEVICECHOICE_H

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace kiln {
namespace rt {

enum class DeviceMatch { Found, IndexOutOfRange, NoSuchName };

/// Finds `choice` among `names`; on Found sets `index`.
inline DeviceMatch matchDevice(const std::string &choice,
                               const std::vector<std::string> &names,
                               size_t &index) {
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
