//===- Passes.h - KilnTargetSPIRVCPU passes ---------------------*- C++ -*-===//
//
// SPIR-V kernels compiled for the CPU (Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_SPIRVCPU_PASSES_H
#define KILN_TARGET_SPIRVCPU_PASSES_H

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
#include "kiln/Target/SPIRVCPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Target/SPIRVCPU/Passes.h.inc"

} // namespace kiln

#endif // KILN_TARGET_SPIRVCPU_PASSES_H
