// RUN: kiln-opt %s --kiln-attach-spirv-target-env=profile=desktop --kiln-spirv-kernel-abi --kiln-convert-gpu-to-spirv | FileCheck %s
// RUN: kiln-compile %s --emit=spirv -o %t.spv
// RUN: spirv-val --target-env vulkan1.3 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV

// The size of a one-dimensional memref with the identity layout, bound by
// descriptor and accessed by scalars, comes from its binding, as glslc's
// `a.length()` does: the runtime binds such a memref from its first element
// to its last byte (docs/abi.md, "Sizes read from the binding"). MLIR's
// SPIR-V dialect has no OpArrayLength, so the conversion calls a stub that
// returns the pushed size, and serialization makes each call OpArrayLength
// of the buffer and drops the pushed size's load.
// CHECK-LABEL: spirv.module
// CHECK: spirv.func @length
// CHECK: %[[N:.*]] = spirv.FunctionCall @__kiln_array_length_0(%{{.*}}, %{{.*}}) : (!spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32) -> i32
// CHECK: spirv.ULessThan %{{.*}}, %[[N]] : i32
// CHECK: spirv.func @__kiln_array_length_0(%{{.*}}: !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, %[[PUSHED:.*]]: i32) -> i32
// CHECK-NEXT: spirv.ReturnValue %[[PUSHED]] : i32
//
// Sizes that stay pushed: a 2-D memref's, a memref read with vectors (its
// buffer may become an array of vectors), a strided view's, one of 8-bit
// elements (an empty binding's one byte would read as one element), and
// none where no memref.dim reads it.
// CHECK-NOT: spirv.FunctionCall @__kiln_array_length_
//
// SPIRV-NOT: __kiln_array_length
// SPIRV: %length = OpFunction
// SPIRV-NOT: OpFunctionCall
// SPIRV: %[[LEN:.*]] = OpArrayLength %uint %length_arg_0 0
// SPIRV: OpULessThan %bool %{{.*}} %[[LEN]]
// SPIRV-NOT: OpArrayLength
// SPIRV-NOT: __kiln_array_length
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @length(%a: memref<?xf32>, %c: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %i = gpu.global_id x
      %n = memref.dim %a, %c0 : memref<?xf32>
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = memref.load %a[%i] : memref<?xf32>
        memref.store %v, %c[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @rank2(%m: memref<?x?xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %i = gpu.global_id x
      %n = memref.dim %m, %c0 : memref<?x?xf32>
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = memref.load %m[%i, %c0] : memref<?x?xf32>
        memref.store %v, %m[%c0, %i] : memref<?x?xf32>
      }
      gpu.return
    }
    gpu.func @vectors(%a: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %i = gpu.global_id x
      %j = arith.muli %i, %c4 : index
      %n = memref.dim %a, %c0 : memref<?xf32>
      %in = arith.cmpi ult, %j, %n : index
      scf.if %in {
        %v = vector.load %a[%j] : memref<?xf32>, vector<4xf32>
        vector.store %v, %a[%j] : memref<?xf32>, vector<4xf32>
      }
      gpu.return
    }
    gpu.func @strided(%a: memref<?xf32, strided<[1], offset: ?>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %i = gpu.global_id x
      %n = memref.dim %a, %c0 : memref<?xf32, strided<[1], offset: ?>>
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = memref.load %a[%i] : memref<?xf32, strided<[1], offset: ?>>
        memref.store %v, %a[%i] : memref<?xf32, strided<[1], offset: ?>>
      }
      gpu.return
    }
    gpu.func @bytes(%a: memref<?xi8>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %i = gpu.global_id x
      %n = memref.dim %a, %c0 : memref<?xi8>
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = memref.load %a[%i] : memref<?xi8>
        memref.store %v, %a[%i] : memref<?xi8>
      }
      gpu.return
    }
  }
}
