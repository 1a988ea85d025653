# The install test: cmake --install a scanvec build tree into a fresh prefix,
# check the layout, then configure, build and run tests/install/consumer
# against it (find_package(scanvec 0.2) through CMAKE_PREFIX_PATH only).
#   cmake -DSCANVEC_BUILD=<build dir> -DWORK=<scratch dir> [-DARGS=<consumer cache args>] [-DRUN=OFF] -P run.cmake
# RUN=OFF stops after the build (a CUDA consumer on a machine without a GPU).
cmake_minimum_required(VERSION 3.25)
foreach(var SCANVEC_BUILD WORK)
  if(NOT ${var})
    message(FATAL_ERROR "install test: -D${var}=... is required")
  endif()
endforeach()
if(NOT DEFINED RUN)
  set(RUN ON)
endif()
set(prefix "${WORK}/prefix")
set(build "${WORK}/build")
file(REMOVE_RECURSE "${WORK}")

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test: ${what} failed (${rc})")
  endif()
endfunction()

step("cmake --install" ${CMAKE_COMMAND} --install "${SCANVEC_BUILD}" --prefix "${prefix}")
foreach(file include/scanvec/scanvec.hpp include/scanvec/dist.hpp
             include/scanvec/runtime/vector.hpp include/scanvec/primitives/scan.hpp
             include/scanvec/algorithms/radix_sort.hpp
             share/cmake/scanvec/scanvecConfig.cmake share/cmake/scanvec/scanvecConfigVersion.cmake
             share/cmake/scanvec/scanvecTargets.cmake share/cmake/scanvec/ScanvecBackend.cmake
             share/cmake/scanvec/FindNCCL.cmake
             share/doc/scanvec/README.md share/doc/scanvec/docs/porting.md)
  if(NOT EXISTS "${prefix}/${file}")
    message(FATAL_ERROR "install test: ${file} is not under the prefix ${prefix}")
  endif()
endforeach()

step("configuring the consumer" ${CMAKE_COMMAND} -S "${CMAKE_CURRENT_LIST_DIR}/consumer" -B "${build}"
     ${ARGS} "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
# find_package must have taken the package just installed, not another one.
file(STRINGS "${build}/CMakeCache.txt" found REGEX "^scanvec_DIR:")
string(REGEX REPLACE "^[^=]*=" "" found "${found}")
if(NOT found STREQUAL "${prefix}/share/cmake/scanvec")
  message(FATAL_ERROR "install test: the consumer found scanvec in '${found}', not under ${prefix}")
endif()
step("building the consumer" ${CMAKE_COMMAND} --build "${build}")
if(RUN)
  step("running the consumer" "${build}/consumer")
endif()
