/* Calls Kiln-compiled GPU kernels from C with the program's own data.
 * kernels.h is written by kiln-compile --emit-header (README.md). */
#include "kernels.h"

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  enum { N = 1000, ROWS = 4, COLS = 6 };
  int errors = 0;

  /* saxpy on two plain arrays: y = 3 x + y. */
  float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i) {
    x[i] = (float)i;
    y[i] = 0.5f * i;
  }
  struct kiln_memref_1d_f32 dx = {x, x, 0, {N}, {1}};
  struct kiln_memref_1d_f32 dy = {y, y, 0, {N}, {1}};
  _mlir_ciface_saxpy(3.0f, &dx, &dy);
  for (int i = 0; i < N; ++i)
    if (y[i] != 3.5f * i) {
      if (errors++ < 5)
        fprintf(stderr, "saxpy: y[%d] = %g, expected %g\n", i, y[i], 3.5 * i);
    }
  printf("saxpy: %d elements, %s\n", N, errors ? "WRONG" : "ok");

  /* transpose of a strided view: every other column of a 4x6 matrix,
   * starting at column 1, i.e. a 4x3 view with strides {6, 2}, offset 1. */
  float m[ROWS * COLS], t[3 * ROWS];
  for (int i = 0; i < ROWS * COLS; ++i)
    m[i] = (float)i;
  struct kiln_memref_2d_f32 view = {m, m, 1, {ROWS, 3}, {COLS, 2}};
  struct kiln_memref_2d_f32 out = {t, t, 0, {3, ROWS}, {ROWS, 1}};
  _mlir_ciface_transpose(&view, &out);
  int transposeErrors = 0;
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < ROWS; ++i) {
      float expected = m[1 + i * COLS + 2 * j];
      if (t[j * ROWS + i] != expected)
        ++transposeErrors;
      printf("%s%g", i ? " " : "", t[j * ROWS + i]);
    }
    printf("\n");
  }
  printf("transpose: %dx%d view, %s\n", ROWS, 3,
         transposeErrors ? "WRONG" : "ok");

  free(x);
  free(y);
  return errors || transposeErrors ? 1 : 0;
}
