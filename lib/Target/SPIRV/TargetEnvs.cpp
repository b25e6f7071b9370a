//===- TargetEnvs.cpp - Named #spirv.target_env profiles ------------------===//

#include "kiln/Target/SPIRV/TargetEnvs.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"

#include "spirv-tools/libspirv.h"

using namespace mlir;

namespace {
struct Profile {
  llvm::StringLiteral name;
  const char *attr;
};
} // namespace

// Vulkan 1.3 with the 8/16/64-bit types, 8/16-bit storage, int64 atomics,
// buffer device addresses, every subgroup operation class but clustered and
// NaNs, infinities and signed zeros kept (float controls): the version,
// capabilities and extensions of the `desktop` profile; `lavapipe` and
// `spirv-cpu` add float atomic add (`extraCaps`, `extraExts`: "" or a list
// starting with a comma).
#define KILN_VULKAN_1_3_FULL_VCE(extraCaps, extraExts)                         \
  "#spirv.target_env<#spirv.vce<v1.6, [Shader, Float16, Float64, Int8, "       \
  "Int16, Int64, Int64Atomics, StorageBuffer8BitAccess, "                      \
  "UniformAndStorageBuffer8BitAccess, StoragePushConstant8, "                  \
  "StorageBuffer16BitAccess, StorageUniform16, StoragePushConstant16, "        \
  "GroupNonUniform, GroupNonUniformVote, GroupNonUniformArithmetic, "          \
  "GroupNonUniformBallot, GroupNonUniformShuffle, "                            \
  "GroupNonUniformShuffleRelative, GroupNonUniformQuad, DotProduct, "          \
  "DotProductInputAll, DotProductInput4x8Bit, DotProductInput4x8BitPacked, "   \
  "PhysicalStorageBufferAddresses, SignedZeroInfNanPreserve" extraCaps "], "   \
  "[SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage, "              \
  "SPV_KHR_16bit_storage, SPV_KHR_integer_dot_product, "                       \
  "SPV_KHR_physical_storage_buffer" extraExts "]>, api=Vulkan, "

// 32-bit float atomic add, on buffers and workgroup memory (lavapipe has
// VK_EXT_shader_atomic_float's shaderBufferFloat32AtomicAdd and
// shaderSharedFloat32AtomicAdd).
#define KILN_FLOAT32_ATOMIC_ADD ", AtomicFloat32AddEXT"
#define KILN_FLOAT_ATOMIC_ADD_EXT ", SPV_EXT_shader_atomic_float_add"

