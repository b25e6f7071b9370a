//===- ConvertGPUToSPIRV.cpp - GPU modules to nested spirv.modules --------===//
//
// Upstream has the patterns but only a test pass that nests the result in the
// GPU module; this pass composes them, adds Kiln's push-constant ABI for
// scalars and dynamic memrefs, and explains ops that do not lower.
//
// This file holds the pass and the order of its steps; the steps live in the
// files that ConversionSteps.h lists.
//
//===----------------------------------------------------------------------===//

#include "ConversionSteps.h"
#include "LowerPrintf.h"
#include "VectorMemory.h"
#include "kiln/Conversion/GPUToSPIRV/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/ScopeExit.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCONVERTGPUTOSPIRV
#include "kiln/Conversion/GPUToSPIRV/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;
using container::ArgInfo;

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// The SPIR-V loop control that an scf.for's `loop_annotation` (an
/// #llvm.loop_annotation, which the NVVM path hands to LLVM) asks for:
/// Unroll for a full or counted unroll, DontUnroll for a disabled one.
static std::optional<spirv::LoopControl> loopControlOf(scf::ForOp loop) {
  auto annotation =
      loop->getAttrOfType<LLVM::LoopAnnotationAttr>("loop_annotation");
  LLVM::LoopUnrollAttr unroll =
      annotation ? annotation.getUnroll() : LLVM::LoopUnrollAttr();
  if (!unroll)
    return std::nullopt;
  if (unroll.getDisable() && unroll.getDisable().getValue())
    return spirv::LoopControl::DontUnroll;
  if ((unroll.getFull() && unroll.getFull().getValue()) || unroll.getCount())
    return spirv::LoopControl::Unroll;
  return std::nullopt;
}

/// Makes the storage buffers of `fn` (a kernel of the clone) that qualify
/// arrays of vectors (VectorMemory.h) and records each one's base alignment
/// in the kernel ABI of the original kernel in `gpuModule`, which the
/// container carries to the runtime. Arguments bound by device address stay
/// as they are.
static LogicalResult vectorizeKernelBuffers(gpu::GPUFuncOp fn,
                                            gpu::GPUModuleOp gpuModule) {
  SmallVector<unsigned> byAddress;
  if (auto pairs = fn->getAttrOfType<DenseI32ArrayAttr>(kAddressArgsAttr))
    for (int64_t i = 0; i + 1 < pairs.size(); i += 2)
      byAddress.push_back(unsigned(pairs[i]));
  SmallVector<VectorizedBuffer> buffers =
      vectorizeStorageBuffers(fn, byAddress);
  if (buffers.empty())
    return success();
  // Not lookupSymbol: the clone, nested in the GPU module, may have the
  // kernel's name.
  gpu::GPUFuncOp original;
  for (auto candidate : gpuModule.getOps<gpu::GPUFuncOp>())
    if (candidate.getName() == fn.getName())
      original = candidate;
  if (!original)
    return fn.emitError("kernel '")
           << fn.getName() << "' has no original in its GPU module";
  FailureOr<KernelABI> abi = KernelABI::read(original);
  if (failed(abi))
    return failure();
  for (const VectorizedBuffer &buffer : buffers)
    for (ArgInfo &a : abi->args)
      if (container::isDescriptorKind(a.kind) && a.set == buffer.set &&
          a.binding == buffer.binding)
        a.baseAlignment = buffer.vectorBytes;
  original->setAttr(kKernelABIAttrName, abi->toAttr(original));
  return success();
}

namespace {
class ConvertGPUToSPIRVPass
    : public kiln::impl::KilnConvertGPUToSPIRVBase<ConvertGPUToSPIRVPass> {
public:
  using Base::Base;
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registry.insert<affine::AffineDialect, vector::VectorDialect,
                    scf::SCFDialect, cf::ControlFlowDialect, ub::UBDialect>();
  }
  void runOnOperation() override;

private:
  LogicalResult rewriteKernels(gpu::GPUModuleOp clone,
                               gpu::GPUModuleOp gpuModule,
                               spirv::TargetEnvAttr env);
  LogicalResult convertModule(gpu::GPUModuleOp gpuModule,
                              spirv::TargetEnvAttr env);
};
} // namespace

