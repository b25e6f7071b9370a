//===- CommandLine.h - The command line of Kiln's tools ---------*- C++ -*-===//
//
// kiln-compile and the runners parse their command lines alike: their own
// options come first in --help, in the categories and order the tool gives,
// then MLIR's (--mlir-print-ir-after-all, --mlir-timing, ...), which apply to
// every pass manager the tool runs; LLVM's options are in --help-hidden. With
// no arguments a tool prints its usage instead of waiting on standard input.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DRIVER_COMMANDLINE_H
#define KILN_DRIVER_COMMANDLINE_H

#include "mlir/Support/LLVM.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <optional>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace kiln {
namespace driver {

/// What a Kiln tool says about itself on its command line.
struct ToolDescription {
  /// The tool's name, as its messages begin ("kiln-compile").
  llvm::StringRef name;
  /// What the tool does, one or two sentences (--help's OVERVIEW).
  llvm::StringRef overview;
  /// The arguments after the name on the USAGE line.
  llvm::StringRef usage = "[options] <input.mlir>";
  /// A few command lines, shown on no arguments and in --help.
  llvm::ArrayRef<llvm::StringRef> examples;
  /// The tool's option categories, in the order --help shows them.
  llvm::ArrayRef<const llvm::cl::OptionCategory *> categories;
};

/// Registers MLIR's command-line options (pass manager, timing, context, IR
/// printing) and parses argv for `tool`. Returns an exit status when the
/// tool has nothing more to do: its usage (no arguments, status 1), --help
/// (0), --version (0) or a command line that does not parse (1); nullopt
/// otherwise.
std::optional<int> parseCommandLine(int argc, char **argv,
                                    const ToolDescription &tool);

/// --mlir-timing over a whole tool run: the pass pipelines nest in its root
/// scope beside the tool's own steps (translation, linking, the JIT). The
/// report is printed when it is destroyed.
class Timing {
public:
  Timing();
  mlir::TimingScope &root() { return rootScope; }

private:
  mlir::DefaultTimingManager manager;
  mlir::TimingScope rootScope;
};

/// Sets up `context` as Kiln's tools use it: diagnostics without the op's IR
/// (unless --mlir-print-op-on-diagnostic is given), the source line instead.
void configureContext(mlir::MLIRContext &context);

/// Prints `message` as `tool: error: message` on stderr; returns 1.
int reportError(llvm::StringRef tool, const llvm::Twine &message);

} // namespace driver
} // namespace kiln

#endif // KILN_DRIVER_COMMANDLINE_H
