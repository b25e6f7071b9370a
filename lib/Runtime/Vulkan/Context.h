//===- Context.h - The process-wide state of Kiln's Vulkan runtime -*- C++ -*-===//
//
// One Context per process holds the instance, device, queue, caches and pools;
// modules, kernels, streams and device allocations hang off it. The mgpu*
// entry points (Runtime.cpp) lock it and call into it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_VULKAN_CONTEXT_H
#define KILN_RUNTIME_VULKAN_CONTEXT_H

#include "Capabilities.h"
#include "Loader.h"
#include "kiln/Runtime/VulkanRuntime.h"
#include "kiln/Target/Container.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace kiln::vkrt {

/// Prints "kiln-vulkan: <message>" on stderr and exits with status 1. The
/// mgpu* ABI has no error returns; every error is fatal, and the Context's
/// teardown (run by exit) releases what was created.
[[noreturn]] void fatal(const std::string &message);

/// Checks a VkResult; on failure reports the call and the result by name.
void check(VkResult result, const char *call);

struct Module;

/// A kernel of a loaded module and the Vulkan objects that run it.
struct Kernel {
  Module *module = nullptr;
  std::string name;
  /// From the container; raw SPIR-V kernels have none.
  const container::KernelInfo *info = nullptr;
  std::vector<VkDescriptorSetLayout> setLayouts;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  /// Raw SPIR-V: the number of buffers the pipeline layout was made for.
  size_t rawBuffers = SIZE_MAX;
  uint32_t maxBinding = 0;
};

struct Module {
  std::vector<uint8_t> bytes; ///< A copy of what mgpuModuleLoad was given.
  const void *source = nullptr;
  bool isContainer = false;
  /// The SPIR-V prints (imports NonSemantic.DebugPrintf).
  bool debugPrintf = false;
  container::ModuleInfo info;
  std::vector<std::string> entryPoints;
  VkShaderModule shader = VK_NULL_HANDLE;
  std::map<std::string, std::unique_ptr<Kernel>> kernels;
  unsigned references = 0;
};

/// What the runtime checks in a module's bytes before any device sees them:
/// the container (or raw SPIR-V), the SPIR-V's instruction stream and entry
/// points, and that the container's kernels agree with them. Fills
/// `module`'s bytes, info, entry points and debugPrintf; false with `error`
/// on what it refuses. Touches no Vulkan state (the fuzz target calls it).
bool inspectModule(const void *data, size_t size, Module &module,
                   std::string &error);

/// Host memory a launch reads or writes, imported into Vulkan or staged
/// through a host-visible buffer, alive until the launch completes.
struct HostSegment {
  uintptr_t lo = 0, hi = 0;   ///< The host bytes the kernel may touch.
  uintptr_t base = 0;         ///< Host address of byte 0 of `buffer`.
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void *mapped = nullptr;     ///< Staging only.
  bool staged = false;
};

/// One queue submission: a command buffer and what it keeps alive.
struct Submission {
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  uint32_t poolBuffers = 0;
  VkQueryPool queries = VK_NULL_HANDLE;
  std::vector<HostSegment> segments;
  std::string kernel; ///< Empty for copies.
  bool timed = false;
  std::chrono::steady_clock::time_point submitted;
  std::chrono::steady_clock::time_point submitReturned;
  /// The stream whose pending list holds it until it completes.
  struct Stream *stream = nullptr;
  /// Threads waiting on its fence with the lock released; its fence is not
  /// reset, nor the submission reused, until they are done.
  unsigned waiters = 0;
  /// Completed (copies back done, timing reported), not yet recycled.
  bool done = false;
};

struct Stream {
  std::vector<Submission *> pending;
};

/// All work goes to one queue in submission order, so an event carries no
/// state: it completes when everything submitted before it has.
struct Event {};

