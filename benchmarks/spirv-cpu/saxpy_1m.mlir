// 1M invocations of saxpy (4096 workgroups of 256), launched 5 times: the
// spirv-cpu target's fast path (no barrier, no subgroup operation), next to
// the same kernel on a Vulkan device. benchmarks/README.md has the numbers.
//   kiln-spirv-cpu-runner saxpy_1m.mlir -O2 --print-timing
//   kiln-vulkan-runner saxpy_1m.mlir -O2 --print-timing
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c256 = arith.constant 256 : index
  %c4096 = arith.constant 4096 : index
  %n = arith.constant 1048576 : index
  %a = arith.constant 2.0 : f32
  %x = memref.alloc() : memref<1048576xf32>
  %y = memref.alloc() : memref<1048576xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %x[%i] : memref<1048576xf32>
    memref.store %f, %y[%i] : memref<1048576xf32>
  }
  scf.for %rep = %c0 to %c5 step %c1 {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4096, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %xv = memref.load %x[%i] : memref<1048576xf32>
      %yv = memref.load %y[%i] : memref<1048576xf32>
      %r = math.fma %a, %xv, %yv : f32
      memref.store %r, %y[%i] : memref<1048576xf32>
      gpu.terminator
    }
  }
  %s = memref.subview %y[1048572] [4] [1] : memref<1048576xf32> to memref<4xf32, strided<[1], offset: 1048572>>
  %u = memref.cast %s : memref<4xf32, strided<[1], offset: 1048572>> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
