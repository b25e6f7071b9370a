//===- ContainerTest.cpp - Kiln container round trips and corruption ------===//

#include "kiln/Contract/Container.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace kiln::container;

namespace {

ModuleInfo makeModule() {
  ModuleInfo m;
  m.indexBits = 32;
  KernelInfo k;
  k.name = "scale";
  k.workgroupSize[0] = 64;
  k.pushConstantSize = 24;
  ArgInfo buf;
  buf.kind = ArgKind::MemRef;
  buf.size = 4;
  buf.rank = 2;
  buf.binding = 0;
  buf.pushConstantOffset = 0; // offset, sizes[2], strides[2] = 20 bytes
  ArgInfo scalar;
  scalar.kind = ArgKind::Scalar;
  scalar.scalarType = ScalarType::F32;
  scalar.size = 4;
  scalar.pushConstantOffset = 20;
  ArgInfo plain;
  plain.kind = ArgKind::MemRef;
  plain.size = 2;
  plain.rank = 1;
  plain.set = 1;
  plain.binding = 3;
  k.args = {buf, scalar, plain};
  m.kernels.push_back(k);
  KernelInfo empty;
  empty.name = "noop";
  m.kernels.push_back(empty);
  m.spirv = {kSPIRVMagic, 0x00010600, 0, 42, 0};
  return m;
}

TEST(Container, RoundTrip) {
  ModuleInfo m = makeModule();
  std::vector<uint8_t> bytes = write(m);
  ASSERT_TRUE(isContainer(bytes.data(), bytes.size()));
  ModuleInfo back;
  std::string error;
  ASSERT_TRUE(parse(bytes.data(), bytes.size(), back, error)) << error;
  EXPECT_EQ(back.indexBits, 32u);
  ASSERT_EQ(back.kernels.size(), 2u);
  const KernelInfo *k = back.findKernel("scale");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->workgroupSize[0], 64u);
  EXPECT_EQ(k->workgroupSize[1], 1u);
  EXPECT_EQ(k->pushConstantSize, 24u);
  ASSERT_EQ(k->args.size(), 3u);
  EXPECT_EQ(k->args, m.kernels[0].args);
  EXPECT_EQ(back.findKernel("noop")->args.size(), 0u);
  EXPECT_EQ(back.findKernel("missing"), nullptr);
  EXPECT_EQ(back.spirv, m.spirv);
}

/// A kernel with one argument of each kind bound by device address.
ModuleInfo makeAddressModule() {
  ModuleInfo m = makeModule();
  KernelInfo &k = m.kernels[0];
  ArgInfo address;
  address.kind = ArgKind::Address;
  address.size = 4;
  address.rank = 1;
  address.pushConstantOffset = 24; // 8 bytes
  ArgInfo strided;
  strided.kind = ArgKind::StridedAddress;
  strided.size = 8;
  strided.rank = 2;
  strided.pushConstantOffset = 32; // 8 + offset, sizes[2], strides[2]
  k.args.push_back(address);
  k.args.push_back(strided);
  k.pushConstantSize = 60;
  return m;
}

TEST(Container, AddressKindsRoundTrip) {
  ModuleInfo m = makeAddressModule();
  EXPECT_EQ(m.kernels[0].args[3].pushConstantBytes(32), 8u);
  EXPECT_EQ(m.kernels[0].args[4].pushConstantBytes(32), 28u);
  EXPECT_EQ(m.kernels[0].args[4].pushConstantBytes(64), 48u);
  std::vector<uint8_t> bytes = write(m);
  ModuleInfo back;
  std::string error;
  ASSERT_TRUE(parse(bytes.data(), bytes.size(), back, error)) << error;
  EXPECT_EQ(back.kernels[0].args, m.kernels[0].args);
  EXPECT_TRUE(isMemRefKind(ArgKind::StridedAddress));
  EXPECT_TRUE(isAddressKind(ArgKind::Address));
  EXPECT_FALSE(isAddressKind(ArgKind::MemRef));
}

