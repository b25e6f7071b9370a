//===- Modules.h - The kernel registry and the loaded modules ---*- C++ -*-===//
//
// The Modules unit of the spirv-cpu runtime: the process-wide registry that
// compiled kernels join from their constructors (__kiln_spirv_cpu_register,
// keyed by the hash of their module's SPIR-V and their name), the modules
// loaded (Kiln containers, matched to registered kernels by that hash), and
// their kernels, each checked against its container entry and bound to its
// arguments when mgpuModuleGetFunction first asks for it. Module and kernel
// handles are looked up here, never trusted. It calls no other unit.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SPIRVCPU_MODULES_H
#define KILN_RUNTIME_SPIRVCPU_MODULES_H

#include "Executor.h"
#include "kiln/Contract/SPIRVCPUABI.h"
#include "kiln/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace kiln::spirvcpu {

/// Adds a kernel that compiled code registers under the hash of its
/// module's SPIR-V. A kernel registered again under the same key (the same
/// code linked twice) is harmless: the first one stays. One without a
/// KernelDesc or a name is ignored (getFunction will not find it).
void registerKernel(uint64_t spirvHash, const KernelDesc *desc, KernelFn fn);
/// The number of kernels registered so far.
uint64_t registeredKernelCount();

/// The modules loaded and the kernels looked up in them.
class Modules {
public:
  Modules() = default;
  Modules(const Modules &) = delete;
  Modules &operator=(const Modules &) = delete;
  ~Modules();

  /// mgpuModuleLoad: a Kiln container whose kernels were compiled for the
  /// CPU; raw SPIR-V and anything else are refused.
  rt::Expected<void *> load(const void *data, size_t size);
  /// mgpuModuleUnload: `handle` must be a module load returned and that is
  /// still loaded. Its kernels' handles become stale.
  rt::Status unload(void *handle);
  /// mgpuModuleGetFunction: kernel `name` of loaded module `handle`, bound
  /// at its first lookup and the same handle after that.
  rt::Expected<void *> getFunction(void *handle, const char *name);
  /// The kernel behind `function`, which must be a handle getFunction
  /// returned from a module still loaded: an InvalidArgument error naming
  /// `call` for a stale or foreign handle. The result keeps the kernel's
  /// module alive while it is held (an unload meanwhile only unlists it).
  rt::Expected<std::shared_ptr<const Kernel>> lookupKernel(void *function,
                                                           const char *call);

private:
  struct Module;

  std::mutex mutex;
  std::map<const Module *, std::shared_ptr<Module>> modules;
  /// Every kernel of `modules` that getFunction returned, and its module.
  std::unordered_map<const Kernel *, const Module *> kernels;
};

} // namespace kiln::spirvcpu

#endif // KILN_RUNTIME_SPIRVCPU_MODULES_H
