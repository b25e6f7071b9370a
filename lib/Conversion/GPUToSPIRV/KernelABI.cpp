//===- KernelABI.cpp - Assign the Vulkan ABI of every kernel --------------===//
//
// Derives spirv.entry_point_abi from the launches, spirv.interface_var_abi for
// memref arguments, and Kiln's push-constant layout (docs/abi.md).
//
//===----------------------------------------------------------------------===//

#include "kiln/Target/SPIRV/TargetEnvs.h"
#include "MemorySpaces.h"
#include "kiln/Conversion/GPUToSPIRV/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRV.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace kiln {
#define GEN_PASS_DEF_KILNSPIRVKERNELABI
#include "kiln/Conversion/GPUToSPIRV/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;
using container::ArgInfo;
using container::ArgKind;
using container::ScalarType;

std::optional<spirv::StorageClass> kiln::mapMemorySpace(Attribute space) {
  if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space)) {
    switch (gpuSpace.getValue()) {
    case gpu::AddressSpace::Global:
      return spirv::StorageClass::StorageBuffer;
    case gpu::AddressSpace::Workgroup:
      return spirv::StorageClass::Workgroup;
    case gpu::AddressSpace::Private:
      return spirv::StorageClass::Function;
    }
  }
  if (auto storage = dyn_cast_or_null<spirv::StorageClassAttr>(space))
    return storage.getValue();
  return spirv::mapMemorySpaceToVulkanStorageClass(space);
}

bool kiln::needsMetadata(MemRefType type) {
  return !type.hasStaticShape() || !type.getLayout().isIdentity();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
/// A launch's block size: a value per dimension, or nullopt when it is
/// known only at run time.
struct LaunchInfo {
  mutable gpu::LaunchFuncOp op;
  std::optional<std::array<int64_t, 3>> blockSize;
};

class KernelABIPass : public kiln::impl::KilnSPIRVKernelABIBase<KernelABIPass> {
public:
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult assignWorkgroupSize(gpu::GPUFuncOp kernel,
                                    spirv::TargetEnvAttr env,
                                    ArrayRef<LaunchInfo> launches);
  LogicalResult checkWorkgroupMemory(gpu::GPUFuncOp kernel,
                                     spirv::TargetEnvAttr env);
  /// `variant`: the kernel is the address variant of another, and binds
  /// every memref argument of unknown extent by address.
  LogicalResult assignArguments(gpu::GPUFuncOp kernel, spirv::TargetEnvAttr env,
                                bool variant);
  /// Under `auto`, a kernel with memref arguments of unknown extent gets an
  /// address variant, launched instead when a buffer exceeds the device's
  /// descriptor range; returns it, or null when the kernel needs none.
  gpu::GPUFuncOp makeAddressVariant(gpu::GPUFuncOp kernel,
                                    spirv::TargetEnvAttr env);
  /// Whether memref argument `argNumber` binds by device address (`bound`:
  /// the program gave its binding); an error under `always` where the
  /// target env cannot, a warning under `auto` for a large one.
  FailureOr<bool> bindsByAddress(gpu::GPUFuncOp kernel, unsigned argNumber,
                                 MemRefType memref, unsigned elementBytes,
                                 bool bound, spirv::TargetEnvAttr env,
                                 StringRef missing, bool variant);

  enum class Addressing { Never, Auto, Always };
  Addressing addressing = Addressing::Auto;
};
} // namespace

static std::string formatSize(ArrayRef<int64_t> size) {
  std::string s = "(";
  for (auto [i, v] : llvm::enumerate(size))
    s += (i ? ", " : "") + std::to_string(v);
  return s + ")";
}

