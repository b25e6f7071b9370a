//===- MPIRuntimeTest.cpp - The __kiln_mpi_* entry points -----------------===//
//
// The MPI runtime every runtime library carries (lib/Runtime/Common/MPI.cpp),
// here the spirv-cpu runtime's, run as a singleton MPI process (rank 0 of 1,
// no mpirun): sends to itself, reductions over memrefs of several layouts
// and element types, device memory staged through host memory, the errors
// Kiln checks, and the default device and worker count under a launcher.
// Skipped where Open MPI (libmpi.so.40) is not installed. Errors that end
// the job run in death tests, in processes of their own.
//
//===----------------------------------------------------------------------===//

#include "Boundary.h"
#include "DeviceChoice.h"
#include "Executor.h"
#include "MPI.h"
#include "kiln/Contract/MGPU.h"
#include "kiln/Contract/MPIABI.h"
#include "kiln/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
#include <numeric>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using kiln::mpi::ElementKind;
using kiln::mpi::Implementation;
using kiln::mpi::Reduction;
using kiln::rt::MPIRuntime;

constexpr int32_t kOpenMPI = static_cast<int32_t>(Implementation::OpenMPI);
constexpr int32_t kMPICH = static_cast<int32_t>(Implementation::MPICH);

bool haveOpenMPI() {
  static bool have = [] {
    void *handle = dlopen("libmpi.so.40", RTLD_NOW | RTLD_GLOBAL);
    return handle != nullptr;
  }();
  return have;
}

