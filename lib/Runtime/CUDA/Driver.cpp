//===- Driver.cpp - Opening libcuda.so.1 ----------------------------------===//

#include "Driver.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

using namespace kiln::cudart;

namespace {
/// cuda.h maps these names to versioned symbols; the unversioned ones are
/// the old ABI.
const char *symbolFor(const char *member) {
  static const char *const versioned[][2] = {
      {"cuDeviceTotalMem", "cuDeviceTotalMem_v2"},
      {"cuDevicePrimaryCtxRelease", "cuDevicePrimaryCtxRelease_v2"},
      {"cuCtxPushCurrent", "cuCtxPushCurrent_v2"},
      {"cuCtxPopCurrent", "cuCtxPopCurrent_v2"},
      {"cuStreamDestroy", "cuStreamDestroy_v2"},
      {"cuEventDestroy", "cuEventDestroy_v2"},
      {"cuMemAlloc", "cuMemAlloc_v2"},
      {"cuMemFree", "cuMemFree_v2"},
      {"cuMemcpyDtoDAsync", "cuMemcpyDtoDAsync_v2"},
      {"cuMemHostRegister", "cuMemHostRegister_v2"},
  };
  for (const auto &entry : versioned)
    if (std::strcmp(entry[0], member) == 0)
      return entry[1];
  return member;
}
} // namespace

bool Driver::load(std::string &error) {
  const char *path = std::getenv("KILN_CUDA_DRIVER");
  if (!path || !*path)
    path = "libcuda.so.1";
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    error = std::string("cannot open the CUDA driver ") + path +
            " (is the NVIDIA driver installed?): " + (why ? why : "");
    return false;
  }
  bool ok = true;
  auto resolve = [&](auto &fn, const char *member) {
    const char *symbol = symbolFor(member);
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
        dlsym(handle, symbol));
    if (!fn && ok) {
      error = std::string("the CUDA driver ") + path + " has no " + symbol +
              " (driver too old?)";
      ok = false;
    }
  };
#define KILN_CU_FN(name, ...) resolve(name, #name);
#include "DriverFunctions.def"
  if (!ok)
    return false;
  // cuEventElapsedTime_v2 (CUDA 12.8) differs only in the symbol.
  if (void *v2 = dlsym(handle, "cuEventElapsedTime_v2"))
    cuEventElapsedTime = reinterpret_cast<decltype(cuEventElapsedTime)>(v2);
  // cuDeviceGetUuid_v2 (CUDA 11.4) gives a MIG instance its own UUID, as
  // nvidia-smi prints it; the same signature.
  if (void *v2 = dlsym(handle, "cuDeviceGetUuid_v2"))
    cuDeviceGetUuid = reinterpret_cast<decltype(cuDeviceGetUuid)>(v2);
  cuLaunchKernelEx = reinterpret_cast<decltype(cuLaunchKernelEx)>(
      dlsym(handle, "cuLaunchKernelEx"));
  cuFuncGetName =
      reinterpret_cast<decltype(cuFuncGetName)>(dlsym(handle, "cuFuncGetName"));
  cuModuleGetFunctionCount = reinterpret_cast<decltype(cuModuleGetFunctionCount)>(
      dlsym(handle, "cuModuleGetFunctionCount"));
  cuModuleEnumerateFunctions =
      reinterpret_cast<decltype(cuModuleEnumerateFunctions)>(
          dlsym(handle, "cuModuleEnumerateFunctions"));
  cuFuncGetParamInfo = reinterpret_cast<decltype(cuFuncGetParamInfo)>(
      dlsym(handle, "cuFuncGetParamInfo"));
  return true;
}

std::string Driver::name(CUresult result) const {
  const char *text = nullptr;
  if (cuGetErrorName)
    cuGetErrorName(result, &text);
  return text ? text : "CUresult " + std::to_string(result);
}

std::string Driver::describe(CUresult result) const {
  const char *text = nullptr;
  if (cuGetErrorString)
    cuGetErrorString(result, &text);
  std::string out = name(result);
  if (text)
    out += std::string(" (") + text + ")";
  return out;
}
