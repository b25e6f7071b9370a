// gpu.printf on the CPU: each invocation's printf is C's printf with the
// same format, floats promoted to double as C promotes them; lines come in
// no fixed order (workgroups run in parallel), hence the sort.
// RUN: kiln-spirv-cpu-runner %s | sort | FileCheck %s
// RUN: kiln-compile %s --target=spirv-cpu --emit=exe -o %t.exe
// RUN: %t.exe | sort | FileCheck %s

// CHECK: block 0 thread 0 value 0.500000
// CHECK-NEXT: block 0 thread 1 value 1.500000
// CHECK-NEXT: block 1 thread 0 value 2.500000
// CHECK-NEXT: block 1 thread 1 value 3.500000
// CHECK-NEXT: i8 -5 hex ff f16 1.500 |  3.14|

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    %b = arith.index_cast %bx : index to i32
    %t = arith.index_cast %tx : index to i32
    %two = arith.constant 2 : i32
    %i = arith.muli %b, %two : i32
    %j = arith.addi %i, %t : i32
    %f = arith.sitofp %j : i32 to f32
    %half = arith.constant 0.5 : f32
    %v = arith.addf %f, %half : f32
    gpu.printf "block %d thread %d value %f\n", %bx, %tx, %v : index, index, f32
    %first = arith.cmpi eq, %j, %two : i32
    scf.if %first {
      %i8 = arith.constant -5 : i8
      %ff = arith.constant 255 : i32
      %h = arith.constant 1.5 : f16
      %pi = arith.constant 3.14159 : f32
      gpu.printf "i8 %d hex %x f16 %.3f |%6.2f|\n", %i8, %ff, %h, %pi : i8, i32, f16, f32
    }
    gpu.terminator
  }
  return
}
