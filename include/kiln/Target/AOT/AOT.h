//===- AOT.h - Ahead-of-time compilation of host programs ------*- C++ -*-===//
//
// What `kiln-compile --emit=llvm|obj|exe` does after the pipeline: the host
// module (LLVM dialect, GPU binaries in gpu.binary ops) is translated to LLVM
// IR, optimized and compiled for the host by an in-process TargetMachine;
// executables are linked with Kiln's static runtime, runner utilities and the
// main() of lib/Runtime/AOT/AOTMain.cpp. docs/aot.md describes the result.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_AOT_AOT_H
#define KILN_TARGET_AOT_AOT_H

#include "kiln/Runtime/AOTEntry.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/CodeGen.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
class raw_pwrite_stream;
} // namespace llvm

namespace kiln {
namespace aot {

/// Marks every public function definition of `module` (func dialect, before
/// lowering) with `llvm.emit_c_interface`, so that each gets a
/// `_mlir_ciface_NAME` wrapper taking memrefs by descriptor pointer.
void requestCInterfaces(mlir::ModuleOp module);

/// A C header declaring the `_mlir_ciface_` wrapper of every public function
/// definition of `module` (func dialect, before lowering) with the memref
/// descriptor structs they take. Fails, at the function, on a signature C
/// cannot spell.
mlir::FailureOr<std::string> emitCHeader(mlir::ModuleOp module,
                                         llvm::StringRef runtimeLibrary,
                                         llvm::StringRef guardName);

/// LLVM's code generation level for `optLevel` 0..3.
llvm::CodeGenOptLevel codeGenOptLevel(unsigned optLevel);

/// The host's TargetMachine (generic CPU, position-independent code) at
/// `optLevel` 0..3.
mlir::FailureOr<std::unique_ptr<llvm::TargetMachine>>
createHostTargetMachine(unsigned optLevel, std::string &error);

/// Translates a module in the LLVM dialect to LLVM IR for `tm`. Functions
/// that have a `_mlir_ciface_` wrapper become internal: the wrapper is their
/// C interface.
std::unique_ptr<llvm::Module> translateToLLVMIR(mlir::ModuleOp module,
                                                llvm::LLVMContext &context,
                                                llvm::TargetMachine &tm);

/// Adds the functions of kiln/Runtime/AOTEntry.h that AOTMain.cpp's main()
/// calls: the module constructors and destructors leave
/// llvm.global_ctors/dtors, and `entry` (no arguments; void, i32, i64 or f32
/// result) is called by run. Returns what the entry point returns.
mlir::FailureOr<KilnAOTResultKind>
addExecutableEntry(llvm::Module &module, llvm::StringRef entry,
                   std::string &error);

/// The folder of Kiln's libraries for a tool in bin/: the lib/ beside it, in
/// the build tree as in an installation.
std::string libDirBesideTool(const char *argv0);

/// Runs LLVM's default optimization pipeline for `optLevel` 0..3.
void optimize(llvm::Module &module, llvm::TargetMachine &tm,
              unsigned optLevel);

/// Writes `module` as an object file.
mlir::LogicalResult emitObject(llvm::Module &module, llvm::TargetMachine &tm,
                               llvm::raw_pwrite_stream &os,
                               std::string &error);

/// Options of linkExecutable.
struct LinkOptions {
  /// The C++ compiler driver that links; empty: c++, g++ or clang++ on PATH.
  std::string linker;
  /// Where libkiln_{vulkan,cuda}_runtime.a, libkiln_runner_utils.a and
  /// libkiln_aot_main{,_cuda}.a are.
  std::string runtimeDir;
  /// "vulkan" or "cuda": which runtime and main() are linked.
  std::string target = "vulkan";
  /// Link libstdc++ and libgcc statically.
  bool staticCxxRuntime = false;
  /// Drop symbols from the executable.
  bool strip = false;
};

/// Links `objectFile` into the executable `output` (written to a temporary
/// first; nothing is left at `output` on failure).
mlir::LogicalResult linkExecutable(llvm::StringRef objectFile,
                                   llvm::StringRef output,
                                   const LinkOptions &options,
                                   std::string &error);

} // namespace aot
} // namespace kiln

#endif // KILN_TARGET_AOT_AOT_H
