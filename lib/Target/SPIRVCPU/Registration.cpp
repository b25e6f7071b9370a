//===- Registration.cpp - KernelDescs and their registration --------------===//
//
// The host side of a module compiled for the CPU: for each kernel a
// KernelDesc (include/kiln/Contract/SPIRVCPUABI.h) with its name, flags,
// memory sizes, resources, workgroup variables and the source sites of its
// checks, barriers and subgroup operations, all as private constants; and
// a constructor of the host program that registers the kernels under the
// hash of the module's SPIR-V words before the gpu.binary's constructor
// loads the module.
//
//===----------------------------------------------------------------------===//

#include "SPIRVToCPUInternal.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace kiln::spirvtocpu;
namespace abi = kiln::spirvcpu;

/// A constant NUL-terminated string global; returns its name.
std::string kiln::spirvtocpu::stringGlobal(OpBuilder &b, ModuleOp module,
                                           Location loc, StringRef prefix,
                                           StringRef text) {
  SymbolTable symbols(module);
  std::string name = uniqueName(symbols, prefix);
  std::string value = text.str();
  value.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), value.size());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                         LLVM::Linkage::Private, name, b.getStringAttr(value),
                         /*alignment=*/1);
  return name;
}

namespace {
/// Each table is a private constant whose initializer starts from zero
/// and inserts its fields: i32 values and addresses of other globals.
struct Fields {
  OpBuilder &b;
  Location loc;
  Value value;
  void i32(ArrayRef<int64_t> position, uint32_t v) {
    value = LLVM::InsertValueOp::create(b, loc, value, i32Constant(b, loc, v),
                                        position);
  }
  void address(ArrayRef<int64_t> position, StringRef symbol) {
    value = LLVM::InsertValueOp::create(
        b, loc, value,
        LLVM::AddressOfOp::create(
            b, loc, LLVM::LLVMPointerType::get(b.getContext()), symbol),
        position);
  }
};

/// The tables the kernels of a module share: its sites, its workgroup
/// variables and the descriptions of its resources.
struct ModuleTables {
  std::string sitesName;
  std::string varsName;
  SmallVector<std::string> resourceTexts;
};
} // namespace

std::string kiln::spirvtocpu::uniqueName(SymbolTable &symbols, StringRef base) {
  std::string name = base.str();
  for (unsigned i = 0; symbols.lookup(name); ++i)
    name = (base + "_" + Twine(i)).str();
  return name;
}

/// A constant global named `base` (or a unique name after it, returned).
static std::string defineConstant(OpBuilder &b, ModuleOp host, Location loc,
                                  StringRef base, Type type,
                                  function_ref<void(Fields &)> fill) {
  SymbolTable symbols(host);
  std::string name = uniqueName(symbols, base);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(host.getBody());
  auto global =
      LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                             LLVM::Linkage::Private, name, Attribute());
  b.setInsertionPointToStart(b.createBlock(&global.getInitializerRegion()));
  Fields fields{b, loc, LLVM::ZeroOp::create(b, loc, type)};
  fill(fields);
  LLVM::ReturnOp::create(b, loc, fields.value);
  return name;
}

// Arrays hold at least one (zero) element, so that empty tables are valid.
static LLVM::LLVMArrayType arrayOf(Type element, size_t count) {
  return LLVM::LLVMArrayType::get(element, std::max<size_t>(1, count));
}

static ModuleTables emitModuleTables(OpBuilder &b, ModuleOp host, Location loc,
                                     const std::string &prefix,
                                     const ModuleState &state) {
  MLIRContext *ctx = host.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto i32 = b.getI32Type();
  ModuleTables tables;

  // Per module: the sites table.
  SmallVector<std::string> siteNames;
  for (auto [i, text] : llvm::enumerate(state.sites))
    siteNames.push_back(
        stringGlobal(b, host, loc, prefix + "_site_" + Twine(i).str(), text));
  tables.sitesName =
      defineConstant(b, host, loc, prefix + "_sites",
                     arrayOf(ptrType, siteNames.size()), [&](Fields &f) {
                       for (auto [i, site] : llvm::enumerate(siteNames))
                         f.address({int64_t(i)}, site);
                     });

  // Workgroup variables, shared by the kernels of the module.
  SmallVector<std::string> varTexts;
  for (auto [i, var] : llvm::enumerate(state.workgroupVars))
    varTexts.push_back(stringGlobal(
        b, host, loc, prefix + "_wg_" + Twine(i).str(), var.description));
  auto varType = LLVM::LLVMStructType::getLiteral(ctx, {i32, i32, ptrType});
  tables.varsName = defineConstant(
      b, host, loc, prefix + "_workgroup_vars",
      arrayOf(varType, state.workgroupVars.size()), [&](Fields &f) {
        for (auto [i, var] : llvm::enumerate(state.workgroupVars)) {
          int64_t at = i;
          f.i32({at, 0}, var.offset);
          f.i32({at, 1}, var.bytes);
          f.address({at, 2}, varTexts[i]);
        }
      });

  for (auto [i, r] : llvm::enumerate(state.resources))
    tables.resourceTexts.push_back(stringGlobal(
        b, host, loc, prefix + "_res_" + Twine(i).str(), r.description));
  return tables;
}

