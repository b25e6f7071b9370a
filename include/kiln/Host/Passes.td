//===- Passes.td - KilnHost -*- tablegen -*-===//
//
// The host side of launches: memory spaces, registrations, async.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_HOST_PASSES
#define KILN_HOST_PASSES

include "mlir/Pass/PassBase.td"

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

def KilnUniqueKernelNames : Pass<"kiln-unique-kernel-names", "::mlir::ModuleOp"> {
  let summary = "Rename GPU binaries whose <binary>_<kernel> names would meet";
  let description = [{
    The LLVM translation of `gpu.launch_func` keeps each kernel's name in a
    global called `<binary>_<kernel>_name` and reuses a global of that name
    when it exists, so `@a::@b_c` and `@a_b::@c` both launch kernel `b_c`:
    the second fails to find it, or, where its binary has a `b_c` too, runs
    the wrong kernel. This pass renames a binary (or a GPU module, before
    serialization) whose launches' `<binary>_<kernel>` meets another's to
    `<binary>_<N>`, with every reference to it.

    Before:
    ```mlir
    gpu.launch_func @a::@b_c ...
    gpu.launch_func @a_b::@c ...
    ```
    After:
    ```mlir
    gpu.launch_func @a::@b_c ...
    gpu.launch_func @a_b_0::@c ...
    ```
  }];
}

def KilnGPUAsyncRegion : Pass<"kiln-gpu-async-region", "::mlir::func::FuncOp"> {
  let summary = "gpu-async-region without its waits that defer nothing and "
                "without waiting on a stream twice";
  let description = [{
    Runs upstream's `gpu-async-region` (which makes the synchronous gpu ops
    async, as `gpu-to-llvm` needs, and waits on the host before ops with side
    effects), then mends two things it does to programs that already use
    async tokens:

    - Before every side-effecting op it waits for the current token, even a
      token of the program's own async ops that the program waits for later
      anyway. Before `gpu.set_default_device` that serialises the devices:
      the launch on device 0 finishes before the one on device 1 starts. Such
      a wait is dropped when every token it waits is a result of an op the
      program wrote as async, a later host wait in the same block waits for
      them all, and nothing between the two touches memory on the host (only
      `gpu.set_default_device`, ops free of memory effects and the program's
      own async ops come between).
    - A host wait (`gpu.wait [%t]`) lowers to synchronizing and destroying
      the token's stream, so a token waited twice, or used after a wait, is a
      destroyed stream: upstream's runtimes crash on it. A token whose stream
      an earlier host wait in the same block ended is complete: it is
      removed from later waits and dependencies (an async op left without
      any gets a fresh `gpu.wait async`).

    Before (after `gpu-async-region`):
    ```mlir
    %t0 = gpu.launch_func async [%s0] @k::@f ...
    gpu.wait [%t0]                    // inserted before the side effect
    gpu.set_default_device %c1
    %s1 = gpu.wait async
    %t1 = gpu.launch_func async [%s1] @k::@f ...
    gpu.wait [%t0, %t1]
    ```
    After:
    ```mlir
    %t0 = gpu.launch_func async [%s0] @k::@f ...
    gpu.set_default_device %c1
    %s1 = gpu.wait async
    %t1 = gpu.launch_func async [%s1] @k::@f ...
    gpu.wait [%t0, %t1]
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
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

def KilnShardToMPI : Pass<"kiln-shard-to-mpi", "::mlir::ModuleOp"> {
  let summary = "Lower shard communication to mpi ops with upstream's "
                "convert-shard-to-mpi, then drop the grids";
  let description = [{
    In a module with shard ops, runs upstream's `convert-shard-to-mpi`
    (shard.all_reduce, shard.update_halo, shard.process_linear_index, ... to
    mpi ops, memref copies and linalg.copy), then erases the `shard.grid`
    symbols it leaves behind, which nothing downstream can lower. Any other
    shard op still left has no lowering in MLIR 22 and is a located error.
    A module without shard ops is left as it is (upstream's pass would fold
    and simplify it).

    Before:
    ```mlir
    shard.grid @grid0(shape = 2)
    %r = shard.all_reduce %m on @grid0 grid_axes = [0] reduction = sum
        : memref<8xf32> -> memref<8xf32>
    ```
    After:
    ```mlir
    %alloc = memref.alloc() : memref<8xf32>
    linalg.copy ins(%m : memref<8xf32>) outs(%alloc : memref<8xf32>)
    %w = mpi.comm_world : !mpi.comm
    ...
    %c = mpi.comm_split(%w, %color, %key) : !mpi.comm
    mpi.allreduce(%alloc, %alloc, MPI_SUM, %c) : memref<8xf32>, memref<8xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::mpi::MPIDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def KilnMPIToLLVM : Pass<"kiln-mpi-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower every mpi op to a call of Kiln's MPI runtime "
                "(include/kiln/Contract/MPIABI.h)";
  let description = [{
    Every op of the mpi dialect becomes an `llvm.call` of its
    `__kiln_mpi_*` entry point, whose first argument is the MPI the program
    was compiled for: the module's `#dlti.map<"MPI:Implementation" =
    "OpenMPI" | "MPICH">` entry (0 and 1), or, where the module has none,
    the `implementation` option, which is then written into the module's
    `dlti.map`. `!mpi.comm` and `!mpi.request` become i64, `!mpi.retval`
    i32. A memref operand is passed as its rank, a pointer to a stack copy
    of its descriptor (an alloca in the function's entry block) and the
    code of its element type; results come back through allocas (a new
    communicator as a whole i64). Element types without an MPI datatype,
    reductions MPI does not define on an element type, and allreduce
    buffers of different element types are located errors.

    It must run before `gpu-to-llvm` and `convert-to-llvm`, which apply
    upstream's MPI patterns to every mpi op they find. A module without mpi
    ops is left as it is.

    Before:
    ```mlir
    %w = mpi.comm_world : !mpi.comm
    mpi.send(%m, %tag, %dest, %w) : memref<8xf32>, i32, i32
    ```
    After:
    ```mlir
    %d = llvm.alloca %one x !llvm.struct<(ptr, ptr, i64, array<1 x i64>,
                                          array<1 x i64>)> : (i64) -> !llvm.ptr
    %impl = llvm.mlir.constant(0 : i32) : i32
    %w = llvm.call @__kiln_mpi_comm_world(%impl) : (i32) -> i64
    llvm.store %desc, %d : !llvm.struct<...>, !llvm.ptr
    %rc = llvm.call @__kiln_mpi_send(%impl, %rank, %d, %kind, %tag, %dest, %w)
        : (i32, i64, !llvm.ptr, i32, i32, i32, i64) -> i32
    ```
  }];
  let options = [
    Option<"implementation", "implementation", "std::string",
           /*default=*/"\"openmpi\"",
           "The MPI of a module without #dlti.map<\"MPI:Implementation\">: "
           "openmpi or mpich">
  ];
  let dependentDialects = [
    "::mlir::DLTIDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

#endif // KILN_HOST_PASSES
