//===- CloneConversion.cpp - The conversion of a clone to SPIR-V ----------===//
//
// The patterns, type converter and target that turn the clone of a GPU
// module into a spirv.module, and, when that fails, the explanation: a copy
// is converted for a permissive target env, and each op that failed is
// reported with what its lowering needs that the real target env lacks.
//
//===----------------------------------------------------------------------===//

#include "ArithMathPatterns.h"
#include "ConversionSteps.h"
#include "MemorySpaces.h"
#include "VectorMemory.h"
#include "kiln/Conversion/Unconvertible.h"
#include "kiln/Target/SPIRV/TargetEnvs.h"

#include "mlir/Conversion/ArithToSPIRV/ArithToSPIRV.h"
#include "mlir/Conversion/ControlFlowToSPIRV/ControlFlowToSPIRV.h"
#include "mlir/Conversion/FuncToSPIRV/FuncToSPIRV.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRV.h"
#include "mlir/Conversion/IndexToSPIRV/IndexToSPIRV.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRV.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRV.h"
#include "mlir/Conversion/SCFToSPIRV/SCFToSPIRV.h"
#include "mlir/Conversion/UBToSPIRV/UBToSPIRV.h"
#include "mlir/Conversion/VectorToSPIRV/VectorToSPIRV.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace kiln;

static void populatePatterns(const SPIRVTypeConverter &typeConverter,
                             ScfToSPIRVContext &scfContext,
                             RewritePatternSet &patterns) {
  populateGPUToSPIRVPatterns(typeConverter, patterns);
  kiln::populateSubgroupToGroupNonUniformPatterns(typeConverter, patterns);
  kiln::populateGenericAtomicRMWPatterns(typeConverter, patterns);
  populateSCFToSPIRVPatterns(typeConverter, scfContext, patterns);
  cf::populateControlFlowToSPIRVPatterns(typeConverter, patterns);
  arith::populateArithToSPIRVPatterns(typeConverter, patterns);
  populateMathToSPIRVPatterns(typeConverter, patterns);
  populateMemRefToSPIRVPatterns(typeConverter, patterns);
  populateFuncToSPIRVPatterns(typeConverter, patterns);
  // The debug printf stubs (LowerPrintf.h) are func.funcs.
  populateBuiltinFuncToSPIRVPatterns(typeConverter, patterns);
  populateVectorToSPIRVPatterns(typeConverter, patterns);
  index::populateIndexToSPIRVPatterns(typeConverter, patterns);
  ub::populateUBToSPIRVConversionPatterns(typeConverter, patterns);
  kiln::populateArithMathToSPIRVPatterns(typeConverter, patterns);
}

/// Converts `clone` (a gpu.module) into a spirv.module in place.
namespace {
/// The conversion of one clone: its target, types and patterns.
struct CloneConversion {
  std::unique_ptr<ConversionTarget> target;
  std::unique_ptr<SPIRVTypeConverter> typeConverter;
  ScfToSPIRVContext scfContext;
  std::unique_ptr<FrozenRewritePatternSet> patterns;
};
} // namespace

/// Gives `clone` the target env and its memrefs storage classes, and sets up
/// its conversion.
static std::unique_ptr<CloneConversion> prepareClone(gpu::GPUModuleOp clone,
                                                     spirv::TargetEnvAttr env,
                                                     bool use64BitIndex) {
  MLIRContext *ctx = clone.getContext();
  clone->setAttr(spirv::getTargetEnvAttrName(), env);
  spirv::MemorySpaceToStorageClassConverter memorySpaces(mapMemorySpace);
  spirv::convertMemRefTypesAndAttrs(clone, memorySpaces);
  markVectorMemoryTypes(clone);

  auto c = std::make_unique<CloneConversion>();
  c->target = SPIRVConversionTarget::get(env);
  SPIRVConversionOptions options;
  options.use64bitIndex = use64BitIndex;
  c->typeConverter = std::make_unique<SPIRVTypeConverter>(env, options);
  RewritePatternSet patterns(ctx);
  populatePatterns(*c->typeConverter, c->scfContext, patterns);
  populateVectorMemoryPatterns(*c->typeConverter, patterns);
  c->patterns = std::make_unique<FrozenRewritePatternSet>(std::move(patterns));
  return c;
}

