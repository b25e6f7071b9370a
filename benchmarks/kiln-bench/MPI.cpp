//===- MPI.cpp - kiln-bench under mpirun ----------------------------------===//
//
// The MPI job through one runtime library's `__kiln_mpi_*` entry points
// (kiln/Contract/MPIABI.h): each call gets 1-D memref descriptors built
// here, as compiled host code passes them.
//
//===----------------------------------------------------------------------===//

#include "MPI.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <type_traits>
#include <unistd.h>

namespace kiln {
namespace bench {

using kiln::mpi::ElementKind;
using kiln::mpi::Implementation;
using kiln::mpi::Reduction;

namespace {

/// A rank-1 memref descriptor: {allocated, aligned, offset, size, stride}.
struct Descriptor1D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
};

Descriptor1D descriptor(const void *data, int64_t count) {
  void *p = const_cast<void *>(data);
  return Descriptor1D{p, p, 0, count, 1};
}

/// A positive integer in environment variable `name`; 0 when unset.
int environmentCount(const char *name) {
  const char *text = std::getenv(name);
  if (!text || !*text)
    return 0;
  char *end = nullptr;
  long v = std::strtol(text, &end, 10);
  return *end || v <= 0 || v > (1 << 30) ? 0 : int(v);
}

/// The bytes of each rank's message in agree().
constexpr size_t kMessageBytes = 384;

} // namespace

bool detectMPI(const std::string &forced, Implementation &impl, bool &under,
               std::string &why) {
  bool openMPI = std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr;
  bool hydra = std::getenv("PMI_SIZE") != nullptr;
  under = openMPI || hydra || !forced.empty();
  // Open MPI unless only Hydra's variables say otherwise.
  impl = hydra && !openMPI ? Implementation::MPICH : Implementation::OpenMPI;
  if (forced == "openmpi")
    impl = Implementation::OpenMPI;
  else if (forced == "mpich")
    impl = Implementation::MPICH;
  else if (!forced.empty() && forced != "auto") {
    why = "--mpi='" + forced + "' must be openmpi or mpich";
    return false;
  }
  return true;
}

const char *implementationName(Implementation impl) {
  return impl == Implementation::MPICH ? "MPICH" : "Open MPI";
}

int localRanksFromEnvironment() {
  for (const char *name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS",
                           "SLURM_NTASKS_PER_NODE"})
    if (int n = environmentCount(name))
      return n;
  return 0;
}

int ranksFromEnvironment() {
  for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (int n = environmentCount(name))
      return n;
  return 0;
}

int rankFromEnvironment() {
  for (const char *name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK"})
    if (int n = environmentCount(name))
      return n;
  return 0;
}

std::unique_ptr<MPIJob> MPIJob::open(void *handle, Implementation impl,
                                     std::string &why) {
  std::unique_ptr<MPIJob> job(new MPIJob());
  job->impl = impl;
  int32_t (*init)(int32_t) = nullptr;
  int64_t (*world)(int32_t) = nullptr;
  int32_t (*rank)(int32_t, int64_t, int32_t *) = nullptr;
  int32_t (*size)(int32_t, int64_t, int32_t *) = nullptr;
  auto resolve = [&](auto &fn, const char *name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
        dlsym(handle, name));
    if (!fn && why.empty())
      why = std::string("the runtime lacks ") + name +
            " (built without MPI support?)";
  };
  resolve(init, "__kiln_mpi_init");
  resolve(world, "__kiln_mpi_comm_world");
  resolve(rank, "__kiln_mpi_comm_rank");
  resolve(size, "__kiln_mpi_comm_size");
  resolve(job->finalizeFn, "__kiln_mpi_finalize");
  resolve(job->barrierFn, "__kiln_mpi_barrier");
  resolve(job->allreduceFn, "__kiln_mpi_allreduce");
  if (!why.empty())
    return nullptr;
  int32_t i = int32_t(impl);
  // The runtime ends the job itself when MPI cannot be loaded; a failing
  // call returns MPI's code.
  int32_t code = init(i);
  job->world = world(i);
  int32_t r = 0, n = 1;
  if (!code)
    code = rank(i, job->world, &r);
  if (!code)
    code = size(i, job->world, &n);
  if (code) {
    why = "MPI_Init, MPI_Comm_rank or MPI_Comm_size failed with code " +
          std::to_string(code);
    return nullptr;
  }
  job->rankValue = r;
  job->sizeValue = n;
  return job;
}

void MPIJob::check(int32_t code, const char *what) const {
  if (code)
    endJob(std::string(what) + " failed with MPI error code " +
           std::to_string(code));
}

void MPIJob::endJob(const std::string &why) const {
  std::fprintf(stderr, "kiln-bench: rank %d of %d: %s; ending the job\n",
               rankValue, sizeValue, why.c_str());
  std::fflush(stdout);
  std::fflush(stderr);
  // Not exit(): its handlers would finalize MPI, which waits for the
  // others.
  _exit(1);
}

void MPIJob::barrier() {
  check(barrierFn(int32_t(impl), world), "MPI_Barrier");
}

void MPIJob::sum(std::vector<double> &values) {
  if (values.empty())
    return;
  Descriptor1D d = descriptor(values.data(), int64_t(values.size()));
  check(allreduceFn(int32_t(impl), 1, &d, 1, &d, int32_t(ElementKind::F64),
                    int32_t(Reduction::Sum), 1, world),
        "MPI_Allreduce");
}

void MPIJob::allreduceSum(const float *send, float *recv, int64_t count) {
  Descriptor1D s = descriptor(send, count), r = descriptor(recv, count);
  check(allreduceFn(int32_t(impl), 1, &s, 1, &r, int32_t(ElementKind::F32),
                    int32_t(Reduction::Sum), 0, world),
        "MPI_Allreduce");
}

std::string MPIJob::agree(const std::string &error) {
  // Each rank writes its message into its own slot and zeros elsewhere:
  // the byte-wise sum is every rank's message.
  std::vector<uint8_t> text(kMessageBytes * size_t(sizeValue), 0);
  size_t n = std::min(error.size(), kMessageBytes - 1);
  if (!error.empty())
    std::memcpy(&text[kMessageBytes * size_t(rankValue)], error.data(), n);
  std::vector<uint8_t> all(text.size(), 0);
  Descriptor1D s = descriptor(text.data(), int64_t(text.size()));
  Descriptor1D r = descriptor(all.data(), int64_t(all.size()));
  check(allreduceFn(int32_t(impl), 1, &s, 1, &r, int32_t(ElementKind::U8),
                    int32_t(Reduction::Sum), 0, world),
        "MPI_Allreduce");
  std::string errors;
  for (int i = 0; i < sizeValue; ++i) {
    const char *slot = reinterpret_cast<const char *>(&all[kMessageBytes * i]);
    std::string message(slot, strnlen(slot, kMessageBytes));
    if (message.empty())
      continue;
    if (!errors.empty())
      errors += "; ";
    errors += "rank " + std::to_string(i) + ": " + message;
  }
  return errors;
}

void MPIJob::finish() {
  if (finished)
    return;
  finished = true;
  check(finalizeFn(int32_t(impl)), "MPI_Finalize");
}

} // namespace bench
} // namespace kiln
