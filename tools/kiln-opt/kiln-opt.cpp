//===- kiln-opt.cpp - Kiln's optimizer driver -----------------------------===//

#include "kiln/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  kiln::registerAllDialects(registry);
  kiln::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv,
                        "kiln-opt: runs MLIR's and Kiln's passes and pipelines "
                        "(--kiln-gpu-to-vulkan, --kiln-gpu-to-cuda, ...) on "
                        "MLIR files\n",
                        registry));
}
