//===- CUDARuntime.h - Kiln's CUDA runtime, C interface ----------*- C -*-===//
//
// libkiln_cuda_runtime implements upstream MLIR's `mgpu*` host ABI (what
// `gpu-to-llvm` lowers gpu.launch_func, gpu.alloc, gpu.memcpy, ... to) on
// the CUDA driver API, plus a few `kiln*` entry points for the runners and
// tools. It links no LLVM and no CUDA library: libcuda.so.1 is opened at run
// time, so it builds and reports clear errors on machines without a driver.
//
// Configuration comes from the environment, read at first use:
//   KILN_CUDA_DEVICE=INDEX|NAME   device to use (default: 0); also
//                                 mgpuSetDefaultDevice
//   KILN_CUDA_TIMING=1            one line per launch on stderr:
//                                 kiln-timing kernel=NAME gpu_us=.. host_us=..
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

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_CUDA_EXPORT __attribute__((visibility("default")))

//===-- Upstream's mgpu* ABI ----------------------------------------------===//

/// `data` holds a cubin, a fatbin or PTX text (`gpuBlobSize` bytes, PTX need
/// not be NUL-terminated). A PTX module that fails to compile is reported
/// with the driver's JIT log.
KILN_CUDA_EXPORT void *mgpuModuleLoad(const void *data, size_t gpuBlobSize);
/// NUL-terminated PTX, compiled by the driver at `optLevel` (0 to 4).
KILN_CUDA_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel);
KILN_CUDA_EXPORT void mgpuModuleUnload(void *module);
KILN_CUDA_EXPORT void *mgpuModuleGetFunction(void *module, const char *name);
KILN_CUDA_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                       intptr_t gridY, intptr_t gridZ,
                                       intptr_t blockX, intptr_t blockY,
                                       intptr_t blockZ, int32_t smem,
                                       void *stream, void **params,
                                       void **extra, size_t paramsCount);
KILN_CUDA_EXPORT void
mgpuLaunchClusterKernel(void *function, intptr_t clusterX, intptr_t clusterY,
                        intptr_t clusterZ, intptr_t gridX, intptr_t gridY,
                        intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                        intptr_t blockZ, int32_t smem, void *stream,
                        void **params, void **extra, size_t paramsCount);
KILN_CUDA_EXPORT void *mgpuStreamCreate(void);
KILN_CUDA_EXPORT void mgpuStreamDestroy(void *stream);
KILN_CUDA_EXPORT void mgpuStreamSynchronize(void *stream);
KILN_CUDA_EXPORT void mgpuStreamWaitEvent(void *stream, void *event);
KILN_CUDA_EXPORT void *mgpuEventCreate(void);
KILN_CUDA_EXPORT void mgpuEventDestroy(void *event);
KILN_CUDA_EXPORT void mgpuEventSynchronize(void *event);
KILN_CUDA_EXPORT void mgpuEventRecord(void *event, void *stream);
/// Device memory, or managed memory visible to host and device when
/// `isHostShared`. Zero bytes give a null pointer.
KILN_CUDA_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                                    bool isHostShared);
KILN_CUDA_EXPORT void mgpuMemFree(void *ptr, void *stream);
KILN_CUDA_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                                 void *stream);
KILN_CUDA_EXPORT void mgpuMemset32(void *dst, uint32_t value, size_t count,
                                   void *stream);
KILN_CUDA_EXPORT void mgpuMemset16(void *dst, unsigned short value,
                                   size_t count, void *stream);
/// Registrations are counted per page: registering memory that is already
/// registered (wholly or in part) is fine, and pages stay registered until
/// every registration that covers them is undone. Device and managed
/// memory are left alone.
KILN_CUDA_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
KILN_CUDA_EXPORT void mgpuMemHostUnregister(void *ptr);
/// `descriptor` points at a ranked memref descriptor of rank `rank`; the
/// bytes its sizes and strides can reach are (un)registered, whatever the
/// layout.
KILN_CUDA_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                                int64_t elementSizeBytes);
KILN_CUDA_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank,
                                                  void *descriptor,
                                                  int64_t elementSizeBytes);
/// Later calls use this device's primary context, also after the first use.
KILN_CUDA_EXPORT void mgpuSetDefaultDevice(int32_t device);

//===-- Kiln's own entry points -------------------------------------------===//

/// Prints the driver version and every CUDA device (index, name, chip,
/// memory, multiprocessors, limits) to stdout. Returns 0, or non-zero after
/// printing why no device could be listed.
KILN_CUDA_EXPORT int kilnCudaListDevices(void);
/// "sm_XY" of the device the runtime would use; null (after a message on
/// stderr) when there is none. The string lives until the process ends.
KILN_CUDA_EXPORT const char *kilnCudaDeviceChip(void);

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
/// Fills `info` for the device the runtime uses (KILN_CUDA_DEVICE or the
/// default device). Returns 0, or non-zero after printing why (no driver or
/// no device).
KILN_CUDA_EXPORT int kilnCudaGetDeviceInfo(KilnCudaDeviceInfo *info);

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
KILN_CUDA_EXPORT void kilnCudaSetTimingCallback(KilnTimingCallback callback,
                                                void *user);
/// Runs `work` with the runtime's context current, handing it a fresh
/// stream, and returns the GPU microseconds between events recorded on that
/// stream before and after it (after waiting for them). For timing work
/// other libraries enqueue (cuBLAS) on the runtime's device. The runtime
/// is locked meanwhile: `work` must not call it.
KILN_CUDA_EXPORT double kilnCudaTimed(void (*work)(void *user, void *stream),
                                      void *user);
/// cuMemcpyDtoDAsync between two device allocations, timed as kilnCudaTimed
/// does: the device-copy bandwidth reference of kiln-bench.
KILN_CUDA_EXPORT double kilnCudaDeviceCopy(void *dst, const void *src,
                                           size_t sizeBytes);

/// Counters, for tests and benchmarks.
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
KILN_CUDA_EXPORT void kilnCudaGetStats(KilnCudaStats *stats);

#ifdef __cplusplus
}

namespace kiln {
namespace rt {
class Runtime;
} // namespace rt
} // namespace kiln
/// The CUDA runtime's C++ interface, whose calls return errors instead of
/// exiting (kiln/Runtime/Runtime.h). It lives until the process ends.
extern "C" KILN_CUDA_EXPORT kiln::rt::Runtime *kilnCudaRuntime(void);
#endif

#endif // KILN_RUNTIME_CUDARUNTIME_H
