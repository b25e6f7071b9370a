//===- kiln-compile.cpp - Kiln's compiler driver --------------------------===//
//
//   kiln-compile FILE --target=vulkan --emit=mlir|spirv|container|llvm|obj|exe
//                [-o OUT] [-e ENTRY] [-O0..3] [--target-env=NAME]
//                [--emit-header=FILE.h]
//   kiln-compile FILE --target=cuda --emit=mlir|ptx|cubin|llvm|obj|exe
//                [--chip=sm_XX] [--features=+ptxNN] [--format=F]
//                [--cuda-path=DIR] ...
//   kiln-compile FILE --target=spirv-cpu
//                --emit=mlir|spirv|container|llvm|obj|exe [--checked] ...
//
// mlir, spirv, container, ptx and cubin stop after the device pipeline; llvm,
// obj and exe lower the host too and compile it in-process
// (lib/Target/AOT/AOT.cpp).
//
//===----------------------------------------------------------------------===//

#include "kiln/InitAll.h"
#include "kiln/Pipelines/Pipelines.h"
#include "kiln/Runtime/CUDARuntime.h"
#include "kiln/Runtime/Runtime.h"
#include "kiln/Runtime/VulkanRuntime.h"
#include "kiln/Target/AOT/AOT.h"
#include "kiln/Target/NVVM/CUDA.h"
#include "kiln/Target/SPIRV/Container.h"
#include "kiln/Target/SPIRV/TargetEnvs.h"

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
                                   cl::desc("Target: vulkan, cuda or spirv-cpu "
                                            "(the SPIR-V kernels run on the "
                                            "host CPU; docs/spirv-cpu.md)"),
                                   cl::init("vulkan"));
static cl::opt<std::string>
    emit("emit",
         cl::desc("Output: mlir (after the device pipeline), spirv (Vulkan: "
                  "one .spv per GPU module), container (Vulkan: one .kiln "
                  "per GPU module, SPIR-V with its kernels' ABI, as "
                  "mgpuModuleLoad takes it), ptx / cubin (CUDA: one .ptx / "
                  ".cubin per GPU module), llvm (host LLVM IR), obj (host "
                  "object file, device binaries inside), exe (standalone "
                  "executable); default spirv or ptx"),
         cl::init(""));
static cl::opt<std::string>
    output("o",
           cl::desc("Output file, or directory for "
                    "--emit=spirv|container|ptx|cubin"),
           cl::value_desc("path"), cl::init(""));
static cl::opt<std::string>
    chip("chip", cl::desc("CUDA: NVIDIA chip (default sm_90), or 'device' "
                          "(this machine's CUDA device, KILN_CUDA_DEVICE "
                          "chooses)"),
         cl::init(kiln::cuda::kDefaultChip.str()));
static cl::opt<std::string>
    features("features",
             cl::desc("CUDA: PTX features, e.g. +ptx80 (default: the oldest "
                      "PTX the chip accepts)"),
             cl::init(""));
static cl::opt<std::string> kernelFormat(
    "format",
    cl::desc("CUDA: format of the kernels inside --emit=mlir|llvm|obj|exe: "
             "ptx, cubin or fatbin (default; cubin and fatbin need ptxas, "
             "without it PTX is used)"),
    cl::init("fatbin"));
static cl::opt<std::string>
    cudaPath("cuda-path",
             cl::desc("CUDA: toolkit root (default: $CUDA_PATH, $PATH, "
                      "/usr/local/cuda)"),
             cl::init(""));
static cl::opt<bool> printCudaToolkit(
    "print-cuda-toolkit",
    cl::desc("Print the CUDA toolkit the CUDA pipeline would use (honours "
             "--cuda-path) and exit; exit status 1 and where it looked when "
             "there is none"),
    cl::init(false));
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
                       "desktop (default; spirv-cpu for --target=spirv-cpu), "
                       "vulkan-1.1, vulkan-1.2, vulkan-1.3, lavapipe, "
                       "spirv-cpu, a #spirv.target_env literal, or 'device' "
                       "(this machine's Vulkan device, KILN_VULKAN_DEVICE "
                       "chooses; spirv-cpu for --target=spirv-cpu)"),
              cl::init("desktop"));
static cl::opt<bool> checked(
    "checked",
    cl::desc("spirv-cpu: bounds-check every buffer and workgroup memory "
             "access, and check that every invocation reaches each barrier"),
    cl::init(false));
static cl::opt<bool>
    use64BitIndex("use-64bit-index",
                  cl::desc("Lower index to i64 in kernels and push constants"),
                  cl::init(false));

