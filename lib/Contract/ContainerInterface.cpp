//===- ContainerInterface.cpp - A container's table against its SPIR-V ----===//
//
// checkInterface: what a container says of each kernel's arguments must be
// what its SPIR-V declares, because the Vulkan runtime builds descriptor set
// layouts, push-constant ranges and specialization constants from the table
// while the driver compiles the SPIR-V. Where they differ the driver reads a
// binding the layout lacks (lavapipe crashes inside pipeline creation) or the
// kernel reads its arguments from the wrong place (wrong results).
//
// The reader indexes only what the check needs: entry points and their
// interfaces, types, variables, decorations and constants. It assumes a
// well-formed instruction stream (the caller has walked it) and reads every
// operand with bounds.
//
//===----------------------------------------------------------------------===//

#include "kiln/Contract/Container.h"

#include <spirv/unified1/spirv.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <optional>
#include <set>

using namespace kiln::container;

namespace {
struct Type {
  uint32_t op = 0;
  /// Int and Float: the width in bits; Int: signedness in `b`. Vector and
  /// arrays: the element type; Array: the length's id in `b`. Pointer: the
  /// storage class, pointee in `b`.
  uint32_t a = 0, b = 0;
  std::vector<uint32_t> members;
};

struct Decorations {
  std::optional<uint32_t> set, binding, arrayStride, specId, builtIn;
  bool block = false, bufferBlock = false;
  std::map<uint32_t, uint32_t> memberOffsets;
};

struct EntryPoint {
  uint32_t function = 0;
  std::vector<uint32_t> interface;
  /// OpExecutionMode LocalSize, or the ids of OpExecutionModeId
  /// LocalSizeId (resolved by fixedLocalSize); 0s when neither is there.
  std::array<uint32_t, 3> localSize = {0, 0, 0};
  bool localSizeIsIds = false;
};

/// A function's body: the ids its instructions name (an over-approximation
/// of the variables it uses: a literal operand may equal an id) and the
/// functions it calls.
struct Function {
  std::set<uint32_t> operands;
  std::vector<uint32_t> callees;
};

struct Index {
  uint32_t version = 0; // (major << 8) | minor
  std::map<uint32_t, Type> types;
  std::map<uint32_t, uint32_t> variables; // id -> pointer type
  std::map<uint32_t, Decorations> decorations;
  std::map<uint32_t, uint32_t> constants; // 32-bit integer constants
  /// Composite constants: their constituents' ids; specialization ones have
  /// `spec` set.
  struct Composite {
    std::vector<uint32_t> parts;
    bool spec = false;
  };
  std::map<uint32_t, Composite> composites;
  std::set<uint32_t> specConstants;
  std::map<std::string, EntryPoint> entryPoints;
  std::map<uint32_t, Function> functions;
  bool physicalAddresses = false;