TEST(Container, AddressKindsChecked) {
  auto parseWith = [](void (*edit)(ArgInfo &, KernelInfo &)) {
    ModuleInfo m = makeAddressModule();
    edit(m.kernels[0].args[4], m.kernels[0]);
    std::vector<uint8_t> bytes = write(m);
    ModuleInfo back;
    std::string error;
    EXPECT_FALSE(parse(bytes.data(), bytes.size(), back, error));
    return error;
  };
  EXPECT_NE(parseWith([](ArgInfo &a, KernelInfo &) { a.binding = 2; })
                .find("bound by device address but has descriptor set 0, "
                      "binding 2"),
            std::string::npos);
  EXPECT_NE(parseWith([](ArgInfo &a, KernelInfo &) {
              a.pushConstantOffset = 28;
            }).find("push-constant offset 28, not a multiple of 8"),
            std::string::npos);
  EXPECT_NE(parseWith([](ArgInfo &a, KernelInfo &) {
              a.pushConstantOffset = kNoPushConstant;
            }).find("has no push-constant data"),
            std::string::npos);
  // The metadata after the address must fit the block.
  EXPECT_NE(parseWith([](ArgInfo &, KernelInfo &k) {
              k.pushConstantSize = 56;
            }).find("push-constant data past the end of the block"),
            std::string::npos);
  EXPECT_NE(parseWith([](ArgInfo &a, KernelInfo &) {
              a.kind = static_cast<ArgKind>(5);
            }).find("has kind 5"),
            std::string::npos);
}

/// A dynamic memref with the identity layout: bound at its first element,
/// with metadata but no offset to rebase.
TEST(Container, IdentityMemRefRoundTripsAndIsChecked) {
  ModuleInfo m = makeModule();
  KernelInfo &k = m.kernels[0];
  ArgInfo identity;
  identity.kind = ArgKind::IdentityMemRef;
  identity.size = 4;
  identity.rank = 2;
  identity.binding = 4;
  identity.pushConstantOffset = 24; // offset, sizes[2], strides[2]
  identity.baseAlignment = 16;      // read as vectors of 4 elements
  k.args.push_back(identity);
  k.pushConstantSize = 44;
  EXPECT_EQ(identity.pushConstantBytes(32), 20u);
  EXPECT_EQ(identity.pushConstantBytes(64), 40u);
  EXPECT_TRUE(identity.hasMetadata());
  EXPECT_FALSE(identity.hasRebasableOffset());
  EXPECT_TRUE(isDescriptorKind(ArgKind::IdentityMemRef));
  EXPECT_TRUE(isMemRefKind(ArgKind::IdentityMemRef));
  EXPECT_FALSE(isAddressKind(ArgKind::IdentityMemRef));
  // A strided descriptor memref rebases; a static one has no metadata.
  EXPECT_TRUE(k.args[0].hasRebasableOffset());
  EXPECT_FALSE(k.args[2].hasMetadata());
  std::vector<uint8_t> bytes = write(m);
  ModuleInfo back;
  std::string error;
  ASSERT_TRUE(parse(bytes.data(), bytes.size(), back, error)) << error;
  EXPECT_EQ(back.kernels[0].args, k.args);

  auto parseWith = [&](void (*edit)(ArgInfo &)) {
    ModuleInfo bad = m;
    edit(bad.kernels[0].args.back());
    std::vector<uint8_t> badBytes = write(bad);
    EXPECT_FALSE(parse(badBytes.data(), badBytes.size(), back, error));
    return error;
  };
  EXPECT_NE(parseWith([](ArgInfo &a) {
              a.pushConstantOffset = kNoPushConstant;
            }).find("has no push-constant data"),
            std::string::npos);
  EXPECT_NE(parseWith([](ArgInfo &a) { a.rank = 0; }).find("rank 0"),
            std::string::npos);
}

