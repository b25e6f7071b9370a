//===- UniqueKernelNames.cpp - One kernel name global per launch target --===//
//
// gpu.launch_func's LLVM translation names the global holding a kernel's
// name `<binary>_<kernel>_name` and reuses one that exists, so two launch
// targets whose `<binary>_<kernel>` meet (@a::@b_c and @a_b::@c) launch the
// same kernel. This pass renames the binaries (or GPU modules) that would
// meet another's, with every reference to them (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "kiln/Host/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace kiln {
#define GEN_PASS_DEF_KILNUNIQUEKERNELNAMES
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

class UniqueKernelNamesPass
    : public kiln::impl::KilnUniqueKernelNamesBase<UniqueKernelNamesPass> {
public:
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);

    // Each binary's (or GPU module's) launched kernels, in program order.
    llvm::MapVector<StringAttr, llvm::SetVector<StringAttr>> launched;
    module.walk([&](gpu::LaunchFuncOp launch) {
      launched[launch.getKernelModuleName()].insert(launch.getKernelName());
    });

    // Every `<binary>_<kernel>` taken so far.
    llvm::StringSet<> taken;
    auto key = [](StringRef binary, StringAttr kernel) {
      return (binary + "_" + kernel.getValue()).str();
    };
    for (auto &entry : launched) {
      StringAttr binary = entry.first;
      const llvm::SetVector<StringAttr> &kernels = entry.second;
      auto meets = [&](StringRef name) {
        return llvm::any_of(kernels, [&](StringAttr kernel) {
          return taken.contains(key(name, kernel));
        });
      };
      StringRef name = binary.getValue();
      std::string fresh = name.str();
      for (unsigned i = 0;
           meets(fresh) || (fresh != name && symbols.lookup(fresh)); ++i)
        fresh = (name + "_" + llvm::Twine(i)).str();
      if (fresh != name) {
        Operation *op = symbols.lookup(binary);
        if (!op || failed(symbols.rename(op, fresh))) {
          module.emitError("cannot rename GPU binary '")
              << name << "', whose kernel name globals meet another's";
          return signalPassFailure();
        }
      }
      for (StringAttr kernel : kernels)
        taken.insert(key(fresh, kernel));
    }
  }
};

} // namespace
