//===- FuzzContainer.cpp - libFuzzer target: Kiln's container parser ------===//
//
// Any bytes: the parser either refuses them or reads a module that writes
// back to exactly the same bytes (only the canonical encoding parses).
//
//===----------------------------------------------------------------------===//

#include "kiln/Contract/Container.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  kiln::container::ModuleInfo info;
  std::string error;
  if (!kiln::container::parse(data, size, info, error)) {
    if (error.empty()) {
      std::fprintf(stderr, "parse failed without saying why\n");
      std::abort();
    }
    return 0;
  }
  std::vector<uint8_t> written = kiln::container::write(info);
  if (written.size() != size || std::memcmp(written.data(), data, size) != 0) {
    std::fprintf(stderr, "a parsed container does not write back byte for "
                         "byte (%zu bytes in, %zu out)\n",
                 size, written.size());
    std::abort();
  }
  return 0;
}