bool haveMPICH() {
  // Probed without loading it into this process (one MPI per process).
  for (const char *dir :
       {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"})
    if (access((std::string(dir) + "/libmpich.so.12").c_str(), R_OK) == 0)
      return true;
  return false;
}

#define REQUIRE_OPEN_MPI()                                                     \
  do {                                                                         \
    if (!haveOpenMPI())                                                        \
      GTEST_SKIP() << "Open MPI's libmpi.so.40 cannot be loaded (on Debian: "  \
                      "openmpi-bin libopenmpi-dev)";                           \
  } while (false)

/// A ranked memref descriptor {allocated, aligned, offset, sizes, strides}
/// over `data`.
template <int Rank> struct Descriptor {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[Rank > 0 ? Rank : 1];
  int64_t strides[Rank > 0 ? Rank : 1];
};

template <int Rank>
Descriptor<Rank> describe(void *data, int64_t offset,
                          std::initializer_list<int64_t> sizes,
                          std::initializer_list<int64_t> strides) {
  Descriptor<Rank> d{};
  d.allocated = d.aligned = data;
  d.offset = offset;
  std::copy(sizes.begin(), sizes.end(), d.sizes);
  std::copy(strides.begin(), strides.end(), d.strides);
  return d;
}

int32_t kindOf(ElementKind kind) { return static_cast<int32_t>(kind); }
int32_t reductionOf(Reduction r) { return static_cast<int32_t>(r); }

/// Whether a death test's child ended with anything but status 0.
bool failed(int status) {
  return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

//===----------------------------------------------------------------------===//
// Errors that end the job, each in a process of its own (death tests run
// before the other tests, while this process has not initialized MPI)
//===----------------------------------------------------------------------===//

TEST(MPIDeathTest, UnknownRequestAbortsTheJobWithTheRank) {
  REQUIRE_OPEN_MPI();
  EXPECT_EXIT(__kiln_mpi_wait(kOpenMPI, 999), failed,
              "kiln-mpi: rank 0: mpi.wait: request 999 is no request of "
              "mpi.isend or mpi.irecv.*MPI_ABORT was invoked on rank 0");
}

TEST(MPIDeathTest, AFatalRuntimeErrorAbortsTheJob) {
  REQUIRE_OPEN_MPI();
  // A bad handle at the mgpu* boundary, once MPI runs: the runtime prints
  // its message, and the hook ends the job through MPI_Abort.
  EXPECT_EXIT(
      {
        __kiln_mpi_init(kOpenMPI);
        mgpuStreamDestroy(reinterpret_cast<void *>(0x1234));
      },
      failed, "kiln-spirv-cpu: .*MPI_ABORT was invoked on rank 0");
}

TEST(MPIDeathTest, FinalizeTwiceAndOpsAfterFinalizeAreErrors) {
  REQUIRE_OPEN_MPI();
  EXPECT_EXIT(
      {
        __kiln_mpi_init(kOpenMPI);
        __kiln_mpi_finalize(kOpenMPI);
        __kiln_mpi_finalize(kOpenMPI);
      },
      [](int status) { return WIFEXITED(status) && WEXITSTATUS(status) == 1; },
      "kiln-mpi: rank 0: mpi.finalize: MPI was finalized already");
  EXPECT_EXIT(
      {
        __kiln_mpi_init(kOpenMPI);
        __kiln_mpi_finalize(kOpenMPI);
        __kiln_mpi_barrier(kOpenMPI, __kiln_mpi_comm_world(kOpenMPI));
      },
      [](int status) { return WIFEXITED(status) && WEXITSTATUS(status) == 1; },
      "kiln-mpi: rank 0: mpi.comm_world after mpi.finalize");
}

TEST(MPIDeathTest, TheOtherImplementationIsRefused) {
  REQUIRE_OPEN_MPI();
  EXPECT_EXIT(
      {
        __kiln_mpi_init(kOpenMPI);
        __kiln_mpi_comm_world(kMPICH);
      },
      failed,
      "kiln-mpi: rank 0: an op compiled for MPICH but this process uses Open "
      "MPI");
}

TEST(MPIDeathTest, AMissingLibraryNamesTheFileAndThePackages) {
  EXPECT_EXIT(
      {
        setenv("KILN_MPI_LIBRARY", "libkiln-no-such-mpi.so.7", 1);
        __kiln_mpi_init(kOpenMPI);
      },
      [](int status) { return WIFEXITED(status) && WEXITSTATUS(status) == 1; },
      "kiln-mpi: rank 0: cannot load Open MPI's library "
      "libkiln-no-such-mpi.so.7.*openmpi-bin libopenmpi-dev");
}

/// A self send of a strided memref and a reduction through MPICH's
/// int-handle ABI; prints what came back and exits.
void runMPICHSingleton() {
  int32_t rank = -1, size = -1;
  __kiln_mpi_init(kMPICH);
  int64_t world = __kiln_mpi_comm_world(kMPICH);
  __kiln_mpi_comm_rank(kMPICH, world, &rank);
  __kiln_mpi_comm_size(kMPICH, world, &size);
  std::vector<int32_t> from = {1, 0, 2, 0, 3, 0}, to(3, -1);
  auto strided = describe<1>(from.data(), 0, {3}, {2});
  auto dense = describe<1>(to.data(), 0, {3}, {1});
  int64_t request = 0;
  __kiln_mpi_isend(kMPICH, 1, &strided, kindOf(ElementKind::I32), 5, 0, world,
                   &request);
  __kiln_mpi_recv(kMPICH, 1, &dense, kindOf(ElementKind::I32), 5, 0, world);
  __kiln_mpi_wait(kMPICH, request);
  std::vector<double> x = {1.5, 2.5}, y(2);
  auto dx = describe<1>(x.data(), 0, {2}, {1});
  auto dy = describe<1>(y.data(), 0, {2}, {1});
  __kiln_mpi_allreduce(kMPICH, 1, &dx, 1, &dy, kindOf(ElementKind::F64),
                       reductionOf(Reduction::Sum), 0, world);
  int32_t isRank = __kiln_mpi_retval_check(kMPICH, 6, 39);
  int32_t isRequest = __kiln_mpi_retval_check(kMPICH, 19, 41);
  std::fprintf(stderr, "mpich %d/%d %d %d %d %g %g %d %d\n", rank, size, to[0],
               to[1], to[2], y[0], y[1], isRank, isRequest);
  __kiln_mpi_finalize(kMPICH);
  std::exit(0);
}

TEST(MPIDeathTest, MPICHRunsAsASingletonToo) {
  if (!haveMPICH())
    GTEST_SKIP() << "MPICH's libmpich.so.12 is not installed (on Debian: "
                    "mpich)";
  // In a process of its own: one MPI per process.
  EXPECT_EXIT(runMPICHSingleton(), testing::ExitedWithCode(0),
              "mpich 0/1 1 2 3 1.5 2.5 1 1");
}

//===----------------------------------------------------------------------===//
// Device choice under a launcher (no MPI needed)
//===----------------------------------------------------------------------===//

/// Sets launcher variables for one test, and removes them after.
class LauncherEnvironment : public testing::Test {
protected:
  void TearDown() override {
    for (const char *name :
         {"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE",
          "MPI_LOCALRANKID", "MPI_LOCALNRANKS", "SLURM_LOCALID",
          "SLURM_NTASKS_PER_NODE", "SLURM_TASKS_PER_NODE"})
      unsetenv(name);
  }
};

TEST_F(LauncherEnvironment, NoLauncherTakesTheFirstDevice) {
  kiln::rt::LocalRank local;
  EXPECT_FALSE(kiln::rt::launcherLocalRank(local));
  EXPECT_EQ(kiln::rt::defaultDeviceForLocalRank(4), 0u);
  EXPECT_EQ(kiln::rt::shareAmongLocalRanks(8), 8u);
}

TEST_F(LauncherEnvironment, OpenMPIsLocalRankPicksRoundRobin) {
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "3", 1);
  setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "4", 1);
  // MPICH's variables are read only without Open MPI's.
  setenv("MPI_LOCALRANKID", "1", 1);
  kiln::rt::LocalRank local;
  ASSERT_TRUE(kiln::rt::launcherLocalRank(local));
  EXPECT_EQ(local.rank, 3);
  EXPECT_EQ(local.size, 4);
  EXPECT_EQ(kiln::rt::defaultDeviceForLocalRank(2), 1u);
  EXPECT_EQ(kiln::rt::defaultDeviceForLocalRank(4), 3u);
  EXPECT_EQ(kiln::rt::defaultDeviceForLocalRank(1), 0u);
  EXPECT_EQ(kiln::rt::shareAmongLocalRanks(8), 2u);
  EXPECT_EQ(kiln::rt::shareAmongLocalRanks(2), 1u);
}

TEST_F(LauncherEnvironment, HydraAndSlurmVariables) {
  setenv("MPI_LOCALRANKID", "1", 1);
  setenv("MPI_LOCALNRANKS", "2", 1);
  kiln::rt::LocalRank local;
  ASSERT_TRUE(kiln::rt::launcherLocalRank(local));
  EXPECT_EQ(local.rank, 1);
  EXPECT_EQ(local.size, 2);
  unsetenv("MPI_LOCALRANKID");
  unsetenv("MPI_LOCALNRANKS");
  setenv("SLURM_LOCALID", "5", 1);
  setenv("SLURM_TASKS_PER_NODE", "6(x2)", 1);
  ASSERT_TRUE(kiln::rt::launcherLocalRank(local));
  EXPECT_EQ(local.rank, 5);
  EXPECT_EQ(local.size, 6);
  EXPECT_EQ(kiln::rt::defaultDeviceForLocalRank(4), 1u);
  setenv("SLURM_LOCALID", "x", 1);
  EXPECT_FALSE(kiln::rt::launcherLocalRank(local));
}

TEST_F(LauncherEnvironment, SPIRVCPUWorkersAreSharedAmongTheNodesRanks) {
  unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "0", 1);
  setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "4", 1);
  unsigned threads = 0;
  std::string error;
  ASSERT_TRUE(kiln::spirvcpu::parseThreadCount(nullptr, threads, error));
  EXPECT_EQ(threads, std::max(1u, hardware / 4));
  // KILN_CPU_THREADS is taken as it is.
  ASSERT_TRUE(kiln::spirvcpu::parseThreadCount("3", threads, error));
  EXPECT_EQ(threads, 3u);
}

