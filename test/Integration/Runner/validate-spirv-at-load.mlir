// The shared runtime validates a module's SPIR-V with SPIRV-Tools for the
// device before the driver sees it, once per distinct SPIR-V: the same
// container loaded three times from three buffers is validated once, and
// raw SPIR-V that Kiln's own instruction-stream scan accepts but the
// validator rejects (an OpTypeInt 31 bits wide; drivers may crash on such
// code) is refused, naming the kernel, the environment and the device.
// KILN_VULKAN_VALIDATE_SPIRV=0 turns the check off.
// RUN: %cc -std=c99 -Wall -Werror -I%kiln_src_root/include %S/Inputs/load-modules.c -L%kiln_lib_dir -lkiln_vulkan_runtime -Wl,-rpath,%kiln_lib_dir -o %t.load
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: kiln-compile %s --emit=container -o %t.d
// RUN: kiln-compile %s --emit=spirv -o %t.d
// RUN: %t.load main_kernel %t.d/main_kernel.kiln %t.d/main_kernel.kiln %t.d/main_kernel.kiln | FileCheck %s --check-prefix=ONCE
// RUN: %t.load main_kernel %t.d/main_kernel.spv | FileCheck %s --check-prefix=RAW
// RUN: %python -c "import struct,sys; w=list(struct.unpack('<%%dI' %% (len(open(sys.argv[1],'rb').read())//4), open(sys.argv[1],'rb').read())); i=5; exec('while i < len(w):\n if w[i] == 0x00040015 and w[i+2] == 32: w[i+2] = 31; break\n i += w[i] >> 16'); open(sys.argv[2],'wb').write(struct.pack('<%%dI' %% len(w), *w))" %t.d/main_kernel.spv %t.d/bad.spv
// RUN: not %t.load main_kernel %t.d/bad.spv 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: env KILN_VULKAN_VALIDATE_SPIRV=0 %t.load main_kernel %t.d/main_kernel.kiln | FileCheck %s --check-prefix=OFF

// ONCE: validations 1 in
// RAW: validations 1 in
// BAD: kiln-vulkan: cannot load GPU module with kernel 'main_kernel': its SPIR-V fails validation (spirv-val --target-env vulkan1.{{[0-9]}}, for device '{{.+}}'): {{.*}}31
// OFF: validations 0 in

func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    memref.store %t, %buf[%tx] : memref<4xi32>
    gpu.terminator
  }
  return
}
