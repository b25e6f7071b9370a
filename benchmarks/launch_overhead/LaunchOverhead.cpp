//===- LaunchOverhead.cpp - Launch overhead: Kiln's runtime vs by hand ----===//
//
// kiln-launch-overhead [--launches N] [--rounds R]
//
// Host microseconds per synchronous launch of one tiny kernel, through Kiln's
// Vulkan runtime exactly as compiled host code calls it (get function, create
// stream, launch, synchronize, destroy stream) and through the minimal loop a
// Vulkan programmer writes by hand (HandWrittenLoop.cpp), on the same device
// (KILN_VULKAN_DEVICE selects it for both), with the same SPIR-V and a
// device-local buffer. Rounds alternate between the two; the medians are
// reported, since CPU drivers (lavapipe) are noisy.
//
//===----------------------------------------------------------------------===//

#include "HandWrittenLoop.h"
#include "kiln/Contract/Container.h"
#include "kiln/Runtime/VulkanRuntime.h"

#include "LaunchLoop.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace kiln;

static const uint32_t kTiny[] = {
#include "tiny.inc"
};

int main(int argc, char **argv) {
  bench::LaunchOptions options;
  if (!bench::parseLaunchOptions(argc, argv, "kiln-launch-overhead", options))
    return 2;
  const unsigned launches = options.launches, rounds = options.rounds,
                 warmup = options.warmup;

  container::ModuleInfo info;
  container::KernelInfo kernel;
  kernel.name = "main";
  kernel.workgroupSize[0] = 64;
  container::ArgInfo arg;
  arg.kind = container::ArgKind::MemRef;
  arg.size = 4;
  arg.rank = 1;
  kernel.args.push_back(arg);
  info.kernels.push_back(kernel);
  info.spirv.assign(std::begin(kTiny), std::end(kTiny));
  std::vector<uint8_t> bytes = container::write(info);
  void *module = mgpuModuleLoad(bytes.data(), bytes.size());
  void *buffer = mgpuMemAlloc(64 * 4, nullptr, false);

  std::vector<uint32_t> spirv(std::begin(kTiny), std::end(kTiny));
  std::vector<double> kiln, hand;
  std::string device;
  for (unsigned r = 0; r < rounds; ++r) {
    bench::HandWrittenResult result;
    std::string error;
    if (!bench::runHandWrittenLoop(spirv, "main", 1, 64 * 4, warmup, launches,
                                   result, error)) {
      std::fprintf(stderr, "hand-written loop failed: %s\n", error.c_str());
      return 1;
    }
    hand.push_back(result.microsecondsPerLaunch);
    device = result.deviceName;
    kiln.push_back(bench::mgpuLaunchLoop(module, buffer, warmup, launches));
    std::fprintf(stderr, "round %u: hand-written %.2f us, kiln %.2f us\n",
                 r + 1, hand.back(), kiln.back());
  }
  kiln::bench::printBackToBack(module, buffer, options.batches);
  mgpuMemFree(buffer, nullptr);
  mgpuModuleUnload(module);

  KilnVulkanStats stats;
  kilnVulkanGetStats(&stats);
  double k = bench::median(kiln), h = bench::median(hand);
  std::printf("device: %s\n", device.c_str());
  std::printf("launches per round: %u, rounds: %u (medians below)\n", launches,
              rounds);
  std::printf("hand-written Vulkan loop: %8.2f us per launch\n", h);
  std::printf("kiln runtime (mgpu*):     %8.2f us per launch\n", k);
  std::printf("kiln / hand-written:      %8.2fx\n", k / h);
  std::printf("pipelines created by the runtime: %llu\n",
              static_cast<unsigned long long>(stats.pipelines));
  return 0;
}
