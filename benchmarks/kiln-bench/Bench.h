//===- Bench.h - kiln-bench's runtimes, cases and results -------*- C++ -*-===//
//
// kiln-bench drives Kiln's own runtimes (libkiln_vulkan_runtime.so,
// libkiln_cuda_runtime.so and libkiln_spirv_cpu_runtime.so, opened with
// dlopen: all export the same mgpu* names) exactly as compiled host code
// does: modules from blobs, device buffers from mgpuMemAlloc, launches with
// memref descriptors. References (GLSL SPIR-V, nvcc fatbins) go through the
// same runtime and the same timing, so only the kernels differ.
//
// The benchmark families (Families.cpp) describe cases: a kernel in one
// variant (Kiln's, the reference's) with a check of its result and one
// timed repetition. The runner (Runner.cpp) checks each case, then has
// Google Benchmark repeat the cases of one kernel with their repetitions
// interleaved in random order, and pairs Kiln's k-th repetition with the
// reference's k-th for the ratio. The report (Report.cpp) prints the
// summary, the goals and the plot.
//
// With a device list (--device=A,B,...) the stream and SGEMM families also
// run Kiln's kernel on every listed device at once, one host thread per
// device, and report the aggregate throughput, each device's and the
// scaling efficiency.
//
// Under mpirun (MPI.h) every rank runs Kiln's stream kernels on its own
// device at once (kiln_mpiN, reported as the rows of several devices are)
// and the f32 sum allreduce of host and device buffers; rank 0 reports.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_BENCHMARKS_KILNBENCH_BENCH_H
#define KILN_BENCHMARKS_KILNBENCH_BENCH_H