/// Device-local memory from mgpuMemAlloc, at a reserved host address.
struct Allocation {
  uintptr_t base = 0;
  uint64_t size = 0;
  uint64_t reserved = 0; ///< Bytes of address space reserved (0: mapped).
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void *mapped = nullptr; ///< When the memory is host-visible and coherent.
};

/// Where a memref argument lives on the device.
struct Binding {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  VkDeviceSize range = 0;
  /// Elements between the bound offset and the descriptor's aligned pointer
  /// (added to the memref's offset in push constants).
  int64_t elementShift = 0;
  /// Bound by device address: the address of byte `offset` of `buffer`.
  VkDeviceAddress address = 0;
};

class Context {
public:
  static Context &get();
  std::mutex mutex;
  /// The lock on `mutex` that the calling thread holds, when an entry point
  /// took it (Runtime.cpp): waits for the device release it meanwhile.
  static thread_local std::unique_lock<std::mutex> *heldLock;

  // Instance-level; enough to list devices.
  void initInstance();
  std::vector<VkPhysicalDevice> physicalDevices();
  /// The device the runtime uses (KILN_VULKAN_DEVICE or the default order).
  VkPhysicalDevice choosePhysicalDevice();
  void initDevice();
  void setDefaultDevice(int index);

  Module *loadModule(const void *data, size_t size);
  /// The module's VkShaderModule, once the device exists (loadModule, or
  /// the first kernel lookup for a module loaded before it).
  void createShader(Module *module);
  /// SPIRV-Tools' verdict on `module`'s SPIR-V for the device (once per
  /// distinct SPIR-V); fatal, naming `kernels`, when it is invalid.
  void validateForDevice(const Module &module, const std::string &kernels);
  void unloadModule(Module *module);
  Kernel *getKernel(Module *module, const char *name);
  void launch(Kernel *kernel, const intptr_t grid[3], const intptr_t block[3],
              Stream *stream, void **params, size_t paramsCount);

  void synchronize(Stream *stream);
  void record(Event *event, Stream *stream);
  void synchronize(Event *event);
  /// Waits for every pending submission of every stream.
  void drainAll();

  void *allocate(uint64_t size, bool hostShared);
  void free(void *ptr);
  void copy(void *dst, const void *src, size_t size);
  /// vkCmdCopyBuffer between two device allocations, waited for; the GPU
  /// microseconds between timestamps around it, or -1 without timestamps.
  double deviceCopy(void *dst, const void *src, size_t size);
  void setTimingCallback(KilnTimingCallback callback, void *user);
  void fill(void *dst, uint32_t pattern, unsigned patternBytes, size_t count);

  Stream *defaultStream() { return &defaultStream_; }
  Stream *createStream();
  void destroyStream(Stream *stream);

  void teardown();
  void checkValidation();
  /// Writes a validation layer settings file with the printf buffer size and
  /// points VK_LAYER_SETTINGS_PATH at its directory, which it returns ("" if
  /// the user set VK_LAYER_SETTINGS_PATH).
  std::string writePrintfSettings();

