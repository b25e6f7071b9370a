//===- Modules.cpp - The kernel registry and the loaded modules -----------===//
//
// Modules are Kiln containers; a kernel's code comes from the registry, by
// the hash of the container's SPIR-V and the kernel's name, and is checked
// against the container's entry for it (bindKernel) before it runs.
//
//===----------------------------------------------------------------------===//

#include "Modules.h"
#include "Text.h"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

using namespace kiln;
using namespace kiln::spirvcpu;
using rt::Expected;
using rt::Status;

//===----------------------------------------------------------------------===//
// The registry
//===----------------------------------------------------------------------===//

namespace {
struct Registered {
  const KernelDesc *desc = nullptr;
  KernelFn fn = nullptr;
};

/// What compiled code registered: constructed at the first registration,
/// whatever the order of the program's constructors, and never destroyed.
struct Registry {
  std::mutex mutex;
  std::map<std::pair<uint64_t, std::string>, Registered> kernels;
};

Registry &registry() {
  static Registry *instance = new Registry();
  return *instance;
}

/// Kernel `name` registered under `hash` (or none), and the other hashes a
/// kernel of that name is registered under.
Registered findRegistered(uint64_t hash, const std::string &name,
                          std::vector<uint64_t> &otherHashes) {
  Registered found;
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.kernels.find({hash, name});
  if (it != r.kernels.end())
    found = it->second;
  for (const auto &entry : r.kernels)
    if (entry.first.second == name && entry.first.first != hash)
      otherHashes.push_back(entry.first.first);
  return found;
}
} // namespace

void kiln::spirvcpu::registerKernel(uint64_t spirvHash, const KernelDesc *desc,
                                    KernelFn fn) {
  if (!desc || !desc->name)
    return; // Nothing to key it by; mgpuModuleGetFunction will not find it.
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  // The same kernel registered again (the same code linked twice) is
  // harmless: the first one stays.
  r.kernels.emplace(std::make_pair(spirvHash, std::string(desc->name)),
                    Registered{desc, fn});
}

uint64_t kiln::spirvcpu::registeredKernelCount() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.kernels.size();
}

//===----------------------------------------------------------------------===//
// Binding a kernel
//===----------------------------------------------------------------------===//

namespace {
/// Checks the KernelDesc of `kernel` against itself and `info`: the ABI
/// version, its name, its tables, stack and workgroup memory.
Status checkDesc(const Kernel &kernel, const container::KernelInfo &info,
                 const std::string &prefix) {
  const KernelDesc &desc = *kernel.desc;
  if (desc.abiVersion != kABIVersion)
    return KILN_ERROR(InvalidArgument,
                      prefix + "its compiled code has spirv-cpu ABI version " +
                          std::to_string(desc.abiVersion) +
                          ", but this runtime implements version " +
                          std::to_string(kABIVersion) +
                          "; recompile it with this Kiln");
  if (!desc.name || kernel.name != desc.name)
    return KILN_ERROR(InvalidArgument,
                      prefix + "it is registered with a KernelDesc named '" +
                          (desc.name ? desc.name : "(null)") + "'");
  if ((desc.numResources && !desc.resources) ||
      (desc.numWorkgroupVars && !desc.workgroupVars) ||
      (desc.numSites && !desc.sites))
    return KILN_ERROR(InvalidArgument,
                      prefix + "its KernelDesc counts resources, workgroup "
                               "variables or sites but has no table of them");
  if (desc.stackBytes > kMaxStackBytes)
    return KILN_ERROR(InvalidArgument,
                      prefix + "its KernelDesc asks for " +
                          std::to_string(desc.stackBytes) +
                          " bytes of stack per invocation; the spirv-cpu "
                          "runtime gives at most " +
                          std::to_string(kMaxStackBytes));
  for (uint32_t i = 0; i < desc.numWorkgroupVars; ++i) {
    const WorkgroupVarDesc &var = desc.workgroupVars[i];
    if (uint64_t(var.offset) + var.bytes > desc.workgroupMemoryBytes)
      return KILN_ERROR(InvalidArgument,
                        prefix + "workgroup variable " + std::to_string(i) +
                            " lies outside the kernel's " +
                            std::to_string(desc.workgroupMemoryBytes) +
                            " bytes of workgroup memory");
  }
  bool dynamic = desc.flags & kDynamicWorkgroup;
  if (dynamic != (info.dynamicWorkgroupElementBytes != 0))
    return KILN_ERROR(InvalidArgument,
                      prefix + "its compiled code and its container disagree "
                               "on whether it has dynamic workgroup memory");
  if (dynamic && (desc.numWorkgroupVars == 0 ||
                  desc.workgroupVars[desc.numWorkgroupVars - 1].offset !=
                      desc.workgroupMemoryBytes ||
                  desc.workgroupVars[desc.numWorkgroupVars - 1].bytes != 0))
    return KILN_ERROR(InvalidArgument,
                      prefix + "its dynamic workgroup memory is not its last "
                               "workgroup variable, after the others");
  return Status::success();
}

/// Checks a registered kernel against the container's entry and maps its
/// resources to arguments.
Status bindKernel(Kernel &kernel, const container::KernelInfo &info) {
  std::string prefix = "kernel '" + kernel.name + "': ";
  KILN_TRY(checkDesc(kernel, info, prefix));
  const KernelDesc &desc = *kernel.desc;
  for (uint32_t i = 0; i < desc.numResources; ++i) {
    const ResourceDesc &r = desc.resources[i];
    if (r.kind == ResourceKind::UniformBuffer) {
      kernel.resourceArgs.push_back(-1);
      continue;
    }
    if (r.kind != ResourceKind::StorageBuffer)
      return KILN_ERROR(InvalidArgument, prefix + "resource " +
                                             std::to_string(i) +
                                             " has unknown kind " +
                                             std::to_string(uint32_t(r.kind)));
    int found = -1;
    for (size_t a = 0; a < info.args.size(); ++a)
      if (container::isDescriptorKind(info.args[a].kind) &&
          info.args[a].set == r.set && info.args[a].binding == r.binding)
        found = int(a);
    // A resource only another kernel of the module uses stays null.
    if (found < 0 && !r.used) {
      kernel.resourceArgs.push_back(Kernel::kUnusedResource);
      continue;
    }
    if (found < 0)
      return KILN_ERROR(
          InvalidArgument,
          prefix + "its compiled code reads a storage buffer at (set " +
              std::to_string(r.set) + ", binding " + std::to_string(r.binding) +
              "), but the container has no memref argument there; the "
              "compiled code and the container differ");
    kernel.resourceArgs.push_back(found);
  }
  return Status::success();
}
} // namespace

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

