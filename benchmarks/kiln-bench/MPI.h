//===- MPI.h - kiln-bench under mpirun --------------------------*- C++ -*-===//
//
// Under mpirun (or with --mpi) kiln-bench is one rank of an MPI job and
// measures what the ranks do together: Kiln's stream kernels on every
// rank's device at once (kiln_mpiN) and the f32 sum allreduce of host and
// device buffers. It speaks MPI through the entry points every Kiln runtime
// library exports for compiled mpi dialect programs
// (kiln/Contract/MPIABI.h), so it links no MPI and stages device memory as
// such programs do; each rank runs on its own device, the runtime's choice
// (local rank modulo the device count).
//
// Every rank makes the same collective calls in the same order: the
// families, groups and repetitions are the same on every rank, a check's
// verdict is agreed before anyone goes on, and a repetition returns the
// slowest rank's time, so the repetitions Runner.cpp derives from it are
// the same everywhere. What one rank cannot agree on (a runtime error in
// the middle of a timed repetition, an MPI call that fails) ends the job.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_BENCHMARKS_KILNBENCH_MPI_H
#define KILN_BENCHMARKS_KILNBENCH_MPI_H

#include "kiln/Contract/MPIABI.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kiln {
namespace bench {

/// Whether kiln-bench runs as a rank of an MPI job, and of which
/// implementation: --mpi=openmpi|mpich, or --mpi and the launcher's
/// environment, or the launcher's environment alone (Open MPI's
/// OMPI_COMM_WORLD_SIZE, Hydra's PMI_SIZE). `forced` is --mpi's value ("":
/// none, "auto": --mpi without one). False when it does not; `why` says
/// what is wrong with `forced` when that is the reason.
bool detectMPI(const std::string &forced, kiln::mpi::Implementation &impl,
               bool &under, std::string &why);
/// The implementation's name, as the reports show it.
const char *implementationName(kiln::mpi::Implementation impl);
/// The ranks of this job on this node, from the launcher's environment
/// (0: unknown).
int localRanksFromEnvironment();
/// The job's size from the launcher's environment (0: unknown), and this
/// process's rank (0 when unknown), for --list.
int ranksFromEnvironment();
int rankFromEnvironment();

/// MPI through the `__kiln_mpi_*` entry points of one runtime library: a
/// device buffer of that runtime's allocate() is staged by it.
class MPIJob {
public:
  /// Resolves the entry points in the runtime library `handle` and
  /// initializes MPI (the runtime finalizes it at exit unless finish()
  /// did). Null, with `why`, when the library lacks them.
  static std::unique_ptr<MPIJob>
  open(void *handle, kiln::mpi::Implementation impl, std::string &why);

  int rank() const { return rankValue; }
  int size() const { return sizeValue; }
  kiln::mpi::Implementation implementation() const { return impl; }

  void barrier();
  /// The element-wise sum over the ranks of `values`, in place.
  void sum(std::vector<double> &values);
  /// The f32 sum over the ranks of `count` floats at `send` into `recv`:
  /// host memory or device memory of this runtime.
  void allreduceSum(const float *send, float *recv, int64_t count);
  /// Every rank's `error` ("" where it had none), exchanged: "" when no
  /// rank had one, else "rank i: ERROR; rank j: ..." (each message cut to
  /// a few hundred bytes), the same on every rank.
  std::string agree(const std::string &error);
  /// Prints `why` with the rank and ends the whole job: mpirun ends the
  /// other ranks when one exits with an error.
  [[noreturn]] void endJob(const std::string &why) const;
  /// MPI_Finalize, once every rank is done.
  void finish();

private:
  MPIJob() = default;
  /// Ends the job when `code` (an entry point's return) is not MPI_SUCCESS.
  void check(int32_t code, const char *what) const;

  kiln::mpi::Implementation impl = kiln::mpi::Implementation::OpenMPI;
  int rankValue = 0, sizeValue = 1;
  int64_t world = 0;
  bool finished = false;
  int32_t (*finalizeFn)(int32_t) = nullptr;
  int32_t (*barrierFn)(int32_t, int64_t) = nullptr;
  int32_t (*allreduceFn)(int32_t, int64_t, void *, int64_t, void *, int32_t,
                         int32_t, int32_t, int64_t) = nullptr;
};

} // namespace bench
} // namespace kiln

#endif // KILN_BENCHMARKS_KILNBENCH_MPI_H
