//===- KernelABI.h - Kiln's Vulkan kernel argument table -------*- C++ -*-===//
//
// The `kiln.abi` attribute that kiln-spirv-kernel-abi puts on each kernel and
// the passes after it read: per argument how it reaches the SPIR-V kernel.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TRANSFORMS_KERNELABI_H
#define KILN_TRANSFORMS_KERNELABI_H

#include "kiln/Target/Container.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVEnums.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace kiln {

struct KernelABI {
  /// Width of index-typed push constants: 32 or 64.
  unsigned indexBits = 32;
  unsigned pushConstantSize = 0;
  std::vector<container::ArgInfo> args;

  /// Bytes of one index-typed push constant.
  unsigned indexBytes() const { return indexBits / 8; }
  /// True when memref argument `i` gets its metadata from push constants.
  bool hasMetadata(unsigned i) const { return args[i].hasMetadata(); }
  /// Offset of memref argument `i`'s {offset, sizes, strides} fields.
  unsigned metadataOffset(unsigned i) const {
    return args[i].pushConstantOffset +
           (container::isAddressKind(args[i].kind) ? 8 : 0);
  }

  mlir::DictionaryAttr toAttr(mlir::MLIRContext *context) const;
  /// Reads `kiln.abi` from `kernel`; fails (with an error at the kernel) when
  /// it is missing or malformed.
  static mlir::FailureOr<KernelABI> read(mlir::gpu::GPUFuncOp kernel);
};

/// Returns the scalar type code of a kernel argument type, or None when the
/// type cannot be a scalar kernel argument.
container::ScalarType getScalarType(mlir::Type type);

/// True when a memref kernel argument needs its offset, sizes and strides at
/// run time: any dynamic size, or a layout other than the identity.
bool needsMetadata(mlir::MemRefType type);

/// Kiln's memory spaces on Vulkan: no memory space and
/// `#gpu.address_space<global>` are storage buffers,
/// `#gpu.address_space<workgroup>` is Workgroup, `#gpu.address_space<private>`
/// is Function; numeric spaces as upstream's Vulkan mapping (3 is Workgroup);
/// `#spirv.storage_class<...>` is itself. None for a space with no mapping.
std::optional<mlir::spirv::StorageClass>
mapMemorySpace(mlir::Attribute memorySpace);

} // namespace kiln

#endif // KILN_TRANSFORMS_KERNELABI_H
