// An scf.parallel loop for upstream's --gpu-map-parallel-loops to map (the
// host's loops here are scf.for, which it leaves alone).
func.func @double(%buf : memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %v = memref.load %buf[%i] : memref<16xf32>
    %d = arith.addf %v, %v : f32
    memref.store %d, %buf[%i] : memref<16xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %buf[%i] : memref<16xf32>
  }
  call @double(%buf) : (memref<16xf32>) -> ()
  %u = memref.cast %buf : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %buf : memref<16xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
