// --kiln-spirv-to-cpu (through --kiln-gpu-to-spirv-cpu): the kernel becomes
// a host function taking the invocation; built-ins are fields of it, buffers
// the bindings the runtime passes, workgroup variables slices of the
// workgroup's memory; the barrier calls the runtime; a constructor registers
// the kernel before the gpu.binary's constructor (priority 123) loads it.
// RUN: kiln-opt %s --kiln-gpu-to-spirv-cpu | FileCheck %s
// RUN: kiln-opt %s --kiln-gpu-to-spirv-cpu=checked=true | FileCheck %s --check-prefix=CHECKED

// CHECK-DAG: llvm.mlir.global private constant @__kiln_cpu.main_kernel_site_0("{{.*}}spirv-to-cpu.mlir:[[@LINE+47]]:5\00")
// CHECK-DAG: llvm.mlir.global private constant @__kiln_cpu.main_kernel_res_0("argument 0 (memref<4x64xf32>)\00")
// CHECK-DAG: llvm.func @__kiln_spirv_cpu_barrier(!llvm.ptr, i32)
// The container is still there, for mgpuModuleLoad.
// CHECK-DAG: gpu.binary @main_kernel
// CHECK-LABEL: llvm.func internal @__kiln_cpu_main_kernel_main_kernel(%arg0: !llvm.ptr)
// The resource table (Invocation::resources) and its slot 0:
// CHECK: %[[TABLE_AT:.*]] = llvm.getelementptr %arg0[112] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[TABLE:.*]] = llvm.load %[[TABLE_AT]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[BUF:.*]] = llvm.load %[[TABLE]] : !llvm.ptr -> !llvm.ptr
// Workgroup memory (Invocation::workgroupMemory):
// CHECK: llvm.getelementptr %arg0[128] : (!llvm.ptr) -> !llvm.ptr, i8
// WorkgroupId and LocalInvocationId:
// CHECK: llvm.getelementptr %arg0[32] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.getelementptr %arg0[16] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.call @__kiln_spirv_cpu_barrier(%arg0, %{{.*}}) : (!llvm.ptr, i32) -> ()
// CHECK: llvm.func internal @__kiln_cpu.main_kernel_register()
// CHECK: llvm.call @__kiln_spirv_cpu_register(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, !llvm.ptr) -> ()
// CHECK: llvm.mlir.global_ctors ctors = [@__kiln_cpu.main_kernel_register], priorities = [100 : i32]

// Checked mode: each buffer and workgroup access asks the runtime first
// (read 0, write 1; resource 0, workgroup 1), and the kernel's flags say so
// (barrier 1 | checked 4 = 5).
// CHECKED: llvm.func @__kiln_spirv_cpu_check(!llvm.ptr, i32, i32, i32, i32, !llvm.ptr, i64)
// CHECKED: llvm.call @__kiln_spirv_cpu_check(%arg0,
// CHECKED-NEXT: llvm.load
// CHECKED: llvm.call @__kiln_spirv_cpu_check(%arg0,
// CHECKED-NEXT: llvm.store
// CHECKED: llvm.call @__kiln_spirv_cpu_check(%arg0,
// CHECKED-NEXT: llvm.load
// CHECKED: llvm.call @__kiln_spirv_cpu_check(%arg0,
// CHECKED-NEXT: llvm.store
// CHECKED: llvm.mlir.global private constant @__kiln_cpu.main_kernel_main_kernel_desc()
// CHECKED: llvm.mlir.constant(5 : i32) : i32

func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %in = memref.alloc() : memref<4x64xf32>
  %out = memref.alloc() : memref<4x64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             workgroup(%tile : memref<64xf32, #gpu.address_space<workgroup>>) {
    %c63 = arith.constant 63 : index
    %v = memref.load %in[%bx, %tx] : memref<4x64xf32>
    memref.store %v, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %mirror = arith.subi %c63, %tx : index
    %r = memref.load %tile[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %r, %out[%bx, %tx] : memref<4x64xf32>
    gpu.terminator
  }
  return
}