/// The index width of the kernels of `gpuModule` (their `kiln.abi`'s
/// index_bits), which must agree; 32 without kernels.
static FailureOr<bool> moduleUses64BitIndex(gpu::GPUModuleOp gpuModule) {
  std::optional<unsigned> bits;
  for (auto fn : gpuModule.getOps<gpu::GPUFuncOp>()) {
    if (!fn.isKernel())
      continue;
    FailureOr<KernelABI> abi = KernelABI::read(fn);
    if (failed(abi))
      return failure();
    if (bits && *bits != abi->indexBits)
      return fn.emitError("kernel '")
             << fn.getName() << "' has " << abi->indexBits
             << "-bit index push constants, but another kernel of GPU "
                "module '"
             << gpuModule.getName() << "' has " << *bits
             << "-bit ones; one SPIR-V module has one index width";
    bits = abi->indexBits;
  }
  return bits.value_or(32) == 64;
}

/// Rewrites the functions of `clone` (nested in `gpuModule`) into what the
/// conversion takes: structured control flow, checked kernels with the
/// push-constant signature, emulated narrow integer ops widened, memory read
/// with aligned vectors as arrays of vectors.
LogicalResult ConvertGPUToSPIRVPass::rewriteKernels(gpu::GPUModuleOp clone,
                                                    gpu::GPUModuleOp gpuModule,
                                                    spirv::TargetEnvAttr env) {
  for (auto fn : clone.getOps<gpu::GPUFuncOp>()) {
    if (failed(liftControlFlow(fn)))
      return failure();
    lowerIndexSwitches(fn);
  }
  for (auto fn : clone.getOps<gpu::GPUFuncOp>()) {
    if (!fn.isKernel())
      continue;
    if (failed(checkNarrowFloatStorage(fn, env)) ||
        failed(checkUnsupportedOps(fn)) || failed(checkGenericAtomics(fn)) ||
        failed(materializeAttributions(fn)))
      return failure();
    FailureOr<KernelABI> abi = KernelABI::read(fn);
    if (failed(abi) || failed(rewriteKernelSignature(fn, *abi)))
      return failure();
    // The clone's signature is the converted one now; the original kernel
    // keeps the ABI.
    fn->removeAttr(kKernelABIAttrName);
  }
  for (auto fn : clone.getOps<gpu::GPUFuncOp>())
    widenEmulatedIntegerOps(fn, env);

  // Fold static subviews into accesses and clean up index arithmetic, so
  // that vector accesses to workgroup memory show their alignment.
  OpPassManager pm(gpu::GPUModuleOp::getOperationName());
  pm.addPass(memref::createFoldMemRefAliasOpsPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());
  if (failed(runPipeline(pm, clone)))
    return failure();
  for (auto fn : clone.getOps<gpu::GPUFuncOp>()) {
    vectorizeWorkgroupMemory(fn);
    if (fn.isKernel() && failed(vectorizeKernelBuffers(fn, gpuModule)))
      return failure();
    scalarizeVectorAccesses(fn);
  }
  OpPassManager tidy(gpu::GPUModuleOp::getOperationName());
  tidy.addPass(createCanonicalizerPass());
  tidy.addPass(createCSEPass());
  if (failed(runPipeline(tidy, clone)))
    return failure();
  return success();
}