LogicalResult KernelABIPass::assignWorkgroupSize(gpu::GPUFuncOp kernel,
                                                 spirv::TargetEnvAttr env,
                                                 ArrayRef<LaunchInfo> launches) {
  MLIRContext *ctx = kernel.getContext();
  spirv::ResourceLimitsAttr limits = env.getResourceLimits();
  int64_t maxInvocations = limits.getMaxComputeWorkgroupInvocations();
  SmallVector<int64_t, 3> maxSize;
  for (Attribute a : limits.getMaxComputeWorkgroupSize())
    maxSize.push_back(cast<IntegerAttr>(a).getInt());

  // Checks `size` against the target env at `op`.
  auto checkLimits = [&](Operation *op, ArrayRef<int64_t> size) -> LogicalResult {
    static const char *dims[] = {"x", "y", "z"};
    int64_t product = 1;
    for (unsigned d = 0; d < 3; ++d) {
      if (size[d] < 1)
        return op->emitError("block size ")
               << formatSize(size) << " of kernel '" << kernel.getName()
               << "' is not positive";
      if (d < maxSize.size() && size[d] > maxSize[d])
        return op->emitError("block size ")
               << formatSize(size) << " of kernel '" << kernel.getName()
               << "' is above the target env's limit in " << dims[d] << ": "
               << size[d] << " > " << maxSize[d]
               << " (max_compute_workgroup_size); "
               << kiln::describeTargetEnv(env);
      product *= size[d];
    }
    if (product > maxInvocations)
      return op->emitError("block size ")
             << formatSize(size) << " of kernel '" << kernel.getName()
             << "' has " << product
             << " invocations, above the target env's limit of "
             << maxInvocations << " (max_compute_workgroup_invocations); "
             << kiln::describeTargetEnv(env);
    return success();
  };

  StringRef abiName = spirv::getEntryPointABIAttrName();
  if (auto existing = kernel->getAttrOfType<spirv::EntryPointABIAttr>(abiName)) {
    // The attribute wins; a launch with a different constant block size would
    // run the kernel with the wrong number of threads, so it is an error.
    DenseI32ArrayAttr wg = existing.getWorkgroupSize();
    if (!wg)
      return kernel.emitError("kernel '")
             << kernel.getName()
             << "' has a spirv.entry_point_abi without workgroup_size";
    SmallVector<int64_t, 3> size(wg.asArrayRef().begin(),
                                 wg.asArrayRef().end());
    size.resize(3, 1);
    if (failed(checkLimits(kernel, size)))
      return failure();
    for (const LaunchInfo &l : launches)
      if (l.blockSize && ArrayRef<int64_t>(*l.blockSize) != ArrayRef(size))
        return l.op.emitError("block size ")
               << formatSize(*l.blockSize) << " differs from the workgroup size "
               << formatSize(size) << " in the spirv.entry_point_abi of kernel '"
               << kernel.getName() << "'";
    return success();
  }

  std::optional<std::array<int64_t, 3>> chosen;
  Operation *chosenAt = nullptr;
  for (const LaunchInfo &l : launches) {
    if (!l.blockSize)
      return l.op.emitError("block size of kernel '")
             << kernel.getName()
             << "' is not a compile-time constant; a Vulkan compute pipeline "
                "fixes the workgroup size when it is created: launch it with "
                "constant block sizes or give the kernel a "
                "spirv.entry_point_abi with workgroup_size";
    if (!chosen) {
      chosen = l.blockSize;
      chosenAt = l.op;
      continue;
    }
    if (*chosen != *l.blockSize) {
      InFlightDiagnostic diag =
          l.op.emitError("kernel '")
          << kernel.getName() << "' is launched with block size "
          << formatSize(*l.blockSize) << " here and "
          << formatSize(*chosen)
          << " elsewhere; a SPIR-V entry point has one workgroup size";
      diag.attachNote(chosenAt->getLoc()) << "other launch here";
      return diag;
    }
  }
  if (!chosen) {
    if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize()) {
      std::array<int64_t, 3> size = {1, 1, 1};
      for (auto [i, v] : llvm::enumerate(*known))
        if (i < 3)
          size[i] = v;
      chosen = size;
      chosenAt = kernel;
    }
  }
  if (!chosen)
    return kernel.emitError("kernel '")
           << kernel.getName()
           << "' has no launch with a constant block size and no "
              "spirv.entry_point_abi; give it "
              "spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size "
              "= [X, Y, Z]>";
  if (failed(checkLimits(chosenAt, *chosen)))
    return failure();
  SmallVector<int32_t, 3> wg(chosen->begin(), chosen->end());
  kernel->setAttr(abiName,
                  spirv::getEntryPointABIAttr(ctx, wg, std::nullopt));
  return success();
}

