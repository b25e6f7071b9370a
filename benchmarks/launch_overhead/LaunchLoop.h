//===- LaunchLoop.h - Timing launches the way compiled code makes them ----===//
//
// Shared by the Vulkan and CUDA launch-overhead benchmarks. Include it after
// the runtime's header (VulkanRuntime.h or CUDARuntime.h): both declare the
// same mgpu* entry points, and the loop calls them exactly as gpu-to-llvm's
// output does for one launch of a kernel `main` taking a memref<64xi32>.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_BENCHMARKS_LAUNCHLOOP_H
#define KILN_BENCHMARKS_LAUNCHLOOP_H

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace kiln {
namespace bench {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// The options both benchmarks take.
struct LaunchOptions {
  unsigned launches = 10000;
  unsigned rounds = 3;
  unsigned warmup = 100;
  /// Launches per batch of the back-to-back measurement.
  std::vector<unsigned> batches = {16, 256, 2000};
};

/// Reads --launches=N, --rounds=R and --batches=N,N,...; prints the usage
/// of `program` and returns false on anything else.
inline bool parseLaunchOptions(int argc, char **argv, const char *program,
                               LaunchOptions &options) {
  for (int i = 1; i < argc; ++i) {
    auto value = [&](const char *name) -> const char * {
      size_t n = std::strlen(name);
      if (std::strncmp(argv[i], name, n) == 0 && argv[i][n] == '=')
        return argv[i] + n + 1;
      return nullptr;
    };
    if (const char *v = value("--launches"))
      options.launches = static_cast<unsigned>(std::max(1, std::atoi(v)));
    else if (const char *v = value("--rounds"))
      options.rounds = static_cast<unsigned>(std::max(1, std::atoi(v)));
    else if (const char *v = value("--batches")) {
      options.batches.clear();
      for (const char *p = v; *p;) {
        char *end = nullptr;
        long n = std::strtol(p, &end, 10);
        if (end == p || n < 1 || n > 1000000 || (*end && *end != ',')) {
          std::fprintf(stderr, "%s: --batches takes a list of launch counts "
                               "from 1 to 1000000, got '%s'\n",
                       program, v);
          return false;
        }
        options.batches.push_back(unsigned(n));
        p = *end ? end + 1 : end;
      }
    } else {
      std::fprintf(stderr,
                   "usage: %s [--launches=N] [--rounds=R] [--batches=N,...]\n",
                   program);
      return false;
    }
  }
  return true;
}

/// Microseconds per call of `once`, after `warmup` untimed calls.
template <typename F>
double microsecondsPerLaunch(unsigned warmup, unsigned launches, F once) {
  for (unsigned i = 0; i < warmup; ++i)
    once();
  auto start = std::chrono::steady_clock::now();
  for (unsigned i = 0; i < launches; ++i)
    once();
  auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(end - start).count() /
         launches;
}

/// Microseconds per launch through the runtime's mgpu* ABI: get function,
/// create stream, launch one block of 64, synchronize, destroy stream.
inline double mgpuLaunchLoop(void *module, void *buffer, unsigned warmup,
                             unsigned launches) {
  // A static memref<64xi32>: allocated, aligned, offset, size, stride.
  void *allocated = buffer, *aligned = buffer;
  int64_t offset = 0, size = 64, stride = 1;
  void *params[5] = {&allocated, &aligned, &offset, &size, &stride};
  return microsecondsPerLaunch(warmup, launches, [&] {
    void *fn = mgpuModuleGetFunction(module, "main");
    void *stream = mgpuStreamCreate();
    mgpuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, stream, params, nullptr, 5);
    mgpuStreamSynchronize(stream);
    mgpuStreamDestroy(stream);
  });
}

/// What launches that do not wait for each other cost.
struct BackToBack {
  double enqueueUs; ///< per launch, until the launch call returns
  double totalUs;   ///< per launch, until the one wait after them returns
};

/// `batch` launches on one stream, then one synchronize, `repeats` times
/// after one untimed batch; the medians per launch. Queues that slow down
/// as work piles up show here and not in the round trip.
inline BackToBack mgpuBackToBack(void *module, void *buffer, unsigned batch,
                                 unsigned repeats) {
  void *allocated = buffer, *aligned = buffer;
  int64_t offset = 0, size = 64, stride = 1;
  void *params[5] = {&allocated, &aligned, &offset, &size, &stride};
  void *fn = mgpuModuleGetFunction(module, "main");
  void *stream = mgpuStreamCreate();
  std::vector<double> enqueue, total;
  for (unsigned r = 0; r <= repeats; ++r) {
    auto start = std::chrono::steady_clock::now();
    for (unsigned i = 0; i < batch; ++i)
      mgpuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, stream, params, nullptr, 5);
    auto queued = std::chrono::steady_clock::now();
    mgpuStreamSynchronize(stream);
    auto end = std::chrono::steady_clock::now();
    if (r == 0)
      continue;
    enqueue.push_back(
        std::chrono::duration<double, std::micro>(queued - start).count() /
        batch);
    total.push_back(
        std::chrono::duration<double, std::micro>(end - start).count() /
        batch);
  }
  mgpuStreamDestroy(stream);
  return {median(enqueue), median(total)};
}

/// Prints the back-to-back cost for a few batch sizes; returns the launches
/// it made.
inline uint64_t printBackToBack(void *module, void *buffer,
                                const std::vector<unsigned> &batches) {
  uint64_t launches = 0;
  for (unsigned batch : batches) {
    const unsigned repeats = 5;
    BackToBack b = mgpuBackToBack(module, buffer, batch, repeats);
    launches += uint64_t(batch) * (repeats + 1);
    std::printf("back to back, %4u launches then one wait: %8.2f us per "
                "launch to enqueue, %8.2f us in all\n",
                batch, b.enqueueUs, b.totalUs);
  }
  return launches;
}

} // namespace bench
} // namespace kiln

#endif // KILN_BENCHMARKS_LAUNCHLOOP_H
