//===- Executable.h - Loaded modules and their kernels ----------*- C++ -*-===//
//
// The Executables unit of the CUDA runtime: the modules mgpuModuleLoad
// loaded (cubin, fatbin or PTX, told apart by their first bytes) and the
// kernels mgpuModuleGetFunction found in them, with what a launch checks
// against. Module and function handles are looked up here, never handed to
// the driver on trust. It reads a Device and calls nothing above it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CUDA_EXECUTABLE_H
#define KILN_RUNTIME_CUDA_EXECUTABLE_H

#include "Device.h"

#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace kiln::cudart {

/// What mgpuModuleGetFunction learnt about a kernel.
struct FunctionInfo {
  std::string name;
  /// The most threads per block the compiled kernel can run.
  int maxThreads = 0;
  /// The module it came from (its entry goes when the module does).
  CUmodule module = nullptr;
  /// The byte size of each parameter, where the driver can tell
  /// (cuFuncGetParamInfo, CUDA 12.4); empty otherwise.
  std::vector<size_t> paramSizes;
};

/// Loaded modules and the kernels looked up in them. Every method expects
/// the caller to hold the runtime's lock and the device's context to be
/// current.
class Executables {
public:
  explicit Executables(Device &device) : device(device) {}

  /// A module whose PTX the driver compiles at `optLevel` (0 to 4; -1: the
  /// driver's default).
  Expected<void *> loadModule(const void *data, size_t size, int optLevel);
  /// mgpuModuleUnload: forgets `module` and its functions and unloads it.
  Status unloadModule(CUmodule module);
  /// mgpuModuleGetFunction: kernel `name` of `module`.
  Expected<void *> getFunction(CUmodule module, const char *name);

  /// What mgpuModuleGetFunction learnt about `function` (functions from
  /// elsewhere are asked for here). The pointer stays valid.
  Expected<const FunctionInfo *> infoOf(CUfunction function) const;

  /// Unloads every module of this device (when the runtime goes).
  void releaseAll();

  /// Modules loaded so far.
  uint64_t moduleLoads() const { return loads; }

private:
  /// An error unless `module` is one mgpuModuleLoad returned and
  /// mgpuModuleUnload did not unload; `what` names the entry point.
  Status checkModule(CUmodule module, const char *what) const;
  /// "a, b, c": the kernels of `module`, where the driver can tell.
  std::string kernelNames(CUmodule module) const;
  /// FunctionInfo::paramSizes of `function`.
  std::vector<size_t> paramSizes(CUfunction function) const;

  Device &device;
  /// Modules mgpuModuleLoad returned and mgpuModuleUnload did not unload:
  /// what the runtime accepts as handles.
  std::set<CUmodule> liveModules;
  std::unordered_map<CUfunction, FunctionInfo> functions;
  uint64_t loads = 0;
};

} // namespace kiln::cudart

#endif // KILN_RUNTIME_CUDA_EXECUTABLE_H
