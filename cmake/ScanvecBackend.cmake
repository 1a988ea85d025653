# The backend is chosen here, once. SCANVEC_BACKEND=host: g++ with Thrust's
# OpenMP device system. SCANVEC_BACKEND=cuda: nvcc with Thrust's CUDA system.
# Used by the build tree and, installed, by scanvecConfig.cmake (a consumer's find_package).
if(NOT SCANVEC_BACKEND MATCHES "^(host|cuda)$")
  message(FATAL_ERROR "SCANVEC_BACKEND must be 'host' or 'cuda', not '${SCANVEC_BACKEND}'")
endif()

if(SCANVEC_BACKEND STREQUAL "cuda")
  enable_language(CUDA)
  set(CCCL_THRUST_DEVICE_SYSTEM CUDA)
else()
  set(CCCL_THRUST_DEVICE_SYSTEM OMP)
endif()

# CCCL ships with the CUDA toolkit (CUDA 13 keeps it under include/cccl).
find_package(CCCL CONFIG REQUIRED
  HINTS "${CUDAToolkit_LIBRARY_DIR}/cmake" /usr/local/cuda/lib64/cmake /usr/local/cuda/lib/cmake)

# Usage requirements of the scanvec target for the chosen backend.
function(scanvec_configure_target target)
  target_link_libraries(${target} INTERFACE CCCL::CCCL)
  if(SCANVEC_BACKEND STREQUAL "cuda")
    target_compile_definitions(${target} INTERFACE SCANVEC_BACKEND_CUDA)
    # SCANVEC_FN expands to an extended __host__ __device__ lambda.
    target_compile_options(${target} INTERFACE
      $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda --expt-relaxed-constexpr>)
  endif()
endfunction()

# Marks .cpp sources as CUDA sources when building the CUDA backend.
function(scanvec_sources)
  if(SCANVEC_BACKEND STREQUAL "cuda")
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE CUDA)
  endif()
endfunction()