#include "kiln/Contract/MPIABI.h"
#include "kiln/Runtime/CUDARuntime.h"
#include "kiln/Runtime/Runtime.h"
#include "kiln/Runtime/VulkanRuntime.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace kiln {
namespace bench {

class MPIJob;

/// A device binary built into kiln-bench.
struct Blob {
  const char *name;
  const unsigned char *data;
  size_t size;
};
/// The blob called `name`, or null when it was not built (CUDA references
/// without nvcc).
const Blob *findBlob(const std::string &name);

/// One backend's runtime, opened from the shared library: its C++
/// interface (kiln/Runtime/Runtime.h), whose calls return errors.
struct Runtime {
  std::string backend; ///< "vulkan", "cuda" or "spirv-cpu"
  void *handle = nullptr;
  kiln::rt::Runtime *api = nullptr;
  /// How many devices the runtime's list names (--device=A,B,...); above
  /// one, the stream and SGEMM families also run on all at once.
  int devices = 1;
  double (*timed)(void (*)(void *, void *), void *) = nullptr; ///< CUDA
  /// Device description, for the report and the JSON context.
  std::string deviceName, deviceDriver, deviceDetails;
  bool float64 = true, subgroupArithmetic = true, isCPU = false;
  uint64_t lastLevelCacheBytes = 0; ///< 0: unknown
  /// The most bytes one storage-buffer descriptor reaches (Vulkan's
  /// maxStorageBufferRange, which the GLSL references are bound by); 0: no
  /// limit.
  uint64_t maxBufferBytes = 0;
  std::string chip; ///< CUDA: sm_XY
  /// The device's memory (CUDA's total, Vulkan's device-local heaps); 0:
  /// unknown or the host's (CPU drivers).
  uint64_t memoryBytes = 0;
  /// Under mpirun: the MPI job, through this runtime's entry points.
  std::shared_ptr<MPIJob> mpi;
};

/// Opens `backend`'s runtime next to the executable (../lib) on `device` (a
/// comma-separated list of indices, names or UUIDs; empty: the runtime's
/// default or its environment variable) and checks that every listed
/// device is there. On failure returns false with `why` set.
bool openRuntime(const std::string &backend, const std::string &device,
                 Runtime &rt, std::string &why);

/// A runtime call that returned an error: the kernel it happened in fails,
/// and the run goes on unless the device is gone.
struct RuntimeFailure : std::runtime_error {
  explicit RuntimeFailure(const kiln::rt::Status &error)
      : std::runtime_error(error.message()), kind(error.kind()) {}
  kiln::rt::ErrorKind kind;
  /// After these the device takes no more work.
  bool fatal() const {
    return kind == kiln::rt::ErrorKind::DeviceLost ||
           kind == kiln::rt::ErrorKind::Timeout;
  }
};

/// A device buffer.
struct Buffer {
  void *device = nullptr;
  size_t bytes = 0;
  std::vector<int64_t> shape; ///< As the kernels' memref sees it.
};

/// How a kernel takes its arguments.
enum class ABI {
  Kiln, ///< memref descriptors (allocated, aligned, offset, sizes, strides)
  Raw,  ///< raw SPIR-V: {pointer, bytes} per storage buffer, no scalars
  CUDA  ///< CUDA C++: pointers and scalars by value
};

/// An argument: a buffer, or a scalar of 4 or 8 bytes.
struct Arg {
  const Buffer *buffer = nullptr;
  int64_t scalar = 0;
  unsigned scalarBytes = 0;
  static Arg of(const Buffer &b) { return Arg{&b, 0, 0}; }
  static Arg i32(int32_t v) { return Arg{nullptr, v, 4}; }
  static Arg u64(uint64_t v) { return Arg{nullptr, int64_t(v), 8}; }
};

/// A kernel ready to launch: its parameters packed for its ABI.
struct Launch {
  void *function = nullptr;
  intptr_t grid[3] = {1, 1, 1};
  intptr_t block[3] = {1, 1, 1};
  std::vector<void *> params;
  std::deque<int64_t> storage; ///< The values params point at.
  void pack(ABI abi, const std::vector<Arg> &args);
};

/// The last repetition of a case that runs on several devices at once:
/// each device's microseconds from the common start to its finish, and
/// device 0's alone, measured the same way just before.
struct DeviceRound {
  std::vector<double> deviceUs;
  double aloneUs = 0;
};

/// One measured variant of a kernel on one backend.
struct Case {
  std::string kernel;  ///< stream_triad_f32, sgemm_register, ...
  std::string variant; ///< kiln, glsl, cuda, cublas, vkCmdCopyBuffer, ...
  std::string size;    ///< 67108864, 4096x4096, ...
  std::string unit;    ///< GB/s, GFLOP/s, klaunch/s
  double work = 0;     ///< Bytes, flops or launches per repetition.
  /// Prepares the inputs, runs the variant once and compares its result
  /// with the CPU's: "" when it is right, else what is wrong. Throws
  /// RuntimeFailure.
  std::function<std::string()> check;
  /// One timed repetition: GPU microseconds (host microseconds for the
  /// launch rates and for the cases on several devices: the slowest
  /// device's). Throws RuntimeFailure.
  std::function<double()> repeat;
  /// Cases on several devices at once: how many (0 for the others; `work`
  /// is then all devices' work), and the times of the last repetition.
  int devices = 0;
  std::shared_ptr<const DeviceRound> round;
  /// The variant of an earlier group (same kernel and size) whose
  /// throughput this case's ratios are taken over ("": none).
  std::string against;
  /// Under mpirun: the ranks, and busbw's factor over algbw (allreduce:
  /// 2(n-1)/n; 0 for the others).
  int ranks = 0;
  double busFactor = 0;
  /// The kernel launches in one repetition (--count-instructions reports
  /// instructions per launch).
  unsigned launches = 1;
};

/// The cases of one kernel at one size, measured together: their
/// repetitions interleave, and Kiln's pair with the reference's.
struct Group {
  std::vector<Case> cases;
};

/// Times of one measured variant, in microseconds, in the order they ran.
struct Samples {
  std::vector<double> us;
  double best() const;
  double median() const;
  /// (slowest - fastest) / median, in percent.
  double spreadPercent() const;
};

/// One row of the report.
struct Result {
  std::string kernel, variant, backend, size, unit;
  double work = 0;
  Samples samples;
  bool failed = false;
  std::string error;
  /// Filled in by the runner and the report.
  double percentOfPeak = std::numeric_limits<double>::quiet_NaN();
  /// Kiln's throughput over the reference's: at the best times, and the
  /// median of the paired repetitions' ratios.
  double ratioBest = std::numeric_limits<double>::quiet_NaN();
  double ratioPaired = std::numeric_limits<double>::quiet_NaN();
  std::string ratioOf;
  /// Results on several devices at once: how many (0 otherwise), device 0
  /// alone, and each device's times, repetition by repetition.
  int devices = 0;
  Samples alone;
  std::vector<Samples> perDevice;
  /// Under mpirun: the ranks (0 otherwise), and for the allreduce rows the
  /// factor of the bus bandwidth over the algorithm bandwidth (throughput).
  int ranks = 0;
  double busFactor = 0;
  /// --count-instructions: the instructions the device's shader code
  /// executed per launch (one repetition's over its launches), and this
  /// variant's count over the reference's (NaN: not counted, or no
  /// reference).
  double instructions = std::numeric_limits<double>::quiet_NaN();
  double instructionRatio = std::numeric_limits<double>::quiet_NaN();

