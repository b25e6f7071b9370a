//===- ExtendedOps.h - SPIR-V ops upstream lacks ----------------*- C++ -*-===//
//
// SPIR-V ops upstream's LLVM lowering lacks.
//

#ifndef KILN_TARGET_SPIRVCPU_EXTENDEDOPS_H
#define KILN_TARGET_SPIRVCPU_EXTENDEDOPS_H

namespace mlir {
class RewritePatternSet;
class TypeConverter;
} // namespace mlir

namespace kiln {
/// GLSL.std.450 functions, extended arithmetic and dynamic vector element
/// access as LLVM (ExtendedOps.cpp).
void populateSPIRVCPUExtendedOpPatterns(const mlir::TypeConverter &converter,
                                        mlir::RewritePatternSet &patterns);
} // namespace kiln

#endif // KILN_TARGET_SPIRVCPU_EXTENDEDOPS_H
