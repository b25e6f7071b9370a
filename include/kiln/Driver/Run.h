//===- Run.h - The runners' JIT ---------------------------------*- C++ -*-===//
//
// What kiln-vulkan-runner, kiln-cuda-runner and kiln-spirv-cpu-runner share:
// mlir-runner's interface (-e, --entry-point-result, --shared-libs,
// -O0..3, --dump-object-file) over MLIR's ExecutionEngine, with the entry
// point checked and called as kiln-compile --emit=exe calls it
// (kiln/Target/AOT/AOT.h): its module constructors, the entry point, its
// result printed, its module destructors.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DRIVER_RUN_H
#define KILN_DRIVER_RUN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/CommandLine.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace kiln {
namespace driver {

/// How a runner runs its input.
struct RunOptions {
  /// The input file; "-" is standard input.
  std::string input = "-";
  /// The entry point: a function without arguments.
  std::string entryPoint = "main";
  /// void, i32, i64 or f32: the result the entry point must have; empty:
  /// whatever it returns (printed unless void).
  std::string entryPointResult;
  /// Libraries the program's symbols may come from, besides the runtime
  /// and MLIR's runner utilities.
  std::vector<std::string> sharedLibs;
  /// The host's optimization level, 0 to 3.
  unsigned optLevel = 0;
  /// Where to write the JIT-compiled object; empty: nowhere.
  std::string objectFile;
  /// The runtime's shared library in the lib/ beside the tool.
  std::string runtimeLibrary;
  /// The tool's argv[0], to find that lib/.
  const char *argv0 = nullptr;
};

/// Lowers a parsed program to the LLVM dialect; diagnostics and messages
/// are its to print.
using LowerFn = llvm::function_ref<mlir::LogicalResult(mlir::ModuleOp module,
                                                       mlir::TimingScope &)>;

/// Parses `options.input`, lowers it with `lower`, JIT-compiles it and runs
/// its entry point. Errors are printed as `tool: error: ...` or as
/// diagnostics at the input. Returns the exit status: 0 after the entry
/// point returns.
int run(const RunOptions &options, LowerFn lower, llvm::StringRef tool);

/// How a lowered program is JIT-compiled: by the runners, and by programs
/// that embed the compiler (Kiln's Python package).
struct JITOptions {
  /// The libraries the program's symbols may come from (jitLibraries).
  std::vector<std::string> libraries;
  /// The host's optimization level, 0 to 3.
  unsigned optLevel = 0;
  /// Keep the compiled object for ExecutionEngine::dumpToObjectFile.
  bool enableObjectDump = false;
  /// Called on the translated LLVM IR before it is optimized (the runners
  /// add the entry point there); fails with its error set.
  llvm::function_ref<mlir::LogicalResult(llvm::Module &, std::string &)>
      prepare;
};

/// The libraries a JIT-compiled program resolves its symbols from: the
/// runtime library at `runtimeLibrary`, MLIR's runner utilities and async
/// runtime, then `more`, as real paths and each once. Fails with `error`
/// naming a library that is not there.
mlir::LogicalResult jitLibraries(llvm::StringRef runtimeLibrary,
                                 llvm::ArrayRef<std::string> more,
                                 std::vector<std::string> &libraries,
                                 std::string &error);

/// Translates `module`, in the LLVM dialect, to LLVM IR as kiln-compile does
/// (aot::translateToLLVMIR: module constructors and destructors stay in
/// llvm.global_ctors/dtors), runs `options.prepare` and LLVM's optimization
/// pipeline, and JIT-compiles the result. `input` names the program in
/// messages. Null with `error` set on failure; the translation's own
/// diagnostics go to the context's handler.
std::unique_ptr<mlir::ExecutionEngine>
createJIT(mlir::ModuleOp module, const JITOptions &options,
          llvm::StringRef input, mlir::TimingScope &timing, std::string &error);

/// The options every runner has, in mlir-runner's spelling, registered in
/// `category` when constructed (before the command line is parsed).
struct RunnerCommandLine {
  explicit RunnerCommandLine(llvm::cl::OptionCategory &category);

  /// The options as run() takes them.
  RunOptions options(const char *argv0, llvm::StringRef runtimeLibrary) const;

  llvm::cl::opt<std::string> input;
  llvm::cl::opt<std::string> entryPoint;
  llvm::cl::opt<std::string> entryPointResult;
  llvm::cl::list<std::string> sharedLibs;
  llvm::cl::opt<unsigned> optLevel;
  llvm::cl::opt<bool> dumpObjectFile;
  llvm::cl::opt<std::string> objectFilename;
};

} // namespace driver
} // namespace kiln

#endif // KILN_DRIVER_RUN_H