  const Type *type(uint32_t id) const {
    auto it = types.find(id);
    return it == types.end() ? nullptr : &it->second;
  }
  const Decorations &decorationsOf(uint32_t id) const {
    static const Decorations none;
    auto it = decorations.find(id);
    return it == decorations.end() ? none : it->second;
  }
  /// A variable's pointer type, or null.
  const Type *pointerOf(uint32_t variable) const {
    auto it = variables.find(variable);
    const Type *ptr = it == variables.end() ? nullptr : type(it->second);
    return ptr && ptr->op == SpvOpTypePointer ? ptr : nullptr;
  }
  uint32_t storageClass(uint32_t variable) const {
    const Type *ptr = pointerOf(variable);
    return ptr ? ptr->a : ~0u;
  }
  /// The id of what a variable points to (0 when it is not a pointer).
  uint32_t pointeeId(uint32_t variable) const {
    const Type *ptr = pointerOf(variable);
    return ptr ? ptr->b : 0;
  }
  const Type *pointee(uint32_t variable) const {
    return type(pointeeId(variable));
  }
};

Index index(const std::vector<uint32_t> &words) {
  Index ix;
  ix.version = (words[1] >> 8) & 0xFFFF;
  Function *body = nullptr;
  for (size_t i = 5; i < words.size();) {
    uint32_t count = words[i] >> 16, op = words[i] & 0xFFFF;
    if (count == 0 || count > words.size() - i)
      break; // Not well-formed: the caller refuses it.
    // Operand k (1-based), 0 when the instruction is shorter.
    auto w = [&](uint32_t k) -> uint32_t {
      return k < count ? words[i + k] : 0;
    };
    auto literal = [&](uint32_t first) {
      if (first >= count)
        return std::string();
      const char *chars = reinterpret_cast<const char *>(&words[i + first]);
      return std::string(chars, strnlen(chars, (count - first) * 4));
    };
    if (body) {
      if (op == SpvOpFunctionEnd) {
        body = nullptr;
      } else {
        for (uint32_t k = 1; k < count; ++k)
          body->operands.insert(words[i + k]);
        if (op == SpvOpFunctionCall)
          body->callees.push_back(w(3));
      }
      i += count;
      continue;
    }
    switch (op) {
    case SpvOpEntryPoint: {
      if (w(1) != SpvExecutionModelGLCompute)
        break;
      std::string name = literal(3);
      size_t nameWords = name.size() / 4 + 1;
      EntryPoint &e = ix.entryPoints[name];
      e.function = w(2);
      for (size_t k = 3 + nameWords; k < count; ++k)
        e.interface.push_back(words[i + k]);
      break;
    }
    case SpvOpExecutionMode:
    case SpvOpExecutionModeId:
      if ((w(2) == SpvExecutionModeLocalSize ||
           w(2) == SpvExecutionModeLocalSizeId) &&
          count == 6)
        for (auto &e : ix.entryPoints)
          if (e.second.function == w(1)) {
            e.second.localSize = {w(3), w(4), w(5)};
            e.second.localSizeIsIds = w(2) == SpvExecutionModeLocalSizeId;
          }
      break;
    case SpvOpConstantComposite:
    case SpvOpSpecConstantComposite:
      if (count >= 3) {
        Index::Composite &c = ix.composites[w(2)];
        c.parts.assign(words.begin() + i + 3, words.begin() + i + count);
        c.spec = op == SpvOpSpecConstantComposite;
      }
      break;
    case SpvOpCapability:
      ix.physicalAddresses |=
          w(1) == SpvCapabilityPhysicalStorageBufferAddresses;
      break;
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
    case SpvOpTypeVector:
    case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray:
    case SpvOpTypePointer: {
      Type &t = ix.types[w(1)];
      t.op = op;
      t.a = w(2);
      t.b = w(3);
      break;
    }
    case SpvOpTypeStruct: {
      if (count < 2)
        break;
      Type &t = ix.types[w(1)];
      t.op = op;
      t.members.assign(words.begin() + i + 2, words.begin() + i + count);
      break;
    }
    case SpvOpConstant:
    case SpvOpSpecConstant:
      if (const Type *t = ix.type(w(1));
          t && t->op == SpvOpTypeInt && count >= 4)
        ix.constants[w(2)] = w(3);
      if (op == SpvOpSpecConstant)
        ix.specConstants.insert(w(2));
      break;
    case SpvOpVariable:
      ix.variables[w(2)] = w(1);
      break;
    case SpvOpDecorate: {
      Decorations &d = ix.decorations[w(1)];
      switch (w(2)) {
      case SpvDecorationDescriptorSet:
        d.set = w(3);
        break;
      case SpvDecorationBinding:
        d.binding = w(3);
        break;
      case SpvDecorationArrayStride:
        d.arrayStride = w(3);
        break;
      case SpvDecorationSpecId:
        d.specId = w(3);
        break;
      case SpvDecorationBuiltIn:
        d.builtIn = w(3);
        break;
      case SpvDecorationBlock:
        d.block = true;
        break;
      case SpvDecorationBufferBlock:
        d.bufferBlock = true;
        break;
      }
      break;
    }
    case SpvOpMemberDecorate:
      if (w(3) == SpvDecorationOffset && count >= 5)
        ix.decorations[w(1)].memberOffsets[w(2)] = w(4);
      break;
    case SpvOpFunction:
      body = &ix.functions[w(2)];
      break;
    }
    i += count;
  }
  return ix;
}

/// The workgroup size `entry` fixes: a constant decorated BuiltIn
/// WorkgroupSize wins over the execution mode; LocalSizeId names constants.
/// Nothing (0s) where the size is missing or depends on specialization.
std::array<uint32_t, 3> fixedLocalSize(const Index &ix,
                                       const EntryPoint &entry) {
  std::array<uint32_t, 3> none = {0, 0, 0}, size = none;
  auto value = [&](uint32_t id, uint32_t &out) {
    auto it = ix.constants.find(id);
    if (it == ix.constants.end() || ix.specConstants.count(id))
      return false;
    out = it->second;
    return true;
  };
  for (const auto &d : ix.decorations) {
    if (d.second.builtIn != SpvBuiltInWorkgroupSize)
      continue;
    auto c = ix.composites.find(d.first);
    if (c == ix.composites.end() || c->second.spec ||
        c->second.parts.size() != 3)
      return none;
    for (int k = 0; k < 3; ++k)
      if (!value(c->second.parts[k], size[k]))
        return none;
    return size;
  }
  if (!entry.localSizeIsIds)
    return entry.localSize;
  for (int k = 0; k < 3; ++k)
    if (!value(entry.localSize[k], size[k]))
      return none;
  return size;
}

/// The global variables `entry` uses. From SPIR-V 1.4 its interface lists
/// them all; before, it lists only Input and Output, and the variables are
/// those the functions it reaches name.
std::vector<uint32_t> usedVariables(const Index &ix, const EntryPoint &entry) {
  std::vector<uint32_t> used;
  if (ix.version >= 0x0104) {
    for (uint32_t id : entry.interface)
      if (ix.variables.count(id))
        used.push_back(id);
    return used;
  }
  std::set<uint32_t> seen, names;
  std::vector<uint32_t> work{entry.function};
  while (!work.empty()) {
    uint32_t fn = work.back();
    work.pop_back();
    auto it = ix.functions.find(fn);
    if (!seen.insert(fn).second || it == ix.functions.end())
      continue;
    names.insert(it->second.operands.begin(), it->second.operands.end());
    work.insert(work.end(), it->second.callees.begin(),
                it->second.callees.end());
  }
  for (const auto &v : ix.variables)
    if (names.count(v.first))
      used.push_back(v.first);
  return used;
}

/// Bytes of a scalar or vector type; 0 for anything else.
uint32_t scalarBytes(const Index &ix, const Type *t) {
  auto scalar = [](const Type *s) -> uint32_t {
    bool ok = s && (s->op == SpvOpTypeInt || s->op == SpvOpTypeFloat) &&
              s->a % 8 == 0 && s->a <= 64;
    return ok ? s->a / 8 : 0;
  };
  if (t && t->op == SpvOpTypeVector)
    return t->b <= 16 ? t->b * scalar(ix.type(t->a)) : 0;
  return scalar(t);
}

std::string at(uint32_t set, uint32_t binding) {
  return "(set " + std::to_string(set) + ", binding " +
         std::to_string(binding) + ")";
}

/// The storage buffer a descriptor variable declares: its array's stride
/// (0 when its last member is no array). False with `why` when the variable
/// is not a storage buffer.
bool bufferStride(const Index &ix, uint32_t variable, uint32_t &stride,
                  std::string &why) {
  const Type *block = ix.pointee(variable);
  uint32_t storage = ix.storageClass(variable);
  // Block / BufferBlock sit on the struct's id.
  const Decorations &blockDecorations =
      ix.decorationsOf(ix.pointeeId(variable));
  bool storageBuffer =
      (storage == SpvStorageClassStorageBuffer && blockDecorations.block) ||
      (storage == SpvStorageClassUniform && blockDecorations.bufferBlock);
  if (!block || block->op != SpvOpTypeStruct || !storageBuffer) {
    why = storage == SpvStorageClassUniformConstant
              ? "an image, sampler or other opaque resource"
          : storage == SpvStorageClassUniform ? "a uniform buffer"
                                              : "not a storage buffer block";
    return false;
  }
  if (block->members.empty()) {
    why = "a storage buffer without members";
    return false;
  }
  // A static shape is nested arrays; the innermost one's stride is the
  // element's.
  uint32_t arrayId = block->members.back();
  auto isArray = [](const Type *t) {
    return t && (t->op == SpvOpTypeArray || t->op == SpvOpTypeRuntimeArray);
  };
  const Type *array = ix.type(arrayId);
  for (int depth = 0; isArray(array) && depth < 16; ++depth) {
    if (!isArray(ix.type(array->a)))
      break;
    arrayId = array->a;
    array = ix.type(arrayId);
  }
  const Decorations &d = ix.decorationsOf(arrayId);
  // 0: a block of other members, which only a raw SPIR-V kernel may take.
  stride = isArray(array) && d.arrayStride ? *d.arrayStride : 0;
  return true;
}

/// One value the runtime writes into the push-constant block.
struct Slot {
  uint32_t offset, bytes;
  bool isFloat;
  std::string what;
};

/// The slots of argument `i`.
void argSlots(const ArgInfo &a, size_t i, uint32_t indexBits,
              std::vector<Slot> &slots) {
  if (a.pushConstantOffset == kNoPushConstant)
    return;
  std::string name = "argument " + std::to_string(i);
  uint32_t offset = a.pushConstantOffset;
  if (a.kind == ArgKind::Scalar) {
    bool isFloat = a.scalarType == ScalarType::F16 ||
                   a.scalarType == ScalarType::F32 ||
                   a.scalarType == ScalarType::F64;
    slots.push_back({offset, a.size, isFloat,
                     name + " (" + scalarTypeName(a.scalarType) + ")"});
    return;
  }
  if (isAddressKind(a.kind)) {
    slots.push_back({offset, 8, false, name + "'s device address"});
    offset += 8;
    if (a.kind == ArgKind::Address)
      return;
  }
  uint32_t bytes = indexBits / 8;
  for (uint32_t k = 0; k < 1 + 2 * a.rank; ++k, offset += bytes)
    slots.push_back(
        {offset, bytes, false,
         name + "'s " +
             (k == 0        ? std::string("offset")
              : k <= a.rank ? "size " + std::to_string(k - 1)
                            : "stride " + std::to_string(k - 1 - a.rank))});
}

/// `raw`: `k` stands for a raw SPIR-V kernel launched with pointer-size
/// pairs, bound at (0, i), whose element sizes nobody knows.
bool checkKernel(const Index &ix, const ModuleInfo &module, const KernelInfo &k,
                 bool raw, std::string &error) {
  std::string where = "kernel '" + k.name + "'";
  auto fail = [&](const std::string &what) {
    error = raw ? "raw SPIR-V " + where + " launched with " +
                      std::to_string(k.args.size()) +
                      " pointer-size pairs (bound at set 0, bindings 0 to " +
                      "N-1): " + what
                : "its container's argument table for " + where +
                      " disagrees with its SPIR-V: " + what;
    return false;
  };
  auto entry = ix.entryPoints.find(k.name);
  if (entry == ix.entryPoints.end())
    return fail("there is no GLCompute entry point of that name");
  const std::array<uint32_t, 3> local = fixedLocalSize(ix, entry->second);
  if (!raw && local[0] != 0 &&
      (local[0] != k.workgroupSize[0] || local[1] != k.workgroupSize[1] ||
       local[2] != k.workgroupSize[2])) {
    error = "its container gives kernel '" + k.name + "' workgroup size (" +
            std::to_string(k.workgroupSize[0]) + ", " +
            std::to_string(k.workgroupSize[1]) + ", " +
            std::to_string(k.workgroupSize[2]) + ") but its SPIR-V (" +
            std::to_string(local[0]) + ", " + std::to_string(local[1]) + ", " +
            std::to_string(local[2]) + ")";
    return false;
  }
  std::vector<uint32_t> used = usedVariables(ix, entry->second);

  // Descriptors: every one the kernel uses is an argument bound there, of
  // the element size the argument says.
  std::map<std::pair<uint32_t, uint32_t>, size_t> bound;
  for (size_t i = 0; i < k.args.size(); ++i) {
    const ArgInfo &a = k.args[i];
    if (!isDescriptorKind(a.kind))
      continue;
    if (!bound.emplace(std::make_pair(a.set, a.binding), i).second)
      return fail("arguments " + std::to_string(bound[{a.set, a.binding}]) +
                  " and " + std::to_string(i) + " are both bound at " +
                  at(a.set, a.binding));
  }
  std::vector<uint32_t> pushBlocks, dynamicArrays;
  for (uint32_t v : used) {
    uint32_t storage = ix.storageClass(v);
    const Decorations &d = ix.decorationsOf(v);
    if (storage == SpvStorageClassPushConstant) {
      pushBlocks.push_back(v);
      continue;
    }
    if (storage == SpvStorageClassWorkgroup) {
      const Type *array = ix.pointee(v);
      if (array && array->op == SpvOpTypeStruct && array->members.size() == 1)
        array = ix.type(array->members[0]);
      if (array && array->op == SpvOpTypeArray &&
          ix.decorationsOf(array->b).specId == kDynamicWorkgroupSpecId)
        dynamicArrays.push_back(v);
      continue;
    }
    if (storage != SpvStorageClassStorageBuffer &&
        storage != SpvStorageClassUniform &&
        storage != SpvStorageClassUniformConstant)
      continue;
    if (!d.set || !d.binding)
      return fail("it uses a resource variable without a DescriptorSet and "
                  "Binding");
    auto arg = bound.find({*d.set, *d.binding});
    if (arg == bound.end())
      return fail("it uses the resource at " + at(*d.set, *d.binding) +
                  ", which no argument is bound at");
    const ArgInfo &a = k.args[arg->second];
    uint32_t stride = 0;
    std::string why;
    if (!bufferStride(ix, v, stride, why))
      return fail("the resource at " + at(*d.set, *d.binding) + " is " + why +
                  "; the runtime binds a storage buffer there");
    // The kernel reads elements of the argument's size, or vectors of them
    // as wide as its base alignment.
    // Without 8- or 16-bit storage, narrow elements are packed into 32-bit
    // words, which the kernel addresses itself.
    if (!raw && stride == 0)
      return fail("the resource at " + at(*d.set, *d.binding) +
                  " is a storage buffer whose last member is not an array "
                  "with an ArrayStride, which argument " +
                  std::to_string(arg->second) + " cannot be");
    bool packed = !a.baseAlignment && a.size < 4 && stride == 4;
    if (!raw && !packed &&
        stride != (a.baseAlignment ? a.baseAlignment : a.size))
      return fail(
          "argument " + std::to_string(arg->second) + " at " +
          at(a.set, a.binding) + " has " + std::to_string(a.size) +
          "-byte elements" +
          (a.baseAlignment
               ? " read as " + std::to_string(a.baseAlignment) + "-byte vectors"
               : std::string()) +
          ", but the SPIR-V's array there has ArrayStride " +
          std::to_string(stride));
  }

  // Arguments bound by device address need the capability to read them.
  for (size_t i = 0; i < k.args.size(); ++i)
    if (isAddressKind(k.args[i].kind) && !ix.physicalAddresses)
      return fail("argument " + std::to_string(i) +
                  " is bound by device address, but the SPIR-V does not "
                  "declare PhysicalStorageBufferAddresses");

  // The push-constant block: each of its members is a value the runtime
  // writes, at the member's offset, of the member's width and kind.
  if (pushBlocks.size() > 1)
    return fail("it uses " + std::to_string(pushBlocks.size()) +
                " push-constant blocks");
  std::vector<Slot> slots;
  for (size_t i = 0; i < k.args.size(); ++i)
    argSlots(k.args[i], i, module.indexBits, slots);
  if (raw && !pushBlocks.empty())
    return fail("it reads push constants, which a raw SPIR-V launch does not "
                "pass (compile it into a Kiln container, whose argument "
                "table says where each value goes)");
  if (!pushBlocks.empty()) {
    const Type *block = ix.pointee(pushBlocks[0]);
    const Decorations &d = ix.decorationsOf(ix.pointeeId(pushBlocks[0]));
    if (!block || block->op != SpvOpTypeStruct)
      return fail("its push-constant block is not a struct");
    // Each member a scalar with an offset, and the block inside the range
    // the pipeline layout gets.
    std::vector<Slot> members;
    for (uint32_t m = 0; m < block->members.size(); ++m) {
      auto offset = d.memberOffsets.find(m);
      const Type *t = ix.type(block->members[m]);
      uint32_t bytes = scalarBytes(ix, t);
      if (offset == d.memberOffsets.end() || !bytes || t->op == SpvOpTypeVector)
        return fail("push-constant member " + std::to_string(m) +
                    " is not a scalar with an Offset");
      uint64_t end = uint64_t(offset->second) + bytes;
      if (end > k.pushConstantSize)
        return fail("its push-constant block reaches byte " +
                    std::to_string(end) + ", past the " +
                    std::to_string(k.pushConstantSize) +
                    " bytes the container gives it");
      members.push_back(
          {offset->second, bytes, t->op == SpvOpTypeFloat, std::string()});
    }
    std::map<uint32_t, size_t> byOffset;
    for (size_t i = 0; i < slots.size(); ++i)
      byOffset[slots[i].offset] = i;
    std::vector<bool> covered(slots.size(), false);
    for (uint32_t m = 0; m < members.size(); ++m) {
      auto [offset, bytes, isFloat, unused] = members[m];
      auto slot = byOffset.find(offset);
      if (slot == byOffset.end())
        return fail("push-constant member " + std::to_string(m) +
                    " at offset " + std::to_string(offset) +
                    " is no argument's value");
      const Slot &s = slots[slot->second];
      if (s.bytes != bytes || s.isFloat != isFloat)
        return fail("push-constant member " + std::to_string(m) +
                    " at offset " + std::to_string(offset) + " is " +
                    (isFloat ? "a float" : "an integer") + " of " +
                    std::to_string(bytes) + " bytes, but " + s.what +
                    " is written there as " +
                    (s.isFloat ? "a float" : "an integer") + " of " +
                    std::to_string(s.bytes));
      covered[slot->second] = true;
    }
    for (size_t i = 0; i < slots.size(); ++i)
      if (!covered[i])
        return fail(slots[i].what + " at push-constant offset " +
                    std::to_string(slots[i].offset) +
                    " is no member of the SPIR-V's push-constant block");
  }

  // Dynamic workgroup memory: the array whose length the runtime sets.
  if (dynamicArrays.size() > 1)
    return fail("it uses " + std::to_string(dynamicArrays.size()) +
                " dynamic workgroup arrays");
  uint32_t elementBytes = 0;
  if (!dynamicArrays.empty()) {
    const Type *array = ix.pointee(dynamicArrays[0]);
    if (array->op == SpvOpTypeStruct)
      array = ix.type(array->members[0]);
    elementBytes = array ? scalarBytes(ix, ix.type(array->a)) : 0;
  }
  if (raw && !dynamicArrays.empty())
    return fail("it has a dynamic workgroup array (specialization constant " +
                std::to_string(kDynamicWorkgroupSpecId) +
                "), whose length a raw SPIR-V launch does not set");
  if (elementBytes != k.dynamicWorkgroupElementBytes)
    return fail("the container gives its dynamic workgroup array " +
                std::to_string(k.dynamicWorkgroupElementBytes) +
                "-byte elements, the SPIR-V " +
                (dynamicArrays.empty()
                     ? std::string("has no such array")
                     : std::to_string(elementBytes) + "-byte ones"));
  return true;
}
} // namespace

bool kiln::container::checkInterface(const ModuleInfo &module,
                                     std::string &error) {
  const std::vector<uint32_t> &words = module.spirv;
  if (words.size() < 5 || words[0] != kSPIRVMagic) {
    error = "the SPIR-V header is missing or has a bad magic number";
    return false;
  }
  Index ix = index(words);
  for (const KernelInfo &k : module.kernels)
    if (!checkKernel(ix, module, k, /*raw=*/false, error))
      return false;
  return true;
}

bool kiln::container::checkRawInterface(const std::vector<uint32_t> &spirv,
                                        const std::string &kernel,
                                        uint32_t buffers, std::string &error) {
  if (spirv.size() < 5 || spirv[0] != kSPIRVMagic) {
    error = "the SPIR-V header is missing or has a bad magic number";
    return false;
  }
  ModuleInfo module;
  KernelInfo k;
  k.name = kernel;
  for (uint32_t i = 0; i < buffers; ++i) {
    ArgInfo a;
    a.binding = i;
    k.args.push_back(a);
  }
  return checkKernel(index(spirv), module, k, /*raw=*/true, error);
}
