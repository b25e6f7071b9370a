//===- KernelABI.h - A kernel's argument table in C++ -----------*- C++ -*-===//
//
// The #kiln.kernel_abi attribute as the container's plain structures, which
// the passes that decide, follow and serialize the ABI work with.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_KILN_KERNELABI_H
#define KILN_DIALECT_KILN_KERNELABI_H

#include "kiln/Contract/Container.h"
#include "kiln/Dialect/Kiln/KilnDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

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

  /// The attribute for `kernel`, whose arguments give the scalar types.
  KernelABIAttr toAttr(mlir::gpu::GPUFuncOp kernel) const;
  /// Reads `kiln.abi` from `kernel`; fails (with an error at the kernel)
  /// when it is missing.
  static mlir::FailureOr<KernelABI> read(mlir::gpu::GPUFuncOp kernel);
};

/// The scalar type code of a kernel argument type, or None when the type
/// cannot be a scalar kernel argument.
container::ScalarType getScalarType(mlir::Type type);

/// Bytes of one memref element in a Vulkan storage buffer (integers and
/// floats of 8 to 64 bits, 1-D vectors of them), or 0 when it cannot be
/// one.
unsigned getElementBytes(mlir::Type elementType);

} // namespace kiln

#endif // KILN_DIALECT_KILN_KERNELABI_H
