// scanvec/runtime/config.hpp - the one place the backend is chosen.
//
// The build system sets SCANVEC_BACKEND_CUDA (nvcc, Thrust's CUDA system) or
// leaves it unset (g++, Thrust's OpenMP system). Everything else in scanvec is
// written once against Thrust's device system and these macros.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(SCANVEC_BACKEND_CUDA)
#  if !defined(__CUDACC__)
#    error "scanvec was configured with SCANVEC_BACKEND=cuda: compile this source as CUDA (set_source_files_properties(... LANGUAGE CUDA))"
#  endif
#  define SCANVEC_HD __host__ __device__
#  define SCANVEC_FN [=] __host__ __device__
#else
#  define SCANVEC_HD
#  define SCANVEC_FN [=]
#endif

// Checks of permutation indices (one extra pass); SCANVEC_CHECKS=0 turns them off.
#if !defined(SCANVEC_CHECKS)
#  define SCANVEC_CHECKS 1
#endif

namespace scanvec {

/// Sizes, indices and counts are 64-bit end to end.
using index_t = std::int64_t;

/// The backend this translation unit was built for.
inline constexpr const char* backend_name() noexcept {
#if defined(SCANVEC_BACKEND_CUDA)
    return "cuda";
#else
    return "host";
#endif
}

}  // namespace scanvec
