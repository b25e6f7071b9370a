// --emit=llvm: the host as LLVM IR for the host triple, the GPU binary a
// constant loaded by a module constructor, each public function with a
// _mlir_ciface_ wrapper taking memref descriptors by pointer.
// RUN: kiln-compile %kiln_src_root/examples/saxpy.mlir --emit=llvm -O0 | FileCheck %s
// RUN: kiln-compile %kiln_src_root/examples/saxpy.mlir --emit=llvm -O2 | FileCheck %s --check-prefix=O2

// CHECK: target datalayout = "{{.+}}"
// CHECK: target triple = "{{.+}}"
// CHECK: @[[BIN:.*]] = internal constant [{{[0-9]+}} x i8] c"KILN
// CHECK: @llvm.global_ctors = appending global {{.*}} @[[LOAD:[a-z_]+_load]]
// CHECK: define internal void @saxpy(float %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, ptr
// CHECK: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 %{{.*}}, i64 1, i64 1, i64 64, i64 1, i64 1, i32 0, ptr %{{.*}}, ptr %{{.*}}, ptr null, i64 11)
// CHECK: define void @_mlir_ciface_saxpy(float %{{.*}}, ptr %{{.*}}, ptr %{{.*}})
// CHECK: define internal void @main()
// CHECK: define void @_mlir_ciface_main()
// CHECK: declare void @printMemrefF32(i64, ptr)
// CHECK: define internal void @[[LOAD]]()
// CHECK: call ptr @mgpuModuleLoad(ptr @[[BIN]], i64 {{[0-9]+}})
// CHECK-NOT: __kiln_aot

// O2: define void @_mlir_ciface_saxpy(
// O2-NOT: define internal void @saxpy(