LogicalResult KernelABIPass::checkWorkgroupMemory(gpu::GPUFuncOp kernel,
                                                  spirv::TargetEnvAttr env) {
  int64_t limit = env.getResourceLimits().getMaxComputeSharedMemorySize();
  int64_t total = 0;
  auto add = [&](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref || !memref.hasStaticShape())
      return;
    total += memref.getNumElements() *
             std::max(1u, getElementBytes(memref.getElementType()));
  };
  for (BlockArgument arg : kernel.getWorkgroupAttributions())
    add(arg.getType());
  kernel.walk([&](memref::AllocOp alloc) {
    if (mapMemorySpace(alloc.getType().getMemorySpace()) ==
        spirv::StorageClass::Workgroup)
      add(alloc.getType());
  });
  if (total > limit)
    return kernel.emitError("kernel '")
           << kernel.getName() << "' uses " << total
           << " bytes of workgroup memory, above the target env's limit of "
           << limit << " (max_compute_shared_memory_size); "
           << kiln::describeTargetEnv(env);
  return success();
}

/// The storage-buffer range every Vulkan device binds (the spec's minimum
/// maxStorageBufferRange): a static buffer above it binds by address under
/// `buffer-device-address=auto`.
static constexpr int64_t kGuaranteedStorageBufferRange = int64_t(1) << 27;

/// What the target env lacks for binding memrefs by buffer device address,
/// or an empty string.
static std::string missingForAddresses(spirv::TargetEnvAttr env) {
  spirv::TargetEnv target(env);
  SmallVector<std::string> missing;
  if (!target.allows(spirv::Capability::PhysicalStorageBufferAddresses))
    missing.push_back("capability PhysicalStorageBufferAddresses");
  if (target.getVersion() < spirv::Version::V_1_5 &&
      !target.allows(spirv::Extension::SPV_KHR_physical_storage_buffer))
    missing.push_back("extension SPV_KHR_physical_storage_buffer");
  if (!target.allows(spirv::Capability::Int64))
    missing.push_back("capability Int64");
  return llvm::join(missing, ", ");
}

