//===- AOTMain.cpp - main() of kiln-compile --emit=exe executables --------===//
//
// kiln-compile generates the three functions of kiln/Runtime/AOTEntry.h into
// the program's object file and links this `main` against them. The options
// are the runtime's environment variables as flags, so an executable is
// driven like kiln-vulkan-runner. It links no LLVM.
//
//===----------------------------------------------------------------------===//

#include "kiln/Runtime/AOTEntry.h"
#include "kiln/Runtime/VulkanRuntime.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
void usage(const char *program) {
  std::printf(
      "usage: %s [options]\n"
      "Runs the program's entry point on a Vulkan device.\n\n"
      "  --device=INDEX|NAME  Vulkan device (also KILN_VULKAN_DEVICE)\n"
      "  --validate           enable the Khronos validation layer; any\n"
      "                       message fails the run (KILN_VULKAN_VALIDATION=1)\n"
      "  --print-timing       one kiln-timing line per launch on stderr\n"
      "                       (KILN_VULKAN_TIMING=1)\n"
      "  --list-devices       list the Vulkan devices and exit\n"
      "  --print-target-env   print the device's #spirv.target_env and exit\n"
      "  --help               this text\n\n"
      "An integer result of the entry point is printed and is the exit "
      "status.\n",
      program);
}
} // namespace

int main(int argc, char **argv) {
  const char *program = argc > 0 ? argv[0] : "kiln-program";
  bool listDevices = false, printTargetEnv = false;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    // Accept -flag as well as --flag, as LLVM-style tools do.
    if (arg[0] == '-' && arg[1] == '-')
      ++arg;
    if (std::strncmp(arg, "-device=", 8) == 0) {
      setenv("KILN_VULKAN_DEVICE", arg + 8, 1);
    } else if (std::strcmp(arg, "-device") == 0 && i + 1 < argc) {
      setenv("KILN_VULKAN_DEVICE", argv[++i], 1);
    } else if (std::strcmp(arg, "-validate") == 0) {
      setenv("KILN_VULKAN_VALIDATION", "1", 1);
    } else if (std::strcmp(arg, "-print-timing") == 0) {
      setenv("KILN_VULKAN_TIMING", "1", 1);
    } else if (std::strcmp(arg, "-list-devices") == 0) {
      listDevices = true;
    } else if (std::strcmp(arg, "-print-target-env") == 0) {
      printTargetEnv = true;
    } else if (std::strcmp(arg, "-help") == 0 || std::strcmp(arg, "-h") == 0) {
      usage(program);
      return 0;
    } else {
      std::fprintf(stderr,
                   "%s: unknown argument '%s'; see %s --help\n", program,
                   argv[i], program);
      return 2;
    }
  }
  if (listDevices)
    return kilnVulkanListDevices();
  if (printTargetEnv) {
    const char *env = kilnVulkanDeviceTargetEnv();
    if (!env)
      return 1;
    std::printf("%s\n", env);
    return 0;
  }

  __kiln_aot_init();
  union {
    int32_t i32;
    int64_t i64;
    float f32;
    unsigned char bytes[8];
  } result;
  std::memset(&result, 0, sizeof(result));
  int kind = __kiln_aot_run(&result);
  __kiln_aot_fini();

  // Printed as kiln-vulkan-runner (mlir-runner) prints entry-point results.
  int status = 0;
  switch (kind) {
  case KILN_AOT_RESULT_I32:
    std::printf("%d\n", result.i32);
    status = result.i32;
    break;
  case KILN_AOT_RESULT_I64:
    std::printf("%lld\n", static_cast<long long>(result.i64));
    status = static_cast<int>(result.i64);
    break;
  case KILN_AOT_RESULT_F32:
    std::printf("%e\n", static_cast<double>(result.f32));
    break;
  default:
    break;
  }
  std::fflush(stdout);
  return status;
}