  bool isKiln() const { return variant == "kiln"; }
  bool multiDevice() const { return devices > 1; }
  /// The variant Kiln's kernel runs as on `devices` devices at once.
  static std::string multiDeviceVariant(int devices) {
    return "kiln_x" + std::to_string(devices);
  }
  /// The variant Kiln's kernel runs as on every rank of `ranks` at once,
  /// each on its own device; `suffix` names the allreduce's buffers.
  static std::string mpiVariant(int ranks, const std::string &suffix = "") {
    return "kiln_mpi" + std::to_string(ranks) +
           (suffix.empty() ? "" : "_" + suffix);
  }
  /// The variant Kiln's kernels are measured against on `backend`: its
  /// hand-written reference (CUDA C++ or GLSL); "" for spirv-cpu, which
  /// runs Kiln's kernels only.
  static const char *referenceVariant(const std::string &backend) {
    if (backend == "spirv-cpu")
      return "";
    return backend == "cuda" ? "cuda" : "glsl";
  }
  /// Throughput at the best and the median time, in `unit`.
  double best() const;
  double median() const;
  /// Throughput of `us` microseconds in `unit`.
  double rate(double us) const;
  /// One device's throughput (its share of `work`) in `us` microseconds.
  double deviceRate(double us) const;
  /// Scaling efficiency: the aggregate throughput over `devices` times
  /// device 0's alone. Paired: the median over the repetitions of device 0's
  /// time alone over the round's; best: of the best times.
  double efficiencyPaired() const;
  double efficiencyBest() const;
  std::string name() const {
    return kernel + "/" + variant + "/" + backend + "/" + size;
  }
};

/// What the user asked for.
struct Options {
  std::vector<std::string> backends; ///< vulkan, cuda, spirv-cpu
  bool backendExplicit = false;
  /// --device: the runtimes' device list, as given.
  std::string device;
  /// A Google Benchmark filter over kernel/variant/backend/size: a regular
  /// expression, or one that excludes after a leading '-'.
  std::string filter;
  uint64_t size = 0;               ///< Stream elements; 0: from the cache size.
  std::vector<unsigned> gemmSizes; ///< Empty: from the device.
  unsigned reps = 20, warmup = 2;  ///< warmup: at least 1.
  double maxSeconds = 5;
  unsigned fmaThreads = 1u << 20, fmaIterations = 256;
  unsigned launches = 2000;
  bool smoke = false;
  bool list = false;
  /// --count-instructions: count the instructions each case's shader code
  /// executes in one repetition under callgrind (CPU drivers and
  /// spirv-cpu only) instead of timing it.
  bool countInstructions = false;
  /// --mpi's value ("auto" without one; "" when not given), and whether
  /// kiln-bench runs as a rank of an MPI job (MPI.h: detectMPI), of which
  /// implementation.
  std::string mpiOption;
  bool mpi = false;
  kiln::mpi::Implementation mpiImplementation =
      kiln::mpi::Implementation::OpenMPI;
  /// Allreduce message sizes in bytes (multiples of 4); empty: 8 B to
  /// 256 MiB in powers of 2, as the memory allows.
  std::vector<uint64_t> allreduceSizes;
  std::string json, csv, plot;
};

/// True when `name` passes the filter (Google Benchmark's rules).
bool matchesFilter(const std::string &filter, const std::string &name);

/// Sets up every benchmark family on `rt` in turn (its buffers, inputs and
/// expected results) and calls `run` with the groups whose names pass the
/// filter while they exist; `run` returns false when the device stopped
/// taking work, which ends the loop. A family that cannot be set up (a
/// runtime error) is passed to `fail` and skipped; after an error that
/// leaves the device unusable the loop ends.
void forEachFamily(Runtime &rt, const Options &options,
                   const std::function<bool(std::vector<Group> &)> &run,
                   const std::function<void(const std::string &family,
                                            const std::string &error)> &fail);
/// The names forEachFamily may measure on `backend` with `devices` devices
/// listed, as kernel/variant/backend (for --list); under mpirun (`ranks`
/// > 0), the MPI families' of a job of `ranks` ranks.
std::vector<std::string> benchmarkNames(const std::string &backend, int devices,
                                        int ranks = 0);
/// How many cases forEachFamily will measure on `rt` with `options` (for
/// the progress lines).
size_t plannedCases(const Runtime &rt, const Options &options);

/// Fills in % of peak, prints the summary table and the goals.
void report(std::vector<Result> &results, const std::vector<Runtime> &runtimes,
            const Options &options);
bool writePlot(const std::string &path, const std::vector<Result> &results,
               std::string &error);

} // namespace bench
} // namespace kiln

#endif // KILN_BENCHMARKS_KILNBENCH_BENCH_H
