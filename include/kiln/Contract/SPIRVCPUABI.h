//===- SPIRVCPUABI.h - Contract of the spirv-cpu target --------*- C++ -*-===//
//
// The spirv-cpu target runs the validated SPIR-V of a GPU module on the host:
// `--kiln-spirv-to-cpu` converts each spirv.module to LLVM-dialect functions
// that live in the host program, and Kiln's spirv-cpu runtime launches them,
// every workgroup and invocation of the grid (docs/spirv-cpu.md). This header
// is the whole contract between the two: the compiler emits code against the
// layouts and entry points below, the runtime implements them. Standard C++
// only, so that the runtime links no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONTRACT_SPIRVCPUABI_H
#define KILN_CONTRACT_SPIRVCPUABI_H

#include <cstddef>
#include <cstdint>

namespace kiln {
namespace spirvcpu {

/// Bumped on every incompatible change of this header. Version 3 added the
/// bounds table (Invocation::bounds) that bounded accesses read.
constexpr uint32_t kABIVersion = 3;

/// Subgroup size of the target, the same as lavapipe's on x86-64 (8): the
/// SubgroupSize built-in, and the width the subgroup operations work on.
constexpr uint32_t kSubgroupSize = 8;

/// The state of one invocation. Every function the compiler emits takes a
/// pointer to it as its first argument. Built-ins that SPIR-V declares as
/// `vector<3xi32>` sit 16-byte aligned with a fourth, unused, lane so that a
/// vector load of them is aligned.
struct Invocation {
  alignas(16) uint32_t globalInvocationId[4];
  alignas(16) uint32_t localInvocationId[4];
  alignas(16) uint32_t workgroupId[4];
  alignas(16) uint32_t numWorkgroups[4];
  alignas(16) uint32_t workgroupSize[4];
  uint32_t localInvocationIndex;
  uint32_t subgroupId;
  uint32_t subgroupSize;
  uint32_t numSubgroups;
  uint32_t subgroupLocalInvocationId;
  /// Bytes of the kernel's dynamic workgroup memory in this launch.
  uint32_t dynamicWorkgroupBytes;
  uint32_t reserved[2];
  /// Per resource of the kernel (KernelDesc::resources, in that order): the
  /// address of the first byte of its binding.
  void *const *resources;
  /// The push-constant block (null when the kernel has none).
  const void *pushConstants;
  /// This invocation's workgroup's memory: KernelDesc::workgroupMemoryBytes,
  /// 16-byte aligned, shared by the invocations of the workgroup.
  uint8_t *workgroupMemory;
  /// This invocation's Private storage class variables:
  /// KernelDesc::privateMemoryBytes, 16-byte aligned, zero-filled at start.
  uint8_t *privateMemory;
  /// The runtime's own state; the kernel passes it through.
  void *scheduler;
  /// What bounded accesses (the default; not in checked mode nor with
  /// --unbounded-access) compare their addresses with, as byte addresses:
  /// [kBoundsZeros] a zero-filled area that an access out of bounds reads
  /// instead, [kBoundsSink] an area it writes instead (both
  /// kBoundsScratchBytes, 64-byte aligned), then per resource r its first
  /// and one-past-last byte at boundsOfResource(r), then per workgroup
  /// variable v its own at boundsOfWorkgroupVar(numResources, v).
  const uintptr_t *bounds;
};

// Field offsets, which the compiler uses: a change here is an ABI change.
static_assert(offsetof(Invocation, globalInvocationId) == 0, "ABI");
static_assert(offsetof(Invocation, localInvocationId) == 16, "ABI");
static_assert(offsetof(Invocation, workgroupId) == 32, "ABI");
static_assert(offsetof(Invocation, numWorkgroups) == 48, "ABI");
static_assert(offsetof(Invocation, workgroupSize) == 64, "ABI");
static_assert(offsetof(Invocation, localInvocationIndex) == 80, "ABI");
static_assert(offsetof(Invocation, subgroupId) == 84, "ABI");
static_assert(offsetof(Invocation, subgroupSize) == 88, "ABI");
static_assert(offsetof(Invocation, numSubgroups) == 92, "ABI");
static_assert(offsetof(Invocation, subgroupLocalInvocationId) == 96, "ABI");
static_assert(offsetof(Invocation, dynamicWorkgroupBytes) == 100, "ABI");
static_assert(offsetof(Invocation, resources) == 112, "ABI");
static_assert(offsetof(Invocation, pushConstants) == 120, "ABI");
static_assert(offsetof(Invocation, workgroupMemory) == 128, "ABI");
static_assert(offsetof(Invocation, privateMemory) == 136, "ABI");
static_assert(offsetof(Invocation, scheduler) == 144, "ABI");
static_assert(offsetof(Invocation, bounds) == 152, "ABI");
static_assert(sizeof(Invocation) == 160, "ABI");

/// Invocation::bounds: the zero-filled area, the sink, then each resource's
/// and each workgroup variable's [first, one-past-last) byte addresses.
constexpr uint32_t kBoundsZeros = 0;
constexpr uint32_t kBoundsSink = 1;
constexpr uint32_t boundsOfResource(uint32_t resource) {
  return 2 + 2 * resource;
}
constexpr uint32_t boundsOfWorkgroupVar(uint32_t numResources, uint32_t var) {
  return 2 + 2 * numResources + 2 * var;
}
/// The largest access a bounded access may make (a vector of 16 64-bit
/// components is 128 bytes): the size of the zero area and of the sink.
constexpr uint32_t kBoundsScratchBytes = 256;

/// What a resource of a kernel is.
enum class ResourceKind : uint32_t {
  /// A StorageBuffer variable at (set, binding): a memref argument bound by
  /// descriptor (container::ArgKind::MemRef or IdentityMemRef with that set
  /// and binding).
  StorageBuffer = 0,
  /// A Uniform variable at (set, binding): the push-constant block when it
  /// is passed in a uniform buffer. The runtime binds the block itself.
  UniformBuffer = 1,
};

/// One StorageBuffer or Uniform variable of the kernel.
struct ResourceDesc {
  ResourceKind kind;
  uint32_t set;
  uint32_t binding;
  /// 1 when this kernel uses the resource, 0 when only another kernel of the
  /// module does: the runtime binds a used resource's argument, or fails
  /// naming the (set, binding) that no argument has; an unused one is null.
  uint32_t used;
  /// What the checked mode names in its messages, such as
  /// "argument 1 (memref<4x64xf32>)".
  const char *description;
};

/// One Workgroup storage class variable: its place in the workgroup memory.
struct WorkgroupVarDesc {
  uint32_t offset;
  uint32_t bytes;
  /// Such as "workgroup variable 0 (memref<64xf32, 3>)".
  const char *description;
};

/// The most stack a kernel may need per invocation (KernelDesc::stackBytes):
/// the spirv-cpu target refuses a kernel above it, with the location of its
/// largest variable.
constexpr uint32_t kMaxStackBytes = 4u << 20;

/// KernelDesc::flags.
enum KernelFlags : uint32_t {
  /// The kernel has a workgroup barrier: invocations run as fibers.
  kUsesBarrier = 1u << 0,
  /// The kernel has subgroup operations: invocations run as fibers.
  kUsesSubgroupOps = 1u << 1,
  /// Compiled in checked mode: accesses call __kiln_spirv_cpu_check and
  /// barriers must be reached by every invocation.
  kChecked = 1u << 2,
  /// The kernel has dynamic workgroup memory (gpu.dynamic_shared_memory):
  /// the last workgroup variable, at offset workgroupMemoryBytes, sized by
  /// each launch (its `bytes` is 0).
  kDynamicWorkgroup = 1u << 3,
  /// Accesses to buffers and workgroup memory are bounded by
  /// Invocation::bounds: out of bounds, a load reads zeros, a store is
  /// dropped, an atomic changes nothing and returns 0.
  kBounded = 1u << 4,
};

/// Everything the runtime needs about a kernel besides the container's
/// argument table. The compiler emits one as a constant per kernel.
struct KernelDesc {
  uint32_t abiVersion;
  uint32_t flags;
  uint32_t workgroupMemoryBytes;
  uint32_t privateMemoryBytes;
  uint32_t numResources;
  uint32_t numWorkgroupVars;
  uint32_t numSites;
  /// Bytes of the kernel's stack frame that the compiler counted: its
  /// Function storage class variables (memref.alloca arrays among them) and
  /// those of the deepest chain of functions it calls, at most
  /// kMaxStackBytes. The runtime runs a kernel whose frame is large on
  /// stacks sized for it. Code compiled before this field had 0 here.
  uint32_t stackBytes;
  /// The entry point's name.
  const char *name;
  const ResourceDesc *resources;
  const WorkgroupVarDesc *workgroupVars;
  /// Per site id: the source location of a checked access, a barrier or a
  /// subgroup operation, as "file:line:col".
  const char *const *sites;
};

static_assert(offsetof(KernelDesc, name) == 32, "ABI");
static_assert(offsetof(KernelDesc, resources) == 40, "ABI");
static_assert(offsetof(KernelDesc, workgroupVars) == 48, "ABI");
static_assert(offsetof(KernelDesc, sites) == 56, "ABI");
static_assert(sizeof(KernelDesc) == 64, "ABI");
static_assert(sizeof(ResourceDesc) == 24, "ABI");
static_assert(sizeof(WorkgroupVarDesc) == 16, "ABI");

/// A kernel function: runs one invocation.
typedef void (*KernelFn)(Invocation *invocation);

/// FNV-1a over the bytes of the SPIR-V words (little-endian): the key that
/// ties a container's module to the kernels registered for it.
inline uint64_t hashSPIRV(const uint32_t *words, size_t count) {
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < count; ++i)
    for (int b = 0; b < 4; ++b) {
      h ^= (words[i] >> (8 * b)) & 0xFF;
      h *= 1099511628211ull;
    }
  return h;
}

/// Subgroup operations (__kiln_spirv_cpu_subgroup's `op`).
enum class SubgroupOp : uint32_t {
  // Reductions and scans over the active invocations, `arg` = group
  // operation (GroupOperation below) and, for Clustered, the cluster size in
  // bits 8 and up.
  IAdd = 0,
  IMul,
  FAdd,
  FMul,
  SMin,
  SMax,
  UMin,
  UMax,
  FMin,
  FMax,
  BitwiseAnd,
  BitwiseOr,
  BitwiseXor,
  LogicalAnd,
  LogicalOr,
  LogicalXor,
  // The value of another invocation: `arg` is its subgroup id
  // (Broadcast, Shuffle), a mask (ShuffleXor) or a delta (ShuffleUp,
  // ShuffleDown). Reading an inactive or out-of-range invocation gives 0.
  Broadcast = 32,
  BroadcastFirst,
  Shuffle,
  ShuffleXor,
  ShuffleUp,
  ShuffleDown,
  // Results: a Bool (Elect, All, Any, AllEqual) or four 32-bit words of
  // mask (Ballot, over a Bool value). Elect reads no value (`value` may be
  // null); All, Any and Ballot take one Bool (`components` 1).
  Elect = 64,
  All,
  Any,
  AllEqual,
  Ballot,
};

/// SPIR-V's GroupOperation, for the reductions.
enum class GroupOperation : uint32_t {
  Reduce = 0,
  InclusiveScan = 1,
  ExclusiveScan = 2,
  ClusteredReduce = 3,
};

/// Element types of subgroup operation values. Bool is one byte, 0 or 1.
enum class ScalarKind : uint32_t {
  Bool = 0,
  I8,
  I16,
  I32,
  I64,
  F16,
  F32,
  F64,
};

/// __kiln_spirv_cpu_check's `access`.
enum class AccessKind : uint32_t { Read = 0, Write = 1, Atomic = 2 };
/// __kiln_spirv_cpu_check's `space`.
enum class AccessSpace : uint32_t {
  /// `index` is a resource (KernelDesc::resources).
  Resource = 0,
  /// `index` is a workgroup variable (KernelDesc::workgroupVars).
  Workgroup = 1,
};

} // namespace spirvcpu
} // namespace kiln

