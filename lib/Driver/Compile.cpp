//===- Compile.cpp - What kiln-compile and the runners share --------------===//
//
// The target options and their checks, the pipelines run with MLIR's
// command-line options, and kiln-compile's outputs: device binaries (one
// file per GPU module, written whole or not at all), MLIR, and the host
// through LLVM (lib/Target/AOT).
//
//===----------------------------------------------------------------------===//

#include "kiln/Driver/Compile.h"
#include "kiln/Contract/Container.h"
#include "kiln/Driver/CommandLine.h"
#include "kiln/Host/Passes.h"
#include "kiln/InitAll.h"
#include "kiln/Pipelines/Pipelines.h"
#include "kiln/Runtime/Runtime.h"
#include "kiln/Target/SPIRV/TargetEnvs.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::driver;

//===----------------------------------------------------------------------===//
// Targets and pipelines
//===----------------------------------------------------------------------===//

/// --chip=device: the chip of the device the CUDA runtime chooses.
static LogicalResult resolveChip(TargetOptions &options, rt::Runtime *runtime,
                                 std::string &error) {
  if (options.chip.empty())
    options.chip = cuda::kDefaultChip.str();
  if (options.format.empty())
    options.format = cuda::kDefaultFormat.str();
  if (options.chip == "device") {
    if (!runtime) {
      error = "--chip=device needs the CUDA runtime";
      return failure();
    }
    rt::Expected<std::string> chip = runtime->deviceTarget();
    if (!chip) {
      error = "--chip=device: " + chip.error().message();
      return failure();
    }
    options.chip = *chip;
  }
  if (std::optional<std::string> problem = cuda::checkTarget(
          options.chip, cuda::targetFeatures(options.chip, options.features))) {
    error = *problem;
    return failure();
  }
  static const char *const formats[] = {"ptx", "cubin", "fatbin"};
  if (!llvm::is_contained(formats, options.format)) {
    error = "unknown --format='" + options.format +
            "'; supported: ptx, cubin, fatbin";
    return failure();
  }
  return success();
}

/// --target-env=device: the target env of the device the Vulkan runtime
/// chooses, or the target's own profile.
static LogicalResult resolveTargetEnv(TargetOptions &options,
                                      const TargetInfo &info,
                                      MLIRContext &context,
                                      rt::Runtime *runtime,
                                      std::string &error) {
  if (options.targetEnv.empty())
    options.targetEnv = info.defaultTargetEnv;
  if (options.targetEnv == "device") {
    if (*info.deviceTargetEnv) {
      options.targetEnv = info.deviceTargetEnv;
    } else {
      if (!runtime) {
        error = "--target-env=device needs the Vulkan runtime";
        return failure();
      }
      rt::Expected<std::string> env = runtime->deviceTarget();
      if (!env) {
        error = "--target-env=device: " + env.error().message();
        return failure();
      }
      options.targetEnv = *env;
    }
  }
  if (failed(getTargetEnvProfile(&context, options.targetEnv, error)))
    return failure();
  return success();
}

LogicalResult driver::resolveTarget(TargetOptions &options,
                                    MLIRContext &context, rt::Runtime *runtime,
                                    std::string &error) {
  const TargetInfo &info = targetInfo(options.target);
  static const char *const bdaModes[] = {"never", "auto", "always"};
  if (!options.bufferDeviceAddress.empty() &&
      !llvm::is_contained(bdaModes, options.bufferDeviceAddress)) {
    error = "unknown --buffer-device-address='" + options.bufferDeviceAddress +
            "'; supported: never, auto, always";
    return failure();
  }
  if (options.bufferDeviceAddress.empty())
    options.bufferDeviceAddress = info.defaultBufferDeviceAddress;
  if (options.checked && options.target != Target::SPIRVCPU) {
    error = "--checked applies to --target=spirv-cpu only";
    return failure();
  }
  if (options.unboundedAccess && options.target != Target::SPIRVCPU) {
    error = "--unbounded-access applies to --target=spirv-cpu only";
    return failure();
  }
  if (!options.mpi.empty() && options.mpi != "openmpi" &&
      options.mpi != "mpich") {
    error = "unknown --mpi='" + options.mpi + "'; supported: openmpi, mpich";
    return failure();
  }
  if (options.unboundedAccess && options.checked) {
    error = "--unbounded-access and --checked exclude each other: checked "
            "mode checks every access";
    return failure();
  }
  if (info.deviceRuntime == DeviceRuntime::CUDA)
    return resolveChip(options, runtime, error);
  return resolveTargetEnv(options, info, context, runtime, error);
}