/// Converts `clone` for `env`: what explainFailures tries again with a
/// permissive target env.
static LogicalResult convertClone(gpu::GPUModuleOp clone,
                                  spirv::TargetEnvAttr env,
                                  bool use64BitIndex) {
  std::unique_ptr<CloneConversion> c = prepareClone(clone, env, use64BitIndex);
  return applyFullConversion(clone.getOperation(), *c->target, *c->patterns);
}

namespace {
/// What a converted op needs that a target env does not have.
struct Missing {
  llvm::SetVector<spirv::Capability> capabilities;
  llvm::SetVector<spirv::Extension> extensions;
  std::optional<spirv::Version> version;
  bool empty() const {
    return capabilities.empty() && extensions.empty() && !version;
  }
};
} // namespace

static void collectMissing(Operation *op, const spirv::TargetEnv &target,
                           Missing &missing) {
  auto addCaps = [&](ArrayRef<ArrayRef<spirv::Capability>> caps) {
    for (ArrayRef<spirv::Capability> anyOf : caps)
      if (!anyOf.empty() && !target.allows(anyOf))
        missing.capabilities.insert(anyOf.front());
  };
  auto addExts = [&](ArrayRef<ArrayRef<spirv::Extension>> exts) {
    for (ArrayRef<spirv::Extension> anyOf : exts)
      if (!anyOf.empty() && !target.allows(anyOf))
        missing.extensions.insert(anyOf.front());
  };
  // Float atomic add: the capability of the element's width, where the op
  // lists all three as alternatives.
  if (auto add = dyn_cast<spirv::EXTAtomicFAddOp>(op)) {
    unsigned width = add.getType().getIntOrFloatBitWidth();
    spirv::Capability cap = width == 16 ? spirv::Capability::AtomicFloat16AddEXT
                            : width == 64
                                ? spirv::Capability::AtomicFloat64AddEXT
                                : spirv::Capability::AtomicFloat32AddEXT;
    if (!target.allows(cap))
      missing.capabilities.insert(cap);
  } else if (auto q = dyn_cast<spirv::QueryCapabilityInterface>(op)) {
    addCaps(q.getCapabilities());
  }
  if (auto q = dyn_cast<spirv::QueryExtensionInterface>(op))
    addExts(q.getExtensions());
  if (auto q = dyn_cast<spirv::QueryMinVersionInterface>(op))
    if (std::optional<spirv::Version> v = q.getMinVersion())
      if (*v > target.getVersion())
        missing.version = *v;
  auto addType = [&](Type type) {
    auto spvType = dyn_cast<spirv::SPIRVType>(type);
    if (!spvType)
      return;
    SmallVector<ArrayRef<spirv::Capability>> caps;
    SmallVector<ArrayRef<spirv::Extension>> exts;
    spvType.getCapabilities(caps);
    spvType.getExtensions(exts);
    addCaps(caps);
    addExts(exts);
  };
  for (Type t : op->getResultTypes())
    addType(t);
  for (Type t : op->getOperandTypes())
    addType(t);
  // Kernel arguments: the buffers' types are on the function.
  if (auto fn = dyn_cast<spirv::FuncOp>(op))
    for (Type t : fn.getFunctionType().getInputs())
      addType(t);
}

