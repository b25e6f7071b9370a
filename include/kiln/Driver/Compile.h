//===- Compile.h - What kiln-compile and the runners share ------*- C++ -*-===//
//
// The compiler driver as a library: the choice of target and what names a
// device, the pipelines, and kiln-compile's outputs (device binaries, MLIR,
// LLVM IR, objects, executables). kiln-compile is its command line; the
// runners lower their input with the same target options and pipelines
// before the JIT (kiln/Driver/Run.h); kiln-bench's kernels are compiled by
// kiln-compile at build time.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DRIVER_COMPILE_H
#define KILN_DRIVER_COMPILE_H

#include "kiln/Driver/Targets.h"
#include "kiln/Target/AOT/AOT.h"
#include "kiln/Target/NVVM/CUDA.h"
#include "kiln/Target/SPIRV/TargetEnvs.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>

namespace mlir {
class SourceMgrDiagnosticHandler;
} // namespace mlir

namespace kiln {
namespace rt {
class Runtime;
} // namespace rt

namespace driver {

/// A tool's MLIR context, with every dialect and translation Kiln's tools
/// know, and its input: once parse() has read it, diagnostics are printed
/// at its lines.
class Session {
public:
  Session();
  ~Session();

  mlir::MLIRContext &context() { return ctx; }

  /// Reads and parses `file` ("-": standard input). Null with `error` set
  /// when it cannot be read, or with the parser's diagnostics printed.
  mlir::OwningOpRef<mlir::ModuleOp>
  parse(llvm::StringRef file, mlir::TimingScope &timing, std::string &error);

private:
  mlir::MLIRContext ctx;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> diagnostics;
};

/// Checks `options`, fills what is empty with the target's defaults, and
/// replaces what names a device with what the device is: --target-env=device
/// and --chip=device ask `runtime` (the Vulkan or CUDA runtime; null where the
/// tool has none, which makes "device" an error). Fails with `error` set.
mlir::LogicalResult resolveTarget(TargetOptions &options,
                                  mlir::MLIRContext &context,
                                  rt::Runtime *runtime, std::string &error);

/// The device pipeline: `module`'s kernels become gpu.binary ops (SPIR-V in
/// Kiln's container, PTX, cubin or fatbin; spirv-cpu: host code), the host
/// stays as it is.
mlir::LogicalResult runDevicePipeline(mlir::ModuleOp module,
                                      const TargetOptions &options,
                                      mlir::TimingScope &timing);

/// The whole program to the LLVM dialect, kernels in gpu.binary ops. Input
/// already in the LLVM dialect is left as it is.
mlir::LogicalResult runProgramPipeline(mlir::ModuleOp module,
                                       const TargetOptions &options,
                                       mlir::TimingScope &timing);

/// What a runner does before its JIT: `module` to the LLVM dialect for
/// `options` (resolved first; see resolveTarget), unless it is there
/// already. Errors are printed, as `tool: error: ...` or as diagnostics.
mlir::LogicalResult lowerProgram(mlir::ModuleOp module, TargetOptions &options,
                                 rt::Runtime *runtime, llvm::StringRef tool,
                                 mlir::TimingScope &timing);

/// The host options kiln-compile --emit=exe and the runners share, checked
/// as their command lines spell them: -O0 to -O3, and --entry-point-result
/// empty (any), void, i32, i64 or f32.
mlir::LogicalResult checkHostOptions(unsigned optLevel,
                                     llvm::StringRef entryPointResult,
                                     std::string &error);

/// aot::addExecutableEntry for `entryPoint`, and the check that the entry
/// point returns `entryPointResult` (empty: whatever it returns).
mlir::LogicalResult addEntryPoint(llvm::Module &module,
                                  llvm::StringRef entryPoint,
                                  llvm::StringRef entryPointResult,
                                  std::string &error);

/// kiln-compile's options besides the target's.
struct CompileOptions {
  /// The input file; "-" is standard input.
  std::string input = "-";
  /// mlir, spirv, container, ptx, cubin, llvm, obj or exe; empty: spirv
  /// (Vulkan, spirv-cpu) or ptx (CUDA).
  std::string emit;
  /// The output file, or folder of device binaries; empty: the default.
  std::string output;
  /// --emit=exe: the entry point, and the result it must have (empty: any).
  std::string entryPoint = "main";
  std::string entryPointResult;
  /// The host's optimization level, 0 to 3.
  unsigned optLevel = 2;
  /// --emit=llvm|obj|exe: also write this C header.
  std::string header;
  /// --emit=exe: how it is linked (`target` is set from TargetOptions;
  /// an empty runtimeDir is the lib/ beside the tool).
  aot::LinkOptions link;
};

/// Everything kiln-compile does after parsing its command line: checks the
/// options, compiles `options.input` for `target` and writes the outputs
/// (nothing on failure). `runtime` answers "device" targets (see
/// resolveTarget); `argv0` finds the lib/ beside the tool. Errors are
/// printed, as `tool: error: ...` or as diagnostics at the input. Returns
/// the exit status.
int compile(CompileOptions options, TargetOptions target, rt::Runtime *runtime,
            const char *argv0, llvm::StringRef tool);

/// kiln-compile --print-cuda-toolkit: the toolkit the CUDA pipeline uses,
/// on stdout; 1 and where it looked when there is none.
int printCUDAToolkit(llvm::StringRef cudaPath, llvm::StringRef tool);

} // namespace driver
} // namespace kiln

#endif // KILN_DRIVER_COMPILE_H