// Limits are the Vulkan core minimums unless the profile names a device.
// docs/target-envs.md lists what each profile holds and why.
static const Profile kProfiles[] = {
    {"vulkan-1.1",
     "#spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform], "
     "[SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, "
     "#spirv.resource_limits<max_compute_shared_memory_size = 16384, "
     "max_compute_workgroup_invocations = 128, "
     "max_compute_workgroup_size = [128, 128, 64]>>"},
    {"vulkan-1.2",
     "#spirv.target_env<#spirv.vce<v1.5, [Shader, GroupNonUniform], "
     "[SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, "
     "#spirv.resource_limits<max_compute_shared_memory_size = 16384, "
     "max_compute_workgroup_invocations = 128, "
     "max_compute_workgroup_size = [128, 128, 64]>>"},
    {"vulkan-1.3",
     "#spirv.target_env<#spirv.vce<v1.6, [Shader, GroupNonUniform, "
     "DotProduct, DotProductInputAll, DotProductInput4x8Bit, "
     "DotProductInput4x8BitPacked], "
     "[SPV_KHR_storage_buffer_storage_class, SPV_KHR_integer_dot_product]>, "
     "api=Vulkan, "
     "#spirv.resource_limits<max_compute_shared_memory_size = 16384, "
     "max_compute_workgroup_invocations = 128, "
     "max_compute_workgroup_size = [128, 128, 64]>>"},
    // What every desktop GPU of the last years has (NVIDIA since Maxwell,
    // AMD since GCN, Intel Xe) and lavapipe too: Vulkan 1.3 with the
    // 8/16/64-bit types and storage, int64 atomics and every subgroup operation
    // class but clustered; no fixed subgroup size. The portable test bundle is
    // compiled for it.
    {"desktop",
     KILN_VULKAN_1_3_FULL_VCE(
         "",
         "") "#spirv.resource_limits<max_compute_shared_memory_size = 32768, "
             "max_compute_workgroup_invocations = 1024, "
             "max_compute_workgroup_size = [1024, 1024, 64]>>"},
    // Mesa 22.3's lavapipe (llvmpipe, 256-bit vectors): Vulkan 1.3 with the
    // 8/16/64-bit types, 8/16-bit storage, int64 atomics and every subgroup
    // operation class but clustered, and 32-bit float atomic add.
    {"lavapipe",
     KILN_VULKAN_1_3_FULL_VCE(
         KILN_FLOAT32_ATOMIC_ADD,
         KILN_FLOAT_ATOMIC_ADD_EXT) "#spirv.resource_limits<max_compute_shared_"
                                    "memory_size = 32768, "
                                    "max_compute_workgroup_invocations = 1024, "
                                    "max_compute_workgroup_size = [1024, 1024, "
                                    "1024], subgroup_size = 8, "
                                    "min_subgroup_size = 8, max_subgroup_size "
                                    "= 8>>"},
    // Kiln's spirv-cpu target (docs/spirv-cpu.md): what lavapipe offers, with
    // the same 8-wide subgroups, and no fixed limit on workgroup memory but
    // the one a CPU's stack-free design makes cheap.
    {"spirv-cpu",
     KILN_VULKAN_1_3_FULL_VCE(
         KILN_FLOAT32_ATOMIC_ADD ", AtomicFloat64AddEXT",
         KILN_FLOAT_ATOMIC_ADD_EXT) "#spirv.resource_limits<max_compute_shared_"
                                    "memory_size = 65536, "
                                    "max_compute_workgroup_invocations = 1024, "
                                    "max_compute_workgroup_size = [1024, 1024, "
                                    "1024], subgroup_size = 8, "
                                    "min_subgroup_size = 8, max_subgroup_size "
                                    "= 8>>"},
};

ArrayRef<StringRef> kiln::getTargetEnvProfileNames() {
  static const SmallVector<StringRef> names = [] {
    SmallVector<StringRef> n;
    for (const Profile &p : kProfiles)
      n.push_back(p.name);
    return n;
  }();
  return names;
}

FailureOr<spirv::TargetEnvAttr>
kiln::getTargetEnvProfile(MLIRContext *context, StringRef name,
                          std::string &error) {
  context->getOrLoadDialect<spirv::SPIRVDialect>();
  StringRef text;
  if (name.starts_with("#spirv.target_env")) {
    text = name;
  } else {
    for (const Profile &p : kProfiles)
      if (p.name == name)
        text = p.attr;
  }
  if (text.empty()) {
    error = "unknown target env '" + name.str() + "'; known profiles: " +
            llvm::join(getTargetEnvProfileNames(), ", ") +
            ", or a #spirv.target_env<...> literal";
    return failure();
  }
  // Parse quietly: a bad literal is reported by the caller with its own
  // location.
  ScopedDiagnosticHandler quiet(context, [&](Diagnostic &diag) {
    error = "cannot parse target env '" + name.str() + "': " + diag.str();
    return success();
  });
  auto attr =
      dyn_cast_or_null<spirv::TargetEnvAttr>(parseAttribute(text, context));
  if (!attr) {
    if (error.empty())
      error = "'" + name.str() + "' is not a #spirv.target_env attribute";
    return failure();
  }
  return attr;
}

std::string kiln::describeTargetEnv(spirv::TargetEnvAttr env) {
  std::string choices =
      "--target-env=desktop|device|vulkan-1.1|vulkan-1.2|vulkan-1.3|lavapipe "
      "or a #spirv.target_env literal";
  for (const Profile &p : kProfiles) {
    std::string error;
    FailureOr<spirv::TargetEnvAttr> profile =
        getTargetEnvProfile(env.getContext(), p.name, error);
    if (succeeded(profile) && *profile == env)
      return "target env '" + std::string(p.name) +
             "' (choose another with " + choices + ")";
  }
  return "the target env given in the program or chosen with --target-env "
         "(choose another with " +
         choices + "; a spirv.target_env written in the program wins)";
}

