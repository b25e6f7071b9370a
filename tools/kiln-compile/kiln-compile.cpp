//===- kiln-compile.cpp - Kiln's compiler driver --------------------------===//
//
//   kiln-compile FILE --target=vulkan --emit=mlir|spirv [-o OUT]
//                [--target-env=NAME]
//
//===----------------------------------------------------------------------===//

#include "kiln/InitAll.h"
#include "kiln/Pipelines/Pipelines.h"
#include "kiln/Target/Container.h"
#include "kiln/Target/TargetEnvs.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
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
static cl::opt<std::string> emit("emit", cl::desc("Output: mlir or spirv"),
                                 cl::init("spirv"));
static cl::opt<std::string>
    output("o", cl::desc("Output file, or directory for --emit=spirv"),
           cl::value_desc("path"), cl::init(""));
static cl::opt<std::string>
    targetEnv("target-env",
              cl::desc("Target env profile for GPU modules without one: "
                       "vulkan-1.1 (default), vulkan-1.2, vulkan-1.3, "
                       "lavapipe, or a #spirv.target_env literal"),
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

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "Kiln compiler: gpu dialect kernels to SPIR-V\n");

  if (target != "vulkan")
    return fail("unknown --target='" + target + "'; supported: vulkan");
  if (emit != "mlir" && emit != "spirv")
    return fail("unknown --emit='" + emit + "' for --target=vulkan; "
                "supported: mlir, spirv");

  DialectRegistry registry;
  kiln::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics point at the user's source; IR dumps are for kiln-opt.
  context.printOpOnDiagnostic(false);

  std::string error;
  if (failed(kiln::getTargetEnvProfile(&context, targetEnv, error)))
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

  PassManager pm(&context);
  kiln::GPUToSPIRVPipelineOptions options;
  options.targetEnv = targetEnv;
  options.use64BitIndex = use64BitIndex;
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
