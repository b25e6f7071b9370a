//===- Container.cpp - Kiln's Vulkan module container ---------------------===//
//
// Layout (all fields little-endian 32-bit words, see docs/abi.md):
//
//   magic, version, index_bits, kernel_count, spirv_word_count
//   kernel_count x {
//     name_bytes, name (padded with zeros to a multiple of 4 bytes),
//     workgroup_size[3], push_constant_size, arg_count,
//     arg_count x {kind, scalar_type, size, rank, set, binding, pc_offset,
//                  base_alignment},
//     static_workgroup_bytes, dynamic_workgroup_element_bytes,
//     address_variant                                           (version 3)
//   }
//   spirv words
//
//===----------------------------------------------------------------------===//

#include "kiln/Contract/Container.h"

#include <cstring>

using namespace kiln::container;

namespace {
constexpr uint32_t kMaxKernels = 1u << 16;
constexpr uint32_t kMaxArgs = 1u << 12;
constexpr uint32_t kMaxNameBytes = 1u << 12;

class Writer {
public:
  void word(uint32_t w) {
    for (int i = 0; i < 4; ++i)
      bytes.push_back(static_cast<uint8_t>(w >> (8 * i)));
  }
  void string(const std::string &s) {
    word(static_cast<uint32_t>(s.size()));
    bytes.insert(bytes.end(), s.begin(), s.end());
    while (bytes.size() % 4)
      bytes.push_back(0);
  }
  std::vector<uint8_t> bytes;
};

class Reader {
public:
  Reader(const uint8_t *data, size_t size) : data(data), size(size) {}

  bool word(uint32_t &w, const char *what, std::string &error) {
    if (size - pos < 4) {
      error = std::string("truncated container: ") + what + " at byte " +
              std::to_string(pos) + " is past the end (" +
              std::to_string(size) + " bytes)";
      return false;
    }
    w = 0;
    for (int i = 0; i < 4; ++i)
      w |= static_cast<uint32_t>(data[pos + i]) << (8 * i);
    pos += 4;
    return true;
  }
  bool string(std::string &s, const char *what, std::string &error) {
    uint32_t n;
    if (!word(n, what, error))
      return false;
    if (n == 0 || n > kMaxNameBytes) {
      error = std::string("corrupt container: ") + what + " has length " +
              std::to_string(n);
      return false;
    }
    size_t padded = (static_cast<size_t>(n) + 3) & ~size_t(3);
    if (size - pos < padded) {
      error = std::string("truncated container: ") + what + " of " +
              std::to_string(n) + " bytes runs past the end";
      return false;
    }
    s.assign(reinterpret_cast<const char *>(data + pos), n);
    if (s.find('\0') != std::string::npos) {
      error = std::string("corrupt container: ") + what + " contains a NUL";
      return false;
    }
    pos += padded;
    return true;
  }
  size_t remaining() const { return size - pos; }
  size_t position() const { return pos; }

private:
  const uint8_t *data;
  size_t size;
  size_t pos = 0;
};
} // namespace

