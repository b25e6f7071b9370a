//===- DynamicWorkgroup.cpp - Dynamic workgroup memory as a spec constant -===//
//
// Kiln's conversion gives a kernel's dynamic workgroup memory
// (gpu.dynamic_shared_memory) an array of container::kDynamicWorkgroupLength
// elements. MLIR's SPIR-V dialect has no array whose length is a
// specialization constant, so the serialized words are rewritten: the
// length's OpConstant becomes an OpSpecConstant (default 1) decorated
// with SpecId kDynamicWorkgroupSpecId, which the runtime sets at each launch.
//
//===----------------------------------------------------------------------===//

#include "kiln/Target/SPIRV/Serialization.h"

#include "kiln/Contract/Container.h"

#include "spirv-tools/libspirv.h"
#include <spirv/unified1/spirv.h>

#include <string>
#include <vector>

using namespace mlir;

namespace {

/// What one pass over the words finds.
struct Scan {
  /// Word offsets (in the module) of the candidate constants, by id.
  std::vector<std::pair<uint32_t, size_t>> constants;
  /// 32-bit integer type ids.
  std::vector<uint32_t> int32Types;
  /// Ids used other than as an array's length, and array lengths.
  std::vector<uint32_t> otherUses, lengthUses;
  /// Offset of the first instruction after the annotations.
  size_t firstType = 0;
  size_t offset = 5;
};

bool isIdOperand(spv_operand_type_t type) {
  return type == SPV_OPERAND_TYPE_ID || type == SPV_OPERAND_TYPE_TYPE_ID ||
         type == SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID ||
         type == SPV_OPERAND_TYPE_SCOPE_ID;
}

/// Instructions of the sections before and including the annotations.
bool beforeTypes(uint16_t opcode) {
  switch (opcode) {
  case 2:
  case 3:
  case 4:
  case 5:
  case 6:
  case 7: // debug
  case 10:
  case 11:
  case 14:
  case 15:
  case 16:
  case 17:
  case 330:
  case 331: // ModuleProcessed, ExecutionModeId
  case 71:
  case 72:
  case 73:
  case 74:
  case 75:
  case 332:
  case 5632:
  case 5633: // annotations
    return true;
  default:
    return false;
  }
}

spv_result_t onInstruction(void *data, const spv_parsed_instruction_t *inst) {
  Scan &scan = *static_cast<Scan *>(data);
  if (!scan.firstType && !beforeTypes(inst->opcode))
    scan.firstType = scan.offset;
  if (inst->opcode == SpvOpTypeInt && inst->num_words == 4 &&
      inst->words[2] == 32)
    scan.int32Types.push_back(inst->result_id);
  if (inst->opcode == SpvOpConstant && inst->num_words == 4 &&
      inst->words[3] == kiln::container::kDynamicWorkgroupLength)
    scan.constants.push_back({inst->result_id, scan.offset});
  for (uint16_t i = 0; i < inst->num_operands; ++i) {
    const spv_parsed_operand_t &operand = inst->operands[i];
    if (!isIdOperand(operand.type))
      continue;
    uint32_t id = inst->words[operand.offset];
    if (inst->opcode == SpvOpTypeArray && i == 2)
      scan.lengthUses.push_back(id);
    else
      scan.otherUses.push_back(id);
  }
  scan.offset += inst->num_words;
  return SPV_SUCCESS;
}
} // namespace

LogicalResult
kiln::specializeDynamicWorkgroupLength(SmallVectorImpl<uint32_t> &words,
                                       bool &found, std::string &error) {
  found = false;
  Scan scan;
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  spv_diagnostic diagnostic = nullptr;
  spv_result_t parsed =
      spvBinaryParse(context, &scan, words.data(), words.size(), nullptr,
                     onInstruction, &diagnostic);
  if (parsed != SPV_SUCCESS) {
    error = diagnostic && diagnostic->error ? diagnostic->error
                                            : "cannot parse the SPIR-V";
    spvDiagnosticDestroy(diagnostic);
    spvContextDestroy(context);
    return failure();
  }
  spvContextDestroy(context);
  for (auto [id, at] : scan.constants) {
    if (!llvm::is_contained(scan.lengthUses, id))
      continue;
    if (!llvm::is_contained(scan.int32Types, words[at + 1])) {
      error = "the dynamic workgroup array's length is not a 32-bit integer";
      return failure();
    }
    if (llvm::is_contained(scan.otherUses, id)) {
      error = "the kernel uses the constant " +
              std::to_string(kiln::container::kDynamicWorkgroupLength) +
              ", which marks the length of dynamic workgroup memory; it "
              "cannot be told apart from that length";
      return failure();
    }
    if (found) {
      error = "two constants mark dynamic workgroup memory";
      return failure();
    }
    found = true;
    words[at] = (4u << 16) | SpvOpSpecConstant;
    words[at + 3] = 1;
    uint32_t decorate[] = {(4u << 16) | SpvOpDecorate, id, SpvDecorationSpecId,
                           kiln::container::kDynamicWorkgroupSpecId};
    words.insert(words.begin() + scan.firstType, std::begin(decorate),
                 std::end(decorate));
  }
  return success();
}
