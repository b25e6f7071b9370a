//===- TidySPIRV.cpp - Loop results and access decorations ----------------===//
//
// What a converted spirv.module needs before it reaches a driver: loop
// results as values rather than Function variables, and the storage-buffer
// access decorations GLSL's readonly and writeonly give (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "kiln/Target/SPIRV/Serialization.h"

#include "kiln/Target/SPIRV/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/SymbolTable.h"

namespace kiln {
#define GEN_PASS_DEF_KILNTIDYSPIRV
#include "kiln/Target/SPIRV/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
/// A Function variable that carries one loop result: stored once per
/// iteration in the continue block with back-edge operand `arg`, loaded
/// after the loop.
struct CarriedResult {
  spirv::VariableOp var;
  spirv::StoreOp store;
  unsigned arg;
  SmallVector<spirv::LoadOp> loads;
};
} // namespace

/// The results upstream's scf.for lowering parks in variables of `loop`.
static SmallVector<CarriedResult> findCarriedResults(spirv::LoopOp loop) {
  SmallVector<CarriedResult> results;
  Block *header = loop.getHeaderBlock();
  Block *merge = loop.getMergeBlock();
  Block *cont = loop.getContinueBlock();
  // The header must be the only way out, so that its arguments hold the
  // last stored values when the loop exits.
  if (!header || !merge || !cont ||
      llvm::any_of(merge->getPredecessors(),
                   [&](Block *pred) { return pred != header; }))
    return results;
  auto back = dyn_cast<spirv::BranchOp>(cont->getTerminator());
  if (!back || back.getTarget() != header)
    return results;
  for (auto store : cont->getOps<spirv::StoreOp>()) {
    auto var = store.getPtr().getDefiningOp<spirv::VariableOp>();
    if (!var || loop->isAncestor(var))
      continue;
    auto operands = back.getTargetOperands();
    auto it = llvm::find(operands, store.getValue());
    if (it == operands.end())
      continue;
    CarriedResult result{var, store, unsigned(it - operands.begin()), {}};
    bool onlyLoadsAfter = llvm::all_of(var->getUsers(), [&](Operation *user) {
      if (user == store)
        return true;
      auto load = dyn_cast<spirv::LoadOp>(user);
      if (!load || load->getBlock() != loop->getBlock() ||
          !loop->isBeforeInBlock(load))
        return false;
      result.loads.push_back(load);
      return true;
    });
    if (onlyLoadsAfter)
      results.push_back(std::move(result));
  }
  return results;
}

/// True when a load of the variable feeds a branch (a phi) and the value's
/// type is one that serialization cannot pass on from a loop result
/// (kiln::canBranchConstructResult): such a result stays in its variable.
static bool feedsBranch(const CarriedResult &c) {
  if (kiln::canBranchConstructResult(
          cast<spirv::PointerType>(c.var->getResult(0).getType())
              .getPointeeType()))
    return false;
  return llvm::any_of(c.loads, [](spirv::LoadOp load) {
    return llvm::any_of(load->getUsers(), [](Operation *user) {
      return isa<spirv::BranchOp, spirv::BranchConditionalOp>(user);
    });
  });
}

/// Rebuilds `loop` with a result per carried variable: the header's
/// argument, yielded by the merge block. A variable that must stay gets the
/// initial value stored before the loop, which is what the loop returns
/// when it runs no iteration.
static void loopResultsFromVariables(spirv::FuncOp fn) {
  SmallVector<spirv::LoopOp> loops;
  fn.walk([&](spirv::LoopOp loop) { loops.push_back(loop); });
  for (spirv::LoopOp loop : loops) {
    if (loop.getNumResults() != 0)
      continue;
    SmallVector<CarriedResult> carried = findCarriedResults(loop);
    auto entry =
        dyn_cast<spirv::BranchOp>(loop.getBody().front().getTerminator());
    for (CarriedResult &c : carried) {
      if (!feedsBranch(c))
        continue;
      Value init = entry ? entry.getTargetOperands()[c.arg] : Value();
      if (!init || loop->isAncestor(init.getParentRegion()->getParentOp()))
        continue;
      OpBuilder b(loop);
      spirv::StoreOp::create(b, c.store->getLoc(), c.var.getResult(), init);
    }
    llvm::erase_if(carried, feedsBranch);
    if (carried.empty())
      continue;
    Block *header = loop.getHeaderBlock();
    SmallVector<Value> yielded;
    for (const CarriedResult &c : carried)
      yielded.push_back(header->getArgument(c.arg));
    OpBuilder b(loop);
    auto rebuilt =
        spirv::LoopOp::create(b, loop.getLoc(), ValueRange(yielded).getTypes(),
                              loop.getLoopControl());
    rebuilt.getBody().takeBody(loop.getBody());
    rebuilt.getMergeBlock()->getTerminator()->setOperands(yielded);
    for (auto [i, c] : llvm::enumerate(carried)) {
      for (spirv::LoadOp load : c.loads) {
        load.replaceAllUsesWith(rebuilt.getResult(i));
        load.erase();
      }
      c.store.erase();
      c.var.erase();
    }
    loop.erase();
  }
}

