//===- Program.cpp - A compiled, JIT-loaded program -----------------------===//

#include "Program.h"

#include "kiln/Driver/CommandLine.h"
#include "kiln/Driver/Compile.h"
#include "kiln/Driver/LargeStack.h"
#include "kiln/Driver/Run.h"
#include "kiln/Driver/Targets.h"
#include "kiln/InitAll.h"
#include "kiln/Target/AOT/AOT.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <dlfcn.h>
#include <map>
#include <optional>

using namespace mlir;

namespace kiln {
namespace python {

struct Program::Impl {
  std::unique_ptr<ExecutionEngine> engine;
  void (*init)() = nullptr;
  void (*fini)() = nullptr;
  /// The packed wrapper of each public function, in functionInfos' order.
  std::vector<void (*)(void **)> entries;
  std::map<std::string, std::string> binaries;
};

static std::string printed(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

static TypeInfo describe(Type type) {
  TypeInfo info;
  info.text = printed(type);
  if (isa<IntegerType, IndexType, FloatType>(type)) {
    info.kind = TypeInfo::Scalar;
    info.element = info.text;
    return info;
  }
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return info;
  Type element = memref.getElementType();
  if (!isa<IntegerType, IndexType, FloatType>(element))
    return info;
  info.kind = TypeInfo::MemRef;
  info.element = printed(element);
  for (int64_t size : memref.getShape())
    info.shape.push_back(ShapedType::isDynamic(size) ? kDynamic : size);
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  if (succeeded(memref.getStridesAndOffset(strides, offset))) {
    info.strided = true;
    for (int64_t stride : strides)
      info.strides.push_back(ShapedType::isDynamic(stride) ? kDynamic : stride);
    info.offset = ShapedType::isDynamic(offset) ? kDynamic : offset;
  }
  return info;
}

/// "FILE:LINE:COL: SEVERITY: MESSAGE", and the notes on lines of their own.
static std::string formatDiagnostic(Diagnostic &diagnostic) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto print = [&](Diagnostic &d) {
    if (auto loc = d.getLocation()->findInstanceOf<FileLineColLoc>())
      os << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
         << loc.getColumn() << ": ";
    switch (d.getSeverity()) {
    case DiagnosticSeverity::Error:
      os << "error: ";
      break;
    case DiagnosticSeverity::Warning:
      os << "warning: ";
      break;
    case DiagnosticSeverity::Note:
      os << "note: ";
      break;
    case DiagnosticSeverity::Remark:
      os << "remark: ";
      break;
    }
    os << d.str();
  };
  print(diagnostic);
  for (Diagnostic &note : diagnostic.getNotes()) {
    os << "\n";
    print(note);
  }
  return text;
}

/// Whether a kernel of the module prints (gpu.printf): the Vulkan runtime
/// then needs debug printf from its start, as kiln-vulkan-runner arranges.
static bool programPrints(Operation *module) {
  return module->walk([](gpu::PrintfOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// Binds every symbol the runtime library at `path` exports to that library's
/// definition. The JIT searches the libraries of the whole process in the
/// order they were opened, and every runtime exports the same mgpu* entry
/// points: without this, a Vulkan program compiled after a spirv-cpu one
/// would call the spirv-cpu runtime.
static bool bindRuntimeSymbols(ExecutionEngine &engine, const std::string &path,
                               std::string &error) {
  auto file = llvm::object::ObjectFile::createObjectFile(path);
  if (!file) {
    error = "cannot read '" + path + "': " + toString(file.takeError());
    return false;
  }
  auto *elf = dyn_cast<llvm::object::ELFObjectFileBase>(file->getBinary());
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (!elf || !handle) {
    error = "cannot read the symbols of '" + path + "'";
    return false;
  }
  std::vector<std::pair<std::string, void *>> symbols;
  for (const llvm::object::ELFSymbolRef &symbol :
       elf->getDynamicSymbolIterators()) {
    llvm::Expected<uint32_t> flags = symbol.getFlags();
    llvm::Expected<StringRef> name = symbol.getName();
    if (!flags || !name) {
      llvm::consumeError(flags.takeError());
      llvm::consumeError(name.takeError());
      continue;
    }
    if ((*flags & llvm::object::SymbolRef::SF_Undefined) ||
        !(*flags & llvm::object::SymbolRef::SF_Global) || name->empty())
      continue;
    if (void *address = dlsym(handle, name->str().c_str()))
      symbols.push_back({name->str(), address});
  }
  dlclose(handle);
  engine.registerSymbols([&](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    for (auto &[name, address] : symbols)
      map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                             llvm::JITSymbolFlags::Exported};
    return map;
  });
  return true;
}

namespace {
/// One compilation, run on a thread with a tool's large stack.
struct Compilation {
  Compilation(const CompileOptions &options, RuntimeLibrary &library,
              std::vector<std::string> &diagnostics,
              std::vector<std::string> &warnings)
      : options(options), library(library), diagnostics(diagnostics),
        warnings(warnings) {}

  const CompileOptions &options;
  RuntimeLibrary &library;
  std::vector<std::string> &diagnostics;
  std::vector<std::string> &warnings;
  CompileFailure failure = CompileFailure::Program;
  std::string error;
  std::vector<FunctionInfo> functions;
  std::vector<KernelInfo> kernels;
  std::unique_ptr<Program::Impl> impl;

  bool fail(CompileFailure kind, std::string message) {
    failure = kind;
    error = std::move(message);
    return false;
  }
  bool run();
};
} // namespace

bool Compilation::run() {
  const driver::TargetInfo *info = driver::findTarget(options.target);
  if (!info)
    return fail(CompileFailure::Argument,
                "unknown target '" + options.target +
                    "'; supported: " + driver::targetNames());

  driver::Session session;
  MLIRContext &context = session.context();
  llvm::SourceMgr sourceMgr;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    std::string text = formatDiagnostic(diagnostic);
    if (diagnostic.getSeverity() == DiagnosticSeverity::Error)
      diagnostics.push_back(std::move(text));
    else
      warnings.push_back(std::move(text));
    return success();
  });

  std::unique_ptr<llvm::MemoryBuffer> buffer;
  if (options.sourceIsFile) {
    std::string message;
    buffer = openInputFile(options.source, &message);
    if (!buffer)
      return fail(CompileFailure::Argument, message);
  } else {
    buffer = llvm::MemoryBuffer::getMemBufferCopy(options.source, options.name);
  }
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail(CompileFailure::Program, "");

  // The signatures as written, before lowering changes them.
  for (auto func : module->getOps<func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal())
      continue;
    FunctionInfo function;
    function.name = func.getSymName().str();
    for (Type type : func.getArgumentTypes())
      function.arguments.push_back(describe(type));
    for (Type type : func.getResultTypes())
      function.results.push_back(describe(type));
    functions.push_back(std::move(function));
  }
  module->walk([&](gpu::GPUFuncOp func) {
    if (!func.isKernel())
      return;
    KernelInfo kernel;
    if (auto parent = func->getParentOfType<gpu::GPUModuleOp>())
      kernel.module = parent.getName().str();
    kernel.name = func.getName().str();
    for (Type type : func.getArgumentTypes())
      kernel.arguments.push_back(describe(type));
    kernels.push_back(std::move(kernel));
  });
  aot::requestCInterfaces(*module);

