//===- kiln-translate.cpp - Kiln's translation driver ---------------------===//
//
// mlir-translate with upstream's translations, among them
// --serialize-spirv and --deserialize-spirv.
//
//===----------------------------------------------------------------------===//

#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::registerAllTranslations();
  return mlir::failed(mlir::mlirTranslateMain(
      argc, argv,
      "kiln-translate: MLIR's translations (--serialize-spirv, "
      "--deserialize-spirv, --mlir-to-llvmir, ...)\n"));
}