// Functions the compiled kernels call; the runtime defines them.
extern "C" {
/// Registers `fn` as the kernel `desc->name` of the SPIR-V module whose
/// words hash to `spirvHash`. Called from the host program's constructors.
void __kiln_spirv_cpu_register(uint64_t spirvHash,
                               const kiln::spirvcpu::KernelDesc *desc,
                               kiln::spirvcpu::KernelFn fn);
/// OpControlBarrier with Workgroup execution scope. `site` indexes
/// KernelDesc::sites.
void __kiln_spirv_cpu_barrier(kiln::spirvcpu::Invocation *invocation,
                              uint32_t site);
/// A subgroup operation: `value` points at `components` elements of `type`
/// (this invocation's operand), `result` receives this invocation's result.
void __kiln_spirv_cpu_subgroup(kiln::spirvcpu::Invocation *invocation,
                               uint32_t site, uint32_t op, uint32_t type,
                               uint32_t components, const void *value,
                               void *result, uint32_t arg);
/// Checked mode: stops the run with an error unless the `bytes` at
/// `pointer` lie inside resource or workgroup variable `index` (`space`).
void __kiln_spirv_cpu_check(kiln::spirvcpu::Invocation *invocation,
                            uint32_t site, uint32_t access, uint32_t space,
                            uint32_t index, const void *pointer,
                            uint64_t bytes);
}

#endif // KILN_CONTRACT_SPIRVCPUABI_H
