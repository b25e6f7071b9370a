//===- SPIRVToCPU.cpp - Validated SPIR-V as host functions ----------------===//
//
// The spirv-cpu target's compiler half: each GPU module's spirv.module, the
// same one that `--kiln-serialize-spirv` validates and puts in the container,
// is converted to LLVM-dialect functions of the host module that the
// spirv-cpu runtime calls once per invocation (include/kiln/Runtime/
// SPIRVCPUABI.h is the contract; docs/spirv-cpu.md the description).
//
// Upstream's SPIR-V to LLVM patterns do the arithmetic, control flow,
// functions and memory accesses. What they leave out, or model as a single
// invocation, is done here:
//
//  - every function gets the invocation (`Invocation *`) as a first argument
//    and passes it on;
//  - global variables are not LLVM globals: a built-in is a field of the
//    invocation, a storage or uniform buffer the binding the runtime passes,
//    the push constants the runtime's block, a Workgroup variable a slice of
//    the workgroup's memory and a Private one a slice of the invocation's;
//  - barriers and subgroup operations call the runtime, which runs the
//    invocations of a workgroup as fibers; atomics are LLVM atomics, since
//    workgroups run on several threads;
//  - in checked mode every access to a buffer or to workgroup memory is
//    checked by the runtime first;
//  - each kernel gets a KernelDesc and is registered, under the hash of the
//    module's SPIR-V words, by a constructor of the host program.
//
// The parts, in this folder: this file, the pass and the driver of one
// module's conversion; Globals.cpp, where each global variable lives;
// MemoryAccess.cpp, atomics, global addresses and checked mode's access
// checks; BarriersAndSubgroups.cpp, barriers and subgroup operations as
// runtime calls; ArithmeticOps.cpp and ExtendedOps.cpp, ops upstream leaves
// out; FinishFunctions.cpp, phase two (the invocation argument, printf,
// stack frames); Registration.cpp, the KernelDescs and their constructor.
// SPIRVToCPUInternal.h holds what they share.
//
//===----------------------------------------------------------------------===//

#include "ExtendedOps.h"
#include "SPIRVToCPUInternal.h"
#include "kiln/Contract/SPIRVCPUABI.h"
#include "kiln/Conversion/Unconvertible.h"
#include "kiln/Target/SPIRV/Serialization.h"
#include "kiln/Target/SPIRVCPU/Passes.h"

#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/SPIRVToLLVM/SPIRVToLLVM.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

namespace kiln {
#define GEN_PASS_DEF_KILNSPIRVTOCPU
#include "kiln/Target/SPIRVCPU/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln::spirvtocpu;
namespace abi = kiln::spirvcpu;

uint32_t ModuleState::site(Location loc) {
  std::string text;
  if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    text = llvm::formatv("{0}:{1}:{2}", file.getFilename().getValue(),
                         file.getLine(), file.getColumn())
               .str();
  } else if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location l : fused.getLocations())
      if (isa<FileLineColLoc>(l))
        return site(l);
  } else if (auto named = dyn_cast<NameLoc>(loc)) {
    return site(named.getChildLoc());
  } else if (auto callSite = dyn_cast<CallSiteLoc>(loc)) {
    return site(callSite.getCallee());
  }
  if (text.empty()) {
    llvm::raw_string_ostream os(text);
    loc.print(os);
  }
  auto [it, inserted] = siteIndex.try_emplace(text, sites.size());
  if (inserted)
    sites.push_back(text);
  return it->second;
}

/// Declares `name` in `module` with `type` unless it exists.
LLVM::LLVMFuncOp
kiln::spirvtocpu::declareFunction(OpBuilder &b, ModuleOp module, StringRef name,
                                  LLVM::LLVMFunctionType type) {
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return fn;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

Value kiln::spirvtocpu::i32Constant(OpBuilder &b, Location loc,
                                    uint64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(value));
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

class SPIRVToCPUPass : public kiln::impl::KilnSPIRVToCPUBase<SPIRVToCPUPass> {
public:
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult convertModule(gpu::GPUModuleOp gpuModule);
};

} // namespace

