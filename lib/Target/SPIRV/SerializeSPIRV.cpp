//===- SerializeSPIRV.cpp - Validated SPIR-V in Kiln's container ----------===//

#include "kiln/Target/SPIRV/Serialization.h"

#include "kiln/Contract/Container.h"
#include "kiln/Dialect/Kiln/KernelABI.h"
#include "kiln/Dialect/Kiln/KilnDialect.h"
#include "kiln/Target/SPIRV/Passes.h"
#include "kiln/Target/SPIRV/TargetEnvs.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "spirv-tools/libspirv.hpp"

namespace kiln {
#define GEN_PASS_DEF_KILNSERIALIZESPIRV
#include "kiln/Target/SPIRV/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// Validates `words` for `env`; on failure returns the validator's messages.
static LogicalResult validateWords(ArrayRef<uint32_t> words,
                              spirv::TargetEnvAttr env, std::string &log) {
  spvtools::SpirvTools tools(static_cast<spv_target_env>(getValidatorEnv(env)));
  tools.SetMessageConsumer([&](spv_message_level_t, const char *,
                               const spv_position_t &pos, const char *msg) {
    if (!log.empty())
      log += "\n";
    log += msg;
    (void)pos;
  });
  spvtools::ValidatorOptions options;
  return success(tools.Validate(words.data(), words.size(), options));
}

/// Capabilities that spirv-update-vce cannot infer from op definitions alone:
/// 64-bit integer atomics need Int64Atomics. Adds them to `caps`, or fails
/// at the op when the target env does not allow them.
static LogicalResult addTypeDependentCapabilities(
    spirv::ModuleOp module, spirv::TargetEnvAttr env,
    SmallVectorImpl<spirv::Capability> &caps) {
  spirv::TargetEnv target(env);
  WalkResult result = module.walk([&](Operation *op) {
    if (!op->getName().getStringRef().starts_with("spirv.Atomic") ||
        op->getNumResults() != 1 || !op->getResult(0).getType().isInteger(64))
      return WalkResult::advance();
    if (!target.allows(spirv::Capability::Int64Atomics)) {
      op->emitError("64-bit integer atomics need capability Int64Atomics, "
                    "which this target env does not have; ")
          << kiln::describeTargetEnv(env);
      return WalkResult::interrupt();
    }
    if (!llvm::is_contained(caps, spirv::Capability::Int64Atomics))
      caps.push_back(spirv::Capability::Int64Atomics);
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

bool kiln::canBranchConstructResult(Type type) {
  Type element = type;
  if (auto vector = dyn_cast<VectorType>(type))
    element = vector.getElementType();
  return isa<FloatType>(element) || element.isSignlessInteger() ||
         element.isInteger(1);
}

/// Gives every loop or selection result that a branch passes on (a phi
/// operand) a copy made just before the branch: `x + -0.0`, `x + 0` or
/// `x or false`, exact for every value, which a driver folds away. The
/// serializer defers a phi operand defined by an operation until its id
/// exists, but not one that is a construct's result.
static LogicalResult copyBranchedConstructResults(spirv::ModuleOp module) {
  SmallVector<std::pair<Operation *, unsigned>> uses;
  module.walk([&](Operation *op) {
    if (!isa<spirv::BranchOp, spirv::BranchConditionalOp>(op))
      return;
    for (OpOperand &operand : op->getOpOperands())
      if (auto result = dyn_cast<OpResult>(operand.get()))
        if (isa<spirv::LoopOp, spirv::SelectionOp>(result.getOwner()))
          uses.push_back({op, operand.getOperandNumber()});
  });
  for (auto [branch, number] : uses) {
    Value value = branch->getOperand(number);
    Type type = value.getType();
    if (!canBranchConstructResult(type))
      return branch->emitError("cannot serialize a branch that passes on a ")
             << "structured construct's result of type " << type;
    OpBuilder b(branch);
    Location loc = branch->getLoc();
    Type element = getElementTypeOrSelf(type);
    Attribute identity;
    if (isa<FloatType>(element))
      identity = b.getFloatAttr(element, -0.0);
    else if (element.isInteger(1))
      identity = b.getBoolAttr(false);
    else
      identity = b.getIntegerAttr(element, 0);
    if (auto vector = dyn_cast<VectorType>(type))
      identity = DenseElementsAttr::get(vector, identity);
    Value zero = spirv::ConstantOp::create(b, loc, type, identity);
    Value copy;
    if (isa<FloatType>(element))
      copy = spirv::FAddOp::create(b, loc, value, zero);
    else if (element.isInteger(1))
      copy = spirv::LogicalOrOp::create(b, loc, value, zero);
    else
      copy = spirv::IAddOp::create(b, loc, value, zero);
    branch->setOperand(number, copy);
  }
  return success();
}

/// The bytes a workgroup variable of `type` takes, its members and elements
/// packed (what its layout needs at least); none for a type without a size.
static std::optional<uint64_t> workgroupBytes(Type type) {
  if (type.isIntOrFloat())
    return std::max<uint64_t>(type.getIntOrFloatBitWidth() / 8, 1);
  if (auto vector = dyn_cast<VectorType>(type)) {
    std::optional<uint64_t> e = workgroupBytes(vector.getElementType());
    return e ? std::optional<uint64_t>(*e * vector.getNumElements())
             : std::nullopt;
  }
  if (auto array = dyn_cast<spirv::ArrayType>(type)) {
    std::optional<uint64_t> e = workgroupBytes(array.getElementType());
    if (!e)
      return std::nullopt;
    uint64_t stride = std::max<uint64_t>(*e, array.getArrayStride());
    return stride * array.getNumElements();
  }
  if (auto structType = dyn_cast<spirv::StructType>(type)) {
    uint64_t total = 0;
    for (Type member : structType.getElementTypes()) {
      std::optional<uint64_t> m = workgroupBytes(member);
      if (!m)
        return std::nullopt;
      total += *m;
    }
    return total;
  }
  return std::nullopt;
}

namespace {
class SerializeSPIRVPass
    : public kiln::impl::KilnSerializeSPIRVBase<SerializeSPIRVPass> {
public:
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult serializeModule(gpu::GPUModuleOp gpuModule);
};
} // namespace

LogicalResult kiln::serializeSPIRVWords(spirv::ModuleOp spvModule,
                                        SmallVectorImpl<uint32_t> &words) {
  spirv::TargetEnvAttr env = spirv::lookupTargetEnv(spvModule);
  if (!env)
    return spvModule.emitError("spirv.module has no spirv.target_env");

  // spirv-update-vce picks the lowest version the ops need, but
  // spirv-lower-abi-attrs listed the entry points' interfaces by the target
  // env's version (all globals from SPIR-V 1.4 on): declare that version.
  spirv::VerCapExtAttr vce = spvModule.getVceTriple().value_or(nullptr);
  if (vce) {
    SmallVector<spirv::Capability> caps =
        llvm::to_vector(vce.getCapabilities());
    if (failed(addTypeDependentCapabilities(spvModule, env, caps)))
      return failure();
    // spirv-update-vce names the EXT variant of the physical storage buffer
    // extension, which Vulkan ties to VK_EXT_buffer_device_address; the KHR
    // one (the same SPIR-V) is what Vulkan 1.2's bufferDeviceAddress offers.
    SmallVector<spirv::Extension> exts;
    for (spirv::Extension e : vce.getExtensions()) {
      if (e == spirv::Extension::SPV_EXT_physical_storage_buffer)
        e = spirv::Extension::SPV_KHR_physical_storage_buffer;
      if (!llvm::is_contained(exts, e))
        exts.push_back(e);
    }
    spvModule.setVceTripleAttr(
        spirv::VerCapExtAttr::get(std::max(vce.getVersion(), env.getVersion()),
                                  caps, exts, spvModule.getContext()));
  }

  // The serializer rewrites the uses of loop and selection results into
  // the values their merge yields (valid in SPIR-V, where the header
  // dominates what follows the construct, but not in MLIR's regions), so a
  // module with such results is serialized from a copy: the module stays
  // valid for later passes.
  bool constructResults =
      spvModule
          .walk([](Operation *op) {
            return isa<spirv::LoopOp, spirv::SelectionOp>(op) &&
                           op->getNumResults()
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted();
  OwningOpRef<spirv::ModuleOp> copy;
  spirv::ModuleOp serialized = spvModule;
  if (constructResults) {
    copy = cast<spirv::ModuleOp>(spvModule->clone());
    if (failed(copyBranchedConstructResults(*copy)))
      return failure();
    serialized = *copy;
  }
  spirv::SerializationOptions options;
  options.emitSymbolName = true;
  if (failed(spirv::serialize(serialized, words, options)))
    return failure();
  SmallVector<std::string> printfFormats;
  if (auto formats =
          spvModule->getAttrOfType<ArrayAttr>(kDebugPrintfFormatsAttr))
    for (Attribute f : formats)
      printfFormats.push_back(cast<StringAttr>(f).str());
  if (std::string error;
      failed(rewriteDebugPrintfCalls(words, printfFormats, error)))
    return spvModule.emitError("cannot emit debug printf: ") << error;
  if (std::string error; failed(rewriteArrayLengthCalls(words, error)))
    return spvModule.emitError("cannot read memref sizes from bindings: ")
           << error;
  bool dynamicWorkgroup = false;
  if (std::string error;
      failed(specializeDynamicWorkgroupLength(words, dynamicWorkgroup, error)))
    return spvModule.emitError("cannot size dynamic workgroup memory at "
                               "launch: ")
           << error;
  return success();
}

FailureOr<spirv::ModuleOp>
kiln::getNestedSPIRVModule(gpu::GPUModuleOp gpuModule) {
  auto spvModules = llvm::to_vector(gpuModule.getOps<spirv::ModuleOp>());
  if (spvModules.size() != 1)
    return gpuModule.emitError("GPU module '")
           << gpuModule.getName() << "' holds " << spvModules.size()
           << " spirv.modules; expected exactly one (run "
              "kiln-convert-gpu-to-spirv first)";
  return spvModules.front();
}

LogicalResult
kiln::forEachSPIRVGPUModule(Operation *root,
                            function_ref<LogicalResult(gpu::GPUModuleOp)> fn) {
  SmallVector<gpu::GPUModuleOp> modules;
  root->walk([&](gpu::GPUModuleOp m) {
    if (!m.getOps<spirv::ModuleOp>().empty())
      modules.push_back(m);
  });
  bool failed = false;
  for (gpu::GPUModuleOp m : modules)
    failed |= mlir::failed(fn(m));
  return failure(failed);
}

LogicalResult SerializeSPIRVPass::serializeModule(gpu::GPUModuleOp gpuModule) {
  FailureOr<spirv::ModuleOp> nested = getNestedSPIRVModule(gpuModule);
  if (failed(nested))
    return failure();
  spirv::ModuleOp spvModule = *nested;
  SmallVector<uint32_t> words;
  if (failed(serializeSPIRVWords(spvModule, words)))
    return failure();
  spirv::TargetEnvAttr env = spirv::lookupTargetEnv(spvModule);
  container::ModuleInfo info;
  if (validate) {
    std::string log;
    if (failed(validateWords(words, env, log)))
      return emitError(gpuModule.getLoc(), "SPIR-V of GPU module '")
             << gpuModule.getName() << "' fails validation (spirv-val "
             << "--target-env " << getValidatorEnvName(env) << "): " << log;
  }
  info.spirv.assign(words.begin(), words.end());
  // The bytes of each workgroup variable but the dynamic array.
  llvm::StringMap<uint64_t> workgroupVariables;
  for (auto global : spvModule.getOps<spirv::GlobalVariableOp>()) {
    auto ptr = cast<spirv::PointerType>(global.getType());
    if (ptr.getStorageClass() != spirv::StorageClass::Workgroup)
      continue;
    Type pointee = ptr.getPointeeType();
    if (auto wrapper = dyn_cast<spirv::StructType>(pointee);
        wrapper && wrapper.getNumElements() == 1)
      pointee = wrapper.getElementType(0);
    auto array = dyn_cast<spirv::ArrayType>(pointee);
    if (array && array.getNumElements() == container::kDynamicWorkgroupLength)
      continue;
    std::optional<uint64_t> bytes = workgroupBytes(ptr.getPointeeType());
    if (!bytes)
      return global.emitError("cannot size workgroup variable of type ")
             << ptr.getPointeeType();
    workgroupVariables[global.getSymName()] = *bytes;
  }
  // Those an entry point reaches, through the functions it calls.
  SymbolTable spvSymbols(spvModule);
  auto staticWorkgroupBytes = [&](StringRef entry) {
    SmallVector<spirv::FuncOp> work;
    llvm::SmallPtrSet<Operation *, 8> seen;
    llvm::StringSet<> used;
    if (auto fn = spvSymbols.lookup<spirv::FuncOp>(entry))
      work.push_back(fn);
    while (!work.empty()) {
      spirv::FuncOp fn = work.pop_back_val();
      if (!seen.insert(fn).second)
        continue;
      fn.walk([&](Operation *op) {
        if (auto address = dyn_cast<spirv::AddressOfOp>(op))
          used.insert(address.getVariable());
        else if (auto call = dyn_cast<spirv::FunctionCallOp>(op))
          if (auto callee = spvSymbols.lookup<spirv::FuncOp>(call.getCallee()))
            work.push_back(callee);
      });
    }
    uint64_t total = 0;
    for (const auto &v : workgroupVariables)
      if (used.contains(v.getKey()))
        total += v.getValue();
    return uint32_t(std::min<uint64_t>(total, 1u << 30));
  };

  for (auto fn : gpuModule.getOps<gpu::GPUFuncOp>()) {
    if (!fn.isKernel())
      continue;
    FailureOr<KernelABI> abi = KernelABI::read(fn);
    if (failed(abi))
      return failure();
    auto entry = fn->getAttrOfType<spirv::EntryPointABIAttr>(
        spirv::getEntryPointABIAttrName());
    if (!entry || !entry.getWorkgroupSize())
      return fn.emitError("kernel '")
             << fn.getName() << "' has no spirv.entry_point_abi";
    container::KernelInfo kernel;
    kernel.name = fn.getName().str();
    for (auto [i, s] : llvm::enumerate(entry.getWorkgroupSize().asArrayRef()))
      if (i < 3)
        kernel.workgroupSize[i] = s;
    kernel.pushConstantSize = abi->pushConstantSize;
    kernel.args = abi->args;
    kernel.staticWorkgroupBytes = staticWorkgroupBytes(kernel.name);
    if (auto bytes = fn->getAttrOfType<IntegerAttr>(
            "kiln_dynamic_workgroup_element_bytes"))
      kernel.dynamicWorkgroupElementBytes = bytes.getInt();
    info.indexBits = abi->indexBits;
    info.kernels.push_back(std::move(kernel));
  }
  // Address variants by their index (plus one).
  for (auto fn : gpuModule.getOps<gpu::GPUFuncOp>()) {
    auto variant =
        fn->getAttrOfType<FlatSymbolRefAttr>(kAddressVariantAttrName);
    if (!variant)
      continue;
    auto named = [&](StringRef name) {
      return llvm::find_if(info.kernels, [&](const container::KernelInfo &k) {
        return k.name == name;
      });
    };
    auto kernel = named(fn.getName()), target = named(variant.getValue());
    if (kernel == info.kernels.end() || target == info.kernels.end())
      return fn.emitError("kernel '")
             << fn.getName() << "' names address variant " << variant
             << ", which is not a kernel of GPU module '" << gpuModule.getName()
             << "'";
    kernel->addressVariant = uint32_t(target - info.kernels.begin()) + 1;
    std::string why;
    if (!container::checkAddressVariant(*kernel, *target, why))
      return fn.emitError("kernel '")
             << fn.getName() << "' has address variant " << variant
             << ", which " << why;
  }
  if (info.kernels.empty())
    return gpuModule.emitError("GPU module '")
           << gpuModule.getName() << "' has no kernels";

  if (!dumpDir.empty()) {
    SmallString<128> path(dumpDir.getValue());
    llvm::sys::path::append(path, gpuModule.getName() + ".spv");
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return gpuModule.emitError("cannot write '") << path << "': "
                                                   << ec.message();
    os.write(reinterpret_cast<const char *>(words.data()), words.size() * 4);
  }

  // What the runtime will check before a driver sees the module; a
  // disagreement here is the compiler's own.
  if (std::string why; !container::checkInterface(info, why))
    return gpuModule.emitError("GPU module '")
           << gpuModule.getName() << "': Kiln built a container that "
           << "disagrees with its SPIR-V (a bug in Kiln): " << why;
  std::vector<uint8_t> bytes = container::write(info);
  OpBuilder b(gpuModule);
  auto object = gpu::ObjectAttr::get(
      env, gpu::CompilationTarget::Binary,
      b.getStringAttr(StringRef(reinterpret_cast<const char *>(bytes.data()),
                                bytes.size())),
      b.getDictionaryAttr({b.getNamedAttr("format",
                                          b.getStringAttr("kiln-spirv"))}));
  gpu::BinaryOp::create(b, gpuModule.getLoc(), gpuModule.getName(),
                        /*offloadingHandler=*/nullptr,
                        ArrayRef<Attribute>{object});
  gpuModule.erase();
  return success();
}

void SerializeSPIRVPass::runOnOperation() {
  if (failed(forEachSPIRVGPUModule(getOperation(), [&](gpu::GPUModuleOp m) {
        return serializeModule(m);
      })))
    signalPassFailure();
}
