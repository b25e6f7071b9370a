//===- AOTMain.cpp - main() of kiln-compile --emit=exe executables --------===//
//
// kiln-compile generates the three functions of kiln/Runtime/AOTEntry.h into
// the program's object file and links this `main` against them. The options
// are the runtime's environment variables as flags, handed to the runtime
// as its rt::Options (which win over the variables), so an executable is
// driven like kiln-vulkan-runner (or, built with KILN_AOT_CUDA for
// --target=cuda, like kiln-cuda-runner). It links no LLVM.
//
//===----------------------------------------------------------------------===//

#include "kiln/Runtime/AOTEntry.h"
#include "kiln/Runtime/Runtime.h"
#if defined(KILN_AOT_CUDA)
#include "kiln/Runtime/CUDARuntime.h"
#elif defined(KILN_AOT_SPIRV_CPU)
#include "kiln/Runtime/SPIRVCPURuntime.h"
#else
#include "kiln/Runtime/VulkanRuntime.h"
#endif

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
// What differs between the Vulkan, the CUDA and the spirv-cpu main().
#if defined(KILN_AOT_CUDA)
constexpr const char *kApi = "CUDA";
constexpr const char *kDeviceVar = "KILN_CUDA_DEVICE";
constexpr const char *kThreadsVar = nullptr;
constexpr const char *kTimingVar = "KILN_CUDA_TIMING";
constexpr const char *kValidateVar = nullptr;
constexpr const char *kRobustVar = nullptr;
constexpr const char *kPrintTargetFlag = "-print-chip";
constexpr const char *kPrintTargetHelp =
    "  --print-chip         print the device's chip (sm_XX) and exit\n";
int listDevices() { return kilnCudaListDevices(); }
const char *deviceTarget() { return kilnCudaDeviceChip(); }
kiln::rt::Runtime &runtime() { return *kilnCudaRuntime(); }
constexpr const char *kRuntimeName = "kiln-cuda";
#elif defined(KILN_AOT_SPIRV_CPU)
constexpr const char *kApi = "CPU (spirv-cpu)";
// The CPU's knobs: how many devices share it and how many worker threads
// run workgroups.
constexpr const char *kDeviceVar = "KILN_SPIRV_CPU_DEVICE";
constexpr const char *kThreadsVar = "KILN_CPU_THREADS";
constexpr const char *kTimingVar = "KILN_SPIRV_CPU_TIMING";
constexpr const char *kValidateVar = nullptr;
constexpr const char *kRobustVar = nullptr;
constexpr const char *kPrintTargetFlag = "-print-target-env";
constexpr const char *kPrintTargetHelp =
    "  --print-target-env   print the target (spirv-cpu) and exit\n";
int listDevices() { return kilnSpirvCpuListDevices(); }
const char *deviceTarget() { return "spirv-cpu"; }
kiln::rt::Runtime &runtime() { return *kilnSpirvCpuRuntime(); }
constexpr const char *kRuntimeName = "kiln-spirv-cpu";
#else
constexpr const char *kApi = "Vulkan";
constexpr const char *kDeviceVar = "KILN_VULKAN_DEVICE";
constexpr const char *kThreadsVar = nullptr;
constexpr const char *kTimingVar = "KILN_VULKAN_TIMING";
constexpr const char *kValidateVar = "KILN_VULKAN_VALIDATION";
constexpr const char *kRobustVar = "KILN_VULKAN_ROBUST";
constexpr const char *kPrintTargetFlag = "-print-target-env";
constexpr const char *kPrintTargetHelp =
    "  --print-target-env   print the device's #spirv.target_env and exit\n";
int listDevices() { return kilnVulkanListDevices(); }
const char *deviceTarget() { return kilnVulkanDeviceTargetEnv(); }
kiln::rt::Runtime &runtime() { return *kilnVulkanRuntime(); }
constexpr const char *kRuntimeName = "kiln-vulkan";
#endif

void usage(const char *program) {
  std::printf("usage: %s [options]\n"
              "Runs the program's entry point on a %s device.\n\n",
              program, kApi);
  if (kDeviceVar)
    std::printf("  --device=A[,B...]    the program's %s devices, numbered "
                "0..N-1 for\n"
                "                       gpu.set_default_device: indices, "
                "name parts or\n"
                "                       UUIDs; one may be listed twice (also "
                "%s)\n",
                kApi, kDeviceVar);
  if (kThreadsVar)
    std::printf("  --cpu-threads=N      worker threads that run workgroups "
                "(also %s)\n",
                kThreadsVar);
  if (kValidateVar)
    std::printf("  --validate           enable the Khronos validation layer; "
                "any\n"
                "                       message fails the run (%s=1)\n",
                kValidateVar);
  if (kRobustVar)
    std::printf("  --robust-buffer-access  out-of-bounds buffer reads return "
                "zero,\n"
                "                       writes are dropped (%s=1)\n",
                kRobustVar);
  std::printf("  --timeout=SECONDS    stop with an error when a wait for the "
              "device\n"
              "                       lasts longer (KILN_TIMEOUT)\n");
  std::printf("  --print-timing       one kiln-timing line per launch on "
              "stderr\n"
              "                       (%s=1)\n"
              "  --list-devices       list the %s devices and exit\n"
              "%s"
              "  --help               this text\n\n"
              "An integer result of the entry point is printed and is the "
              "exit status.\n",
              kTimingVar, kApi, kPrintTargetHelp);
}

int printDeviceTarget() {
  const char *target = deviceTarget();
  if (!target)
    return 1;
  std::printf("%s\n", target);
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  const char *program = argc > 0 ? argv[0] : "kiln-program";
  bool listOnly = false, printTargetEnv = false;
  kiln::rt::Options options;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    // Accept -flag as well as --flag, as LLVM-style tools do.
    if (arg[0] == '-' && arg[1] == '-')
      ++arg;
    if (kDeviceVar && std::strncmp(arg, "-device=", 8) == 0) {
      options.device = arg + 8;
    } else if (kDeviceVar && std::strcmp(arg, "-device") == 0 && i + 1 < argc) {
      options.device = argv[++i];
    } else if (kThreadsVar && std::strncmp(arg, "-cpu-threads=", 13) == 0) {
      options.threads = arg + 13;
    } else if (kValidateVar && std::strcmp(arg, "-validate") == 0) {
      options.validation = true;
    } else if (kRobustVar && std::strcmp(arg, "-robust-buffer-access") == 0) {
      options.robust = true;
    } else if (std::strncmp(arg, "-timeout=", 9) == 0) {
      options.timeout = arg + 9;
    } else if (std::strcmp(arg, "-print-timing") == 0) {
      options.timing = true;
    } else if (std::strcmp(arg, "-list-devices") == 0) {
      listOnly = true;
    } else if (std::strcmp(arg, kPrintTargetFlag) == 0) {
      printTargetEnv = true;
    } else if (std::strcmp(arg, "-help") == 0 || std::strcmp(arg, "-h") == 0) {
      usage(program);
      return 0;
    } else {
      std::fprintf(stderr, "%s: unknown argument '%s'; see %s --help\n",
                   program, argv[i], program);
      return 2;
    }
  }
  if (kiln::rt::Status error = runtime().configure(options)) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: %s\n", kRuntimeName, error.message().c_str());
    return 1;
  }
  if (listOnly)
    return listDevices();
  if (printTargetEnv)
    return printDeviceTarget();

  __kiln_aot_init();
  KilnAOTResult result;
  std::memset(&result, 0, sizeof(result));
  int kind = __kiln_aot_run(&result);
  __kiln_aot_fini();
  return kilnAOTPrintResult(kind, &result);
}
