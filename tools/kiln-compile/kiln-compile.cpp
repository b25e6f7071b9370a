//===- kiln-compile.cpp - Kiln's compiler driver --------------------------===//
//
//   kiln-compile FILE --target=vulkan --emit=mlir|spirv|llvm|obj|exe
//                [-o OUT] [-e ENTRY] [-O0..3] [--target-env=NAME]
//                [--emit-header=FILE.h]
//
// mlir and spirv stop after the device pipeline; llvm, obj and exe lower the
// host too and compile it in-process (lib/Target/AOT.cpp).
//
//===----------------------------------------------------------------------===//

#include "kiln/InitAll.h"
#include "kiln/Pipelines/Pipelines.h"
#include "kiln/Runtime/VulkanRuntime.h"
#include "kiln/Target/AOT.h"
#include "kiln/Target/Container.h"
#include "kiln/Target/TargetEnvs.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::init("-"));
static cl::opt<std::string> target("target",
                                   cl::desc("Target: vulkan"),
                                   cl::init("vulkan"));
static cl::opt<std::string>
    emit("emit",
         cl::desc("Output: mlir (after the device pipeline), spirv (one .spv "
                  "per GPU module), llvm (host LLVM IR), obj (host object "
                  "file, device binaries inside), exe (standalone executable)"),
         cl::init("spirv"));
static cl::opt<std::string>
    output("o", cl::desc("Output file, or directory for --emit=spirv"),
           cl::value_desc("path"), cl::init(""));
static cl::opt<std::string>
    entryPoint("e", cl::desc("Entry point of --emit=exe (default: main)"),
               cl::value_desc("name"), cl::init("main"));
static cl::opt<std::string> entryPointResult(
    "entry-point-result",
    cl::desc("Check the entry point's result type: void, i32, i64 or f32 "
             "(the executable finds it itself)"),
    cl::init(""));
static cl::opt<unsigned> optLevel("O", cl::desc("Host optimization level 0-3"),
                                  cl::Prefix, cl::init(2));
static cl::opt<std::string> header(
    "emit-header",
    cl::desc("With --emit=obj|exe|llvm: also write a C header declaring the "
             "_mlir_ciface_ wrapper of every public function"),
    cl::value_desc("file.h"), cl::init(""));
static cl::opt<std::string>
    linker("linker", cl::desc("C++ compiler driver that links --emit=exe "
                              "(default: c++, g++ or clang++ on PATH)"),
           cl::init(""));
static cl::opt<std::string> runtimeDir(
    "runtime-dir",
    cl::desc("Folder of Kiln's static runtime libraries (default: the lib/ "
             "beside this tool's bin/)"),
    cl::init(""));
static cl::opt<bool> staticCxxRuntime(
    "static-cxx-runtime",
    cl::desc("Link libstdc++ into the executable (no libstdc++.so needed)"),
    cl::init(false));
static cl::opt<bool> strip("strip", cl::desc("Drop the executable's symbols"),
                           cl::init(false));
static cl::opt<std::string>
    targetEnv("target-env",
              cl::desc("Target env profile for GPU modules without one: "
                       "vulkan-1.1 (default), vulkan-1.2, vulkan-1.3, "
                       "desktop, lavapipe, a #spirv.target_env literal, or "
                       "'device' (this machine's Vulkan device, "
                       "KILN_VULKAN_DEVICE chooses)"),
              cl::init("vulkan-1.1"));
static cl::opt<bool>
    use64BitIndex("use-64bit-index",
                  cl::desc("Lower index to i64 in kernels and push constants"),
                  cl::init(false));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "kiln-compile") << message << "\n";
  return 1;
}

namespace {
struct SPIRVOutput {
  std::string moduleName;
  std::vector<uint32_t> words;
};
} // namespace

