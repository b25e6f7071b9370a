//===- Subgroup.h - Subgroup operations of the spirv-cpu target -*- C++ -*-===//
//
// The arithmetic of __kiln_spirv_cpu_subgroup, apart from the fibers that
// gather the lanes: given what each lane of one subgroup passed at one site,
// compute each active lane's result. Testable without a scheduler.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_SPIRVCPU_SUBGROUP_H
#define KILN_RUNTIME_SPIRVCPU_SUBGROUP_H

#include "kiln/Contract/SPIRVCPUABI.h"
#include "kiln/Runtime/Status.h"

namespace kiln {
namespace spirvcpu {

/// What one lane passed to __kiln_spirv_cpu_subgroup.
struct SubgroupLane {
  bool active = false;
  uint32_t op = 0, type = 0, components = 0, arg = 0;
  const void *value = nullptr;
  void *result = nullptr;
};

/// Bytes of one element of `type` (Bool: 1); 0 for an unknown type.
unsigned scalarKindBytes(uint32_t type);

/// Writes the result of every active lane of `lanes` (indexed by subgroup
/// invocation id). The active lanes must agree on op, type and components
/// (and on `arg` for the reductions); an error says what is wrong, without
/// naming the kernel.
rt::Status resolveSubgroup(const SubgroupLane (&lanes)[kSubgroupSize]);

} // namespace spirvcpu
} // namespace kiln

#endif // KILN_RUNTIME_SPIRVCPU_SUBGROUP_H
