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
// The command line; what it does is kiln::driver::compile
// (lib/Driver/Compile.cpp).
//
//===----------------------------------------------------------------------===//

#include "kiln/Driver/CommandLine.h"
#include "kiln/Driver/Compile.h"
#include "kiln/Driver/LargeStack.h"
#include "kiln/Runtime/CUDARuntime.h"
#include "kiln/Runtime/VulkanRuntime.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

using namespace kiln;
namespace cl = llvm::cl;

static cl::OptionCategory compileCategory("Compilation");
static cl::OptionCategory spirvCategory("Vulkan and spirv-cpu targets");
static cl::OptionCategory cudaCategory("CUDA target");
static cl::OptionCategory
    hostCategory("Host programs",
                 "With --emit=llvm, obj or exe: the host side through "
                 "LLVM, and executables (docs/aot.md)");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::init("-"), cl::cat(compileCategory));
static cl::opt<std::string>
    target("target",
           cl::desc("Where the kernels run: vulkan (default), cuda or "
                    "spirv-cpu (the host CPU; docs/spirv-cpu.md)"),
           cl::init("vulkan"), cl::cat(compileCategory));
static cl::opt<std::string> emit(
    "emit",
    cl::desc("What to write: mlir (after the device pipeline), spirv (one "
             ".spv per GPU module), container (one .kiln per GPU module: "
             "SPIR-V with its kernels' ABI, as mgpuModuleLoad takes it), "
             "ptx / cubin (CUDA: one .ptx / .cubin per GPU module), llvm "
             "(host LLVM IR), obj (host object, device binaries inside), exe "
             "(executable); default spirv, or ptx for CUDA"),
    cl::init(""), cl::cat(compileCategory));
static cl::opt<std::string> output(
    "o",
    cl::desc("Output file; for spirv, container, ptx and cubin a folder that "
             "gets <module>.<ext> per GPU module (created if needed), or the "
             "file itself when there is one module and the path ends in "
             "the extension"),
    cl::value_desc("path"), cl::init(""), cl::cat(compileCategory));
static cl::opt<unsigned> optLevel("O",
                                  cl::desc("Host optimization level, -O0 to "
                                           "-O3 (default -O2)"),
                                  cl::value_desc("level"), cl::Prefix,
                                  cl::init(2), cl::cat(compileCategory));

static cl::opt<std::string>
    mpi("mpi",
        cl::desc("The MPI the program's mpi ops call: openmpi (default) or "
                 "mpich"),
        cl::value_desc("name"), cl::init(""), cl::cat(compileCategory));

static cl::opt<std::string> targetEnv(
    "target-env",
    cl::desc("Target env for GPU modules without one: desktop (default for "
             "vulkan), vulkan-1.1, vulkan-1.2, vulkan-1.3, lavapipe, "
             "spirv-cpu (default for spirv-cpu), a #spirv.target_env literal, "
             "or 'device' (this machine's Vulkan device, KILN_VULKAN_DEVICE "
             "chooses)"),
    cl::init(""), cl::cat(spirvCategory));
static cl::opt<bool>
    use64BitIndex("use-64bit-index",
                  cl::desc("Lower index to i64 in kernels and push constants"),
                  cl::init(false), cl::cat(spirvCategory));
static cl::opt<std::string> bufferDeviceAddress(
    "buffer-device-address",
    cl::desc("Memref arguments bound by buffer device address instead of a "
             "storage-buffer descriptor, so that maxStorageBufferRange does "
             "not cap their size: never, auto (default for vulkan: static "
             "sizes above 128 MiB, where the target env allows; dynamic "
             "ones in an address variant of the kernel) or always; "
             "never by default for spirv-cpu"),
    cl::init(""), cl::cat(spirvCategory));
static cl::opt<bool> fastMath(
    "fast-math",
    cl::desc("Let the driver ignore NaNs, infinities and the sign of zero in "
             "kernels (no SignedZeroInfNanPreserve execution modes; by "
             "default they are kept where the target env allows)"),
    cl::init(false), cl::cat(spirvCategory));
static cl::opt<bool> checked(
    "checked",
    cl::desc("spirv-cpu: bounds-check every buffer and workgroup memory "
             "access, and check that every invocation reaches each barrier"),
    cl::init(false), cl::cat(spirvCategory));
static cl::opt<bool> unboundedAccess(
    "unbounded-access",
    cl::desc("spirv-cpu: leave buffer and workgroup memory accesses "
             "unbounded: faster, but an access out of bounds reaches the "
             "host's memory (by default it reads zeros or is dropped)"),
    cl::init(false), cl::cat(spirvCategory));

static cl::opt<std::string>
    chip("chip",
         cl::desc("NVIDIA chip (default sm_90), or 'device' (this machine's "
                  "CUDA device, KILN_CUDA_DEVICE chooses)"),
         cl::init(cuda::kDefaultChip.str()), cl::cat(cudaCategory));
static cl::opt<std::string>
    features("features",
             cl::desc("PTX features, e.g. +ptx80 (default: the oldest PTX "
                      "the chip accepts)"),
             cl::init(""), cl::cat(cudaCategory));