/// Runs what `build` adds to a pass manager on `module`, with MLIR's
/// pass-manager options from the command line (IR printing, statistics,
/// crash reproducers), timed under `timing` (--mlir-timing is the tool's:
/// driver::Timing).
static LogicalResult
runPipeline(ModuleOp module, TimingScope &timing,
            llvm::function_ref<void(OpPassManager &)> build) {
  PassManager pm(module.getContext());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  pm.enableTiming(timing);
  build(pm);
  return pm.run(module);
}

/// --mpi: records the MPI in a module that uses MPI (mpi or shard ops),
/// where kiln-mpi-to-llvm reads it; a module naming another one is an error
/// at the module.
static LogicalResult applyMPIOption(ModuleOp module,
                                    const TargetOptions &options) {
  if (options.mpi.empty())
    return success();
  WalkResult usesMPI = module.walk([](Operation *op) {
    StringRef dialect = op->getName().getDialectNamespace();
    return dialect == "mpi" || dialect == "shard" ? WalkResult::interrupt()
                                                  : WalkResult::advance();
  });
  if (!usesMPI.wasInterrupted())
    return success();
  return resolveMPIImplementation(module, options.mpi, /*required=*/true,
                                  "--mpi=" + options.mpi);
}

/// The device pipeline (`program` false) or the whole program's (true) for
/// the target of `options`.
static LogicalResult runTargetPipeline(ModuleOp module,
                                       const TargetOptions &options,
                                       TimingScope &timing, bool program) {
  if (failed(applyMPIOption(module, options)))
    return failure();
  return runPipeline(module, timing, [&](OpPassManager &pm) {
    targetInfo(options.target).addPipeline(pm, options, program);
  });
}

LogicalResult driver::runDevicePipeline(ModuleOp module,
                                        const TargetOptions &options,
                                        TimingScope &timing) {
  return runTargetPipeline(module, options, timing, /*program=*/false);
}

LogicalResult driver::runProgramPipeline(ModuleOp module,
                                         const TargetOptions &options,
                                         TimingScope &timing) {
  if (isLoweredToLLVM(module))
    return success();
  return runTargetPipeline(module, options, timing, /*program=*/true);
}

LogicalResult driver::lowerProgram(ModuleOp module, TargetOptions &options,
                                   rt::Runtime *runtime, StringRef tool,
                                   TimingScope &timing) {
  if (isLoweredToLLVM(module))
    return success();
  std::string error;
  if (failed(resolveTarget(options, *module.getContext(), runtime, error))) {
    reportError(tool, error);
    return failure();
  }
  return runProgramPipeline(module, options, timing);
}

//===----------------------------------------------------------------------===//
// Sessions
//===----------------------------------------------------------------------===//

static DialectRegistry toolRegistry() {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllToLLVMIRTranslations(registry);
  return registry;
}

driver::Session::Session() : ctx(toolRegistry()) {
  ctx.loadAllAvailableDialects();
  configureContext(ctx);
}

driver::Session::~Session() = default;

OwningOpRef<ModuleOp> driver::Session::parse(StringRef file,
                                             TimingScope &timing,
                                             std::string &error) {
  auto buffer = openInputFile(file, &error);
  if (!buffer)
    return nullptr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  diagnostics = std::make_unique<SourceMgrDiagnosticHandler>(sourceMgr, &ctx);
  TimingScope scope = timing.nest("Parse");
  return parseSourceFile<ModuleOp>(sourceMgr, &ctx);
}

//===----------------------------------------------------------------------===//
// kiln-compile
//===----------------------------------------------------------------------===//

namespace {
/// One kiln-compile run: its options and where its messages go.
class Compilation {
public:
  Compilation(CompileOptions options, TargetOptions target, StringRef tool,
              const char *argv0)
      : options(std::move(options)), target(std::move(target)), tool(tool),
        argv0(argv0) {}

  int run(rt::Runtime *runtime);

private:
  int fail(const llvm::Twine &message) { return reportError(tool, message); }
  int checkOptions();
  std::string outputStem() const;
  int writeDeviceCode(ModuleOp module);
  int writeDeviceFiles(ArrayRef<std::pair<std::string, std::string>> files);
  int compileHost(ModuleOp module, TimingScope &timing);

