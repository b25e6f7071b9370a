//===- ArrayLength.cpp - Array-length stubs into OpArrayLength -------------===//
//
// MLIR's SPIR-V dialect has no OpArrayLength. kiln-convert-gpu-to-spirv
// calls a stub for the size of a one-dimensional memref that the runtime
// binds exactly (docs/abi.md, "Sizes read from the binding"); in serialized
// SPIR-V each call becomes OpArrayLength of its buffer, as glslc writes
// `a.length()` (kiln/Target/SPIRV/Serialization.h).
//
//===----------------------------------------------------------------------===//

#include "kiln/Target/SPIRV/Serialization.h"

#include "Instructions.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

LogicalResult kiln::rewriteArrayLengthCalls(SmallVectorImpl<uint32_t> &words,
                                            std::string &error) {
  SmallVector<SPIRVInstruction> insts;
  if (failed(splitSPIRVInstructions(words, insts, error)))
    return failure();

  // The stubs, by the names the serializer gives them.
  llvm::DenseSet<uint32_t> stubs;
  for (const SPIRVInstruction &inst : insts) {
    if (inst.opcode != SpvOpName || inst.count < 3)
      continue;
    if (readSPIRVString(words, inst.at + 2, inst.at + inst.count)
            .starts_with(kArrayLengthStubPrefix))
      stubs.insert(words[inst.at + 1]);
  }
  if (stubs.empty())
    return success();

  // How often each word value appears as an operand: an id used once more
  // than it is defined has no other use. A literal equal to an id counts as
  // a use, which only keeps an instruction that could have gone.
  llvm::DenseMap<uint32_t, unsigned> mentions;
  for (const SPIRVInstruction &inst : insts)
    for (unsigned k = 1; k < inst.count; ++k)
      ++mentions[words[inst.at + k]];
  llvm::DenseMap<uint32_t, size_t> definedBy;
  for (auto [index, inst] : llvm::enumerate(insts))
    if ((inst.opcode == SpvOpLoad || inst.opcode == SpvOpAccessChain) &&
        inst.count >= 4)
      definedBy[words[inst.at + 2]] = index;

  // The calls: each pushed size whose only use is the call goes, and its
  // pointer with it when that is an access chain used by the load alone.
  llvm::DenseSet<size_t> dropped;
  llvm::DenseSet<uint32_t> stubTypes;
  for (const SPIRVInstruction &inst : insts) {
    if (inst.opcode == SpvOpFunction && inst.count >= 5 &&
        stubs.contains(words[inst.at + 2]))
      stubTypes.insert(words[inst.at + 4]);
    if (inst.opcode != SpvOpFunctionCall || !stubs.contains(words[inst.at + 3]))
      continue;
    if (inst.count != 6) {
      error = "an array-length stub call without its two arguments";
      return failure();
    }
    uint32_t size = words[inst.at + 5];
    auto load = definedBy.find(size);
    if (load == definedBy.end() || insts[load->second].opcode != SpvOpLoad ||
        mentions[size] != 2)
      continue;
    dropped.insert(load->second);
    uint32_t pointer = words[insts[load->second].at + 3];
    auto chain = definedBy.find(pointer);
    if (chain != definedBy.end() &&
        insts[chain->second].opcode == SpvOpAccessChain &&
        mentions[pointer] == 2)
      dropped.insert(chain->second);
  }
  // A stub's function type goes with it where no other function has it.
  for (const SPIRVInstruction &inst : insts)
    if (inst.opcode == SpvOpFunction && inst.count >= 5 &&
        !stubs.contains(words[inst.at + 2]))
      stubTypes.erase(words[inst.at + 4]);

  SmallVector<uint32_t> out(words.begin(), words.begin() + 5);
  bool inStub = false;
  for (auto [index, inst] : llvm::enumerate(insts)) {
    ArrayRef<uint32_t> w(words.data() + inst.at, inst.count);
    if (inStub) {
      inStub = inst.opcode != SpvOpFunctionEnd;
      continue;
    }
    if (inst.opcode == SpvOpFunction && stubs.contains(w[2])) {
      inStub = true;
      continue;
    }
    if ((inst.opcode == SpvOpName || inst.opcode == SpvOpDecorate) &&
        stubs.contains(w[1]))
      continue;
    if (inst.opcode == SpvOpTypeFunction && stubTypes.contains(w[1]))
      continue;
    if (dropped.contains(index))
      continue;
    if (inst.opcode == SpvOpFunctionCall && stubs.contains(w[3])) {
      // OpArrayLength result-type result structure 0: the buffer's struct
      // has the run-time array as its only member.
      out.append({(5u << 16) | SpvOpArrayLength, w[1], w[2], w[4], 0});
      continue;
    }
    out.append(w.begin(), w.end());
  }
  if (inStub) {
    error = "an array-length stub function has no end";
    return failure();
  }
  words.assign(out.begin(), out.end());
  return success();
}