LogicalResult ConvertGPUToSPIRVPass::convertModule(gpu::GPUModuleOp gpuModule,
                                                   spirv::TargetEnvAttr env) {
  MLIRContext *ctx = &getContext();
  FailureOr<bool> indexIs64 = moduleUses64BitIndex(gpuModule);
  if (failed(indexIs64))
    return failure();
  bool use64BitIndex = *indexIs64;
  // Work on a clone nested in the original: the host's launches keep
  // verifying against the original gpu.funcs.
  OpBuilder b = OpBuilder::atBlockBegin(gpuModule.getBody());
  auto clone = cast<gpu::GPUModuleOp>(b.clone(*gpuModule));
  llvm::scope_exit eraseClone([&] {
    if (clone)
      clone.erase();
  });
  if (failed(rewriteKernels(clone, gpuModule, env)))
    return failure();
  SmallVector<std::string> printfFormats;
  if (failed(lowerPrintfToStubs(clone, env, use64BitIndex, printfFormats)))
    return failure();

  // Keep an unconverted copy, outside the IR, to explain failures with.
  OwningOpRef<ModuleOp> pristine = ModuleOp::create(clone.getLoc());
  OpBuilder::atBlockBegin(pristine->getBody()).clone(*clone);

  // Loop annotations (what `#pragma unroll` is in CUDA C++) for the
  // spirv.mlir.loops the conversion makes of their scf.for. The conversion
  // gives a loop, and what it creates for it, the scf.for's location; an
  // annotated loop's is made unique for the conversion (loops may share
  // one) and is restored after it.
  DenseMap<Location, std::pair<Location, spirv::LoopControl>> loopControls;
  clone.walk([&](scf::ForOp loop) {
    std::optional<spirv::LoopControl> control = loopControlOf(loop);
    if (!control)
      return;
    Location marker = NameLoc::get(
        StringAttr::get(ctx, "kiln.loop_control." +
                                 Twine(unsigned(loopControls.size()))),
        loop.getLoc());
    loopControls.try_emplace(marker, loop.getLoc(), *control);
    loop->setLoc(marker);
  });

  if (failed(convertCloneOrExplain(clone, *pristine, gpuModule, env,
                                   use64BitIndex)))
    return failure();

  // The clone is a spirv.module now; give its entry points push constants.
  spirv::ModuleOp spvModule;
  for (auto m : gpuModule.getOps<spirv::ModuleOp>())
    spvModule = m;
  clone = nullptr; // Replaced by the conversion.
  if (!spvModule)
    return gpuModule.emitError("conversion left no spirv.module");
  // Upstream picks PhysicalStorageBuffer64 whenever the target env allows
  // it, which would make every kernel need bufferDeviceAddress; only a
  // module with arguments bound by address gets it (below).
  spvModule.setAddressingModel(spirv::AddressingModel::Logical);
  if (!printfFormats.empty())
    spvModule->setAttr(kDebugPrintfFormatsAttr,
                       Builder(ctx).getStrArrayAttr(
                           llvm::to_vector_of<StringRef>(printfFormats)));
  for (auto fn : llvm::make_early_inc_range(spvModule.getOps<spirv::FuncOp>()))
    if (failed(materializePushConstants(fn)))
      return failure();
  if (!loopControls.empty())
    spvModule.walk([&](Block *block) {
      for (BlockArgument arg : block->getArguments())
        if (auto it = loopControls.find(arg.getLoc()); it != loopControls.end())
          arg.setLoc(it->second.first);
      for (Operation &op : *block) {
        auto it = loopControls.find(op.getLoc());
        if (it == loopControls.end())
          continue;
        if (auto loop = dyn_cast<spirv::LoopOp>(op))
          loop.setLoopControl(it->second.second);
        op.setLoc(it->second.first);
      }
    });
  return success();
}

void ConvertGPUToSPIRVPass::runOnOperation() {
  SmallVector<gpu::GPUModuleOp> modules;
  getOperation().walk([&](gpu::GPUModuleOp m) {
    if (spirv::lookupTargetEnv(m))
      modules.push_back(m);
  });
  bool failed = false;
  for (gpu::GPUModuleOp m : modules)
    failed |= mlir::failed(convertModule(m, spirv::lookupTargetEnv(m)));
  if (failed)
    signalPassFailure();
}
