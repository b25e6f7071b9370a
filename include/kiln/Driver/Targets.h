//===- Targets.h - Where kernels run, one row per target --------*- C++ -*-===//
//
// Everything the driver decides by target is one row of a table: the name
// `--target=` takes, the device binaries `--emit` writes, the defaults of
// the target's options, the runtime that answers "device", the runtime
// archive executables link, and the pass pipelines. kiln-compile, the
// runners and kiln-opt's pipelines take their defaults from the same
// constants, so every door compiles the same program the same way.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DRIVER_TARGETS_H
#define KILN_DRIVER_TARGETS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace kiln {
namespace driver {

/// Where kernels run.
enum class Target { Vulkan, CUDA, SPIRVCPU };

/// What kernels are compiled for, as kiln-compile's and the runners' options
/// say it. An empty string is the target's default (TargetInfo).
struct TargetOptions {
  Target target = Target::Vulkan;
  /// Vulkan and spirv-cpu: a profile name, a #spirv.target_env literal, or
  /// "device" (Vulkan: the device the runtime chooses; spirv-cpu: the
  /// spirv-cpu profile); empty: TargetInfo::defaultTargetEnv.
  std::string targetEnv;
  /// Lower index to i64 in kernels and push constants.
  bool use64BitIndex = false;
  /// never, auto or always; empty: TargetInfo::defaultBufferDeviceAddress.
  std::string bufferDeviceAddress;
  /// spirv-cpu: checked mode.
  bool checked = false;
  /// spirv-cpu: accesses not bounded (--unbounded-access).
  bool unboundedAccess = false;
  /// Vulkan and spirv-cpu: no float controls (docs/user-guide.md).
  bool fastMath = false;
  /// CUDA: sm_XX or "device" (the device the runtime chooses); empty:
  /// cuda::kDefaultChip.
  std::string chip;
  /// CUDA: PTX features; empty: the oldest PTX the chip accepts.
  std::string features;
  /// CUDA: the kernels' format inside host programs: ptx, cubin or fatbin;
  /// empty: cuda::kDefaultFormat.
  std::string format;
  /// CUDA: the toolkit's root; empty: searched.
  std::string cudaPath;
  /// The MPI the program's mpi ops call: openmpi or mpich, recorded in the
  /// module's #dlti.map<"MPI:Implementation">; empty: what the module says,
  /// else openmpi (kiln-mpi-to-llvm). The runtime loads that library.
  std::string mpi;
};

/// The runtime that says what "device" is (--target-env=device,
/// --chip=device).
enum class DeviceRuntime { Vulkan, CUDA, None };

/// One target.
struct TargetInfo {
  Target target;
  /// What --target= takes.
  llvm::StringLiteral name;
  /// The device binaries --emit writes for this target; the first is the
  /// default.
  llvm::ArrayRef<llvm::StringLiteral> deviceKinds;
  /// Kernels travel in Kiln's container (SPIR-V); else as the CUDA driver
  /// takes them (PTX, cubin, fatbin).
  bool containers;
  /// --target-env when none is given; empty for a target without one.
  const char *defaultTargetEnv;
  /// What --target-env=device is without asking a runtime; empty: the
  /// runtime below says.
  const char *deviceTargetEnv;
  /// --buffer-device-address when none is given; empty where it does not
  /// apply.
  const char *defaultBufferDeviceAddress;
  /// The runtime "device" asks, and that kiln-compile starts for it.
  DeviceRuntime deviceRuntime;
  /// The runtime archive executables link (and --emit-header names).
  llvm::StringLiteral runtimeArchive;
  /// Adds the device pipeline (`program` false: kernels become gpu.binary
  /// ops) or the whole program's (true: to the LLVM dialect) to `pm`.
  void (*addPipeline)(mlir::OpPassManager &pm, const TargetOptions &options,
                      bool program);
};

/// Every target, in the order docs list them.
llvm::ArrayRef<TargetInfo> targets();

/// The row of `target`.
const TargetInfo &targetInfo(Target target);

/// The target --target=`name` names, or null.
const TargetInfo *findTarget(llvm::StringRef name);

/// "vulkan, cuda, spirv-cpu", for messages.
std::string targetNames();

} // namespace driver
} // namespace kiln

#endif // KILN_DRIVER_TARGETS_H
