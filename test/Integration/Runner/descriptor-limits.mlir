// Descriptor sets and bindings the program (or a container) chooses are
// checked against the device before anything is sized from them: set
// 2^32-1 used to wrap an index and write out of bounds, a huge binding to
// crash the driver. Each is a message naming the kernel and the limit.
// RUN: sed 's/SET/4294967295/; s/BINDING/0/' %S/Inputs/user-binding.mlir > %t.set.mlir
// RUN: not kiln-vulkan-runner %t.set.mlir 2>&1 | FileCheck %s --check-prefix=SET
// SET: kiln-vulkan: kernel 'fill' uses descriptor set 4294967295; device '{{.*}}' binds sets 0 to {{[0-9]+}} (maxBoundDescriptorSets)
// RUN: sed 's/SET/0/; s/BINDING/4294967295/' %S/Inputs/user-binding.mlir > %t.binding.mlir
// RUN: not kiln-vulkan-runner %t.binding.mlir 2>&1 | FileCheck %s --check-prefix=BINDING
// RUN: kiln-compile %t.binding.mlir --emit=exe -o %t.exe
// RUN: not %t.exe 2>&1 | FileCheck %s --check-prefix=BINDING
// BINDING: kiln-vulkan: kernel 'fill' uses binding 4294967295 in descriptor set 0; Kiln allows bindings below device '{{.*}}''s {{[0-9]+}} storage buffers per stage (maxPerStageDescriptorStorageBuffers)
// A set and binding inside the limits run.
// RUN: sed 's/SET/1/; s/BINDING/3/' %S/Inputs/user-binding.mlir > %t.ok.mlir
// RUN: kiln-vulkan-runner %t.ok.mlir --validate | FileCheck %s --check-prefix=OK
// OK: [2, 2, 2, 2, 2, 2, 2, 2]