/// Explains why ops of the gpu.module in `pristine` (a copy of the clone
/// before conversion)
/// failed to lower for `env`: converts it for a target env with every
/// capability and reports what the ops at the failed locations need.
static void explainFailures(ModuleOp pristine, spirv::TargetEnvAttr env,
                            bool use64BitIndex,
                            ArrayRef<std::pair<Location, std::string>> failed) {
  MLIRContext *ctx = pristine.getContext();
  bool permissiveOk;
  {
    ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
    auto copy = *pristine.getOps<gpu::GPUModuleOp>().begin();
    permissiveOk = succeeded(
        convertClone(copy, getPermissiveTargetEnv(env), use64BitIndex));
  }
  spirv::TargetEnv target(env);
  std::string envText;
  {
    llvm::raw_string_ostream os(envText);
    os << "SPIR-V " << spirv::stringifyVersion(env.getVersion());
  }
  for (const auto &failure : failed) {
    Location loc = failure.first;
    const std::string &opName = failure.second;
    Missing missing;
    if (permissiveOk)
      pristine->walk([&](Operation *op) {
        if (op->getLoc() == loc && op->getDialect() &&
            op->getDialect()->getNamespace() == "spirv")
          collectMissing(op, target, missing);
      });
    InFlightDiagnostic diag = emitError(loc) << "'" << opName << "'";
    if (missing.empty()) {
      diag << " has no SPIR-V lowering in Kiln (the Vulkan and spirv-cpu "
              "targets) for this target env ("
           << envText << ")";
      continue;
    }
    diag << " cannot be lowered to SPIR-V for this target env (" << envText
         << "): it needs";
    SmallVector<std::string> needs;
    if (missing.version)
      needs.push_back(
          ("SPIR-V " + spirv::stringifyVersion(*missing.version)).str());
    for (spirv::Capability c : missing.capabilities)
      needs.push_back(("capability " + spirv::stringifyCapability(c)).str());
    for (spirv::Extension e : missing.extensions)
      needs.push_back(("extension " + spirv::stringifyExtension(e)).str());
    diag << " " << llvm::join(needs, ", ") << "; " << describeTargetEnv(env);
  }
}

LogicalResult kiln::convertCloneOrExplain(gpu::GPUModuleOp clone,
                                          ModuleOp pristine,
                                          gpu::GPUModuleOp gpuModule,
                                          spirv::TargetEnvAttr env,
                                          bool use64BitIndex) {
  MLIRContext *ctx = clone.getContext();
  // Convert. The conversion's own messages are held back: when it fails,
  // its analysis of an unconverted copy says which ops cannot be converted,
  // and each is reported at the op with what its lowering would need.
  LogicalResult converted = failure();
  SmallVector<Diagnostic> conversionDiagnostics;
  {
    ScopedDiagnosticHandler holdBack(ctx, [&](Diagnostic &diagnostic) {
      conversionDiagnostics.push_back(std::move(diagnostic));
      return success();
    });
    std::unique_ptr<CloneConversion> conversion =
        prepareClone(clone, env, use64BitIndex);
    converted = applyFullConversion(clone.getOperation(), *conversion->target,
                                    *conversion->patterns);
  }
  if (failed(converted)) {
    OwningOpRef<ModuleOp> analyzed = pristine.clone();
    auto copy = *analyzed->getOps<gpu::GPUModuleOp>().begin();
    std::unique_ptr<CloneConversion> analysis =
        prepareClone(copy, env, use64BitIndex);
    // A full conversion: every op the target does not call legal must be
    // converted. A kernel whose signature cannot be converted is one error,
    // not one per op that uses the argument. When the analysis itself
    // fails, the module is what failed.
    FailureOr<SmallVector<Operation *>> unconvertible = findUnconvertibleOps(
        copy, *analysis->target, *analysis->patterns,
        [&](Operation *op) { return !analysis->target->isLegal(op); });
    if (failed(unconvertible))
      unconvertible = SmallVector<Operation *>{copy.getOperation()};
    SmallVector<std::pair<Location, std::string>> failedOps;
    for (Operation *op : *unconvertible)
      failedOps.push_back({op->getLoc(), op->getName().getStringRef().str()});
    if (!failedOps.empty()) {
      explainFailures(pristine, env, use64BitIndex, failedOps);
      return failure();
    }
    for (Diagnostic &diagnostic : conversionDiagnostics)
      ctx->getDiagEngine().emit(std::move(diagnostic));
    return gpuModule.emitError("GPU module '")
           << gpuModule.getName() << "' failed to lower to SPIR-V";
  }
  for (Diagnostic &diagnostic : conversionDiagnostics)
    ctx->getDiagEngine().emit(std::move(diagnostic));
  return success();
}
