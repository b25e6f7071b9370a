//===- CUDALaunchOverhead.cpp - Launch overhead on CUDA -------------------===//
//
// kiln-cuda-launch-overhead [--launches=N] [--rounds=R]
//
// Host microseconds per synchronous launch of one tiny kernel (tiny.mlir,
// compiled to PTX by kiln-compile), through Kiln's CUDA runtime exactly as
// compiled host code calls it (get function, create stream, launch,
// synchronize, destroy stream) and through the loop a CUDA programmer writes
// by hand on the driver API (one stream, cuLaunchKernel, cuStreamSynchronize),
// on the same device (KILN_CUDA_DEVICE selects it for both) with the same PTX
// and a device buffer. Rounds alternate; medians are reported. Links no LLVM
// and no CUDA library: the driver is opened at run time.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/CUDA/Driver.h"
#include "kiln/Runtime/CUDARuntime.h"

#include "LaunchLoop.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace kiln::cudart;

static const char kTinyPTX[] =
#include "tiny.ptx.inc"
    ;

namespace {
/// The hand-written driver-API loop: its own context, module, buffer and
/// stream, set up once.
class HandWritten {
public:
  bool init(std::string &error) {
    if (!drv.load(error))
      return false;
    int index = 0;
    if (const char *env = std::getenv("KILN_CUDA_DEVICE"))
      index = std::atoi(env);
    CUdevice device;
    char name[256] = {};
    if (!ok(drv.cuInit(0), "cuInit", error) ||
        !ok(drv.cuDeviceGet(&device, index), "cuDeviceGet", error) ||
        !ok(drv.cuDeviceGetName(name, sizeof name, device), "cuDeviceGetName",
            error) ||
        !ok(drv.cuDevicePrimaryCtxRetain(&context, device),
            "cuDevicePrimaryCtxRetain", error) ||
        !ok(drv.cuCtxPushCurrent(context), "cuCtxPushCurrent", error) ||
        !ok(drv.cuModuleLoadDataEx(&module, kTinyPTX, 0, nullptr, nullptr),
            "cuModuleLoadDataEx", error) ||
        !ok(drv.cuModuleGetFunction(&function, module, "main"),
            "cuModuleGetFunction", error) ||
        !ok(drv.cuMemAlloc(&buffer, 64 * 4), "cuMemAlloc", error) ||
        !ok(drv.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
            "cuStreamCreate", error))
      return false;
    deviceName = name;
    return true;
  }

  bool launch() {
    void *allocated = reinterpret_cast<void *>(buffer), *aligned = allocated;
    int64_t offset = 0, size = 64, stride = 1;
    void *params[5] = {&allocated, &aligned, &offset, &size, &stride};
    return drv.cuLaunchKernel(function, 1, 1, 1, 64, 1, 1, 0, stream, params,
                              nullptr) == CUDA_SUCCESS &&
           drv.cuStreamSynchronize(stream) == CUDA_SUCCESS;
  }

  std::string deviceName;

private:
  bool ok(CUresult result, const char *call, std::string &error) {
    if (result == CUDA_SUCCESS)
      return true;
    error = std::string(call) + " failed: " + drv.describe(result);
    return false;
  }

  Driver drv;
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  CUdeviceptr buffer = 0;
  CUstream stream = nullptr;
};
} // namespace

int main(int argc, char **argv) {
  kiln::bench::LaunchOptions options;
  if (!kiln::bench::parseLaunchOptions(argc, argv, "kiln-cuda-launch-overhead", options))
    return 2;
  const unsigned launches = options.launches, rounds = options.rounds,
                 warmup = options.warmup;

  // Kiln's runtime first: it reports a missing driver or device clearly.
  void *module = mgpuModuleLoad(kTinyPTX, sizeof kTinyPTX);
  void *buffer = mgpuMemAlloc(64 * 4, nullptr, false);

  HandWritten hand;
  std::string error;
  if (!hand.init(error)) {
    std::fprintf(stderr, "hand-written loop failed: %s\n", error.c_str());
    return 1;
  }
  bool handOk = true;
  std::vector<double> kiln, byHand;
  for (unsigned r = 0; r < rounds; ++r) {
    byHand.push_back(kiln::bench::microsecondsPerLaunch(
        warmup, launches, [&] { handOk = hand.launch() && handOk; }));
    kiln.push_back(kiln::bench::mgpuLaunchLoop(module, buffer, warmup,
                                               launches));
    std::fprintf(stderr, "round %u: hand-written %.2f us, kiln %.2f us\n",
                 r + 1, byHand.back(), kiln.back());
  }
  if (!handOk) {
    std::fprintf(stderr, "hand-written loop: a launch failed\n");
    return 1;
  }
  kiln::bench::printBackToBack(module, buffer, options.batches);
  // Every launch of both loops incremented the buffer of its own loop; the
  // runtime's must hold exactly its launches.
  std::vector<int32_t> host(64);
  mgpuMemcpy(host.data(), buffer, 64 * 4, nullptr);
  mgpuMemFree(buffer, nullptr);
  mgpuModuleUnload(module);

  KilnCudaStats stats;
  kilnCudaGetStats(&stats);
  double k = kiln::bench::median(kiln), h = kiln::bench::median(byHand);
  std::printf("device: %s\n", hand.deviceName.c_str());
  std::printf("launches per round: %u, rounds: %u (medians below)\n", launches,
              rounds);
  std::printf("hand-written driver-API loop: %8.2f us per launch\n", h);
  std::printf("kiln runtime (mgpu*):         %8.2f us per launch\n", k);
  std::printf("kiln / hand-written:          %8.2fx\n", k / h);
  std::printf("runtime launches: %llu, buffer[0] after them: %d\n",
              static_cast<unsigned long long>(stats.launches), host[0]);
  return 0;
}