/// Extracts the SPIR-V words of every gpu.binary Kiln produced.
static LogicalResult collectSPIRV(ModuleOp module,
                                  std::vector<SPIRVOutput> &outputs) {
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      StringRef bytes = object.getObject().getValue();
      kiln::container::ModuleInfo info;
      std::string error;
      if (!kiln::container::parse(bytes.data(), bytes.size(), info, error))
        return binary.emitError("gpu.binary '")
               << binary.getName() << "': " << error;
      outputs.push_back({binary.getName().str(), std::move(info.spirv)});
    }
  }
  return success();
}

static int writeSPIRV(const std::vector<SPIRVOutput> &outputs) {
  if (outputs.empty())
    return fail("'" + inputFile + "' has no GPU modules to emit");
  bool toDirectory = output.empty() || outputs.size() > 1 ||
                     llvm::sys::fs::is_directory(output);
  std::string dir = output.empty() ? "." : output.getValue();
  if (toDirectory) {
    if (std::error_code ec = llvm::sys::fs::create_directories(dir))
      return fail("cannot create directory '" + dir + "': " + ec.message());
  }
  // Write every file to a temporary first: no partial outputs on failure.
  std::vector<std::unique_ptr<llvm::ToolOutputFile>> files;
  for (const SPIRVOutput &out : outputs) {
    SmallString<128> path;
    if (toDirectory) {
      path = dir;
      llvm::sys::path::append(path, out.moduleName + ".spv");
    } else {
      path = output.getValue();
    }
    std::string error;
    auto file = openOutputFile(path, &error);
    if (!file)
      return fail(error);
    file->os().write(reinterpret_cast<const char *>(out.words.data()),
                     out.words.size() * 4);
    files.push_back(std::move(file));
  }
  for (auto &file : files)
    file->keep();
  return 0;
}

/// The default output name: the input's stem, or `a` for standard input.
static std::string outputStem() {
  if (inputFile == "-")
    return "a";
  return llvm::sys::path::stem(inputFile).str();
}

/// Writes `text` to `path` whole or not at all.
static int writeText(StringRef path, StringRef text) {
  std::string error;
  auto out = openOutputFile(path, &error);
  if (!out)
    return fail(error);
  out->os() << text;
  out->keep();
  return 0;
}

