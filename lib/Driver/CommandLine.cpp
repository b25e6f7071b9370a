//===- CommandLine.cpp - The command line of Kiln's tools -----------------===//
//
// LLVM's own --help sorts option categories by name and lists every option
// that the libraries a tool loads register (hundreds, from the AMDGPU
// backend to ARM's). Kiln's tools print their --help themselves, from the
// same registered options: the tool's categories in its order, MLIR's
// options after them, and the generic ones; --help-hidden stays LLVM's
// listing of everything.
//
//===----------------------------------------------------------------------===//

#include "kiln/Driver/CommandLine.h"
#include "kiln/Config.h"
#include "kiln/InitAll.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace kiln;
namespace cl = llvm::cl;

/// MLIR's options that apply to the tools' pass managers and IR.
static cl::OptionCategory &mlirCategory() {
  static cl::OptionCategory category(
      "MLIR options", "Applied to every pass pipeline the tool runs and to "
                      "the IR it prints");
  return category;
}

/// MLIR's options that --help shows; the others are in --help-hidden.
static const char *const shownMLIROptions[] = {
    "mlir-disable-threading",
    "mlir-pass-pipeline-crash-reproducer",
    "mlir-pass-statistics",
    "mlir-print-debuginfo",
    "mlir-print-ir-after",
    "mlir-print-ir-after-all",
    "mlir-print-ir-after-failure",
    "mlir-print-ir-before",
    "mlir-print-ir-before-all",
    "mlir-print-op-on-diagnostic",
    "mlir-print-stacktrace-on-diagnostic",
    "mlir-timing",
};

/// Registers MLIR's options and files them under mlirCategory().
static void registerMLIROptions() {
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    if (!entry.first.starts_with("mlir-") ||
        !llvm::is_contained(option->Categories, &cl::getGeneralCategory()))
      continue;
    option->addCategory(mlirCategory());
    if (!llvm::is_contained(shownMLIROptions, entry.first) &&
        option->getOptionHiddenFlag() == cl::NotHidden)
      option->setHiddenFlag(cl::Hidden);
  }
}

/// The visible options of `category`, by name.
static SmallVector<cl::Option *> optionsIn(const cl::OptionCategory *category) {
  SmallVector<cl::Option *> options;
  llvm::SmallPtrSet<cl::Option *, 32> seen;
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    if (option->getOptionHiddenFlag() != cl::NotHidden ||
        !llvm::is_contained(option->Categories, category) ||
        !seen.insert(option).second)
      continue;
    options.push_back(option);
  }
  llvm::sort(options, [](cl::Option *a, cl::Option *b) {
    return a->ArgStr < b->ArgStr;
  });
  return options;
}

static void printUsage(llvm::raw_ostream &os,
                       const driver::ToolDescription &tool) {
  os << "USAGE: " << tool.name << " " << tool.usage << "\n";
  if (!tool.examples.empty()) {
    os << "\nEXAMPLES:\n";
    for (StringRef example : tool.examples)
      os << "  " << example << "\n";
  }
}

/// --help: the tool's categories, MLIR's, then --help, --help-hidden and
/// --version.
static void printHelp(const driver::ToolDescription &tool) {
  llvm::raw_ostream &os = llvm::outs();
  os << "OVERVIEW: " << tool.name << ": " << tool.overview << "\n\n";
  printUsage(os, tool);

  struct Section {
    StringRef name;
    StringRef description;
    SmallVector<cl::Option *> options;
  };
  SmallVector<Section> sections;
  for (const cl::OptionCategory *category : tool.categories)
    sections.push_back(
        {category->getName(), category->getDescription(), optionsIn(category)});
  sections.push_back({mlirCategory().getName(), mlirCategory().getDescription(),
                      optionsIn(&mlirCategory())});
  Section generic{"Generic options", "", {}};
  for (StringRef name : {"help", "help-hidden", "version"}) {
    auto it = cl::getRegisteredOptions().find(name);
    if (it != cl::getRegisteredOptions().end())
      generic.options.push_back(it->second);
  }
  sections.push_back(std::move(generic));

  os << "\nOPTIONS:\n";
  for (const Section &section : sections) {
    if (section.options.empty())
      continue;
    os << "\n" << section.name << ":\n";
    if (!section.description.empty())
      os << section.description << "\n";
    os << "\n";
    size_t width = 0;
    for (cl::Option *option : section.options)
      width = std::max(width, option->getOptionWidth());
    for (cl::Option *option : section.options)
      option->printOptionInfo(width);
  }
  os << "\nMore of MLIR's options, and LLVM's: " << tool.name
     << " --help-hidden\n";
  os.flush();
}

/// Is `arg` a request for --help (not --help-hidden, which LLVM prints)?
static bool isHelp(StringRef arg) {
  return arg == "-h" || arg == "-help" || arg == "--help";
}

std::optional<int> driver::parseCommandLine(int argc, char **argv,
                                            const ToolDescription &tool) {
  // --mlir-print-ir-after=PASS and its kin take the passes registered when
  // they are.
  registerAllPasses();
  registerMLIROptions();
  if (argc <= 1) {
    llvm::errs() << tool.name << ": " << tool.overview << "\n\n";
    printUsage(llvm::errs(), tool);
    llvm::errs() << "\nStandard input is '-'; '" << tool.name
                 << " --help' lists the options.\n";
    return 1;
  }
  for (int i = 1; i < argc; ++i) {
    StringRef arg(argv[i]);
    if (arg == "--")
      break;
    if (isHelp(arg)) {
      printHelp(tool);
      return 0;
    }
  }
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "Kiln " KILN_VERSION " (LLVM and MLIR " LLVM_VERSION_STRING ")\n";
  });
  std::string overview = (tool.name + ": " + tool.overview + "\n").str();
  if (!cl::ParseCommandLineOptions(argc, argv, overview, &llvm::errs()))
    return 1;
  return std::nullopt;
}

driver::Timing::Timing() {
  applyDefaultTimingManagerCLOptions(manager);
  rootScope = manager.getRootScope();
}

void driver::configureContext(MLIRContext &context) {
  auto &options = cl::getRegisteredOptions();
  auto it = options.find("mlir-print-op-on-diagnostic");
  if (it == options.end() || it->second->getNumOccurrences() == 0)
    context.printOpOnDiagnostic(false);
}

int driver::reportError(StringRef tool, const llvm::Twine &message) {
  llvm::outs().flush();
  llvm::WithColor::error(llvm::errs(), tool) << message << "\n";
  return 1;
}
