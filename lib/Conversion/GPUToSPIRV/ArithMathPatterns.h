//===- ArithMathPatterns.h - Kiln's arith and math to SPIR-V ----*- C++ -*-===//
//
// Patterns that take precedence over MLIR 22's where those compute wrong
// values at edge inputs or are missing (ArithMathPatterns.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSION_GPUTOSPIRV_ARITHMATHPATTERNS_H
#define KILN_CONVERSION_GPUTOSPIRV_ARITHMATHPATTERNS_H

namespace mlir {
class RewritePatternSet;
class SPIRVTypeConverter;
} // namespace mlir

namespace kiln {
void populateArithMathToSPIRVPatterns(
    const mlir::SPIRVTypeConverter &typeConverter,
    mlir::RewritePatternSet &patterns);
} // namespace kiln

#endif // KILN_CONVERSION_GPUTOSPIRV_ARITHMATHPATTERNS_H