/// --emit=llvm|obj|exe: the host through LLVM.
static int compileHost(ModuleOp module, const char *argv0) {
  std::string error;
  auto tm = kiln::aot::createHostTargetMachine(optLevel, error);
  if (failed(tm))
    return fail(error);
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      kiln::aot::translateToLLVMIR(module, llvmContext, **tm);
  if (!llvmModule)
    return 1;
  if (emit == "exe") {
    FailureOr<KilnAOTResultKind> kind =
        kiln::aot::addExecutableEntry(*llvmModule, entryPoint, error);
    if (failed(kind))
      return fail(error);
    StringRef actual = kilnAOTResultKindName(*kind);
    if (!entryPointResult.empty() && actual != entryPointResult)
      return fail("entry point '@" + entryPoint + "' returns " + actual +
                  ", not --entry-point-result=" + entryPointResult);
  }
  kiln::aot::optimize(*llvmModule, **tm, optLevel);

  if (emit == "llvm") {
    auto out = openOutputFile(output.empty() ? "-" : output.getValue(), &error);
    if (!out)
      return fail(error);
    llvmModule->print(out->os(), nullptr);
    out->keep();
    return 0;
  }
  if (emit == "obj") {
    std::string path = output.empty()
                           ? (outputStem() + ".o")
                           : output.getValue();
    auto out = openOutputFile(path, &error);
    if (!out)
      return fail(error);
    if (failed(kiln::aot::emitObject(*llvmModule, **tm, out->os(), error)))
      return fail(error);
    out->keep();
    return 0;
  }

  // exe: an object in a temporary file, then the link.
  std::string exePath = output.empty()
                            ? outputStem()
                            : output.getValue();
  if (exePath == "-")
    return fail("--emit=exe needs an output file (-o)");
  SmallString<128> objectPath;
  int fd;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "kiln-compile", "o", fd, objectPath))
    return fail("cannot create a temporary object file: " + ec.message());
  llvm::FileRemover removeObject(objectPath);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    if (failed(kiln::aot::emitObject(*llvmModule, **tm, os, error)))
      return fail(error);
  }
  kiln::aot::LinkOptions link;
  link.linker = linker;
  link.runtimeDir = runtimeDir.empty() ? kiln::aot::libDirBesideTool(argv0)
                                       : runtimeDir.getValue();
  link.staticCxxRuntime = staticCxxRuntime;
  link.strip = strip;
  if (failed(kiln::aot::linkExecutable(objectPath, exePath, link, error)))
    return fail(error);
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "Kiln compiler: gpu dialect programs to SPIR-V, "
                              "objects and executables\n");

  if (target != "vulkan")
    return fail("unknown --target='" + target + "'; supported: vulkan");
  static const char *const kinds[] = {"mlir", "spirv", "llvm", "obj", "exe"};
  if (!llvm::is_contained(kinds, emit))
    return fail("unknown --emit='" + emit + "' for --target=vulkan; "
                "supported: mlir, spirv, llvm, obj, exe");
  bool host = emit == "llvm" || emit == "obj" || emit == "exe";
  if (!header.empty() && !host)
    return fail("--emit-header needs --emit=llvm, obj or exe");
  if (optLevel > 3)
    return fail("-O" + std::to_string(optLevel) + " is not a level; use -O0 "
                "to -O3");
  if (!entryPointResult.empty() && emit != "exe")
    return fail("--entry-point-result applies to --emit=exe only");

  DialectRegistry registry;
  kiln::registerAllDialects(registry);
  registerAllToLLVMIRTranslations(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics point at the user's source; IR dumps are for kiln-opt.
  context.printOpOnDiagnostic(false);

  std::string error;
  std::string env = targetEnv;
  if (env == "device") {
    const char *deviceEnv = kilnVulkanDeviceTargetEnv();
    if (!deviceEnv)
      return 1;
    env = deviceEnv;
  }
  if (failed(kiln::getTargetEnvProfile(&context, env, error)))
    return fail(error);

  auto file = openInputFile(inputFile, &error);
  if (!file)
    return fail(error);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  kiln::GPUToSPIRVPipelineOptions options;
  options.targetEnv = env;
  options.use64BitIndex = use64BitIndex;
  if (host) {
    std::string headerText;
    if (kiln::isLoweredToLLVM(*module)) {
      if (!header.empty())
        return fail("--emit-header needs func-level input; '" + inputFile +
                    "' is already in the LLVM dialect");
    } else {
      // The header is written from the func-level signatures, before they
      // are lowered, and only once the whole compilation has succeeded.
      if (!header.empty()) {
        std::string guard =
            "KILN_" + llvm::sys::path::stem(header).upper() + "_H";
        for (char &c : guard)
          if (!llvm::isAlnum(c))
            c = '_';
        FailureOr<std::string> text = kiln::aot::emitCHeader(*module, guard);
        if (failed(text))
          return 1;
        headerText = std::move(*text);
      }
      kiln::aot::requestCInterfaces(*module);
      PassManager pm(&context);
      kiln::buildGPUToVulkanPassPipeline(pm, options);
      if (failed(pm.run(*module)))
        return 1;
    }
    if (int status = compileHost(*module, argv[0]))
      return status;
    return header.empty() ? 0 : writeText(header, headerText);
  }

  PassManager pm(&context);
  kiln::buildGPUToSPIRVPassPipeline(pm, options);
  if (failed(pm.run(*module)))
    return 1;

  if (emit == "mlir") {
    auto out = openOutputFile(output.empty() ? "-" : output.getValue(), &error);
    if (!out)
      return fail(error);
    module->print(out->os());
    out->os() << "\n";
    out->keep();
    return 0;
  }
  std::vector<SPIRVOutput> outputs;
  if (failed(collectSPIRV(*module, outputs)))
    return 1;
  return writeSPIRV(outputs);
}
