# kiln_add_kernel_library(NAME SOURCE [TARGET vulkan|cuda|spirv-cpu]
#                         [OPTIONS option...])
#
# Compiles SOURCE (MLIR with gpu.launch kernels, or outlined gpu.modules)
# with kiln-compile --emit=obj at build time into the static library NAME,
# whose users include NAME.h (the _mlir_ciface_ wrapper of each public
# function and the memref descriptor structs, from --emit-header) and link
# the target's Kiln runtime (the shared one). OPTIONS go to kiln-compile
# (e.g. --target-env=device, -O3, --chip=sm_80).
#
#   kiln_add_kernel_library(saxpy_kernels kernels.mlir)
#   add_executable(app main.c)
#   target_link_libraries(app PRIVATE saxpy_kernels)
function(kiln_add_kernel_library name source)
  cmake_parse_arguments(ARG "" "TARGET" "OPTIONS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "kiln_add_kernel_library: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_TARGET)
    set(ARG_TARGET vulkan)
  endif()
  if(ARG_TARGET STREQUAL "vulkan")
    set(runtime Kiln::kiln_vulkan_runtime)
  elseif(ARG_TARGET STREQUAL "cuda")
    set(runtime Kiln::kiln_cuda_runtime)
  elseif(ARG_TARGET STREQUAL "spirv-cpu")
    set(runtime Kiln::kiln_spirv_cpu_runtime)
  else()
    message(FATAL_ERROR "kiln_add_kernel_library: TARGET ${ARG_TARGET} is "
                        "not vulkan, cuda or spirv-cpu")
  endif()
  get_filename_component(source "${source}" ABSOLUTE)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/${name}.kernels")
  set(object "${dir}/${name}.o")
  set(header "${dir}/${name}.h")
  add_custom_command(OUTPUT "${object}" "${header}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${dir}"
    COMMAND Kiln::kiln-compile "${source}" --target=${ARG_TARGET}
            --emit=obj -o "${object}" "--emit-header=${header}" ${ARG_OPTIONS}
    DEPENDS "${source}" Kiln::kiln-compile
    COMMENT "kiln-compile ${name}: ${source} for ${ARG_TARGET}"
    VERBATIM)
  set_source_files_properties("${object}" PROPERTIES
    EXTERNAL_OBJECT TRUE GENERATED TRUE)
  add_library(${name} STATIC "${object}" "${header}")
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE C)
  target_include_directories(${name} PUBLIC "${dir}")
  # MLIR's runner utilities (printMemrefF32, ...) with the same output.
  target_link_libraries(${name} PUBLIC ${runtime} Kiln::kiln_runner_utils)
endfunction()
