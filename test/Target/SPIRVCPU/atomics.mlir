// --kiln-spirv-to-cpu, memory accesses (MemoryAccess.cpp): atomics are
// sequentially consistent LLVM atomics on the buffer the runtime passes,
// and in checked mode each is checked first as an atomic access (kind 2)
// of resource 0 (space 0). By default each is bounded: its address is the
// buffer's or the sink, and its result the atomic's or 0
// (bounded-access.mlir runs that); with unbounded-access it is left alone.
// RUN: kiln-opt %s --kiln-spirv-to-cpu=unbounded-access=true | FileCheck %s
// RUN: kiln-opt %s --kiln-spirv-to-cpu | FileCheck %s --check-prefix=BOUNDED
// RUN: kiln-opt %s --kiln-spirv-to-cpu=checked=true | FileCheck %s --check-prefix=CHECKED

// BOUNDED-LABEL: llvm.func internal @__kiln_cpu_kernels_k(%arg0: !llvm.ptr)
// The bounds table, read once: the zero area, the sink, then resource 0's
// [lo, hi).
// BOUNDED: %[[TABLE:.*]] = llvm.load %{{.*}} invariant {{.*}}: !llvm.ptr -> !llvm.ptr
// BOUNDED: %[[ZEROS:.*]] = llvm.load %{{.*}} invariant {{.*}}: !llvm.ptr -> !llvm.ptr
// BOUNDED: %[[SINK:.*]] = llvm.load %{{.*}} invariant {{.*}}: !llvm.ptr -> !llvm.ptr
// BOUNDED: %[[LO:.*]] = llvm.load %{{.*}} invariant {{.*}}: !llvm.ptr -> i64
// BOUNDED: %[[HI:.*]] = llvm.load %{{.*}} invariant {{.*}}: !llvm.ptr -> i64
// BOUNDED: %[[FIRST:.*]] = llvm.ptrtoint %[[PTR:.*]] : !llvm.ptr to i64
// BOUNDED: %[[END:.*]] = llvm.add %[[FIRST]]
// BOUNDED: %[[GE:.*]] = llvm.icmp "uge" %[[FIRST]], %[[LO]] : i64
// BOUNDED: %[[LE:.*]] = llvm.icmp "ule" %[[END]], %[[HI]] : i64
// BOUNDED: %[[IN:.*]] = llvm.and %[[GE]], %[[LE]]
// BOUNDED: %[[SAFE:.*]] = llvm.select %[[IN]], %[[PTR]], %[[SINK]]
// BOUNDED: %[[OLD:.*]] = llvm.atomicrmw add %[[SAFE]]
// BOUNDED: %[[ZERO:.*]] = llvm.mlir.zero : i32
// BOUNDED: llvm.select %[[IN]], %[[OLD]], %[[ZERO]] : i1, i32

// CHECK-LABEL: llvm.func internal @__kiln_cpu_kernels_k(%arg0: !llvm.ptr)
// CHECK-NOT: llvm.call @__kiln_spirv_cpu_check
// CHECK: llvm.atomicrmw add %[[PTR:.*]], %[[ONE:.*]] seq_cst : !llvm.ptr, i32
// CHECK-NEXT: llvm.atomicrmw umax %[[PTR]], %[[ONE]] seq_cst : !llvm.ptr, i32
// CHECK-NEXT: %[[STEP:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.atomicrmw sub %[[PTR]], %[[STEP]] seq_cst : !llvm.ptr, i32
// CHECK-NEXT: %[[PAIR:.*]] = llvm.cmpxchg %[[PTR]], %{{.*}}, %[[ONE]] seq_cst seq_cst : !llvm.ptr, i32
// CHECK: llvm.extractvalue %[[PAIR]][0] : !llvm.struct<(i32, i1)>

// CHECKED-LABEL: llvm.func internal @__kiln_cpu_kernels_k(%arg0: !llvm.ptr)
// CHECKED: %[[BYTES:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECKED-NEXT: %[[SITE:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECKED-NEXT: %[[ATOMIC:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECKED-NEXT: %[[RESOURCE:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECKED-NEXT: %[[INDEX:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECKED-NEXT: llvm.call @__kiln_spirv_cpu_check(%arg0, %[[SITE]], %[[ATOMIC]], %[[RESOURCE]], %[[INDEX]], %[[PTR:.*]], %[[BYTES]])
// CHECKED-NEXT: llvm.atomicrmw add %[[PTR]]
// CHECKED: llvm.call @__kiln_spirv_cpu_check(%arg0,
// CHECKED-NEXT: llvm.atomicrmw umax %[[PTR]]
// CHECKED: llvm.call @__kiln_spirv_cpu_check(%arg0,
// CHECKED-NEXT: llvm.atomicrmw sub %[[PTR]]
// CHECKED: llvm.call @__kiln_spirv_cpu_check(%arg0,
// CHECKED-NEXT: llvm.cmpxchg %[[PTR]]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> attributes {
        spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
      spirv.GlobalVariable @buffer bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      spirv.func @k() "None" attributes {
          spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
        %base = spirv.mlir.addressof @buffer : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
        %zero = spirv.Constant 0 : i32
        %one = spirv.Constant 1 : i32
        %p = spirv.AccessChain %base[%zero, %one] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
        %a = spirv.AtomicIAdd <Device> <AcquireRelease> %p, %one : !spirv.ptr<i32, StorageBuffer>
        %b = spirv.AtomicUMax <Device> <AcquireRelease> %p, %one : !spirv.ptr<i32, StorageBuffer>
        %c = spirv.AtomicIDecrement <Device> <AcquireRelease> %p : !spirv.ptr<i32, StorageBuffer>
        %d = spirv.AtomicCompareExchange <Device> <AcquireRelease> <Acquire> %p, %one, %zero : !spirv.ptr<i32, StorageBuffer>
        spirv.Return
      }
      spirv.EntryPoint "GLCompute" @k
      spirv.ExecutionMode @k "LocalSize", 1, 1, 1
    }
  }
}