/// The KernelDesc of `kernel`, with its resources table; returns its name.
static std::string emitKernelDesc(OpBuilder &b, ModuleOp host, Location loc,
                                  const std::string &prefix,
                                  const ModuleState &state,
                                  const ModuleTables &tables,
                                  const std::string &kernel,
                                  const llvm::StringSet<> &kernelGlobals) {
  MLIRContext *ctx = host.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto i32 = b.getI32Type();
  auto resourceType =
      LLVM::LLVMStructType::getLiteral(ctx, {i32, i32, i32, i32, ptrType});
  auto descType = LLVM::LLVMStructType::getLiteral(
      ctx, {i32, i32, i32, i32, i32, i32, i32, i32, ptrType, ptrType, ptrType,
            ptrType});

  std::string kprefix = prefix + "_" + kernel;
  std::string nameGlobal =
      stringGlobal(b, host, loc, kprefix + "_name", kernel);
  std::string resourcesName = defineConstant(
      b, host, loc, kprefix + "_resources",
      arrayOf(resourceType, state.resources.size()), [&](Fields &f) {
        for (auto [i, r] : llvm::enumerate(state.resources)) {
          int64_t at = i;
          f.i32({at, 0}, uint32_t(r.kind));
          f.i32({at, 1}, r.set);
          f.i32({at, 2}, r.binding);
          f.i32({at, 3}, kernelGlobals.contains(r.symbol) ? 1 : 0);
          f.address({at, 4}, tables.resourceTexts[i]);
        }
      });

  uint32_t flags =
      (state.usesBarrier ? uint32_t(abi::kUsesBarrier) : 0u) |
      (state.usesSubgroupOps ? uint32_t(abi::kUsesSubgroupOps) : 0u) |
      (state.checked ? uint32_t(abi::kChecked) : 0u) |
      (state.bounded ? uint32_t(abi::kBounded) : 0u) |
      (state.dynamicWorkgroup ? uint32_t(abi::kDynamicWorkgroup) : 0u);
  return defineConstant(
      b, host, loc, kprefix + "_desc", descType, [&](Fields &f) {
        uint32_t counts[] = {abi::kABIVersion,
                             flags,
                             state.workgroupBytes,
                             state.privateBytes,
                             uint32_t(state.resources.size()),
                             uint32_t(state.workgroupVars.size()),
                             uint32_t(state.sites.size()),
                             state.stackBytes.lookup(kernel)};
        for (auto [i, v] : llvm::enumerate(counts))
          f.i32({int64_t(i)}, v);
        StringRef pointers[] = {nameGlobal, resourcesName, tables.varsName,
                                tables.sitesName};
        for (auto [i, target] : llvm::enumerate(pointers))
          f.address({int64_t(8 + i)}, target);
      });
}

/// The constructor that registers the module's kernels.
static void
emitConstructor(OpBuilder &b, ModuleOp host, Location loc,
                const std::string &prefix, uint64_t hash,
                ArrayRef<std::pair<std::string, std::string>> registered) {
  MLIRContext *ctx = host.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto registerType = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(ctx), {b.getI64Type(), ptrType, ptrType});
  LLVM::LLVMFuncOp registerFn =
      declareFunction(b, host, kRegisterFn, registerType);
  SymbolTable symbols(host);
  std::string ctorName = uniqueName(symbols, prefix + "_register");
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(host.getBody());
  auto ctor = LLVM::LLVMFuncOp::create(
      b, loc, ctorName,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {}),
      LLVM::Linkage::Internal);
  b.setInsertionPointToStart(ctor.addEntryBlock(b));
  Value key = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                       b.getI64IntegerAttr(int64_t(hash)));
  for (auto &[desc, fn] : registered)
    LLVM::CallOp::create(
        b, loc, registerFn,
        ValueRange{key, LLVM::AddressOfOp::create(b, loc, ptrType, desc),
                   LLVM::AddressOfOp::create(b, loc, ptrType, fn)});
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  b.setInsertionPointToEnd(host.getBody());
  // Before the gpu.binary's constructor (priority 123) loads the module.
  LLVM::GlobalCtorsOp::create(
      b, loc, b.getArrayAttr({FlatSymbolRefAttr::get(ctx, ctorName)}),
      b.getArrayAttr({b.getI32IntegerAttr(100)}),
      b.getArrayAttr({LLVM::ZeroAttr::get(ctx)}));
}

void kiln::spirvtocpu::emitRegistration(
    gpu::GPUModuleOp gpuModule, ModuleOp host, ModuleState &state,
    uint64_t hash, ArrayRef<std::string> kernels,
    const llvm::StringMap<llvm::StringSet<>> &used,
    const llvm::StringMap<std::string> &renamed) {
  MLIRContext *ctx = host.getContext();
  OpBuilder b(ctx);
  Location loc = gpuModule.getLoc();
  // The tables and the constructor are named apart from the kernels'
  // functions (`__kiln_cpu_<module>_<function>`, SPIRVToCPU.cpp), so that no
  // kernel name (`register`, `sites`) can be one of theirs.
  std::string prefix = ("__kiln_cpu." + gpuModule.getName()).str();

  ModuleTables tables = emitModuleTables(b, host, loc, prefix, state);
  SmallVector<std::pair<std::string, std::string>> registered;
  for (const std::string &kernel : kernels) {
    std::string descName = emitKernelDesc(b, host, loc, prefix, state, tables,
                                          kernel, used.lookup(kernel));
    registered.push_back({descName, renamed.lookup(kernel)});
  }
  emitConstructor(b, host, loc, prefix, hash, registered);
}
