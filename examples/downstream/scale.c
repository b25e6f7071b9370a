/* Calls the kernel of kernels.mlir with the program's own array; kernels.h
 * is written by kiln-compile --emit-header (kiln_add_kernel_library). */
#include "kernels.h"

#include <stdio.h>

int main(void) {
  enum { N = 1000 };
  static float x[N];
  for (int i = 0; i < N; ++i)
    x[i] = (float)i;
  struct kiln_memref_1d_f32 dx = {x, x, 0, {N}, {1}};
  _mlir_ciface_scale(2.0f, &dx);
  int errors = 0;
  for (int i = 0; i < N; ++i)
    if (x[i] != 2.0f * i)
      ++errors;
  printf("scale: %d elements, %s\n", N, errors ? "WRONG" : "ok");
  return errors != 0;
}