  CompileOptions options;
  TargetOptions target;
  StringRef tool;
  const char *argv0;
};
} // namespace

/// The file extension of a device binary kind.
static StringRef deviceExtension(StringRef emit) {
  if (emit == "spirv")
    return "spv";
  if (emit == "container")
    return "kiln";
  return emit;
}

static bool isHostOutput(StringRef emit) {
  return emit == "llvm" || emit == "obj" || emit == "exe";
}

LogicalResult driver::checkHostOptions(unsigned optLevel,
                                       StringRef entryPointResult,
                                       std::string &error) {
  if (optLevel > 3) {
    error = "-O" + std::to_string(optLevel) + " is not a level; use -O0 to -O3";
    return failure();
  }
  static const char *const results[] = {"void", "i32", "i64", "f32"};
  if (!entryPointResult.empty() &&
      !llvm::is_contained(results, entryPointResult)) {
    error = ("unknown --entry-point-result='" + entryPointResult +
             "'; supported: void, i32, i64, f32")
                .str();
    return failure();
  }
  return success();
}

LogicalResult driver::addEntryPoint(llvm::Module &module, StringRef entryPoint,
                                    StringRef entryPointResult,
                                    std::string &error) {
  FailureOr<KilnAOTResultKind> kind =
      aot::addExecutableEntry(module, entryPoint, error);
  if (failed(kind))
    return failure();
  StringRef actual = kilnAOTResultKindName(*kind);
  if (!entryPointResult.empty() && actual != entryPointResult) {
    error = ("entry point '@" + entryPoint + "' returns " + actual +
             ", not --entry-point-result=" + entryPointResult)
                .str();
    return failure();
  }
  return success();
}

int Compilation::checkOptions() {
  const TargetInfo &info = targetInfo(target.target);
  bool cuda = !info.containers;
  if (options.emit.empty())
    options.emit = info.deviceKinds.front().str();
  SmallVector<StringRef> kinds = {"mlir"};
  kinds.append(info.deviceKinds.begin(), info.deviceKinds.end());
  kinds.append({"llvm", "obj", "exe"});
  if (!llvm::is_contained(kinds, options.emit))
    return fail("unknown --emit='" + options.emit + "' for --target=" +
                info.name + "; supported: " + llvm::join(kinds, ", "));
  bool host = isHostOutput(options.emit);
  if (!options.header.empty() && !host)
    return fail("--emit-header needs --emit=llvm, obj or exe");
  std::string error;
  if (failed(
          checkHostOptions(options.optLevel, options.entryPointResult, error)))
    return fail(error);
  if (!options.entryPointResult.empty() && options.emit != "exe")
    return fail("--entry-point-result applies to --emit=exe only");
  if (cuda) {
    // What the device pipeline emits is what was asked for; inside host
    // programs, --format says.
    if (options.emit == "ptx" || options.emit == "cubin")
      target.format = options.emit;
    // cubin files are what was asked for: no silent fallback to PTX. The
    // toolkit found here is the one the pipeline uses.
    if (options.emit == "cubin") {
      std::vector<std::string> searched;
      std::optional<cuda::Toolkit> toolkit =
          cuda::findToolkit(target.cudaPath, &searched);
      if (!toolkit)
        return fail("--emit=cubin needs the CUDA toolkit's ptxas; none found "
                    "(looked in " +
                    llvm::join(searched, ", ") +
                    "); use --emit=ptx or --cuda-path");
      target.cudaPath = toolkit->root;
    }
  }
  return 0;
}

/// The default output name: the input's stem, or `a` for standard input.
std::string Compilation::outputStem() const {
  if (options.input == "-")
    return "a";
  return llvm::sys::path::stem(options.input).str();
}