namespace {
/// `call` (such as "mgpuModuleUnload of ") of `handle`, no loaded module.
Status noModule(const char *call, void *handle) {
  return KILN_ERROR(InvalidArgument,
                    call + pointerText(handle) + ", which is no loaded module");
}
} // namespace

struct Modules::Module {
  container::ModuleInfo info;
  uint64_t hash = 0;
  std::map<std::string, std::unique_ptr<Kernel>> kernels;
};

Modules::~Modules() = default;

Expected<void *> Modules::load(const void *data, size_t size) {
  if (!data)
    return KILN_ERROR(InvalidArgument,
                      "cannot load GPU module: null data pointer");
  if (size >= 4) {
    uint32_t first;
    std::memcpy(&first, data, 4);
    if (first == container::kSPIRVMagic)
      return KILN_ERROR(
          InvalidArgument,
          "cannot load GPU module: it is raw SPIR-V, which the spirv-cpu "
          "runtime cannot run; it runs Kiln containers whose kernels were "
          "compiled for the CPU (compile it with the spirv-cpu target)");
  }
  if (!container::isContainer(data, size))
    return KILN_ERROR(InvalidArgument,
                      "cannot load GPU module: it is not a Kiln container "
                      "(" +
                          std::to_string(size) + " bytes)");
  auto module = std::make_shared<Module>();
  std::string error;
  if (!container::parse(data, size, module->info, error))
    return KILN_ERROR(InvalidArgument, "cannot load GPU module: " + error);
  module->hash =
      hashSPIRV(module->info.spirv.data(), module->info.spirv.size());
  std::lock_guard<std::mutex> lock(mutex);
  Module *raw = module.get();
  modules.emplace(raw, std::move(module));
  return static_cast<void *>(raw);
}

Status Modules::unload(void *handle) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = modules.find(static_cast<const Module *>(handle));
  if (it == modules.end())
    return noModule("mgpuModuleUnload of ", handle);
  for (const auto &entry : it->second->kernels)
    kernels.erase(entry.second.get());
  modules.erase(it);
  return Status::success();
}

Expected<void *> Modules::getFunction(void *handle, const char *name) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = modules.find(static_cast<const Module *>(handle));
  if (it == modules.end())
    return noModule("mgpuModuleGetFunction on ", handle);
  Module *module = it->second.get();
  if (!name)
    return KILN_ERROR(InvalidArgument,
                      "mgpuModuleGetFunction with a null kernel name");
  auto cached = module->kernels.find(name);
  if (cached != module->kernels.end())
    return static_cast<void *>(cached->second.get());
  const container::KernelInfo *info = module->info.findKernel(name);
  if (!info) {
    std::string names;
    for (const container::KernelInfo &k : module->info.kernels)
      names += (names.empty() ? "'" : ", '") + k.name + "'";
    return KILN_ERROR(InvalidArgument, "the GPU module has no kernel '" +
                                           std::string(name) +
                                           "'; its kernels are " + names);
  }
  std::vector<uint64_t> otherHashes;
  Registered found = findRegistered(module->hash, name, otherHashes);
  if (!found.desc || !found.fn)
    return KILN_ERROR(
        InvalidArgument,
        "kernel '" + std::string(name) + "' of this module (SPIR-V hash " +
            hex(module->hash) +
            ") was not compiled for the CPU (compile it with the spirv-cpu "
            "target)" +
            (otherHashes.empty()
                 ? std::string()
                 : "; a kernel of that name is registered for other SPIR-V "
                   "(hash " +
                       hex(otherHashes[0]) +
                       "), so the program's compiled kernels and its "
                       "embedded module differ"));
  auto kernel = std::make_unique<Kernel>();
  kernel->name = name;
  kernel->info = info;
  kernel->indexBits = module->info.indexBits;
  kernel->desc = found.desc;
  kernel->fn = found.fn;
  KILN_TRY(bindKernel(*kernel, *info));
  Kernel *raw = kernel.get();
  module->kernels[name] = std::move(kernel);
  kernels.emplace(raw, module);
  return static_cast<void *>(raw);
}

Expected<std::shared_ptr<const Kernel>>
Modules::lookupKernel(void *function, const char *call) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = kernels.find(static_cast<const Kernel *>(function));
  if (it == kernels.end())
    return KILN_ERROR(InvalidArgument,
                      std::string(call) + " of " + pointerText(function) +
                          ", which is no kernel of a loaded module "
                          "(mgpuModuleGetFunction did not return it, or its "
                          "module was unloaded)");
  // Shares the module's ownership: its container entry and the kernel stay.
  return std::shared_ptr<const Kernel>(modules.at(it->second), it->first);
}