//===----------------------------------------------------------------------===//
// Error classes (no MPI needed)
//===----------------------------------------------------------------------===//

TEST(MPIErrorClasses, DialectNumbersMapToEachImplementation) {
  using kiln::rt::nativeErrorClass;
  // MPI_SUCCESS, MPI_ERR_RANK (39), MPI_ERR_REQUEST (41), MPI_ERR_TRUNCATE
  // (55) as Open MPI 4.1 and MPICH 4.0 number them.
  EXPECT_EQ(nativeErrorClass(Implementation::OpenMPI, 0), 0);
  EXPECT_EQ(nativeErrorClass(Implementation::OpenMPI, 39), 6);
  EXPECT_EQ(nativeErrorClass(Implementation::MPICH, 39), 6);
  EXPECT_EQ(nativeErrorClass(Implementation::OpenMPI, 41), 7);
  EXPECT_EQ(nativeErrorClass(Implementation::MPICH, 41), 19);
  EXPECT_EQ(nativeErrorClass(Implementation::OpenMPI, 55), 15);
  EXPECT_EQ(nativeErrorClass(Implementation::MPICH, 55), 14);
  EXPECT_EQ(nativeErrorClass(Implementation::OpenMPI, 62), 92);
  // MPI-4's classes Open MPI 4.1 lacks, and MPI_ERR_ERRHANDLER, which
  // neither has.
  EXPECT_FALSE(nativeErrorClass(Implementation::OpenMPI, 50)); // SESSION
  EXPECT_EQ(nativeErrorClass(Implementation::MPICH, 50), 75);
  EXPECT_FALSE(nativeErrorClass(Implementation::OpenMPI, 37)); // PROC_ABORTED
  EXPECT_FALSE(nativeErrorClass(Implementation::MPICH, 14));   // ERRHANDLER
  EXPECT_FALSE(nativeErrorClass(Implementation::OpenMPI, 63));
  EXPECT_FALSE(nativeErrorClass(Implementation::OpenMPI, -1));
}