static cl::opt<std::string> bufferDeviceAddress(
    "buffer-device-address",
    cl::desc("Vulkan: memref arguments bound by buffer device address "
             "instead of a storage-buffer descriptor, so that their size is "
             "not capped by maxStorageBufferRange: never, auto (default: "
             "static sizes above 128 MiB, where the target env allows) or "
             "always; spirv-cpu: never by default"),
    cl::init("auto"));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "kiln-compile") << message << "\n";
  return 1;
}

namespace {
/// One device binary file: a GPU module's SPIR-V, PTX or cubin.
struct DeviceOutput {
  std::string moduleName;
  std::string bytes;
};
} // namespace

/// Extracts the device code of every gpu.binary Kiln produced: SPIR-V words
/// out of the container (Vulkan), PTX text or cubin bytes (CUDA).
static LogicalResult collectDeviceCode(ModuleOp module,
                                       std::vector<DeviceOutput> &outputs) {
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    // The module's name becomes a file name inside -o's directory: nothing
    // that leaves it or hides there.
    StringRef name = binary.getName();
    if (name.empty() || name.starts_with(".") ||
        name.find_first_of("/\\") != StringRef::npos ||
        llvm::any_of(name, [](char c) { return c < 0x20 || c == 0x7f; }))
      return binary.emitError("GPU module name '")
             << name
             << "' cannot name an output file (it holds a path separator, "
                "a control character or a leading '.'); rename the module";
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      StringRef bytes = object.getObject().getValue();
      if (target == "cuda") {
        // PTX is kept NUL-terminated for the driver; the file is text.
        if (object.getFormat() == gpu::CompilationTarget::Assembly)
          bytes = bytes.take_until([](char c) { return c == '\0'; });
        outputs.push_back({binary.getName().str(), bytes.str()});
        continue;
      }
      kiln::container::ModuleInfo info;
      std::string error;
      if (!kiln::container::parse(bytes.data(), bytes.size(), info, error))
        return binary.emitError("gpu.binary '")
               << binary.getName() << "': " << error;
      if (emit == "container") {
        outputs.push_back({binary.getName().str(), bytes.str()});
        continue;
      }
      outputs.push_back(
          {binary.getName().str(),
           std::string(reinterpret_cast<const char *>(info.spirv.data()),
                       info.spirv.size() * 4)});
    }
  }
  return success();
}