/// Replaces each `spirv.mlir.loop` and `spirv.mlir.selection` that yields
/// results (`--kiln-tidy-spirv` gives loops results instead of Function
/// variables) by its blocks, inlined into the enclosing region: upstream's
/// SPIR-V to LLVM patterns handle only constructs without results. The
/// construct's entry branches to its header as before; its merge block's
/// `spirv.mlir.merge` becomes a branch carrying the results to the block
/// after the construct.
static void inlineConstructsWithResults(Operation *root) {
  SmallVector<Operation *> constructs;
  root->walk([&](Operation *op) {
    if (isa<spirv::LoopOp, spirv::SelectionOp>(op) && op->getNumResults())
      constructs.push_back(op);
  });
  for (Operation *op : constructs) {
    Block *before = op->getBlock();
    Block *after = before->splitBlock(op->getNextNode());
    for (OpResult result : op->getResults())
      result.replaceAllUsesWith(
          after->addArgument(result.getType(), op->getLoc()));
    Region &body = op->getRegion(0);
    Block *entry = &body.front();
    for (Block &block : body)
      if (auto merge = dyn_cast<spirv::MergeOp>(block.getTerminator())) {
        OpBuilder b(merge);
        spirv::BranchOp::create(b, merge.getLoc(), after, merge.getOperands());
        merge.erase();
      }
    after->getParent()->getBlocks().splice(after->getIterator(),
                                           body.getBlocks());
    OpBuilder b(op);
    spirv::BranchOp::create(b, op->getLoc(), entry);
    op->erase();
  }
}

/// The array-length stubs' calls (kiln/Target/SPIRV/Serialization.h) as
/// the pushed size they are given, which the runtime writes from the same
/// memref the binding covers, and the stubs gone.
static void replaceArrayLengthCalls(ModuleOp scratch) {
  SmallVector<spirv::FunctionCallOp> calls;
  scratch.walk([&](spirv::FunctionCallOp call) {
    if (call.getCallee().starts_with(kiln::kArrayLengthStubPrefix))
      calls.push_back(call);
  });
  for (spirv::FunctionCallOp call : calls) {
    call.getResult(0).replaceAllUsesWith(call.getArguments()[1]);
    call.erase();
  }
  SmallVector<spirv::FuncOp> stubs;
  scratch.walk([&](spirv::FuncOp fn) {
    if (fn.getSymName().starts_with(kiln::kArrayLengthStubPrefix))
      stubs.push_back(fn);
  });
  for (spirv::FuncOp fn : stubs)
    fn.erase();
}

