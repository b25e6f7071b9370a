//===- PushConstants.cpp - Push constants on the SPIR-V side --------------===//
//
// After the conversion, the trailing push-constant arguments of each entry
// point (KernelSignature.cpp) become loads from one PushConstant block, and
// the storage buffers bound by device address PhysicalStorageBuffer pointers
// converted from their addresses in that block.
//
//===----------------------------------------------------------------------===//

#include "ConversionSteps.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "llvm/ADT/BitVector.h"

#include <map>

using namespace mlir;
using namespace kiln;

/// Bytes of the scalar a load or store through a buffer pointer moves: the
/// alignment its Aligned operand promises (every element is aligned to its
/// scalar size, docs/abi.md).
static unsigned scalarAlignment(Type type) {
  if (auto vec = dyn_cast<VectorType>(type))
    type = vec.getElementType();
  return std::max(1u, type.getIntOrFloatBitWidth() / 8);
}

/// Makes `op`'s memory access Aligned, as every load and store through a
/// PhysicalStorageBuffer pointer must be.
template <typename OpT> static void setAligned(OpT op, Type valueType) {
  auto access = spirv::MemoryAccess::Aligned;
  if (auto existing = op.getMemoryAccessAttr())
    access = access | existing.getValue();
  op.setMemoryAccessAttr(spirv::MemoryAccessAttr::get(op.getContext(), access));
  op.setAlignmentAttr(IntegerAttr::get(IntegerType::get(op.getContext(), 32),
                                       scalarAlignment(valueType)));
}

/// Replaces storage-buffer argument `arg` of `fn` by a PhysicalStorageBuffer
/// pointer converted from `address`: every pointer derived from it changes
/// storage class, and every load and store through one gets its alignment.
static LogicalResult bindByAddress(spirv::FuncOp fn, BlockArgument arg,
                                   Value address) {
  auto ptrType = dyn_cast<spirv::PointerType>(arg.getType());
  if (!ptrType)
    return fn.emitError("kernel argument ")
           << arg.getArgNumber() << " bound by device address is not a "
           << "buffer pointer after conversion";
  auto physical = [](Type type) -> Type {
    auto ptr = dyn_cast<spirv::PointerType>(type);
    if (!ptr || ptr.getStorageClass() != spirv::StorageClass::StorageBuffer)
      return type;
    return spirv::PointerType::get(ptr.getPointeeType(),
                                   spirv::StorageClass::PhysicalStorageBuffer);
  };
  OpBuilder b(address.getContext());
  b.setInsertionPointAfterValue(address);
  Value pointer = spirv::ConvertUToPtrOp::create(b, arg.getLoc(),
                                                 physical(ptrType), address);
  SmallVector<Value> worklist;
  arg.replaceAllUsesWith(pointer);
  worklist.push_back(pointer);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto load = dyn_cast<spirv::LoadOp>(user)) {
        setAligned(load, load.getType());
        continue;
      }
      if (auto store = dyn_cast<spirv::StoreOp>(user)) {
        if (use.get() != store.getPtr())
          return store.emitError("a pointer into a buffer bound by device "
                                 "address cannot be stored");
        setAligned(store, store.getValue().getType());
        continue;
      }
      if (isa<spirv::AccessChainOp, spirv::PtrAccessChainOp,
              spirv::InBoundsPtrAccessChainOp, spirv::BitcastOp>(user)) {
        for (Value result : user->getResults()) {
          Type retyped = physical(result.getType());
          if (retyped != result.getType()) {
            result.setType(retyped);
            worklist.push_back(result);
          }
        }
        continue;
      }
      // Atomics read and write through the pointer with its own scope.
      if (user->getDialect() == pointer.getDefiningOp()->getDialect() &&
          user->getName().getStringRef().starts_with("spirv.Atomic"))
        continue;
      return user->emitError("'")
             << user->getName()
             << "' on a buffer bound by device address is not supported; "
                "bind the argument as a descriptor "
                "(buffer-device-address=never)";
    }
  }
  return success();
}

/// Replaces the trailing push-constant arguments of a converted entry point
/// by loads from one push-constant block, and the arguments bound by device
/// address by pointers converted from their push-constant addresses.
LogicalResult kiln::materializePushConstants(spirv::FuncOp fn) {
  auto offsets = fn->getAttrOfType<ArrayAttr>(kPushConstantFieldsAttr);
  if (!offsets)
    return success();
  auto addressArgs = fn->getAttrOfType<DenseI32ArrayAttr>(kAddressArgsAttr);
  fn->removeAttr(kPushConstantFieldsAttr);
  fn->removeAttr(kAddressArgsAttr);
  fn->removeAttr(kKernelABIAttrName);
  if (offsets.empty())
    return success();
  MLIRContext *ctx = fn.getContext();
  unsigned numArgs = fn.getNumArguments();
  unsigned first = numArgs - offsets.size();
  SmallVector<Type> members;
  SmallVector<spirv::StructType::OffsetInfo> memberOffsets;
  for (unsigned i = first; i < numArgs; ++i) {
    members.push_back(fn.getArgument(i).getType());
    memberOffsets.push_back(
        cast<IntegerAttr>(offsets[i - first]).getValue().getZExtValue());
  }
  auto structType = spirv::StructType::get(members, memberOffsets);
  auto ptrType =
      spirv::PointerType::get(structType, spirv::StorageClass::PushConstant);

  auto module = fn->getParentOfType<spirv::ModuleOp>();
  OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
  std::string name = ("__kiln_push_constants_" + fn.getName()).str();
  auto var = spirv::GlobalVariableOp::create(mb, fn.getLoc(), ptrType, name);

  OpBuilder b = OpBuilder::atBlockBegin(&fn.getBody().front());
  Value base = spirv::AddressOfOp::create(b, fn.getLoc(), var);
  Type i32 = IntegerType::get(ctx, 32);
  llvm::BitVector erase(numArgs);
  std::map<int64_t, Value> fieldValues;
  for (unsigned i = first; i < numArgs; ++i) {
    Value idx = spirv::ConstantOp::create(b, fn.getLoc(), i32,
                                          b.getI32IntegerAttr(i - first));
    Value ptr =
        spirv::AccessChainOp::create(b, fn.getLoc(), base, ValueRange{idx});
    Value value = spirv::LoadOp::create(b, fn.getLoc(), ptr);
    fn.getArgument(i).replaceAllUsesWith(value);
    fieldValues[cast<IntegerAttr>(offsets[i - first]).getInt()] = value;
    erase.set(i);
  }
  if (addressArgs) {
    ArrayRef<int32_t> pairs = addressArgs.asArrayRef();
    for (size_t p = 0; p + 1 < pairs.size(); p += 2) {
      auto field = fieldValues.find(pairs[p + 1]);
      Value address = field == fieldValues.end() ? Value() : field->second;
      if (!address || unsigned(pairs[p]) >= first)
        return fn.emitError("kernel '")
               << fn.getName() << "' has a malformed device-address table";
      if (failed(bindByAddress(fn, fn.getArgument(pairs[p]), address)))
        return failure();
      erase.set(pairs[p]);
    }
    module.setAddressingModel(spirv::AddressingModel::PhysicalStorageBuffer64);
  }
  return fn.eraseArguments(erase);
}
