//===- kiln-spirv-cpu-runner.cpp - Run gpu.launch programs on the CPU -----===//
//
// mlir-runner's interface (-e, --entry-point-result, --shared-libs, -O0..3)
// over Kiln's spirv-cpu pipeline: the kernels take the Vulkan path up to
// validated SPIR-V, which is compiled to host functions that Kiln's spirv-cpu
// runtime runs, every workgroup and invocation of each launch, on the
// machine's cores. No GPU and no Vulkan driver are needed; docs/spirv-cpu.md
// describes the execution model and the checked mode.
//
//===----------------------------------------------------------------------===//

#include "../RunnerMain.h"
#include "kiln/Driver/CommandLine.h"
#include "kiln/Driver/Compile.h"
#include "kiln/Driver/LargeStack.h"
#include "kiln/Driver/Run.h"
#include "kiln/Pipelines/Pipelines.h"
#include "kiln/Runtime/SPIRVCPURuntime.h"
#include "kiln/Target/SPIRV/TargetEnvs.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

#include <cstdlib>
#include <string>

using namespace mlir;

static llvm::cl::OptionCategory runCategory("Running");
static llvm::cl::OptionCategory runnerCategory("spirv-cpu");

static llvm::cl::opt<std::string> targetEnv(
    "target-env",
    llvm::cl::desc("SPIR-V target env to compile for: 'device' (the spirv-cpu "
                   "profile), a profile name (spirv-cpu, vulkan-1.1, "
                   "vulkan-1.2, vulkan-1.3, desktop, lavapipe) or a "
                   "#spirv.target_env"),
    llvm::cl::init("device"), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<bool>
    use64BitIndex("use-64bit-index",
                  llvm::cl::desc("Lower index to i64 in kernels"),
                  llvm::cl::init(false), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<bool> fastMath(
    "fast-math",
    llvm::cl::desc(
        "Let the driver ignore NaNs, infinities and the sign of zero in "
        "kernels (no SignedZeroInfNanPreserve execution modes; by "
        "default they are kept where the target env allows)"),
    llvm::cl::init(false), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<std::string> bufferDeviceAddress(
    "buffer-device-address",
    llvm::cl::desc("Memref arguments bound by buffer device address instead "
                   "of a storage-buffer descriptor: never (default: a CPU has "
                   "no descriptor range limit), auto or always"),
    llvm::cl::init(kiln::kDefaultSPIRVCPUBufferDeviceAddress),
    llvm::cl::cat(runnerCategory));
static llvm::cl::opt<bool> checked(
    "checked",
    llvm::cl::desc("Checked mode: an out-of-bounds buffer or workgroup "
                   "memory access, or a barrier that not every invocation "
                   "reaches, stops the run with an error naming the kernel, "
                   "the workgroup, the invocation and the access"),
    llvm::cl::init(false), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<bool> unboundedAccess(
    "unbounded-access",
    llvm::cl::desc("Leave buffer and workgroup memory accesses unbounded: "
                   "faster, but an access out of bounds reaches the host's "
                   "memory (by default it reads zeros or is dropped, as "
                   "Vulkan's robustBufferAccess2 has it)"),
    llvm::cl::init(false), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<std::string> device(
    "device",
    llvm::cl::desc("The program's CPU devices, a comma-separated list "
                   "numbered 0..N-1 for gpu.set_default_device, each entry "
                   "0 (the host CPU, listed as often as the program has "
                   "devices; each gets its share of the worker threads); "
                   "also KILN_SPIRV_CPU_DEVICE"),
    llvm::cl::value_desc("0[,0...]"), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<std::string> threads(
    "cpu-threads",
    llvm::cl::desc("Worker threads that run workgroups (default: one per "
                   "core; also KILN_CPU_THREADS)"),
    llvm::cl::value_desc("N"), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<std::string> &timeout =
    kiln::timeoutOption(runnerCategory);
static llvm::cl::opt<std::string> &mpi = kiln::mpiOption(runCategory);
static llvm::cl::opt<bool> printTiming(
    "print-timing",
    llvm::cl::desc("Print each launch's kernel and host time on stderr"),
    llvm::cl::init(false), llvm::cl::cat(runnerCategory));
// Accepted so that a Vulkan command line runs unchanged; the CPU has no
// validation layer.
static llvm::cl::opt<bool> validate(
    "validate",
    llvm::cl::desc("Accepted for kiln-vulkan-runner compatibility; SPIR-V is "
                   "always validated with SPIRV-Tools"),
    llvm::cl::init(false), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<bool>
    listDevices("list-devices",
                llvm::cl::desc("Describe the host the kernels run on and exit"),
                llvm::cl::cat(runnerCategory));
static llvm::cl::opt<bool> printTargetEnv(
    "print-target-env",
    llvm::cl::desc("Print the #spirv.target_env kernels are compiled for and "
                   "exit"),
    llvm::cl::cat(runnerCategory));

/// The target env the spirv-cpu target compiles for by default.
static std::string deviceTargetEnv() {
  MLIRContext context;
  context.loadDialect<spirv::SPIRVDialect>();
  std::string error;
  FailureOr<spirv::TargetEnvAttr> env =
      kiln::getTargetEnvProfile(&context, "spirv-cpu", error);
  if (failed(env))
    return error;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << *env;
  return text;
}

static int toolMain(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  kiln::driver::RunnerCommandLine runner(runCategory);
  static const llvm::StringRef examples[] = {
      "kiln-spirv-cpu-runner prog.mlir",
      "kiln-spirv-cpu-runner prog.mlir --checked",
      "kiln-opt prog.mlir --kiln-gpu-to-spirv-cpu | kiln-spirv-cpu-runner -"};
  static const llvm::cl::OptionCategory *categories[] = {&runCategory,
                                                         &runnerCategory};
  kiln::driver::ToolDescription tool{
      "kiln-spirv-cpu-runner",
      "runs programs written with MLIR's gpu dialect on the "
      "host CPU: kernels through SPIR-V compiled for the CPU, no "
      "GPU or Vulkan driver needed (docs/spirv-cpu.md)",
      "[options] <input.mlir>", examples, categories};
  if (std::optional<int> status =
          kiln::driver::parseCommandLine(argc, argv, tool))
    return *status;

  // The runtime reads its options when it first starts, which is after
  // this point; they win over its environment variables.
  kiln::rt::Options options;
  if (!device.empty())
    options.device = device;
  if (!threads.empty())
    options.threads = threads;
  kiln::applyTimeoutOption(timeout, options);
  if (printTiming)
    options.timing = true;
  if (int status = kiln::configureRuntime(*kilnSpirvCpuRuntime(),
                                          "kiln-spirv-cpu", options))
    return status;
  if (listDevices)
    return kiln::listRuntimeDevices(*kilnSpirvCpuRuntime(), "kiln-spirv-cpu");
  if (printTargetEnv) {
    std::printf("%s\n", deviceTargetEnv().c_str());
    return 0;
  }

  kiln::driver::TargetOptions target;
  target.target = kiln::driver::Target::SPIRVCPU;
  target.targetEnv = targetEnv;
  target.use64BitIndex = use64BitIndex;
  target.bufferDeviceAddress = bufferDeviceAddress;
  target.fastMath = fastMath;
  target.mpi = mpi;
  target.checked = checked;
  target.unboundedAccess = unboundedAccess;
  auto lower = [&](ModuleOp module, TimingScope &timing) -> LogicalResult {
    return kiln::driver::lowerProgram(module, target, /*runtime=*/nullptr,
                                      tool.name, timing);
  };
  return kiln::driver::run(
      runner.options(argv[0], "libkiln_spirv_cpu_runtime.so"), lower,
      tool.name);
}

int main(int argc, char **argv) {
  return kiln::driver::onLargeStack([&] { return toolMain(argc, argv); });
}
