// The quick start's SPIR-V step (scripts/quickstart.sh), as it is written
// there: kiln-compile's default target env is the desktop profile (Vulkan
// 1.3, SPIR-V 1.6), which spirv-val checks for Vulkan 1.3.
// RUN: rm -rf %t && mkdir %t
// RUN: kiln-compile %kiln_src_root/examples/saxpy.mlir --target=vulkan --emit=spirv -o %t/saxpy.spv
// RUN: spirv-val --target-env vulkan1.3 %t/saxpy.spv
// RUN: grep -q -- "--emit=spirv" %kiln_src_root/scripts/quickstart.sh
// RUN: grep -q -- "spirv[-]val --target-env vulkan1.3 build/examples/saxpy.spv" %kiln_src_root/scripts/quickstart.sh