/// A version 1 container (pushed offsets for every dynamic memref) is
/// refused: its runtime would bind identity memrefs below their first
/// element.
TEST(Container, OtherVersionsAreRefused) {
  std::vector<uint8_t> bytes = write(makeModule());
  uint32_t version = 1;
  std::memcpy(bytes.data() + 4, &version, 4);
  ModuleInfo back;
  std::string error;
  EXPECT_FALSE(parse(bytes.data(), bytes.size(), back, error));
  EXPECT_NE(error.find("version 1 is not a supported version (2 or 3)"),
            std::string::npos)
      << error;
}

/// Version 3's workgroup memory fields round trip, and bad ones are
/// refused with the kernel named.
TEST(Container, WorkgroupMemory) {
  ModuleInfo m = makeModule();
  m.kernels[0].staticWorkgroupBytes = 1024;
  m.kernels[0].dynamicWorkgroupElementBytes = 4;
  std::vector<uint8_t> bytes = write(m);
  ModuleInfo back;
  std::string error;
  ASSERT_TRUE(parse(bytes.data(), bytes.size(), back, error)) << error;
  EXPECT_EQ(back.kernels[0].staticWorkgroupBytes, 1024u);
  EXPECT_EQ(back.kernels[0].dynamicWorkgroupElementBytes, 4u);
  EXPECT_EQ(back.kernels[1].dynamicWorkgroupElementBytes, 0u);

  m.kernels[0].dynamicWorkgroupElementBytes = 3;
  bytes = write(m);
  EXPECT_FALSE(parse(bytes.data(), bytes.size(), back, error));
  EXPECT_NE(error.find("kernel 'scale' has dynamic workgroup elements of 3 "
                       "bytes"),
            std::string::npos)
      << error;
  m.kernels[0].dynamicWorkgroupElementBytes = 4;
  m.kernels[0].staticWorkgroupBytes = 0x80000000u;
  bytes = write(m);
  EXPECT_FALSE(parse(bytes.data(), bytes.size(), back, error));
  EXPECT_NE(error.find("bytes of workgroup memory"), std::string::npos)
      << error;
}

/// A kernel's address variant: "scale" with its memrefs bound by address.
ModuleInfo withAddressVariant() {
  ModuleInfo m = makeModule();
  KernelInfo v = m.kernels[0];
  v.name = "scale__kiln_by_address";
  v.pushConstantSize = 40;
  v.args[0].kind = ArgKind::StridedAddress; // address, offset, sizes, strides
  v.args[0].binding = 0;
  v.args[0].pushConstantOffset = 0;
  v.args[1].pushConstantOffset = 28;
  v.args[2].kind = ArgKind::Address;
  v.args[2].set = 0;
  v.args[2].binding = 0;
  v.args[2].pushConstantOffset = 32;
  m.kernels.push_back(v);
  m.kernels[0].addressVariant = 3;
  return m;
}

TEST(Container, AddressVariant) {
  ModuleInfo m = withAddressVariant();
  std::vector<uint8_t> bytes = write(m);
  ModuleInfo back;
  std::string error;
  ASSERT_TRUE(parse(bytes.data(), bytes.size(), back, error)) << error;
  EXPECT_EQ(back.kernels[0].addressVariant, 3u);
  EXPECT_EQ(back.kernels[2].addressVariant, 0u);
}

