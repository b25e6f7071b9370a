//===- Unconvertible.h - Ops a dialect conversion cannot convert -*- C++ -*-===//
//
// What Kiln's conversions (GPU to SPIR-V, SPIR-V to the LLVM dialect for the
// CPU) report when they fail: the ops that cannot be converted, found by the
// conversion's own analysis rather than from the text of its diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSION_UNCONVERTIBLE_H
#define KILN_CONVERSION_UNCONVERTIBLE_H

#include "mlir/IR/Operation.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace kiln {

/// The ops under `root` that `mustConvert` says need converting and that no
/// pattern of `patterns` legalizes for `target`, from an analysis conversion
/// (nothing is rewritten). An op nested in one that cannot be converted is
/// left out: a construct that fails is one error, not one per op inside it.
/// Fails when the analysis itself does.
inline mlir::FailureOr<llvm::SmallVector<mlir::Operation *>>
findUnconvertibleOps(mlir::Operation *root, mlir::ConversionTarget &target,
                     const mlir::FrozenRewritePatternSet &patterns,
                     llvm::function_ref<bool(mlir::Operation *)> mustConvert) {
  llvm::DenseSet<mlir::Operation *> legalizable;
  mlir::ConversionConfig config;
  config.legalizableOps = &legalizable;
  if (mlir::failed(
          mlir::applyAnalysisConversion(root, target, patterns, config)))
    return mlir::failure();
  llvm::SmallVector<mlir::Operation *> unconvertible;
  root->walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *op) {
    if (legalizable.contains(op) || !mustConvert(op))
      return mlir::WalkResult::advance();
    unconvertible.push_back(op);
    return mlir::WalkResult::skip();
  });
  return unconvertible;
}

} // namespace kiln

#endif // KILN_CONVERSION_UNCONVERTIBLE_H
