//===- Context.h - The Vulkan runtime's process state -----------*- C++ -*-===//
//
// The state of one device of Kiln's Vulkan runtime.
//
// A Context opens its own instance and one Device (Device.h) and holds the
// units over it: Memory (Memory.h) and Executables (Executable.h), which
// read the Device and call nothing above it. The Context adds submissions,
// streams and launches. Each single-device runtime (Runtime.cpp) owns one
// Context, locks it and calls into it; a process holds one per entry of its
// device list, and several instances side by side are fine in Vulkan. An
// exit handler tears down every Context still alive.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_VULKAN_CONTEXT_H
#define KILN_RUNTIME_VULKAN_CONTEXT_H

#include "Device.h"
#include "Executable.h"
#include "Launcher.h"
#include "Memory.h"
#include "Queue.h"
#include "kiln/Contract/Container.h"
#include "kiln/Runtime/Runtime.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

namespace kiln::vkrt {

class Context : public Device {
public:
  /// The device at `place` of the process's list; opens nothing until
  /// first used.
  explicit Context(rt::DevicePlace place);
  /// Tears the device and its instance down, unless the exit handler did
  /// already. A Context whose wait timed out must not be destroyed (the
  /// device still runs its work): its owner leaves it alive.
  ~Context();
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  /// Guards everything below; waits for the device release it
  /// (Queue::heldLockOn).
  std::mutex mutex;

  // Every function that can fail returns its error; the mgpu* entry points
  // (Runtime.cpp) report it and exit, the C++ interface hands it back.

  /// The error every call returns once the device was lost or a wait timed
  /// out (success otherwise), and after teardown.
  Status usable() const;

  /// What the program set (rt::Runtime::configure) over the environment.
  rt::Options options;

  // Instance-level; enough to list devices.
  Status initInstance();
  Expected<std::vector<VkPhysicalDevice>> physicalDevices();
  /// The device the runtime uses: options.device, one entry of the
  /// process's list (an index, a name substring or a UUID), or the default
  /// order when it is empty or unset.
  Expected<VkPhysicalDevice> choosePhysicalDevice();
  Status initDevice();
  /// `device`'s UUID as rt::formatUUID writes it; "" for a Vulkan 1.0
  /// device, which reports none.
  std::string uuidOf(VkPhysicalDevice device);

  Expected<Module *> loadModule(const void *data, size_t size);
  Status unloadModule(Module *module);
  Expected<Kernel *> getKernel(Module *module, const char *name);
  /// Launches `kernel`; `dynamicSharedBytes` sizes its dynamic workgroup
  /// memory (gpu.dynamic_shared_memory), checked against the device.
  Status launch(Kernel *kernel, const intptr_t grid[3], const intptr_t block[3],
                int64_t dynamicSharedBytes, Stream *stream, void **params,
                size_t paramsCount);

  Status synchronize(Stream *stream);
  /// Waits for every pending submission of every stream.
  Status drainAll();

  Expected<void *> allocate(uint64_t size, bool hostShared);
  Status free(void *ptr);
  Status copy(void *dst, const void *src, size_t size);
  /// vkCmdCopyBuffer between two device allocations, waited for; the GPU
  /// microseconds between timestamps around it, or -1 without timestamps.
  Expected<double> deviceCopy(void *dst, const void *src, size_t size);
  Status setTimingCallback(KilnTimingCallback callback, void *user);
  Status fill(void *dst, uint32_t pattern, unsigned patternBytes, size_t count);

  Stream *defaultStream() { return queue.defaultStream(); }
  /// Handles from the mgpu* boundary are looked up, never trusted: an error
  /// naming `what` unless `stream` is null, the default stream or one that
  /// createStream returned and destroyStream did not destroy (likewise for
  /// loaded modules and the kernels getKernel returned).
  Status checkStream(const Stream *stream, const char *what) const;
  Status checkModule(const Module *module, const char *what) const;
  Status checkKernel(const Kernel *kernel, const char *what) const;
  Stream *createStream();
  Status destroyStream(Stream *stream);

  /// Releases everything (from the exit handler or the destructor, with
  /// the lock held or no one else using the Context); returns how many
  /// validation messages the layer reported that no call returned yet
  /// (checkValidation), which fail the process at exit.
  unsigned teardown();
  /// Writes a validation layer settings file with the printf buffer size and
  /// points VK_LAYER_SETTINGS_PATH at its directory, which it returns ("" if
  /// the user set VK_LAYER_SETTINGS_PATH).
  Expected<std::string> writePrintfSettings();

  /// Every device, one paragraph each (DeviceInfo.cpp).
  Expected<std::string> describeDevices();
  /// The `#spirv.target_env` of the device the runtime uses.
  Expected<std::string> deviceTargetEnv();
  Status deviceInfo(KilnVulkanDeviceInfo &info);

  bool validation = false;
  /// Debug printf is on: the validation layer runs the kernels'
  /// NonSemantic.DebugPrintf instructions and the messenger prints their
  /// output. On with KILN_VULKAN_PRINTF=1, or when the first module loaded
  /// before the instance exists prints (printfRequested).
  bool printfOn = false;
  bool printfRequested = false;
  /// KILN_VULKAN_PRINTF=0: kernels that print run without printing.
  bool printfOff = false;
  /// The validation layer's printf buffer per launch
  /// (KILN_VULKAN_PRINTF_BUFFER; 0 when the user's VK_LAYER_SETTINGS_PATH
  /// decides).
  uint64_t printfBufferBytes = 4u << 20;
  bool torndown = false;

private:
  Status createMessenger();
  /// Reads the options and environment the instance is made from:
  /// validation, timing, timeout, debug printf, SPIR-V validation.
  Status readSettings();
  /// The validation layer (for validation or debug printf) and the debug
  /// utils extension; an error naming the package when it is missing.
  Status addValidationLayer(std::vector<const char *> &layers,
                            std::vector<const char *> &extensions);
  /// Tears every live Context down at exit, before the driver's and the
  /// layers' own exit handlers (registered again with each instance: the
  /// loader may have loaded them anew).
  static void registerTeardownAtExit();
  /// Releases everything the device owns, then the device.
  void destroyDevice();
  /// Releases what initDevice creates (cache, pool, empty buffer), then the
  /// device: what a failed initDevice undoes.
  void destroyDeviceObjects();
  /// The module's VkShaderModule, once the device exists (loadModule, or
  /// the first kernel lookup for a module loaded before it).
  Status createShader(Module *module);
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;

public:
  /// The device's allocations, staging and host import.
  Memory memory{*this};
  /// Its modules, kernels and pipelines.
  Executables executables{*this};
  /// Its queue: submissions, fences, timestamps and streams; its waits
  /// release this Context's lock.
  Queue queue{*this, &mutex};
  /// Launches, copies and fills over the units above.
  Launcher launcher{*this, memory, executables, queue};
};

} // namespace kiln::vkrt

#endif // KILN_RUNTIME_VULKAN_CONTEXT_H
