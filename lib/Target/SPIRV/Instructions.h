//===- Instructions.h - Serialized SPIR-V split into instructions -*- C++
//-*-===//
//
// What the rewrites of serialized SPIR-V (DebugPrintf.cpp, ArrayLength.cpp)
// walk: the instructions after the header, each one's first word, opcode
// (SPIRV-Headers' SpvOp numbers) and word count, and their literal strings.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_TARGET_SPIRV_INSTRUCTIONS_H
#define KILN_LIB_TARGET_SPIRV_INSTRUCTIONS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <spirv/unified1/spirv.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace kiln {

struct SPIRVInstruction {
  size_t at;
  uint16_t opcode;
  uint16_t count;
};

/// Splits `words` (a module with its 5-word header) into `insts`; fails,
/// with `error` set, on a module without a header or an instruction whose
/// word count is 0 or runs past the end.
inline mlir::LogicalResult
splitSPIRVInstructions(llvm::ArrayRef<uint32_t> words,
                       llvm::SmallVectorImpl<SPIRVInstruction> &insts,
                       std::string &error) {
  if (words.size() < 5) {
    error = "the SPIR-V has no header";
    return mlir::failure();
  }
  for (size_t i = 5; i < words.size();) {
    uint16_t count = words[i] >> 16;
    if (count == 0 || i + count > words.size()) {
      error = "malformed instruction at word " + std::to_string(i);
      return mlir::failure();
    }
    insts.push_back({i, static_cast<uint16_t>(words[i] & 0xffff), count});
    i += count;
  }
  return mlir::success();
}

/// The literal string that starts at `words[at]` of an instruction ending
/// before `end` (a NUL-terminated UTF-8 string padded to whole words).
inline llvm::StringRef readSPIRVString(llvm::ArrayRef<uint32_t> words,
                                       size_t at, size_t end) {
  const char *begin = reinterpret_cast<const char *>(words.data() + at);
  return llvm::StringRef(begin, strnlen(begin, (end - at) * 4));
}

} // namespace kiln

#endif // KILN_LIB_TARGET_SPIRV_INSTRUCTIONS_H
