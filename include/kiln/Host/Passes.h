//===- Passes.h - KilnHost passes ---------------------------*- C++ -*-===//
//
// The host side of launches: memory spaces, registrations, async (Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_HOST_PASSES_H
#define KILN_HOST_PASSES_H

#include "kiln/Dialect/Kiln/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace kiln {

#define GEN_PASS_DECL
#include "kiln/Host/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Host/Passes.h.inc"

} // namespace kiln

#endif // KILN_HOST_PASSES_H
