//===- FinishFunctions.cpp - Phase two: the converted functions completed -===//
//
// After the conversion to the LLVM dialect, the functions of the module
// are completed for the spirv-cpu runtime: every function, and every
// runtime function, takes the invocation (`Invocation *`) first and calls
// pass it on; gpu.printf's debug printf stubs become calls of C's printf;
// the patterns' allocas move to the entry block; global addresses and, in
// checked mode, access checks are placed (MemoryAccess.cpp). Then each
// kernel's stack frame is measured against abi::kMaxStackBytes.
//
//===----------------------------------------------------------------------===//

#include "SPIRVToCPUInternal.h"

#include "kiln/Target/SPIRV/Serialization.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

using namespace mlir;
using namespace kiln::spirvtocpu;
namespace abi = kiln::spirvcpu;

/// The calls of debug printf stubs among `calls` as calls of printf.
static void lowerPrintf(OpBuilder &b, ModuleOp converted,
                        const ModuleState &state,
                        ArrayRef<LLVM::CallOp> calls) {
  auto ptrType = LLVM::LLVMPointerType::get(converted.getContext());

  // gpu.printf: C's printf, which takes the same formats, with floats
  // promoted to double as C promotes them.
  for (LLVM::CallOp call : calls) {
    StringRef callee = *call.getCallee();
    unsigned index;
    if (!callee.consume_front(kiln::kDebugPrintfStubPrefix) ||
        callee.getAsInteger(10, index) || index >= state.printfFormats.size())
      continue;
    b.setInsertionPoint(call);
    Location loc = call.getLoc();
    auto printfType = LLVM::LLVMFunctionType::get(b.getI32Type(), {ptrType},
                                                  /*isVarArg=*/true);
    LLVM::LLVMFuncOp printfFn =
        declareFunction(b, converted, "printf", printfType);
    std::string format = stringGlobal(
        b, converted, loc, state.prefix + "_printf_" + Twine(index).str(),
        state.printfFormats[index]);
    SmallVector<Value> args{LLVM::AddressOfOp::create(b, loc, ptrType, format)};
    for (Value arg : call.getArgOperands().drop_front()) {
      if (isa<FloatType>(arg.getType()) && !arg.getType().isF64())
        arg = LLVM::FPExtOp::create(b, loc, b.getF64Type(), arg);
      args.push_back(arg);
    }
    LLVM::CallOp::create(b, loc, printfFn, args);
    call.erase();
  }
}

static void hoistAllocas(LLVM::LLVMFuncOp fn) {
  // Allocas of the patterns go to the entry block, out of any loop.
  Block &entry = fn.getBody().front();
  fn.walk([&](LLVM::AllocaOp alloca) {
    if (!alloca->hasAttr(kHoistAttr))
      return;
    alloca->removeAttr(kHoistAttr);
    Operation *count = alloca.getArraySize().getDefiningOp();
    count->moveBefore(&entry, entry.begin());
    alloca->moveAfter(count);
  });
}

LogicalResult kiln::spirvtocpu::finishFunctions(ModuleOp converted,
                                                ModuleOp host,
                                                ModuleState &state) {
  MLIRContext *ctx = host.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  OpBuilder b(ctx);
  SymbolTable symbols(converted);
  DataLayout layout(host);

  // Every function of the module, and the runtime's, takes the invocation
  // first; calls pass it on.
  SmallVector<LLVM::LLVMFuncOp> functions;
  converted.walk([&](LLVM::LLVMFuncOp fn) { functions.push_back(fn); });
  for (LLVM::LLVMFuncOp fn : functions) {
    LLVM::LLVMFunctionType type = fn.getFunctionType();
    SmallVector<Type> inputs{ptrType};
    llvm::append_range(inputs, type.getParams());
    fn.setFunctionType(LLVM::LLVMFunctionType::get(type.getReturnType(), inputs,
                                                   type.isVarArg()));
    if (!fn.isExternal())
      fn.getBody().front().insertArgument(0u, ptrType, fn.getLoc());
  }
  for (LLVM::LLVMFuncOp fn : functions) {
    if (fn.isExternal())
      continue;
    Value invocation = fn.getArgument(0);
    SmallVector<LLVM::CallOp> calls;
    fn.walk([&](LLVM::CallOp call) { calls.push_back(call); });
    for (LLVM::CallOp call : calls) {
      if (!call.getCallee() || !symbols.lookup(*call.getCallee()))
        return call.emitError("indirect or unknown call in a kernel");
      SmallVector<Value> operands{invocation};
      llvm::append_range(operands, call.getCalleeOperands());
      call.getCalleeOperandsMutable().assign(operands);
    }

    lowerPrintf(b, converted, state, calls);
    hoistAllocas(fn);

    // Global addresses, from the invocation.
    CheckedRoots checkedRoots = placeGlobalAddresses(b, fn, invocation, state);

    if (state.checked)
      insertAccessChecks(b, converted, fn, invocation, layout, state,
                         checkedRoots);
    else if (state.bounded && failed(boundAccesses(b, fn, invocation, layout,
                                                   state, checkedRoots)))
      return failure();
  }

  // The debug printf stubs, now without callers, and the placeholders of
  // the globals go.
  for (auto fn :
       llvm::make_early_inc_range(converted.getOps<LLVM::LLVMFuncOp>()))
    if (fn.getSymName().starts_with(kiln::kDebugPrintfStubPrefix))
      fn.erase();
  for (auto global :
       llvm::make_early_inc_range(converted.getOps<LLVM::GlobalOp>()))
    if (state.globals.count(global.getSymName()))
      global.erase();
  return success();
}

