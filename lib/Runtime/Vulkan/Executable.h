//===- Executable.h - A device's modules, kernels and pipelines -*- C++ -*-===//
//
// The Executable unit of the Vulkan runtime: modules checked before any
// driver sees them (container, instruction stream, argument table against
// the SPIR-V, printf formats), their shader modules once the SPIR-V passed
// SPIRV-Tools for the device and the device offers every capability it
// declares, and each kernel's layouts and pipelines (through one
// VkPipelineCache). Handles from the boundary are looked up here, never
// trusted. It reads a Device and calls nothing above it: opening the device
// and draining the queue before a pipeline is replaced are the Context's.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_VULKAN_EXECUTABLE_H
#define KILN_RUNTIME_VULKAN_EXECUTABLE_H

#include "Device.h"
#include "kiln/Contract/Container.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

namespace kiln::vkrt {

struct Module;

/// A kernel of a loaded module and the Vulkan objects that run it.
struct Kernel {
  Module *module = nullptr;
  std::string name;
  /// From the container; raw SPIR-V kernels have none.
  const container::KernelInfo *info = nullptr;
  /// Declared in creation order: destroyed pipeline first.
  std::vector<Owned<VkDescriptorSetLayout>> setLayouts;
  Owned<VkPipelineLayout> layout;
  Owned<VkPipeline> pipeline;
  /// A kernel with dynamic workgroup memory: its pipelines by the length
  /// (in elements) of its dynamic workgroup array, made at the first launch
  /// of each size (`pipeline` has length 1).
  std::map<uint32_t, Owned<VkPipeline>> sizedPipelines;
  /// Raw SPIR-V: the number of buffers the pipeline layout was made for.
  size_t rawBuffers = SIZE_MAX;
  uint32_t maxBinding = 0;
};

struct Module {
  std::vector<uint8_t> bytes; ///< A copy of what mgpuModuleLoad was given.
  const void *source = nullptr;
  bool isContainer = false;
  /// The SPIR-V prints (imports NonSemantic.DebugPrintf).
  bool debugPrintf = false;
  container::ModuleInfo info;
  std::vector<std::string> entryPoints;
  Owned<VkShaderModule> shader;
  std::map<std::string, std::unique_ptr<Kernel>> kernels;
  unsigned references = 0;
};

/// What the runtime checks in a module's bytes before any device sees them:
/// the container (or raw SPIR-V), the SPIR-V's instruction stream and entry
/// points, and that the container's kernels agree with them. Fills
/// `module`'s bytes, info, entry points and debugPrintf; false with `error`
/// on what it refuses. Touches no Vulkan state (the fuzz target calls it).
bool inspectModule(const void *data, size_t size, Module &module,
                   std::string &error);

class Executables {
public:
  explicit Executables(Device &device) : dev(device) {}
  Executables(const Executables &) = delete;
  Executables &operator=(const Executables &) = delete;

  /// KILN_VULKAN_VALIDATE_SPIRV (default on where the validator is built
  /// in): SPIRV-Tools validates each distinct SPIR-V once before the driver.
  bool validateSPIRV = true;

  /// The pipeline cache, made when the device opens and released before it
  /// closes.
  Status openCache();
  void closeCache() { pipelineCache.reset(); }
  /// Releases every module, kernel and pipeline (the device is closing).
  void releaseAll();

  /// A loaded module with the same bytes from the same address, its
  /// reference count raised; null when there is none.
  Module *reuse(const void *data, size_t size);
  /// A new module from `size` bytes at `data`, checked (inspectModule), not
  /// yet kept: a module the device refuses is dropped.
  static Expected<std::unique_ptr<Module>> inspect(const void *data,
                                                   size_t size);
  Module *keep(std::unique_ptr<Module> module);
  /// The module's VkShaderModule on the open device. `printfOn`: the
  /// validation layer runs debug printf; `printfOff`: the user asked for
  /// kernels that print to run without printing.
  Status createShader(Module *module, bool printfOn, bool printfOff);
  Status unload(Module *module);

  /// Kernel `name` of `module`, whose shader exists: its pipeline made
  /// from the container's table, checked against the device's limits.
  /// `module` is one this unit loaded: the mgpu* boundary looked it up
  /// (checkModule) before, once per call.
  Expected<Kernel *> getKernel(Module *module, const char *name);
  /// Makes `kernel`'s layouts and pipeline (raw SPIR-V: for `rawBuffers`
  /// buffers). The device is done with the old ones.
  Status createPipeline(Kernel *kernel, size_t rawBuffers);
  /// The pipeline of `kernel` whose dynamic workgroup array has `elements`
  /// elements.
  Expected<VkPipeline> sizedPipeline(Kernel *kernel, uint32_t elements);

  /// An error naming `what` unless `module` is loaded (`kernel` one that
  /// getKernel returned).
  Status checkModule(const Module *module, const char *what) const;
  Status checkKernel(const Kernel *kernel, const char *what) const;

private:
  /// SPIRV-Tools' verdict on `module`'s SPIR-V for the device (once per
  /// distinct SPIR-V); an error naming `kernels` when it is invalid.
  Status validateForDevice(const Module &module, const std::string &kernels);
  /// A compute pipeline of `kernel` with its layout, specialized by
  /// `specialization` (may be null).
  Expected<Owned<VkPipeline>>
  makePipeline(Kernel *kernel, VkPipelineLayout layout,
               const VkSpecializationInfo *specialization);

  Device &dev;
  Owned<VkPipelineCache> pipelineCache;
  std::vector<std::unique_ptr<Module>> modules;
  /// Every kernel of `modules` (getKernel's results), for checkKernel's
  /// lookup on each launch.
  std::unordered_set<const Kernel *> liveKernels;
  /// Hashes (and sizes) of the SPIR-V validated so far.
  std::set<std::pair<uint64_t, size_t>> validatedSPIRV;
};

} // namespace kiln::vkrt

#endif // KILN_RUNTIME_VULKAN_EXECUTABLE_H
