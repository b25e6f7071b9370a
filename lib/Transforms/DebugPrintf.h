//===- DebugPrintf.h - gpu.printf as Vulkan's debug printf ------*- C++ -*-===//
//
// gpu.printf in a Vulkan kernel becomes an OpExtInst of the
// NonSemantic.DebugPrintf instruction set, which the Khronos validation
// layer's debug printf executes. The SPIR-V dialect has no op for it, so it
// travels in two steps:
//
//  1. before conversion, each gpu.printf becomes a call of a stub function
//     `__kiln_debug_printf_<k>` (arguments promoted to 32 bits), whose format
//     string the spirv.module keeps in `kiln.debug_printf_formats`;
//  2. after serialization, each call of a stub becomes the OpExtInst and the
//     stubs are dropped (rewriteDebugPrintfCalls).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_TRANSFORMS_DEBUGPRINTF_H
#define KILN_LIB_TRANSFORMS_DEBUGPRINTF_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"

#include <string>

namespace kiln {

/// The stubs' name prefix and the spirv.module attribute with the formats.
inline constexpr llvm::StringLiteral kDebugPrintfStubPrefix =
    "__kiln_debug_printf_";
inline constexpr llvm::StringLiteral kDebugPrintfFormatsAttr =
    "kiln.debug_printf_formats";

/// Checks every gpu.printf of `module` (format conversions against the
/// arguments, what debug printf can print, the target env) and replaces it
/// with a call of a stub. Appends the formats, indexed by stub, to `formats`.
mlir::LogicalResult
lowerPrintfToStubs(mlir::gpu::GPUModuleOp module,
                   mlir::spirv::TargetEnvAttr env, bool use64BitIndex,
                   llvm::SmallVectorImpl<std::string> &formats);

/// Replaces the calls of the stubs in serialized SPIR-V with
/// NonSemantic.DebugPrintf instructions of `formats` and removes the stubs.
/// Does nothing when `formats` is empty. Fails, with `error` set, on SPIR-V
/// it cannot rewrite.
mlir::LogicalResult
rewriteDebugPrintfCalls(llvm::SmallVectorImpl<uint32_t> &words,
                        llvm::ArrayRef<std::string> formats,
                        std::string &error);

} // namespace kiln

#endif // KILN_LIB_TRANSFORMS_DEBUGPRINTF_H
