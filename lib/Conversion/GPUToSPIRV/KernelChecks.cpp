//===- KernelChecks.cpp - Kernels no SPIR-V target can run ----------------===//
//
// Checks of each kernel of the clone before its conversion: what no SPIR-V
// target of Kiln's (Vulkan, spirv-cpu) can run is refused at the op, with the
// reason and a way out, instead of being reported only as unconverted (or,
// for narrow float buffers, converted wrongly).
//
//===----------------------------------------------------------------------===//

#include "ConversionSteps.h"
#include "MemorySpaces.h"
#include "kiln/Target/SPIRV/TargetEnvs.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

using namespace mlir;
using namespace kiln;

/// Upstream's type converter widens f16 buffers it cannot access to f32, which
/// would read the host's 16-bit data with a 32-bit stride. Refuse instead.
LogicalResult kiln::checkNarrowFloatStorage(gpu::GPUFuncOp fn,
                                            spirv::TargetEnvAttr env) {
  spirv::TargetEnv target(env);
  // Not getArguments(): the entry block also holds workgroup and private
  // attributions.
  for (unsigned argIndex = 0; argIndex < fn.getNumArguments(); ++argIndex) {
    BlockArgument arg = fn.getArgument(argIndex);
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type)
      continue;
    Type element = getElementTypeOrSelf(type.getElementType());
    if (!isa<FloatType>(element) || element.getIntOrFloatBitWidth() >= 32)
      continue;
    if (!element.isF16())
      return fn.emitError("kernel '")
             << fn.getName() << "' argument " << arg.getArgNumber()
             << " has element type " << element
             << ", which Vulkan storage buffers cannot hold";
    if (!target.allows(spirv::Capability::StorageBuffer16BitAccess) ||
        !target.allows(spirv::Extension::SPV_KHR_16bit_storage))
      return fn.emitError("kernel '")
             << fn.getName() << "' argument " << arg.getArgNumber()
             << " of type " << type
             << " cannot be accessed for this target env: it needs "
                "capability StorageBuffer16BitAccess and extension "
                "SPV_KHR_16bit_storage; "
             << describeTargetEnv(env);
  }
  return success();
}

/// Refuses memref.generic_atomic_rmw on elements SPIR-V's compare-exchange
/// cannot take, at the op, before conversion.
LogicalResult kiln::checkGenericAtomics(gpu::GPUFuncOp fn) {
  WalkResult result =
      fn.walk([&](memref::GenericAtomicRMWOp op) {
        Type element = op.getMemref().getType().getElementType();
        if (element.isInteger(32) || element.isInteger(64))
          return WalkResult::advance();
        op.emitOpError("on ")
            << element
            << " elements has no Vulkan lowering: SPIR-V's compare-exchange "
               "takes 32- and 64-bit integers only; use memref.atomic_rmw "
               "(addf where the target env has AtomicFloat32AddEXT) or an "
               "integer buffer";
        return WalkResult::interrupt();
      });
  return failure(result.wasInterrupted());
}

/// Refuses, at the op and with the reason and a way out, the ops of a kernel
/// that no SPIR-V target of Kiln's (Vulkan, spirv-cpu) can run, before the
/// conversion would report them only as unconverted.
LogicalResult kiln::checkUnsupportedOps(gpu::GPUFuncOp fn) {
  auto refuse = [](Operation *op, StringRef why) {
    op->emitError("'") << op->getName()
                       << "' cannot run on Kiln's SPIR-V targets (Vulkan, "
                          "spirv-cpu): "
                       << why;
    return WalkResult::interrupt();
  };
  auto kernelMemory = [](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref)
      return false;
    // Integer spaces as the Vulkan mapping reads them (3 is workgroup).
    std::optional<spirv::StorageClass> storage =
        kiln::mapMemorySpace(memref.getMemorySpace());
    return storage && (*storage == spirv::StorageClass::Workgroup ||
                       *storage == spirv::StorageClass::Function ||
                       *storage == spirv::StorageClass::Private);
  };
  WalkResult result = fn.walk([&](Operation *op) {
    if (isa<memref::AllocOp, memref::ReallocOp>(op) &&
        !kernelMemory(op->getResult(0).getType()))
      return refuse(op, "a Vulkan kernel cannot allocate global memory; pass "
                        "a buffer in, or use memref.alloca (private memory) "
                        "or workgroup memory");
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op);
        dealloc && !kernelMemory(dealloc.getMemref().getType()))
      return refuse(op, "a Vulkan kernel cannot allocate or free global "
                        "memory; pass a buffer in");
    if (isa<cf::AssertOp>(op))
      return refuse(op, "a Vulkan kernel cannot stop the program; write a "
                        "flag to a buffer and check it on the host, or use "
                        "--target=cuda");
    if (isa<gpu::ClusterIdOp, gpu::ClusterDimOp, gpu::ClusterBlockIdOp,
            gpu::ClusterDimBlocksOp>(op))
      return refuse(op, "Vulkan has no thread-block clusters (CUDA's, from "
                        "sm_90): use --target=cuda");
    if (isa<memref::DmaStartOp, memref::DmaWaitOp>(op))
      return refuse(op, "kernels have no DMA engine");
    if (isa<memref::ExtractAlignedPointerAsIndexOp>(op))
      return refuse(op, "Vulkan kernels have no addresses of their buffers "
                        "(logical addressing)");
    if (isa<memref::MemorySpaceCastOp>(op))
      return refuse(op, "SPIR-V's logical addressing has no generic "
                        "pointers; keep the memref in its memory space");
    if (auto rmw = dyn_cast<memref::AtomicRMWOp>(op)) {
      using K = arith::AtomicRMWKind;
      K kind = rmw.getKind();
      if (isa<FloatType>(rmw.getValue().getType()) && kind != K::addf &&
          kind != K::assign) {
        rmw.emitError("'memref.atomic_rmw' ")
            << arith::stringifyAtomicRMWKind(kind) << " on "
            << rmw.getValue().getType()
            << " cannot run on Kiln's SPIR-V targets (Vulkan, spirv-cpu): "
               "SPIR-V's float atomics are add and exchange, and its "
               "compare-exchange takes integers only; reduce in workgroup "
               "memory first (gpu.subgroup_reduce, gpu.all_reduce), use an "
               "integer atomic, or --target=cuda";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
