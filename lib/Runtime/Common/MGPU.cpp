//===- MGPU.cpp - Upstream's mgpu* ABI, once for every runtime -----------===//
//
// Every runtime library compiles this file: the mgpu* entry points
// (kiln/Contract/MGPU.h) over the library's C++ interface
// (kiln::rt::boundaryRuntime(), kiln/Runtime/Runtime.h), and upstream's
// fillResource helpers. The ABI has no error returns, so an error is
// reported with the library's name and ends the process (Boundary.h); the
// C++ interface behind it returns every error, and checks every handle.
//
//===----------------------------------------------------------------------===//

#include "kiln/Contract/MGPU.h"
#include "../Boundary.h"
#include "../FillResource.h"
#include "kiln/Runtime/Runtime.h"

using namespace kiln;
using kiln::rt::boundaryRuntime;

namespace {
/// What the entry points do with an error: report it and exit.
rt::ExitOnError orExit() { return rt::ExitOnError{rt::kBoundaryName}; }
} // namespace

extern "C" {

void *mgpuModuleLoad(const void *data, size_t gpuBlobSize) {
  return orExit()(boundaryRuntime().loadModule(data, gpuBlobSize));
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  return orExit()(boundaryRuntime().loadModuleJIT(data, optLevel));
}

void mgpuModuleUnload(void *module) {
  orExit()(boundaryRuntime().unloadModule(module));
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  return orExit()(boundaryRuntime().getFunction(module, name));
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount) {
  orExit()(boundaryRuntime().launchFull(function, {gridX, gridY, gridZ},
                                        {blockX, blockY, blockZ}, nullptr, smem,
                                        stream, params, paramsCount, extra));
}

void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra, size_t paramsCount) {
  rt::Dim3 cluster{clusterX, clusterY, clusterZ};
  orExit()(boundaryRuntime().launchFull(
      function, {gridX, gridY, gridZ}, {blockX, blockY, blockZ}, &cluster, smem,
      stream, params, paramsCount, extra));
}

void *mgpuStreamCreate() { return orExit()(boundaryRuntime().createStream()); }

void mgpuStreamDestroy(void *stream) {
  orExit()(boundaryRuntime().destroyStream(stream));
}

void mgpuStreamSynchronize(void *stream) {
  orExit()(boundaryRuntime().synchronize(stream));
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  orExit()(boundaryRuntime().streamWaitEvent(stream, event));
}

void *mgpuEventCreate() { return orExit()(boundaryRuntime().createEvent()); }

void mgpuEventDestroy(void *event) {
  orExit()(boundaryRuntime().destroyEvent(event));
}

void mgpuEventSynchronize(void *event) {
  orExit()(boundaryRuntime().synchronizeEvent(event));
}

void mgpuEventRecord(void *event, void *stream) {
  orExit()(boundaryRuntime().recordEvent(event, stream));
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *, bool isHostShared) {
  return orExit()(boundaryRuntime().allocate(sizeBytes, isHostShared));
}

void mgpuMemFree(void *ptr, void *) { orExit()(boundaryRuntime().free(ptr)); }

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  orExit()(boundaryRuntime().copy(dst, src, sizeBytes, stream));
}

void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream) {
  orExit()(boundaryRuntime().fill(dst, value, 4, count, stream));
}

void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream) {
  orExit()(boundaryRuntime().fill(dst, value, 2, count, stream));
}

void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  orExit()(boundaryRuntime().hostRegister(ptr, sizeBytes));
}

void mgpuMemHostUnregister(void *ptr) {
  orExit()(boundaryRuntime().hostUnregister(ptr));
}

void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes) {
  orExit()(
      boundaryRuntime().hostRegisterMemRef(rank, descriptor, elementSizeBytes));
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes) {
  orExit()(boundaryRuntime().hostUnregisterMemRef(rank, descriptor,
                                                  elementSizeBytes));
}

void mgpuSetDefaultDevice(int32_t device) {
  orExit()(boundaryRuntime().setDefaultDevice(device));
}

} // extern "C"

// Upstream's fill helpers, for programs written for mlir-runner's Vulkan
// path, under both the plain and the _mlir_ciface_ names (on CUDA they fill
// host memory, registered around launches as any other host memref).
KILN_DEFINE_FILL_RESOURCE_HELPERS(KILN_RT_EXPORT)
