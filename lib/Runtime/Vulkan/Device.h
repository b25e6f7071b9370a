//===- Device.h - One opened Vulkan device ----------------------*- C++ -*-===//
//
// One opened Vulkan device, as the units above read it.
//
// The bottom of the Vulkan runtime's units: the handles and properties of
// one opened device, and the RAII owner every unit holds its Vulkan objects
// in. Memory (Memory.h) reads a Device; the Context, which opens it, holds
// the units above (modules, submissions, launches). Nothing here calls up.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_VULKAN_DEVICE_H
#define KILN_RUNTIME_VULKAN_DEVICE_H

#include "../Boundary.h"
#include "../DeviceList.h"
#include "Capabilities.h"
#include "Loader.h"
#include "kiln/Runtime/Status.h"
#include "kiln/Runtime/VulkanRuntime.h"

#include <atomic>
#include <cstdint>
#include <string>

namespace kiln::vkrt {

using rt::Expected;
using rt::ScopeExit;
using rt::Status;

/// The error of a failed Vulkan call (success for VK_SUCCESS): the call, the
/// result by name, and where (`file`, `line`). VK_ERROR_DEVICE_LOST is a
/// DeviceLost error, the out-of-memory results OutOfMemory ones.
Status vkStatus(VkResult result, const char *call, const char *file, int line);

/// Returns the error of Vulkan call `CALL` (its name) when `RESULT` is one;
/// for calls on no device (the instance's).
#define KILN_VK(RESULT, CALL)                                                  \
  KILN_TRY(::kiln::vkrt::vkStatus((RESULT), (CALL), __FILE__, __LINE__))
/// The same for a call on device `DEVICE` (a Device), which a lost device
/// marks broken (Device::vkCheck).
#define KILN_VK_ON(DEVICE, RESULT, CALL)                                       \
  KILN_TRY((DEVICE).vkCheck((RESULT), (CALL), __FILE__, __LINE__))

/// Owns one object of a device: destroys it when it goes out of scope, so
/// that every path (errors included) releases what it created. `Handle` is
/// a non-dispatchable Vulkan handle and `destroy` the vkDestroy* (or
/// vkFreeMemory) that releases it.
template <typename Handle> class Owned {
public:
  using Destroy = void(VKAPI_PTR *)(VkDevice, Handle,
                                    const VkAllocationCallbacks *);
  Owned() = default;
  Owned(VkDevice device, Destroy destroy) : device(device), destroy(destroy) {}
  Owned(const Owned &) = delete;
  Owned &operator=(const Owned &) = delete;
  Owned(Owned &&other) noexcept { *this = std::move(other); }
  Owned &operator=(Owned &&other) noexcept {
    if (this != &other) {
      reset();
      device = other.device;
      destroy = other.destroy;
      handle = other.handle;
      other.handle = VK_NULL_HANDLE;
    }
    return *this;
  }
  ~Owned() { reset(); }

  Handle get() const { return handle; }
  explicit operator bool() const { return handle != VK_NULL_HANDLE; }
  /// Where a vkCreate* call stores the new handle (what was owned is
  /// released first).
  Handle *out() {
    reset();
    return &handle;
  }
  /// Gives the handle up without destroying it (the device still uses it).
  Handle release() {
    Handle h = handle;
    handle = VK_NULL_HANDLE;
    return h;
  }
  void reset() {
    if (handle != VK_NULL_HANDLE && destroy)
      destroy(device, handle, nullptr);
    handle = VK_NULL_HANDLE;
  }

private:
  VkDevice device = VK_NULL_HANDLE;
  Destroy destroy = nullptr;
  Handle handle = VK_NULL_HANDLE;
};

/// How a device is opened (the runtime reads them from its environment).
struct DeviceOptions {
  /// Robust buffer access (KILN_VULKAN_ROBUST); an error where the device
  /// does not offer it.
  bool robust = false;
  /// Import host memory where the device can (KILN_VULKAN_HOST_IMPORT,
  /// default on); staged otherwise.
  bool hostImport = true;
  /// Features kernels may not use (KILN_VULKAN_HIDE_FEATURES), as
  /// hideFeatures reads them.
  std::string hideFeatures;
};

/// One opened device: what every unit reads (set while it opens, constant
/// after) and the counters they add to.
struct Device {
  /// Where the device sits in the process's device list: its index names
  /// it in timing lines, and launches ask the list about memory that is
  /// not this device's.
  rt::DevicePlace place;
  vk::Functions vk;
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memoryProperties{};
  VkDevice device = VK_NULL_HANDLE;
  VkQueue computeQueue = VK_NULL_HANDLE; ///< The one queue all work goes to.
  uint32_t queueFamily = 0;
  /// What the device offers kernels (after KILN_VULKAN_HIDE_FEATURES).
  DeviceCapabilities capabilities;
  /// The device runs SPIR-V with non-semantic instructions (Vulkan 1.3 or
  /// VK_KHR_shader_non_semantic_info).
  bool nonSemanticInfo = false;
  bool timestamps = false; ///< The queue has timestamps.
  /// VK_EXT_external_memory_host: host memory is imported, not staged, and
  /// its ranges aligned to `importAlignment`.
  bool hostImport = false;
  uint64_t importAlignment = 4096;
  bool robust = false; ///< KILN_VULKAN_ROBUST: robust buffer access on.
  /// bufferDeviceAddress is on: every buffer Kiln creates has a device
  /// address, for kernels that bind memrefs by address.
  bool deviceAddresses = false;
  KilnVulkanStats stats{};
  /// Warnings and errors the validation layer's messenger reported and no
  /// one asked for yet (the layer may call from a wait that released the
  /// runtime's lock).
  std::atomic<unsigned> validationMessages{0};
  /// Set when the device was lost or a wait timed out: every later call
  /// fails with it.
  Status broken;
  /// A wait timed out: the device still runs the work, so teardown releases
  /// nothing.
  bool stuck = false;

  /// A Validation error when the layer reported messages since last asked.
  Status checkValidation();
  /// vkStatus for a call on this device: VK_ERROR_DEVICE_LOST also marks
  /// this device broken (and no other).
  Status vkCheck(VkResult result, const char *call, const char *file, int line);

  /// Opens `physical` of the instance in `vk` with every feature kernels
  /// may use (less those `options` hide) and one compute queue; fills the
  /// fields above. On an error no device exists.
  Status open(VkPhysicalDevice physical, const DeviceOptions &options);
  /// Destroys the device; everything made on it is released first.
  void close();
};

} // namespace kiln::vkrt

#endif // KILN_RUNTIME_VULKAN_DEVICE_H
