//===- KilnDialect.h - Kiln's dialect: the kernel ABI ----------*- C++ -*-===//
//
// The `kiln` dialect and its attributes (KilnDialect.td).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_KILN_KILNDIALECT_H
#define KILN_DIALECT_KILN_KILNDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include <optional>

#include "kiln/Dialect/Kiln/KilnDialect.h.inc"
#include "kiln/Dialect/Kiln/KilnEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "kiln/Dialect/Kiln/KilnAttrs.h.inc"

namespace kiln {

/// The name of the gpu.func attribute holding a kernel's #kiln.kernel_abi.
constexpr llvm::StringLiteral kKernelABIAttrName = "kiln.abi";

// The attributes Kiln's passes leave on operations for later ones, which
// the dialect's verifier accepts (kInternalAttrNames).

/// The unit attribute on a workgroup memref.alloc, or on a kernel argument,
/// whose innermost dimension is the component of a vector.
constexpr llvm::StringLiteral kVectorComponentsAttr = "kiln.vector_components";
/// Trailing kernel arguments of kiln-convert-gpu-to-spirv's converted clone
/// that are push-constant fields: an array of their byte offsets.
constexpr llvm::StringLiteral kPushConstantFieldsAttr =
    "kiln.push_constant_fields";
/// Kernel arguments of the converted clone bound by device address: pairs of
/// (argument number, push-constant offset of its address).
constexpr llvm::StringLiteral kAddressArgsAttr = "kiln.address_args";
/// Marks such an argument until the signature is final.
constexpr llvm::StringLiteral kAddressFieldAttr = "kiln.address_field";
/// The spirv.module attribute with debug printf's formats
/// (kiln-convert-gpu-to-spirv makes it, serialization consumes it).
constexpr llvm::StringLiteral kDebugPrintfFormatsAttr =
    "kiln.debug_printf_formats";

/// On a kernel: the symbol of its address variant, the clone of it that
/// binds every memref argument of unknown extent by device address (made by
/// kiln-spirv-kernel-abi under buffer-device-address=auto; the runtime
/// launches it when a buffer exceeds the device's descriptor range).
constexpr llvm::StringLiteral kAddressVariantAttrName = "kiln.address_variant";
/// On an address variant: the symbol of the kernel it stands in for.
constexpr llvm::StringLiteral kAddressVariantOfAttrName =
    "kiln.address_variant_of";
/// How an address variant's name ends (the kernel's name, this, and a
/// number if that name is taken).
constexpr llvm::StringLiteral kAddressVariantSuffix = "__kiln_by_address";

constexpr llvm::StringLiteral kInternalAttrNames[] = {
    kVectorComponentsAttr,    kPushConstantFieldsAttr, kAddressArgsAttr,
    kAddressFieldAttr,        kDebugPrintfFormatsAttr, kAddressVariantAttrName,
    kAddressVariantOfAttrName};

} // namespace kiln

#endif // KILN_DIALECT_KILN_KILNDIALECT_H
