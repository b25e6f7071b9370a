//===- Passes.h - KilnGPUToSPIRV passes -------------------------*- C++ -*-===//
//
// GPU kernels to SPIR-V: target env, kernel ABI, conversion (Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSION_GPUTOSPIRV_PASSES_H
#define KILN_CONVERSION_GPUTOSPIRV_PASSES_H

#include "kiln/Dialect/Kiln/KilnDialect.h"
#include "kiln/Target/SPIRV/TargetEnvs.h"

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
#include "kiln/Conversion/GPUToSPIRV/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Conversion/GPUToSPIRV/Passes.h.inc"

/// Vulkan guarantees at least this many bytes of push constants; Kiln's
/// kernels never need more (docs/abi.md).
constexpr unsigned kMaxPushConstantBytes = 128;

} // namespace kiln

#endif // KILN_CONVERSION_GPUTOSPIRV_PASSES_H
