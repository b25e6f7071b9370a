//===- AOT.cpp - Ahead-of-time compilation of host programs ---------------===//

#include "kiln/Target/AOT/AOT.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

#include <unistd.h>

using namespace mlir;
using namespace kiln;

void aot::requestCInterfaces(ModuleOp module) {
  auto unit = UnitAttr::get(module.getContext());
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn.isPublic() && !fn.isExternal())
      fn->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), unit);
}

//===----------------------------------------------------------------------===//
// C header
//===----------------------------------------------------------------------===//

namespace {
/// Spells MLIR types in C for the header, collecting the descriptor structs
/// the declarations need.
class CHeaderWriter {
public:
  /// C type of a scalar, or failure.
  static FailureOr<std::string> scalar(Type type) {
    if (isa<IndexType>(type))
      return std::string("int64_t"); // the host lowers index to i64
    if (auto i = dyn_cast<IntegerType>(type)) {
      if (i.getWidth() == 1)
        return std::string("bool");
      if (llvm::is_contained({8u, 16u, 32u, 64u}, i.getWidth()))
        return (i.isUnsigned() ? "uint" : "int") +
               std::to_string(i.getWidth()) + "_t";
      return failure();
    }
    if (type.isF16() || type.isBF16())
      return std::string("uint16_t"); // bits; C has no portable half type
    if (type.isF32())
      return std::string("float");
    if (type.isF64())
      return std::string("double");
    return failure();
  }

  /// The struct name of a memref's descriptor, defining it on first use.
  FailureOr<std::string> descriptor(Type type) {
    if (isa<UnrankedMemRefType>(type)) {
      std::string name = "kiln_unranked_memref";
      define(name, "  int64_t rank;\n  void *descriptor;\n");
      return name;
    }
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref)
      return failure();
    FailureOr<std::string> element = scalar(memref.getElementType());
    if (failed(element))
      return failure();
    std::string elementName;
    llvm::raw_string_ostream os(elementName);
    memref.getElementType().print(os);
    int64_t rank = memref.getRank();
    std::string name =
        "kiln_memref_" + std::to_string(rank) + "d_" + elementName;
    std::string fields = "  " + *element + " *allocated;\n  " + *element +
                         " *aligned;\n  int64_t offset;\n";
    if (rank > 0)
      fields += "  int64_t sizes[" + std::to_string(rank) +
                "];\n  int64_t strides[" + std::to_string(rank) + "];\n";
    define(name, fields);
    return name;
  }

  /// The declaration of `fn`'s `_mlir_ciface_` wrapper.
  LogicalResult declare(func::FuncOp fn) {
    FunctionType type = fn.getFunctionType();
    std::string params, returnType = "void";
    auto addParam = [&](const std::string &param) {
      params += (params.empty() ? "" : ", ") + param;
    };
    auto unsupported = [&](Type t) {
      return fn.emitError("cannot declare '")
             << fn.getName() << "' in a C header: type " << t
             << " has no C spelling (supported: integers, index, f16, bf16, "
                "f32, f64 and memrefs of them)";
    };
    // Results: one scalar is returned; a memref or several results are
    // written through a pointer passed first.
    if (type.getNumResults() == 1 && !isa<BaseMemRefType>(type.getResult(0))) {
      FailureOr<std::string> c = scalar(type.getResult(0));
      if (failed(c))
        return unsupported(type.getResult(0));
      returnType = *c;
    } else if (type.getNumResults() == 1) {
      FailureOr<std::string> c = descriptor(type.getResult(0));
      if (failed(c))
        return unsupported(type.getResult(0));
      addParam("struct " + *c + " *result");
    } else if (type.getNumResults() > 1) {
      std::string name = fn.getName().str() + "_results";
      std::string fields;
      for (auto [i, t] : llvm::enumerate(type.getResults())) {
        bool memref = isa<BaseMemRefType>(t);
        FailureOr<std::string> c = memref ? descriptor(t) : scalar(t);
        if (failed(c))
          return unsupported(t);
        fields += std::string("  ") + (memref ? "struct " : "") + *c + " r" +
                  std::to_string(i) + ";\n";
      }
      define(name, fields);
      addParam("struct " + name + " *results");
    }
    for (auto [i, t] : llvm::enumerate(type.getInputs())) {
      std::string arg = "arg" + std::to_string(i);
      if (isa<BaseMemRefType>(t)) {
        FailureOr<std::string> c = descriptor(t);
        if (failed(c))
          return unsupported(t);
        addParam("struct " + *c + " *" + arg);
      } else {
        FailureOr<std::string> c = scalar(t);
        if (failed(c))
          return unsupported(t);
        addParam(*c + " " + arg);
      }
    }
    declarations += "/* @" + fn.getName().str() + " : ";
    llvm::raw_string_ostream os(declarations);
    os << type << " */\n";
    declarations += returnType + " _mlir_ciface_" + fn.getName().str() + "(" +
                    (params.empty() ? "void" : params) + ");\n\n";
    return success();
  }