/// A variant that could not stand in for its kernel, or one past the
/// kernels, is refused: the runtime would launch it with the kernel's
/// arguments.
TEST(Container, BadAddressVariant) {
  auto refused = [](ModuleInfo m, const char *expected) {
    std::vector<uint8_t> bytes = write(m);
    ModuleInfo back;
    std::string error;
    EXPECT_FALSE(parse(bytes.data(), bytes.size(), back, error));
    EXPECT_NE(error.find(expected), std::string::npos) << error;
  };
  ModuleInfo m = withAddressVariant();
  m.kernels[0].addressVariant = 4;
  refused(m, "kernel 'scale' has address variant 4 of 3 kernels");
  m = withAddressVariant();
  m.kernels[0].addressVariant = 1;
  refused(m, "kernel 'scale' has address variant 'scale', which is itself");
  m = withAddressVariant();
  m.kernels[0].addressVariant = 2;
  refused(m, "has address variant 'noop', which has another workgroup size");
  m = withAddressVariant();
  m.kernels[2].workgroupSize[0] = 64;
  m.kernels[2].args[1].scalarType = ScalarType::I32;
  refused(m, "which takes argument 1 otherwise");
  m = withAddressVariant();
  m.kernels[2].addressVariant = 1;
  refused(m, "has address variant 'scale__kiln_by_address', which is itself "
             "or has an address variant");
}

/// A version 2 container (no workgroup memory fields) still reads, as
/// kernels without dynamic workgroup memory.
TEST(Container, Version2Reads) {
  ModuleInfo m = makeModule();
  std::vector<uint8_t> v3 = write(m);
  // Drop each kernel's three trailing words: "scale" ends after its 3
  // arguments, "noop" after its argument count.
  std::vector<uint8_t> v2(v3.begin(), v3.end());
  size_t header = 5 * 4;
  size_t scale = 4 + 8 + 12 + 4 + 4 + 3 * 8 * 4;
  size_t noop = 4 + 4 + 12 + 4 + 4;
  v2.erase(v2.begin() + header + scale + 12 + noop,
           v2.begin() + header + scale + 12 + noop + 12);
  v2.erase(v2.begin() + header + scale, v2.begin() + header + scale + 12);
  uint32_t version = 2;
  std::memcpy(v2.data() + 4, &version, 4);
  ModuleInfo back;
  std::string error;
  ASSERT_TRUE(parse(v2.data(), v2.size(), back, error)) << error;
  ASSERT_EQ(back.kernels.size(), 2u);
  EXPECT_EQ(back.kernels[0].args.size(), 3u);
  EXPECT_EQ(back.kernels[0].dynamicWorkgroupElementBytes, 0u);
  EXPECT_EQ(back.spirv, m.spirv);
}

TEST(Container, NamesArePadded) {
  ModuleInfo m = makeModule();
  m.kernels[0].name = "abcde"; // 5 bytes, padded to 8
  std::vector<uint8_t> bytes = write(m);
  EXPECT_EQ(bytes.size() % 4, 0u);
  ModuleInfo back;
  std::string error;
  ASSERT_TRUE(parse(bytes.data(), bytes.size(), back, error)) << error;
  EXPECT_EQ(back.kernels[0].name, "abcde");
}

TEST(Container, OnlyTheCanonicalEncodingParses) {
  ModuleInfo m = makeModule();
  m.kernels[0].name = "abcde"; // 5 bytes, padded to 8
  std::vector<uint8_t> bytes = write(m);
  // Find the name's padding and make it non-zero: same module, other bytes.
  size_t at = 0;
  while (std::memcmp(bytes.data() + at, "abcde", 5) != 0)
    ++at;
  ASSERT_EQ(bytes[at + 5], 0);
  bytes[at + 5] = 'x';
  ModuleInfo back;
  std::string error;
  EXPECT_FALSE(parse(bytes.data(), bytes.size(), back, error));
  EXPECT_NE(error.find("differs from the canonical encoding"),
            std::string::npos)
      << error;
}

TEST(Container, EveryByteFlipEitherFailsOrRoundTrips) {
  std::vector<uint8_t> bytes = write(makeModule());
  for (size_t i = 0; i < bytes.size(); ++i)
    for (uint8_t flip : {0x01, 0x80, 0xff}) {
      std::vector<uint8_t> mutated = bytes;
      mutated[i] ^= flip;
      ModuleInfo back;
      std::string error;
      if (parse(mutated.data(), mutated.size(), back, error)) {
        EXPECT_EQ(write(back), mutated) << "byte " << i;
      }
    }
}

