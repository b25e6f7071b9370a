//===- KilnDialect.cpp - Kiln's dialect: the kernel ABI -------------------===//
//
// The `kiln` dialect, the verifiers of its attributes, and the conversion
// between #kiln.kernel_abi and the container's structures.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/KilnDialect.h"
#include "kiln/Dialect/Kiln/KernelABI.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln;

#include "kiln/Dialect/Kiln/KilnDialect.cpp.inc"
#include "kiln/Dialect/Kiln/KilnEnums.cpp.inc"

/// `[#kiln.arg<...>, ...]`: the arguments in their full form.
static ParseResult parseArgList(AsmParser &parser,
                                SmallVector<KernelArgAttr> &args) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                        [&]() -> ParseResult {
                                          KernelArgAttr arg;
                                          if (parser.parseAttribute(arg))
                                            return failure();
                                          args.push_back(arg);
                                          return success();
                                        });
}

static void printArgList(AsmPrinter &printer, ArrayRef<KernelArgAttr> args) {
  printer << "[";
  llvm::interleaveComma(
      args, printer, [&](KernelArgAttr arg) { printer.printAttribute(arg); });
  printer << "]";
}

#define GET_ATTRDEF_CLASSES
#include "kiln/Dialect/Kiln/KilnAttrs.cpp.inc"

void KilnDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "kiln/Dialect/Kiln/KilnAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// The ABI in the container's structures
//===----------------------------------------------------------------------===//

container::ScalarType kiln::getScalarType(Type type) {
  using container::ScalarType;
  if (type.isIndex())
    return ScalarType::Index;
  if (auto i = dyn_cast<IntegerType>(type)) {
    switch (i.getWidth()) {
    case 1:
      return ScalarType::I1;
    case 8:
      return ScalarType::I8;
    case 16:
      return ScalarType::I16;
    case 32:
      return ScalarType::I32;
    case 64:
      return ScalarType::I64;
    }
    return ScalarType::None;
  }
  if (type.isF16())
    return ScalarType::F16;
  if (type.isF32())
    return ScalarType::F32;
  if (type.isF64())
    return ScalarType::F64;
  return ScalarType::None;
}

unsigned kiln::getElementBytes(Type elementType) {
  if (auto vec = dyn_cast<VectorType>(elementType)) {
    if (vec.getRank() != 1 || vec.isScalable())
      return 0;
    return vec.getNumElements() * getElementBytes(vec.getElementType());
  }
  if (elementType.isIndex() || !elementType.isIntOrFloat())
    return 0;
  unsigned bits = elementType.getIntOrFloatBitWidth();
  if (bits % 8 || bits > 64)
    return 0;
  return bits / 8;
}

// #kiln.arg's kinds are the container's argument kinds, value for value:
// the passes cast one to the other.
static_assert(uint32_t(KernelArgKind::memref) ==
              uint32_t(container::ArgKind::MemRef));
static_assert(uint32_t(KernelArgKind::scalar) ==
              uint32_t(container::ArgKind::Scalar));
static_assert(uint32_t(KernelArgKind::address) ==
              uint32_t(container::ArgKind::Address));
static_assert(uint32_t(KernelArgKind::strided_address) ==
              uint32_t(container::ArgKind::StridedAddress));
static_assert(uint32_t(KernelArgKind::identity_memref) ==
              uint32_t(container::ArgKind::IdentityMemRef));
static_assert(getMaxEnumValForKernelArgKind() == container::kMaxArgKind,
              "a kind one side has and the other does not");

/// The container's view of one argument attribute.
static container::ArgInfo toArgInfo(KernelArgAttr arg) {
  container::ArgInfo a;
  a.kind = static_cast<container::ArgKind>(arg.getKind());
  a.scalarType = arg.getType() ? getScalarType(arg.getType())
                               : container::ScalarType::None;
  a.size = arg.getSize();
  a.rank = arg.getRank();
  a.set = arg.getSet();
  a.binding = arg.getBinding();
  a.pushConstantOffset =
      arg.getPushConstantOffset().value_or(container::kNoPushConstant);
  a.baseAlignment = arg.getBaseAlignment();
  return a;
}

KernelABIAttr KernelABI::toAttr(gpu::GPUFuncOp kernel) const {
  MLIRContext *ctx = kernel.getContext();
  SmallVector<KernelArgAttr> attrs;
  for (auto [i, a] : llvm::enumerate(args)) {
    bool scalar = a.kind == container::ArgKind::Scalar;
    std::optional<uint32_t> offset;
    if (a.pushConstantOffset != container::kNoPushConstant)
      offset = a.pushConstantOffset;
    attrs.push_back(KernelArgAttr::get(
        ctx, static_cast<KernelArgKind>(a.kind),
        scalar ? kernel.getArgument(i).getType() : Type(), a.size, a.rank,
        a.set, a.binding, offset, a.baseAlignment));
  }
  return KernelABIAttr::get(ctx, indexBits, pushConstantSize, attrs);
}

