//===- FakeCUDA.h - Reaching FakeCUDADriver from the CUDA tests -*- C++ -*-===//
//
// Where the stand-in driver (FakeCUDADriver.cpp) is, and its inspection
// functions, for the test files of KilnCUDARuntimeTests.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_UNITTESTS_FAKECUDA_H
#define KILN_TEST_UNITTESTS_FAKECUDA_H

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <string>
#include <unistd.h>

namespace kiln::test {

/// The stand-in driver: fake-cuda/libcuda.so.1 beside this executable (as in
/// the build tree and in the device kit), else where the build put it.
inline const std::string &fakeDriver() {
  static const std::string path = [] {
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n > 0) {
      std::string dir(self, static_cast<size_t>(n));
      dir.resize(dir.rfind('/'));
      std::string beside = dir + "/fake-cuda/libcuda.so.1";
      if (access(beside.c_str(), R_OK) == 0)
        return beside;
    }
    return std::string(FAKE_CUDA_DRIVER);
  }();
  return path;
}

/// A function of the stand-in driver. It is opened here when the runtime has
/// not opened it yet (a test that reads its counters first, in a shuffled
/// order); the runtime's dlopen of the same path then finds this copy.
template <typename T> T fake(const char *name) {
  void *handle = dlopen(fakeDriver().c_str(), RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(handle, nullptr) << "the fake driver does not load: " << dlerror();
  void *symbol = handle ? dlsym(handle, name) : nullptr;
  EXPECT_NE(symbol, nullptr) << name;
  return reinterpret_cast<T>(symbol);
}

} // namespace kiln::test

#endif // KILN_TEST_UNITTESTS_FAKECUDA_H
