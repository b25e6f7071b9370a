# What `cmake --install` puts in a prefix (docs/install.md):
#
#   bin/          the tools, runners and kiln-bench
#   lib/          the runtimes (shared, versioned, and static), the static
#                 libraries kiln-compile --emit=exe links, Kiln's compiler
#                 libraries, libKilnPlugin.so
#   lib/cmake/Kiln/  KilnConfig.cmake: Kiln:: targets, components Runtime
#                 and Compiler, kiln_add_kernel_library()
#   include/kiln/ the headers, with the generated .inc files and Config.h
#
# Libraries go to lib/ whatever GNUInstallDirs would choose: kiln-compile
# and the runners find the runtimes in the lib/ beside their bin/.
include(CMakePackageConfigHelpers)
set(KILN_INSTALL_CMAKEDIR lib/cmake/Kiln)

get_property(kiln_runtimes GLOBAL PROPERTY KILN_RUNTIME_TARGETS)
install(TARGETS ${kiln_runtimes} kiln_runner_utils kiln_aot_main
                kiln_aot_main_cuda kiln_aot_main_spirv_cpu kiln-bench
  EXPORT KilnRuntimeTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  LIBRARY DESTINATION lib
  ARCHIVE DESTINATION lib)

set(kiln_compiler_libraries
  KilnContract KilnDialect KilnTransforms KilnGPUToSPIRV KilnGPUToNVVM
  KilnTargetSPIRV KilnTargetSPIRVCPU KilnTargetNVVM KilnAOT KilnHost
  KilnCompiler KilnDriver KilnRunner)
foreach(library ${kiln_compiler_libraries})
  target_include_directories(${library} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()
# Kiln's C++ headers (the compiler's and the runtimes' C++ interface) are
# C++17.
foreach(library KilnDialect ${kiln_runtimes})
  target_compile_features(${library} INTERFACE cxx_std_17)
endforeach()
install(TARGETS ${kiln_compiler_libraries} KilnPlugin
                kiln-opt kiln-translate kiln-compile kiln-vulkan-runner
                kiln-cuda-runner kiln-spirv-cpu-runner
  EXPORT KilnCompilerTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  LIBRARY DESTINATION lib
  ARCHIVE DESTINATION lib)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/kiln
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/kiln
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

install(EXPORT KilnRuntimeTargets NAMESPACE Kiln::
  DESTINATION ${KILN_INSTALL_CMAKEDIR})
install(EXPORT KilnCompilerTargets NAMESPACE Kiln::
  DESTINATION ${KILN_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/KilnConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/KilnConfig.cmake
  INSTALL_DESTINATION ${KILN_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
# Until 1.0, a minor version may change the interfaces.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/KilnConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/KilnConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/KilnConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/KilnKernels.cmake
  DESTINATION ${KILN_INSTALL_CMAKEDIR})
