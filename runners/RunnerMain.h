//===- RunnerMain.h - What Kiln's runners share ----------------*- C++ -*-===//
//
// kiln-vulkan-runner and kiln-cuda-runner are mlir-runner's JitRunnerMain
// over a Kiln pipeline: the runtime library beside the tool and MLIR's
// runner utilities are always linked, and the entry point returns void
// unless --entry-point-result says otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNNERS_RUNNERMAIN_H
#define KILN_RUNNERS_RUNNERMAIN_H

#include "kiln/InitAll.h"
#include "kiln/Runtime/Runtime.h"
#include "kiln/Target/AOT/AOT.h"

#include "mlir/ExecutionEngine/JitRunner.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace kiln {

/// Runs JitRunnerMain with `runtimeLibrary` (a file name in the lib/
/// directory beside the tool) and MLIR's runner utilities linked, and
/// `transformer` lowering the input.
inline int runJitRunner(int argc, char **argv, const char *runtimeLibrary,
                        mlir::JitRunnerConfig config) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();

  std::vector<std::string> libs = {
      aot::libDirBesideTool(argv[0]) + "/" + runtimeLibrary,
      KILN_MLIR_LIB_DIR "/libmlir_runner_utils.so",
      KILN_MLIR_LIB_DIR "/libmlir_c_runner_utils.so",
      // async.execute host code calls the async runtime.
      KILN_MLIR_LIB_DIR "/libmlir_async_runtime.so"};
  std::vector<char *> args(argv, argv + argc);
  std::string sharedLibs = "--shared-libs=";
  for (size_t i = 0; i < libs.size(); ++i)
    sharedLibs += (i ? "," : "") + libs[i];
  args.push_back(sharedLibs.data());
  bool hasResultType = false;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a(argv[i]);
    hasResultType |= a.starts_with("--entry-point-result") ||
                     a.starts_with("-entry-point-result");
  }
  std::string voidResult = "--entry-point-result=void";
  if (!hasResultType)
    args.push_back(voidResult.data());
  // Without -O, JitRunnerMain runs no LLVM pass at all, and the coroutines
  // of async.execute host code reach code generation unlowered (an LLVM
  // ERROR); -O0's pipeline lowers them and changes nothing else.
  bool hasOptLevel = false;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a(argv[i]);
    a.consume_front("-");
    a.consume_front("-");
    hasOptLevel |= a == "O0" || a == "O1" || a == "O2" || a == "O3";
  }
  std::string optZero = "-O0";
  if (!hasOptLevel)
    args.push_back(optZero.data());

  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  registerAllPasses();
  return mlir::JitRunnerMain(args.size(), args.data(), registry, config);
}

/// Runs the pipeline `build` adds on `module`, with diagnostics as
/// file:line:col and the source line, like the other tools.
inline mlir::LogicalResult
runLowering(mlir::Operation *module,
            llvm::function_ref<void(mlir::OpPassManager &)> build) {
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, module->getContext());
  module->getContext()->printOpOnDiagnostic(false);
  mlir::PassManager pm(module->getContext());
  build(pm);
  return pm.run(module);
}

/// `--timeout=SECONDS`, the same on both runners, in the runner's option
/// `category`; applyTimeoutOption() hands it to the runtime as KILN_TIMEOUT.
inline llvm::cl::opt<std::string> &
timeoutOption(llvm::cl::OptionCategory &category) {
  static llvm::cl::opt<std::string> option(
      "timeout",
      llvm::cl::desc("Stop with an error naming the kernel when a wait for "
                     "the device lasts longer than this many seconds (also "
                     "KILN_TIMEOUT)"),
      llvm::cl::value_desc("seconds"), llvm::cl::init(""),
      llvm::cl::cat(category));
  return option;
}

inline void applyTimeoutOption(const llvm::cl::opt<std::string> &option) {
  if (!option.empty())
    setenv("KILN_TIMEOUT", option.c_str(), 1);
}

/// True when argv holds `--NAME` or `-NAME`.
inline bool hasFlag(int argc, char **argv, llvm::StringRef name) {
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a(argv[i]);
    if (a.consume_front("-") && (a == name || (a.consume_front("-") && a == name)))
      return true;
  }
  return false;
}

/// The value of `--NAME=VALUE` in argv, or empty.
inline std::string flagValue(int argc, char **argv, llvm::StringRef name) {
  std::string prefix = "--" + name.str() + "=";
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]).starts_with(prefix))
      return argv[i] + prefix.size();
  return "";
}

/// Prints an error the runtime's C++ interface returned as the runtime's
/// own messages read ("kiln-vulkan: ..."); returns the exit status, 1.
inline int reportRuntimeError(const char *runtime, const rt::Status &error) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s: %s\n", runtime, error.message().c_str());
  return 1;
}

/// `--list-devices`: the runtime's description of every device on stdout.
inline int listRuntimeDevices(rt::Runtime &runtime, const char *name) {
  rt::Expected<std::string> text = runtime.describeDevices();
  if (!text)
    return reportRuntimeError(name, text.error());
  std::fputs(text->c_str(), stdout);
  return 0;
}

/// `--print-target-env` / `--print-chip`: what the chosen device's kernels
/// are compiled for, on stdout.
inline int printRuntimeTarget(rt::Runtime &runtime, const char *name) {
  rt::Expected<std::string> text = runtime.deviceTarget();
  if (!text)
    return reportRuntimeError(name, text.error());
  std::printf("%s\n", text->c_str());
  return 0;
}

} // namespace kiln

#endif // KILN_RUNNERS_RUNNERMAIN_H
