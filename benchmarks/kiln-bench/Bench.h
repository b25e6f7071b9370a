//===- Bench.h - kiln-bench's runtimes, launches and results ----*- C++ -*-===//
//
// kiln-bench drives Kiln's own runtimes (libkiln_vulkan_runtime.so and
// libkiln_cuda_runtime.so, opened with dlopen: both export the same mgpu*
// names) exactly as compiled host code does: modules from blobs, device
// buffers from mgpuMemAlloc, launches with memref descriptors. References
// (GLSL SPIR-V, nvcc fatbins) go through the same runtime and the same
// timing, so only the kernels differ.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_BENCHMARKS_KILNBENCH_BENCH_H
#define KILN_BENCHMARKS_KILNBENCH_BENCH_H

#include "kiln/Runtime/CUDARuntime.h"
#include "kiln/Runtime/Runtime.h"
#include "kiln/Runtime/VulkanRuntime.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace kiln {
namespace bench {

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
  std::string backend; ///< "vulkan" or "cuda"
  void *handle = nullptr;
  kiln::rt::Runtime *api = nullptr;
  double (*timed)(void (*)(void *, void *), void *) = nullptr; ///< CUDA
  /// Device description, for the report and the JSON context.
  std::string deviceName, deviceDriver, deviceDetails;
  bool float64 = true, subgroupArithmetic = true, isCPU = false;
  uint64_t lastLevelCacheBytes = 0; ///< 0: unknown
  std::string chip;                 ///< CUDA: sm_XY
};

/// Opens the backend's runtime next to the executable (../lib) and checks
/// that a device is there. On failure returns false with `why` set.
bool openRuntime(const std::string &backend, Runtime &rt, std::string &why);

/// A device buffer and its host mirror.
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

/// Times of one measured variant, in microseconds.
struct Samples {
  std::vector<double> us;
  double best() const;
  double median() const;
  /// (slowest - fastest) / median, in percent.
  double spreadPercent() const;
};

/// One row of the report.
struct Result {
  std::string kernel;  ///< stream_triad_f32, sgemm_register, ...
  std::string variant; ///< kiln, glsl, cuda, cublas, vkCmdCopyBuffer, ...
  std::string backend; ///< vulkan, cuda
  std::string size;    ///< 67108864, 4096x4096, ...
  std::string unit;    ///< GB/s, GFLOP/s, klaunch/s
  double work = 0;     ///< Bytes, flops or launches per repetition.
  Samples samples;     ///< GPU (or host, for launches) time per repetition.
  bool failed = false;
  std::string error;
  /// Filled in by the report.
  double percentOfPeak = std::numeric_limits<double>::quiet_NaN();
  double ratio = std::numeric_limits<double>::quiet_NaN();
  std::string ratioOf;

  bool isKiln() const { return variant == "kiln"; }
  /// Throughput at the best and the median time, in `unit`.
  double best() const;
  double median() const;
  std::string name() const { return kernel + "/" + variant + "/" + backend; }
};

/// What the user asked for.
struct Options {
  std::vector<std::string> backends; ///< vulkan, cuda
  bool backendExplicit = false;
  std::string device;
  std::string filter;
  uint64_t size = 0; ///< Stream elements; 0: from the cache size.
  std::vector<unsigned> gemmSizes = {1024, 2048, 4096};
  unsigned reps = 20, warmup = 2;
  double maxSeconds = 5;
  unsigned fmaThreads = 1u << 20, fmaIterations = 256;
  unsigned launches = 2000;
  bool smoke = false;
  bool list = false;
  std::string json, csv, plot;
};

/// Prints a progress line on stderr once the run has lasted a few seconds.
void progress(const std::string &what);

/// Runs every benchmark of every family on `rt` whose name matches the
/// filter; appends the rows to `results`.
void runBenchmarks(Runtime &rt, const Options &options,
                   std::vector<Result> &results);
/// The names runBenchmarks would run on `backend` (for --list).
std::vector<std::string> benchmarkNames(const std::string &backend);

/// Fills in % of peak and the ratios, prints the table and the goals.
void report(std::vector<Result> &results, const std::vector<Runtime> &runtimes,
            const Options &options);
bool writeJSON(const std::string &path, const std::vector<Result> &results,
               const std::vector<Runtime> &runtimes, const Options &options,
               std::string &error);
bool writeCSV(const std::string &path, const std::vector<Result> &results,
              std::string &error);
bool writePlot(const std::string &path, const std::vector<Result> &results,
               std::string &error);

} // namespace bench
} // namespace kiln

#endif // KILN_BENCHMARKS_KILNBENCH_BENCH_H