  std::string finish(StringRef guard, StringRef runtimeLibrary) const {
    std::string out;
    llvm::raw_string_ostream os(out);
    os << "/* Generated by kiln-compile --emit-header: the C interface of the "
          "object file.\n"
          " * Link the object with "
       << runtimeLibrary
       << " (and libkiln_runner_utils.a\n"
          " * when the program prints), -lstdc++ and -lm. Memrefs are passed "
          "as pointers\n"
          " * to descriptors: {allocated, aligned, offset, sizes[rank], "
          "strides[rank]},\n"
          " * sizes and strides in elements. */\n"
       << "#ifndef " << guard << "\n#define " << guard << "\n\n"
       << "#include <stdbool.h>\n#include <stdint.h>\n\n"
       << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
    for (const auto &[name, fields] : structs)
      os << "#ifndef " << llvm::StringRef(name).upper() << "_DEFINED\n#define "
         << llvm::StringRef(name).upper() << "_DEFINED\nstruct " << name
         << " {\n"
         << fields << "};\n#endif\n\n";
    os << declarations << "#ifdef __cplusplus\n}\n#endif\n\n#endif /* "
       << guard << " */\n";
    return out;
  }

private:
  /// Struct definitions in first-use order, which is also the order C needs.
  void define(const std::string &name, const std::string &fields) {
    if (defined.insert(name).second)
      structs.push_back({name, fields});
  }
  llvm::StringSet<> defined;
  std::vector<std::pair<std::string, std::string>> structs;
  std::string declarations;
};
} // namespace

FailureOr<std::string> aot::emitCHeader(ModuleOp module,
                                        StringRef runtimeLibrary,
                                        StringRef guardName) {
  CHeaderWriter writer;
  bool any = false;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn.isPublic() || fn.isExternal())
      continue;
    if (failed(writer.declare(fn)))
      return failure();
    any = true;
  }
  if (!any)
    return module.emitError("no public function to declare in a C header");
  return writer.finish(guardName, runtimeLibrary);
}

//===----------------------------------------------------------------------===//
// LLVM IR and code generation
//===----------------------------------------------------------------------===//

llvm::CodeGenOptLevel aot::codeGenOptLevel(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 2:
    return llvm::CodeGenOptLevel::Default;
  default:
    return llvm::CodeGenOptLevel::Aggressive;
  }
}

FailureOr<std::unique_ptr<llvm::TargetMachine>>
aot::createHostTargetMachine(unsigned optLevel, std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return failure();
  // A generic CPU: executables run on machines other than the one that built
  // them. PIC: Debian's compiler drivers link position-independent
  // executables. Constructors (which load the GPU binaries) go to
  // .init_array, as every current ELF toolchain expects.
  llvm::TargetOptions options;
  options.UseInitArray = true;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, "generic", "", options, llvm::Reloc::PIC_, std::nullopt,
      codeGenOptLevel(optLevel)));
  if (!tm) {
    error = "cannot create a target machine for " + triple.str();
    return failure();
  }
  return tm;
}

