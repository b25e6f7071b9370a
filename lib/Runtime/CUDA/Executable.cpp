//===- Executable.cpp - Loaded modules and their kernels ------------------===//
//
// A module's first bytes tell a cubin (ELF), a fatbin and PTX text apart,
// and Kiln's Vulkan container is refused with a pointer to the runner that
// runs it. The driver's JIT error log is passed on when PTX does not
// compile; a kernel that is not there is reported with the module's kernels.
//
//===----------------------------------------------------------------------===//

#include "Executable.h"
#include "kiln/Contract/Container.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <vector>

using namespace kiln;
using namespace kiln::cudart;

namespace {
/// The fatbin magic word; mgpuModuleLoad also tells cubin (ELF), PTX text
/// and Kiln's Vulkan container apart.
constexpr uint32_t kFatbinMagic = 0xBA55ED50u;
} // namespace

Expected<void *> Executables::loadModule(const void *data, size_t size,
                                         int optLevel) {
  const Driver &drv = device.driver();
  if (!data)
    return KILN_ERROR(InvalidArgument, "mgpuModuleLoad: null module data");
  uint32_t magic = 0;
  if (size >= 4)
    std::memcpy(&magic, data, 4);
  if (magic == kiln::container::kMagic)
    return KILN_ERROR(
        InvalidArgument,
        "mgpuModuleLoad: this module is SPIR-V in Kiln's container, "
        "compiled for Vulkan; run it with kiln-vulkan-runner or link "
        "libkiln_vulkan_runtime");
  const char *bytes = static_cast<const char *>(data);
  bool binary = (size >= 4 && std::memcmp(bytes,
                                          "\x7f"
                                          "ELF",
                                          4) == 0) ||
                magic == kFatbinMagic;
  std::string ptx;
  const void *image = data;
  if (!binary) {
    // PTX text: the driver needs it NUL-terminated.
    size_t length = size ? strnlen(bytes, size) : std::strlen(bytes);
    ptx.assign(bytes, length);
    image = ptx.c_str();
  }
  char errorLog[8192] = {};
  char infoLog[4096] = {};
  int options[5] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                    CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                    CU_JIT_OPTIMIZATION_LEVEL};
  void *values[5] = {errorLog, reinterpret_cast<void *>(sizeof(errorLog)),
                     infoLog, reinterpret_cast<void *>(sizeof(infoLog)),
                     reinterpret_cast<void *>(
                         static_cast<intptr_t>(std::clamp(optLevel, 0, 4)))};
  unsigned count = optLevel >= 0 && !binary ? 5 : 4;
  CUmodule module = nullptr;
  CUresult result =
      drv.cuModuleLoadDataEx(&module, image, count, options, values);
  if (result != CUDA_SUCCESS) {
    std::string message =
        std::string("cuModuleLoadDataEx (") +
        (binary ? magic == kFatbinMagic ? "fatbin" : "cubin" : "PTX") + ", " +
        std::to_string(size) + " bytes) failed: " + drv.describe(result);
    if (errorLog[0])
      message += "\nJIT error log:\n" + std::string(errorLog);
    return device.callError(kindOf(result), result, "cuModuleLoadDataEx",
                            std::move(message), __FILE__, __LINE__);
  }
  ++loads;
  liveModules.insert(module);
  return module;
}

Status Executables::unloadModule(CUmodule module) {
  KILN_TRY(checkModule(module, "mgpuModuleUnload"));
  liveModules.erase(module);
  for (auto it = functions.begin(); it != functions.end();)
    it = it->second.module == module ? functions.erase(it) : std::next(it);
  return device.check(device.driver().cuModuleUnload(module), "cuModuleUnload");
}

Expected<void *> Executables::getFunction(CUmodule module, const char *name) {
  // The name first: the process's runtime hands a nameless lookup to the
  // device with its own module handle, which the device does not know.
  if (!name)
    return KILN_ERROR(InvalidArgument,
                      "mgpuModuleGetFunction: null kernel name");
  KILN_TRY(checkModule(module, "mgpuModuleGetFunction"));
  const Driver &drv = device.driver();
  CUfunction function = nullptr;
  CUresult result = drv.cuModuleGetFunction(&function, module, name);
  if (result == CUDA_ERROR_NOT_FOUND) {
    std::string message = std::string("no kernel '") + name + "' in the module";
    std::string names = kernelNames(module);
    if (!names.empty())
      message += " (kernels: " + names + ")";
    return device.callError(ErrorKind::InvalidArgument, result,
                            "cuModuleGetFunction", std::move(message), __FILE__,
                            __LINE__);
  }
  KILN_TRY(device.check(result, "cuModuleGetFunction", name));
  if (!functions.count(function)) {
    int maxThreads = 0;
    KILN_TRY(device.check(
        drv.cuFuncGetAttribute(
            &maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function),
        "cuFuncGetAttribute", name));
    functions[function] =
        FunctionInfo{name, maxThreads, module, paramSizes(function)};
  }
  return function;
}

std::vector<size_t> Executables::paramSizes(CUfunction function) const {
  std::vector<size_t> sizes;
  const Driver &drv = device.driver();
  if (!drv.cuFuncGetParamInfo)
    return sizes;
  // The driver answers CUDA_ERROR_INVALID_VALUE past the last parameter. A
  // kernel has at most 32764 bytes of parameters, so no more than that many.
  for (size_t index = 0; index < 32764; ++index) {
    size_t offset = 0, size = 0;
    if (drv.cuFuncGetParamInfo(function, index, &offset, &size) != CUDA_SUCCESS)
      break;
    sizes.push_back(size);
  }
  return sizes;
}

void Executables::releaseAll() {
  for (CUmodule module : liveModules)
    device.driver().cuModuleUnload(module);
  liveModules.clear();
  functions.clear();
}

Expected<const FunctionInfo *> Executables::infoOf(CUfunction function) const {
  auto it = functions.find(function);
  if (it != functions.end())
    return &it->second;
  // Handles are looked up, never handed to the driver on trust.
  return KILN_ERROR(InvalidArgument,
                    "mgpuLaunchKernel with a function that "
                    "mgpuModuleGetFunction did not return (or whose module "
                    "was unloaded)");
}

Status Executables::checkModule(CUmodule module, const char *what) const {
  if (liveModules.count(module))
    return Status::success();
  return KILN_ERROR(InvalidArgument,
                    std::string(what) +
                        " of a module that mgpuModuleLoad did not return "
                        "(or that was unloaded)");
}

std::string Executables::kernelNames(CUmodule module) const {
  const Driver &drv = device.driver();
  unsigned count = 0;
  if (!drv.cuModuleGetFunctionCount || !drv.cuModuleEnumerateFunctions ||
      !drv.cuFuncGetName ||
      drv.cuModuleGetFunctionCount(&count, module) != CUDA_SUCCESS)
    return "";
  std::vector<CUfunction> all(count);
  if (drv.cuModuleEnumerateFunctions(all.data(), count, module) != CUDA_SUCCESS)
    return "";
  std::string names;
  for (CUfunction f : all) {
    const char *name = nullptr;
    if (drv.cuFuncGetName(&name, f) == CUDA_SUCCESS && name)
      names += (names.empty() ? "" : ", ") + std::string(name);
  }
  return names;
}
