//===- kiln-opt.cpp - Kiln's optimizer driver -----------------------------===//

#include "kiln/Config.h"
#include "kiln/Driver/LargeStack.h"
#include "kiln/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

static int toolMain(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter(
      [](llvm::raw_ostream &os) { os << "Kiln " KILN_VERSION "\n"; });
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

int main(int argc, char **argv) {
  return kiln::driver::onLargeStack([&] { return toolMain(argc, argv); });
}