/// The device code of every gpu.binary: SPIR-V words or the container
/// (Vulkan, spirv-cpu), PTX text or cubin bytes (CUDA), by module name.
int Compilation::writeDeviceCode(ModuleOp module) {
  std::vector<std::pair<std::string, std::string>> files;
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    // The module's name becomes a file name inside -o's folder: nothing
    // that leaves it or hides there.
    StringRef name = binary.getName();
    if (name.empty() || name.starts_with(".") ||
        name.find_first_of("/\\") != StringRef::npos ||
        llvm::any_of(name, [](char c) {
          auto u = static_cast<unsigned char>(c);
          return u < 0x20 || u == 0x7f;
        })) {
      binary.emitError("GPU module name '")
          << name
          << "' cannot name an output file (it holds a path separator, "
             "a control character or a leading '.'); rename the module";
      return 1;
    }
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      StringRef bytes = object.getObject().getValue();
      if (!targetInfo(target.target).containers) {
        // PTX is kept NUL-terminated for the driver; the file is text.
        if (object.getFormat() == gpu::CompilationTarget::Assembly)
          bytes = bytes.take_until([](char c) { return c == '\0'; });
        files.emplace_back(name.str(), bytes.str());
        continue;
      }
      container::ModuleInfo info;
      std::string error;
      if (!container::parse(bytes.data(), bytes.size(), info, error)) {
        binary.emitError("gpu.binary '") << name << "': " << error;
        return 1;
      }
      if (options.emit == "container") {
        files.emplace_back(name.str(), bytes.str());
        continue;
      }
      files.emplace_back(name.str(), std::string(reinterpret_cast<const char *>(
                                                     info.spirv.data()),
                                                 info.spirv.size() * 4));
    }
  }
  return writeDeviceFiles(files);
}

/// One file per GPU module in -o's folder (created where needed), or the
/// file -o names when there is one module and -o ends in the kind's
/// extension (docs/user-guide.md).
int Compilation::writeDeviceFiles(
    ArrayRef<std::pair<std::string, std::string>> files) {
  if (files.empty())
    return fail("'" + options.input + "' has no GPU modules to emit");
  std::string extension = "." + deviceExtension(options.emit).str();
  StringRef output = options.output;
  bool toFile = files.size() == 1 && output.ends_with(extension) &&
                !llvm::sys::fs::is_directory(output);
  std::string dir = output.empty() ? "." : output.str();
  if (!toFile) {
    if (std::error_code ec = llvm::sys::fs::create_directories(dir))
      return fail("cannot create folder '" + dir + "': " + ec.message());
  }
  // Every file goes to a temporary first: no partial outputs on failure.
  std::vector<std::unique_ptr<llvm::ToolOutputFile>> written;
  for (const auto &[name, bytes] : files) {
    SmallString<128> path;
    if (toFile) {
      path = output;
    } else {
      path = dir;
      llvm::sys::path::append(path, name + extension);
    }
    std::string error;
    auto file = openOutputFile(path, &error);
    if (!file)
      return fail(error);
    file->os() << bytes;
    written.push_back(std::move(file));
  }
  for (auto &file : written)
    file->keep();
  return 0;
}

/// --emit=llvm|obj|exe: the host through LLVM.
int Compilation::compileHost(ModuleOp module, TimingScope &timing) {
  std::string error;
  auto tm = aot::createHostTargetMachine(options.optLevel, error);
  if (failed(tm))
    return fail(error);
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  {
    TimingScope scope = timing.nest("Translate to LLVM IR");
    llvmModule = aot::translateToLLVMIR(module, llvmContext, **tm);
  }
  if (!llvmModule)
    return 1;
  if (options.emit == "exe" &&
      failed(addEntryPoint(*llvmModule, options.entryPoint,
                           options.entryPointResult, error)))
    return fail(error);
  {
    TimingScope scope = timing.nest("Optimize LLVM IR");
    aot::optimize(*llvmModule, **tm, options.optLevel);
  }

  if (options.emit == "llvm") {
    auto out =
        openOutputFile(options.output.empty() ? "-" : options.output, &error);
    if (!out)
      return fail(error);
    llvmModule->print(out->os(), nullptr);
    out->keep();
    return 0;
  }
  if (options.emit == "obj") {
    std::string path =
        options.output.empty() ? outputStem() + ".o" : options.output;
    auto out = openOutputFile(path, &error);
    if (!out)
      return fail(error);
    TimingScope scope = timing.nest("Emit object");
    if (failed(aot::emitObject(*llvmModule, **tm, out->os(), error)))
      return fail(error);
    out->keep();
    return 0;
  }

  // exe: an object in a temporary file, then the link.
  std::string exePath = options.output.empty() ? outputStem() : options.output;
  if (exePath == "-")
    return fail("--emit=exe needs an output file (-o)");
  SmallString<128> objectPath;
  int fd;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "kiln-compile", "o", fd, objectPath))
    return fail("cannot create a temporary object file: " + ec.message());
  llvm::FileRemover removeObject(objectPath);
  {
    TimingScope scope = timing.nest("Emit object");
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    if (failed(aot::emitObject(*llvmModule, **tm, os, error)))
      return fail(error);
  }
  aot::LinkOptions link = options.link;
  if (link.runtimeDir.empty())
    link.runtimeDir = aot::libDirBesideTool(argv0);
  link.target = targetInfo(target.target).name.str();
  TimingScope scope = timing.nest("Link");
  if (failed(aot::linkExecutable(objectPath, exePath, link, error)))
    return fail(error);
  return 0;
}

