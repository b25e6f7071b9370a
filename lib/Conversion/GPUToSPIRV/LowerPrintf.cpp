//===- LowerPrintf.cpp - gpu.printf as calls of debug printf stubs --------===//
//
// The first of debug printf's two steps (kiln/Target/SPIRV/Serialization.h
// has the second): each gpu.printf, checked, becomes a call of a stub.
//
//===----------------------------------------------------------------------===//

#include "LowerPrintf.h"

#include "kiln/Contract/PrintfFormat.h"
#include "kiln/Target/SPIRV/Serialization.h"
#include "kiln/Target/SPIRV/TargetEnvs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"

#include <cstring>
#include <optional>

using namespace mlir;

using kiln::printf_format::Conversion;

/// Parses `format` as debug printf reads it (kiln/Contract/PrintfFormat.h,
/// which the Vulkan runtime also checks modules with); reports at `op` what
/// it cannot print.
static LogicalResult parseFormat(gpu::PrintfOp op, StringRef format,
                                 std::vector<Conversion> &conversions) {
  std::string why = kiln::printf_format::parse(
      std::string_view(format.data(), format.size()), conversions);
  if (!why.empty())
    return op.emitOpError(why);
  return success();
}

/// The 32-bit value debug printf prints for `value`, built before `op`:
/// narrower integers sign-extended (i1 zero-extended) and narrower floats
/// extended, as C's default argument promotions do; index cast when it is
/// 32 bits wide. Fails, reporting at `op`, for what it cannot print exactly.
static FailureOr<Value> promote(OpBuilder &b, gpu::PrintfOp op, Value value,
                                unsigned position, const Conversion &conv,
                                bool use64BitIndex) {
  Location loc = op.getLoc();
  Type type = value.getType();
  // gpu.printf's arguments are scalars (its verifier says so).
  if (conv.components)
    return op.emitOpError("argument #")
           << position << " has type " << type << " but its conversion '%v"
           << conv.components << conv.letter
           << "' prints a vector, and gpu.printf's arguments are scalars";
  Type element = type;
  auto mismatch = [&]() {
    return op.emitOpError("argument #")
           << position << " has type " << type << " but its conversion '%"
           << conv.letter << "' prints "
           << (conv.isFloat ? "a floating-point value" : "an integer");
  };
  auto tooWide = [&](StringRef how) {
    return op.emitOpError("argument #")
           << position << " has type " << type
           << ": Vulkan's debug printf (the Khronos validation layer) prints "
              "32-bit values; "
           << how << ", or print it on CUDA (--target=cuda)";
  };
  Type i32 = b.getI32Type();
  if (element.isIndex()) {
    if (conv.isFloat)
      return mismatch();
    if (use64BitIndex)
      return op.emitOpError("argument #")
             << position
             << " is an index, 64 bits wide in this kernel (use-64bit-index), "
                "and Vulkan's debug printf prints 32-bit values; cast it with "
                "arith.index_cast to i32";
    return arith::IndexCastOp::create(b, loc, i32, value).getResult();
  }
  if (auto intType = dyn_cast<IntegerType>(element)) {
    if (conv.isFloat)
      return mismatch();
    unsigned width = intType.getWidth();
    if (width == 32)
      return value;
    if (width > 32)
      return tooWide("truncate it with arith.trunci to i32");
    if (width == 1)
      return arith::ExtUIOp::create(b, loc, i32, value).getResult();
    return arith::ExtSIOp::create(b, loc, i32, value).getResult();
  }
  if (auto floatType = dyn_cast<FloatType>(element)) {
    if (!conv.isFloat)
      return mismatch();
    unsigned width = floatType.getWidth();
    if (width == 32)
      return value;
    if (width > 32)
      return tooWide("convert it with arith.truncf to f32");
    return arith::ExtFOp::create(b, loc, b.getF32Type(), value).getResult();
  }
  return op.emitOpError("argument #")
         << position << " has type " << type
         << ", which debug printf cannot print";
}

LogicalResult kiln::lowerPrintfToStubs(gpu::GPUModuleOp module,
                                       spirv::TargetEnvAttr env,
                                       bool use64BitIndex,
                                       SmallVectorImpl<std::string> &formats) {
  SmallVector<gpu::PrintfOp> printfs;
  module.walk([&](gpu::PrintfOp op) { printfs.push_back(op); });
  if (printfs.empty())
    return success();
  spirv::TargetEnv target(env);
  if (env.getVersion() < spirv::Version::V_1_6 &&
      !target.allows(spirv::Extension::SPV_KHR_non_semantic_info))
    return printfs.front().emitOpError(
               "needs Vulkan's debug printf, which takes SPIR-V 1.6 or the "
               "extension SPV_KHR_non_semantic_info; ")
           << describeTargetEnv(env);

  OpBuilder b(module.getContext());
  for (gpu::PrintfOp op : printfs) {
    StringRef format = op.getFormat();
    std::vector<Conversion> conversions;
    if (failed(parseFormat(op, format, conversions)))
      return failure();
    if (conversions.size() != op.getArgs().size())
      return op.emitOpError("format string has ")
             << conversions.size() << " conversion(s) but the op has "
             << op.getArgs().size() << " argument(s)";
    b.setInsertionPoint(op);
    SmallVector<Value> args;
    for (auto [i, arg] : llvm::enumerate(op.getArgs())) {
      FailureOr<Value> v =
          promote(b, op, arg, i, conversions[i], use64BitIndex);
      if (failed(v))
        return failure();
      args.push_back(*v);
    }
    std::string name =
        (kDebugPrintfStubPrefix + Twine(formats.size())).str();
    formats.push_back(format.str());
    OpBuilder stubBuilder = OpBuilder::atBlockEnd(module.getBody());
    auto stub = func::FuncOp::create(
        stubBuilder, op.getLoc(), name,
        b.getFunctionType(ValueRange(args).getTypes(), {}));
    stub.setPrivate();
    OpBuilder body = OpBuilder::atBlockBegin(stub.addEntryBlock());
    func::ReturnOp::create(body, op.getLoc());
    func::CallOp::create(b, op.getLoc(), stub, args);
    op.erase();
  }
  return success();
}

