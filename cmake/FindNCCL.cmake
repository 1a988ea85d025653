# FindNCCL: NVIDIA's collective communication library, for scanvec's
# distributed layer on CUDA builds.
#
# Looks in NCCL_ROOT (a CMake or environment variable) first, then the usual
# places: a system package (/usr/include/nccl.h, libnccl.so.2) or a Python
# wheel's copy (nvidia-nccl-cu13: <site-packages>/nvidia/nccl, pass it as NCCL_ROOT).
#
# Defines NCCL_FOUND, NCCL_VERSION, NCCL_INCLUDE_DIR, NCCL_LIBRARY and the
# imported target NCCL::NCCL.
find_path(NCCL_INCLUDE_DIR nccl.h
  HINTS ${NCCL_ROOT} ENV NCCL_ROOT
  PATH_SUFFIXES include)
find_library(NCCL_LIBRARY NAMES nccl libnccl.so.2
  HINTS ${NCCL_ROOT} ENV NCCL_ROOT
  PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu)

if(NCCL_INCLUDE_DIR AND EXISTS "${NCCL_INCLUDE_DIR}/nccl.h")
  file(STRINGS "${NCCL_INCLUDE_DIR}/nccl.h" _nccl_version_lines REGEX "^#define NCCL_(MAJOR|MINOR|PATCH)[ \t]+[0-9]+")
  foreach(_part MAJOR MINOR PATCH)
    string(REGEX REPLACE ".*#define NCCL_${_part}[ \t]+([0-9]+).*" "\\1" _nccl_${_part} "${_nccl_version_lines}")
  endforeach()
  set(NCCL_VERSION "${_nccl_MAJOR}.${_nccl_MINOR}.${_nccl_PATCH}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(NCCL REQUIRED_VARS NCCL_LIBRARY NCCL_INCLUDE_DIR VERSION_VAR NCCL_VERSION)

if(NCCL_FOUND AND NOT TARGET NCCL::NCCL)
  add_library(NCCL::NCCL UNKNOWN IMPORTED)
  set_target_properties(NCCL::NCCL PROPERTIES
    IMPORTED_LOCATION "${NCCL_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${NCCL_INCLUDE_DIR}")
endif()
mark_as_advanced(NCCL_INCLUDE_DIR NCCL_LIBRARY)
