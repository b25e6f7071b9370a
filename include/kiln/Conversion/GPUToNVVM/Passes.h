//===- Passes.h - KilnGPUToNVVM passes --------------------------*- C++ -*-===//
//
// GPU kernels to NVVM: the target, subgroup reductions, CUDA limits
// (Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSION_GPUTONVVM_PASSES_H
#define KILN_CONVERSION_GPUTONVVM_PASSES_H

#include "kiln/Dialect/Kiln/KilnDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace kiln {

#define GEN_PASS_DECL
#include "kiln/Conversion/GPUToNVVM/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Conversion/GPUToNVVM/Passes.h.inc"

} // namespace kiln

#endif // KILN_CONVERSION_GPUTONVVM_PASSES_H
