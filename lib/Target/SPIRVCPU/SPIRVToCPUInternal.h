//===- SPIRVToCPUInternal.h - Shared by the spirv-cpu lowering --*- C++ -*-===//
//
// What the files of --kiln-spirv-to-cpu share: where a SPIR-V global
// variable lives on the CPU, the state of one spirv.module's conversion
// (ModuleState), the runtime's function names, small builders, and the
// entry points of each file. Private to lib/Target/SPIRVCPU.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_SPIRVCPU_SPIRVTOCPUINTERNAL_H
#define KILN_TARGET_SPIRVCPU_SPIRVTOCPUINTERNAL_H

#include "kiln/Contract/SPIRVCPUABI.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <utility>

namespace mlir {
class DataLayout;
class RewritePatternSet;
class TypeConverter;
} // namespace mlir

/// The compiler half of the spirv-cpu target (the ABI it targets is
/// kiln::spirvcpu, include/kiln/Contract/SPIRVCPUABI.h).
namespace kiln::spirvtocpu {

/// Where a SPIR-V global variable lives on the CPU.
enum class Place { BuiltIn, Resource, PushConstants, Workgroup, Private };

struct GlobalPlace {
  Place place;
  /// Resource: its index in KernelDesc::resources. Workgroup: its index in
  /// KernelDesc::workgroupVars.
  uint32_t index = 0;
  /// BuiltIn: offset in Invocation. Workgroup, Private: offset in the block.
  uint32_t offset = 0;
};

struct Resource {
  spirvcpu::ResourceKind kind;
  uint32_t set, binding;
  std::string symbol;
  std::string description;
};

struct WorkgroupVar {
  uint32_t offset, bytes;
  std::string description;
};

/// What the conversion of one spirv.module learns and needs.
struct ModuleState {
  llvm::StringMap<GlobalPlace> globals;
  llvm::SmallVector<Resource> resources;
  llvm::SmallVector<WorkgroupVar> workgroupVars;
  uint32_t workgroupBytes = 0;
  uint32_t privateBytes = 0;
  llvm::SmallVector<std::string> sites;
  llvm::StringMap<uint32_t> siteIndex;
  bool usesBarrier = false;
  bool usesSubgroupOps = false;
  bool checked = false;
  /// Accesses of buffers and workgroup variables are bounded (the default:
  /// neither checked mode nor --unbounded-access).
  bool bounded = false;
  /// The module has dynamic workgroup memory: the last workgroup variable.
  bool dynamicWorkgroup = false;
  /// gpu.printf formats, by debug printf stub
  /// (kiln/Target/SPIRV/Serialization.h).
  llvm::SmallVector<std::string> printfFormats;
  /// Prefix of the symbols this module adds to the host module.
  std::string prefix;
  /// Per kernel: KernelDesc::stackBytes.
  llvm::StringMap<uint32_t> stackBytes;