//===----------------------------------------------------------------------===//
// A singleton Open MPI process
//===----------------------------------------------------------------------===//

class MPIRuntimeTest : public testing::Test {
protected:
  void SetUp() override {
    REQUIRE_OPEN_MPI();
    ASSERT_EQ(__kiln_mpi_init(kOpenMPI), 0);
    world = __kiln_mpi_comm_world(kOpenMPI);
  }
  MPIRuntime &mpi() { return MPIRuntime::get(); }

  int64_t world = 0;
};

TEST_F(MPIRuntimeTest, WorldRankAndSize) {
  int32_t rank = -1, size = -1;
  EXPECT_EQ(__kiln_mpi_comm_rank(kOpenMPI, world, &rank), 0);
  EXPECT_EQ(__kiln_mpi_comm_size(kOpenMPI, world, &size), 0);
  EXPECT_EQ(rank, 0);
  EXPECT_EQ(size, 1);
  // Open MPI's MPI_COMM_WORLD is the address of its global.
  void *global = dlsym(RTLD_DEFAULT, "ompi_mpi_comm_world");
  EXPECT_EQ(world, static_cast<int64_t>(reinterpret_cast<intptr_t>(global)));
  // A second mpi.init finds MPI running.
  EXPECT_EQ(__kiln_mpi_init(kOpenMPI), 0);
  EXPECT_TRUE(mpi().running());
  EXPECT_EQ(mpi().rankForMessages(), 0);
}

TEST_F(MPIRuntimeTest, CommSplitGivesAUsableCommunicator) {
  int64_t split = 0;
  ASSERT_EQ(__kiln_mpi_comm_split(kOpenMPI, world, 0, 0, &split), 0);
  EXPECT_NE(split, 0);
  EXPECT_NE(split, world);
  int32_t size = 0;
  EXPECT_EQ(__kiln_mpi_comm_size(kOpenMPI, split, &size), 0);
  EXPECT_EQ(size, 1);
  EXPECT_EQ(__kiln_mpi_barrier(kOpenMPI, split), 0);
}

TEST_F(MPIRuntimeTest, SendToSelfThroughIsendRecvWait) {
  std::vector<float> from(8), to(8, -1.0f);
  std::iota(from.begin(), from.end(), 0.5f);
  auto src = describe<1>(from.data(), 0, {8}, {1});
  auto dst = describe<1>(to.data(), 0, {8}, {1});
  int64_t request = 0;
  ASSERT_EQ(__kiln_mpi_isend(kOpenMPI, 1, &src, kindOf(ElementKind::F32), 3, 0,
                             world, &request),
            0);
  EXPECT_GT(request, 0);
  ASSERT_EQ(
      __kiln_mpi_recv(kOpenMPI, 1, &dst, kindOf(ElementKind::F32), 3, 0, world),
      0);
  ASSERT_EQ(__kiln_mpi_wait(kOpenMPI, request), 0);
  EXPECT_EQ(to, from);
}