  driver::TargetOptions target;
  target.target = info->target;
  std::string targetEnv =
      options.targetEnv.empty() ? "device" : options.targetEnv;
  if (info->target == driver::Target::CUDA) {
    // As kiln-cuda-runner compiles by default.
    target.chip = targetEnv;
    target.format = "cubin";
  } else {
    target.targetEnv = targetEnv;
  }
  target.mpi = options.mpi;
  rt::Runtime *deviceRuntime =
      info->deviceRuntime == driver::DeviceRuntime::None ? nullptr
                                                         : &library.runtime();
  if (info->target == driver::Target::Vulkan && programPrints(*module) &&
      !std::getenv("KILN_VULKAN_PRINTF")) {
    // Refused once the runtime has started: its kernels then print
    // nothing, as KILN_VULKAN_PRINTF=0 has it.
    rt::Options printing;
    printing.printf = true;
    (void)library.runtime().configure(printing);
  }
  TimingScope timing;
  std::string message;
  if (failed(driver::resolveTarget(target, context, deviceRuntime, message)))
    return fail(message.find("=device") != std::string::npos
                    ? CompileFailure::Runtime
                    : CompileFailure::Argument,
                message);
  if (failed(driver::runProgramPipeline(*module, target, timing)))
    return fail(CompileFailure::Program, "");