std::unique_ptr<llvm::Module> aot::translateToLLVMIR(ModuleOp module,
                                                     llvm::LLVMContext &context,
                                                     llvm::TargetMachine &tm) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return nullptr;
  llvmModule->setDataLayout(tm.createDataLayout());
  llvmModule->setTargetTriple(tm.getTargetTriple());
  for (llvm::Function &fn : *llvmModule) {
    if (fn.isDeclaration())
      continue;
    if (llvmModule->getFunction(("_mlir_ciface_" + fn.getName()).str()))
      fn.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  return llvmModule;
}

/// Takes the functions out of llvm.global_ctors or llvm.global_dtors, in the
/// order their priorities give.
static SmallVector<llvm::Function *> takeStructors(llvm::Module &module,
                                                  StringRef name) {
  llvm::GlobalVariable *list = module.getNamedGlobal(name);
  if (!list)
    return {};
  SmallVector<std::pair<uint64_t, llvm::Function *>> entries;
  if (auto *array = dyn_cast_or_null<llvm::ConstantArray>(
          list->hasInitializer() ? list->getInitializer() : nullptr)) {
    for (llvm::Value *operand : array->operands()) {
      auto *entry = cast<llvm::ConstantStruct>(operand);
      uint64_t priority =
          cast<llvm::ConstantInt>(entry->getOperand(0))->getZExtValue();
      if (auto *fn = dyn_cast<llvm::Function>(
              entry->getOperand(1)->stripPointerCasts()))
        entries.push_back({priority, fn});
    }
  }
  list->eraseFromParent();
  // By priority, equal ones in list order (an insertion sort: the lists
  // are short, and std::stable_sort uses a buffer API that libstdc++ 12
  // deprecates).
  for (size_t i = 1; i < entries.size(); ++i)
    for (size_t j = i; j > 0 && entries[j].first < entries[j - 1].first; --j)
      std::swap(entries[j], entries[j - 1]);
  return llvm::to_vector(llvm::make_second_range(entries));
}

static void defineCaller(llvm::Module &module, StringRef name,
                         ArrayRef<llvm::Function *> callees) {
  llvm::LLVMContext &ctx = module.getContext();
  auto *fn = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false),
      llvm::GlobalValue::ExternalLinkage, name, module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", fn));
  for (llvm::Function *callee : callees)
    b.CreateCall(callee);
  b.CreateRetVoid();
}