FailureOr<KernelABI> KernelABI::read(gpu::GPUFuncOp kernel) {
  auto attr = kernel->getAttrOfType<KernelABIAttr>(kKernelABIAttrName);
  if (!attr)
    return kernel.emitError("kernel '")
           << kernel.getName() << "' has no '" << kKernelABIAttrName
           << "' attribute; run kiln-spirv-kernel-abi first";
  KernelABI abi;
  abi.indexBits = attr.getIndexBits();
  abi.pushConstantSize = attr.getPushConstantSize();
  for (KernelArgAttr arg : attr.getArgs())
    abi.args.push_back(toArgInfo(arg));
  return abi;
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

LogicalResult
KernelABIAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      uint32_t indexBits, uint32_t pushConstantSize,
                      ArrayRef<KernelArgAttr> args) {
  if (indexBits != 32 && indexBits != 64)
    return emitError() << "index_bits is " << indexBits
                       << "; index push constants are 32 or 64 bits";
  if (pushConstantSize % 4 || pushConstantSize > 65536)
    return emitError() << "push_constant_size is " << pushConstantSize
                       << "; it must be a multiple of 4 up to 65536";
  llvm::DenseSet<std::pair<uint32_t, uint32_t>> bindings;
  for (auto [i, arg] : llvm::enumerate(args)) {
    bool scalar = arg.getKind() == KernelArgKind::scalar;
    if (scalar && !arg.getType())
      return emitError() << "argument " << i << " is a scalar without a type";
    if (!scalar && arg.getType())
      return emitError() << "argument " << i << " is a memref with a type";
    container::ArgInfo a = toArgInfo(arg);
    if (scalar && a.scalarType == container::ScalarType::None)
      return emitError() << "argument " << i << " has type " << arg.getType()
                         << ", which cannot be a kernel argument";
    std::string why;
    if (!container::checkArg(a, pushConstantSize, indexBits, why))
      return emitError() << "argument " << i << " " << why;
    if (container::isDescriptorKind(a.kind) &&
        !bindings.insert({a.set, a.binding}).second)
      return emitError() << "argument " << i << " is at (set " << a.set
                         << ", binding " << a.binding
                         << "), as an earlier argument is";
  }
  return success();
}

/// Checks `abi` against the signature of `kernel`: as many arguments, each
/// memref one a memref kind of its rank and element size, each scalar one a
/// scalar of its type.
static LogicalResult verifyAgainstKernel(gpu::GPUFuncOp kernel,
                                         KernelABIAttr abi) {
  auto fail = [&](const Twine &what) {
    return kernel.emitOpError("has a '")
           << kKernelABIAttrName << "' that " << what;
  };
  if (!kernel.isKernel())
    return fail("is not on a kernel");
  ArrayRef<KernelArgAttr> args = abi.getArgs();
  if (args.size() != kernel.getNumArguments())
    return fail("lists " + Twine(args.size()) + " arguments for " +
                Twine(kernel.getNumArguments()));
  for (auto [i, arg] : llvm::enumerate(args)) {
    Type type = kernel.getArgument(i).getType();
    if (auto memref = dyn_cast<MemRefType>(type)) {
      if (arg.getKind() == KernelArgKind::scalar)
        return fail("says argument " + Twine(i) + " (a memref) is a scalar");
      if (arg.getRank() != memref.getRank() ||
          arg.getSize() != getElementBytes(memref.getElementType()))
        return fail("gives argument " + Twine(i) + " rank " +
                    Twine(arg.getRank()) + " and " + Twine(arg.getSize()) +
                    "-byte elements, unlike its type");
      continue;
    }
    if (arg.getKind() != KernelArgKind::scalar || arg.getType() != type)
      return fail("does not give argument " + Twine(i) + " its scalar type");
  }
  return success();
}

LogicalResult KilnDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kKernelABIAttrName) {
    auto abi = dyn_cast<KernelABIAttr>(attr.getValue());
    if (!abi)
      return op->emitError("'")
             << name << "' must be a #kiln.kernel_abi, not " << attr.getValue();
    auto kernel = dyn_cast<gpu::GPUFuncOp>(op);
    if (!kernel)
      return op->emitError("'") << name << "' is for gpu.func kernels";
    return verifyAgainstKernel(kernel, abi);
  }
  if (llvm::is_contained(kInternalAttrNames, name))
    return success();
  return op->emitError("unknown Kiln attribute '") << name << "'";
}
