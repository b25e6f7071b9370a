//===- Passes.td - Kiln pass definitions -------------------*- tablegen -*-===//
//
// The passes that take gpu dialect kernels to validated SPIR-V for Vulkan.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TRANSFORMS_PASSES
#define KILN_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def KilnAttachSPIRVTargetEnv
    : Pass<"kiln-attach-spirv-target-env", "::mlir::ModuleOp"> {
  let summary = "Attach a #spirv.target_env to every GPU module";
  let description = [{
    Gives each `gpu.module` a `spirv.target_env` attribute. An attribute that
    is already on the GPU module, or on an enclosing module, is kept; otherwise
    the named profile is attached (see `docs/target-envs.md`). The profile may
    also be a literal `#spirv.target_env<...>` attribute.

    Before:
    ```mlir
    gpu.module @kernels { ... }
    ```
    After (`profile=vulkan-1.1`):
    ```mlir
    gpu.module @kernels attributes {spirv.target_env = #spirv.target_env<
        #spirv.vce<v1.3, [Shader, GroupNonUniform], [...]>, api=Vulkan, ...>} { ... }
    ```
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
  let options = [
    Option<"profile", "profile", "std::string", /*default=*/"\"vulkan-1.1\"",
           "Target env profile for GPU modules without one: vulkan-1.1, "
           "vulkan-1.2, vulkan-1.3, desktop, lavapipe, or a #spirv.target_env literal">,
  ];
}

def KilnSPIRVKernelABI : Pass<"kiln-spirv-kernel-abi", "::mlir::ModuleOp"> {
  let summary = "Assign the Vulkan ABI of every kernel from its launches";
  let description = [{
    For each kernel `gpu.func` in a `gpu.module` that carries a
    `spirv.target_env`:

    * `spirv.entry_point_abi` gets the workgroup size from the constant block
      size of the `gpu.launch_func` ops that launch it. An attribute that is
      already present wins. Block sizes above the target env's limits, block
      sizes known only at run time, and launches that disagree are errors at
      the launch.
    * every memref argument gets `spirv.interface_var_abi` (set 0, binding =
      its position among the memref arguments) unless it already has one.
    * `kiln.abi` records Kiln's argument table: for each argument its kind,
      element or scalar size, rank, set, binding and push-constant offset.
      Scalars, and the offset, sizes and strides of memrefs whose shape or
      layout is not static and identity, live in one push-constant block
      (layout in `docs/abi.md`).

    Before:
    ```mlir
    gpu.func @scale(%buf: memref<?xf32>, %k: f32) kernel { ... }
    gpu.launch_func @m::@scale blocks in (%n, %c1, %c1) threads in (%c64, %c1, %c1) ...
    ```
    After:
    ```mlir
    gpu.func @scale(%buf: memref<?xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>},
                    %k: f32) kernel attributes {
        spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>,
        kiln.abi = {push_constant_size = 12 : i32, args = [...]}} { ... }
    ```

    `buffer-device-address` decides which memref arguments bind by buffer
    device address (PhysicalStorageBuffer64, a 64-bit address in the
    push-constant block) instead of a storage-buffer descriptor, whose range
    the device caps (maxStorageBufferRange, 128 MiB on many devices):
    `never`; `auto` (the default), the arguments whose static size is above
    the 128 MiB every Vulkan device binds, where the target env allows
    addresses; `always`, every argument without a user-given
    `spirv.interface_var_abi`, an error when the target env lacks
    PhysicalStorageBufferAddresses or Int64.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect", "::kiln::KilnDialect"];
  let options = [
    Option<"use64BitIndex", "use-64bit-index", "bool", /*default=*/"false",
           "Index-typed push constants (scalars and memref metadata) are "
           "64-bit instead of 32-bit">,
    Option<"bufferDeviceAddress", "buffer-device-address", "std::string",
           /*default=*/"\"auto\"",
           "Memref arguments bound by buffer device address: never, auto "
           "(static sizes above 128 MiB) or always">,
  ];
}

def KilnConvertGPUToSPIRV
    : Pass<"kiln-convert-gpu-to-spirv", "::mlir::ModuleOp"> {
  let summary = "Convert each GPU module into a spirv.module nested in it";
  let description = [{
    Clones every `gpu.module` that has a `spirv.target_env` and converts the
    clone (arith, math, memref, scf, cf, vector, index, func and gpu ops) into
    a `spirv.module` placed inside the original GPU module, which keeps its
    `gpu.func`s so host launches still verify. Memref arguments with dynamic
    shape or layout are flattened to storage buffers addressed with metadata
    from the push-constant block, and scalar arguments are read from it, as
    `kiln.abi` (from `kiln-spirv-kernel-abi`) describes. Index arithmetic
    has the width the kernels' `kiln.abi` gives (`index_bits`), which the
    kernels of one GPU module must agree on.

    An op that cannot be lowered for the module's target env is reported at
    the op with the capabilities or extensions it would need.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::kiln::KilnDialect"];
}

def KilnTidySPIRV : Pass<"kiln-tidy-spirv", "::mlir::spirv::ModuleOp"> {
  let summary = "Loop results without Function variables, access decorations";
  let description = [{
    Runs on a converted `spirv.module`, after its entry points have their
    interface variables (`spirv-lower-abi-attrs`):

    - upstream lowers the results of `scf.for` to Function variables that
      every iteration stores and the code after the loop loads, so a loop
      that runs no iteration returns an undefined value instead of its
      initial one. Each such variable becomes a result of the
      `spirv.mlir.loop`: the loop header's value when the loop exits, which
      is the initial value after no iteration and the last yielded value
      otherwise.
    - a load whose value nothing uses is erased (unless volatile), such as
      the push-constant field of an offset the kernel fixes at 0;
    - a storage buffer that the module never writes gets `NonWritable`, one
      that it never reads `NonReadable` (what GLSL's `readonly` and
      `writeonly` say). `Restrict` is not added: two kernel arguments may be
      the same buffer.

    The pipelines run canonicalization and CSE after it.
  }];
}

def KilnSerializeSPIRV : Pass<"kiln-serialize-spirv", "::mlir::ModuleOp"> {
  let summary = "Validate and serialize nested spirv.modules into gpu.binary";
  let description = [{
    Serializes the `spirv.module` inside each `gpu.module`, validates the words
    with SPIRV-Tools for the Vulkan version of the module's target env, wraps
    them in Kiln's container (entry points, workgroup sizes, argument tables;
    see `docs/abi.md`) and replaces the GPU module by a `gpu.binary` holding
    one `#gpu.object` whose target is the module's `#spirv.target_env`.
    A validation failure is an error quoting the validator.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
  let options = [
    Option<"validate", "validate", "bool", /*default=*/"true",
           "Run the SPIRV-Tools validator on every module">,
    Option<"dumpDir", "dump-dir", "std::string", /*default=*/"\"\"",
           "Also write each module's SPIR-V words to DIR/<gpu.module>.spv">,
  ];
}


def KilnSPIRVToCPU : Pass<"kiln-spirv-to-cpu", "::mlir::ModuleOp"> {
  let summary = "Compile each GPU module's SPIR-V for the spirv-cpu runtime";
  let description = [{
    Converts a copy of the `spirv.module` inside each `gpu.module` (after
    `spirv-lower-abi-attrs`, before `kiln-serialize-spirv`) to LLVM-dialect
    functions in the host module that Kiln's spirv-cpu runtime runs once per
    invocation, with every workgroup and invocation of the launch modelled:
    built-ins come from the invocation, Workgroup variables live in per
    workgroup memory, barriers and subgroup operations call the runtime, and
    atomics are LLVM atomics. A host constructor registers each kernel under
    the hash of the module's SPIR-V words, which the runtime matches when
    `mgpuModuleLoad` gets the container. With `checked`, every access to a
    buffer or to workgroup memory is bounds-checked at run time. An op with
    no lowering is an error at the op. See docs/spirv-cpu.md and
    include/kiln/Runtime/SPIRVCPUABI.h.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"checked", "checked", "bool", /*default=*/"false",
           "Check every buffer and workgroup memory access and that every "
           "invocation reaches each barrier">,
  ];
}

def KilnHostGPUGlobalMemorySpace
    : Pass<"kiln-host-gpu-global-memory-space", "::mlir::ModuleOp"> {
  let summary = "Drop #gpu.address_space<global> from host memref types";
  let description = [{
    On the host, a memref in `#gpu.address_space<global>` is a device buffer
    reached through an ordinary pointer: its descriptor is the one of the same
    memref with no memory space. This pass rewrites those types everywhere
    outside GPU modules (signatures, values, attributes) so that the host
    lowering to LLVM, which has no mapping for GPU address spaces, accepts
    them. It runs after the kernels have been serialized, so GPU modules keep
    their address spaces.

    Before:
    ```mlir
    func.func @f(%a: memref<16xf32, #gpu.address_space<global>>)
    ```
    After:
    ```mlir
    func.func @f(%a: memref<16xf32>)
    ```
  }];
}

//===-- The CUDA target ---------------------------------------------------===//

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

def KilnNVVMToBinary : Pass<"kiln-nvvm-to-binary", "::mlir::ModuleOp"> {
  let summary = "Serialize NVVM GPU modules to PTX, cubin or fatbin";
  let description = [{
    Turns every `gpu.module` with an `#nvvm.target` into a `gpu.binary`, like
    `gpu-module-to-binary`, after checking what would otherwise fail inside
    LLVM or at load time:

    * every target's chip and PTX version (as `kiln-attach-nvvm-target`);
    * cubin and fatbin need the CUDA toolkit's `ptxas` (and `fatbinary`): it
      is looked for with `cuda-path`, `$CUDA_PATH`, `$PATH`, `/usr/local/cuda`
      and `/usr/local/cuda-X.Y`. With no toolkit, PTX is emitted instead, with
      a remark: the driver compiles it when the module is loaded. An explicit
      `cuda-path` without `bin/ptxas` is an error.
    * kernels that call libdevice (`__nv_*`, from math ops) need the
      toolkit's `libdevice.10.bc`; without it the calls are reported.
  }];
  let options = [
    Option<"format", "format", "std::string", /*default=*/"\"fatbin\"",
           "ptx (alias isa), cubin (alias bin) or fatbin">,
    Option<"cudaPath", "cuda-path", "std::string", /*default=*/"\"\"",
           "CUDA toolkit root (holds bin/ptxas); default: searched">,
  ];
}

def KilnRegisterHostMemRefs
    : Pass<"kiln-register-host-memrefs", "::mlir::ModuleOp"> {
  let summary = "Register host memrefs with the CUDA driver around launches";
  let description = [{
    CUDA kernels can only touch host memory that is registered with the
    driver. For each `gpu.launch_func` memref operand whose memory does not
    come from `gpu.alloc` (memref.alloc, memref.alloca, a global, a function
    argument, or views of them), this pass registers the memref before the
    launch (`gpu.host_register`) and unregisters it after
    (`gpu.host_unregister`, which waits for the launch). Kiln's CUDA runtime
    counts registrations per page, so overlapping views and memrefs the
    program registers itself are fine.

    Before:
    ```mlir
    %m = memref.alloc() : memref<16xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%m : memref<16xf32>)
    ```
    After:
    ```mlir
    %u = memref.cast %m : memref<16xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    gpu.launch_func @k::@f ... args(%m : memref<16xf32>)
    gpu.host_unregister %u : memref<*xf32>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

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

def KilnMergeAsyncDependencies
    : Pass<"kiln-merge-async-dependencies", "::mlir::ModuleOp"> {
  let summary = "Give every async GPU op one async dependency";
  let description = [{
    `gpu-to-llvm` runs an async op on the stream of its single async
    dependency and refuses ops with several, which programs using several
    streams have (and `gpu-async-region` adds to them). Each such op gets a
    `gpu.wait async` joining its dependencies (a new stream waiting on events
    recorded on the others) as its one dependency.

    Before:
    ```mlir
    %t = gpu.launch_func async [%a, %b] @m::@k ...
    ```
    After:
    ```mlir
    %j = gpu.wait async [%a, %b]
    %t = gpu.launch_func async [%j] @m::@k ...
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def KilnLowerSubgroupReduce
    : Pass<"kiln-lower-subgroup-reduce", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower gpu.subgroup_reduce to butterfly shuffles";
  let description = [{
    NVVM has no general subgroup reduction: vectors are broken into 32-bit
    pieces and each `gpu.subgroup_reduce` (clustered or not) becomes a
    `gpu.shuffle xor` butterfly over the warp, which `convert-gpu-to-nvvm`
    lowers to `shfl.sync.bfly`. `gpu.subgroup_size` becomes the constant
    subgroup size.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let options = [
    Option<"subgroupSize", "subgroup-size", "unsigned", /*default=*/"32",
           "Lanes per subgroup (32 on every NVIDIA GPU)">,
  ];
}

def KilnSyncHostSharedAlloc
    : Pass<"kiln-sync-host-shared-alloc", "::mlir::ModuleOp"> {
  let summary = "Make async host_shared gpu.alloc ops synchronous";
  let description = [{
    `gpu-to-llvm` lowers `gpu.alloc host_shared` only in its synchronous
    form, but `gpu-async-region` makes every allocation async. This pass
    turns `%m, %t = gpu.alloc async [%deps] host_shared ()` back into a wait
    for `%deps`, a synchronous allocation and a fresh token.
  }];
}

#endif // KILN_TRANSFORMS_PASSES
