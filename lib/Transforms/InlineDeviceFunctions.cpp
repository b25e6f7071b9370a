//===- InlineDeviceFunctions.cpp - Device functions into their kernels ----===//
//
// Outlining copies every func.func a kernel calls into the kernel's GPU
// module. Vulkan's logical addressing cannot pass buffers to functions, and
// one rule for both targets is simpler to reason about, so Kiln inlines
// them all into the kernels and drops them. What cannot be inlined is
// refused at the call with the reason: a function with no body (a host
// function such as printMemrefF32) and recursion.
//
//===----------------------------------------------------------------------===//

#include "kiln/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace kiln {
#define GEN_PASS_DEF_KILNINLINEDEVICEFUNCTIONS
#include "kiln/Transforms/Passes.h.inc"
} // namespace kiln

using namespace mlir;

/// The name of the kernel or function that holds `op`, for messages.
static std::string holderName(Operation *op) {
  if (auto fn = op->getParentOfType<gpu::GPUFuncOp>())
    return ("kernel '" + fn.getName() + "'").str();
  if (auto fn = op->getParentOfType<func::FuncOp>())
    return ("device function '" + fn.getName() + "'").str();
  return "a kernel";
}

/// Finds a cycle of calls through `fn` and returns its path, or empty.
static bool findCycle(func::FuncOp fn, SymbolTable &table,
                      SmallVectorImpl<func::FuncOp> &path,
                      llvm::SmallPtrSetImpl<Operation *> &done) {
  if (llvm::is_contained(path, fn)) {
    path.push_back(fn);
    return true;
  }
  if (done.contains(fn))
    return false;
  path.push_back(fn);
  WalkResult r = fn.walk([&](func::CallOp call) {
    auto callee = table.lookup<func::FuncOp>(call.getCallee());
    if (callee && findCycle(callee, table, path, done))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (r.wasInterrupted())
    return true;
  path.pop_back();
  done.insert(fn);
  return false;
}

/// Replaces `call` by a copy of `callee`'s body: in place when the body is
/// one block, else in an scf.execute_region (which may hold a CFG anywhere,
/// also inside scf.if; the SPIR-V pipeline structures it later).
static LogicalResult inlineCall(func::CallOp call, func::FuncOp callee) {
  if (!callee)
    return call.emitError() << "'" << call.getCallee() << "' is not a "
                               "func.func of this GPU module";
  OpBuilder b(call);
  Region &body = callee.getBody();
  if (body.hasOneBlock()) {
    IRMapping map;
    map.map(body.getArguments(), call.getOperands());
    for (Operation &op : body.front().without_terminator())
      b.clone(op, map);
    auto ret = cast<func::ReturnOp>(body.front().getTerminator());
    SmallVector<Value> results;
    for (Value v : ret.getOperands())
      results.push_back(map.lookupOrDefault(v));
    call.replaceAllUsesWith(results);
    call.erase();
    return success();
  }
  auto region = scf::ExecuteRegionOp::create(b, call.getLoc(),
                                             call.getResultTypes());
  IRMapping map;
  body.cloneInto(&region.getRegion(), map);
  Block &entry = region.getRegion().front();
  for (auto [arg, operand] : llvm::zip(entry.getArguments(), call.getOperands()))
    arg.replaceAllUsesWith(operand);
  entry.eraseArguments(0, entry.getNumArguments());
  region.walk([&](func::ReturnOp ret) {
    OpBuilder rb(ret);
    scf::YieldOp::create(rb, ret.getLoc(), ret.getOperands());
    ret.erase();
  });
  call.replaceAllUsesWith(region.getResults());
  call.erase();
  return success();
}

namespace {
class InlineDeviceFunctionsPass
    : public kiln::impl::KilnInlineDeviceFunctionsBase<
          InlineDeviceFunctionsPass> {
public:
  using Base::Base;
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    SymbolTable table(module);
    bool failed = false;

    // Calls of functions with no body: host functions.
    module.walk([&](func::CallOp call) {
      auto callee = table.lookup<func::FuncOp>(call.getCallee());
      if (!callee || !callee.isExternal())
        return;
      call.emitError() << holderName(call) << " calls '" << call.getCallee()
                       << "', which has no body in GPU module '"
                       << module.getName()
                       << "': host functions cannot be called from kernels; "
                          "a device function must be defined in the program";
      failed = true;
    });

    // Recursion, which inlining cannot remove.
    llvm::SmallPtrSet<Operation *, 8> done;
    for (auto fn : module.getOps<func::FuncOp>()) {
      SmallVector<func::FuncOp> path;
      if (!findCycle(fn, table, path, done))
        continue;
      std::string chain;
      for (func::FuncOp f : path)
        chain += (chain.empty() ? "" : " -> ") + f.getName().str();
      path.back().emitError("device function '")
          << path.back().getName() << "' is recursive (" << chain
          << "): Kiln inlines device functions into their kernels and "
             "cannot inline recursion";
      failed = true;
      break;
    }
    if (failed)
      return signalPassFailure();
    if (module.getOps<func::FuncOp>().empty())
      return;

    // Inline until no call is left: bodies may call further functions,
    // and without recursion that ends.
    while (true) {
      SmallVector<func::CallOp> calls;
      module.walk([&](func::CallOp call) { calls.push_back(call); });
      if (calls.empty())
        break;
      for (func::CallOp call : calls)
        if (mlir::failed(inlineCall(call, table.lookup<func::FuncOp>(
                                              call.getCallee()))))
          return signalPassFailure();
    }
    for (auto fn : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      fn.erase();
  }
};
} // namespace
