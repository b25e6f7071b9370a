//===- ConversionSteps.h - Steps of kiln-convert-gpu-to-spirv ---*- C++ -*-===//
//
//
// kiln-convert-gpu-to-spirv (ConvertGPUToSPIRV.cpp) converts a clone of each
// GPU module, nested in it. These are its steps, each defined in the file of
// its part (the comment at each definition says more):
//
//  - KernelChecks.cpp: what no SPIR-V target of Kiln's can run, refused at
//    the op before the conversion;
//  - KernelRewrites.cpp: kernel bodies made fit for upstream's patterns
//    (attributions, vector accesses, emulated narrow integers, structured
//    control flow);
//  - KernelSignature.cpp: the clone's kernels given the push-constant ABI's
//    signature (flat buffers, trailing push-constant fields);
//  - SubgroupPatterns.cpp, AtomicPatterns.cpp: Kiln's patterns that take
//    precedence over upstream's;
//  - CloneConversion.cpp: the conversion of the clone, and the explanation
//    of its failures;
//  - PushConstants.cpp: push constants and device addresses on the SPIR-V
//    side, after the conversion.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_CONVERSION_GPUTOSPIRV_CONVERSIONSTEPS_H
#define KILN_LIB_CONVERSION_GPUTOSPIRV_CONVERSIONSTEPS_H

#include "kiln/Dialect/Kiln/KernelABI.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
class RewritePatternSet;
class SPIRVTypeConverter;
} // namespace mlir

namespace kiln {

//===----------------------------------------------------------------------===//
// Before the conversion, on the clone's kernels (KernelChecks.cpp)
//===----------------------------------------------------------------------===//

/// Refuses f16 (and narrower float) buffer arguments the target env cannot
/// access.
mlir::LogicalResult checkNarrowFloatStorage(mlir::gpu::GPUFuncOp fn,
                                            mlir::spirv::TargetEnvAttr env);

/// Refuses memref.generic_atomic_rmw on elements other than i32 and i64.
mlir::LogicalResult checkGenericAtomics(mlir::gpu::GPUFuncOp fn);

/// Refuses the ops no SPIR-V target of Kiln's can run, with the reason.
mlir::LogicalResult checkUnsupportedOps(mlir::gpu::GPUFuncOp fn);

//===----------------------------------------------------------------------===//
// Before the conversion, on the clone's functions (KernelRewrites.cpp)
//===----------------------------------------------------------------------===//

/// Workgroup and private attributions as allocations at the top of `fn`.
mlir::LogicalResult materializeAttributions(mlir::gpu::GPUFuncOp fn);

/// 1-D vector accesses of scalar memrefs as scalar accesses.
void scalarizeVectorAccesses(mlir::gpu::GPUFuncOp fn);

/// Ops on i8 / i16 values the target env emulates, done at 32 bits.
void widenEmulatedIntegerOps(mlir::gpu::GPUFuncOp fn,
                             mlir::spirv::TargetEnvAttr env);

/// scf.index_switch as a chain of scf.if.
void lowerIndexSwitches(mlir::gpu::GPUFuncOp fn);

/// cf branch graphs lifted into structured scf ops.
mlir::LogicalResult liftControlFlow(mlir::gpu::GPUFuncOp fn);

//===----------------------------------------------------------------------===//
// Before the conversion, the push-constant ABI (KernelSignature.cpp)
//===----------------------------------------------------------------------===//

/// Scalars and memref metadata as trailing push-constant arguments, dynamic
/// memrefs as flat buffers, as `abi` lays them out.
mlir::LogicalResult rewriteKernelSignature(mlir::gpu::GPUFuncOp fn,
                                           const KernelABI &abi);

//===----------------------------------------------------------------------===//
// The conversion (SubgroupPatterns.cpp, AtomicPatterns.cpp,
// CloneConversion.cpp)
//===----------------------------------------------------------------------===//

/// gpu.subgroup_reduce, gpu.shuffle, gpu.rotate and gpu.subgroup_broadcast
/// as GroupNonUniform* instructions, at a benefit above upstream's.
void populateSubgroupToGroupNonUniformPatterns(
    const mlir::SPIRVTypeConverter &typeConverter,
    mlir::RewritePatternSet &patterns);

/// memref.generic_atomic_rmw as a compare-exchange loop, at a benefit above
/// upstream's.
void populateGenericAtomicRMWPatterns(
    const mlir::SPIRVTypeConverter &typeConverter,
    mlir::RewritePatternSet &patterns);

/// Converts `clone` (nested in `gpuModule`) into a spirv.module for `env`.
/// Where that fails, reports at each op that failed, from `pristine` (a copy
/// of the clone before conversion), what its lowering needs.
mlir::LogicalResult convertCloneOrExplain(mlir::gpu::GPUModuleOp clone,
                                          mlir::ModuleOp pristine,
                                          mlir::gpu::GPUModuleOp gpuModule,
                                          mlir::spirv::TargetEnvAttr env,
                                          bool use64BitIndex);

//===----------------------------------------------------------------------===//
// After the conversion (PushConstants.cpp)
//===----------------------------------------------------------------------===//

/// The trailing push-constant arguments of entry point `fn` as loads from
/// one push-constant block; arguments bound by device address as pointers.
mlir::LogicalResult materializePushConstants(mlir::spirv::FuncOp fn);

} // namespace kiln

#endif // KILN_LIB_CONVERSION_GPUTOSPIRV_CONVERSIONSTEPS_H
