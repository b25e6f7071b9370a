//===- MGPU.h - Upstream MLIR's mgpu* host ABI, declared once ----*- C -*-===//
//
// What MLIR's `gpu-to-llvm` lowers gpu.launch_func, gpu.alloc, gpu.memcpy,
// gpu.host_register, ... to. Every Kiln runtime library (Vulkan, CUDA,
// spirv-cpu) defines all of these, in one place for all three
// (lib/Runtime/Common/MGPU.cpp) over the runtime's C++ interface
// (kiln/Runtime/Runtime.h). The ABI has no error returns: an error is
// reported on stderr (`kiln-vulkan: ...`, `kiln-cuda: ...`,
// `kiln-spirv-cpu: ...`) and ends the process with status 1.
//
// Per runtime: mgpuModuleLoad takes a Kiln container (or raw SPIR-V on
// Vulkan, a cubin, fatbin or PTX on CUDA); mgpuModuleLoadJIT and
// mgpuLaunchClusterKernel are CUDA's and an error elsewhere;
// mgpuMemHostRegister* pin host memory on CUDA and do nothing elsewhere
// (host memory is imported or staged at each launch). Handles (modules,
// functions, streams, events, allocations) are looked up, never trusted: one
// the runtime did not return, or already destroyed, is an error.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONTRACT_MGPU_H
#define KILN_CONTRACT_MGPU_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifndef KILN_RT_EXPORT
#define KILN_RT_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

KILN_RT_EXPORT void *mgpuModuleLoad(const void *data, size_t gpuBlobSize);
KILN_RT_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel);
KILN_RT_EXPORT void mgpuModuleUnload(void *module);
KILN_RT_EXPORT void *mgpuModuleGetFunction(void *module, const char *name);
/// `params[i]` points at the i-th kernel argument value; each memref argument
/// of a Kiln kernel is (allocated, aligned, offset, sizes[N], strides[N]).
KILN_RT_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                     intptr_t gridY, intptr_t gridZ,
                                     intptr_t blockX, intptr_t blockY,
                                     intptr_t blockZ, int32_t smem,
                                     void *stream, void **params, void **extra,
                                     size_t paramsCount);
KILN_RT_EXPORT void
mgpuLaunchClusterKernel(void *function, intptr_t clusterX, intptr_t clusterY,
                        intptr_t clusterZ, intptr_t gridX, intptr_t gridY,
                        intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                        intptr_t blockZ, int32_t smem, void *stream,
                        void **params, void **extra, size_t paramsCount);
KILN_RT_EXPORT void *mgpuStreamCreate(void);
KILN_RT_EXPORT void mgpuStreamDestroy(void *stream);
KILN_RT_EXPORT void mgpuStreamSynchronize(void *stream);
KILN_RT_EXPORT void mgpuStreamWaitEvent(void *stream, void *event);
KILN_RT_EXPORT void *mgpuEventCreate(void);
KILN_RT_EXPORT void mgpuEventDestroy(void *event);
KILN_RT_EXPORT void mgpuEventSynchronize(void *event);
KILN_RT_EXPORT void mgpuEventRecord(void *event, void *stream);
KILN_RT_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                                  bool isHostShared);
KILN_RT_EXPORT void mgpuMemFree(void *ptr, void *stream);
KILN_RT_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                               void *stream);
KILN_RT_EXPORT void mgpuMemset32(void *dst, uint32_t value, size_t count,
                                 void *stream);
KILN_RT_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                                 void *stream);
KILN_RT_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
KILN_RT_EXPORT void mgpuMemHostUnregister(void *ptr);
/// `descriptor` points at a ranked memref descriptor of rank `rank`.
KILN_RT_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                              int64_t elementSizeBytes);
KILN_RT_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                                int64_t elementSizeBytes);
KILN_RT_EXPORT void mgpuSetDefaultDevice(int32_t device);

#ifdef __cplusplus
}
#endif

#endif // KILN_CONTRACT_MGPU_H
