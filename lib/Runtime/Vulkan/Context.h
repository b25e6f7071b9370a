//===- Context.h - The Vulkan runtime's process state -----------*- C++ -*-===//
//
// The process-wide state of Kiln's Vulkan runtime.
//
// One Context per process opens the instance and a Device (Device.h) and
// holds the units over it: Memory (Memory.h) and Executables
// (Executable.h), which read the Device and call nothing above it. The
// Context adds submissions, streams and launches; the mgpu* entry points
// (Runtime.cpp) lock it and call into it.
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
  static Context &get();
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
  /// The device the runtime uses (KILN_VULKAN_DEVICE or the default order).
  Expected<VkPhysicalDevice> choosePhysicalDevice();
  Status initDevice();
  void setDefaultDevice(int index);

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

  /// Releases everything (from an exit handler). Validation messages not
  /// reported yet end the process with status 1 (checkValidation reports
  /// them as an error before that).
  void teardown();
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
  Context() = default;
  Status createMessenger();
  /// Reads the options and environment the instance is made from:
  /// validation, timing, timeout, debug printf, SPIR-V validation.
  Status readSettings();
  /// The validation layer (for validation or debug printf) and the debug
  /// utils extension; an error naming the package when it is missing.
  Status addValidationLayer(std::vector<const char *> &layers,
                            std::vector<const char *> &extensions);
  /// Tears the runtime down at exit, before the driver's and the layers'
  /// own exit handlers (once per process).
  void registerTeardownAtExit();
  /// Releases everything the device owns, then the device.
  void destroyDevice();
  /// Releases what initDevice creates (cache, pool, empty buffer), then the
  /// device: what a failed initDevice undoes.
  void destroyDeviceObjects();
  /// The module's VkShaderModule, once the device exists (loadModule, or
  /// the first kernel lookup for a module loaded before it).
  Status createShader(Module *module);
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  int requestedDevice = -1;

public:
  /// The device's allocations, staging and host import.
  Memory memory{*this};
  /// Its modules, kernels and pipelines.
  Executables executables{*this};
  /// Its queue: submissions, fences, timestamps and streams.
  Queue queue{*this};
  /// Launches, copies and fills over the units above.
  Launcher launcher{*this, memory, executables, queue};
};

} // namespace kiln::vkrt

#endif // KILN_RUNTIME_VULKAN_CONTEXT_H