TEST_F(MPIRuntimeTest, IrecvIntoAStridedMemrefUnpacksAtWait) {
  // A 2x3 view with strides {1, 2} (column-major) of a 6-element buffer is
  // received from a dense 2x3 send.
  std::vector<int64_t> from = {1, 2, 3, 4, 5, 6}, to(6, 0);
  auto src = describe<2>(from.data(), 0, {2, 3}, {3, 1});
  auto dst = describe<2>(to.data(), 0, {2, 3}, {1, 2});
  MPIRuntime &m = mpi();
  uint64_t unpacked = m.stats().unpacked;
  int64_t request = 0;
  ASSERT_EQ(__kiln_mpi_irecv(kOpenMPI, 2, &dst, kindOf(ElementKind::I64), 4, 0,
                             world, &request),
            0);
  ASSERT_EQ(
      __kiln_mpi_send(kOpenMPI, 2, &src, kindOf(ElementKind::I64), 4, 0, world),
      0);
  EXPECT_EQ(m.stats().unpacked, unpacked);
  ASSERT_EQ(__kiln_mpi_wait(kOpenMPI, request), 0);
  EXPECT_EQ(m.stats().unpacked, unpacked + 1);
  // Element (i, j) is at i + 2j.
  EXPECT_EQ(to, (std::vector<int64_t>{1, 4, 2, 5, 3, 6}));
}

TEST_F(MPIRuntimeTest, StridedNegativeAndZeroStridesArePacked) {
  // Every other element, backwards: offset 6, stride -2 over 7 elements.
  std::vector<int16_t> from = {10, 11, 12, 13, 14, 15, 16}, to(4, 0);
  auto reversed = describe<1>(from.data(), 6, {4}, {-2});
  auto dense = describe<1>(to.data(), 0, {4}, {1});
  MPIRuntime &m = mpi();
  uint64_t packed = m.stats().packed;
  int64_t request = 0;
  ASSERT_EQ(__kiln_mpi_isend(kOpenMPI, 1, &reversed, kindOf(ElementKind::I16),
                             9, 0, world, &request),
            0);
  ASSERT_EQ(__kiln_mpi_recv(kOpenMPI, 1, &dense, kindOf(ElementKind::I16), 9, 0,
                            world),
            0);
  ASSERT_EQ(__kiln_mpi_wait(kOpenMPI, request), 0);
  EXPECT_EQ(to, (std::vector<int16_t>{16, 14, 12, 10}));
  EXPECT_EQ(m.stats().packed, packed + 1);
  // A broadcast row: stride 0 sends one element three times.
  std::vector<uint32_t> one = {7}, three(3, 0);
  auto broadcast = describe<1>(one.data(), 0, {3}, {0});
  auto out = describe<1>(three.data(), 0, {3}, {1});
  ASSERT_EQ(__kiln_mpi_isend(kOpenMPI, 1, &broadcast, kindOf(ElementKind::U32),
                             9, 0, world, &request),
            0);
  ASSERT_EQ(
      __kiln_mpi_recv(kOpenMPI, 1, &out, kindOf(ElementKind::U32), 9, 0, world),
      0);
  ASSERT_EQ(__kiln_mpi_wait(kOpenMPI, request), 0);
  EXPECT_EQ(three, (std::vector<uint32_t>{7, 7, 7}));
}

TEST_F(MPIRuntimeTest, EmptyAndRankZeroMemrefs) {
  std::vector<float> none(1, 3.0f);
  auto empty = describe<2>(none.data(), 0, {0, 4}, {4, 1});
  int64_t request = 0;
  ASSERT_EQ(__kiln_mpi_isend(kOpenMPI, 2, &empty, kindOf(ElementKind::F32), 1,
                             0, world, &request),
            0);
  ASSERT_EQ(__kiln_mpi_recv(kOpenMPI, 2, &empty, kindOf(ElementKind::F32), 1, 0,
                            world),
            0);
  ASSERT_EQ(__kiln_mpi_wait(kOpenMPI, request), 0);
  EXPECT_EQ(none[0], 3.0f);
  // Rank 0: {allocated, aligned, offset}, one element.
  double x = 2.25, y = 0;
  auto scalar = describe<0>(&x, 0, {}, {});
  auto result = describe<0>(&y, 0, {}, {});
  ASSERT_EQ(__kiln_mpi_allreduce(kOpenMPI, 0, &scalar, 0, &result,
                                 kindOf(ElementKind::F64),
                                 reductionOf(Reduction::Sum), 0, world),
            0);
  EXPECT_EQ(y, 2.25);
}