spirv::TargetEnvAttr kiln::getPermissiveTargetEnv(spirv::TargetEnvAttr env) {
  using spirv::Capability;
  using spirv::Extension;
  MLIRContext *ctx = env.getContext();
  SmallVector<Capability> caps(env.getCapabilities());
  const Capability extraCaps[] = {Capability::Shader, Capability::Float16, Capability::Float64,
               Capability::Int8, Capability::Int16, Capability::Int64,
               Capability::Int64Atomics, Capability::StorageBuffer8BitAccess,
               Capability::UniformAndStorageBuffer8BitAccess,
               Capability::StoragePushConstant8,
               Capability::StorageBuffer16BitAccess,
               Capability::StorageUniform16,
               Capability::StoragePushConstant16, Capability::GroupNonUniform,
               Capability::GroupNonUniformVote,
               Capability::GroupNonUniformArithmetic,
               Capability::GroupNonUniformBallot,
               Capability::GroupNonUniformShuffle,
               Capability::GroupNonUniformShuffleRelative,
               Capability::GroupNonUniformClustered,
               Capability::GroupNonUniformQuad,
               Capability::GroupNonUniformRotateKHR,
               Capability::AtomicFloat32AddEXT,
               Capability::AtomicFloat16AddEXT,
               Capability::AtomicFloat64AddEXT,
               Capability::AtomicFloat32MinMaxEXT,
               Capability::DotProduct, Capability::DotProductInputAll,
               Capability::DotProductInput4x8Bit,
               Capability::DotProductInput4x8BitPacked,
               Capability::CooperativeMatrixKHR};
  caps.append(std::begin(extraCaps), std::end(extraCaps));
  SmallVector<Extension> exts(env.getExtensions());
  const Extension extraExts[] = {Extension::SPV_KHR_storage_buffer_storage_class,
               Extension::SPV_KHR_8bit_storage,
               Extension::SPV_KHR_16bit_storage,
               Extension::SPV_EXT_shader_atomic_float_add,
               Extension::SPV_EXT_shader_atomic_float16_add,
               Extension::SPV_EXT_shader_atomic_float_min_max,
               Extension::SPV_KHR_integer_dot_product,
               Extension::SPV_KHR_subgroup_rotate,
               Extension::SPV_KHR_cooperative_matrix};
  exts.append(std::begin(extraExts), std::end(extraExts));
  auto triple = spirv::VerCapExtAttr::get(spirv::Version::V_1_6, caps, exts,
                                          ctx);
  return spirv::TargetEnvAttr::get(triple, env.getResourceLimits(),
                                   env.getClientAPI(), env.getVendorID(),
                                   env.getDeviceType(), env.getDeviceID());
}

int kiln::getValidatorEnv(spirv::TargetEnvAttr env) {
  switch (env.getVersion()) {
  case spirv::Version::V_1_0:
    return SPV_ENV_VULKAN_1_0;
  case spirv::Version::V_1_1:
  case spirv::Version::V_1_2:
  case spirv::Version::V_1_3:
    return SPV_ENV_VULKAN_1_1;
  case spirv::Version::V_1_4:
    return SPV_ENV_VULKAN_1_1_SPIRV_1_4;
  case spirv::Version::V_1_5:
    return SPV_ENV_VULKAN_1_2;
  default:
    return SPV_ENV_VULKAN_1_3;
  }
}

StringRef kiln::getValidatorEnvName(spirv::TargetEnvAttr env) {
  switch (getValidatorEnv(env)) {
  case SPV_ENV_VULKAN_1_0:
    return "vulkan1.0";
  case SPV_ENV_VULKAN_1_1:
    return "vulkan1.1";
  case SPV_ENV_VULKAN_1_1_SPIRV_1_4:
    return "vulkan1.1spv1.4";
  case SPV_ENV_VULKAN_1_2:
    return "vulkan1.2";
  default:
    return "vulkan1.3";
  }
}
