//===- AsyncDependencies.h - An async gpu op's dependencies -----*- C++ -*-===//
//
// The host passes that rewrite async tokens (MergeAsyncDependencies.cpp,
// GPUAsyncRegion.cpp) replace an op's async dependencies. The interface
// reads them but has no setter; this is the one place that knows which ops
// the host lowering gives dependencies.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_HOST_ASYNCDEPENDENCIES_H
#define KILN_LIB_HOST_ASYNCDEPENDENCIES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/TypeSwitch.h"

namespace kiln::host {

/// Makes `deps` the async dependencies of `op`; false (nothing changed) for
/// an op other than the gpu ops the host lowering handles.
inline bool setAsyncDependencies(mlir::Operation *op, mlir::ValueRange deps) {
  return llvm::TypeSwitch<mlir::Operation *, bool>(op)
      .Case<mlir::gpu::WaitOp, mlir::gpu::LaunchFuncOp, mlir::gpu::MemcpyOp,
            mlir::gpu::MemsetOp, mlir::gpu::AllocOp, mlir::gpu::DeallocOp,
            mlir::gpu::LaunchOp>([&](auto concrete) {
        concrete.getAsyncDependenciesMutable().assign(deps);
        return true;
      })
      .Default([](mlir::Operation *) { return false; });
}

} // namespace kiln::host

#endif // KILN_LIB_HOST_ASYNCDEPENDENCIES_H
