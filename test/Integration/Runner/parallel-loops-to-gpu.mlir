// Parallel loops as upstream's transformations leave them: @transpose's
// tiled loop nest carries the mapping attributes --gpu-map-parallel-loops
// writes (blocks for the outer loop, a 4 x 4 block of threads for the
// inner), and Kiln converts it to a launch whose block size is an
// affine.apply of constants. Every front door runs it; upstream's own
// mapping pass in front of the runner gives the same.
// RUN: kiln-vulkan-runner %s --validate | FileCheck %s
// RUN: kiln-spirv-cpu-runner %s | FileCheck %s
// RUN: kiln-compile %s --emit=exe -o %t.exe && %t.exe | FileCheck %s
// RUN: kiln-opt %s --kiln-gpu-to-vulkan | %mlir_runner -e main --entry-point-result=void -O0 --shared-libs=%kiln_lib_dir/libkiln_vulkan_runtime.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s
// RUN: kiln-compile %s --target=cuda --emit=ptx -o %t.ptx
// RUN: %mlir_opt %S/Inputs/unmapped-parallel-loop.mlir --gpu-map-parallel-loops | kiln-vulkan-runner - | FileCheck %s --check-prefix=MAPPED

// out[j][i] = in[i][j] = 100 i + j, for an 8 x 12 input.
// CHECK: sizes = [12, 8] strides = [8, 1] data =
// CHECK-NEXT: {{\[\[}}0, 100, 200, 300, 400, 500, 600, 700],
// CHECK-NEXT: [1, 101, 201, 301, 401, 501, 601, 701],
// CHECK:      [11, 111, 211, 311, 411, 511, 611, 711]]
// MAPPED: [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]

func.func @transpose(%in : memref<?x?xf32>, %out : memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %in, %c0 : memref<?x?xf32>
  %m = memref.dim %in, %c1 : memref<?x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c4, %c4) {
    scf.parallel (%ti, %tj) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
      %r = arith.addi %i, %ti : index
      %c = arith.addi %j, %tj : index
      %v = memref.load %in[%r, %c] : memref<?x?xf32>
      memref.store %v, %out[%c, %r] : memref<?x?xf32>
    } {mapping = [#gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>,
                  #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  } {mapping = [#gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>,
                #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c100 = arith.constant 100 : index
  %in = memref.alloc(%c8, %c12) : memref<?x?xf32>
  %out = memref.alloc(%c12, %c8) : memref<?x?xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c12 step %c1 {
      %h = arith.muli %i, %c100 : index
      %x = arith.addi %h, %j : index
      %xi = arith.index_cast %x : index to i32
      %xf = arith.sitofp %xi : i32 to f32
      memref.store %xf, %in[%i, %j] : memref<?x?xf32>
    }
  }
  call @transpose(%in, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  %u = memref.cast %out : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<?x?xf32>
  memref.dealloc %out : memref<?x?xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
