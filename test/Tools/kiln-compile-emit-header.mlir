// --emit-header: the _mlir_ciface_ declaration of every public function, with
// one descriptor struct per memref type; it compiles as C and as C++.
// RUN: kiln-compile %s --emit=obj -o %t.o --emit-header=%t-api.h
// RUN: FileCheck %s < %t-api.h
// RUN: %cc -std=c99 -Wall -Werror -fsyntax-only -x c %t-api.h
// RUN: %cc -Wall -Werror -fsyntax-only -x c++ %t-api.h

// CHECK: #ifndef KILN_{{.*}}_API_H
// CHECK: #include <stdint.h>
// CHECK: extern "C" {
// CHECK: struct kiln_memref_1d_f32 {
// CHECK-NEXT:   float *allocated;
// CHECK-NEXT:   float *aligned;
// CHECK-NEXT:   int64_t offset;
// CHECK-NEXT:   int64_t sizes[1];
// CHECK-NEXT:   int64_t strides[1];
// CHECK-NEXT: };
// CHECK: struct kiln_memref_2d_i8 {
// CHECK-NEXT:   int8_t *allocated;
// CHECK: struct kiln_memref_0d_f64 {
// CHECK-NEXT:   double *allocated;
// CHECK-NEXT:   double *aligned;
// CHECK-NEXT:   int64_t offset;
// CHECK-NEXT: };
// CHECK: struct kiln_memref_1d_index {
// CHECK-NEXT:   int64_t *allocated;
// CHECK: struct pair_results {
// CHECK-NEXT:   struct kiln_memref_1d_f32 r0;
// CHECK-NEXT:   uint16_t r1;
// CHECK-NEXT: };
// CHECK: struct kiln_unranked_memref {
// CHECK-NEXT:   int64_t rank;
// CHECK-NEXT:   void *descriptor;
// CHECK: /* @scale : (f32, memref<?xf32>) -> () */
// CHECK-NEXT: void _mlir_ciface_scale(float arg0, struct kiln_memref_1d_f32 *arg1);
// CHECK: int32_t _mlir_ciface_count(struct kiln_memref_2d_i8 *arg0, int64_t arg1, bool arg2, struct kiln_memref_0d_f64 *arg3);
// CHECK: void _mlir_ciface_make(struct kiln_memref_1d_index *result, int64_t arg0);
// CHECK: void _mlir_ciface_pair(struct pair_results *results, struct kiln_unranked_memref *arg0);
// CHECK-NOT: hidden
// CHECK: #endif /* KILN_{{.*}}_API_H */

func.func @scale(%a: f32, %x: memref<?xf32>) {
  return
}
func.func @count(%m: memref<4x?xi8>, %n: index, %flag: i1, %d: memref<f64>) -> i32 {
  %c = arith.constant 0 : i32
  return %c : i32
}
func.func @make(%n: index) -> memref<?xindex> {
  %m = memref.alloc(%n) : memref<?xindex>
  return %m : memref<?xindex>
}
func.func @pair(%u: memref<*xf32>) -> (memref<?xf32>, f16) {
  %c0 = arith.constant 0 : index
  %r = memref.cast %u : memref<*xf32> to memref<?xf32>
  %h = arith.constant 1.0 : f16
  return %r, %h : memref<?xf32>, f16
}
func.func private @hidden(%x: memref<?xf32>) {
  return
}
