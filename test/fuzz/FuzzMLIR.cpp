//===- FuzzMLIR.cpp - libFuzzer target: kiln-compile's front end ----------===//
//
// MLIR text through what `kiln-compile --target=vulkan` runs: the parser and
// verifier, then the whole Vulkan pipeline (outlining, target env, kernel
// ABI, SPIR-V conversion, serialization with validation, host lowering) for
// the desktop profile. Errors are diagnostics; any crash is a finding.
//
//===----------------------------------------------------------------------===//

#include "kiln/InitAll.h"
#include "kiln/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <string>

using namespace mlir;

static MLIRContext &context() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    kiln::registerAllDialects(registry);
    kiln::registerAllPasses();
    auto *c = new MLIRContext(registry);
    c->loadAllAvailableDialects();
    c->disableMultithreading();
    return c;
  }();
  return *ctx;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &ctx = context();
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
  // MLIR's lexer reads up to a terminating NUL, as files read through
  // llvm::MemoryBuffer (kiln-compile's input) have one.
  std::string text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  if (!module)
    return 0;
  PassManager pm(&ctx);
  kiln::GPUToSPIRVPipelineOptions options;
  options.targetEnv = "desktop";
  kiln::buildGPUToVulkanPassPipeline(pm, options);
  (void)pm.run(*module);
  return 0;
}