  impl = std::make_unique<Program::Impl>();
  module->walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects())
      if (auto object = dyn_cast<gpu::ObjectAttr>(attr)) {
        impl->binaries[binary.getName().str()] =
            object.getObject().getValue().str();
        break;
      }
  });

  driver::JITOptions jit;
  if (failed(driver::jitLibraries(library.path(), {}, jit.libraries, message)))
    return fail(CompileFailure::Runtime, message);
  jit.optLevel = options.optLevel;
  // __kiln_aot_init and __kiln_aot_fini, as an executable has them, so that
  // the module constructors run (and report errors) under a guarded call;
  // the entry point it needs does nothing.
  auto addStructors = [](llvm::Module &llvmModule, std::string &problem) {
    llvm::LLVMContext &ctx = llvmModule.getContext();
    auto *entry = llvm::Function::Create(
        llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false),
        llvm::GlobalValue::ExternalLinkage, "__kiln_python_entry", llvmModule);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", entry));
    b.CreateRetVoid();
    return LogicalResult::success(succeeded(
        aot::addExecutableEntry(llvmModule, "__kiln_python_entry", problem)));
  };
  jit.prepare = addStructors;
  std::string input =
      options.sourceIsFile ? options.source : std::string(options.name);
  impl->engine = driver::createJIT(*module, jit, input, timing, message);
  if (!impl->engine) {
    if (diagnostics.empty())
      diagnostics.push_back(message);
    return fail(CompileFailure::Program, "");
  }
  if (!bindRuntimeSymbols(*impl->engine, library.path(), message))
    return fail(CompileFailure::Runtime, message);
  for (auto [name, slot] :
       {std::pair<const char *, void (**)()>{KILN_AOT_INIT_NAME, &impl->init},
        {KILN_AOT_FINI_NAME, &impl->fini}}) {
    llvm::Expected<void *> address = impl->engine->lookup(name);
    if (!address) {
      llvm::consumeError(address.takeError());
      return fail(CompileFailure::Program,
                  "cannot JIT-compile '" + input + "': no " + name);
    }
    *slot = reinterpret_cast<void (*)()>(*address);
  }
  for (const FunctionInfo &function : functions) {
    auto packed = impl->engine->lookupPacked("_mlir_ciface_" + function.name);
    if (!packed) {
      llvm::consumeError(packed.takeError());
      return fail(CompileFailure::Program, "cannot JIT-compile '" + input +
                                               "': no C interface for @" +
                                               function.name);
    }
    impl->entries.push_back(*packed);
  }
  impl->engine->initialize();
  return true;
}

std::unique_ptr<Program> Program::compile(const CompileOptions &options,
                                          std::vector<std::string> &diagnostics,
                                          std::vector<std::string> &warnings,
                                          CompileFailure &failure,
                                          std::string &error) {
  if (!driver::findTarget(options.target)) {
    failure = CompileFailure::Argument;
    error = "unknown target '" + options.target +
            "'; supported: " + driver::targetNames();
    return nullptr;
  }
  RuntimeLibrary *library = openRuntime(options.target, error);
  if (!library) {
    failure = CompileFailure::Runtime;
    return nullptr;
  }
  if (!options.device.empty() &&
      !library->configureDevice(options.device, error)) {
    failure = CompileFailure::Runtime;
    return nullptr;
  }

  // What the tools register before parsing their command lines: the
  // pipelines read MLIR's pass-manager options (left at their defaults
  // here), and Kiln's passes are known by name.
  static const bool registered = [] {
    registerAllPasses();
    registerAsmPrinterCLOptions();
    registerMLIRContextCLOptions();
    registerPassManagerCLOptions();
    registerDefaultTimingManagerCLOptions();
    return true;
  }();
  (void)registered;

  Compilation compilation{options, *library, diagnostics, warnings};
  bool compiled = false;
  {
    // MLIR's parser and verifier recurse once per nested region, as in the
    // tools (LargeStack.h).
    llvm::thread worker(std::optional<unsigned>(driver::kToolStackBytes),
                        [&] { compiled = compilation.run(); });
    worker.join();
  }
  if (!compiled) {
    failure = compilation.failure;
    error = compilation.error;
    return nullptr;
  }

  std::unique_ptr<Program> program(new Program());
  program->library = library;
  program->functionInfos = std::move(compilation.functions);
  program->kernelInfos = std::move(compilation.kernels);
  program->impl = std::move(compilation.impl);
  // The module constructors load the GPU binaries.
  auto runInit = [](void *fn) { reinterpret_cast<void (*)()>(fn)(); };
  if (!library->guardedCall(
          runInit, reinterpret_cast<void *>(program->impl->init), error)) {
    // Not loaded: nothing for the destructors to unload.
    program->impl->fini = nullptr;
    failure = CompileFailure::Runtime;
    return nullptr;
  }
  return program;
}

Program::~Program() {
  if (!impl || !impl->fini)
    return;
  std::string error;
  auto runFini = [](void *fn) { reinterpret_cast<void (*)()>(fn)(); };
  // An error unloading is reported and the program goes anyway.
  if (!library->guardedCall(runFini, reinterpret_cast<void *>(impl->fini),
                            error)) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", error.c_str());
  }
}

bool Program::call(size_t index, void **args, std::string &error) {
  struct Call {
    void (*entry)(void **);
    void **args;
  } call{impl->entries[index], args};
  auto run = [](void *data) {
    auto *c = static_cast<Call *>(data);
    c->entry(c->args);
  };
  return library->guardedCall(run, &call, error);
}

const std::string *Program::binary(const std::string &module) const {
  auto it = impl->binaries.find(module);
  return it == impl->binaries.end() ? nullptr : &it->second;
}

} // namespace python
} // namespace kiln