static cl::opt<std::string> kernelFormat(
    "format",
    cl::desc("Format of the kernels inside --emit=mlir|llvm|obj|exe: ptx, "
             "cubin or fatbin (default; cubin and fatbin need ptxas, without "
             "it PTX is used)"),
    cl::init(cuda::kDefaultFormat.str()), cl::cat(cudaCategory));
static cl::opt<std::string>
    cudaPath("cuda-path",
             cl::desc("Toolkit root (default: $CUDA_PATH, $PATH, "
                      "/usr/local/cuda)"),
             cl::value_desc("folder"), cl::init(""), cl::cat(cudaCategory));
static cl::opt<bool> printCudaToolkit(
    "print-cuda-toolkit",
    cl::desc("Print the CUDA toolkit the CUDA pipeline would use (honours "
             "--cuda-path) and exit; exit status 1 and where it looked when "
             "there is none"),
    cl::init(false), cl::cat(cudaCategory));

static cl::opt<std::string>
    entryPoint("e", cl::desc("Entry point of --emit=exe (default: main)"),
               cl::value_desc("name"), cl::init("main"), cl::cat(hostCategory));
static cl::opt<std::string> entryPointResult(
    "entry-point-result",
    cl::desc("Check the entry point's result type: void, i32, i64 or f32 "
             "(the executable finds it itself)"),
    cl::value_desc("type"), cl::init(""), cl::cat(hostCategory));
static cl::opt<std::string> header(
    "emit-header",
    cl::desc("Also write a C header declaring the _mlir_ciface_ wrapper of "
             "every public function"),
    cl::value_desc("file.h"), cl::init(""), cl::cat(hostCategory));
static cl::opt<std::string>
    linker("linker",
           cl::desc("C++ compiler driver that links --emit=exe (default: "
                    "c++, g++ or clang++ on PATH)"),
           cl::value_desc("program"), cl::init(""), cl::cat(hostCategory));
static cl::opt<std::string> runtimeDir(
    "runtime-dir",
    cl::desc("Folder of Kiln's static runtime libraries (default: the lib/ "
             "beside this tool's bin/)"),
    cl::value_desc("folder"), cl::init(""), cl::cat(hostCategory));
static cl::opt<bool> staticCxxRuntime(
    "static-cxx-runtime",
    cl::desc("Link libstdc++ into the executable (no libstdc++.so needed)"),
    cl::init(false), cl::cat(hostCategory));
static cl::opt<bool> strip("strip", cl::desc("Drop the executable's symbols"),
                           cl::init(false), cl::cat(hostCategory));

static int toolMain(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  static const llvm::StringRef examples[] = {
      "kiln-compile prog.mlir --emit=exe -o prog        (then ./prog)",
      "kiln-compile prog.mlir --emit=spirv -o spv/      (spv/<module>.spv)",
      "kiln-compile prog.mlir --target=cuda --emit=ptx -o ptx/",
      "kiln-compile prog.mlir --emit=obj --emit-header=prog.h -o prog.o"};
  static const cl::OptionCategory *categories[] = {
      &compileCategory, &spirvCategory, &cudaCategory, &hostCategory};
  driver::ToolDescription tool{
      "kiln-compile",
      "compiles programs written with MLIR's gpu dialect for "
      "Vulkan, CUDA or the CPU: device binaries (SPIR-V, PTX, "
      "cubin), MLIR, LLVM IR, objects and executables",
      "[options] <input.mlir>", examples, categories};
  if (std::optional<int> status = driver::parseCommandLine(argc, argv, tool))
    return *status;

  if (printCudaToolkit)
    return driver::printCUDAToolkit(cudaPath, tool.name);

  driver::TargetOptions targetOptions;
  const driver::TargetInfo *kind = driver::findTarget(target);
  if (!kind)
    return driver::reportError(tool.name,
                               "unknown --target='" + target +
                                   "'; supported: " + driver::targetNames());
  targetOptions.target = kind->target;
  targetOptions.targetEnv = targetEnv;
  targetOptions.use64BitIndex = use64BitIndex;
  targetOptions.bufferDeviceAddress = bufferDeviceAddress;
  targetOptions.fastMath = fastMath;
  targetOptions.checked = checked;
  targetOptions.unboundedAccess = unboundedAccess;
  targetOptions.chip = chip;
  targetOptions.features = features;
  targetOptions.format = kernelFormat;
  targetOptions.cudaPath = cudaPath;
  targetOptions.mpi = mpi;

  driver::CompileOptions options;
  options.input = inputFile;
  options.emit = emit;
  options.output = output;
  options.entryPoint = entryPoint;
  options.entryPointResult = entryPointResult;
  options.optLevel = optLevel;
  options.header = header;
  options.link.linker = linker;
  options.link.runtimeDir = runtimeDir;
  options.link.staticCxxRuntime = staticCxxRuntime;
  options.link.strip = strip;

  // "device" targets ask the runtime of the target (only then is it
  // started).
  rt::Runtime *runtime = nullptr;
  if (kind->deviceRuntime == driver::DeviceRuntime::CUDA)
    runtime = kilnCudaRuntime();
  else if (kind->deviceRuntime == driver::DeviceRuntime::Vulkan)
    runtime = kilnVulkanRuntime();
  return driver::compile(std::move(options), std::move(targetOptions), runtime,
                         argv[0], tool.name);
}

int main(int argc, char **argv) {
  return kiln::driver::onLargeStack([&] { return toolMain(argc, argv); });
}