static int writeDeviceCode(const std::vector<DeviceOutput> &outputs) {
  if (outputs.empty())
    return fail("'" + inputFile + "' has no GPU modules to emit");
  // ptx and cubin always go into a directory, one file per GPU module;
  // a single SPIR-V module may go to a file.
  bool single = emit == "spirv" || emit == "container";
  bool toDirectory = !single || output.empty() || outputs.size() > 1 ||
                     llvm::sys::fs::is_directory(output);
  std::string dir = output.empty() ? "." : output.getValue();
  if (toDirectory) {
    if (std::error_code ec = llvm::sys::fs::create_directories(dir))
      return fail("cannot create directory '" + dir + "': " + ec.message());
  }
  // Write every file to a temporary first: no partial outputs on failure.
  std::vector<std::unique_ptr<llvm::ToolOutputFile>> files;
  for (const DeviceOutput &out : outputs) {
    SmallString<128> path;
    if (toDirectory) {
      path = dir;
      std::string extension = emit == "spirv"       ? std::string("spv")
                              : emit == "container" ? std::string("kiln")
                                                    : emit.getValue();
      llvm::sys::path::append(path, out.moduleName + "." + extension);
    } else {
      path = output.getValue();
    }
    std::string error;
    auto file = openOutputFile(path, &error);
    if (!file)
      return fail(error);
    file->os() << out.bytes;
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
  link.target = target;
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
                              "PTX, cubin, objects and executables\n");

  if (printCudaToolkit) {
    std::vector<std::string> searched;
    std::optional<kiln::cuda::Toolkit> toolkit =
        kiln::cuda::findToolkit(cudaPath, &searched);
    if (!toolkit)
      return fail("no CUDA toolkit found (looked in " +
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

  bool cuda = target == "cuda";
  bool cpu = target == "spirv-cpu";
  if (target != "vulkan" && !cuda && !cpu)
    return fail("unknown --target='" + target +
                "'; supported: vulkan, cuda, spirv-cpu");
  if (checked && !cpu)
    return fail("--checked applies to --target=spirv-cpu only");
  if (emit.empty())
    emit = cuda ? "ptx" : "spirv";
  static const char *const vulkanKinds[] = {"mlir", "spirv", "container",
                                            "llvm", "obj",   "exe"};
  static const char *const cudaKinds[] = {"mlir", "ptx", "cubin", "llvm",
                                          "obj",  "exe"};
  if (cuda ? !llvm::is_contained(cudaKinds, emit)
           : !llvm::is_contained(vulkanKinds, emit))
    return fail("unknown --emit='" + emit + "' for --target=" + target +
                "; supported: " +
                (cuda ? "mlir, ptx, cubin, llvm, obj, exe"
                      : "mlir, spirv, container, llvm, obj, exe"));
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
  // The CPU's own profile unless the user picks one: its subgroups are
  // 8 wide and its workgroup memory is not a device's.
  if (cpu && (targetEnv.getNumOccurrences() == 0 || env == "device"))
    env = "spirv-cpu";
  kiln::GPUToNVVMPipelineOptions cudaOptions;
  if (cuda) {
    std::string chipName = chip;
    if (chipName == "device") {
      kiln::rt::Expected<std::string> deviceChip =
          kilnCudaRuntime()->deviceTarget();
      if (!deviceChip)
        return fail("--chip=device: " + deviceChip.error().message());
      chipName = *deviceChip;
    }
    if (std::optional<std::string> problem = kiln::cuda::checkTarget(
            chipName, kiln::cuda::targetFeatures(chipName, features)))
      return fail(*problem);
    static const char *const formats[] = {"ptx", "cubin", "fatbin"};
    if (!llvm::is_contained(formats, kernelFormat))
      return fail("unknown --format='" + kernelFormat +
                  "'; supported: ptx, cubin, fatbin");
    cudaOptions.chip = chipName;
    cudaOptions.features = features;
    cudaOptions.cudaPath = cudaPath;
    cudaOptions.format = emit == "ptx"     ? std::string("ptx")
                         : emit == "cubin" ? std::string("cubin")
                                           : kernelFormat.getValue();
    // cubin files are what was asked for: no silent fallback to PTX. The
    // toolkit found here is the one the pipeline uses.
    if (emit == "cubin") {
      std::vector<std::string> searched;
      std::optional<kiln::cuda::Toolkit> toolkit =
          kiln::cuda::findToolkit(cudaPath, &searched);
      if (!toolkit)
        return fail("--emit=cubin needs the CUDA toolkit's ptxas; none found "
                    "(looked in " +
                    llvm::join(searched, ", ") +
                    "); use --emit=ptx or --cuda-path");
      cudaOptions.cudaPath = toolkit->root;
    }
  } else {
    if (env == "device") {
      kiln::rt::Expected<std::string> deviceEnv =
          kilnVulkanRuntime()->deviceTarget();
      if (!deviceEnv)
        return fail("--target-env=device: " + deviceEnv.error().message());
      env = *deviceEnv;
    }
    if (failed(kiln::getTargetEnvProfile(&context, env, error)))
      return fail(error);
  }

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
  options.bufferDeviceAddress = bufferDeviceAddress;
  kiln::GPUToSPIRVCPUPipelineOptions cpuOptions;
  cpuOptions.targetEnv = env;
  cpuOptions.use64BitIndex = use64BitIndex;
  if (bufferDeviceAddress.getNumOccurrences())
    cpuOptions.bufferDeviceAddress = bufferDeviceAddress;
  cpuOptions.checked = checked;
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
        FailureOr<std::string> text =
            kiln::aot::emitCHeader(*module,
                                   cuda  ? "libkiln_cuda_runtime.a"
                                   : cpu ? "libkiln_spirv_cpu_runtime.a"
                                         : "libkiln_vulkan_runtime.a",
                                   guard);
        if (failed(text))
          return 1;
        headerText = std::move(*text);
      }
      kiln::aot::requestCInterfaces(*module);
      PassManager pm(&context);
      if (cuda)
        kiln::buildGPUToCUDAPassPipeline(pm, cudaOptions);
      else if (cpu)
        kiln::buildGPUToSPIRVCPUPassPipeline(pm, cpuOptions);
      else
        kiln::buildGPUToVulkanPassPipeline(pm, options);
      if (failed(pm.run(*module)))
        return 1;
    }
    if (int status = compileHost(*module, argv[0]))
      return status;
    return header.empty() ? 0 : writeText(header, headerText);
  }

  PassManager pm(&context);
  if (cuda)
    kiln::buildGPUToNVVMPassPipeline(pm, cudaOptions);
  else if (cpu)
    kiln::buildGPUToSPIRVCPUKernelPassPipeline(pm, cpuOptions);
  else
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
  std::vector<DeviceOutput> outputs;
  if (failed(collectDeviceCode(*module, outputs)))
    return 1;
  return writeDeviceCode(outputs);
}
