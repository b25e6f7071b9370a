//===- Globals.cpp - Where SPIR-V global variables live on the CPU --------===//
//
// Phase one of the spirv-cpu lowering for global variables: before the
// conversion, each spirv.GlobalVariable gets its place (placeGlobals): a
// built-in is a field of the invocation (include/kiln/Runtime/
// SPIRVCPUABI.h's Invocation), a storage or uniform buffer a resource of
// the KernelDesc, the push constants the runtime's block, a Workgroup
// variable a slice of the workgroup's memory (dynamic workgroup memory
// last) and a Private one a slice of the invocation's. During the
// conversion, the variables and their addresses become placeholders that
// phase two (MemoryAccess.cpp) replaces.
//
//===----------------------------------------------------------------------===//

#include "SPIRVToCPUInternal.h"

#include "kiln/Contract/Container.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/SPIRVToLLVM/SPIRVToLLVM.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstddef>

using namespace mlir;
using namespace kiln::spirvtocpu;
namespace abi = kiln::spirvcpu;

//===----------------------------------------------------------------------===//
// Patterns: the globals as placeholders
//===----------------------------------------------------------------------===//

namespace {

/// Global variables become placeholders that phase two replaces; their
/// places were decided before the conversion.
struct GlobalVariablePattern
    : public OpConversionPattern<spirv::GlobalVariableOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::GlobalVariableOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::GlobalOp>(
        op, rewriter.getI8Type(), /*isConstant=*/false, LLVM::Linkage::External,
        op.getSymName(), Attribute());
    return success();
  }
};

struct AddressOfPattern : public OpConversionPattern<spirv::AddressOfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::AddressOfOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::AddressOfOp>(
        op, LLVM::LLVMPointerType::get(op.getContext()), op.getVariable());
    return success();
  }
};

/// Entry points and execution modes are in the KernelDesc and container.
template <typename Op> struct EraseOpPattern : public OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void kiln::spirvtocpu::populateGlobalPatterns(const TypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<GlobalVariablePattern, AddressOfPattern,
               EraseOpPattern<spirv::EntryPointOp>,
               EraseOpPattern<spirv::ExecutionModeOp>>(
      converter, patterns.getContext(), /*benefit=*/10);
}

//===----------------------------------------------------------------------===//
// Placing the globals
//===----------------------------------------------------------------------===//

/// The offset in Invocation of a built-in, or -1 when the target has none.
static int64_t builtInOffset(StringRef name) {
  std::optional<spirv::BuiltIn> b = spirv::symbolizeBuiltIn(name);
  if (!b)
    return -1;
  switch (*b) {
  case spirv::BuiltIn::GlobalInvocationId:
    return offsetof(abi::Invocation, globalInvocationId);
  case spirv::BuiltIn::LocalInvocationId:
    return offsetof(abi::Invocation, localInvocationId);
  case spirv::BuiltIn::WorkgroupId:
    return offsetof(abi::Invocation, workgroupId);
  case spirv::BuiltIn::NumWorkgroups:
    return offsetof(abi::Invocation, numWorkgroups);
  case spirv::BuiltIn::WorkgroupSize:
    return offsetof(abi::Invocation, workgroupSize);
  case spirv::BuiltIn::LocalInvocationIndex:
    return offsetof(abi::Invocation, localInvocationIndex);
  case spirv::BuiltIn::SubgroupId:
    return offsetof(abi::Invocation, subgroupId);
  case spirv::BuiltIn::SubgroupSize:
    return offsetof(abi::Invocation, subgroupSize);
  case spirv::BuiltIn::NumSubgroups:
    return offsetof(abi::Invocation, numSubgroups);
  case spirv::BuiltIn::SubgroupLocalInvocationId:
    return offsetof(abi::Invocation, subgroupLocalInvocationId);
  default:
    return -1;
  }
}

/// "argument N (TYPE)" for the kernel argument at (set, binding), from the
/// gpu.funcs of the module; empty when none has it.
static std::string describeBinding(gpu::GPUModuleOp gpuModule, uint32_t set,
                                   uint32_t binding) {
  for (auto fn : gpuModule.getOps<gpu::GPUFuncOp>()) {
    for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
      auto abiAttr = fn.getArgAttrOfType<spirv::InterfaceVarABIAttr>(
          i, spirv::getInterfaceVarABIAttrName());
      if (!abiAttr || abiAttr.getDescriptorSet() != set ||
          abiAttr.getBinding() != binding)
        continue;
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "argument " << i << " (" << fn.getArgument(i).getType() << ")";
      return text;
    }
  }
  return "";
}

/// The resource of the buffer variable `name` at (set, binding).
static Resource bufferResource(gpu::GPUModuleOp gpuModule,
                               spirv::StorageClass storage, uint32_t set,
                               uint32_t binding, StringRef name) {
  Resource resource;
  resource.kind = storage == spirv::StorageClass::Uniform
                      ? abi::ResourceKind::UniformBuffer
                      : abi::ResourceKind::StorageBuffer;
  resource.set = set;
  resource.binding = binding;
  resource.symbol = name.str();
  resource.description = describeBinding(gpuModule, set, binding);
  if (resource.description.empty())
    resource.description =
        resource.kind == abi::ResourceKind::UniformBuffer
            ? llvm::formatv("the push-constant uniform buffer ({0}, {1})", set,
                            binding)
                  .str()
            : llvm::formatv("binding ({0}, {1})", set, binding).str();
  return resource;
}

