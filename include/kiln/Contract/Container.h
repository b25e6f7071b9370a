//===- Container.h - Kiln's Vulkan module container ------------*- C++ -*-===//
//
// The self-describing wrapper around the SPIR-V words of one GPU module: per
// kernel its entry point, workgroup size and argument table, then the words.
// The layout is documented in docs/abi.md. This header and its implementation
// use the C++ standard library only: the Vulkan runtime links them without
// LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONTRACT_CONTAINER_H
#define KILN_CONTRACT_CONTAINER_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kiln {
namespace container {

/// "KILN" read as a little-endian word.
constexpr uint32_t kMagic = 0x4E4C494B;
/// Bumped on every incompatible change of the layout or of what a runtime
/// must do with it. Version 2 added ArgKind::IdentityMemRef and each
/// argument's base alignment: a runtime that reads version 1 would bind such
/// an argument below its first element, or at an address its vectors do not
/// divide, and the kernel would read the wrong elements, so it must refuse
/// it.
/// Version 3 added each kernel's workgroup memory (static bytes, and the
/// element size of its dynamic workgroup array); parse reads version 2 too,
/// as kernels without dynamic workgroup memory.
constexpr uint32_t kVersion = 3;
/// The array length that marks a kernel's dynamic workgroup memory
/// (gpu.dynamic_shared_memory) in the SPIR-V Kiln's conversion emits: the
/// serializer turns that length into a specialization constant with
/// kDynamicWorkgroupSpecId, which the runtime sets at each launch from the
/// launch's dynamic shared memory size.
constexpr uint32_t kDynamicWorkgroupLength = 16777213;
constexpr uint32_t kDynamicWorkgroupSpecId = 4096;
/// Marks an argument with no push-constant data.
constexpr uint32_t kNoPushConstant = 0xFFFFFFFFu;
/// The first word of every SPIR-V module.
constexpr uint32_t kSPIRVMagic = 0x07230203;

/// How an argument reaches the kernel.
enum class ArgKind : uint32_t {
  /// A memref bound as a storage buffer at (set, binding).
  MemRef = 0,
  /// A scalar in the push-constant block.
  Scalar = 1,
  /// A memref with static shape and identity layout bound by its buffer
  /// device address (PhysicalStorageBuffer64): the 64-bit address of its
  /// first element sits in the push-constant block. No descriptor, so no
  /// maxStorageBufferRange.
  Address = 2,
  /// A memref with dynamic shape or layout bound by device address: the
  /// 64-bit address, then {offset, sizes[rank], strides[rank]}.
  StridedAddress = 3,
  /// A memref with dynamic sizes and the identity layout, bound as a storage
  /// buffer at (set, binding) that starts exactly at its first element: the
  /// kernel addresses element (i0, ..., iN-1) at sum(i_k * stride_k), its
  /// offset being the constant 0 that the type fixes. The push-constant data
  /// is MemRef's {offset, sizes[rank], strides[rank]}, offset written as 0.
  IdentityMemRef = 4,
};
/// The largest ArgKind value.
constexpr uint32_t kMaxArgKind = static_cast<uint32_t>(ArgKind::IdentityMemRef);

/// True for the kinds that carry a memref (a descriptor or an address).
inline bool isMemRefKind(ArgKind kind) { return kind != ArgKind::Scalar; }
/// True for the kinds bound by buffer device address.
inline bool isAddressKind(ArgKind kind) {
  return kind == ArgKind::Address || kind == ArgKind::StridedAddress;
}
/// True for the kinds bound as a storage-buffer descriptor.
inline bool isDescriptorKind(ArgKind kind) {
  return kind == ArgKind::MemRef || kind == ArgKind::IdentityMemRef;
}

/// Scalar types as they sit in the push-constant block.
enum class ScalarType : uint32_t {
  None = 0, ///< memref arguments
  I1 = 1,   ///< stored as a 32-bit 0 or 1
  I8 = 2,   ///< stored sign-extended in 32 bits
  I16 = 3,  ///< stored sign-extended in 32 bits
  I32 = 4,
  I64 = 5,
  F16 = 6, ///< stored as a 32-bit float
  F32 = 7,
  F64 = 8,
  Index = 9, ///< 32 or 64 bits, as ModuleInfo::indexBits says
};

/// One kernel argument, in the order of the kernel's (and the launch's)
/// operands.
struct ArgInfo {
  ArgKind kind = ArgKind::MemRef;
  /// Scalars: the type. MemRefs: None.
  ScalarType scalarType = ScalarType::None;
  /// MemRefs: bytes per element. Scalars: bytes of the push-constant slot.
  uint32_t size = 0;
  /// MemRefs: rank (0 to 8; dynamic shapes or layouts up to 4). Scalars: 0.
  uint32_t rank = 0;
  /// MemRefs bound as descriptors: the descriptor set and binding of the
  /// storage buffer. Zero for the other kinds.
  uint32_t set = 0;
  uint32_t binding = 0;
  /// Scalars: offset of the value. MemRefs with dynamic shape or layout
  /// (and IdentityMemRef): offset of {offset, sizes[rank], strides[rank]},
  /// each an index. Address
  /// kinds: offset of the 8-byte address (a multiple of 8), followed for
  /// StridedAddress by {offset, sizes[rank], strides[rank]}. Otherwise
  /// kNoPushConstant.
  uint32_t pushConstantOffset = kNoPushConstant;
  /// MemRefs bound as descriptors: a power of two that the address of the
  /// first element must be a multiple of, because the kernel reads the
  /// buffer as an array of vectors of that many bytes; 0 when it reads
  /// single elements. Scalars and address kinds: 0.
  uint32_t baseAlignment = 0;