/// Control barriers and group operations of a scope the runtime runs.
static LogicalResult checkSupported(spirv::ModuleOp module) {
  WalkResult result = module.walk([&](Operation *op) {
    if (auto barrier = dyn_cast<spirv::ControlBarrierOp>(op)) {
      spirv::Scope scope = barrier.getExecutionScope();
      if (scope != spirv::Scope::Workgroup && scope != spirv::Scope::Subgroup) {
        op->emitError("the spirv-cpu target runs control barriers of "
                      "Workgroup or Subgroup scope only, not ")
            << spirv::stringifyScope(scope);
        return WalkResult::interrupt();
      }
    }
    if (op->getName().getStringRef().starts_with("spirv.GroupNonUniform")) {
      auto scope = op->getAttrOfType<spirv::ScopeAttr>("execution_scope");
      if (scope && scope.getValue() != spirv::Scope::Subgroup) {
        op->emitError("the spirv-cpu target runs group operations of "
                      "Subgroup scope only, not ")
            << spirv::stringifyScope(scope.getValue());
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// SPIR-V structs with explicit offsets (buffers, push constants) that
/// match the natural layout of their members: an LLVM struct with the same
/// member indices. Upstream converts only structs without offsets.
static std::optional<Type> convertLaidOutStruct(spirv::StructType type,
                                                LLVMTypeConverter &converter) {
  if (!type.hasOffset())
    return std::nullopt;
  SmallVector<Type> members;
  uint64_t end = 0;
  DataLayout layout;
  for (unsigned i = 0; i < type.getNumElements(); ++i) {
    Type member = converter.convertType(type.getElementType(i));
    if (!member)
      return std::nullopt;
    uint64_t align = layout.getTypeABIAlignment(member);
    if (llvm::alignTo(end, align) != type.getMemberOffset(i))
      return std::nullopt;
    end = type.getMemberOffset(i) + layout.getTypeSize(member).getFixedValue();
    members.push_back(member);
  }
  return LLVM::LLVMStructType::getLiteral(type.getContext(), members);
}

/// The globals each kernel reaches, through the functions it calls.
static llvm::StringMap<llvm::StringSet<>>
globalsOfKernels(spirv::ModuleOp original, ArrayRef<std::string> kernels) {
  llvm::StringMap<llvm::StringSet<>> globalsOfFunction;
  llvm::StringMap<llvm::StringSet<>> calleesOfFunction;
  for (auto fn : original.getOps<spirv::FuncOp>()) {
    fn.walk([&](spirv::AddressOfOp a) {
      globalsOfFunction[fn.getSymName()].insert(a.getVariable());
    });
    fn.walk([&](spirv::FunctionCallOp c) {
      calleesOfFunction[fn.getSymName()].insert(c.getCallee());
    });
  }
  llvm::StringMap<llvm::StringSet<>> used;
  for (const std::string &kernel : kernels) {
    llvm::StringSet<> seen;
    SmallVector<std::string> work{kernel};
    llvm::StringSet<> &globals = used[kernel];
    while (!work.empty()) {
      std::string fn = work.pop_back_val();
      if (!seen.insert(fn).second)
        continue;
      for (auto &g : globalsOfFunction[fn])
        globals.insert(g.getKey());
      for (auto &c : calleesOfFunction[fn])
        work.push_back(c.getKey().str());
    }
  }
  return used;
}

/// Upstream's type conversion, with arrays whose stride is their element's
/// size and structs laid out as LLVM lays them out.
static void addLaidOutTypeConversions(LLVMTypeConverter &converter) {
  // An array of `count` elements whose stride is their size (or not laid
  // out).
  auto convertArray = [&converter](Type elementType, uint64_t stride,
                                   uint64_t count) -> std::optional<Type> {
    Type element = converter.convertType(elementType);
    if (!element)
      return std::nullopt;
    if (stride && stride != DataLayout().getTypeSize(element))
      return std::nullopt;
    return LLVM::LLVMArrayType::get(element, count);
  };
  // Runtime arrays (buffers of dynamic size) as zero-length arrays, which
  // upstream leaves out.
  converter.addConversion([convertArray](spirv::RuntimeArrayType type) {
    return convertArray(type.getElementType(), type.getArrayStride(), 0);
  });
  // Laid-out arrays (storage buffers read as arrays of vectors) whose
  // stride is their element's size, which upstream refuses.
  converter.addConversion([convertArray](spirv::ArrayType type) {
    return convertArray(type.getElementType(), type.getArrayStride(),
                        type.getNumElements());
  });
  converter.addConversion([&converter](spirv::StructType type) {
    return convertLaidOutStruct(type, converter);
  });
}

/// Upstream's SPIR-V to LLVM patterns and the spirv-cpu target's.
static void populatePatterns(LLVMTypeConverter &converter,
                             RewritePatternSet &patterns, ModuleState &state) {
  populateSPIRVToLLVMConversionPatterns(converter, patterns);
  populateSPIRVToLLVMFunctionConversionPatterns(converter, patterns);
  populateSPIRVToLLVMModuleConversionPatterns(converter, patterns);
  populateGlobalPatterns(converter, patterns);
  populateBarrierPatterns(converter, patterns, state);
  populateArithmeticPatterns(converter, patterns);
  populatePointerPatterns(converter, patterns);
  populateAtomicPatterns(converter, patterns);
  populateSubgroupPatterns(converter, patterns, state);
  kiln::populateSPIRVCPUExtendedOpPatterns(converter, patterns);
}

/// Converts the copy of the spirv.module in `scratch` to the LLVM dialect;
/// an op without a lowering is an error at the op.
static LogicalResult lowerToLLVM(ModuleOp scratch, gpu::GPUModuleOp gpuModule,
                                 ModuleOp host, ModuleState &state) {
  MLIRContext *ctx = host.getContext();
  LowerToLLVMOptions options(ctx, DataLayout(host));
  LLVMTypeConverter converter(ctx, options);
  populateSPIRVToLLVMTypeConversion(converter);
  addLaidOutTypeConversions(converter);
  RewritePatternSet patterns(ctx);
  populatePatterns(converter, patterns, state);

  ConversionTarget target(*ctx);
  target.addIllegalDialect<spirv::SPIRVDialect>();
  target.addLegalDialect<LLVM::LLVMDialect>();
  target.addLegalOp<ModuleOp>();
  FrozenRewritePatternSet frozen(std::move(patterns));
  // Convert. The conversion's own messages are held back: when it fails
  // (and is rolled back), its analysis says which ops have no lowering, and
  // the user hears about each at the op.
  LogicalResult lowered = failure();
  SmallVector<Diagnostic> conversionDiagnostics;
  {
    ScopedDiagnosticHandler holdBack(ctx, [&](Diagnostic &diagnostic) {
      conversionDiagnostics.push_back(std::move(diagnostic));
      return success();
    });
    lowered = applyPartialConversion(scratch, target, frozen);
  }
  if (failed(lowered)) {
    // A partial conversion: only the ops the target calls illegal must be
    // converted.
    FailureOr<SmallVector<Operation *>> unconvertible =
        kiln::findUnconvertibleOps(
            scratch.getOperation(), target, frozen,
            [&](Operation *op) { return target.isIllegal(op); });
    if (failed(unconvertible))
      return failure();
    for (Operation *op : *unconvertible)
      op->emitError("the spirv-cpu target cannot run '")
          << op->getName() << "': it has no lowering to the LLVM dialect";
    if (!unconvertible->empty())
      return failure();
    for (Diagnostic &diagnostic : conversionDiagnostics)
      ctx->getDiagEngine().emit(std::move(diagnostic));
    return gpuModule.emitError("GPU module '")
           << gpuModule.getName()
           << "' failed to lower to the LLVM dialect for the CPU";
  }
  for (Diagnostic &diagnostic : conversionDiagnostics)
    ctx->getDiagEngine().emit(std::move(diagnostic));
  return success();
}

/// Moves the functions of `converted` into the host module, under names of
/// their own (in `renamed`).
static LogicalResult moveIntoHost(ModuleOp converted, ModuleOp host,
                                  gpu::GPUModuleOp gpuModule,
                                  llvm::StringMap<std::string> &renamed) {
  SymbolTable hostSymbols(host);
  std::string prefix = ("__kiln_cpu_" + gpuModule.getName() + "_").str();
  SymbolTable convertedSymbols(converted);
  for (auto fn :
       llvm::make_early_inc_range(converted.getOps<LLVM::LLVMFuncOp>())) {
    // Declarations (the runtime's functions, printf) keep their names.
    if (fn.isExternal())
      continue;
    StringRef name = fn.getSymName();
    // Unique in the host too: modules `a` (function `b_c`) and `a_b`
    // (function `c`) would both give `__kiln_cpu_a_b_c`.
    std::string newName = uniqueName(hostSymbols, prefix + name.str());
    renamed[name] = newName;
    if (failed(convertedSymbols.rename(fn, newName)))
      return fn.emitError("cannot rename");
    fn.setLinkage(LLVM::Linkage::Internal);
  }
  for (Operation &op :
       llvm::make_early_inc_range(converted.getBody()->getOperations())) {
    if (auto fn = dyn_cast<LLVM::LLVMFuncOp>(op);
        fn && fn.isExternal() && hostSymbols.lookup(fn.getSymName()))
      continue;
    op.moveBefore(host.getBody(), host.getBody()->end());
  }
  return success();
}

LogicalResult SPIRVToCPUPass::convertModule(gpu::GPUModuleOp gpuModule) {
  FailureOr<spirv::ModuleOp> nested = kiln::getNestedSPIRVModule(gpuModule);
  if (failed(nested))
    return failure();
  spirv::ModuleOp original = *nested;
  MLIRContext *ctx = &getContext();

  // The key: the words the container will hold.
  SmallVector<uint32_t> words;
  if (failed(kiln::serializeSPIRVWords(original, words)))
    return failure();
  uint64_t hash = abi::hashSPIRV(words.data(), words.size());

  if (failed(checkSupported(original)))
    return failure();
  ModuleState state;
  state.checked = checked;
  state.bounded = !checked && !unboundedAccess;
  state.prefix = ("__kiln_cpu_" + gpuModule.getName()).str();
  if (auto formats =
          original->getAttrOfType<ArrayAttr>(kiln::kDebugPrintfFormatsAttr))
    for (Attribute f : formats)
      state.printfFormats.push_back(cast<StringAttr>(f).str());
  if (failed(placeGlobals(original, gpuModule, getOperation(), state)))
    return failure();

  SmallVector<std::string> kernels;
  for (auto entry : original.getOps<spirv::EntryPointOp>())
    kernels.push_back(entry.getFn().str());
  llvm::StringMap<llvm::StringSet<>> used = globalsOfKernels(original, kernels);

  // Convert a copy: the original goes on to serialization.
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(gpuModule.getLoc());
  {
    OpBuilder b(ctx);
    b.setInsertionPointToStart(scratch->getBody());
    b.clone(*original);
  }
  scratch->walk(
      [](spirv::ModuleOp m) { m->removeAttr(kiln::kDebugPrintfFormatsAttr); });
  replaceArrayLengthCalls(scratch.get());
  inlineConstructsWithResults(scratch.get());

  if (failed(lowerToLLVM(scratch.get(), gpuModule, getOperation(), state)))
    return failure();

  // The converted spirv.module is now a builtin.module inside the scratch
  // module.
  auto converted = cast<ModuleOp>(scratch->getBody()->front());
  if (failed(finishFunctions(converted, getOperation(), state)))
    return failure();
  if (failed(measureStacks(converted, kernels, state)))
    return failure();

  // Line tables from the MLIR locations, so that a debugger can stop at a
  // kernel's line.
  {
    PassManager pm(ctx);
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass());
    if (failed(pm.run(converted)))
      return failure();
  }

  // Into the host module, under names of their own.
  ModuleOp host = getOperation();
  llvm::StringMap<std::string> renamed;
  if (failed(moveIntoHost(converted, host, gpuModule, renamed)))
    return failure();
  emitRegistration(gpuModule, host, state, hash, kernels, used, renamed);
  return success();
}

void SPIRVToCPUPass::runOnOperation() {
  if (failed(
          kiln::forEachSPIRVGPUModule(getOperation(), [&](gpu::GPUModuleOp m) {
            return convertModule(m);
          })))
    signalPassFailure();
}