TEST_F(MPIRuntimeTest, AllreduceOfSeveralKindsAndLayouts) {
  // One rank: every reduction is a copy, through whichever buffers the
  // layouts need.
  std::vector<double> d = {1, 2, 3}, dOut(3);
  auto dIn = describe<1>(d.data(), 0, {3}, {1});
  auto dRes = describe<1>(dOut.data(), 0, {3}, {1});
  ASSERT_EQ(__kiln_mpi_allreduce(kOpenMPI, 1, &dIn, 1, &dRes,
                                 kindOf(ElementKind::F64),
                                 reductionOf(Reduction::Max), 0, world),
            0);
  EXPECT_EQ(dOut, d);

  // A 2x2 corner of a 3x4 i32 buffer into the transposed corner of another.
  std::vector<int32_t> a = {1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 0, 0}, b(12, -1);
  auto aIn = describe<2>(a.data(), 0, {2, 2}, {4, 1});
  auto bOut = describe<2>(b.data(), 5, {2, 2}, {1, 4});
  ASSERT_EQ(__kiln_mpi_allreduce(kOpenMPI, 2, &aIn, 2, &bOut,
                                 kindOf(ElementKind::I32),
                                 reductionOf(Reduction::Sum), 0, world),
            0);
  // (i, j) of bOut is at 5 + i + 4j; it holds a's (i, j).
  EXPECT_EQ(b[5], 1);
  EXPECT_EQ(b[9], 2);
  EXPECT_EQ(b[6], 3);
  EXPECT_EQ(b[10], 4);
  EXPECT_EQ(b[0], -1);
  EXPECT_EQ(b[7], -1);

  std::vector<uint8_t> flags = {1, 0, 1}, anyOut(3, 9);
  auto fIn = describe<1>(flags.data(), 0, {3}, {1});
  auto fOut = describe<1>(anyOut.data(), 0, {3}, {1});
  ASSERT_EQ(__kiln_mpi_allreduce(kOpenMPI, 1, &fIn, 1, &fOut,
                                 kindOf(ElementKind::Bool),
                                 reductionOf(Reduction::LOr), 0, world),
            0);
  EXPECT_EQ(anyOut, flags);

  std::vector<std::complex<float>> c = {{1, 2}, {3, 4}}, cOut(2);
  auto cIn = describe<1>(c.data(), 0, {2}, {1});
  auto cRes = describe<1>(cOut.data(), 0, {2}, {1});
  ASSERT_EQ(__kiln_mpi_allreduce(kOpenMPI, 1, &cIn, 1, &cRes,
                                 kindOf(ElementKind::ComplexF32),
                                 reductionOf(Reduction::Prod), 0, world),
            0);
  EXPECT_EQ(cOut, c);

  std::vector<uint64_t> u = {1, 0, 2, 0}, uOut(2);
  auto uIn = describe<1>(u.data(), 0, {2}, {2});
  auto uRes = describe<1>(uOut.data(), 0, {2}, {1});
  ASSERT_EQ(__kiln_mpi_allreduce(kOpenMPI, 1, &uIn, 1, &uRes,
                                 kindOf(ElementKind::U64),
                                 reductionOf(Reduction::BXor), 0, world),
            0);
  EXPECT_EQ(uOut, (std::vector<uint64_t>{1, 2}));
}

TEST_F(MPIRuntimeTest, InPlaceAllreduceOfAStridedMemref) {
  std::vector<float> v = {1, -1, 2, -1, 3, -1};
  auto strided = describe<1>(v.data(), 0, {3}, {2});
  ASSERT_EQ(__kiln_mpi_allreduce(kOpenMPI, 1, nullptr, 1, &strided,
                                 kindOf(ElementKind::F32),
                                 reductionOf(Reduction::Sum), 1, world),
            0);
  EXPECT_EQ(v, (std::vector<float>{1, -1, 2, -1, 3, -1}));
}

TEST_F(MPIRuntimeTest, RetvalCheckAndErrorClass) {
  // MPI_ERR_RANK is 6 in Open MPI; MLIR numbers it 39.
  EXPECT_EQ(__kiln_mpi_retval_check(kOpenMPI, 6, 39), 1);
  EXPECT_EQ(__kiln_mpi_retval_check(kOpenMPI, 6, 41), 0);
  EXPECT_EQ(__kiln_mpi_retval_check(kOpenMPI, 0, 0), 1);
  // MPI_ERR_SESSION: Open MPI 4.1 has none, so nothing is one.
  EXPECT_EQ(__kiln_mpi_retval_check(kOpenMPI, 0, 50), 0);
  EXPECT_EQ(__kiln_mpi_error_class(kOpenMPI, 6), 6);
  EXPECT_EQ(__kiln_mpi_error_class(kOpenMPI, 0), 0);
  kiln::rt::Expected<int32_t> bad = mpi().retvalCheck(kOpenMPI, 0, 63);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message().find("error class 63 is no"),
            std::string::npos);
}

