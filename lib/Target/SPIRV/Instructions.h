//===- Instructions.h - Serialized SPIR-V split into instructions -*- C++ -*-===//
//
// What the rewrites of serialized SPIR-V (DebugPrintf.cpp, ArrayLength.cpp)
// walk: the instructions after the header, each one's first word, opcode
// and word count.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_TARGET_SPIRV_INSTRUCTIONS_H
#define KILN_LIB_TARGET_SPIRV_INSTRUCTIONS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>

namespace kiln {

/// The opcodes the rewrites read or write (the SPIR-V specification's
/// numbers).
namespace spirv_op {
enum : uint16_t {
  OpName = 5,
  OpString = 7,
  OpExtension = 10,
  OpExtInstImport = 11,
  OpExtInst = 12,
  OpMemoryModel = 14,
  OpEntryPoint = 15,
  OpExecutionMode = 16,
  OpCapability = 17,
  OpTypeFunction = 33,
  OpFunction = 54,
  OpFunctionEnd = 56,
  OpFunctionCall = 57,
  OpLoad = 61,
  OpAccessChain = 65,
  OpArrayLength = 68,
  OpDecorate = 71,
  OpExecutionModeId = 331,
};
} // namespace spirv_op

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

} // namespace kiln

#endif // KILN_LIB_TARGET_SPIRV_INSTRUCTIONS_H
