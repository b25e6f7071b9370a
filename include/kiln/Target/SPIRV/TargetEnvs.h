//===- TargetEnvs.h - Named #spirv.target_env profiles ---------*- C++ -*-===//
//
// Kiln's named Vulkan target profiles and the mapping from a target env to the
// SPIRV-Tools environment that validates it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_SPIRV_TARGETENVS_H
#define KILN_TARGET_SPIRV_TARGETENVS_H

#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

namespace kiln {

/// The profile names `--target-env` accepts, in the order docs list them.
llvm::ArrayRef<llvm::StringRef> getTargetEnvProfileNames();

/// The profile a GPU module without a target env gets when Kiln compiles it
/// for Vulkan without a device in view: kiln-compile, kiln-opt's
/// --kiln-gpu-to-spirv and --kiln-gpu-to-vulkan, and the
/// kiln-attach-spirv-target-env pass all default to it. The runners default
/// to "device", the device they run on.
inline constexpr const char *kDefaultVulkanTargetEnv = "desktop";
/// The profile of the spirv-cpu target when none is given, from every door
/// (kiln-compile, the runner, --kiln-gpu-to-spirv-cpu); "device" names it
/// too.
inline constexpr const char *kDefaultSPIRVCPUTargetEnv = "spirv-cpu";

/// How memref arguments are bound when --buffer-device-address is not given:
/// on Vulkan, by device address where a descriptor cannot reach them; on
/// spirv-cpu, whose descriptors have no size limit, never.
inline constexpr const char *kDefaultVulkanBufferDeviceAddress = "auto";
inline constexpr const char *kDefaultSPIRVCPUBufferDeviceAddress = "never";

/// Returns the target env of the named profile, or of a literal
/// `#spirv.target_env<...>` attribute. Fails with `error` set when the name is
/// unknown or the literal does not parse.
mlir::FailureOr<mlir::spirv::TargetEnvAttr>
getTargetEnvProfile(mlir::MLIRContext *context, llvm::StringRef name,
                    std::string &error);

/// Names the target env `env` for an error about a limit or capability it
/// lacks, and says how to choose another: "target env 'vulkan-1.1' (choose
/// another with --target-env=desktop|device|...)" for a profile, "the target
/// env the program gives ..." for any other.
std::string describeTargetEnv(mlir::spirv::TargetEnvAttr env);

/// A target env with every capability and extension of the dialect and the
/// same limits as `env`, used to find what an op that fails to lower lacks.
mlir::spirv::TargetEnvAttr getPermissiveTargetEnv(mlir::spirv::TargetEnvAttr env);

/// The SPIRV-Tools `spv_target_env` (as int, to keep SPIRV-Tools headers out)
/// that validates modules of `env`, and its spirv-val name ("vulkan1.3").
int getValidatorEnv(mlir::spirv::TargetEnvAttr env);
llvm::StringRef getValidatorEnvName(mlir::spirv::TargetEnvAttr env);

} // namespace kiln

#endif // KILN_TARGET_SPIRV_TARGETENVS_H
