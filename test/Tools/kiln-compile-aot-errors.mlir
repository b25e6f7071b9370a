// kiln-compile --emit=llvm|obj|exe errors: a message, a non-zero exit and no
// output file, not even a partial one.
// RUN: rm -rf %t && mkdir -p %t/empty
// RUN: not kiln-compile %s --emit=exe -o %t/args 2>&1 | FileCheck %s --check-prefix=ARGS
// RUN: not kiln-compile %s --emit=exe -e nope -o %t/nope 2>&1 | FileCheck %s --check-prefix=NOPE
// RUN: not kiln-compile %s --emit=exe -e memref_result -o %t/memref 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not kiln-compile %s --emit=exe -e ok --linker=%t/no-such-c++ -o %t/linker 2>&1 | FileCheck %s --check-prefix=LINKER
// RUN: not kiln-compile %s --emit=exe -e ok --linker=false -o %t/failing 2>&1 | FileCheck %s --check-prefix=FAILING
// RUN: not kiln-compile %s --emit=exe -e ok --runtime-dir=%t/empty -o %t/runtime 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUN: not kiln-compile %s --emit=obj -O5 -o %t/level.o 2>&1 | FileCheck %s --check-prefix=LEVEL
// RUN: not kiln-compile %s --emit=spirv --emit-header=%t/h.h -o %t/spv 2>&1 | FileCheck %s --check-prefix=HEADER
// RUN: not kiln-compile %s --emit=obj --entry-point-result=i32 -o %t/epr.o 2>&1 | FileCheck %s --check-prefix=EPR
// RUN: not kiln-compile %S/Inputs/aot-vector-signature.mlir --emit=obj --emit-header=%t/v.h -o %t/v.o 2>&1 | FileCheck %s --check-prefix=CTYPE
// RUN: not kiln-compile %S/Inputs/aot-does-not-lower.mlir --emit=exe -o %t/lower 2>&1 | FileCheck %s --check-prefix=LOWER
// A header that cannot be written leaves no object behind.
// RUN: not kiln-compile %s --emit=obj -e ok --emit-header=%t/no-such-dir/k.h -o %t/unheaded.o 2>&1 | FileCheck %s --check-prefix=HEADER-PATH
// RUN: ls -A %t | FileCheck %s --check-prefix=NOTHING

// ARGS: kiln-compile: error: entry point '@main' takes 6 arguments; an entry point takes none (call it from C through kiln-compile --emit=obj and --emit-header instead)
// NOPE: kiln-compile: error: entry point '@nope' is not defined in the input
// RESULT: kiln-compile: error: entry point '@memref_result' returns { ptr, ptr, i64, [1 x i64], [1 x i64] }; an entry point returns nothing, i32, i64 or f32
// LINKER: kiln-compile: error: linker '{{.*}}no-such-c++' not found
// FAILING: kiln-compile: error: linking '{{.*}}failing' failed: '{{.*}}false' exited with status 1
// RUNTIME: kiln-compile: error: cannot find Kiln's runtime library '{{.*}}empty{{/|\\}}libkiln_aot_main.a' (set the folder with --runtime-dir)
// LEVEL: kiln-compile: error: -O5 is not a level; use -O0 to -O3
// HEADER: kiln-compile: error: --emit-header needs --emit=llvm, obj or exe
// HEADER-PATH: kiln-compile: error: {{.*}}no-such-dir/k.h{{.*}}
// EPR: kiln-compile: error: --entry-point-result applies to --emit=exe only
// CTYPE: aot-vector-signature.mlir:4:1: error: cannot declare 'dot' in a C header: type 'vector<4xf32>' has no C spelling
// LOWER: aot-does-not-lower.mlir:9:12: error: 'memref.alloc' cannot run on Kiln's SPIR-V targets (Vulkan, spirv-cpu): a Vulkan kernel cannot allocate global memory
// Only the empty folder made above is there.
// NOTHING: {{^}}empty{{$}}
// NOTHING-NOT: {{.}}

func.func @main(%a: memref<?xf32>, %n: index) {
  return
}
func.func @memref_result() -> memref<4xf32> {
  %m = memref.alloc() : memref<4xf32>
  return %m : memref<4xf32>
}
func.func @ok() {
  return
}
