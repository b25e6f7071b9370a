// Kernel functions on the spirv-cpu target carry line tables from the MLIR
// locations: the LLVM IR has a DISubprogram for the kernel and its lines,
// and gdb stops at a kernel's source line in an executable.
// RUN: kiln-compile %s --target=spirv-cpu --emit=llvm -o - | FileCheck %s --check-prefix=IR
// RUN: kiln-compile %s --target=spirv-cpu --emit=exe -O0 -o %t.exe
// RUN: %if gdb %{ gdb -nx -batch -ex 'break debug-info.mlir:28' -ex run -ex bt %t.exe 2>&1 | FileCheck %s --check-prefix=GDB %}

// IR: define internal void @__kiln_cpu_main_kernel_main_kernel(ptr %0) !dbg ![[SP:[0-9]+]]
// IR: ![[SP]] = distinct !DISubprogram(name: "main_kernel"
// IR: !DILocation(line: 28, column: 5, scope: ![[SP]])
// GDB: Breakpoint 1, {{.*}}main_kernel () at {{.*}}debug-info.mlir:28
// GDB-NEXT: 28 {{.*}}memref.store %r, %out[%tx]

func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %in = memref.alloc() : memref<4xf32>
  %out = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
             workgroup(%tile : memref<4xf32, #gpu.address_space<workgroup>>) {
    %v = memref.load %in[%tx] : memref<4xf32>
    memref.store %v, %tile[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %c3 = arith.constant 3 : index
    %m = arith.subi %c3, %tx : index
    %r = memref.load %tile[%m] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %r, %out[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}
