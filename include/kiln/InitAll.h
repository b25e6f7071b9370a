//===- InitAll.h - Register what Kiln's tools understand -------*- C++ -*-===//

#ifndef KILN_INITALL_H
#define KILN_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace kiln {

/// Upstream's dialects and extensions plus the SPIR-V target attribute
/// interface that `#gpu.object<#spirv.target_env...>` needs.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Kiln's passes, of every stage (kiln/*/Passes.td).
void registerKilnPasses();

/// Upstream's passes plus Kiln's passes and pipelines.
void registerAllPasses();

} // namespace kiln

#endif // KILN_INITALL_H
