//===- DebugPrintf.cpp - Debug printf stubs into SPIR-V instructions ------===//
//
// The second of debug printf's two steps: in serialized SPIR-V, each call of
// a stub becomes an OpExtInst of NonSemantic.DebugPrintf
// (kiln/Target/SPIRV/Serialization.h).
//
//===----------------------------------------------------------------------===//

#include "kiln/Target/SPIRV/Serialization.h"

#include "Instructions.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"

#include <cstring>

using namespace mlir;

//===----------------------------------------------------------------------===//
// The binary rewrite
//===----------------------------------------------------------------------===//

namespace {
constexpr uint32_t kDebugPrintfInstruction = 1;
} // namespace

/// A literal string as SPIR-V words: the bytes, a NUL, zero padding.
static void appendString(SmallVectorImpl<uint32_t> &out, StringRef s) {
  size_t words = s.size() / 4 + 1;
  size_t at = out.size();
  out.append(words, 0);
  std::memcpy(out.data() + at, s.data(), s.size());
}

static void appendInstruction(SmallVectorImpl<uint32_t> &out, uint16_t opcode,
                              ArrayRef<uint32_t> operands,
                              std::optional<StringRef> string = std::nullopt) {
  size_t at = out.size();
  out.push_back(0);
  out.append(operands.begin(), operands.end());
  if (string)
    appendString(out, *string);
  out[at] = (static_cast<uint32_t>(out.size() - at) << 16) | opcode;
}

LogicalResult kiln::rewriteDebugPrintfCalls(SmallVectorImpl<uint32_t> &words,
                                            ArrayRef<std::string> formats,
                                            std::string &error) {
  if (formats.empty())
    return success();
  SmallVector<SPIRVInstruction> insts;
  if (failed(splitSPIRVInstructions(words, insts, error)))
    return failure();

  // The stubs, by their names; and where the new instructions go.
  llvm::DenseMap<uint32_t, unsigned> stubs;
  size_t afterExtensions = 0, afterImports = 0, afterHeader = 0;
  for (auto [index, inst] : llvm::enumerate(insts)) {
    switch (inst.opcode) {
    case SpvOpCapability:
    case SpvOpExtension:
      afterExtensions = index;
      [[fallthrough]];
    case SpvOpExtInstImport:
      afterImports = index;
      [[fallthrough]];
    case SpvOpMemoryModel:
    case SpvOpEntryPoint:
    case SpvOpExecutionMode:
    case SpvOpExecutionModeId:
      afterHeader = index;
      break;
    case SpvOpName: {
      if (inst.count < 3)
        break;
      StringRef name =
          readSPIRVString(words, inst.at + 2, inst.at + inst.count);
      unsigned k;
      if (name.consume_front(kDebugPrintfStubPrefix) &&
          !name.getAsInteger(10, k) && k < formats.size())
        stubs[words[inst.at + 1]] = k;
      break;
    }
    default:
      break;
    }
  }
  if (stubs.empty()) {
    // The module had gpu.printf ops, but their stubs are gone: printing
    // would silently vanish.
    error = "the module records " + std::to_string(formats.size()) +
            " debug printf format(s) but has no stub functions to replace";
    return failure();
  }

  uint32_t bound = words[3];
  uint32_t importId = bound;
  uint32_t firstStringId = bound + 1;
  SmallVector<uint32_t> out(words.begin(), words.begin() + 5);
  out[3] = bound + 1 + formats.size();
  bool needExtension = words[1] < 0x00010600;
  bool inStub = false;
  for (auto [index, inst] : llvm::enumerate(insts)) {
    ArrayRef<uint32_t> w(words.data() + inst.at, inst.count);
    bool keep = true;
    if (inStub) {
      keep = false;
      inStub = inst.opcode != SpvOpFunctionEnd;
    } else if (inst.opcode == SpvOpFunction && inst.count >= 3 &&
               stubs.count(w[2])) {
      keep = false;
      inStub = true;
    }
    if ((inst.opcode == SpvOpName || inst.opcode == SpvOpDecorate) &&
        inst.count >= 2 && stubs.count(w[1]))
      keep = false;
    if (keep && inst.opcode == SpvOpFunctionCall && inst.count >= 4 &&
        stubs.count(w[3])) {
      SmallVector<uint32_t> operands = {w[1], w[2], importId,
                                        kDebugPrintfInstruction,
                                        firstStringId + stubs[w[3]]};
      operands.append(w.begin() + 4, w.end());
      appendInstruction(out, SpvOpExtInst, operands);
      keep = false;
    }
    if (keep)
      out.append(w.begin(), w.end());
    if (index == afterExtensions && needExtension)
      appendInstruction(out, SpvOpExtension, {}, "SPV_KHR_non_semantic_info");
    if (index == afterImports)
      appendInstruction(out, SpvOpExtInstImport, {importId},
                        "NonSemantic.DebugPrintf");
    if (index == afterHeader)
      for (auto [k, format] : llvm::enumerate(formats))
        appendInstruction(out, SpvOpString, {firstStringId + uint32_t(k)},
                          format);
  }
  if (inStub) {
    error = "a debug printf stub function has no end";
    return failure();
  }
  words.assign(out.begin(), out.end());
  return success();
}
