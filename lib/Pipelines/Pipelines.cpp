//===- Pipelines.cpp - Kiln's pass pipelines ------------------------------===//

#include "kiln/Pipelines/Pipelines.h"
#include "kiln/Conversion/GPUToNVVM/Passes.h"
#include "kiln/Conversion/GPUToSPIRV/Passes.h"
#include "kiln/Host/Passes.h"
#include "kiln/Target/NVVM/Passes.h"
#include "kiln/Target/SPIRV/Passes.h"
#include "kiln/Target/SPIRVCPU/Passes.h"
#include "kiln/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/AsyncToLLVM/AsyncToLLVM.h"
#include "mlir/Dialect/Async/Passes.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

/// What both targets lower the same way, in every GPU module: device
/// functions inlined into their kernels, workgroup-memory allocations as
/// workgroup attributions, gpu.all_reduce as a workgroup tree.
/// On Vulkan this runs after the kernel ABI has fixed each kernel's
/// workgroup size, so reductions size their buffers from it.
static void addKernelFeatureLowering(OpPassManager &pm) {
  OpPassManager &gpu = pm.nest<gpu::GPUModuleOp>();
  gpu.addPass(kiln::createKilnInlineDeviceFunctions());
  gpu.addPass(kiln::createKilnWorkgroupAllocsToAttributions());
  gpu.addPass(kiln::createKilnLowerAllReduce());
}

void kiln::buildGPUToSPIRVDevicePassPipeline(
    OpPassManager &pm, const GPUToSPIRVPipelineOptions &options) {
  pm.addPass(kiln::createKilnPrepareLaunches());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createKilnAttachSPIRVTargetEnv(
      KilnAttachSPIRVTargetEnvOptions{options.targetEnv}));
  pm.addPass(createKilnSPIRVKernelABI(KilnSPIRVKernelABIOptions{
      options.use64BitIndex, options.bufferDeviceAddress}));
  addKernelFeatureLowering(pm);
  KilnExpandKernelOpsOptions expand;
  expand.target = "spirv";
  expand.indexBits = options.use64BitIndex ? 64 : 32;
  pm.nest<gpu::GPUModuleOp>().addPass(createKilnExpandKernelOps(expand));
  // Its index width is the one kiln-spirv-kernel-abi wrote into kiln.abi.
  pm.addPass(createKilnConvertGPUToSPIRV());
  OpPassManager &spv = pm.nest<gpu::GPUModuleOp>().nest<spirv::ModuleOp>();
  spv.addPass(spirv::createSPIRVLowerABIAttributesPass());
  if (!options.fastMath)
    spv.addPass(createKilnSPIRVFloatControls());
  spv.addPass(createKilnTidySPIRV());
  spv.addPass(createCanonicalizerPass());
  spv.addPass(createCSEPass());
  spv.addPass(spirv::createSPIRVUpdateVCEPass());
  spv.addPass(createKilnSPIRVBuiltinCapabilities());
}

void kiln::buildGPUToSPIRVPassPipeline(
    OpPassManager &pm, const GPUToSPIRVPipelineOptions &options) {
  buildGPUToSPIRVDevicePassPipeline(pm, options);
  KilnSerializeSPIRVOptions serialize;
  serialize.validate = options.validate;
  pm.addPass(createKilnSerializeSPIRV(serialize));
}