/// The bytes a memref argument can reach, or -1 when only its run-time
/// sizes or strides tell.
static int64_t extentBytes(MemRefType memref, unsigned elementBytes) {
  if (!memref.hasStaticShape())
    return -1;
  if (memref.getLayout().isIdentity())
    return memref.getNumElements() * int64_t(elementBytes);
  int64_t offset;
  SmallVector<int64_t> strides;
  if (failed(memref.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return -1;
  int64_t last = offset;
  for (auto [size, stride] : llvm::zip(memref.getShape(), strides)) {
    if (size == 0)
      return 0;
    last += (size - 1) * std::abs(stride);
  }
  return (last + 1) * int64_t(elementBytes);
}

/// Whether the kernel has a memref argument the runtime may find above a
/// device's descriptor range: one of unknown extent that the program does
/// not bind itself.
static bool hasUnboundedArgument(gpu::GPUFuncOp kernel) {
  StringRef varABIName = spirv::getInterfaceVarABIAttrName();
  for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
    auto memref = dyn_cast<MemRefType>(kernel.getArgument(i).getType());
    if (memref && !kernel.getArgAttr(i, varABIName) &&
        extentBytes(memref,
                    std::max(1u, getElementBytes(memref.getElementType()))) < 0)
      return true;
  }
  return false;
}

gpu::GPUFuncOp KernelABIPass::makeAddressVariant(gpu::GPUFuncOp kernel,
                                                 spirv::TargetEnvAttr env) {
  if (addressing != Addressing::Auto || !missingForAddresses(env).empty() ||
      !hasUnboundedArgument(kernel))
    return nullptr;
  auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
  SymbolTable symbols(gpuModule);
  std::string name = (kernel.getName() + kAddressVariantSuffix).str();
  for (unsigned n = 1; symbols.lookup(name); ++n)
    name = (kernel.getName() + kAddressVariantSuffix + Twine(n)).str();
  OpBuilder b(kernel->getContext());
  b.setInsertionPointAfter(kernel);
  auto variant = cast<gpu::GPUFuncOp>(b.clone(*kernel));
  variant.setName(name);
  kernel->setAttr(kAddressVariantAttrName,
                  FlatSymbolRefAttr::get(variant.getNameAttr()));
  variant->setAttr(kAddressVariantOfAttrName,
                   FlatSymbolRefAttr::get(kernel.getNameAttr()));
  return variant;
}

/// The checks of memref argument `arg` whose elements are `elementBytes`
/// (0: no storage buffer can hold them): global memory, and strided of rank
/// 1 to 4 where the kernel needs its metadata.
static LogicalResult checkMemRefArgument(gpu::GPUFuncOp kernel,
                                         BlockArgument arg, MemRefType memref,
                                         unsigned elementBytes) {
  if (!elementBytes)
    return kernel.emitError("kernel '")
           << kernel.getName() << "' argument " << arg.getArgNumber()
           << " has element type " << memref.getElementType()
           << ", which a Vulkan storage buffer cannot hold";
  if (Attribute space = memref.getMemorySpace();
      mapMemorySpace(space) != spirv::StorageClass::StorageBuffer)
    return kernel.emitError("kernel '")
           << kernel.getName() << "' argument " << arg.getArgNumber()
           << " is in memory space " << space
           << "; kernel memref arguments must be global memory";
  if (needsMetadata(memref)) {
    int64_t off;
    SmallVector<int64_t> strides;
    if (memref.getRank() > 4 ||
        failed(memref.getStridesAndOffset(strides, off)))
      return kernel.emitError("kernel '")
             << kernel.getName() << "' argument " << arg.getArgNumber()
             << " of type " << memref
             << " is not supported: memrefs with dynamic shapes or "
                "layouts must be strided and of rank 1 to 4";
  }
  return success();
}

/// Scalar argument `arg`: its type code and push-constant size in `info`.
static LogicalResult describeScalar(gpu::GPUFuncOp kernel, BlockArgument arg,
                                    bool use64BitIndex, ArgInfo &info) {
  Type type = arg.getType();
  info.kind = ArgKind::Scalar;
  info.scalarType = getScalarType(type);
  if (info.scalarType == ScalarType::None)
    return kernel.emitError("kernel '")
           << kernel.getName() << "' argument " << arg.getArgNumber()
           << " has type " << type
           << "; scalar arguments must be integers of 1 to 64 bits, "
              "f16, f32, f64 or index";
  bool wide = info.scalarType == ScalarType::I64 ||
              info.scalarType == ScalarType::F64 ||
              (info.scalarType == ScalarType::Index && use64BitIndex);
  info.size = wide ? 8 : 4;
  return success();
}

FailureOr<bool> KernelABIPass::bindsByAddress(gpu::GPUFuncOp kernel,
                                              unsigned argNumber,
                                              MemRefType memref,
                                              unsigned elementBytes, bool bound,
                                              spirv::TargetEnvAttr env,
                                              StringRef missing, bool variant) {
  // By device address: every argument under `always`, large static ones
  // under `auto`. A binding the program gives stays a descriptor.
  if (bound || addressing == Addressing::Never)
    return false;
  int64_t bytes = extentBytes(memref, elementBytes);
  bool large = bytes > kGuaranteedStorageBufferRange || (variant && bytes < 0);
  if (addressing == Addressing::Always && !missing.empty())
    return kernel.emitError("kernel '")
           << kernel.getName() << "' argument " << argNumber
           << " cannot bind by buffer device address "
              "(buffer-device-address=always): the target env lacks "
           << missing << "; " << kiln::describeTargetEnv(env);
  if (addressing == Addressing::Auto && large && !missing.empty())
    kernel.emitWarning("kernel '")
        << kernel.getName() << "' argument " << argNumber << " holds " << bytes
        << " bytes, above the 128 MiB every Vulkan device binds as a "
           "storage buffer, and the target env lacks "
        << missing
        << " to bind it by address: it runs only on devices whose "
           "maxStorageBufferRange holds it; "
        << kiln::describeTargetEnv(env);
  return missing.empty() && (addressing == Addressing::Always || large);
}

LogicalResult KernelABIPass::assignArguments(gpu::GPUFuncOp kernel,
                                             spirv::TargetEnvAttr env,
                                             bool variant) {
  MLIRContext *ctx = kernel.getContext();
  std::string missing = missingForAddresses(env);
  KernelABI abi;
  abi.indexBits = use64BitIndex ? 64 : 32;
  unsigned offset = 0;
  auto place = [&](unsigned bytes, unsigned align) {
    offset = llvm::alignTo(offset, align);
    unsigned at = offset;
    offset += bytes;
    return at;
  };

  StringRef varABIName = spirv::getInterfaceVarABIAttrName();
  // Bindings already claimed by user-given interface_var_abi attributes.
  llvm::DenseSet<std::pair<unsigned, unsigned>> taken;
  for (unsigned i = 0; i < kernel.getNumArguments(); ++i)
    if (auto a =
            kernel.getArgAttrOfType<spirv::InterfaceVarABIAttr>(i, varABIName))
      if (!taken.insert({a.getDescriptorSet(), a.getBinding()}).second)
        return kernel.emitError("kernel '")
               << kernel.getName() << "' binds two arguments at (set "
               << a.getDescriptorSet() << ", binding " << a.getBinding() << ")";

  unsigned bufferIndex = 0;
  // Not getArguments(): the entry block also holds workgroup and private
  // attributions.
  for (unsigned argIndex = 0; argIndex < kernel.getNumArguments(); ++argIndex) {
    BlockArgument arg = kernel.getArgument(argIndex);
    Type type = arg.getType();
    ArgInfo info;
    if (auto memref = dyn_cast<MemRefType>(type)) {
      info.kind = ArgKind::MemRef;
      info.size = getElementBytes(memref.getElementType());
      info.rank = memref.getRank();
      if (failed(checkMemRefArgument(kernel, arg, memref, info.size)))
        return failure();
      bool metadata = needsMetadata(memref);
      auto varABI = kernel.getArgAttrOfType<spirv::InterfaceVarABIAttr>(
          arg.getArgNumber(), varABIName);
      FailureOr<bool> byAddress =
          bindsByAddress(kernel, arg.getArgNumber(), memref, info.size,
                         !!varABI, env, missing, variant);
      if (failed(byAddress))
        return failure();
      if (*byAddress) {
        info.kind = metadata ? ArgKind::StridedAddress : ArgKind::Address;
        info.pushConstantOffset = place(
            8 + (metadata ? (1 + 2 * info.rank) * abi.indexBytes() : 0), 8);
        abi.args.push_back(info);
        continue;
      }
      if (metadata)
        info.pushConstantOffset = place(
            (1 + 2 * info.rank) * abi.indexBytes(), abi.indexBytes());
      // An identity layout fixes the offset at 0: the runtime binds the
      // buffer at the first element and the kernel adds no offset
      // (docs/abi.md).
      if (metadata && memref.getLayout().isIdentity())
        info.kind = ArgKind::IdentityMemRef;
      if (!varABI) {
        // Its position among the buffers, or the next binding not taken.
        unsigned binding = bufferIndex;
        while (taken.contains({0u, binding}))
          ++binding;
        varABI = spirv::getInterfaceVarABIAttr(0, binding, std::nullopt, ctx);
        taken.insert({0u, binding});
        kernel.setArgAttr(arg.getArgNumber(), varABIName, varABI);
      }
      if (varABI.getStorageClass() &&
          *varABI.getStorageClass() != spirv::StorageClass::StorageBuffer)
        return kernel.emitError("kernel '")
               << kernel.getName() << "' argument " << arg.getArgNumber()
               << " must be a StorageBuffer in its spirv.interface_var_abi";
      info.set = varABI.getDescriptorSet();
      info.binding = varABI.getBinding();
      ++bufferIndex;
    } else {
      if (failed(describeScalar(kernel, arg, use64BitIndex, info)))
        return failure();
      info.pushConstantOffset = place(info.size, info.size);
    }
    abi.args.push_back(info);
  }
  abi.pushConstantSize = llvm::alignTo(offset, 4);
  if (abi.pushConstantSize > kMaxPushConstantBytes)
    return kernel.emitError("kernel '")
           << kernel.getName() << "' needs " << abi.pushConstantSize
           << " bytes of push constants for its scalars and memref "
              "metadata, above the "
           << kMaxPushConstantBytes
           << " bytes every Vulkan device provides (maxPushConstantsSize)";
  kernel->setAttr(kKernelABIAttrName, abi.toAttr(kernel));
  return success();
}

void KernelABIPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (bufferDeviceAddress == "never") {
    addressing = Addressing::Never;
  } else if (bufferDeviceAddress == "auto") {
    addressing = Addressing::Auto;
  } else if (bufferDeviceAddress == "always") {
    addressing = Addressing::Always;
  } else {
    module.emitError("unknown buffer-device-address '")
        << bufferDeviceAddress << "'; expected never, auto or always";
    return signalPassFailure();
  }
  // Collect the launches of each kernel by its symbol.
  llvm::DenseMap<Operation *, SmallVector<LaunchInfo>> launches;
  SymbolTableCollection symbols;
  module.walk([&](gpu::LaunchFuncOp launch) {
    Operation *kernel =
        symbols.lookupNearestSymbolFrom(launch, launch.getKernelAttr());
    if (!kernel)
      return;
    LaunchInfo info{launch, std::nullopt};
    std::array<int64_t, 3> size;
    bool constant = true;
    Value dims[] = {launch.getBlockSizeX(), launch.getBlockSizeY(),
                    launch.getBlockSizeZ()};
    for (unsigned d = 0; d < 3; ++d) {
      std::optional<int64_t> c = getConstantIntValue(dims[d]);
      constant &= c.has_value();
      size[d] = c.value_or(0);
    }
    if (constant)
      info.blockSize = size;
    launches[kernel].push_back(info);
  });

  bool failed = false;
  module.walk([&](gpu::GPUModuleOp gpuModule) {
    spirv::TargetEnvAttr env = spirv::lookupTargetEnv(gpuModule);
    if (!env)
      return;
    // (Collected first: address variants are inserted as it goes.)
    SmallVector<gpu::GPUFuncOp> kernels(gpuModule.getOps<gpu::GPUFuncOp>());
    for (gpu::GPUFuncOp kernel : kernels) {
      if (!kernel.isKernel())
        continue;
      if (mlir::failed(
              assignWorkgroupSize(kernel, env, launches.lookup(kernel))) ||
          mlir::failed(checkWorkgroupMemory(kernel, env))) {
        failed = true;
        continue;
      }
      gpu::GPUFuncOp variant = makeAddressVariant(kernel, env);
      if (mlir::failed(assignArguments(kernel, env, false)) ||
          (variant && mlir::failed(assignArguments(variant, env, true))))
        failed = true;
    }
  });
  if (failed)
    signalPassFailure();
}
