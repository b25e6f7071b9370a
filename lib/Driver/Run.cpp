//===- Run.cpp - The runners' JIT -----------------------------------------===//
//
// The program is translated to LLVM IR as kiln-compile --emit=exe translates
// it (lib/Target/AOT): its module constructors, which load its GPU binaries,
// and destructors leave llvm.global_ctors/dtors for __kiln_aot_init and
// __kiln_aot_fini, and __kiln_aot_run calls the entry point. The JIT runs
// those three, so a program behaves the same under a runner and as an
// executable, and a wrong entry point is an error before anything runs.
//
//===----------------------------------------------------------------------===//

#include "kiln/Driver/Run.h"
#include "kiln/Driver/CommandLine.h"
#include "kiln/Driver/Compile.h"
#include "kiln/InitAll.h"
#include "kiln/Runtime/AOTEntry.h"
#include "kiln/Target/AOT/AOT.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

#include <cstdio>
#include <cstring>

using namespace mlir;
using namespace kiln;
using namespace kiln::driver;
namespace cl = llvm::cl;

driver::RunnerCommandLine::RunnerCommandLine(cl::OptionCategory &category)
    : input(cl::Positional, cl::desc("<input.mlir>"), cl::init("-"),
            cl::cat(category)),
      entryPoint("e",
                 cl::desc("The entry point: a function without arguments "
                          "(default: main)"),
                 cl::value_desc("name"), cl::init("main"), cl::cat(category)),
      entryPointResult(
          "entry-point-result",
          cl::desc("Check that the entry point returns void, i32, i64 or "
                   "f32 (default: whatever it returns; a result is printed)"),
          cl::value_desc("type"), cl::init(""), cl::cat(category)),
      sharedLibs("shared-libs",
                 cl::desc("More libraries the program calls into (the "
                          "runtime and MLIR's runner utilities are always "
                          "there)"),
                 cl::CommaSeparated, cl::value_desc("lib.so,..."),
                 cl::cat(category)),
      optLevel("O", cl::desc("Host optimization level, -O0 (default) to -O3"),
               cl::value_desc("level"), cl::Prefix, cl::init(0),
               cl::cat(category)),
      dumpObjectFile("dump-object-file",
                     cl::desc("Write the JIT-compiled host object to "
                              "--object-filename (default: <input>.o)"),
                     cl::init(false), cl::cat(category)),
      objectFilename(
          "object-filename", cl::desc("Where --dump-object-file writes"),
          cl::value_desc("file.o"), cl::init(""), cl::cat(category)) {}

RunOptions driver::RunnerCommandLine::options(const char *argv0,
                                              StringRef runtimeLibrary) const {
  RunOptions options;
  options.input = input;
  options.entryPoint = entryPoint;
  options.entryPointResult = entryPointResult;
  options.sharedLibs.assign(sharedLibs.begin(), sharedLibs.end());
  options.optLevel = optLevel;
  if (!objectFilename.empty())
    options.objectFile = objectFilename;
  else if (dumpObjectFile)
    options.objectFile =
        (input == "-" ? std::string("a") : input.getValue()) + ".o";
  options.runtimeLibrary = runtimeLibrary.str();
  options.argv0 = argv0;
  return options;
}

LogicalResult driver::jitLibraries(StringRef runtimeLibrary,
                                   ArrayRef<std::string> more,
                                   std::vector<std::string> &libraries,
                                   std::string &error) {
  std::vector<std::string> candidates = {
      runtimeLibrary.str(), KILN_MLIR_LIB_DIR "/libmlir_runner_utils.so",
      KILN_MLIR_LIB_DIR "/libmlir_c_runner_utils.so",
      // async.execute host code calls the async runtime.
      KILN_MLIR_LIB_DIR "/libmlir_async_runtime.so"};
  candidates.insert(candidates.end(), more.begin(), more.end());
  llvm::StringSet<> seen;
  for (const std::string &candidate : candidates) {
    SmallString<256> path;
    if (std::error_code ec = llvm::sys::fs::real_path(candidate, path)) {
      error = "cannot find shared library '" + candidate + "': " + ec.message();
      return failure();
    }
    if (llvm::sys::fs::is_directory(path)) {
      error = "shared library '" + candidate + "' is a folder";
      return failure();
    }
    // The same library twice would have its init and destroy hooks run
    // twice.
    if (seen.insert(path).second)
      libraries.push_back(std::string(path));
  }
  return success();
}

using JITInitFn = void (*)();
using JITRunFn = int (*)(void *);

/// Runs the JIT-compiled program: its initializer, the entry point (which
/// writes its result into `result` and returns the result's kind) and its
/// finalizer. UBSan's function check (clang's -fsanitize=function) reads a
/// type signature from the word in front of a callee, which code the JIT
/// emitted does not have (the word may even lie on an unmapped page), so the
/// check is off for these three calls.
#if defined(__clang__)
__attribute__((no_sanitize("function")))
#endif
static int
callJITEntry(JITInitFn init, JITRunFn run, JITInitFn fini,
             KilnAOTResult &result) {
  init();
  int kind = run(&result);
  fini();
  return kind;
}

static std::string errorText(llvm::Error error) {
  std::string text;
  llvm::handleAllErrors(std::move(error), [&](const llvm::ErrorInfoBase &e) {
    if (!text.empty())
      text += "; ";
    text += e.message();
  });
  return text;
}

