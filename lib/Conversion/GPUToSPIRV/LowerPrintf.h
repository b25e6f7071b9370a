//===- LowerPrintf.h - gpu.printf as debug printf stubs ---------*- C++ -*-===//
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
//     stubs are dropped (rewriteDebugPrintfCalls, in
//     kiln/Target/SPIRV/Serialization.h, which also names the stubs).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_CONVERSION_GPUTOSPIRV_LOWERPRINTF_H
#define KILN_LIB_CONVERSION_GPUTOSPIRV_LOWERPRINTF_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"

#include <string>

namespace kiln {

/// Checks every gpu.printf of `module` (format conversions against the
/// arguments, what debug printf can print, the target env) and replaces it
/// with a call of a stub. Appends the formats, indexed by stub, to `formats`.
mlir::LogicalResult
lowerPrintfToStubs(mlir::gpu::GPUModuleOp module,
                   mlir::spirv::TargetEnvAttr env, bool use64BitIndex,
                   llvm::SmallVectorImpl<std::string> &formats);

} // namespace kiln

#endif // KILN_LIB_CONVERSION_GPUTOSPIRV_LOWERPRINTF_H