namespace {
struct Access {
  bool reads = false;
  bool writes = false;
};
} // namespace

/// How the pointers derived from `root` are used; nullopt when a use is
/// not a plain load, store or atomic.
static std::optional<Access> collectAccess(Value root) {
  Access access;
  SmallVector<Value> worklist{root};
  while (!worklist.empty()) {
    Value ptr = worklist.pop_back_val();
    for (OpOperand &use : ptr.getUses()) {
      Operation *user = use.getOwner();
      if (isa<spirv::LoadOp>(user)) {
        access.reads = true;
      } else if (auto store = dyn_cast<spirv::StoreOp>(user)) {
        if (use.get() != store.getPtr())
          return std::nullopt;
        access.writes = true;
      } else if (isa<spirv::AccessChainOp, spirv::PtrAccessChainOp,
                     spirv::InBoundsPtrAccessChainOp>(user)) {
        worklist.push_back(user->getResult(0));
      } else if (user->getName().getStringRef().starts_with("spirv.Atomic")) {
        access.reads = access.writes = true;
      } else if (auto call = dyn_cast<spirv::FunctionCallOp>(user);
                 call &&
                 call.getCallee().starts_with(kiln::kArrayLengthStubPrefix)) {
        // OpArrayLength once serialized: neither a read nor a write.
      } else {
        return std::nullopt;
      }
    }
  }
  return access;
}

/// NonWritable on storage buffers no code writes, NonReadable on those none
/// reads.
static void decorateBufferAccess(spirv::ModuleOp module) {
  for (auto var : module.getOps<spirv::GlobalVariableOp>()) {
    auto type = dyn_cast<spirv::PointerType>(var.getType());
    if (!type || type.getStorageClass() != spirv::StorageClass::StorageBuffer)
      continue;
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(var, module);
    if (!uses)
      continue;
    Access total;
    bool known = true;
    for (const SymbolTable::SymbolUse &use : *uses) {
      // Since SPIR-V 1.4 entry points list every global they use.
      if (isa<spirv::EntryPointOp>(use.getUser()))
        continue;
      auto address = dyn_cast<spirv::AddressOfOp>(use.getUser());
      std::optional<Access> access =
          address ? collectAccess(address.getPointer()) : std::nullopt;
      if (!access) {
        known = false;
        break;
      }
      total.reads |= access->reads;
      total.writes |= access->writes;
    }
    if (!known)
      continue;
    UnitAttr unit = UnitAttr::get(module.getContext());
    if (!total.writes)
      var->setAttr("non_writable", unit);
    if (!total.reads)
      var->setAttr("non_readable", unit);
  }
}

/// Erases loads whose value nothing uses (the push-constant fields a
/// kernel does not read, for one), unless volatile: canonicalization keeps
/// them, since a load reads memory.
static void eraseUnusedLoads(spirv::FuncOp fn) {
  SmallVector<spirv::LoadOp> dead;
  fn.walk([&](spirv::LoadOp load) {
    std::optional<spirv::MemoryAccess> access = load.getMemoryAccess();
    if (load->use_empty() &&
        !(access && spirv::bitEnumContainsAll(
                        *access, spirv::MemoryAccess::Volatile)))
      dead.push_back(load);
  });
  for (spirv::LoadOp load : dead)
    load.erase();
}

namespace {
class TidySPIRVPass : public kiln::impl::KilnTidySPIRVBase<TidySPIRVPass> {
public:
  using Base::Base;
  void runOnOperation() override {
    spirv::ModuleOp module = getOperation();
    for (auto fn : module.getOps<spirv::FuncOp>()) {
      loopResultsFromVariables(fn);
      eraseUnusedLoads(fn);
    }
    decorateBufferAccess(module);
  }
};
} // namespace
