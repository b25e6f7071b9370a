//===- KilnPlugin.cpp - Kiln's passes and dialect for mlir-opt ------------===//
//
// libKilnPlugin.so loads into any MLIR tool built on the same libMLIR.so
// (Debian's mlir-opt, a downstream *-opt):
//
//   mlir-opt --load-dialect-plugin=libKilnPlugin.so \
//            --load-pass-plugin=libKilnPlugin.so prog.mlir --kiln-gpu-to-spirv
//
// The pass plugin registers Kiln's passes and pipelines; the dialect plugin
// the kiln dialect (#kiln.kernel_abi in IR that Kiln's passes wrote) and
// what its pipelines need beyond mlir-opt's own registrations.
//
//===----------------------------------------------------------------------===//

#include "kiln/Config.h"
#include "kiln/Dialect/Kiln/KilnDialect.h"
#include "kiln/InitAll.h"
#include "kiln/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Kiln", KILN_VERSION, []() {
            kiln::registerKilnPasses();
            kiln::registerKilnPipelines();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Kiln", KILN_VERSION,
          [](mlir::DialectRegistry *registry) {
            kiln::registerAllDialects(*registry);
          }};
}
