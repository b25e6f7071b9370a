//===- ShardToMPI.cpp - Shard communication to mpi ops --------------------===//
//
// Upstream's convert-shard-to-mpi lowers shard's communication ops to the
// mpi dialect but leaves the shard.grid symbols, which no later lowering
// takes, and silently keeps the shard ops it has no pattern for. This pass
// runs it where there is something to lower, then drops the grids and
// reports what is left.
//
//===----------------------------------------------------------------------===//

#include "kiln/Host/Passes.h"

#include "mlir/Conversion/ShardToMPI/ShardToMPI.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"

namespace kiln {
#define GEN_PASS_DEF_KILNSHARDTOMPI
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;

static bool isShardOp(Operation *op) {
  return isa_and_present<shard::ShardDialect>(op->getDialect());
}

namespace {
class ShardToMPIPass : public kiln::impl::KilnShardToMPIBase<ShardToMPIPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // convert-shard-to-mpi also folds and simplifies the whole module:
    // only where it has something to lower.
    bool hasCommunication = false;
    module.walk([&](Operation *op) {
      if (isShardOp(op) && !isa<shard::GridOp>(op))
        hasCommunication = true;
    });
    if (hasCommunication) {
      // Upstream's pass reports a shard op it has no pattern for as "failed
      // to legalize" and succeeds anyway; the walk below reports it, saying
      // what convert-shard-to-mpi does lower.
      ScopedDiagnosticHandler quiet(&getContext(), [](Diagnostic &diag) {
        return success(
            diag.getSeverity() == DiagnosticSeverity::Error &&
            StringRef(diag.str())
                .starts_with("failed to legalize operation 'shard."));
      });
      OpPassManager pm(ModuleOp::getOperationName());
      pm.addPass(createConvertShardToMPIPass());
      if (failed(runPipeline(pm, module)))
        return signalPassFailure();
    }

    SmallVector<Operation *> grids;
    bool leftover = false;
    module.walk(
        [&](Operation *op) {
          if (!isShardOp(op))
            return;
          if (isa<shard::GridOp>(op)) {
            grids.push_back(op);
            return;
          }
          op->emitError("'")
              << op->getName()
              << "' has no lowering to MPI in MLIR 22; convert-shard-to-mpi "
                 "lowers shard.all_reduce, shard.update_halo and the process, "
                 "grid and shard-shape queries";
          leftover = true;
        });
    if (leftover)
      return signalPassFailure();
    for (Operation *grid : grids)
      grid->erase();
  }
};
} // namespace