/// The array (alone or wrapped in a struct) whose length
/// container::kDynamicWorkgroupLength marks dynamic workgroup memory.
static bool isDynamicWorkgroupArray(Type type) {
  if (auto wrapper = dyn_cast<spirv::StructType>(type);
      wrapper && wrapper.getNumElements() == 1)
    type = wrapper.getElementType(0);
  auto array = dyn_cast<spirv::ArrayType>(type);
  return array &&
         array.getNumElements() == kiln::container::kDynamicWorkgroupLength;
}

LogicalResult kiln::spirvtocpu::placeGlobals(spirv::ModuleOp module,
                                             gpu::GPUModuleOp gpuModule,
                                             ModuleOp host,
                                             ModuleState &state) {
  spirv::GlobalVariableOp dynamicGlobal;
  LLVMTypeConverter converter(host.getContext());
  populateSPIRVToLLVMTypeConversion(converter);
  DataLayout layout(host);
  auto placeIn = [&](uint32_t &bytes, Type type) -> FailureOr<uint32_t> {
    Type llvmType = converter.convertType(type);
    if (!llvmType)
      return failure();
    uint64_t size = layout.getTypeSize(llvmType);
    uint64_t align =
        std::max<uint64_t>(layout.getTypeABIAlignment(llvmType), 1);
    uint64_t offset = llvm::alignTo(bytes, align);
    if (offset + size > UINT32_MAX)
      return failure();
    bytes = offset + size;
    return uint32_t(offset);
  };
  for (auto global : module.getOps<spirv::GlobalVariableOp>()) {
    auto ptrType = cast<spirv::PointerType>(global.getType());
    spirv::StorageClass storage = ptrType.getStorageClass();
    GlobalPlace place{Place::Private};
    StringRef name = global.getSymName();
    switch (storage) {
    case spirv::StorageClass::Input: {
      auto builtIn = global->getAttrOfType<StringAttr>("built_in");
      int64_t offset = builtIn ? builtInOffset(builtIn.getValue()) : -1;
      if (offset < 0)
        return global.emitError("the spirv-cpu target has no ")
               << (builtIn ? ("built-in " + builtIn.getValue()).str()
                           : std::string("Input variable without built-in"));
      place = {Place::BuiltIn, 0, uint32_t(offset)};
      break;
    }
    case spirv::StorageClass::StorageBuffer:
    case spirv::StorageClass::Uniform: {
      std::optional<uint32_t> set = global.getDescriptorSet();
      std::optional<uint32_t> binding = global.getBinding();
      if (!set || !binding)
        return global.emitError("buffer variable without descriptor set and "
                                "binding");
      Resource resource =
          bufferResource(gpuModule, storage, *set, *binding, name);
      place = {Place::Resource, uint32_t(state.resources.size())};
      state.resources.push_back(std::move(resource));
      break;
    }
    case spirv::StorageClass::PushConstant:
      place = {Place::PushConstants};
      break;
    case spirv::StorageClass::Workgroup: {
      if (isDynamicWorkgroupArray(ptrType.getPointeeType())) {
        if (dynamicGlobal)
          return global.emitError("a second dynamic workgroup array");
        dynamicGlobal = global;
        continue;
      }
      FailureOr<uint32_t> offset =
          placeIn(state.workgroupBytes, ptrType.getPointeeType());
      if (failed(offset))
        return global.emitError("cannot lay out workgroup variable of type ")
               << ptrType.getPointeeType();
      std::string description;
      llvm::raw_string_ostream os(description);
      os << "workgroup variable " << state.workgroupVars.size() << " ("
         << ptrType.getPointeeType() << ")";
      place = {Place::Workgroup, uint32_t(state.workgroupVars.size()), *offset};
      state.workgroupVars.push_back(
          {*offset, state.workgroupBytes - *offset, description});
      break;
    }
    case spirv::StorageClass::Private: {
      if (global.getInitializer())
        return global.emitError("the spirv-cpu target has no Private "
                                "variables with an initializer");
      FailureOr<uint32_t> offset =
          placeIn(state.privateBytes, ptrType.getPointeeType());
      if (failed(offset))
        return global.emitError("cannot lay out private variable of type ")
               << ptrType.getPointeeType();
      place = {Place::Private, 0, *offset};
      break;
    }
    default:
      return global.emitError("the spirv-cpu target has no global variables "
                              "of storage class ")
             << spirv::stringifyStorageClass(storage);
    }
    state.globals[name] = place;
  }
  // Dynamic workgroup memory after the rest, 16-byte aligned, sized by the
  // launch.
  if (dynamicGlobal) {
    state.workgroupBytes = llvm::alignTo(state.workgroupBytes, 16);
    std::string description;
    llvm::raw_string_ostream os(description);
    os << "dynamic workgroup memory (workgroup variable "
       << state.workgroupVars.size() << ")";
    state.globals[dynamicGlobal.getSymName()] = {
        Place::Workgroup, uint32_t(state.workgroupVars.size()),
        state.workgroupBytes};
    state.workgroupVars.push_back({state.workgroupBytes, 0, description});
    state.dynamicWorkgroup = true;
  }
  return success();
}