FailureOr<KilnAOTResultKind>
aot::addExecutableEntry(llvm::Module &module, StringRef entry,
                        std::string &error) {
  llvm::Function *fn = module.getFunction(entry);
  if (!fn || fn->isDeclaration()) {
    error = "entry point '@" + entry.str() + "' is not defined in the input";
    return failure();
  }
  if (fn->arg_size() != 0) {
    error = "entry point '@" + entry.str() + "' takes " +
            std::to_string(fn->arg_size()) +
            " arguments; an entry point takes none (call it from C through "
            "kiln-compile --emit=obj and --emit-header instead)";
    return failure();
  }
  llvm::Type *result = fn->getReturnType();
  KilnAOTResultKind kind;
  if (result->isVoidTy())
    kind = KILN_AOT_RESULT_VOID;
  else if (result->isIntegerTy(32))
    kind = KILN_AOT_RESULT_I32;
  else if (result->isIntegerTy(64))
    kind = KILN_AOT_RESULT_I64;
  else if (result->isFloatTy())
    kind = KILN_AOT_RESULT_F32;
  else {
    std::string spelled;
    llvm::raw_string_ostream os(spelled);
    result->print(os);
    error = "entry point '@" + entry.str() + "' returns " + spelled +
            "; an entry point returns nothing, i32, i64 or f32";
    return failure();
  }
  // AOTMain.cpp defines main(); an entry point of that name must not clash.
  fn->setLinkage(llvm::GlobalValue::InternalLinkage);

  defineCaller(module, KILN_AOT_INIT_NAME,
               takeStructors(module, "llvm.global_ctors"));
  defineCaller(module, KILN_AOT_FINI_NAME,
               takeStructors(module, "llvm.global_dtors"));

  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  auto *run = llvm::Function::Create(
      llvm::FunctionType::get(i32, {llvm::PointerType::get(ctx, 0)}, false),
      llvm::GlobalValue::ExternalLinkage, KILN_AOT_RUN_NAME, module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", run));
  llvm::Value *value = b.CreateCall(fn);
  if (kind != KILN_AOT_RESULT_VOID)
    b.CreateStore(value, run->getArg(0));
  b.CreateRet(llvm::ConstantInt::get(i32, kind));
  return kind;
}

void aot::optimize(llvm::Module &module, llvm::TargetMachine &tm,
                   unsigned optLevel) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  llvm::OptimizationLevel level = levels[std::min(optLevel, 3u)];
  llvm::ModulePassManager mpm = optLevel == 0
                                    ? pb.buildO0DefaultPipeline(level)
                                    : pb.buildPerModuleDefaultPipeline(level);
  mpm.run(module, mam);
}

LogicalResult aot::emitObject(llvm::Module &module, llvm::TargetMachine &tm,
                              llvm::raw_pwrite_stream &os, std::string &error) {
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr,
                             llvm::CodeGenFileType::ObjectFile)) {
    error = "the target machine cannot emit object files";
    return failure();
  }
  pm.run(module);
  return success();
}

//===----------------------------------------------------------------------===//
// Linking
//===----------------------------------------------------------------------===//

std::string aot::libDirBesideTool(const char *argv0) {
  // Any address in the executable will do; this library is linked into it.
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&aot::libDirBesideTool));
  SmallString<256> dir(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(dir, "lib");
  return std::string(dir);
}