namespace {
/// A function's stack frame as the compiler sees it: its allocas (Function
/// storage class variables, memref.alloca arrays) and those of the deepest
/// chain of functions it calls.
struct Frame {
  uint64_t bytes = 0;
  /// The largest alloca on that chain, where the error points.
  uint64_t largest = 0;
  std::optional<Location> largestAt;
};

Frame frameOf(LLVM::LLVMFuncOp fn, SymbolTable &symbols,
              const DataLayout &layout,
              llvm::DenseMap<Operation *, Frame> &memo) {
  if (auto it = memo.find(fn); it != memo.end())
    return it->second;
  memo[fn] = Frame(); // SPIR-V has no recursion; a cycle adds nothing.
  Frame frame, deepest;
  auto add = [](uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
  };
  fn.walk([&](Operation *op) {
    if (auto alloca = dyn_cast<LLVM::AllocaOp>(op)) {
      APInt count(64, 1);
      (void)matchPattern(alloca.getArraySize(), m_ConstantInt(&count));
      uint64_t element = layout.getTypeSize(alloca.getElemType());
      uint64_t n = count.getZExtValue();
      uint64_t bytes = n && element > UINT64_MAX / n ? UINT64_MAX : element * n;
      frame.bytes = add(frame.bytes, bytes);
      if (bytes > frame.largest) {
        frame.largest = bytes;
        frame.largestAt = alloca.getLoc();
      }
    } else if (auto call = dyn_cast<LLVM::CallOp>(op)) {
      auto callee = call.getCallee();
      auto target = callee ? symbols.lookup<LLVM::LLVMFuncOp>(*callee)
                           : LLVM::LLVMFuncOp();
      if (target && !target.isExternal()) {
        Frame inner = frameOf(target, symbols, layout, memo);
        if (inner.bytes > deepest.bytes)
          deepest = inner;
      }
    }
  });
  frame.bytes = add(frame.bytes, deepest.bytes);
  if (deepest.largest > frame.largest) {
    frame.largest = deepest.largest;
    frame.largestAt = deepest.largestAt;
  }
  memo[fn] = frame;
  return frame;
}
} // namespace

LogicalResult kiln::spirvtocpu::measureStacks(ModuleOp converted,
                                              ArrayRef<std::string> kernels,
                                              ModuleState &state) {
  SymbolTable symbols(converted);
  DataLayout layout(converted);
  llvm::DenseMap<Operation *, Frame> memo;
  for (const std::string &kernel : kernels) {
    auto fn = symbols.lookup<LLVM::LLVMFuncOp>(kernel);
    if (!fn)
      continue;
    Frame frame = frameOf(fn, symbols, layout, memo);
    if (frame.bytes > abi::kMaxStackBytes)
      return emitError(frame.largestAt.value_or(fn.getLoc()), "kernel '")
             << kernel << "' needs " << frame.bytes
             << " bytes of private memory per invocation (its variables and "
                "memref.alloca arrays, with those of the functions it "
                "calls); the spirv-cpu target allows at most "
             << abi::kMaxStackBytes
             << ": put larger arrays in workgroup memory or a buffer";
    state.stackBytes[kernel] = uint32_t(frame.bytes);
  }
  return success();
}
