//===- Serialization.h - The words of a spirv.module ------------*- C++ -*-===//
//
// What `--kiln-serialize-spirv` puts in the container, for the passes that
// need the same words before it runs (`--kiln-spirv-to-cpu` keys the kernels
// it compiles by their hash).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_SPIRV_SERIALIZATION_H
#define KILN_TARGET_SPIRV_SERIALIZATION_H

#include "kiln/Dialect/Kiln/KilnDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace kiln {

/// Debug printf's stubs' name prefix (kiln-convert-gpu-to-spirv makes them
/// with the formats in kDebugPrintfFormatsAttr, rewriteDebugPrintfCalls
/// replaces them).
inline constexpr llvm::StringLiteral kDebugPrintfStubPrefix =
    "__kiln_debug_printf_";

/// Replaces the calls of the stubs in serialized SPIR-V with
/// NonSemantic.DebugPrintf instructions of `formats` and removes the stubs.
/// Does nothing when `formats` is empty. Fails, with `error` set, on SPIR-V
/// it cannot rewrite.
mlir::LogicalResult
rewriteDebugPrintfCalls(llvm::SmallVectorImpl<uint32_t> &words,
                        llvm::ArrayRef<std::string> formats,
                        std::string &error);

/// The name prefix of the array-length stubs: `(buffer, pushed size) ->
/// size` functions, whose body returns the pushed size, that
/// kiln-convert-gpu-to-spirv calls for the size of a one-dimensional memref
/// bound exactly by its descriptor (docs/abi.md); rewriteArrayLengthCalls
/// turns each call into OpArrayLength of the buffer.
inline constexpr llvm::StringLiteral kArrayLengthStubPrefix =
    "__kiln_array_length_";

/// Replaces the calls of the array-length stubs in serialized SPIR-V with
/// OpArrayLength of their buffer (dropping the pushed size's load and
/// access chain where nothing else uses them) and removes the stubs and
/// their function type. Does nothing when there is no stub. Fails, with
/// `error` set, on SPIR-V it cannot rewrite.
mlir::LogicalResult
rewriteArrayLengthCalls(llvm::SmallVectorImpl<uint32_t> &words,
                        std::string &error);

/// Makes the length of the dynamic workgroup array (an OpConstant of
/// container::kDynamicWorkgroupLength used as an OpTypeArray's length) an
/// OpSpecConstant with SpecId container::kDynamicWorkgroupSpecId and default
/// 1; `found` says whether there was one. Fails, with `error` set, when the
/// constant is also used as a value.
mlir::LogicalResult
specializeDynamicWorkgroupLength(llvm::SmallVectorImpl<uint32_t> &words,
                                 bool &found, std::string &error);

/// Serializes `module` as `--kiln-serialize-spirv` does, before validation:
/// completes its (version, capabilities, extensions) for the target env and
/// turns the debug printf stubs into NonSemantic.DebugPrintf instructions
/// and the length of dynamic workgroup memory into a specialization
/// constant.
/// `module` is not changed: upstream's serializer rewrites the uses of
/// structured-construct results, so it serializes a copy, in which every
/// such result that a branch passes on is first copied by an identity
/// operation (upstream gives a phi whose operand is a later construct's
/// result the id 0).
mlir::LogicalResult serializeSPIRVWords(mlir::spirv::ModuleOp module,
                                        llvm::SmallVectorImpl<uint32_t> &words);

/// True when a loop or selection result of type `type` may feed a branch
/// (a phi) in a module that serializeSPIRVWords serializes: scalars and
/// vectors of numbers and booleans. Other results must not (see
/// serializeSPIRVWords).
bool canBranchConstructResult(mlir::Type type);

/// The spirv.module that kiln-convert-gpu-to-spirv nested in `gpuModule`;
/// an error at the GPU module unless there is exactly one.
mlir::FailureOr<mlir::spirv::ModuleOp>
getNestedSPIRVModule(mlir::gpu::GPUModuleOp gpuModule);

/// Calls `fn` on every GPU module under `root` that holds a spirv.module
/// (collected first, so that `fn` may replace it); fails if any call fails.
mlir::LogicalResult forEachSPIRVGPUModule(
    mlir::Operation *root,
    llvm::function_ref<mlir::LogicalResult(mlir::gpu::GPUModuleOp)> fn);

} // namespace kiln

#endif // KILN_TARGET_SPIRV_SERIALIZATION_H