std::unique_ptr<ExecutionEngine>
driver::createJIT(ModuleOp module, const JITOptions &options, StringRef input,
                  TimingScope &timing, std::string &error) {
  static const bool nativeTarget = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    return true;
  }();
  (void)nativeTarget;

  // Two target machines for the host: one translates and optimizes, the
  // ExecutionEngine owns the other.
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) {
    error = "cannot target the host: " + errorText(builder.takeError());
    return nullptr;
  }
  builder->setCodeGenOptLevel(aot::codeGenOptLevel(options.optLevel));
  auto translationMachine = builder->createTargetMachine();
  if (!translationMachine) {
    error =
        "cannot target the host: " + errorText(translationMachine.takeError());
    return nullptr;
  }
  auto engineMachine = builder->createTargetMachine();
  if (!engineMachine) {
    error = "cannot target the host: " + errorText(engineMachine.takeError());
    return nullptr;
  }

  std::string prepareError;
  auto buildModule =
      [&](Operation *op,
          llvm::LLVMContext &llvmContext) -> std::unique_ptr<llvm::Module> {
    TimingScope scope = timing.nest("Translate to LLVM IR");
    std::unique_ptr<llvm::Module> llvmModule = aot::translateToLLVMIR(
        cast<ModuleOp>(op), llvmContext, **translationMachine);
    if (!llvmModule)
      return nullptr;
    if (options.prepare && failed(options.prepare(*llvmModule, prepareError)))
      return nullptr;
    return llvmModule;
  };
  auto optimize = [&](llvm::Module *llvmModule) {
    TimingScope scope = timing.nest("Optimize LLVM IR");
    aot::optimize(*llvmModule, **translationMachine, options.optLevel);
    return llvm::Error::success();
  };

  ExecutionEngineOptions engineOptions;
  engineOptions.llvmModuleBuilder = buildModule;
  engineOptions.transformer = optimize;
  SmallVector<StringRef> libraryRefs(options.libraries.begin(),
                                     options.libraries.end());
  engineOptions.sharedLibPaths = libraryRefs;
  engineOptions.enableObjectDump = options.enableObjectDump;
  auto engine =
      ExecutionEngine::create(module, engineOptions, std::move(*engineMachine));
  if (!engine) {
    std::string text = errorText(engine.takeError());
    // A null module from buildModule: its own error, or the diagnostics
    // the translation printed.
    if (!prepareError.empty())
      error = prepareError;
    else
      error = "cannot JIT-compile '" + input.str() + "': " + text;
    return nullptr;
  }
  return std::move(*engine);
}

int driver::run(const RunOptions &options, LowerFn lower, StringRef tool) {
  auto fail = [&](const llvm::Twine &message) {
    return reportError(tool, message);
  };
  std::string error;
  if (failed(
          checkHostOptions(options.optLevel, options.entryPointResult, error)))
    return fail(error);
  JITOptions jit;
  if (failed(jitLibraries(aot::libDirBesideTool(options.argv0) + "/" +
                              options.runtimeLibrary,
                          options.sharedLibs, jit.libraries, error)))
    return fail(error);

  // Before the pipeline, which may ask about the host.
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();

  Session session;
  Timing toolTiming;
  TimingScope &timing = toolTiming.root();
  OwningOpRef<ModuleOp> module = session.parse(options.input, timing, error);
  if (!module)
    return error.empty() ? 1 : fail(error);
  {
    TimingScope scope = timing.nest("Pipeline");
    if (failed(lower(*module, scope)))
      return 1;
  }

  jit.optLevel = options.optLevel;
  jit.enableObjectDump = !options.objectFile.empty();
  auto addEntry = [&](llvm::Module &llvmModule, std::string &message) {
    return addEntryPoint(llvmModule, options.entryPoint,
                         options.entryPointResult, message);
  };
  jit.prepare = addEntry;
  std::unique_ptr<ExecutionEngine> engine =
      createJIT(*module, jit, options.input, timing, error);
  if (!engine)
    return fail(error);

  JITInitFn init = nullptr, fini = nullptr;
  JITRunFn runEntry = nullptr;
  {
    TimingScope scope = timing.nest("JIT compile");
    for (auto [name, slot] :
         {std::pair<const char *, void **>{KILN_AOT_INIT_NAME,
                                           reinterpret_cast<void **>(&init)},
          {KILN_AOT_RUN_NAME, reinterpret_cast<void **>(&runEntry)},
          {KILN_AOT_FINI_NAME, reinterpret_cast<void **>(&fini)}}) {
      llvm::Expected<void *> address = engine->lookup(name);
      if (!address)
        return fail("cannot JIT-compile '" + options.input +
                    "': " + errorText(address.takeError()));
      *slot = *address;
    }
    engine->initialize();
  }
  if (!options.objectFile.empty())
    engine->dumpToObjectFile(options.objectFile);

  KilnAOTResult result;
  std::memset(&result, 0, sizeof(result));
  {
    TimingScope scope = timing.nest("Run");
    int kind = callJITEntry(init, runEntry, fini, result);
    // Printed as mlir-runner prints entry-point results, on the stream the
    // program's own output (printf, gpu.printf) went to; the exit status
    // stays 0, as mlir-runner's.
    kilnAOTPrintResult(kind, &result);
  }
  return 0;
}