TEST_F(MPIRuntimeTest, ErrorsKilnChecks) {
  MPIRuntime &m = mpi();
  // 2^31 elements: past MPI's int count, refused before any memory is read.
  auto huge = describe<2>(nullptr, 0, {1 << 16, 1 << 15}, {1 << 15, 1});
  kiln::rt::MPIMemRef ref{2, &huge, kindOf(ElementKind::U8)};
  kiln::rt::Expected<int32_t> sent = m.send(kOpenMPI, ref, 0, 0, world);
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().message(),
            "mpi.send: the memref has 2147483648 elements, more than MPI's "
            "int count allows (2147483647)");
  kiln::rt::Expected<int32_t> reduced = m.allreduce(
      kOpenMPI, ref, ref, reductionOf(Reduction::Sum), false, world);
  ASSERT_FALSE(reduced);
  EXPECT_NE(reduced.error().message().find("mpi.allreduce: the send buffer "
                                           "has 2147483648 elements"),
            std::string::npos);

  kiln::rt::Expected<int32_t> unknown = m.wait(kOpenMPI, 4242);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().message(),
            "mpi.wait: request 4242 is no request of mpi.isend or mpi.irecv");
  // A request waited for once is gone.
  float x = 1, y = 0;
  auto dx = describe<0>(&x, 0, {}, {});
  auto dy = describe<0>(&y, 0, {}, {});
  int64_t request = 0;
  ASSERT_EQ(__kiln_mpi_isend(kOpenMPI, 0, &dx, kindOf(ElementKind::F32), 2, 0,
                             world, &request),
            0);
  ASSERT_EQ(
      __kiln_mpi_recv(kOpenMPI, 0, &dy, kindOf(ElementKind::F32), 2, 0, world),
      0);
  ASSERT_EQ(__kiln_mpi_wait(kOpenMPI, request), 0);
  kiln::rt::Expected<int32_t> again = m.wait(kOpenMPI, request);
  ASSERT_FALSE(again);
  EXPECT_NE(again.error().message().find("was waited for already"),
            std::string::npos);

  kiln::rt::Expected<int64_t> other = m.commWorld(kMPICH);
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().message().find(
                "an op compiled for MPICH but this process uses Open MPI"),
            std::string::npos);

  kiln::rt::MPIMemRef badKind{0, &dx, 99};
  kiln::rt::Expected<int32_t> kind = m.send(kOpenMPI, badKind, 0, 0, world);
  ASSERT_FALSE(kind);
  EXPECT_EQ(kind.error().message(),
            "mpi.send: element kind 99 is no kiln::mpi::ElementKind");

  uint16_t h = 0;
  auto dh = describe<0>(&h, 0, {}, {});
  kiln::rt::MPIMemRef half{0, &dh, kindOf(ElementKind::F16)};
  kiln::rt::Expected<int32_t> f16 = m.allreduce(
      kOpenMPI, half, half, reductionOf(Reduction::Sum), true, world);
  ASSERT_FALSE(f16);
  EXPECT_EQ(f16.error().message(),
            "mpi.allreduce: MPI has no datatype to reduce f16");
  kiln::rt::MPIMemRef single{0, &dx, kindOf(ElementKind::F32)};
  kiln::rt::Expected<int32_t> minloc = m.allreduce(
      kOpenMPI, single, single, reductionOf(Reduction::MinLoc), true, world);
  ASSERT_FALSE(minloc);
  // f16 still travels, as 16-bit words.
  uint16_t g = 0x3c00, k = 0;
  auto dg = describe<0>(&g, 0, {}, {});
  auto dk = describe<0>(&k, 0, {}, {});
  ASSERT_EQ(__kiln_mpi_isend(kOpenMPI, 0, &dg, kindOf(ElementKind::BF16), 2, 0,
                             world, &request),
            0);
  ASSERT_EQ(
      __kiln_mpi_recv(kOpenMPI, 0, &dk, kindOf(ElementKind::BF16), 2, 0, world),
      0);
  ASSERT_EQ(__kiln_mpi_wait(kOpenMPI, request), 0);
  EXPECT_EQ(k, 0x3c00);
}

