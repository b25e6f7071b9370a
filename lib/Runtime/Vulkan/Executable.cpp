//===- Executable.cpp - A device's modules, kernels and pipelines ---------===//
//
// A module is checked when it loads and reaches the driver once the device
// is open: SPIRV-Tools first (once per distinct SPIR-V), then the
// capabilities it declares against the device's, then vkCreateShaderModule.
// A kernel's descriptor sets come from the container's table (checked
// against the device's limits before anything is sized from them) or, for
// raw SPIR-V, from the first launch's buffer count.
//
//===----------------------------------------------------------------------===//

#include "Executable.h"
#include "../Format.h"
#include "ValidateSPIRV.h"

#include <algorithm>
#include <chrono>
#include <cstring>

using namespace kiln;
using namespace kiln::vkrt;
using rt::quotedList;

Status Executables::openCache() {
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  pipelineCache = {dev.device, dev.vk.vkDestroyPipelineCache};
  KILN_VK_ON(dev,
             dev.vk.vkCreatePipelineCache(dev.device, &info, nullptr,
                                          pipelineCache.out()),
             "vkCreatePipelineCache");
  return Status::success();
}

void Executables::releaseAll() {
  liveKernels.clear();
  modules.clear();
}

Module *Executables::reuse(const void *data, size_t size) {
  for (auto &m : modules)
    if (m->source == data && m->bytes.size() == size &&
        std::memcmp(m->bytes.data(), data, size) == 0) {
      ++m->references;
      return m.get();
    }
  return nullptr;
}

Expected<std::unique_ptr<Module>> Executables::inspect(const void *data,
                                                       size_t size) {
  auto module = std::make_unique<Module>();
  module->source = data;
  if (std::string error; !inspectModule(data, size, *module, error))
    return KILN_ERROR(InvalidArgument, "cannot load GPU module: " + error);
  module->references = 1;
  return module;
}

Module *Executables::keep(std::unique_ptr<Module> module) {
  modules.push_back(std::move(module));
  return modules.back().get();
}

Status Executables::validateForDevice(const Module &module,
                                      const std::string &kernels) {
  if (!validateSPIRV || !haveSPIRVValidator())
    return Status::success();
  // FNV-1a over the words: a program that loads the same SPIR-V again (or
  // from another address) pays once.
  const std::vector<uint32_t> &words = module.info.spirv;
  uint64_t hash = 1469598103934665603ull;
  for (uint32_t w : words)
    hash = (hash ^ w) * 1099511628211ull;
  if (validatedSPIRV.count({hash, words.size()}))
    return Status::success();
  auto start = std::chrono::steady_clock::now();
  std::string envName, error;
  bool valid = kiln::vkrt::validateSPIRV(words, dev.properties.apiVersion,
                                         envName, error);
  dev.stats.spirvValidationNanoseconds +=
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now() - start)
          .count();
  ++dev.stats.spirvValidations;
  if (!valid)
    return KILN_ERROR(InvalidArgument,
                      "cannot load GPU module with " + kernels +
                          ": its SPIR-V fails validation (spirv-val "
                          "--target-env " +
                          envName + ", for device '" +
                          dev.properties.deviceName + "'): " + error);
  // Only valid SPIR-V is remembered: invalid SPIR-V loaded again is
  // refused again.
  validatedSPIRV.insert({hash, words.size()});
  return Status::success();
}

/// "kernel 'a'" or "kernels 'a', 'b'": a module named by its entry points.
static std::string describeKernels(const Module &module) {
  return (module.entryPoints.size() == 1 ? "kernel " : "kernels ") +
         quotedList(module.entryPoints);
}