  /// Bytes of push-constant data at pushConstantOffset, for a module whose
  /// index-typed push constants have `indexBits` bits.
  uint64_t pushConstantBytes(uint32_t indexBits) const {
    uint64_t metadata = (1 + 2 * uint64_t(rank)) * (indexBits / 8);
    switch (kind) {
    case ArgKind::Scalar:
      return size;
    case ArgKind::MemRef:
      return pushConstantOffset == kNoPushConstant ? 0 : metadata;
    case ArgKind::IdentityMemRef:
      return metadata;
    case ArgKind::Address:
      return 8;
    case ArgKind::StridedAddress:
      return 8 + metadata;
    }
    return 0;
  }

  /// True for a memref whose {offset, sizes, strides} are in the
  /// push-constant block.
  bool hasMetadata() const {
    return hasRebasableOffset() || kind == ArgKind::IdentityMemRef;
  }
  /// True for a memref whose binding starts below its first element and
  /// whose pushed offset says where that element is (the runtime may bind
  /// it at an aligned address before the element).
  bool hasRebasableOffset() const {
    return kind == ArgKind::StridedAddress ||
           (kind == ArgKind::MemRef && pushConstantOffset != kNoPushConstant);
  }

  bool operator==(const ArgInfo &o) const {
    return kind == o.kind && scalarType == o.scalarType && size == o.size &&
           rank == o.rank && set == o.set && binding == o.binding &&
           pushConstantOffset == o.pushConstantOffset &&
           baseAlignment == o.baseAlignment;
  }
};

struct KernelInfo {
  std::string name;
  uint32_t workgroupSize[3] = {1, 1, 1};
  /// Bytes of the push-constant block (0 when the kernel has none).
  uint32_t pushConstantSize = 0;
  std::vector<ArgInfo> args;
  /// Bytes of the module's workgroup variables other than the dynamic one
  /// (what every launch of the kernel takes before its dynamic memory).
  uint32_t staticWorkgroupBytes = 0;
  /// Bytes of one element of the kernel's dynamic workgroup array, whose
  /// length is specialization constant kDynamicWorkgroupSpecId; 0 when the
  /// kernel has no dynamic workgroup memory.
  uint32_t dynamicWorkgroupElementBytes = 0;
  /// The kernel's address variant (docs/abi.md): the index in the module's
  /// kernels plus one of a kernel taking the same arguments with every
  /// memref of unknown extent bound by device address, which the runtime
  /// launches when such a buffer exceeds the device's descriptor range; 0
  /// when it has none.
  uint32_t addressVariant = 0;
};

struct ModuleInfo {
  /// Width in bits of index-typed push constants: 32 or 64.
  uint32_t indexBits = 32;
  std::vector<KernelInfo> kernels;
  std::vector<uint32_t> spirv;

  /// Returns the kernel named `name`, or null.
  const KernelInfo *findKernel(const std::string &name) const;
};

/// Returns true when `data` starts with the container's magic word.
bool isContainer(const void *data, size_t size);

/// Serializes `module` into the container's byte layout.
std::vector<uint8_t> write(const ModuleInfo &module);

/// Parses a container. On failure returns false and sets `error` to a
/// message that names the field that is truncated or corrupt.
bool parse(const void *data, size_t size, ModuleInfo &module,
           std::string &error);

/// Checks that `variant` can stand in for `kernel` as its address variant:
/// the same workgroup size and memory, and the same arguments but for
/// memrefs bound by address instead of by descriptor. On failure returns
/// false with `why` ("has ...", "takes ...").
bool checkAddressVariant(const KernelInfo &kernel, const KernelInfo &variant,
                         std::string &why);

/// Checks one argument of a kernel whose push-constant block has
/// `pushConstantSize` bytes and whose index fields have `indexBits` bits:
/// its fields agree with its kind and its push-constant data fits the
/// block. On failure returns false with `why` saying what is wrong, as
/// "has ..." (parse and the kernel ABI attribute's verifier share it).
bool checkArg(const ArgInfo &arg, uint32_t pushConstantSize, uint32_t indexBits,
              std::string &why);

/// Checks each kernel's argument table against what `module.spirv`
/// declares, as far as the Vulkan runtime builds on it: every descriptor
/// the entry point uses is an argument's (set, binding), a storage buffer
/// whose ArrayStride fits the argument's element size; every push-constant
/// member is one value an argument writes, at its offset, of its width and
/// kind, and the block fits pushConstantSize; arguments bound by address
/// have PhysicalStorageBufferAddresses; the dynamic workgroup array (if
/// any) has the element size the container gives. `module.spirv` must be a
/// well-formed instruction stream (each instruction's word count inside the
/// module). On failure returns false with `error` naming the kernel.
bool checkInterface(const ModuleInfo &module, std::string &error);

/// The same for raw SPIR-V (no container) entry point `kernel` launched
/// with `buffers` pointer-size pairs, which the Vulkan runtime binds at set
/// 0, bindings 0 to buffers-1, with no push constants: every descriptor it
/// uses is one of those storage buffers, and it reads no push constants.
bool checkRawInterface(const std::vector<uint32_t> &spirv,
                       const std::string &kernel, uint32_t buffers,
                       std::string &error);

/// Human-readable name of a scalar type ("f32", "index", ...).
const char *scalarTypeName(ScalarType type);

} // namespace container
} // namespace kiln

#endif // KILN_CONTRACT_CONTAINER_H