TEST(Container, DuplicateKernelNamesFail) {
  ModuleInfo m = makeModule();
  m.kernels[1].name = "scale";
  std::vector<uint8_t> bytes = write(m);
  ModuleInfo back;
  std::string error;
  EXPECT_FALSE(parse(bytes.data(), bytes.size(), back, error));
  EXPECT_NE(error.find("'scale' is listed twice"), std::string::npos) << error;
}

TEST(Container, EveryTruncationFails) {
  std::vector<uint8_t> bytes = write(makeModule());
  for (size_t n = 0; n < bytes.size(); ++n) {
    ModuleInfo back;
    std::string error;
    EXPECT_FALSE(parse(bytes.data(), n, back, error)) << "length " << n;
    EXPECT_FALSE(error.empty());
  }
}

TEST(Container, TrailingBytesFail) {
  std::vector<uint8_t> bytes = write(makeModule());
  bytes.push_back(0);
  ModuleInfo back;
  std::string error;
  EXPECT_FALSE(parse(bytes.data(), bytes.size(), back, error));
}

void patchWord(std::vector<uint8_t> &bytes, size_t wordIndex, uint32_t value) {
  std::memcpy(bytes.data() + 4 * wordIndex, &value, 4);
}

TEST(Container, CorruptHeaderFields) {
  const std::vector<uint8_t> good = write(makeModule());
  struct Case {
    size_t word;
    uint32_t value;
    const char *expect;
  } cases[] = {
      {0, 0x12345678, "bad magic"},
      {1, 99, "version 99"},
      {2, 16, "index width"},
      {3, 0, "kernel count"},
      {3, 1u << 20, "kernel count"},
      {4, 1000, "SPIR-V"},
      {5, 0, "kernel name"},         // name length 0
      {5, 1u << 30, "kernel name"},  // absurd name length
      {8, 0, "workgroup size 0"},    // workgroup x ("scale" pads to 2 words)
      {11, 6, "push-constant size"}, // not a multiple of 4
      {12, 1u << 20, "arguments"},   // argument count
      {13, 7, "kind"},               // first argument's kind
      {14, 42, "scalar type"},       // first argument's scalar type
      {15, 0, "size"},               // first argument's element size
      {16, 9, "rank"},               // first argument's rank
      {19, 16, "past the end"},      // metadata beyond the block
      {20, 3, "base alignment 3"},   // not a power of two
      {20, 4, "base alignment 4"},   // not above the element size
      {20, 512, "base alignment 512"},
      {22, 0, "mixes kind"},         // scalar argument with type None
      {28, 16, "base alignment 16"}, // on a scalar
  };
  for (const Case &c : cases) {
    std::vector<uint8_t> bytes = good;
    patchWord(bytes, c.word, c.value);
    ModuleInfo back;
    std::string error;
    EXPECT_FALSE(parse(bytes.data(), bytes.size(), back, error))
        << "word " << c.word;
    EXPECT_NE(error.find(c.expect), std::string::npos)
        << "word " << c.word << ": " << error;
  }
}

TEST(Container, SPIRVMagicChecked) {
  ModuleInfo m = makeModule();
  m.spirv[0] = 0xDEADBEEF;
  std::vector<uint8_t> bytes = write(m);
  ModuleInfo back;
  std::string error;
  EXPECT_FALSE(parse(bytes.data(), bytes.size(), back, error));
  EXPECT_NE(error.find("SPIR-V magic"), std::string::npos) << error;
}

TEST(Container, NullAndRawSPIRV) {
  ModuleInfo back;
  std::string error;
  EXPECT_FALSE(parse(nullptr, 0, back, error));
  uint32_t raw[] = {kSPIRVMagic, 0x00010000, 0, 1, 0};
  EXPECT_FALSE(isContainer(raw, sizeof(raw)));
  EXPECT_FALSE(parse(raw, sizeof(raw), back, error));
}

} // namespace