Status Executables::createShader(Module *module, bool printfOn,
                                 bool printfOff) {
  std::string kernels = describeKernels(*module);
  if (module->debugPrintf) {
    if (!dev.nonSemanticInfo)
      return KILN_ERROR(
          Unsupported,
          "cannot load GPU module with " + kernels +
              ": it prints (NonSemantic.DebugPrintf), and device '" +
              dev.properties.deviceName +
              "' has neither Vulkan 1.3 nor VK_KHR_shader_non_semantic_info");
    if (!printfOn && !printfOff)
      return KILN_ERROR(
          Unsupported,
          "cannot load GPU module with " + kernels +
              ": it prints (gpu.printf), but the Vulkan instance was created "
              "before it was loaded, without debug printf; set "
              "KILN_VULKAN_PRINTF=1 to have it from the start (or "
              "KILN_VULKAN_PRINTF=0 to run the kernels without printing)");
  }
  std::string missing = missingCapability(module->info.spirv, dev.capabilities);
  if (!missing.empty())
    return KILN_ERROR(Unsupported,
                      "cannot load GPU module with " + kernels + ": it needs " +
                          missing + ", which device '" +
                          dev.properties.deviceName +
                          "' does not offer; compile it for this device "
                          "(kiln-compile --target-env=device) or a target "
                          "env without it");
  KILN_TRY(validateForDevice(*module, kernels));
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = module->info.spirv.size() * 4;
  info.pCode = module->info.spirv.data();
  Owned<VkShaderModule> shader(dev.device, dev.vk.vkDestroyShaderModule);
  KILN_VK_ON(
      dev,
      dev.vk.vkCreateShaderModule(dev.device, &info, nullptr, shader.out()),
      "vkCreateShaderModule");
  KILN_TRY(dev.checkValidation());
  module->shader = std::move(shader);
  ++dev.stats.shaderModules;
  return Status::success();
}

Status Executables::unload(Module *module) {
  KILN_TRY(checkModule(module, "mgpuModuleUnload"));
  // Pipelines stay cached with the module for the rest of the process: a
  // module is loaded again with the same bytes more often than not.
  if (module->references > 0)
    --module->references;
  return Status::success();
}

Expected<Kernel *> Executables::getKernel(Module *module, const char *name) {
  if (!module)
    return KILN_ERROR(InvalidArgument,
                      "mgpuModuleGetFunction on a module that failed to load");
  if (!name)
    return KILN_ERROR(InvalidArgument,
                      "mgpuModuleGetFunction with a null kernel name");
  if (!module->shader)
    return KILN_ERROR(InvalidArgument,
                      "mgpuModuleGetFunction before the module's shader was "
                      "created");
  auto it = module->kernels.find(name);
  if (it != module->kernels.end())
    return it->second.get();
  auto kernel = std::make_unique<Kernel>();
  kernel->module = module;
  kernel->name = name;
  if (std::find(module->entryPoints.begin(), module->entryPoints.end(), name) ==
      module->entryPoints.end()) {
    std::string names;
    for (const std::string &n : module->entryPoints)
      names += (names.empty() ? "" : ", ") + n;
    return KILN_ERROR(InvalidArgument,
                      "GPU module has no compute entry point '" +
                          std::string(name) +
                          "'; it has: " + (names.empty() ? "none" : names));
  }
  if (module->isContainer) {
    kernel->info = module->info.findKernel(name);
    if (!kernel->info) {
      std::string names;
      for (auto &k : module->info.kernels)
        names += (names.empty() ? "" : ", ") + k.name;
      return KILN_ERROR(InvalidArgument, "GPU module has no kernel '" +
                                             std::string(name) +
                                             "'; it has: " + names);
    }
    const VkPhysicalDeviceLimits &limits = dev.properties.limits;
    const uint32_t *wg = kernel->info->workgroupSize;
    uint64_t invocations = uint64_t(wg[0]) * wg[1] * wg[2];
    const char *axes = "xyz";
    for (int i = 0; i < 3; ++i)
      if (wg[i] > limits.maxComputeWorkGroupSize[i])
        return KILN_ERROR(
            Unsupported, "kernel '" + kernel->name + "' has workgroup size " +
                             std::to_string(wg[i]) + " in " + axes[i] +
                             ", above device '" + dev.properties.deviceName +
                             "''s limit of " +
                             std::to_string(limits.maxComputeWorkGroupSize[i]) +
                             " (maxComputeWorkGroupSize)");
    if (invocations > limits.maxComputeWorkGroupInvocations)
      return KILN_ERROR(
          Unsupported,
          "kernel '" + kernel->name + "' has " + std::to_string(invocations) +
              " invocations per workgroup, above device '" +
              dev.properties.deviceName + "''s limit of " +
              std::to_string(limits.maxComputeWorkGroupInvocations) +
              " (maxComputeWorkGroupInvocations)");
    if (kernel->info->pushConstantSize > limits.maxPushConstantsSize)
      return KILN_ERROR(Unsupported,
                        "kernel '" + kernel->name + "' needs " +
                            std::to_string(kernel->info->pushConstantSize) +
                            " bytes of push constants, above device '" +
                            dev.properties.deviceName + "''s limit of " +
                            std::to_string(limits.maxPushConstantsSize) +
                            " (maxPushConstantsSize)");
    KILN_TRY(createPipeline(kernel.get(), SIZE_MAX));
  }
  Kernel *k = kernel.get();
  liveKernels.insert(k);
  module->kernels[name] = std::move(kernel);
  return k;
}