TEST_F(MPIRuntimeTest, DeviceMemoryIsStagedThroughHostMemory) {
  kiln::rt::Runtime &device = kiln::rt::boundaryRuntime();
  MPIRuntime &m = mpi();
  // gpu.alloc memory of the spirv-cpu device: 3x4 f32.
  kiln::rt::Expected<void *> a = device.allocate(12 * sizeof(float), false);
  kiln::rt::Expected<void *> b = device.allocate(12 * sizeof(float), false);
  ASSERT_TRUE(a && b);
  std::vector<float> values(12);
  std::iota(values.begin(), values.end(), 1.0f);
  ASSERT_FALSE(device.copy(*a, values.data(), 12 * sizeof(float), nullptr));
  std::vector<float> minus(12, -1.0f);
  ASSERT_FALSE(device.copy(*b, minus.data(), 12 * sizeof(float), nullptr));
  ASSERT_FALSE(device.synchronize(nullptr));

  kiln::rt::MPIStats before = m.stats();
  // Dense device memory in, the middle column pair of `b` (strided) out.
  auto in = describe<2>(*a, 0, {3, 2}, {2, 1});
  auto out = describe<2>(*b, 1, {3, 2}, {4, 1});
  ASSERT_EQ(__kiln_mpi_allreduce(kOpenMPI, 2, &in, 2, &out,
                                 kindOf(ElementKind::F32),
                                 reductionOf(Reduction::Sum), 0, world),
            0);
  kiln::rt::MPIStats after = m.stats();
  EXPECT_EQ(after.stagedToHost, before.stagedToHost + 2);
  EXPECT_EQ(after.stagedToDevice, before.stagedToDevice + 1);
  EXPECT_EQ(after.direct, before.direct);
  std::vector<float> got(12);
  ASSERT_FALSE(device.copy(got.data(), *b, 12 * sizeof(float), nullptr));
  ASSERT_FALSE(device.synchronize(nullptr));
  EXPECT_EQ(got,
            (std::vector<float>{-1, 1, 2, -1, -1, 3, 4, -1, -1, 5, 6, -1}));

  // isend from device memory, irecv into it; the copy back is at wait.
  auto whole = describe<1>(*a, 0, {12}, {1});
  auto target = describe<1>(*b, 0, {12}, {1});
  int64_t sendRequest = 0, recvRequest = 0;
  ASSERT_EQ(__kiln_mpi_irecv(kOpenMPI, 1, &target, kindOf(ElementKind::F32), 8,
                             0, world, &recvRequest),
            0);
  ASSERT_EQ(__kiln_mpi_isend(kOpenMPI, 1, &whole, kindOf(ElementKind::F32), 8,
                             0, world, &sendRequest),
            0);
  ASSERT_EQ(__kiln_mpi_wait(kOpenMPI, sendRequest), 0);
  ASSERT_EQ(__kiln_mpi_wait(kOpenMPI, recvRequest), 0);
  ASSERT_FALSE(device.copy(got.data(), *b, 12 * sizeof(float), nullptr));
  ASSERT_FALSE(device.synchronize(nullptr));
  EXPECT_EQ(got, values);
  EXPECT_GT(m.cachedStagingBuffers(), 0u);
  EXPECT_FALSE(device.free(*a));
  EXPECT_FALSE(device.free(*b));
}

// Last: MPI cannot be initialized again in this process.
TEST_F(MPIRuntimeTest, ZFinalizeEndsMPI) {
  EXPECT_EQ(__kiln_mpi_finalize(kOpenMPI), 0);
  EXPECT_FALSE(mpi().running());
  EXPECT_EQ(mpi().cachedStagingBuffers(), 0u);
  kiln::rt::Expected<int32_t> twice = mpi().finalize(kOpenMPI);
  ASSERT_FALSE(twice);
  kiln::rt::Expected<int64_t> after = mpi().commWorld(kOpenMPI);
  ASSERT_FALSE(after);
  EXPECT_EQ(after.error().message(),
            "mpi.comm_world after mpi.finalize: MPI is finalized");
}

} // namespace

int main(int argc, char **argv) {
  // A singleton Open MPI process as root (the containers CI runs in), and
  // no single-copy mechanism that needs ptrace rights.
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  setenv("OMPI_MCA_btl_vader_single_copy_mechanism", "none", 1);
  testing::InitGoogleTest(&argc, argv);
  // Death tests re-run this binary: no fork of a process running MPI.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  return RUN_ALL_TESTS();
}
