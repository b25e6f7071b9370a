// RUN: kiln-opt %s --kiln-spirv-kernel-abi=buffer-device-address=always --kiln-convert-gpu-to-spirv | FileCheck %s
// RUN: kiln-opt %s --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv | FileCheck %s --check-prefix=AUTO
// RUN: kiln-opt %s --kiln-spirv-kernel-abi=buffer-device-address=never --kiln-convert-gpu-to-spirv | FileCheck %s --check-prefix=NEVER
// RUN: kiln-compile %s --emit=spirv --buffer-device-address=always -o %t.spv
// RUN: spirv-val --target-env vulkan1.2 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s --check-prefix=SERIALIZED

// Bound by device address, a memref argument is a 64-bit address in the
// push-constant block (8-aligned; a strided one's offset, sizes and strides
// follow it) that the kernel converts to a PhysicalStorageBuffer pointer;
// every load and store through it says its alignment, atomics take it as
// is, and the module's addressing model is PhysicalStorageBuffer64.
// CHECK: spirv.module @__spv__m PhysicalStorageBuffer64 GLSL450
// CHECK: spirv.GlobalVariable @__kiln_push_constants_k : !spirv.ptr<!spirv.struct<(i64 [0], i32 [8], i32 [12], i32 [16], i64 [24], f32 [32])>, PushConstant>
// CHECK: spirv.func @k() "None"
// CHECK: %[[A:.*]] = spirv.Load "PushConstant" %{{.*}} : i64
// CHECK: %[[IN:.*]] = spirv.ConvertUToPtr %[[A]] : i64 to !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, PhysicalStorageBuffer>
// CHECK: %[[H:.*]] = spirv.Load "PushConstant" %{{.*}} : i64
// CHECK: %[[HIST:.*]] = spirv.ConvertUToPtr %[[H]] : i64 to !spirv.ptr<!spirv.struct<(!spirv.array<16 x i32, stride=4> [0])>, PhysicalStorageBuffer>
// CHECK: %[[P:.*]] = spirv.AccessChain %[[IN]][%{{.*}}, %{{.*}}] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, PhysicalStorageBuffer>, i32, i32 -> !spirv.ptr<f32, PhysicalStorageBuffer>
// CHECK: spirv.Load "PhysicalStorageBuffer" %[[P]] ["Aligned", 4] : f32
// CHECK: spirv.Store "PhysicalStorageBuffer" %{{.*}}, %{{.*}} ["Aligned", 4] : f32
// CHECK: %[[Q:.*]] = spirv.AccessChain %[[HIST]]
// CHECK: spirv.AtomicIAdd <Device> <AcquireRelease> %[[Q]], %{{.*}} : !spirv.ptr<i32, PhysicalStorageBuffer>
// CHECK-NOT: StorageBuffer>
// CHECK: gpu.func @k(%{{.*}}: memref<?xf32>, %{{.*}}: memref<16xi32>, %{{.*}}: f32) kernel attributes {kiln.abi = #kiln.kernel_abi<index_bits = 32, push_constant_size = 36, args = [#kiln.arg<strided_address, size = 4, rank = 1, push_constant_offset = 0>, #kiln.arg<address, size = 4, rank = 1, push_constant_offset = 24>, #kiln.arg<scalar, type = f32, size = 4, push_constant_offset = 32>]>

// Under `auto` @k binds its buffers by descriptor; its address variant binds
// the dynamic one by address (and the static one by descriptor), so the
// module has the PhysicalStorageBuffer64 addressing model. The Logical
// model stays for modules without variants (`never` here).
// AUTO: spirv.module @__spv__m PhysicalStorageBuffer64 GLSL450
// AUTO: spirv.func @k(%{{.*}}: !spirv.ptr<!spirv.struct<(!spirv.array<16 x i32, stride=4> [0])>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}, %{{.*}}: !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>})
// AUTO-NOT: ConvertUToPtr
// AUTO: spirv.func @k__kiln_by_address(%{{.*}}: !spirv.ptr<!spirv.struct<(!spirv.array<16 x i32, stride=4> [0])>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>})
// AUTO: spirv.ConvertUToPtr %{{.*}} : i64 to !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, PhysicalStorageBuffer>
// NEVER: spirv.module @__spv__m Logical GLSL450
// NEVER-NOT: ConvertUToPtr

// The serialized module declares the KHR extension, which Vulkan 1.2's
// bufferDeviceAddress offers (spirv-update-vce picks the EXT one).
// SERIALIZED: OpCapability PhysicalStorageBufferAddresses
// SERIALIZED-NOT: SPV_EXT_physical_storage_buffer
// SERIALIZED: OpExtension "SPV_KHR_physical_storage_buffer"
// SERIALIZED: OpMemoryModel PhysicalStorageBuffer64 GLSL450
// SERIALIZED: OpConvertUToPtr
// SERIALIZED: OpLoad %float %{{.*}} Aligned 4
module attributes {gpu.container_module} {
  gpu.module @m attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Int64, PhysicalStorageBufferAddresses], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_physical_storage_buffer]>, api=Vulkan, #spirv.resource_limits<>>} {
    gpu.func @k(%in: memref<?xf32>, %hist: memref<16xi32>, %s: f32) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %i = gpu.global_id x
      %v = memref.load %in[%i] : memref<?xf32>
      %w = arith.mulf %v, %s : f32
      memref.store %w, %in[%i] : memref<?xf32>
      %one = arith.constant 1 : i32
      %c3 = arith.constant 3 : index
      %old = memref.atomic_rmw addi %one, %hist[%c3] : (i32, memref<16xi32>) -> i32
      gpu.return
    }
  }
}
