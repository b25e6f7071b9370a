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
};

/// Reads --launches=N and --rounds=R; prints the usage of `program` and
/// returns false on anything else.
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
    else {
      std::fprintf(stderr, "usage: %s [--launches=N] [--rounds=R]\n",
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

} // namespace bench
} // namespace kiln

#endif // KILN_BENCHMARKS_LAUNCHLOOP_H