Status Executables::createPipeline(Kernel *kernel, size_t rawBuffers) {
  // Raw SPIR-V kernels get their layout from the first launch's argument
  // count; it changes only if a later launch passes a different count.
  std::vector<std::vector<VkDescriptorSetLayoutBinding>> sets;
  const VkPhysicalDeviceLimits &limits = dev.properties.limits;
  uint32_t maxBinding = 0;
  auto add = [&](uint32_t set, uint32_t binding) -> Status {
    // Checked before anything is sized from them: a set or binding from a
    // container is untrusted (set 2^32-1 once wrapped `set + 1` to 0).
    if (set >= limits.maxBoundDescriptorSets)
      return KILN_ERROR(Unsupported,
                        "kernel '" + kernel->name + "' uses descriptor set " +
                            std::to_string(set) + "; device '" +
                            dev.properties.deviceName + "' binds sets 0 to " +
                            std::to_string(limits.maxBoundDescriptorSets - 1) +
                            " (maxBoundDescriptorSets)");
    if (binding >= limits.maxPerStageDescriptorStorageBuffers)
      return KILN_ERROR(
          Unsupported,
          "kernel '" + kernel->name + "' uses binding " +
              std::to_string(binding) + " in descriptor set " +
              std::to_string(set) + "; Kiln allows bindings below device '" +
              dev.properties.deviceName + "''s " +
              std::to_string(limits.maxPerStageDescriptorStorageBuffers) +
              " storage buffers per stage "
              "(maxPerStageDescriptorStorageBuffers)");
    if (sets.size() <= set)
      sets.resize(size_t(set) + 1);
    for (const VkDescriptorSetLayoutBinding &other : sets[set])
      if (other.binding == binding)
        return KILN_ERROR(InvalidArgument,
                          "kernel '" + kernel->name +
                              "' has two arguments at descriptor set " +
                              std::to_string(set) + ", binding " +
                              std::to_string(binding));
    VkDescriptorSetLayoutBinding b{};
    b.binding = binding;
    b.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    b.descriptorCount = 1;
    b.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    sets[set].push_back(b);
    maxBinding = std::max(maxBinding, binding);
    return Status::success();
  };
  uint32_t pushConstants = 0;
  if (kernel->info) {
    for (const container::ArgInfo &a : kernel->info->args)
      if (container::isDescriptorKind(a.kind))
        KILN_TRY(add(a.set, a.binding));
    pushConstants = kernel->info->pushConstantSize;
  } else {
    for (size_t i = 0; i < rawBuffers; ++i)
      KILN_TRY(add(0, i));
    // (A container's table was checked against the SPIR-V at load.)
    if (std::string error;
        !container::checkRawInterface(kernel->module->info.spirv, kernel->name,
                                      uint32_t(rawBuffers), error))
      return KILN_ERROR(InvalidArgument, error);
  }
  // Built aside, so that a failure leaves the kernel as it was.
  std::vector<Owned<VkDescriptorSetLayout>> setLayouts;
  std::vector<VkDescriptorSetLayout> rawSetLayouts;
  for (auto &bindings : sets) {
    VkDescriptorSetLayoutCreateInfo info{
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.bindingCount = bindings.size();
    info.pBindings = bindings.data();
    Owned<VkDescriptorSetLayout> &layout = setLayouts.emplace_back(
        dev.device, dev.vk.vkDestroyDescriptorSetLayout);
    KILN_VK_ON(dev,
               dev.vk.vkCreateDescriptorSetLayout(dev.device, &info, nullptr,
                                                  layout.out()),
               "vkCreateDescriptorSetLayout");
    rawSetLayouts.push_back(layout.get());
  }
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushConstants};
  VkPipelineLayoutCreateInfo layoutInfo{
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.setLayoutCount = rawSetLayouts.size();
  layoutInfo.pSetLayouts = rawSetLayouts.data();
  layoutInfo.pushConstantRangeCount = pushConstants ? 1 : 0;
  layoutInfo.pPushConstantRanges = &range;
  Owned<VkPipelineLayout> layout(dev.device, dev.vk.vkDestroyPipelineLayout);
  KILN_VK_ON(dev,
             dev.vk.vkCreatePipelineLayout(dev.device, &layoutInfo, nullptr,
                                           layout.out()),
             "vkCreatePipelineLayout");
  KILN_ASSIGN_OR_RETURN(Owned<VkPipeline> pipeline,
                        makePipeline(kernel, layout.get(), nullptr));
  kernel->sizedPipelines.clear();
  kernel->pipeline = std::move(pipeline);
  kernel->layout = std::move(layout);
  kernel->setLayouts = std::move(setLayouts);
  kernel->maxBinding = maxBinding;
  if (!kernel->info)
    kernel->rawBuffers = rawBuffers;
  ++dev.stats.pipelines;
  return Status::success();
}

Expected<Owned<VkPipeline>>
Executables::makePipeline(Kernel *kernel, VkPipelineLayout layout,
                          const VkSpecializationInfo *specialization) {
  VkComputePipelineCreateInfo info{
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = kernel->module->shader.get();
  info.stage.pName = kernel->name.c_str();
  info.stage.pSpecializationInfo = specialization;
  info.layout = layout;
  // The validation layer reports a pipeline that does not match its layout
  // here; stop before the driver uses it (some crash on one).
  KILN_TRY(dev.checkValidation());
  Owned<VkPipeline> pipeline(dev.device, dev.vk.vkDestroyPipeline);
  VkResult result = dev.vk.vkCreateComputePipelines(
      dev.device, pipelineCache.get(), 1, &info, nullptr, pipeline.out());
  if (result != VK_SUCCESS) {
    Status error =
        dev.vkCheck(result, "vkCreateComputePipelines", __FILE__, __LINE__);
    return error.prepend("kernel '" + kernel->name + "': ");
  }
  KILN_TRY(dev.checkValidation());
  return pipeline;
}

Expected<VkPipeline> Executables::sizedPipeline(Kernel *kernel,
                                                uint32_t elements) {
  auto found = kernel->sizedPipelines.find(elements);
  if (found != kernel->sizedPipelines.end())
    return found->second.get();
  VkSpecializationMapEntry entry{container::kDynamicWorkgroupSpecId, 0,
                                 sizeof(uint32_t)};
  VkSpecializationInfo specialization{1, &entry, sizeof(uint32_t), &elements};
  KILN_ASSIGN_OR_RETURN(
      Owned<VkPipeline> pipeline,
      makePipeline(kernel, kernel->layout.get(), &specialization));
  ++dev.stats.pipelines;
  VkPipeline raw = pipeline.get();
  kernel->sizedPipelines.emplace(elements, std::move(pipeline));
  return raw;
}

Status Executables::checkModule(const Module *module, const char *what) const {
  if (std::any_of(modules.begin(), modules.end(),
                  [&](auto &m) { return m.get() == module; }))
    return Status::success();
  return KILN_ERROR(InvalidArgument,
                    std::string(what) +
                        " of a module that mgpuModuleLoad did not return");
}

Status Executables::checkKernel(const Kernel *kernel, const char *what) const {
  if (liveKernels.count(kernel))
    return Status::success();
  return KILN_ERROR(InvalidArgument,
                    std::string(what) + " with a function that "
                                        "mgpuModuleGetFunction did not return");
}