const KernelInfo *ModuleInfo::findKernel(const std::string &name) const {
  for (const KernelInfo &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

bool kiln::container::isContainer(const void *data, size_t size) {
  if (!data || size < 4)
    return false;
  uint32_t w;
  std::memcpy(&w, data, 4);
  return w == kMagic;
}

/// The encoding of `module` in container `version` (2 has no workgroup
/// memory fields; parse() compares a version 2 input with it).
static std::vector<uint8_t> encode(const ModuleInfo &module, uint32_t version) {
  Writer w;
  w.word(kMagic);
  w.word(version);
  w.word(module.indexBits);
  w.word(static_cast<uint32_t>(module.kernels.size()));
  w.word(static_cast<uint32_t>(module.spirv.size()));
  for (const KernelInfo &k : module.kernels) {
    w.string(k.name);
    for (uint32_t s : k.workgroupSize)
      w.word(s);
    w.word(k.pushConstantSize);
    w.word(static_cast<uint32_t>(k.args.size()));
    for (const ArgInfo &a : k.args) {
      w.word(static_cast<uint32_t>(a.kind));
      w.word(static_cast<uint32_t>(a.scalarType));
      w.word(a.size);
      w.word(a.rank);
      w.word(a.set);
      w.word(a.binding);
      w.word(a.pushConstantOffset);
      w.word(a.baseAlignment);
    }
    if (version >= 3) {
      w.word(k.staticWorkgroupBytes);
      w.word(k.dynamicWorkgroupElementBytes);
      w.word(k.addressVariant);
    }
  }
  for (uint32_t word : module.spirv)
    w.word(word);
  return std::move(w.bytes);
}

std::vector<uint8_t> kiln::container::write(const ModuleInfo &module) {
  return encode(module, kVersion);
}

bool kiln::container::checkAddressVariant(const KernelInfo &kernel,
                                          const KernelInfo &variant,
                                          std::string &why) {
  auto fail = [&](const std::string &what) {
    why = what;
    return false;
  };
  if (&kernel == &variant || variant.addressVariant != 0)
    return fail("is itself or has an address variant");
  for (int i = 0; i < 3; ++i)
    if (kernel.workgroupSize[i] != variant.workgroupSize[i])
      return fail("has another workgroup size");
  if (kernel.dynamicWorkgroupElementBytes !=
          variant.dynamicWorkgroupElementBytes ||
      kernel.staticWorkgroupBytes != variant.staticWorkgroupBytes)
    return fail("has other workgroup memory");
  if (kernel.args.size() != variant.args.size())
    return fail("has another argument count");
  for (size_t i = 0; i < kernel.args.size(); ++i) {
    const ArgInfo &a = kernel.args[i], &v = variant.args[i];
    bool same = a.scalarType == v.scalarType && a.size == v.size &&
                a.rank == v.rank &&
                (a.kind != v.kind || a.baseAlignment == v.baseAlignment);
    // A memref may change from a descriptor to an address, never back.
    bool kindOk =
        a.kind == v.kind || (isAddressKind(v.kind) && !isAddressKind(a.kind) &&
                             a.kind != ArgKind::Scalar);
    if (!same || !kindOk)
      return fail("takes argument " + std::to_string(i) + " otherwise");
  }
  return true;
}

bool kiln::container::checkArg(const ArgInfo &a, uint32_t pushConstantSize,
                               uint32_t indexBits, std::string &why) {
  bool isScalar = a.kind == ArgKind::Scalar;
  bool isAddress = isAddressKind(a.kind);
  auto fail = [&](const std::string &what) {
    why = what;
    return false;
  };
  if (isScalar != (a.scalarType != ScalarType::None))
    return fail("mixes kind and scalar type");
  if (a.size == 0 || a.size > 1024 || a.rank > 8 ||
      (isScalar && (a.size != 4 && a.size != 8)))
    return fail("has size " + std::to_string(a.size) + " and rank " +
                std::to_string(a.rank));
  if (!isDescriptorKind(a.kind) && (a.set != 0 || a.binding != 0))
    return fail(
        std::string(isAddress ? "is bound by device address" : "is a scalar") +
        " but has descriptor set " + std::to_string(a.set) + ", binding " +
        std::to_string(a.binding));
  if (a.pushConstantOffset != kNoPushConstant) {
    if (isAddress && a.pushConstantOffset % 8)
      return fail("has its device address at push-constant offset " +
                  std::to_string(a.pushConstantOffset) +
                  ", not a multiple of 8");
    if (uint64_t(a.pushConstantOffset) + a.pushConstantBytes(indexBits) >
        pushConstantSize)
      return fail("has push-constant data past the end of the block");
  } else if (isScalar || isAddress || a.kind == ArgKind::IdentityMemRef) {
    return fail("has no push-constant data");
  }
  if (a.baseAlignment != 0 &&
      (!isDescriptorKind(a.kind) ||
       (a.baseAlignment & (a.baseAlignment - 1)) != 0 ||
       a.baseAlignment <= a.size || a.baseAlignment > 256))
    return fail("has base alignment " + std::to_string(a.baseAlignment) +
                " (a power of two above the element size, up to 256, for a "
                "descriptor memref)");
  if (a.kind == ArgKind::IdentityMemRef && a.rank == 0)
    return fail("has kind " + std::to_string(uint32_t(a.kind)) +
                " (a memref with dynamic sizes) and rank 0");
  return true;
}

static bool corrupt(std::string &error, const std::string &what) {
  error = "corrupt container: " + what;
  return false;
}

bool kiln::container::parse(const void *data, size_t size, ModuleInfo &module,
                            std::string &error) {
  module = ModuleInfo();
  if (!data)
    return corrupt(error, "no data");
  Reader r(static_cast<const uint8_t *>(data), size);
  uint32_t magic, version, kernelCount, wordCount;
  if (!r.word(magic, "magic", error))
    return false;
  if (magic != kMagic)
    return corrupt(error, "bad magic word");
  if (!r.word(version, "version", error))
    return false;
  // Version 2 is version 3 without the workgroup memory fields.
  if (version != kVersion && version != 2)
    return corrupt(error, "version " + std::to_string(version) +
                              " is not a supported version (2 or " +
                              std::to_string(kVersion) + ")");
  if (!r.word(module.indexBits, "index width", error))
    return false;
  if (module.indexBits != 32 && module.indexBits != 64)
    return corrupt(error,
                   "index width " + std::to_string(module.indexBits));
  if (!r.word(kernelCount, "kernel count", error) ||
      !r.word(wordCount, "SPIR-V word count", error))
    return false;
  if (kernelCount == 0 || kernelCount > kMaxKernels)
    return corrupt(error, "kernel count " + std::to_string(kernelCount));
  for (uint32_t i = 0; i < kernelCount; ++i) {
    KernelInfo k;
    uint32_t argCount;
    if (!r.string(k.name, "kernel name", error))
      return false;
    for (uint32_t &s : k.workgroupSize) {
      if (!r.word(s, "workgroup size", error))
        return false;
      if (s == 0)
        return corrupt(error, "kernel '" + k.name + "' has workgroup size 0");
    }
    if (!r.word(k.pushConstantSize, "push-constant size", error) ||
        !r.word(argCount, "argument count", error))
      return false;
    if (k.pushConstantSize % 4 || k.pushConstantSize > 65536)
      return corrupt(error, "kernel '" + k.name + "' has push-constant size " +
                                std::to_string(k.pushConstantSize));
    if (argCount > kMaxArgs)
      return corrupt(error, "kernel '" + k.name + "' has " +
                                std::to_string(argCount) + " arguments");
    for (uint32_t j = 0; j < argCount; ++j) {
      ArgInfo a;
      uint32_t kind, type;
      if (!r.word(kind, "argument kind", error) ||
          !r.word(type, "argument type", error) ||
          !r.word(a.size, "argument size", error) ||
          !r.word(a.rank, "argument rank", error) ||
          !r.word(a.set, "descriptor set", error) ||
          !r.word(a.binding, "binding", error) ||
          !r.word(a.pushConstantOffset, "push-constant offset", error) ||
          !r.word(a.baseAlignment, "base alignment", error))
        return false;
      std::string where =
          "kernel '" + k.name + "' argument " + std::to_string(j);
      if (kind > kMaxArgKind)
        return corrupt(error, where + " has kind " + std::to_string(kind));
      if (type > static_cast<uint32_t>(ScalarType::Index))
        return corrupt(error, where + " has scalar type " +
                                  std::to_string(type));
      a.kind = static_cast<ArgKind>(kind);
      a.scalarType = static_cast<ScalarType>(type);
      std::string why;
      if (!checkArg(a, k.pushConstantSize, module.indexBits, why))
        return corrupt(error, where + " " + why);
      k.args.push_back(a);
    }
    if (version >= 3) {
      if (!r.word(k.staticWorkgroupBytes, "static workgroup bytes", error) ||
          !r.word(k.dynamicWorkgroupElementBytes,
                  "dynamic workgroup element bytes", error) ||
          !r.word(k.addressVariant, "address variant", error))
        return false;
      if (k.staticWorkgroupBytes > (1u << 30))
        return corrupt(error, "kernel '" + k.name + "' has " +
                                  std::to_string(k.staticWorkgroupBytes) +
                                  " bytes of workgroup memory");
      uint32_t e = k.dynamicWorkgroupElementBytes;
      if (e != 0 && e != 1 && e != 2 && e != 4 && e != 8)
        return corrupt(error, "kernel '" + k.name +
                                  "' has dynamic workgroup elements of " +
                                  std::to_string(e) + " bytes");
    }
    if (k.addressVariant > kernelCount)
      return corrupt(error, "kernel '" + k.name + "' has address variant " +
                                std::to_string(k.addressVariant) + " of " +
                                std::to_string(kernelCount) + " kernels");
    module.kernels.push_back(std::move(k));
  }
  for (const KernelInfo &k : module.kernels)
    if (k.addressVariant) {
      std::string why;
      if (!checkAddressVariant(k, module.kernels[k.addressVariant - 1], why))
        return corrupt(error, "kernel '" + k.name + "' has address variant '" +
                                  module.kernels[k.addressVariant - 1].name +
                                  "', which " + why);
    }
  if (wordCount == 0)
    return corrupt(error, "no SPIR-V words");
  if (r.remaining() / 4 < wordCount || r.remaining() % 4)
    return corrupt(error, "SPIR-V holds " + std::to_string(r.remaining()) +
                              " bytes, header says " +
                              std::to_string(wordCount) + " words");
  if (r.remaining() != static_cast<size_t>(wordCount) * 4)
    return corrupt(error, "trailing bytes after the SPIR-V words");
  module.spirv.resize(wordCount);
  std::memcpy(module.spirv.data(),
              static_cast<const uint8_t *>(data) + r.position(),
              static_cast<size_t>(wordCount) * 4);
  if (module.spirv[0] != kSPIRVMagic)
    return corrupt(error, "SPIR-V words do not start with the SPIR-V magic");
  for (size_t i = 0; i < module.kernels.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (module.kernels[i].name == module.kernels[j].name)
        return corrupt(error, "kernel '" + module.kernels[i].name +
                                  "' is listed twice");
  // Only the canonical encoding is accepted (every container written round-
  // trips byte for byte): padding and unused fields must be what write()
  // puts there, so no two byte strings mean the same module.
  std::vector<uint8_t> canonical = encode(module, version);
  if (canonical.size() != size ||
      std::memcmp(canonical.data(), data, size) != 0) {
    size_t at = 0;
    while (at < std::min(canonical.size(), size) &&
           canonical[at] == static_cast<const uint8_t *>(data)[at])
      ++at;
    return corrupt(error, "byte " + std::to_string(at) +
                              " differs from the canonical encoding "
                              "(padding or an unused field is not zero)");
  }
  return true;
}

const char *kiln::container::scalarTypeName(ScalarType type) {
  switch (type) {
  case ScalarType::None:
    return "memref";
  case ScalarType::I1:
    return "i1";
  case ScalarType::I8:
    return "i8";
  case ScalarType::I16:
    return "i16";
  case ScalarType::I32:
    return "i32";
  case ScalarType::I64:
    return "i64";
  case ScalarType::F16:
    return "f16";
  case ScalarType::F32:
    return "f32";
  case ScalarType::F64:
    return "f64";
  case ScalarType::Index:
    return "index";
  }
  return "unknown";
}
