//===- CUDARuntime.h - Kiln's CUDA runtime, C interface ----------*- C -*-===//
//
// libkiln_cuda_runtime implements upstream MLIR's `mgpu*` host ABI (what
// `gpu-to-llvm` lowers gpu.launch_func, gpu.alloc, gpu.memcpy, ... to) on
// the CUDA driver API, plus a few `kiln*` entry points for the runners and
// tools. It links no LLVM and no CUDA library: libcuda.so.1 is opened at run
// time, so it builds and reports clear errors on machines without a driver.
//
// Configuration comes from the environment, read at first use:
//   KILN_CUDA_DEVICE=A,B,...      the program's devices (default: device
//                                 0), each an index, a name substring or a
//                                 UUID (GPU-...); mgpuSetDefaultDevice picks
//                                 one of them for the calling thread
//   KILN_CUDA_TIMING=1            one line per launch on stderr:
//                                 kiln-timing kernel=NAME gpu_us=.. host_us=..
//                                 device=N (its index in the list)
//   KILN_CUDA_DRIVER=PATH         the driver library (default libcuda.so.1)
//
// The mgpu* entry points (whose ABI has no error returns) and most kiln*
// ones end the process when a driver call fails or an argument is refused:
// a message on stderr that starts with `kiln-cuda:` and names the call and
// its CUresult, and exit status 1 (at once, without exit handlers, after a
// KILN_TIMEOUT). kilnCudaListDevices, kilnCudaGetDeviceInfo and
// kilnCudaDeviceChip print the message and return non-zero or null instead.
// kilnCudaRuntime(), at the end, returns every error to its caller
// (kiln/Runtime/Runtime.h).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CUDARUNTIME_H
#define KILN_RUNTIME_CUDARUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/Contract/MGPU.h"

#ifdef __cplusplus
extern "C" {
#endif

//===-- Upstream's mgpu* ABI: kiln/Contract/MGPU.h ------------------------===//

// On CUDA: mgpuModuleLoad takes a cubin, a fatbin or PTX text (PTX need not
// be NUL-terminated; one that fails to compile is reported with the
// driver's JIT log); mgpuModuleLoadJIT NUL-terminated PTX, compiled at
// `optLevel` (0 to 4). mgpuMemAlloc gives device memory, or managed memory
// when `isHostShared`; zero bytes give a null pointer. Host registrations
// are counted per page: registering memory already registered (wholly or in
// part) is fine, and pages stay registered until every registration that
// covers them is undone; device and managed memory are left alone.
// mgpuSetDefaultDevice makes a device of the list the calling thread's
// current one, also after the first use: streams, allocations and events
// made later belong to it, and a launch runs on its stream's device. A
// launch refuses another device's gpu.alloc memory as an argument (where the
// driver tells parameter sizes: CUDA 12.4); a gpu.memcpy between two
// devices' memory is a peer copy.

//===-- Kiln's own entry points -------------------------------------------===//

/// Prints the driver version and every CUDA device (index, name, chip,
/// memory, multiprocessors, limits) to stdout. Returns 0, or non-zero after
/// printing why no device could be listed.
KILN_RT_EXPORT int kilnCudaListDevices(void);
/// "sm_XY" of the calling thread's current device; null (after a message on
/// stderr) when there is none. The string lives until the process ends.
KILN_RT_EXPORT const char *kilnCudaDeviceChip(void);

/// What benchmarks and tools report about the device the runtime uses.
typedef struct KilnCudaDeviceInfo {
  char name[256];
  int ordinal;
  int major, minor; ///< Compute capability.
  int driverVersion; ///< 12080 for 12.8.
  int multiprocessors;
  int clockKHz, memoryClockKHz, memoryBusWidth;
  int l2Bytes;
  uint64_t totalBytes;
} KilnCudaDeviceInfo;
/// Fills `info` for the calling thread's current device (of
/// KILN_CUDA_DEVICE's list, or the default device). Returns 0, or non-zero
/// after printing why (no driver or no device).
KILN_RT_EXPORT int kilnCudaGetDeviceInfo(KilnCudaDeviceInfo *info);

#ifndef KILN_TIMING_CALLBACK_DEFINED
#define KILN_TIMING_CALLBACK_DEFINED
/// Receives the GPU time of each launch, in microseconds, once the launch
/// has completed. It runs with the runtime's lock held and must not call
/// the runtime.
typedef void (*KilnTimingCallback)(void *user, const char *kernel,
                                   double gpuMicroseconds);
#endif
/// Times every later launch with CUDA events (each launch then waits for
/// its kernel) and reports it to `callback`; null turns this off again.
KILN_RT_EXPORT void kilnCudaSetTimingCallback(KilnTimingCallback callback,
                                              void *user);
/// Runs `work` with the current device's context current, handing it a
/// fresh stream, and returns the GPU microseconds between events recorded
/// on that stream before and after it (after waiting for them). For timing
/// work other libraries enqueue (cuBLAS) on the runtime's device. The
/// device is locked meanwhile: `work` must not call the runtime.
KILN_RT_EXPORT double kilnCudaTimed(void (*work)(void *user, void *stream),
                                    void *user);
/// cuMemcpyDtoDAsync between two device allocations, timed as kilnCudaTimed
/// does: the device-copy bandwidth reference of kiln-bench.
KILN_RT_EXPORT double kilnCudaDeviceCopy(void *dst, const void *src,
                                         size_t sizeBytes);

/// Counters of the calling thread's current device, for tests and
/// benchmarks; the host registrations are the process's.
typedef struct KilnCudaStats {
  uint64_t moduleLoads;
  uint64_t launches;
  uint64_t allocations;
  /// cuMemHostRegister / cuMemHostUnregister calls the runtime made.
  uint64_t hostRegisterCalls;
  uint64_t hostUnregisterCalls;
  /// Page ranges registered now.
  uint64_t registeredRanges;
} KilnCudaStats;
KILN_RT_EXPORT void kilnCudaGetStats(KilnCudaStats *stats);

#ifdef __cplusplus
}

namespace kiln {
namespace rt {
class Runtime;
} // namespace rt
} // namespace kiln
/// The CUDA runtime's C++ interface, whose calls return errors instead of
/// exiting (kiln/Runtime/Runtime.h). It lives until the process ends.
extern "C" KILN_RT_EXPORT kiln::rt::Runtime *kilnCudaRuntime(void);
#endif

#endif // KILN_RUNTIME_CUDARUNTIME_H
