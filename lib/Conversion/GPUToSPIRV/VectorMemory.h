//===- VectorMemory.h - Memory as arrays of vectors -------------*- C++ -*-===//
//
// Memory that a kernel reads or writes with aligned vector accesses becomes,
// in SPIR-V, an array of vectors (as glslc emits for `shared vec4 t[16][16]`
// or a `buffer { vec4 data[]; }`): a vector access is one access chain and
// one four-wide load or store, a scalar access an access chain into the
// vector's component. Upstream's lowering keeps every memref a flat array
// of scalars, so each vector access becomes four scalar accesses with their
// own index arithmetic.
//
// Two kinds of memory qualify:
//
//  - workgroup allocations, when every vector access is at an innermost
//    index provably a multiple of the width;
//  - storage-buffer kernel arguments (a static shape, or the flat buffer of
//    a dynamic identity-layout memref), when every vector access is either
//    provably aligned or says so with its `alignment` attribute. Such an
//    argument records a base alignment in the kernel ABI: the runtime then
//    checks that the memref's first element sits at a multiple of the
//    vector's bytes, which is what makes an aligned address an aligned
//    index.
//
// It happens in two steps, around the memory-space mapping:
//
//  1. vectorizeWorkgroupMemory and vectorizeStorageBuffers, on the gpu.func
//     before conversion: each qualifying `memref<AxBxT>` becomes
//     `memref<Ax(B/W)xWxT>` (a flat `memref<?xT>` becomes `memref<?xWxT>`),
//     marked kiln.vector_components; its scalar accesses address
//     [.., j / W, j % W] and its W-wide vector accesses [.., j / W, 0];
//  2. after memory spaces are storage classes, markVectorMemoryTypes gives
//     those memrefs a memory space of their own, which only the type
//     conversion and patterns of populateVectorMemoryPatterns accept: a
//     memref left over fails conversion instead of being misread as a flat
//     array.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_CONVERSION_GPUTOSPIRV_VECTORMEMORY_H
#define KILN_LIB_CONVERSION_GPUTOSPIRV_VECTORMEMORY_H

#include "kiln/Dialect/Kiln/KilnDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"

namespace kiln {

/// Rewrites the workgroup allocations of `fn` that qualify (a static shape,
/// an identity layout, 32-bit elements, only loads and stores as users, at
/// least one vector access, every vector access W = 2 or 4 wide at an
/// innermost index that is a multiple of W, an innermost dimension that W
/// divides) as described above. Others are left alone.
void vectorizeWorkgroupMemory(mlir::gpu::GPUFuncOp fn);

/// A storage-buffer argument that vectorizeStorageBuffers rewrote.
struct VectorizedBuffer {
  unsigned set, binding;
  /// Bytes of one vector: the base alignment the runtime must check.
  unsigned vectorBytes;
};

/// Rewrites the storage-buffer memref arguments of kernel `fn` (after its
/// signature has its final storage buffers: static identity memrefs and
/// flat `memref<?xT>` buffers, each with a spirv.interface_var_abi) that
/// qualify, as for workgroup memory but taking a vector access's
/// `alignment` (at least the vector's bytes) as proof too. Arguments whose
/// numbers are in `skip` are left alone.
llvm::SmallVector<VectorizedBuffer>
vectorizeStorageBuffers(mlir::gpu::GPUFuncOp fn, llvm::ArrayRef<unsigned> skip);

/// True for a vector.load or vector.store on a memref that one of the above
/// rewrote: it is one vector access, not to be split into scalars.
bool isVectorComponentAccess(mlir::Operation *op);

/// Step 2: gives the memrefs of marked allocations and arguments under
/// `root` the memory space that the patterns below own.
void markVectorMemoryTypes(mlir::Operation *root);

/// Adds the type conversion of marked memrefs to `typeConverter` and the
/// patterns for their allocations, loads and stores to `patterns`.
void populateVectorMemoryPatterns(mlir::SPIRVTypeConverter &typeConverter,
                                  mlir::RewritePatternSet &patterns);

} // namespace kiln

#endif // KILN_LIB_CONVERSION_GPUTOSPIRV_VECTORMEMORY_H
