//===- MPI.h - The runtime behind Kiln's mpi dialect lowering ---*- C++ -*-===//
//
// What the __kiln_mpi_* entry points (kiln/Contract/MPIABI.h) call: the
// process's MPI, loaded with dlopen on first use (no MPI header or library
// at build time), spoken to in the ABI the program was compiled for (Open
// MPI's pointer handles or MPICH's int handles), with memrefs of any
// layout and in device memory made ready for it. Every runtime library
// compiles it (Common/MPI.cpp); the entry points end the job on an error,
// this interface returns them. Standard C++ only.
//
// - MPI is initialized by mpi.init or, in a program without one (shard
//   programs), by its first op; it is finalized by mpi.finalize or at exit
//   when the program did not (an exit handler registered at initialization,
//   so it runs before the exit handlers of the device runtimes made earlier,
//   and touches no device). After a fatal error it is never finalized: the
//   job is aborted.
// - A memref whose elements are dense and row-major is handed to MPI in
//   place; any other layout is packed into a host buffer before MPI reads
//   it and unpacked after MPI wrote it.
// - Memory of the process's devices (gpu.alloc; DeviceList::ownerOf) is
//   staged through pinned host buffers: the range the memref spans is
//   copied to the host before MPI reads it and back after MPI wrote it,
//   each copy waited for. A CUDA-aware MPI (MPIX_Query_cuda_support() is 1)
//   gets CUDA device memory of a dense memref directly.
// - While MPI runs, a fatal error at the mgpu* boundary ends the whole job
//   (rt::fatalErrorHook, Timeout.h) with MPI_Abort(MPI_COMM_WORLD, 1).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_MPI_H
#define KILN_RUNTIME_MPI_H

#include "kiln/Contract/MPIABI.h"
#include "kiln/Runtime/Status.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace kiln {
namespace rt {

class DeviceList;

/// A memref operand as the entry points receive it: its rank, its ranked
/// descriptor {allocated, aligned, offset, sizes[rank], strides[rank]} and
/// the code of its element type (mpi::ElementKind).
struct MPIMemRef {
  int64_t rank = 0;
  const void *descriptor = nullptr;
  int32_t kind = 0;
};

/// What the runtime did with memrefs so far (for tests and measurements).
struct MPIStats {
  /// Copies of device memory to pinned host buffers, and back.
  uint64_t stagedToHost = 0;
  uint64_t stagedToDevice = 0;
  /// Memrefs packed into (before a send) and unpacked from (after a
  /// receive) dense host buffers because of their layout.
  uint64_t packed = 0;
  uint64_t unpacked = 0;
  /// Device memory handed to a CUDA-aware MPI as it is.
  uint64_t direct = 0;
};

/// The implementation's number for an error class of MLIR's
/// MPI_ErrorClassEnum (`dialectClass`, 0 = MPI_SUCCESS ... 62 =
/// MPI_ERR_LASTCODE); nullopt for a class that implementation lacks (or a
/// number outside the enum).
std::optional<int32_t> nativeErrorClass(mpi::Implementation implementation,
                                        int32_t dialectClass);

/// The process's MPI. Every operation takes the implementation the program
/// was compiled for first (the entry points' `impl`, an
/// mpi::Implementation code), and handles and return codes as the entry
/// points do; errors are what Kiln checks (MPI's own failures are its
/// return codes, or end the job through MPI's default error handler).
class MPIRuntime {
public:
  /// The process's instance (never destroyed: exit handlers use it).
  static MPIRuntime &get();

