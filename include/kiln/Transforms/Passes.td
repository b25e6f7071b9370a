//===- Passes.td - KilnTransforms -*- tablegen -*-===//
//
// Kernel transforms shared by both targets.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TRANSFORMS_PASSES
#define KILN_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def KilnInlineDeviceFunctions
    : Pass<"kiln-inline-device-functions", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Inline the func.funcs a GPU module's kernels call";
  let description = [{
    Outlining copies every `func.func` a kernel calls into its `gpu.module`.
    This pass inlines them into the kernels and erases them, for both
    targets (Vulkan's logical addressing cannot pass buffers to functions):
    a one-block body in place, a body with several blocks as an
    `scf.execute_region` (structured later on the Vulkan path).
    A call of a function without a body (a host function such as
    `printMemrefF32`) and recursion are refused with a located error naming
    the function.

    Before:
    ```mlir
    gpu.module @k {
      func.func @sq(%x: f32) -> f32 { %y = arith.mulf %x, %x : f32  return %y : f32 }
      gpu.func @kernel(...) kernel { %r = func.call @sq(%v) : (f32) -> f32 ... }
    }
    ```
    After:
    ```mlir
    gpu.module @k {
      gpu.func @kernel(...) kernel { %r = arith.mulf %v, %v : f32 ... }
    }
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect"];
}

def KilnLowerAllReduce
    : Pass<"kiln-lower-all-reduce", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower gpu.all_reduce to a workgroup-memory tree reduction";
  let description = [{
    Every `gpu.all_reduce` (any operation or a body, `uniform` or not)
    becomes: each invocation stores its value into a workgroup buffer (one
    per element type and kernel, added as a workgroup attribution), then
    log2(n) halving steps each combine element i with element i + s for
    i < s between barriers, and every invocation reads element 0. Works for
    any workgroup size up to `max-invocations`, also sizes that are not
    powers of two and sizes known only at launch (then the buffer has
    `max-invocations` elements). As for any op with barriers, every
    invocation of the workgroup must reach the reduction.

    Before:
    ```mlir
    %s = gpu.all_reduce add %v {} : (f32) -> (f32)
    ```
    After (64 invocations):
    ```mlir
    memref.store %v, %buf[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    scf.if %tid_lt_32 { ... %buf[%tid] = %buf[%tid] + %buf[%tid + 32] }
    gpu.barrier
    ...
    %s = memref.load %buf[%c0]
    gpu.barrier
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"maxInvocations", "max-invocations", "unsigned", /*default=*/"1024",
           "Largest workgroup a reduction supports; the buffer size when the "
           "workgroup size is known only at launch">,
  ];
}

def KilnWorkgroupAllocsToAttributions
    : Pass<"kiln-workgroup-allocs-to-attributions",
           "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make workgroup-memory allocations in kernels attributions";
  let description = [{
    A `memref.alloc` (or `memref.alloca`) of workgroup memory inside a
    kernel names memory that every invocation of the workgroup shares for
    the whole launch: the kernel's workgroup attribution. Both targets lower
    attributions (a `Workgroup` variable on SPIR-V, a `.shared` global on
    NVVM), where NVVM would lower the allocation itself to a per-thread
    `malloc` from the device heap that is then read as shared memory (an
    illegal instruction on the GPU). Each such allocation becomes a
    workgroup attribution of its kernel, wherever it is in the kernel, and
    its `memref.dealloc`s are dropped. A shape known only at run time is
    refused at the allocation (`gpu.dynamic_shared_memory` is the way to
    size workgroup memory at launch).

    Before:
    ```mlir
    gpu.func @k() kernel {
      %tile = memref.alloc() : memref<8x8xf32, #gpu.address_space<workgroup>>
      ...
    }
    ```
    After:
    ```mlir
    gpu.func @k() workgroup(%tile : memref<8x8xf32, #gpu.address_space<workgroup>>) kernel {
      ...
    }
    ```
  }];
}

def KilnExpandKernelOps : Pass<"kiln-expand-kernel-ops"> {
  let summary = "Rewrite ops a target lacks in terms of ops it has";
  let description = [{
    Before a GPU module is converted to SPIR-V or NVVM, every op the target
    has no correct lowering for is rewritten in terms of ops it has
    (docs/ops.md lists them per target):

    - both targets: `complex` ops through `convert-complex-to-standard`;
      `arith.scaling_extf` / `scaling_truncf` and f8E8M0 through
      `arith-expand`; `math.clampf` through `math-expand-ops`;
      `math.isnormal`; `math.ipowi` and `math.fpowi` as square-and-multiply
      loops (`scf.while`); `math.sincos` as a sin and a cos;
    - SPIR-V (`target=spirv`): `index` ops as the `arith` ops they are (the
      index width from `index-bits`; MLIR 22's `index.floordivs` and
      `index.ceildivs` patterns compute wrong values); `arith.ceildivsi`,
      `ceildivui` and `floordivsi` through `arith-expand`; `arith.cmpf`
      `false` / `true` as constants; orderings of `i1` compared as `i32`;
      `math.isfinite` as `|x| < inf`; `math.round` with halfway cases away
      from zero (GLSL's Round leaves them to the driver); `math.powf` with
      C's meaning for negative and zero bases (GLSL's Pow leaves them
      undefined); `math.atan2` through GLSL's Atan of y / x and the
      quadrant, with C's values at zeros and infinities; `math.erf`, `erfc`,
      `cbrt`, `expm1` and `log1p` as MLIR's polynomial approximations
      (GLSL.std.450 has no such functions, and `exp(x) - 1`, `log(1 + x)`
      lose all precision near 0); `math.absi`, and `math.ctlz`, `cttz`,
      `ctpop` of widths other than 32 through 32-bit ones (Vulkan's bit
      instructions take 32-bit integers).
    - the host (`target=host`, the LLVM path): `math.clampf` and
      `math.isnormal`, which MLIR 22's LLVM lowering lacks too.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::spirv::SPIRVDialect",
                           "::mlir::vector::VectorDialect"];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"spirv\"",
           "The target the ops are lowered for: spirv, nvvm or host">,
    Option<"indexBits", "index-bits", "unsigned", /*default=*/"32",
           "The width of index in the kernels (index.sizeof)">,
  ];
}

def KilnPrepareLaunches : Pass<"kiln-prepare-launches", "::mlir::ModuleOp"> {
  let summary = "Make mapped parallel loops launches and fold launch sizes";
  let description = [{
    Takes the host program as upstream's transformations leave it, before
    kernels are outlined:
    - an `scf.parallel` whose loops carry `#gpu.loop_dim_map` mapping
      attributes (what `--gpu-map-parallel-loops` writes, or a user) becomes
      a `gpu.launch` through upstream's `convert-parallel-loops-to-gpu`
      patterns; unmapped loops stay on the host;
    - each grid and block size of a `gpu.launch` or `gpu.launch_func` that
      folds to a constant (an `affine.apply` of constants, `arith` on
      constants: what that conversion emits) is replaced by the constant,
      so that a Vulkan pipeline, which fixes the workgroup size when it is
      created, and the launch-bounds checks see it.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // KILN_TRANSFORMS_PASSES
