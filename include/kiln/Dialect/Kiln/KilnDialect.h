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

} // namespace kiln

#endif // KILN_DIALECT_KILN_KILNDIALECT_H
