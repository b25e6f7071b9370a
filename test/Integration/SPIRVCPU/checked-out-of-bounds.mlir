// Checked mode: a kernel that writes one element past its buffer stops with
// an error naming the kernel and its source line, the workgroup and the
// invocation, the argument and the element; without --checked the same
// program runs (the store out of bounds is dropped) and prints.
// RUN: not kiln-spirv-cpu-runner %s --checked 2>&1 | FileCheck %s
// RUN: kiln-spirv-cpu-runner %s | FileCheck %s --check-prefix=UNCHECKED
// RUN: kiln-compile %s --target=spirv-cpu --checked --emit=exe -o %t.exe
// RUN: not %t.exe 2>&1 | FileCheck %s
// RUN: not kiln-spirv-cpu-runner %s --checked -e read_workgroup 2>&1 | FileCheck %s --check-prefix=WG

// CHECK: kiln-spirv-cpu: kernel 'main_kernel' at {{.*}}checked-out-of-bounds.mlir:[[@LINE+17]]:5: workgroup (1, 0, 0) invocation (31, 0, 0) writes 4 bytes out of bounds of argument 0 (memref<64xf32>): element 64, the binding holds 64 elements
// WG: kiln-spirv-cpu: kernel 'read_workgroup_kernel' at {{.*}}checked-out-of-bounds.mlir:[[@LINE+38]]:10: workgroup (0, 0, 0) invocation (7, 0, 0) reads 4 bytes out of bounds of workgroup variable 0 ({{.*}}): byte 32, the variable holds 32 bytes
// UNCHECKED: done

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  %buf = memref.alloc() : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // Off by one: the last invocation writes element 64.
    %base = arith.muli %bx, %sx : index
    %i0 = arith.addi %base, %tx : index
    %i = arith.addi %i0, %c1 : index
    memref.store %one, %buf[%i] : memref<64xf32>
    gpu.terminator
  }
  memref.dealloc %buf : memref<64xf32>
  %done = llvm.mlir.addressof @done : !llvm.ptr
  llvm.call @puts(%done) : (!llvm.ptr) -> i32
  return
}
llvm.mlir.global private constant @done("done\00")
llvm.func @puts(!llvm.ptr) -> i32

func.func @read_workgroup() {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1)
             workgroup(%tile : memref<8xf32, #gpu.address_space<workgroup>>) {
    %zero = arith.constant 0.0 : f32
    memref.store %zero, %tile[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %next = arith.addi %tx, %c1 : index
    %v = memref.load %tile[%next] : memref<8xf32, #gpu.address_space<workgroup>>
    memref.store %v, %buf[%tx] : memref<8xf32>
    gpu.terminator
  }
  memref.dealloc %buf : memref<8xf32>
  return
}