  vk::Functions vk;
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memoryProperties{};
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
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
  /// The device runs SPIR-V with non-semantic instructions (Vulkan 1.3 or
  /// VK_KHR_shader_non_semantic_info).
  bool nonSemanticInfo = false;
  /// KILN_VULKAN_VALIDATE_SPIRV (default on where the validator is built
  /// in): SPIRV-Tools validates each distinct SPIR-V once before the driver.
  bool validateSPIRV = true;
  /// Hashes (and sizes) of the SPIR-V validated so far.
  std::set<std::pair<uint64_t, size_t>> validatedSPIRV;
  bool timing = false;     ///< Launches write timestamps.
  bool envTiming = false;  ///< KILN_VULKAN_TIMING: print them.
  /// KILN_VULKAN_TIMING=upstream: print them as upstream's Vulkan runtime
  /// did (three lines on stdout), for programs whose CHECK lines expect them.
  bool upstreamTiming = false;
  bool timestamps = false; ///< The queue has timestamps.
  KilnTimingCallback timingCallback = nullptr;
  void *timingUser = nullptr;
  bool hostImport = false;
  bool robust = false; ///< KILN_VULKAN_ROBUST: robust buffer access on.
  /// bufferDeviceAddress is on: every buffer Kiln creates has a device
  /// address, for kernels that bind memrefs by address.
  bool deviceAddresses = false;
  /// KILN_TIMEOUT: the longest wait for the device, in seconds (0: none).
  double timeoutSeconds = 0;
  bool torndown = false;
  uint64_t importAlignment = 4096;
  /// Counted by the messenger, which the layer may call from a wait that
  /// released the lock.
  std::atomic<unsigned> validationMessages{0};
  KilnVulkanStats stats{};
  /// What the device offers kernels (after KILN_VULKAN_HIDE_FEATURES).
  DeviceCapabilities capabilities;

private:
  Context() = default;
  void createMessenger();
  Submission *acquireSubmission(uint32_t buffers);
  void submit(Submission *s, Stream *stream);
  /// Timestamp queries around a command: a pool of two on `s`, the start
  /// (0, resetting the pool) or end (1) stamp, and the microseconds between
  /// them once `s` completed (-1 when unavailable).
  void createQueries(Submission *s);
  void writeTimestamp(Submission *s, uint32_t which);
  double gpuMicroseconds(Submission *s);
  void complete(Submission *s);
  /// Waits for `targets` (a copy: other threads may change the lists it
  /// came from while the lock is released) and completes them.
  void waitAndComplete(std::vector<Submission *> targets);
  /// Puts a completed submission back in the free list, its fence reset.
  void recycle(Submission *s);
  void beginRecording(VkCommandBuffer cmd);
  void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags srcStages,
                     VkAccessFlags srcAccess, VkPipelineStageFlags dstStages,
                     VkAccessFlags dstAccess);
  /// Records `body` into a fresh submission, submits it and waits. With
  /// `timed` (and timestamps on the queue), returns the GPU microseconds
  /// between timestamps around `body`; otherwise -1.
  template <typename F> double runNow(F body, bool timed = false);
  void createPipeline(Kernel *kernel, size_t rawBuffers);
  const Allocation *findAllocation(uintptr_t lo, uintptr_t hi) const;
  uint32_t findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags want,
                          VkMemoryPropertyFlags avoid = 0) const;
  /// A buffer with memory bound; what fails is fatal, naming `purpose`, the
  /// size and the device's memory.
  void createBuffer(VkDeviceSize size, VkBufferUsageFlags usage,
                    VkMemoryPropertyFlags want, VkBuffer &buffer,
                    VkDeviceMemory &memory, bool &hostVisible,
                    const std::string &purpose);
  /// "N bytes (X GiB)" against what device-local memory the device has.
  [[noreturn]] void outOfMemory(const std::string &purpose, uint64_t bytes,
                                const char *call, VkResult result);
  /// Imports or stages the host memory of kernel `kernel`'s launch.
  void mapSegments(std::vector<HostSegment> &segments,
                   const std::string &kernel);
  void releaseSegment(HostSegment &segment, bool copyBack);

  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkPipelineCache pipelineCache = VK_NULL_HANDLE;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkBuffer emptyBuffer = VK_NULL_HANDLE;
  VkDeviceMemory emptyMemory = VK_NULL_HANDLE;
  int requestedDevice = -1;
  std::vector<std::unique_ptr<Module>> modules;
  std::vector<std::unique_ptr<Submission>> submissions;
  std::vector<Submission *> freeSubmissions;
  std::vector<std::unique_ptr<Stream>> streams;
  std::map<uintptr_t, Allocation> allocations;
  Stream defaultStream_;
};

} // namespace kiln::vkrt

#endif // KILN_RUNTIME_VULKAN_CONTEXT_H
