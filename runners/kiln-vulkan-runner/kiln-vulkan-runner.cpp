//===- kiln-vulkan-runner.cpp - Run gpu.launch programs on Vulkan ---------===//
//
// mlir-runner's interface (-e, --entry-point-result, --shared-libs, -O0..3)
// over Kiln's Vulkan pipeline: the input (gpu.launch in func.func, outlined
// gpu.modules, or a module already in the LLVM dialect) is lowered with
// --kiln-gpu-to-vulkan for the device it will run on, the host is JIT-compiled
// and linked against Kiln's Vulkan runtime and MLIR's runner utilities
// (kiln::driver::run, lib/Driver/Run.cpp).
//
//===----------------------------------------------------------------------===//

#include "../RunnerMain.h"
#include "kiln/Driver/CommandLine.h"
#include "kiln/Driver/Compile.h"
#include "kiln/Driver/LargeStack.h"
#include "kiln/Driver/Run.h"
#include "kiln/Pipelines/Pipelines.h"
#include "kiln/Runtime/VulkanRuntime.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace mlir;

static llvm::cl::OptionCategory runCategory("Running");
static llvm::cl::OptionCategory runnerCategory("Vulkan");

static llvm::cl::opt<std::string> device(
    "device",
    llvm::cl::desc("The program's Vulkan devices, a comma-separated list "
                   "numbered 0..N-1 for gpu.set_default_device; each entry "
                   "an index from --list-devices, part of a name or a UUID, "
                   "and one device may be listed twice (default: one "
                   "device, discrete GPU, integrated GPU, CPU; also "
                   "KILN_VULKAN_DEVICE)"),
    llvm::cl::value_desc("A[,B...]"), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<std::string> targetEnv(
    "target-env",
    llvm::cl::desc(
        "SPIR-V target env to compile for: 'device' (the device "
        "the program runs on), a profile name (vulkan-1.1, "
        "vulkan-1.2, vulkan-1.3, desktop, lavapipe) or a #spirv.target_env"),
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
                   "of a storage-buffer descriptor, so that their size is not "
                   "capped by maxStorageBufferRange: never, auto (default: "
                   "static sizes above 128 MiB, where the target env "
                   "allows; dynamic ones in an address variant launched for "
                   "buffers beyond the device's range) or always"),
    llvm::cl::init(kiln::kDefaultVulkanBufferDeviceAddress),
    llvm::cl::cat(runnerCategory));
static llvm::cl::opt<bool> validate(
    "validate",
    llvm::cl::desc("Enable the Khronos validation layer; any message it "
                   "reports fails the run (also KILN_VULKAN_VALIDATION=1)"),
    llvm::cl::init(false), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<std::string> &timeout =
    kiln::timeoutOption(runnerCategory);
static llvm::cl::opt<std::string> &mpi = kiln::mpiOption(runCategory);
static llvm::cl::opt<bool> robustBufferAccess(
    "robust-buffer-access",
    llvm::cl::desc("Out-of-bounds buffer reads in kernels return zero and "
                   "writes are dropped (Vulkan's robustness features; also "
                   "KILN_VULKAN_ROBUST=1)"),
    llvm::cl::init(false), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<bool> printTiming(
    "print-timing",
    llvm::cl::desc("Print each launch's GPU and host time on stderr"),
    llvm::cl::init(false), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<bool>
    listDevices("list-devices",
                llvm::cl::desc("List the Vulkan devices and exit"),
                llvm::cl::cat(runnerCategory));
static llvm::cl::opt<bool> printTargetEnv(
    "print-target-env",
    llvm::cl::desc("Print the chosen device's #spirv.target_env and exit"),
    llvm::cl::cat(runnerCategory));

/// Whether a kernel of `module` prints: a gpu.printf, or a binary already
/// compiled with debug printf.
static bool programPrints(Operation *module) {
  auto walk = module->walk([](Operation *op) {
    if (isa<gpu::PrintfOp>(op))
      return WalkResult::interrupt();
    if (auto binary = dyn_cast<gpu::BinaryOp>(op))
      for (Attribute a : binary.getObjects())
        if (auto object = dyn_cast<gpu::ObjectAttr>(a))
          if (object.getObject().getValue().contains("NonSemantic.DebugPrintf"))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

static int toolMain(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  kiln::driver::RunnerCommandLine runner(runCategory);
  static const llvm::StringRef examples[] = {
      "kiln-vulkan-runner prog.mlir",
      "kiln-vulkan-runner prog.mlir --validate --device=lavapipe",
      "kiln-opt prog.mlir --kiln-gpu-to-vulkan | kiln-vulkan-runner -",
      "kiln-vulkan-runner --list-devices"};
  static const llvm::cl::OptionCategory *categories[] = {&runCategory,
                                                         &runnerCategory};
  kiln::driver::ToolDescription tool{
      "kiln-vulkan-runner",
      "runs programs written with MLIR's gpu dialect on a Vulkan "
      "device: kernels through SPIR-V, the host JIT-compiled",
      "[options] <input.mlir>", examples, categories};
  if (std::optional<int> status =
          kiln::driver::parseCommandLine(argc, argv, tool))
    return *status;

  // The runtime reads its options when it first starts, which is after
  // this point; they win over its environment variables.
  kiln::rt::Options options;
  if (!device.empty())
    options.device = device;
  if (robustBufferAccess)
    options.robust = true;
  kiln::applyTimeoutOption(timeout, options);
  if (validate)
    options.validation = true;
  if (printTiming)
    options.timing = true;
  if (int status =
          kiln::configureRuntime(*kilnVulkanRuntime(), "kiln-vulkan", options))
    return status;
  if (listDevices)
    return kiln::listRuntimeDevices(*kilnVulkanRuntime(), "kiln-vulkan");
  if (printTargetEnv)
    return kiln::printRuntimeTarget(*kilnVulkanRuntime(), "kiln-vulkan");

  kiln::driver::TargetOptions target;
  target.target = kiln::driver::Target::Vulkan;
  target.targetEnv = targetEnv;
  target.use64BitIndex = use64BitIndex;
  target.bufferDeviceAddress = bufferDeviceAddress;
  target.fastMath = fastMath;
  target.mpi = mpi;
  auto lower = [&](ModuleOp module, TimingScope &timing) -> LogicalResult {
    // The device query below creates the Vulkan instance, which must have
    // debug printf if a kernel prints (unless the user said otherwise).
    if (programPrints(module) && !std::getenv("KILN_VULKAN_PRINTF")) {
      kiln::rt::Options printing;
      printing.printf = true;
      if (kiln::configureRuntime(*kilnVulkanRuntime(), "kiln-vulkan", printing))
        return failure();
    }
    return kiln::driver::lowerProgram(module, target, kilnVulkanRuntime(),
                                      tool.name, timing);
  };
  return kiln::driver::run(runner.options(argv[0], "libkiln_vulkan_runtime.so"),
                           lower, tool.name);
}

int main(int argc, char **argv) {
  return kiln::driver::onLargeStack([&] { return toolMain(argc, argv); });
}