int Compilation::run(rt::Runtime *runtime) {
  if (int status = checkOptions())
    return status;

  Session session;
  std::string error;
  if (failed(resolveTarget(target, session.context(), runtime, error)))
    return fail(error);

  Timing toolTiming;
  TimingScope &timing = toolTiming.root();
  OwningOpRef<ModuleOp> module = session.parse(options.input, timing, error);
  if (!module)
    return error.empty() ? 1 : fail(error);

  if (isHostOutput(options.emit)) {
    std::string headerText;
    if (isLoweredToLLVM(*module)) {
      if (!options.header.empty())
        return fail("--emit-header needs func-level input; '" + options.input +
                    "' is already in the LLVM dialect");
    } else {
      // The header is written from the func-level signatures, before they
      // are lowered, and only once the whole compilation has succeeded.
      if (!options.header.empty()) {
        std::string guard =
            "KILN_" + llvm::sys::path::stem(options.header).upper() + "_H";
        for (char &c : guard)
          if (!llvm::isAlnum(c))
            c = '_';
        StringRef library = targetInfo(target.target).runtimeArchive;
        FailureOr<std::string> text = aot::emitCHeader(*module, library, guard);
        if (failed(text))
          return 1;
        headerText = std::move(*text);
      }
      aot::requestCInterfaces(*module);
      TimingScope scope = timing.nest("Pipeline");
      if (failed(runProgramPipeline(*module, target, scope)))
        return 1;
    }
    // The header's file is opened before any output is written, so that a
    // header that cannot be written leaves no object or executable behind
    // (and a failed compilation no header).
    std::unique_ptr<llvm::ToolOutputFile> header;
    if (!options.header.empty() &&
        !(header = openOutputFile(options.header, &error)))
      return fail(error);
    if (int status = compileHost(*module, timing))
      return status;
    if (header) {
      header->os() << headerText;
      header->keep();
    }
    return 0;
  }

  {
    TimingScope scope = timing.nest("Pipeline");
    if (failed(runDevicePipeline(*module, target, scope)))
      return 1;
  }
  if (options.emit == "mlir") {
    auto out =
        openOutputFile(options.output.empty() ? "-" : options.output, &error);
    if (!out)
      return fail(error);
    module->print(out->os());
    out->os() << "\n";
    out->keep();
    return 0;
  }
  TimingScope scope = timing.nest("Write device binaries");
  return writeDeviceCode(*module);
}

int driver::compile(CompileOptions options, TargetOptions target,
                    rt::Runtime *runtime, const char *argv0, StringRef tool) {
  Compilation compilation(std::move(options), std::move(target), tool, argv0);
  return compilation.run(runtime);
}

int driver::printCUDAToolkit(StringRef cudaPath, StringRef tool) {
  std::vector<std::string> searched;
  std::optional<cuda::Toolkit> toolkit = cuda::findToolkit(cudaPath, &searched);
  if (!toolkit)
    return reportError(tool, "no CUDA toolkit found (looked in " +
                                 llvm::join(searched, ", ") + ")");
  llvm::outs() << "root: " << toolkit->root << "\n"
               << "found by: " << toolkit->foundBy << "\n"
               << "ptxas: " << toolkit->ptxas << "\n"
               << "fatbinary: "
               << (toolkit->fatbinary.empty() ? "none" : toolkit->fatbinary)
               << "\n"
               << "libdevice: "
               << (toolkit->libdevice.empty() ? "none" : toolkit->libdevice)
               << "\n";
  return 0;
}
