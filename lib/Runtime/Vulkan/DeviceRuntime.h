//===- DeviceRuntime.h - One Vulkan device behind rt::Runtime ---*- C++ -*-===//
//
// The Vulkan runtime of one device: what the process's rt::DeviceList
// (kilnVulkanRuntime()) holds one of per entry of its device list. Unit
// tests build their own lists from it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_VULKAN_DEVICERUNTIME_H
#define KILN_RUNTIME_VULKAN_DEVICERUNTIME_H

#include "../DeviceList.h"
#include "kiln/Runtime/Runtime.h"

#include <memory>

namespace kiln::vkrt {

/// The single-device runtime at `place` of a device list, not configured
/// yet: its Options::device is one entry of the list ("" or unset: the
/// default device). It opens its own instance and device on first use.
std::unique_ptr<rt::Runtime> makeDeviceRuntime(const rt::DevicePlace &place);

} // namespace kiln::vkrt

#endif // KILN_RUNTIME_VULKAN_DEVICERUNTIME_H
