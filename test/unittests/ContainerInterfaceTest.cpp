//===- ContainerInterfaceTest.cpp - Argument tables against SPIR-V --------===//
//
// A container's table against its SPIR-V.
//
// checkInterface and checkRawInterface on SPIR-V compiled by glslc: the
// table that matches is accepted, and each field a tampered or wrong
// container could change (binding, set, element size, kind, push-constant
// offsets, sizes and types, workgroup memory) is refused with the kernel and
// the field named. SPIR-V 1.0 (entry points list only inputs; the used
// variables are found in the functions) and 1.6 (the interface lists them).
//
//===----------------------------------------------------------------------===//

#include "kiln/Contract/Container.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

using namespace kiln::container;

namespace {

const uint32_t kStridedStore[] = {
#include "strided_store.inc"
};
const uint32_t kStridedStoreV13[] = {
#include "strided_store_v13.inc"
};
const uint32_t kSpecWorkgroup[] = {
#include "spec_workgroup.inc"
};
const uint32_t kSpecWorkgroupV13[] = {
#include "spec_workgroup_v13.inc"
};
const uint32_t kStridedStoreVec[] = {
#include "strided_store_vec.inc"
};
const uint32_t kIncrement[] = {
#include "increment.inc"
};
const uint32_t kBigShared[] = {
#include "big_shared.inc"
};

template <size_t N> std::vector<uint32_t> words(const uint32_t (&w)[N]) {
  return std::vector<uint32_t>(w, w + N);
}

/// strided_store's own table: the i32 memref at (0, 0) with its {offset,
/// size, stride} at push-constant byte 0.
ModuleInfo stridedStore(const std::vector<uint32_t> &spirv) {
  ModuleInfo m;
  KernelInfo k;
  k.name = "main";
  k.workgroupSize[0] = 64;
  k.pushConstantSize = 12;
  ArgInfo a;
  a.kind = ArgKind::MemRef;
  a.size = 4;
  a.rank = 1;
  a.pushConstantOffset = 0;
  k.args.push_back(a);
  m.kernels.push_back(k);
  m.spirv = spirv;
  return m;
}

/// The error checkInterface gives, or "" when it accepts `m`.
std::string check(const ModuleInfo &m) {
  std::string error;
  bool ok = checkInterface(m, error);
  EXPECT_EQ(ok, error.empty()) << error;
  return ok ? "" : error;
}

class Interface : public ::testing::TestWithParam<bool> {
protected:
  /// SPIR-V 1.6 (glslc for Vulkan 1.3) or 1.0.
  std::vector<uint32_t> spirv() const {
    return GetParam() ? words(kStridedStoreV13) : words(kStridedStore);
  }
};

TEST_P(Interface, TheMatchingTableIsAccepted) {
  EXPECT_EQ(check(stridedStore(spirv())), "");
}

TEST_P(Interface, ABindingOrSetNoArgumentHasIsRefused) {
  const std::string unbound =
      "its container's argument table for kernel 'main' disagrees with its "
      "SPIR-V: it uses the resource at (set 0, binding 0), which no argument "
      "is bound at";
  ModuleInfo m = stridedStore(spirv());
  m.kernels[0].args[0].binding = 1;
  EXPECT_EQ(check(m), unbound);
  m = stridedStore(spirv());
  m.kernels[0].args[0].set = 2;
  EXPECT_EQ(check(m), unbound);
  // A memref said to be bound by address leaves the descriptor unbound.
  m = stridedStore(spirv());
  m.kernels[0].args[0].kind = ArgKind::StridedAddress;
  EXPECT_NE(check(m).find("which no argument is bound at"), std::string::npos);
}

TEST_P(Interface, AnElementSizeTheArrayStrideDoesNotFitIsRefused) {
  ModuleInfo m = stridedStore(spirv());
  m.kernels[0].args[0].size = 8;
  EXPECT_NE(check(m).find("argument 0 at (set 0, binding 0) has 8-byte "
                          "elements, but the SPIR-V's array there has "
                          "ArrayStride 4"),
            std::string::npos)
      << check(m);
  m = stridedStore(spirv());
  m.kernels[0].args[0].baseAlignment = 16;
  EXPECT_NE(check(m).find("has 4-byte elements read as 16-byte vectors, but "
                          "the SPIR-V's array there has ArrayStride 4"),
            std::string::npos);
  // strided_store_vec reads 32-byte blocks: base alignment 32 fits.
  m = stridedStore(words(kStridedStoreVec));
  m.kernels[0].args[0].baseAlignment = 32;
  EXPECT_EQ(check(m), "");
}

TEST_P(Interface, TwoArgumentsAtOneBindingAreRefused) {
  ModuleInfo m = stridedStore(spirv());
  ArgInfo second = m.kernels[0].args[0];
  second.pushConstantOffset = kNoPushConstant;
  m.kernels[0].args.push_back(second);
  EXPECT_NE(check(m).find("arguments 0 and 1 are both bound at (set 0, "
                          "binding 0)"),
            std::string::npos)
      << check(m);
}

TEST_P(Interface, PushConstantsMustBeTheArgumentsValues) {
  // Shifted by one word: the block's first member is no argument's.
  ModuleInfo m = stridedStore(spirv());
  m.kernels[0].pushConstantSize = 16;
  m.kernels[0].args[0].pushConstantOffset = 4;
  EXPECT_NE(check(m).find("push-constant member 0 at offset 0 is no "
                          "argument's value"),
            std::string::npos)
      << check(m);
  // A block larger than the range the pipeline layout would get.
  m = stridedStore(spirv());
  m.kernels[0].pushConstantSize = 8;
  m.kernels[0].args[0].pushConstantOffset = kNoPushConstant;
  EXPECT_NE(check(m).find("its push-constant block reaches byte 12, past "
                          "the 8 bytes the container gives it"),
            std::string::npos)
      << check(m);
  // The metadata as three scalars, the last one said to be a float.
  m = stridedStore(spirv());
  KernelInfo &k = m.kernels[0];
  k.args[0].pushConstantOffset = kNoPushConstant;
  for (uint32_t i = 0; i < 3; ++i) {
    ArgInfo s;
    s.kind = ArgKind::Scalar;
    s.scalarType = i == 2 ? ScalarType::F32 : ScalarType::I32;
    s.size = 4;
    s.pushConstantOffset = 4 * i;
    k.args.push_back(s);
  }
  EXPECT_EQ(check(m),
            "its container's argument table for kernel 'main' disagrees with "
            "its SPIR-V: push-constant member 2 at offset 8 is an integer of "
            "4 bytes, but argument 3 (f32) is written there as a float of 4");
  k.args[3].scalarType = ScalarType::I32;
  EXPECT_EQ(check(m), "");
  // A value written where the block has no member.
  ArgInfo extra = k.args[3];
  extra.pushConstantOffset = 12;
  k.args.push_back(extra);
  k.pushConstantSize = 16;
  EXPECT_NE(check(m).find("argument 4 (i32) at push-constant offset 12 is no "
                          "member of the SPIR-V's push-constant block"),
            std::string::npos)
      << check(m);
}

TEST_P(Interface, AddressKindsNeedTheCapability) {
  ModuleInfo m = stridedStore(spirv());
  ArgInfo address;
  address.kind = ArgKind::Address;
  address.size = 4;
  address.rank = 1;
  address.pushConstantOffset = 16;
  m.kernels[0].pushConstantSize = 24;
  m.kernels[0].args.push_back(address);
  EXPECT_NE(check(m).find("argument 1 is bound by device address, but the "
                          "SPIR-V does not declare "
                          "PhysicalStorageBufferAddresses"),
            std::string::npos)
      << check(m);
}

TEST_P(Interface, AWorkgroupSizeTheLocalSizeDoesNotHaveIsRefused) {
  ModuleInfo m = stridedStore(spirv());
  m.kernels[0].workgroupSize[0] = 32;
  EXPECT_EQ(check(m), "its container gives kernel 'main' workgroup size (32, "
                      "1, 1) but its SPIR-V (64, 1, 1)");
}

/// A size set by specialization (a WorkgroupSize built-in in SPIR-V 1.0,
/// LocalSizeId in 1.6) is not the module's to fix: any table size passes,
/// and 1.0's LocalSize (1, 1, 1) beside the built-in is not compared.
TEST_P(Interface, AWorkgroupSizeSetBySpecializationIsNotCompared) {
  ModuleInfo m = stridedStore(GetParam() ? words(kSpecWorkgroupV13)
                                         : words(kSpecWorkgroup));
  EXPECT_EQ(check(m), "");
  m.kernels[0].workgroupSize[0] = 7;
  m.kernels[0].workgroupSize[1] = 3;
  EXPECT_EQ(check(m), "");
}

TEST_P(Interface, AKernelWithoutAnEntryPointIsRefused) {
  ModuleInfo m = stridedStore(spirv());
  m.kernels[0].name = "other";
  EXPECT_NE(check(m).find("kernel 'other' disagrees with its SPIR-V: there "
                          "is no GLCompute entry point of that name"),
            std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(SPIRVVersions, Interface, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? "SPIRV16" : "SPIRV10";
                         });

TEST(Interface, DynamicWorkgroupMemoryMustBeTheContainers) {
  // big_shared's workgroup array has a constant length: no dynamic memory.
  ModuleInfo m;
  KernelInfo k;
  k.name = "main";
  ArgInfo a;
  a.size = 4;
  a.rank = 1;
  k.args.push_back(a);
  k.dynamicWorkgroupElementBytes = 4;
  m.kernels.push_back(k);
  m.spirv = words(kBigShared);
  EXPECT_NE(check(m).find("the container gives its dynamic workgroup array "
                          "4-byte elements, the SPIR-V has no such array"),
            std::string::npos)
      << check(m);
  m.kernels[0].dynamicWorkgroupElementBytes = 0;
  EXPECT_EQ(check(m), "");
}

TEST(Interface, RawSPIRVGetsItsBuffersAndNoPushConstants) {
  std::string error;
  EXPECT_TRUE(checkRawInterface(words(kIncrement), "main", 1, error)) << error;
  EXPECT_TRUE(checkRawInterface(words(kIncrement), "main", 3, error)) << error;
  EXPECT_FALSE(checkRawInterface(words(kIncrement), "main", 0, error));
  EXPECT_EQ(error, "raw SPIR-V kernel 'main' launched with 0 pointer-size "
                   "pairs (bound at set 0, bindings 0 to N-1): it uses the "
                   "resource at (set 0, binding 0), which no argument is "
                   "bound at");
  EXPECT_FALSE(checkRawInterface(words(kStridedStore), "main", 1, error));
  EXPECT_NE(error.find("it reads push constants, which a raw SPIR-V launch "
                       "does not pass"),
            std::string::npos)
      << error;
  EXPECT_FALSE(checkRawInterface({1, 2, 3}, "main", 1, error));
}

/// Garbage after a valid header: every word of a real module replaced in
/// turn by values that name other ids, cut the stream short or run past
/// its end, and make cycles, must give an answer, never a crash or a read
/// outside the words (the sanitizer build runs this).
TEST(Interface, EveryWordMutationGivesAnAnswer) {
  for (const std::vector<uint32_t> &base :
       {words(kStridedStore), words(kStridedStoreV13)}) {
    for (size_t i = 5; i < base.size(); ++i) {
      for (uint32_t value : {0u, 1u, 2u, 9u, 12u, 0xFFFFFFFFu, 0x10000u,
                             base[i] + 1, base[i] - 1, base[i] + 0x10000}) {
        ModuleInfo m = stridedStore(base);
        m.spirv[i] = value;
        std::string error;
        (void)checkInterface(m, error);
        (void)checkRawInterface(m.spirv, "main", 2, error);
      }
    }
  }
}

/// The fuzz corpus in the source tree; tests that read it skip where the
/// tests run without their sources (the device kit).
#define REQUIRE_CORPUS()                                                       \
  if (!std::filesystem::is_directory(KILN_FUZZ_CORPUS))                        \
  GTEST_SKIP() << KILN_FUZZ_CORPUS " is not here (run away from the sources)"

/// A kernel compiled with gpu.dynamic_shared_memory, given as raw SPIR-V:
/// nothing would set its array's length.
TEST(Interface, RawSPIRVWithDynamicWorkgroupMemoryIsRefused) {
  REQUIRE_CORPUS();
  std::ifstream in(std::string(KILN_FUZZ_CORPUS) +
                       "/container/dynamic_shared_memory-main_kernel.kiln",
                   std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  ModuleInfo m;
  std::string error;
  ASSERT_TRUE(parse(bytes.data(), bytes.size(), m, error)) << error;
  ASSERT_EQ(m.kernels.size(), 1u);
  EXPECT_NE(m.kernels[0].dynamicWorkgroupElementBytes, 0u);
  EXPECT_FALSE(checkRawInterface(m.spirv, m.kernels[0].name,
                                 uint32_t(m.kernels[0].args.size()), error));
  EXPECT_NE(error.find("whose length a raw SPIR-V launch does not set"),
            std::string::npos)
      << error;
}

/// The fuzzers' seeds are containers the compiler writes now: a seed the
/// parser refuses (an old version) only exercises the version check.
TEST(Interface, FuzzCorpusContainersAreCurrent) {
  REQUIRE_CORPUS();
  size_t seen = 0;
  for (const char *folder : {"container", "module"})
    for (const auto &entry : std::filesystem::directory_iterator(
             std::string(KILN_FUZZ_CORPUS) + "/" + folder)) {
      if (entry.path().extension() != ".kiln")
        continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
      ModuleInfo m;
      std::string error;
      EXPECT_TRUE(parse(bytes.data(), bytes.size(), m, error) &&
                  checkInterface(m, error))
          << entry.path() << ": " << error
          << " (regenerate it with kiln-compile --emit=container)";
      ++seen;
    }
  EXPECT_GE(seen, 10u);
}

} // namespace
