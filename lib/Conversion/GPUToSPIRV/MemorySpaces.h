//===- MemorySpaces.h - Kernel memref memory spaces -------------*- C++ -*-===//
//
// Memory spaces and metadata of kernel memrefs.
//
// What kiln-spirv-kernel-abi decides with, beside the `kiln.abi` attribute
// (kiln/Dialect/Kiln/KernelABI.h) it puts on each kernel.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_CONVERSION_GPUTOSPIRV_MEMORYSPACES_H
#define KILN_LIB_CONVERSION_GPUTOSPIRV_MEMORYSPACES_H

#include "kiln/Contract/Container.h"
#include "kiln/Dialect/Kiln/KernelABI.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVEnums.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace kiln {

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

#endif // KILN_LIB_CONVERSION_GPUTOSPIRV_MEMORYSPACES_H
