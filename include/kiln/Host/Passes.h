//===- Passes.h - KilnHost passes ---------------------------*- C++ -*-===//
//
// The host side of launches: memory spaces, registrations, async (Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_HOST_PASSES_H
#define KILN_HOST_PASSES_H

#include "kiln/Contract/MPIABI.h"
#include "kiln/Dialect/Kiln/KilnDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace kiln {

#define GEN_PASS_DECL
#include "kiln/Host/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Host/Passes.h.inc"

/// The MPI `module`'s mpi ops call: its `#dlti.map<"MPI:Implementation" =
/// "OpenMPI" | "MPICH">` entry, or else `requested` ("openmpi" or "mpich"),
/// which is then recorded in the module's dlti.map. `required`: `requested`
/// was asked for, so an entry naming the other one is an error. Errors (an
/// unknown name, a conflict) are emitted at the module and name `origin`,
/// how `requested` was asked for (e.g. "--mpi=mpich").
mlir::FailureOr<mpi::Implementation>
resolveMPIImplementation(mlir::ModuleOp module, llvm::StringRef requested,
                         bool required, llvm::StringRef origin);

} // namespace kiln

#endif // KILN_HOST_PASSES_H
