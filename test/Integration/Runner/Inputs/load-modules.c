// load-modules KERNEL FILE...: loads each FILE (a Kiln container or raw
// SPIR-V) into memory of its own with the shared Vulkan runtime, looks up
// KERNEL in it (which creates the shader module), and prints how many
// modules the runtime validated with SPIRV-Tools and how long that took.
#include "kiln/Runtime/VulkanRuntime.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: load-modules KERNEL FILE...\n");
    return 2;
  }
  for (int i = 2; i < argc; ++i) {
    FILE *f = fopen(argv[i], "rb");
    if (!f) {
      perror(argv[i]);
      return 2;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *bytes = malloc(size);
    if (fread(bytes, 1, size, f) != (size_t)size) {
      perror(argv[i]);
      return 2;
    }
    fclose(f);
    void *module = mgpuModuleLoad(bytes, size);
    if (!mgpuModuleGetFunction(module, argv[1]))
      return 1;
  }
  KilnVulkanStats stats;
  kilnVulkanGetStats(&stats);
  printf("validations %llu in %.3f ms\n",
         (unsigned long long)stats.spirvValidations,
         stats.spirvValidationNanoseconds / 1e6);
  return 0;
}