void kiln::buildHostToLLVMPassPipeline(OpPassManager &pm) {
  // shard's communication ops to mpi ops (and memref copies, linalg.copy,
  // scf and affine ops the passes below lower); nothing changes in a
  // program without shard ops.
  pm.addPass(kiln::createKilnShardToMPI());
  // @a::@b_c and @a_b::@c would share a kernel name global in the LLVM
  // translation of gpu.launch_func.
  pm.addPass(kiln::createKilnUniqueKernelNames());
  OpPassManager &fn = pm.nest<func::FuncOp>();
  fn.addPass(createConvertLinalgToLoopsPass());
  // gpu-to-llvm lowers the async forms of gpu.alloc / memcpy / memset /
  // dealloc; make the synchronous ones async on one stream per function
  // (gpu-async-region, without its waits that defer nothing and without
  // waiting on one stream twice).
  fn.addPass(kiln::createKilnGPUAsyncRegion());
  // Launches on several streams have several dependencies; gpu-to-llvm
  // takes one.
  pm.addPass(kiln::createKilnMergeAsyncDependencies());
  pm.addPass(createKilnSyncHostSharedAlloc());
  pm.addPass(createKilnHostGPUGlobalMemorySpace());
  // Host subviews with run-time offsets expand to affine.apply: expand
  // first, then lower affine.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  // Math on the host: what MLIR's LLVM lowering lacks (clampf, isnormal;
  // ipowi and fpowi as functions), then the C library for what has no LLVM
  // intrinsic (erf, cbrt, atan2, ...) and where the intrinsic-based
  // lowering loses precision (expm1 and log1p as exp(x) - 1, log(1 + x)).
  KilnExpandKernelOpsOptions hostMath;
  hostMath.target = "host";
  pm.addPass(createKilnExpandKernelOps(hostMath));
  pm.addPass(createConvertMathToFuncs());
  // mpi ops to calls of Kiln's MPI runtime (include/kiln/Contract/MPIABI.h),
  // for the MPI the module's #dlti.map<"MPI:Implementation"> names (Open MPI
  // where it names none; the driver's --mpi sets it). It must come before
  // gpu-to-llvm and convert-to-llvm, which apply upstream's MPI patterns to
  // any mpi op left.
  pm.addPass(kiln::createKilnMPIToLLVM());
  // Non-bare kernel arguments: the memref descriptor convention
  // (docs/abi.md). The gpu.binary's default #gpu.select_object handler
  // embeds the container and loads it with mgpuModuleLoad.
  GpuToLLVMConversionPassOptions gpuToLLVM;
  gpuToLLVM.hostBarePtrCallConv = false;
  gpuToLLVM.kernelBarePtrCallConv = false;
  pm.addPass(createGpuToLLVMConversionPass(gpuToLLVM));
  // async.execute host code: coroutines on the async runtime
  // (libmlir_async_runtime for the JIT runners, Kiln's own in executables;
  // docs/abi.md). Nothing changes in a program without async ops.
  pm.addPass(createAsyncToAsyncRuntimePass());
  pm.addPass(createAsyncRuntimeRefCountingPass());
  pm.addPass(createAsyncRuntimeRefCountingOptPass());
  pm.addPass(createConvertAsyncToLLVMPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void kiln::buildGPUToVulkanPassPipeline(
    OpPassManager &pm, const GPUToSPIRVPipelineOptions &options) {
  buildGPUToSPIRVPassPipeline(pm, options);
  buildHostToLLVMPassPipeline(pm);
}

void kiln::buildGPUToSPIRVCPUKernelPassPipeline(
    OpPassManager &pm, const GPUToSPIRVCPUPipelineOptions &options) {
  GPUToSPIRVPipelineOptions spirv;
  spirv.targetEnv = options.targetEnv;
  spirv.use64BitIndex = options.use64BitIndex;
  spirv.bufferDeviceAddress = options.bufferDeviceAddress;
  spirv.validate = options.validate;
  spirv.fastMath = options.fastMath;
  buildGPUToSPIRVDevicePassPipeline(pm, spirv);
  pm.addPass(createKilnSPIRVToCPU(
      KilnSPIRVToCPUOptions{options.checked, options.unboundedAccess}));
  KilnSerializeSPIRVOptions serialize;
  serialize.validate = options.validate;
  pm.addPass(createKilnSerializeSPIRV(serialize));
}

void kiln::buildGPUToSPIRVCPUPassPipeline(
    OpPassManager &pm, const GPUToSPIRVCPUPipelineOptions &options) {
  buildGPUToSPIRVCPUKernelPassPipeline(pm, options);
  buildHostToLLVMPassPipeline(pm);
}

void kiln::buildGPUToNVVMDevicePassPipeline(
    OpPassManager &pm, const GPUToNVVMPipelineOptions &options) {
  pm.addPass(kiln::createKilnPrepareLaunches());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  KilnAttachNVVMTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createKilnAttachNVVMTarget(target));
  addKernelFeatureLowering(pm);
  pm.addPass(kiln::createKilnCheckCUDALimits());
  OpPassManager &gpu = pm.nest<gpu::GPUModuleOp>();
  KilnExpandKernelOpsOptions expand;
  expand.target = "nvvm";
  expand.indexBits = 64;
  gpu.addPass(createKilnExpandKernelOps(expand));
  gpu.addPass(createKilnLowerSubgroupReduce());
  gpu.addPass(createKilnLowerShuffle());
  gpu.addPass(memref::createExpandStridedMetadataPass());
  gpu.addPass(createLowerAffinePass());
  gpu.addPass(createConvertVectorToSCFPass());
  gpu.addPass(createSCFToControlFlowPass());
  // Memref kernel arguments keep the descriptor convention, as on Vulkan:
  // the host lowering is the same for both targets.
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = false;
  gpu.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  // What convert-gpu-to-nvvm leaves of math (it lowers the functions
  // libdevice has): ctlz, cttz, ctpop, absi, trunc, ... as LLVM intrinsics.
  gpu.addPass(createConvertMathToLLVMPass());
  gpu.addPass(createCanonicalizerPass());
  gpu.addPass(createReconcileUnrealizedCastsPass());
}

void kiln::buildGPUToNVVMPassPipeline(OpPassManager &pm,
                                      const GPUToNVVMPipelineOptions &options) {
  buildGPUToNVVMDevicePassPipeline(pm, options);
  KilnNVVMToBinaryOptions binary;
  binary.format = options.format;
  binary.cudaPath = options.cudaPath;
  pm.addPass(createKilnNVVMToBinary(binary));
}

void kiln::buildGPUToCUDAPassPipeline(OpPassManager &pm,
                                      const GPUToNVVMPipelineOptions &options) {
  buildGPUToNVVMPassPipeline(pm, options);
  pm.addPass(createKilnRegisterHostMemRefs());
  buildHostToLLVMPassPipeline(pm);
}

bool kiln::isLoweredToLLVM(Operation *module) {
  WalkResult result = module->walk([&](Operation *op) {
    if (op == module || isa<gpu::BinaryOp>(op))
      return WalkResult::advance();
    Dialect *dialect = op->getDialect();
    if (!dialect || dialect->getNamespace() != "llvm")
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

void kiln::registerKilnPipelines() {
  PassPipelineRegistration<GPUToSPIRVPipelineOptions>(
      "kiln-gpu-to-vulkan",
      "Lower a program with gpu.launch kernels for Kiln's Vulkan runtime: "
      "kernels to SPIR-V in gpu.binary ops, the host to the LLVM dialect "
      "calling the mgpu* runtime ABI",
      buildGPUToVulkanPassPipeline);
  PassPipelineRegistration<GPUToSPIRVPipelineOptions>(
      "kiln-gpu-to-spirv",
      "Outline gpu.launch kernels and lower them to validated SPIR-V in one "
      "gpu.binary per GPU module",
      buildGPUToSPIRVPassPipeline);
  PassPipelineRegistration<GPUToSPIRVCPUPipelineOptions>(
      "kiln-gpu-to-spirv-cpu",
      "Lower a program with gpu.launch kernels for Kiln's spirv-cpu runtime: "
      "kernels to validated SPIR-V, then to host functions that run every "
      "invocation on the CPU; the host to the LLVM dialect calling the mgpu* "
      "runtime ABI",
      buildGPUToSPIRVCPUPassPipeline);
  PassPipelineRegistration<GPUToNVVMPipelineOptions>(
      "kiln-gpu-to-cuda",
      "Lower a program with gpu.launch kernels for Kiln's CUDA runtime: "
      "kernels to PTX, cubin or fatbin in gpu.binary ops, host memrefs "
      "registered around their launches, the host to the LLVM dialect "
      "calling the mgpu* runtime ABI",
      buildGPUToCUDAPassPipeline);
  PassPipelineRegistration<GPUToNVVMPipelineOptions>(
      "kiln-gpu-to-nvvm",
      "Outline gpu.launch kernels, lower them to NVVM for a checked "
      "#nvvm.target and serialize one gpu.binary per GPU module",
      buildGPUToNVVMPassPipeline);
}
