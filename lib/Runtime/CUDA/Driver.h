//===- Driver.h - The CUDA driver API, opened at run time -------*- C++ -*-===//
//
// The subset of the CUDA driver API Kiln's runtime calls, declared here so
// that the runtime builds on machines without the CUDA toolkit, and resolved
// with dlopen("libcuda.so.1") when first needed. Values are the driver ABI's
// (cuda.h); symbol names are the versioned ones cuda.h maps to.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CUDA_DRIVER_H
#define KILN_RUNTIME_CUDA_DRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace kiln {
namespace cudart {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

/// A device's UUID, as cuDeviceGetUuid fills it.
struct CUuuid {
  unsigned char bytes[16];
};

enum : CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_ECC_UNCORRECTABLE = 214,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_NVLINK_UNCORRECTABLE = 220,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  CUDA_ERROR_INVALID_SOURCE = 300,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_LAUNCH_TIMEOUT = 702,
  CUDA_ERROR_CONTEXT_IS_DESTROYED = 709,
  CUDA_ERROR_ASSERT = 710,
  CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
  CUDA_ERROR_HARDWARE_STACK_ERROR = 714,
  CUDA_ERROR_ILLEGAL_INSTRUCTION = 715,
  CUDA_ERROR_MISALIGNED_ADDRESS = 716,
  CUDA_ERROR_INVALID_ADDRESS_SPACE = 717,
  CUDA_ERROR_INVALID_PC = 718,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720,
  CUDA_ERROR_NOT_SUPPORTED = 801,
};

enum : int {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
  CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
  CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
};

enum : int {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_OPTIMIZATION_LEVEL = 7,
};

enum : int { CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2 };
enum : unsigned { CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2,
                  CU_MEMORYTYPE_UNIFIED = 4 };
enum : int { CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0 };
enum : unsigned {
  CU_STREAM_NON_BLOCKING = 1,
  CU_EVENT_DEFAULT = 0,
  CU_EVENT_DISABLE_TIMING = 2,
  CU_MEM_ATTACH_GLOBAL = 1,
  CU_MEMHOSTREGISTER_PORTABLE = 1,
  CU_MEMHOSTREGISTER_READ_ONLY = 8,
};
enum : int { CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4 };

struct CUlaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
};

struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};

/// The driver's entry points. Every member is set once load() succeeded,
/// except the ones marked optional (newer drivers only).
struct Driver {
#define KILN_CU_FN(name, ...) CUresult (*name)(__VA_ARGS__) = nullptr;
#include "DriverFunctions.def"
  // Optional.
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig *, CUfunction, void **,
                               void **) = nullptr;
  CUresult (*cuFuncGetName)(const char **, CUfunction) = nullptr;
  CUresult (*cuModuleGetFunctionCount)(unsigned *, CUmodule) = nullptr;
  CUresult (*cuModuleEnumerateFunctions)(CUfunction *, unsigned,
                                         CUmodule) = nullptr;
  /// The offset and size of a kernel's parameter `index` (CUDA 12.4).
  CUresult (*cuFuncGetParamInfo)(CUfunction, size_t index, size_t *offset,
                                 size_t *size) = nullptr;

  /// Opens $KILN_CUDA_DRIVER or libcuda.so.1 and resolves the entry points.
  /// On failure returns false and sets `error`.
  bool load(std::string &error);

  /// "CUDA_ERROR_X (description)" for `result`.
  std::string describe(CUresult result) const;
  /// "CUDA_ERROR_X" for `result` ("CUresult N" when the driver has no name
  /// for it).
  std::string name(CUresult result) const;
};

} // namespace cudart
} // namespace kiln

#endif // KILN_RUNTIME_CUDA_DRIVER_H