LogicalResult aot::linkExecutable(StringRef objectFile, StringRef output,
                                  const LinkOptions &options,
                                  std::string &error) {
  std::string linker = options.linker;
#ifdef KILN_AOT_SANITIZE_LINKER
  // A sanitizer build's runtimes need its compiler's sanitizer runtimes.
  if (linker.empty())
    linker = KILN_AOT_SANITIZE_LINKER;
#endif
  if (linker.empty()) {
    for (StringRef candidate : {"c++", "g++", "clang++"}) {
      if (llvm::ErrorOr<std::string> path =
              llvm::sys::findProgramByName(candidate)) {
        linker = *path;
        break;
      }
    }
    if (linker.empty()) {
      error = "no C++ compiler driver to link with (looked for c++, g++ and "
              "clang++ on PATH); install g++ or pass --linker=PATH";
      return failure();
    }
  } else if (!llvm::sys::fs::can_execute(linker)) {
    // A name is looked up on PATH; a path must name an executable.
    bool isPath = linker.find('/') != std::string::npos;
    llvm::ErrorOr<std::string> path = llvm::sys::findProgramByName(linker);
    if (isPath || !path) {
      error = "linker '" + linker + "' not found";
      return failure();
    }
    linker = *path;
  }

  SmallVector<std::string> libraries;
  bool cuda = options.target == "cuda";
  bool cpu = options.target == "spirv-cpu";
  for (StringRef name : {cuda  ? "libkiln_aot_main_cuda.a"
                         : cpu ? "libkiln_aot_main_spirv_cpu.a"
                               : "libkiln_aot_main.a",
                         "libkiln_runner_utils.a",
                         cuda  ? "libkiln_cuda_runtime.a"
                         : cpu ? "libkiln_spirv_cpu_runtime.a"
                               : "libkiln_vulkan_runtime.a"}) {
    SmallString<256> path(options.runtimeDir);
    llvm::sys::path::append(path, name);
    if (!llvm::sys::fs::exists(path)) {
      error = "cannot find Kiln's runtime library '" + path.str().str() +
              "' (set the folder with --runtime-dir)";
      return failure();
    }
    libraries.push_back(path.str().str());
  }

  // Link into a temporary next to the output, renamed over it at the end:
  // nothing partial is left at `output` when linking fails. A symbolic link
  // is followed (the file it names is written, the link stays), and what is
  // not a regular file (/dev/null, a pipe) is written into, never replaced.
  SmallString<256> target(output);
  llvm::sys::fs::file_status st;
  for (int links = 0; !llvm::sys::fs::status(target, st, /*Follow=*/false) &&
                      st.type() == llvm::sys::fs::file_type::symlink_file;
       ++links) {
    char buffer[4096];
    ssize_t n = ::readlink(target.c_str(), buffer, sizeof(buffer));
    if (n <= 0 || n == ssize_t(sizeof(buffer)) || links == 40) {
      error = "cannot follow the symbolic link '" + output.str() + "'";
      return failure();
    }
    StringRef next(buffer, size_t(n));
    if (llvm::sys::path::is_absolute(next)) {
      target = next;
    } else {
      llvm::sys::path::remove_filename(target);
      llvm::sys::path::append(target, next);
    }
  }
  bool special = !llvm::sys::fs::status(target, st) &&
                 st.type() != llvm::sys::fs::file_type::regular_file;
  if (special && st.type() == llvm::sys::fs::file_type::directory_file) {
    error = "cannot write '" + output.str() + "': it is a directory";
    return failure();
  }
  SmallString<256> temporary;
  if (std::error_code ec = special ? llvm::sys::fs::createTemporaryFile(
                                         "kiln-link", "exe", temporary)
                                   : llvm::sys::fs::createUniqueFile(
                                         target + ".link-%%%%%%", temporary)) {
    error = "cannot create a file next to '" + output.str() +
            "': " + ec.message();
    return failure();
  }
  SmallVector<std::string> args = {linker, "-o", temporary.str().str(),
                                   objectFile.str()};
  llvm::append_range(args, libraries);
  // --as-needed: glibc 2.34+ has dlopen in libc, and libdl must not become a
  // dependency where it is only a stub.
  llvm::append_range(args, SmallVector<std::string>{
                               "-Wl,--as-needed", "-Wl,--gc-sections", "-ldl",
                               "-lm", "-pthread", "-static-libgcc"});
  if (options.staticCxxRuntime)
    args.push_back("-static-libstdc++");
#ifdef KILN_AOT_SANITIZE_LINKER
  args.push_back("-fsanitize=address,undefined");
#endif
  if (options.strip)
    args.push_back("-s");
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::string message;
  int status = llvm::sys::ExecuteAndWait(linker, argRefs, std::nullopt, {}, 0,
                                         0, &message);
  if (status != 0) {
    llvm::sys::fs::remove(temporary);
    error = "linking '" + output.str() + "' failed: '" + linker + "' " +
            (status < 0 ? "could not run: " + message
                        : "exited with status " + std::to_string(status));
    return failure();
  }
  llvm::FileRemover removeTemporary(temporary);
  if (special) {
    auto linked = llvm::MemoryBuffer::getFile(temporary, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    std::error_code ec = linked.getError();
    if (!ec) {
      llvm::raw_fd_ostream os(target, ec, llvm::sys::fs::OF_None);
      if (!ec) {
        os << (*linked)->getBuffer();
        os.close();
        if (os.has_error())
          ec = os.error();
      }
    }
    if (ec) {
      error = "cannot write '" + output.str() + "': " + ec.message();
      return failure();
    }
    return success();
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, target)) {
    error = "cannot write '" + output.str() + "': " + ec.message();
    return failure();
  }
  removeTemporary.releaseFile();
  return success();
}