  /// The index of `loc`'s source position in the sites table (SPIRVToCPU.cpp).
  uint32_t site(mlir::Location loc);
};

constexpr llvm::StringLiteral kBarrierFn = "__kiln_spirv_cpu_barrier";
constexpr llvm::StringLiteral kSubgroupFn = "__kiln_spirv_cpu_subgroup";
constexpr llvm::StringLiteral kCheckFn = "__kiln_spirv_cpu_check";
constexpr llvm::StringLiteral kRegisterFn = "__kiln_spirv_cpu_register";
/// Marks the allocas that phase two moves to the entry block.
constexpr llvm::StringLiteral kHoistAttr = "kiln.hoist";

//===----------------------------------------------------------------------===//
// Builders (SPIRVToCPU.cpp, Registration.cpp)
//===----------------------------------------------------------------------===//

/// Declares `name` in `module` with `type` unless it exists.
mlir::LLVM::LLVMFuncOp declareFunction(mlir::OpBuilder &b,
                                       mlir::ModuleOp module,
                                       llvm::StringRef name,
                                       mlir::LLVM::LLVMFunctionType type);

mlir::Value i32Constant(mlir::OpBuilder &b, mlir::Location loc, uint64_t value);

/// `base`, or `base_N` for the first N that `symbols` does not hold: two
/// modules' names may meet (module `a`'s kernel `b_c`, module `a_b`'s `c`).
std::string uniqueName(mlir::SymbolTable &symbols, llvm::StringRef base);

/// A constant NUL-terminated string global; returns its name
/// (Registration.cpp).
std::string stringGlobal(mlir::OpBuilder &b, mlir::ModuleOp module,
                         mlir::Location loc, llvm::StringRef prefix,
                         llvm::StringRef text);

//===----------------------------------------------------------------------===//
// Phase one: before and during the conversion
//===----------------------------------------------------------------------===//

/// Decides where each global variable of `module` lives (Globals.cpp).
mlir::LogicalResult placeGlobals(mlir::spirv::ModuleOp module,
                                 mlir::gpu::GPUModuleOp gpuModule,
                                 mlir::ModuleOp host, ModuleState &state);

/// Global variables and their addresses as placeholders, entry points and
/// execution modes erased (Globals.cpp).
void populateGlobalPatterns(const mlir::TypeConverter &converter,
                            mlir::RewritePatternSet &patterns);

/// Fma, Dot, SAbs, SNegate, IsNan, IsInf, integer min and max and vector
/// construction (ArithmeticOps.cpp).
void populateArithmeticPatterns(const mlir::TypeConverter &converter,
                                mlir::RewritePatternSet &patterns);

/// Buffer device addresses (MemoryAccess.cpp).
void populatePointerPatterns(const mlir::TypeConverter &converter,
                             mlir::RewritePatternSet &patterns);

/// Atomics as LLVM atomics (MemoryAccess.cpp).
void populateAtomicPatterns(const mlir::TypeConverter &converter,
                            mlir::RewritePatternSet &patterns);

/// Memory barriers as fences, control barriers as calls of the runtime
/// (BarriersAndSubgroups.cpp).
void populateBarrierPatterns(const mlir::TypeConverter &converter,
                             mlir::RewritePatternSet &patterns,
                             ModuleState &state);

/// spirv.GroupNonUniform* ops as calls of the runtime
/// (BarriersAndSubgroups.cpp).
void populateSubgroupPatterns(const mlir::TypeConverter &converter,
                              mlir::RewritePatternSet &patterns,
                              ModuleState &state);

//===----------------------------------------------------------------------===//
// Phase two: after the conversion
//===----------------------------------------------------------------------===//

/// The places of the buffers and workgroup variables whose accesses checked
/// mode checks: the value that stands for the global's address, and the
/// space and index the runtime's check gets.
using CheckedRoots =
    llvm::DenseMap<mlir::Value, std::pair<spirvcpu::AccessSpace, uint32_t>>;

/// Threads the invocation through the converted functions, lowers printf,
/// hoists allocas, places global addresses and, in checked mode, checks
/// accesses (FinishFunctions.cpp).
mlir::LogicalResult finishFunctions(mlir::ModuleOp converted,
                                    mlir::ModuleOp host, ModuleState &state);

/// Replaces the addresses of the globals in `fn` by places reached from the
/// invocation; returns those checked mode checks (MemoryAccess.cpp).
CheckedRoots placeGlobalAddresses(mlir::OpBuilder &b, mlir::LLVM::LLVMFuncOp fn,
                                  mlir::Value invocation,
                                  const ModuleState &state);

/// Checked mode: a call of the runtime's check before each load, store and
/// atomic of `fn` on one of `checkedRoots` (MemoryAccess.cpp).
void insertAccessChecks(mlir::OpBuilder &b, mlir::ModuleOp converted,
                        mlir::LLVM::LLVMFuncOp fn, mlir::Value invocation,
                        const mlir::DataLayout &layout, ModuleState &state,
                        const CheckedRoots &checkedRoots);

/// Bounded accesses: each load, store and atomic of `fn` on one of `roots`
/// compares its bytes with the bounds the runtime gives
/// (abi::Invocation::bounds) and, out of them, reads the zero area, writes
/// the sink, and an atomic returns 0 (MemoryAccess.cpp). An access larger
/// than the areas is an error at it.
mlir::LogicalResult boundAccesses(mlir::OpBuilder &b, mlir::LLVM::LLVMFuncOp fn,
                                  mlir::Value invocation,
                                  const mlir::DataLayout &layout,
                                  const ModuleState &state,
                                  const CheckedRoots &roots);

/// Records each kernel's stack frame in `state`; a frame above
/// abi::kMaxStackBytes is an error at its largest variable
/// (FinishFunctions.cpp).
mlir::LogicalResult measureStacks(mlir::ModuleOp converted,
                                  llvm::ArrayRef<std::string> kernels,
                                  ModuleState &state);

/// Each kernel's KernelDesc and the constructor that registers them under
/// `hash` (Registration.cpp).
void emitRegistration(mlir::gpu::GPUModuleOp gpuModule, mlir::ModuleOp host,
                      ModuleState &state, uint64_t hash,
                      llvm::ArrayRef<std::string> kernels,
                      const llvm::StringMap<llvm::StringSet<>> &used,
                      const llvm::StringMap<std::string> &renamed);

} // namespace kiln::spirvtocpu

#endif // KILN_TARGET_SPIRVCPU_SPIRVTOCPUINTERNAL_H
