//===- VectorWorkgroupMemory.h - Workgroup arrays of vectors ----*- C++ -*-===//
//
// A workgroup allocation that a kernel reads or writes with aligned vector
// accesses becomes, in SPIR-V, a nested array of vectors (as glslc emits for
// `shared vec4 t[16][16]`): a vector access is one access chain and one
// four-wide load or store, a scalar access an access chain into the vector's
// component. Upstream's lowering keeps every workgroup memref a flat array of
// scalars, so each vector access becomes four scalar accesses with their own
// index arithmetic.
//
// It happens in two steps, around the memory-space mapping:
//
//  1. vectorizeWorkgroupMemory, on the gpu.func before conversion: each
//     qualifying `memref<AxBxT>` allocation becomes `memref<Ax(B/W)xWxT>`
//     marked kiln.vector_components, its scalar accesses address
//     [.., j / W, j % W] and its W-wide vector accesses [.., j / W, 0];
//  2. after memory spaces are storage classes, markVectorWorkgroupTypes gives
//     those memrefs a memory space of their own, which only the type
//     conversion and patterns of populateVectorWorkgroupMemoryPatterns
//     accept: a memref left over fails conversion instead of being
//     misread as a flat array.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_TRANSFORMS_VECTORWORKGROUPMEMORY_H
#define KILN_LIB_TRANSFORMS_VECTORWORKGROUPMEMORY_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"

namespace kiln {

/// The unit attribute on a workgroup memref.alloc whose innermost dimension
/// is the component of a vector.
inline constexpr llvm::StringLiteral kVectorComponentsAttr =
    "kiln.vector_components";

/// Rewrites the workgroup allocations of `fn` that qualify (a static shape,
/// an identity layout, 32-bit elements, only loads and stores as users, at
/// least one vector access, every vector access W = 2 or 4 wide at an
/// innermost index that is a multiple of W, an innermost dimension that W
/// divides) as described above. Others are left alone.
void vectorizeWorkgroupMemory(mlir::gpu::GPUFuncOp fn);

/// True for a vector.load or vector.store on a memref that
/// vectorizeWorkgroupMemory rewrote: it is one vector access, not to be
/// split into scalars.
bool isVectorComponentAccess(mlir::Operation *op);

/// Step 2: gives the memrefs of marked allocations under `root` the memory
/// space that the patterns below own.
void markVectorWorkgroupTypes(mlir::Operation *root);

/// Adds the type conversion of marked memrefs to `typeConverter` and the
/// patterns for their allocations, loads and stores to `patterns`.
void populateVectorWorkgroupMemoryPatterns(
    mlir::SPIRVTypeConverter &typeConverter, mlir::RewritePatternSet &patterns);

} // namespace kiln

#endif // KILN_LIB_TRANSFORMS_VECTORWORKGROUPMEMORY_H
