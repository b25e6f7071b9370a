// A barrier-heavy kernel: 4096 workgroups of 256 invocations each sum 256
// values through workgroup memory, a tree of 8 steps with a barrier after
// each (9 barriers per invocation), launched 5 times. On the spirv-cpu
// target every invocation is a fiber and each barrier switches through all
// 256 of them. benchmarks/README.md has the numbers.
//   kiln-spirv-cpu-runner barrier_reduce.mlir -O2 --print-timing [--checked]
//   kiln-vulkan-runner barrier_reduce.mlir -O2 --print-timing
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c256 = arith.constant 256 : index
  %c4096 = arith.constant 4096 : index
  %n = arith.constant 1048576 : index
  %one = arith.constant 1.0 : f32
  %in = memref.alloc() : memref<1048576xf32>
  %out = memref.alloc() : memref<4096xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %one, %in[%i] : memref<1048576xf32>
  }
  scf.for %rep = %c0 to %c5 step %c1 {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4096, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1)
               workgroup(%tile : memref<256xf32, #gpu.address_space<workgroup>>) {
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %v = memref.load %in[%i] : memref<1048576xf32>
      memref.store %v, %tile[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c128 = arith.constant 128 : index
      %c0i = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %last = scf.while (%stride = %c128) : (index) -> index {
        %more = arith.cmpi ugt, %stride, %c0i : index
        scf.condition(%more) %stride : index
      } do {
      ^bb0(%s: index):
        %active = arith.cmpi ult, %tx, %s : index
        scf.if %active {
          %j = arith.addi %tx, %s : index
          %a = memref.load %tile[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
          %b = memref.load %tile[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          %sum = arith.addf %a, %b : f32
          memref.store %sum, %tile[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %next = arith.divui %s, %c2 : index
        scf.yield %next : index
      }
      %first = arith.cmpi eq, %tx, %c0i : index
      scf.if %first {
        %total = memref.load %tile[%c0i] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %total, %out[%bx] : memref<4096xf32>
      }
      gpu.terminator
    }
  }
  %s = memref.subview %out[4092] [4] [1] : memref<4096xf32> to memref<4xf32, strided<[1], offset: 4092>>
  %u = memref.cast %s : memref<4xf32, strided<[1], offset: 4092>> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
