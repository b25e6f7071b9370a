//===- Passes.td - KilnGPUToNVVM -*- tablegen -*-===//
//
// GPU kernels to NVVM: the target, subgroup reductions, CUDA limits.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSION_GPUTONVVM_PASSES
#define KILN_CONVERSION_GPUTONVVM_PASSES

include "mlir/Pass/PassBase.td"

def KilnAttachNVVMTarget : Pass<"kiln-attach-nvvm-target", "::mlir::ModuleOp"> {
  let summary = "Attach a checked #nvvm.target to every GPU module";
  let description = [{
    Gives each `gpu.module` that has no `targets` an `#nvvm.target` for the
    chosen chip. Without `features`, the PTX version is the oldest one the
    chip accepts (sm_90: `+ptx78`), which every driver that knows the chip
    can load. Every `#nvvm.target` in the module, attached here or written by
    the user, is then checked: an unknown chip, an unknown PTX version or a
    PTX version older than the chip needs is an error at the GPU module that
    names both (LLVM's NVPTX back end would abort on it).

    Before:
    ```mlir
    gpu.module @kernels { ... }
    ```
    After (`chip=sm_90`):
    ```mlir
    gpu.module @kernels [#nvvm.target<chip = "sm_90", features = "+ptx78">] { ... }
    ```
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "NVIDIA chip (sm_XX) for GPU modules without a target">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "PTX features, e.g. +ptx80 (default: the oldest PTX the chip "
           "accepts)">,
    Option<"optLevel", "O", "unsigned", /*default=*/"3",
           "Optimization level of the NVPTX back end (0 to 3)">,
  ];
}

def KilnLowerSubgroupReduce
    : Pass<"kiln-lower-subgroup-reduce", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower gpu.subgroup_reduce to butterfly shuffles";
  let description = [{
    NVVM has no general subgroup reduction: vectors are broken into 32-bit
    pieces and each `gpu.subgroup_reduce` (clustered or not) becomes a
    `gpu.shuffle xor` butterfly over the warp, which `convert-gpu-to-nvvm`
    lowers to `shfl.sync.bfly`. `gpu.subgroup_size` becomes the constant
    subgroup size, `gpu.subgroup_id` the linear thread index divided by it
    and `gpu.num_subgroups` the block's threads divided by it, rounded up.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let options = [
    Option<"subgroupSize", "subgroup-size", "unsigned", /*default=*/"32",
           "Lanes per subgroup (32 on every NVIDIA GPU)">,
  ];
}

def KilnCheckCUDALimits
    : Pass<"kiln-check-cuda-limits", "::mlir::ModuleOp"> {
  let summary = "Refuse launches and kernels past CUDA's fixed limits";
  let description = [{
    Checks, before any driver sees them, what every NVIDIA GPU refuses at
    launch: constant block sizes (1024 threads per block; at most 1024, 1024
    and 64 in x, y and z), constant grid sizes (2^31-1 blocks in x, 65535 in
    y and z) of every `gpu.launch_func`, and the static shared memory of every
    kernel (workgroup attributions and the workgroup-space `memref.global`s
    it uses; 48 KiB). Each error is located at the launch or kernel and
    names the limit:

    ```
    error: launch of kernel 'k' has 4096 threads in block dimension x; CUDA allows 1 to 1024
    ```
  }];
}

def KilnLowerShuffle : Pass<"kiln-lower-shuffle", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower gpu.shuffle, gpu.rotate and gpu.subgroup_broadcast to warp shuffles";
  let description = [{
    Every `gpu.shuffle` becomes `nvvm.shfl.sync` over the active lanes
    (`llvm.nvvm.activemask`) in 32-bit pieces (narrower values widened,
    64-bit ones in two halves, vectors element by element). Lane k reads
    lane j (xor: k ^ offset, up: k - offset, down: k + offset, idx: offset)
    and `valid` is `k < width && j < width` (unsigned); where it is false the
    result is the lane's own value. A constant width of 32 uses the mode's
    own shuffle (`bfly`, `up`, `down`); any other width reads the computed
    lane with `idx`. MLIR's own lowering takes `width` as the member mask,
    so lanes at or above it execute a shuffle that leaves them out, and
    `up` is valid on the wrong lanes.

    `gpu.rotate` reads lane `((k + offset) mod width) + (k - k mod width)`,
    valid where k < width; `gpu.subgroup_broadcast` reads the given lane, or
    the lowest active one (the lowest set bit of activemask). MLIR 22's
    convert-gpu-to-nvvm lowers neither.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // KILN_CONVERSION_GPUTONVVM_PASSES
