//===- kiln-cuda-runner.cpp - Run gpu.launch programs on CUDA -------------===//
//
// The Vulkan runner's interface (-e, --entry-point-result, --shared-libs,
// -O0..3, --device, --list-devices, --print-timing) on CUDA: the input
// (gpu.launch in func.func, outlined gpu.modules, or a module already in the
// LLVM dialect) is lowered with --kiln-gpu-to-cuda for the chip of the
// device it will run on, the host is JIT-compiled and linked against Kiln's
// CUDA runtime and MLIR's runner utilities (kiln::driver::run,
// lib/Driver/Run.cpp).
//
//===----------------------------------------------------------------------===//

#include "../RunnerMain.h"
#include "kiln/Driver/CommandLine.h"
#include "kiln/Driver/Compile.h"
#include "kiln/Driver/LargeStack.h"
#include "kiln/Driver/Run.h"
#include "kiln/Pipelines/Pipelines.h"
#include "kiln/Runtime/CUDARuntime.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir;

static llvm::cl::OptionCategory runCategory("Running");
static llvm::cl::OptionCategory runnerCategory("CUDA");

static llvm::cl::opt<std::string> device(
    "device",
    llvm::cl::desc("The program's CUDA devices, a comma-separated list "
                   "numbered 0..N-1 for gpu.set_default_device; each entry "
                   "an index from --list-devices, part of a name or a UUID, "
                   "and one device may be listed twice (default: device 0; "
                   "also KILN_CUDA_DEVICE)"),
    llvm::cl::value_desc("A[,B...]"), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<std::string>
    chip("chip",
         llvm::cl::desc("NVIDIA chip to compile for: 'device' (the device the "
                        "program runs on) or sm_XX"),
         llvm::cl::init("device"), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<std::string> features(
    "features",
    llvm::cl::desc("PTX features, e.g. +ptx80 (default: the oldest PTX the "
                   "chip accepts)"),
    llvm::cl::init(""), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<std::string> format(
    "format",
    llvm::cl::desc("Kernel format: ptx, cubin or fatbin (cubin and fatbin "
                   "need the CUDA toolkit's ptxas; without it PTX is used)"),
    llvm::cl::init("cubin"), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<std::string>
    cudaPath("cuda-path",
             llvm::cl::desc("CUDA toolkit root (default: $CUDA_PATH, $PATH, "
                            "/usr/local/cuda)"),
             llvm::cl::init(""), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<std::string> &timeout =
    kiln::timeoutOption(runnerCategory);
static llvm::cl::opt<std::string> &mpi = kiln::mpiOption(runCategory);
static llvm::cl::opt<bool> printTiming(
    "print-timing",
    llvm::cl::desc("Print each launch's GPU and host time on stderr"),
    llvm::cl::init(false), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<bool>
    listDevices("list-devices",
                llvm::cl::desc("List the CUDA devices and exit"),
                llvm::cl::cat(runnerCategory));
static llvm::cl::opt<bool>
    printChip("print-chip",
              llvm::cl::desc("Print the chosen device's chip (sm_XX) and exit"),
              llvm::cl::cat(runnerCategory));

static int toolMain(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  kiln::driver::RunnerCommandLine runner(runCategory);
  static const llvm::StringRef examples[] = {
      "kiln-cuda-runner prog.mlir",
      "kiln-cuda-runner prog.mlir --device=1 --print-timing",
      "kiln-opt prog.mlir --kiln-gpu-to-cuda | kiln-cuda-runner -",
      "kiln-cuda-runner --list-devices"};
  static const llvm::cl::OptionCategory *categories[] = {&runCategory,
                                                         &runnerCategory};
  kiln::driver::ToolDescription tool{
      "kiln-cuda-runner",
      "runs programs written with MLIR's gpu dialect on an "
      "NVIDIA GPU: kernels through NVVM and PTX, the host "
      "JIT-compiled",
      "[options] <input.mlir>", examples, categories};
  if (std::optional<int> status =
          kiln::driver::parseCommandLine(argc, argv, tool))
    return *status;

  // The runtime reads its options when it first starts, which is after
  // this point (or in the device query below); they win over its
  // environment variables.
  kiln::rt::Options options;
  if (!device.empty())
    options.device = device;
  if (printTiming)
    options.timing = true;
  kiln::applyTimeoutOption(timeout, options);
  if (int status =
          kiln::configureRuntime(*kilnCudaRuntime(), "kiln-cuda", options))
    return status;
  if (listDevices)
    return kilnCudaListDevices(); // Also an error when there are none.
  if (printChip)
    return kiln::printRuntimeTarget(*kilnCudaRuntime(), "kiln-cuda");

  kiln::driver::TargetOptions target;
  target.target = kiln::driver::Target::CUDA;
  target.chip = chip;
  target.features = features;
  target.format = format;
  target.cudaPath = cudaPath;
  target.mpi = mpi;
  auto lower = [&](ModuleOp module, TimingScope &timing) -> LogicalResult {
    return kiln::driver::lowerProgram(module, target, kilnCudaRuntime(),
                                      tool.name, timing);
  };
  return kiln::driver::run(runner.options(argv[0], "libkiln_cuda_runtime.so"),
                           lower, tool.name);
}

int main(int argc, char **argv) {
  return kiln::driver::onLargeStack([&] { return toolMain(argc, argv); });
}
