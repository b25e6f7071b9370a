//===- kiln-translate.cpp - Kiln's translation driver ---------------------===//
//
// mlir-translate with upstream's translations, among them
// --serialize-spirv and --deserialize-spirv.
//
//===----------------------------------------------------------------------===//

#include "kiln/Config.h"

#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter(
      [](llvm::raw_ostream &os) { os << "Kiln " KILN_VERSION "\n"; });
  mlir::registerAllTranslations();
  return mlir::failed(mlir::mlirTranslateMain(
      argc, argv,
      "kiln-translate: MLIR's translations (--serialize-spirv, "
      "--deserialize-spirv, --mlir-to-llvmir, ...)\n"));
}
