//===- kiln-cuda-runner.cpp - Run gpu.launch programs on CUDA -------------===//
//
// The Vulkan runner's interface (-e, --entry-point-result, --shared-libs,
// -O0..3, --device, --list-devices, --print-timing) on CUDA: the input
// (gpu.launch in func.func, outlined gpu.modules, or a module already in the
// LLVM dialect) is lowered with --kiln-gpu-to-cuda for the chip of the
// device it will run on, the host is JIT-compiled by MLIR's ExecutionEngine
// and linked against Kiln's CUDA runtime and MLIR's runner utilities.
//
//===----------------------------------------------------------------------===//

#include "../RunnerMain.h"
#include "kiln/Pipelines/Pipelines.h"
#include "kiln/Runtime/CUDARuntime.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir;

static llvm::cl::OptionCategory runnerCategory("kiln-cuda-runner options");

static llvm::cl::opt<std::string> device(
    "device",
    llvm::cl::desc("CUDA device: an index from --list-devices or part of its "
                   "name (default: 0)"),
    llvm::cl::cat(runnerCategory));
static llvm::cl::opt<std::string> chip(
    "chip",
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
static llvm::cl::opt<std::string> cudaPath(
    "cuda-path",
    llvm::cl::desc("CUDA toolkit root (default: $CUDA_PATH, $PATH, "
                   "/usr/local/cuda)"),
    llvm::cl::init(""), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<std::string> &timeout =
    kiln::timeoutOption(runnerCategory);
static llvm::cl::opt<bool> printTiming(
    "print-timing",
    llvm::cl::desc("Print each launch's GPU and host time on stderr"),
    llvm::cl::init(false), llvm::cl::cat(runnerCategory));
// Handled before the JIT runner sees the command line; declared so that
// --help lists them.
static llvm::cl::opt<bool> listDevices(
    "list-devices", llvm::cl::desc("List the CUDA devices and exit"),
    llvm::cl::cat(runnerCategory));
static llvm::cl::opt<bool> printChip(
    "print-chip",
    llvm::cl::desc("Print the chosen device's chip (sm_XX) and exit"),
    llvm::cl::cat(runnerCategory));

static LogicalResult lowerForCUDA(Operation *module, JitRunnerOptions &) {
  // The runtime reads its configuration when it first starts, which is
  // after this point (or in the device query below).
  if (!device.empty())
    setenv("KILN_CUDA_DEVICE", device.c_str(), 1);
  if (printTiming)
    setenv("KILN_CUDA_TIMING", "1", 1);
  kiln::applyTimeoutOption(timeout);
  if (kiln::isLoweredToLLVM(module))
    return success();
  kiln::GPUToNVVMPipelineOptions options;
  if (chip == "device") {
    kiln::rt::Expected<std::string> deviceChip =
        kilnCudaRuntime()->deviceTarget();
    if (!deviceChip) {
      kiln::reportRuntimeError("kiln-cuda", deviceChip.error());
      return failure();
    }
    options.chip = *deviceChip;
  } else {
    options.chip = chip;
  }
  options.features = features;
  options.format = format;
  options.cudaPath = cudaPath;
  return kiln::runLowering(module, [&](OpPassManager &pm) {
    kiln::buildGPUToCUDAPassPipeline(pm, options);
  });
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  std::string wanted = kiln::flagValue(argc, argv, "device");
  if (!wanted.empty())
    setenv("KILN_CUDA_DEVICE", wanted.c_str(), 1);
  if (kiln::hasFlag(argc, argv, "list-devices"))
    return kilnCudaListDevices(); // Also an error when there are none.
  if (kiln::hasFlag(argc, argv, "print-chip"))
    return kiln::printRuntimeTarget(*kilnCudaRuntime(), "kiln-cuda");
  JitRunnerConfig config;
  config.mlirTransformer = lowerForCUDA;
  return kiln::runJitRunner(argc, argv, "libkiln_cuda_runtime.so", config);
}
