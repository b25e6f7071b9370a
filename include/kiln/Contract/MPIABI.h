//===- MPIABI.h - Contract of Kiln's mpi dialect lowering -------*- C++ -*-===//
//
// Programs written with MLIR's `mpi` dialect run under mpirun: Kiln's
// `--kiln-mpi-to-llvm` lowers every mpi op to a call of one of the entry
// points below, and the runtime behind them (lib/Runtime/Common/MPI.cpp,
// in every runtime library) loads the MPI library, speaks its ABI, stages
// device memory through host memory and ends the whole job on an error
// (docs/mpi.md). This header is the whole contract between the two: the
// compiler emits calls against the codes and signatures here, the runtime
// implements them. Standard C++ only, so that the runtime links no LLVM.
//
// Why calls into Kiln instead of calls into MPI (what upstream's MPIToLLVM
// emits): a memref may be device memory that MPI cannot read, strided, or
// too long for an `int` count, and an MPI handle's type differs between
// implementations; the runtime sees the memory and the library at run time
// and the compiler sees neither.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONTRACT_MPIABI_H
#define KILN_CONTRACT_MPIABI_H

#include <cstdint>

namespace kiln {
namespace mpi {

/// Which MPI the program was compiled for: the module's
/// `dlti.map<"MPI:Implementation" = ...>` ("OpenMPI" or "MPICH"). Every
/// entry point takes it first; the runtime loads that implementation's
/// library on the first call (Open MPI's libmpi.so.40, MPICH's
/// libmpich.so.12; KILN_MPI_LIBRARY names another file) and refuses a
/// later call that names the other one.
enum class Implementation : int32_t { OpenMPI = 0, MPICH = 1 };

/// The element type of a memref an op sends, receives or reduces. The
/// compiler refuses every other element type; f16 and bf16 travel as
/// 16-bit words and cannot be reduced (MPI has no datatype for them).
enum class ElementKind : int32_t {
  F32 = 0,
  F64 = 1,
  I8 = 2, ///< i8 and si8
  I16 = 3,
  I32 = 4,
  I64 = 5, ///< also index (64 bits on the host)
  U8 = 6,
  U16 = 7,
  U32 = 8,
  U64 = 9,
  Bool = 10, ///< i1, one byte per element in memory (MPI_C_BOOL)
  F16 = 11,
  BF16 = 12,
  ComplexF32 = 13,
  ComplexF64 = 14,
};

/// Bytes per element of `kind`; 0 for a code outside the enum.
constexpr int64_t elementBytes(int32_t kind) {
  switch (static_cast<ElementKind>(kind)) {
  case ElementKind::I8:
  case ElementKind::U8:
  case ElementKind::Bool:
    return 1;
  case ElementKind::I16:
  case ElementKind::U16:
  case ElementKind::F16:
  case ElementKind::BF16:
    return 2;
  case ElementKind::F32:
  case ElementKind::I32:
  case ElementKind::U32:
    return 4;
  case ElementKind::F64:
  case ElementKind::I64:
  case ElementKind::U64:
  case ElementKind::ComplexF32:
    return 8;
  case ElementKind::ComplexF64:
    return 16;
  }
  return 0;
}

/// The reduction of mpi.allreduce, numbered as MLIR 22's
/// MPI_ReductionOpEnum (MPI_OP_NULL = 0 ... MPI_REPLACE = 13). The compiler
/// refuses OpNull, MinLoc, MaxLoc and Replace (no pair types; Replace is
/// for one-sided operations), logical and bitwise ones on floats, and every
/// one but Sum and Prod on complex numbers.
enum class Reduction : int32_t {
  OpNull = 0,
  Max = 1,
  Min = 2,
  Sum = 3,
  Prod = 4,
  LAnd = 5,
  BAnd = 6,
  LOr = 7,
  BOr = 8,
  LXor = 9,
  BXor = 10,
  MinLoc = 11,
  MaxLoc = 12,
  Replace = 13,
};

/// Bumped on every incompatible change of the entry points below.
constexpr uint32_t kABIVersion = 1;

} // namespace mpi
} // namespace kiln

// The entry points. A memref argument is its rank and a pointer to its
// ranked descriptor {allocated, aligned, offset, sizes[rank],
// strides[rank]} (docs/abi.md) with the code of its element type; it may be
// host memory or a gpu.alloc allocation of the program's devices, any
// layout. `!mpi.comm` is the implementation's own handle widened to 64 bits
// (MPI_Comm: a pointer in Open MPI, an int in MPICH); `!mpi.request` is a
// number the runtime gave out; `!mpi.retval` is MPI's int return code. They
// return MPI's return code, or end the job (MPI_Abort) with a message on
// stderr when something Kiln checks is wrong: a memref past MPI's `int`
// count, memory of no device, an unknown request, MPI not loadable.
extern "C" {
/// mpi.init: MPI_Init(NULL, NULL) unless MPI is already initialized (the
/// runtime initializes MPI at the first op of a program that has no
/// mpi.init, as shard programs do). MPI is finalized at exit when the
/// program did not.
int32_t __kiln_mpi_init(int32_t impl);
int32_t __kiln_mpi_finalize(int32_t impl);
int64_t __kiln_mpi_comm_world(int32_t impl);
int32_t __kiln_mpi_comm_rank(int32_t impl, int64_t comm, int32_t *rank);
int32_t __kiln_mpi_comm_size(int32_t impl, int64_t comm, int32_t *size);
int32_t __kiln_mpi_comm_split(int32_t impl, int64_t comm, int32_t color,
                              int32_t key, int64_t *newComm);
int32_t __kiln_mpi_send(int32_t impl, int64_t rank, void *descriptor,
                        int32_t kind, int32_t tag, int32_t dest, int64_t comm);
int32_t __kiln_mpi_recv(int32_t impl, int64_t rank, void *descriptor,
                        int32_t kind, int32_t tag, int32_t source,
                        int64_t comm);
int32_t __kiln_mpi_isend(int32_t impl, int64_t rank, void *descriptor,
                         int32_t kind, int32_t tag, int32_t dest, int64_t comm,
                         int64_t *request);
int32_t __kiln_mpi_irecv(int32_t impl, int64_t rank, void *descriptor,
                         int32_t kind, int32_t tag, int32_t source,
                         int64_t comm, int64_t *request);
/// Completes `request` (and copies what an irecv staged into its memref).
int32_t __kiln_mpi_wait(int32_t impl, int64_t request);
int32_t __kiln_mpi_barrier(int32_t impl, int64_t comm);
/// `inPlace`: the op's send and receive buffers are the same value
/// (MPI_IN_PLACE); the send buffer's descriptor is then not read.
int32_t __kiln_mpi_allreduce(int32_t impl, int64_t sendRank, void *sendDesc,
                             int64_t recvRank, void *recvDesc, int32_t kind,
                             int32_t reduction, int32_t inPlace, int64_t comm);
/// MPI_Error_class of `code`.
int32_t __kiln_mpi_error_class(int32_t impl, int32_t code);
/// Whether `code` is the error class `errorClass` (numbered as MLIR 22's
/// MPI_ErrorClassEnum: MPI_SUCCESS = 0, then MPI_ERR_ACCESS = 1 ...
/// MPI_ERR_LASTCODE = 62, alphabetical); false for a class the
/// implementation does not have.
int32_t __kiln_mpi_retval_check(int32_t impl, int32_t code,
                                int32_t errorClass);
}

#endif // KILN_CONTRACT_MPIABI_H