  /// mpi.init: MPI_Init unless MPI is initialized already; MPI_Init's code.
  Expected<int32_t> init(int32_t impl);
  /// mpi.finalize: MPI_Finalize's code. An error when MPI was finalized
  /// already or requests were not waited for.
  Expected<int32_t> finalize(int32_t impl);
  Expected<int64_t> commWorld(int32_t impl);
  Expected<int32_t> commRank(int32_t impl, int64_t comm, int32_t *rank);
  Expected<int32_t> commSize(int32_t impl, int64_t comm, int32_t *size);
  Expected<int32_t> commSplit(int32_t impl, int64_t comm, int32_t color,
                              int32_t key, int64_t *newComm);
  Expected<int32_t> send(int32_t impl, const MPIMemRef &ref, int32_t tag,
                         int32_t dest, int64_t comm);
  Expected<int32_t> recv(int32_t impl, const MPIMemRef &ref, int32_t tag,
                         int32_t source, int64_t comm);
  /// isend and irecv give out a request number; the memref's staging
  /// buffers live until wait.
  Expected<int32_t> isend(int32_t impl, const MPIMemRef &ref, int32_t tag,
                          int32_t dest, int64_t comm, int64_t *request);
  Expected<int32_t> irecv(int32_t impl, const MPIMemRef &ref, int32_t tag,
                          int32_t source, int64_t comm, int64_t *request);
  /// MPI_Wait, then what an irecv received is unpacked and copied to its
  /// memref. An error for a request the runtime did not give out or that
  /// was waited for already.
  Expected<int32_t> wait(int32_t impl, int64_t request);
  Expected<int32_t> barrier(int32_t impl, int64_t comm);
  /// `inPlace`: `recv` is both (MPI_IN_PLACE), `send` is not read.
  Expected<int32_t> allreduce(int32_t impl, const MPIMemRef &send,
                              const MPIMemRef &recv, int32_t reduction,
                              bool inPlace, int64_t comm);
  Expected<int32_t> errorClass(int32_t impl, int32_t code);
  Expected<int32_t> retvalCheck(int32_t impl, int32_t code, int32_t errorClass);

  /// The rank of this process in MPI_COMM_WORLD for messages: MPI's once
  /// initialized, before that the launcher's (0 without one).
  int rankForMessages();
  /// Ends the job after an error was printed: MPI_Abort(MPI_COMM_WORLD, 1)
  /// while MPI runs, exit(1) otherwise.
  [[noreturn]] void abortJob();
  /// MPI initialized (by Kiln or before) and not finalized.
  bool running();
  MPIStats stats();
  /// Pinned staging buffers kept for reuse.
  size_t cachedStagingBuffers();

  MPIRuntime(const MPIRuntime &) = delete;
  MPIRuntime &operator=(const MPIRuntime &) = delete;

  class Library;
  class Transfer;
  struct Block;

private:
  MPIRuntime();
  ~MPIRuntime();

  /// Checks `impl` against the implementation of the first call and loads
  /// the library.
  Expected<Library *> library(int32_t impl);
  /// The library of a running MPI, initialized first when the program did
  /// not (an error after finalize). `op` names the op in errors.
  Expected<Library *> running(int32_t impl, const char *op);
  /// Initializes MPI unless it runs; MPI_Init's code.
  Expected<int32_t> initialize(Library &lib, const char *op);
  /// What happens once MPI runs: the rank, CUDA awareness, the hook.
  void started(Library &lib);
  /// The exit handler: MPI_Finalize when Kiln initialized MPI and the
  /// program did not finalize it (and no error aborts the job).
  static void finalizeAtExit();

  /// A memref made ready for MPI (packed, staged), kept until `finish`.
  Expected<std::unique_ptr<Transfer>> prepare(const char *op, const char *which,
                                              const MPIMemRef &ref, bool reads,
                                              bool writes);
  Expected<Block> takeBlock(int device, size_t bytes);
  void giveBlock(Block block);
  /// Unregisters and frees the cached staging buffers.
  void releaseBlocks();
  Expected<int64_t> newRequest(int64_t native,
                               std::unique_ptr<Transfer> transfer);
  DeviceList &devices();
  /// Adds one to a counter of `counters`.
  void bump(uint64_t MPIStats::*counter);

  /// Held while MPI is initialized; taken before `mutex`.
  std::mutex initializing;
  std::mutex mutex; ///< Guards everything below.
  std::optional<mpi::Implementation> chosen;
  std::unique_ptr<Library> lib;
  bool initialized = false; ///< Seen initialized by Kiln.
  bool ownInit = false;     ///< Kiln called MPI_Init.
  bool finalized = false;
  bool aborting = false;
  bool exitHandler = false;
  bool cudaAware = false;
  int worldRank = -1;
  /// A request isend or irecv gave out: MPI's handle (widened to 64 bits)
  /// and the memref's staging, which wait finishes.
  struct Pending {
    int64_t native = 0;
    std::unique_ptr<Transfer> transfer;
  };
  std::map<int64_t, Pending> requests;
  int64_t nextRequest = 1;
  std::multimap<std::pair<int, size_t>, void *> freeBlocks;
  MPIStats counters;
};

} // namespace rt
} // namespace kiln

#endif // KILN_RUNTIME_MPI_H
