//===- HandWrittenLoop.h - A minimal synchronous launch loop -*- C++ -*-===//
//
// The baseline of the launch-overhead benchmark: the loop a Vulkan expert
// would write by hand for synchronous compute launches, against which Kiln's
// runtime is compared. Self-contained; it links only the Vulkan loader.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_BENCHMARKS_LAUNCH_OVERHEAD_HANDWRITTENLOOP_H
#define KILN_BENCHMARKS_LAUNCH_OVERHEAD_HANDWRITTENLOOP_H

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::bench {

struct HandWrittenResult {
  double microsecondsPerLaunch; // host wall time per launch, averaged
  std::string deviceName;
};

/// Creates its own Vulkan instance and device on the physical device Kiln's
/// runtime would choose (KILN_VULKAN_DEVICE=INDEX or a case-insensitive
/// substring of the name; unset: the first discrete, else integrated, else
/// virtual, else CPU device) and its first compute queue family, builds a
/// compute pipeline from `spirv` (entry point `entryPoint`, one storage buffer
/// at set 0 binding 0 of `bufferBytes` bytes in device-local memory, no push
/// constants), then does `warmup` and then `launches` synchronous dispatches
/// of (groups,1,1) workgroups: for each one, record the command buffer (begin,
/// bind pipeline, bind descriptor set, dispatch, end), submit with a fence,
/// wait for the fence, reset the fence. The command buffer and fence are
/// reused. Only the timed loop is timed, with std::chrono::steady_clock.
///
/// Returns false and sets `error` (naming the failing vk call and the VkResult,
/// e.g. "vkCreateComputePipelines: VK_ERROR_OUT_OF_HOST_MEMORY") on any
/// failure, after destroying everything it created.
bool runHandWrittenLoop(const std::vector<uint32_t> &spirv,
                        const std::string &entryPoint, uint32_t groups,
                        uint64_t bufferBytes, unsigned warmup,
                        unsigned launches, HandWrittenResult &result,
                        std::string &error);

} // namespace kiln::bench

#endif // KILN_BENCHMARKS_LAUNCH_OVERHEAD_HANDWRITTENLOOP_H
