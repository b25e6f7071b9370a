//===- VulkanRuntime.h - Kiln's Vulkan runtime, C interface ------*- C -*-===//
//
// libkiln_vulkan_runtime implements upstream MLIR's `mgpu*` host ABI on
// Vulkan (what `gpu-to-llvm` lowers gpu.launch_func, gpu.alloc, gpu.memcpy,
// ... to), plus a few `kiln*` entry points for the runners and tools. It links
// no LLVM; the Vulkan loader is opened at run time.
//
// Configuration comes from the environment, read at first use:
//   KILN_VULKAN_DEVICE=INDEX|NAME   device to use (default: discrete GPU, then
//                                   integrated, then virtual, then CPU)
//   KILN_VULKAN_VALIDATION=1        enable the Khronos validation layer; any
//                                   message it reports is fatal (exit 1)
//   KILN_VULKAN_TIMING=1            one line per launch on stderr:
//                                   kiln-timing kernel=NAME gpu_us=.. host_us=..
//   KILN_VULKAN_HOST_IMPORT=0       never import host memory; stage it
//   KILN_VULKAN_PRINTF=1|0          debug printf on from the start | kernels
//                                   that print run silently (docs/runtime.md)
//   KILN_VULKAN_PRINTF_BUFFER=BYTES the validation layer's printf buffer
//   KILN_VULKAN_VALIDATE_SPIRV=0    do not validate SPIR-V with SPIRV-Tools at
//                                   load (the shared library does by default)
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_VULKANRUNTIME_H
#define KILN_RUNTIME_VULKANRUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/Contract/MGPU.h"
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

//===-- Upstream's mgpu* ABI: kiln/Contract/MGPU.h ------------------------===//

// On Vulkan: mgpuModuleLoad takes a Kiln container (kiln-spirv) or a raw
// SPIR-V module; raw SPIR-V kernels take upstream's {pointer, size in bytes}
// argument pairs, one storage buffer at (set 0, binding i) per pair.
// mgpuMemAlloc gives device-local memory at an address reserved in the
// host's address space (never accessible from the host), so that pointer
// arithmetic on it stays unique; gpu.memcpy moves data in and out.

//===-- Kiln's own entry points -------------------------------------------===//

/// Prints every Vulkan device (index, name, type, API and driver version,
/// memory heaps, subgroup size, compute limits) to stdout. Returns 0, or
/// non-zero after printing why no device could be listed.
KILN_RT_EXPORT int kilnVulkanListDevices(void);
/// The `#spirv.target_env` of the device the runtime would use, as MLIR
/// attribute text; null (after a message on stderr) when there is none.
/// The string lives until the process ends.
KILN_RT_EXPORT const char *kilnVulkanDeviceTargetEnv(void);

#ifndef KILN_TIMING_CALLBACK_DEFINED
#define KILN_TIMING_CALLBACK_DEFINED
/// Receives the GPU time of each launch, in microseconds (negative when the
/// device could not time it), once the launch has completed. It runs with
/// the runtime's lock held and must not call the runtime.
typedef void (*KilnTimingCallback)(void *user, const char *kernel,
                                   double gpuMicroseconds);
#endif
/// Times every later launch with timestamp queries (where the queue has
/// them) and reports it to `callback`; null turns this off again. Work
/// already submitted completes first.
KILN_RT_EXPORT void kilnVulkanSetTimingCallback(KilnTimingCallback callback,
                                                void *user);
/// Copies `sizeBytes` between two device allocations with vkCmdCopyBuffer,
/// even where device memory is host-visible (mgpuMemcpy copies on the host
/// there), waits, and returns the GPU microseconds between timestamps
/// around the copy, or -1 where the queue has no timestamps. The device's
/// own copy is the bandwidth reference of kiln-bench.
KILN_RT_EXPORT double kilnVulkanDeviceCopy(void *dst, const void *src,
                                           size_t sizeBytes);

/// What benchmarks and tools report about the device the runtime uses.
typedef struct KilnVulkanDeviceInfo {
  char name[256];
  char type[32];       ///< "discrete GPU", "integrated GPU", "CPU", ...
  char apiVersion[32]; ///< "1.3.230"
  char driver[320];    ///< Driver name and version text (Vulkan 1.2).
  uint32_t vendorID, deviceID;
  int isCPU;
  int float64;            ///< shaderFloat64
  uint32_t subgroupSize;  ///< The default subgroup size.
  int subgroupArithmetic; ///< Subgroup arithmetic in compute shaders.
  float timestampPeriodNs;
  uint32_t maxWorkgroupInvocations;
  uint32_t maxSharedMemoryBytes;
  uint64_t deviceLocalBytes; ///< Sum of the device-local heaps.
  /// The most bytes a storage-buffer descriptor reaches.
  uint64_t maxStorageBufferRange;
} KilnVulkanDeviceInfo;
/// Fills `info` for the device the runtime uses (KILN_VULKAN_DEVICE or the
/// default order) without creating a logical device. Returns 0.
KILN_RT_EXPORT int kilnVulkanGetDeviceInfo(KilnVulkanDeviceInfo *info);

/// Counters of objects the runtime created, for tests and benchmarks.
typedef struct KilnVulkanStats {
  uint64_t instances;
  uint64_t devices;
  uint64_t shaderModules;
  uint64_t pipelines;
  uint64_t descriptorPools;
  uint64_t commandPools;
  uint64_t launches;
  uint64_t hostImports;
  uint64_t stagedCopies;
  /// Robust buffer access on the device: 0 off, 1 core robustBufferAccess,
  /// 2 robustBufferAccess2 (KILN_VULKAN_ROBUST=1 asks for it).
  uint64_t robustBufferAccess;
  /// Modules whose SPIR-V SPIRV-Tools validated at load, and the time it
  /// took (nanoseconds); SPIR-V seen before is not validated again.
  uint64_t spirvValidations;
  uint64_t spirvValidationNanoseconds;
} KilnVulkanStats;
KILN_RT_EXPORT void kilnVulkanGetStats(KilnVulkanStats *stats);

#ifdef __cplusplus
}

namespace kiln {
namespace rt {
class Runtime;
} // namespace rt
} // namespace kiln
/// The Vulkan runtime's C++ interface, whose calls return errors instead of
/// exiting (kiln/Runtime/Runtime.h). It lives until the process ends.
extern "C" KILN_RT_EXPORT kiln::rt::Runtime *kilnVulkanRuntime(void);
#endif

#endif // KILN_RUNTIME_VULKANRUNTIME_H
