// scanvec/runtime/config.hpp - the one place the backend is chosen.
//
// The build system sets SCANVEC_BACKEND_CUDA (nvcc, Thrust's CUDA system) or
// leaves it unset (g++, Thrust's OpenMP system). Code that differs by backend
// is chosen in one place per primitive family, in its detail/ headers: the
// generic path is written once against Thrust's device system, the CUDA paths
// (CUB, tile kernels) sit beside it (docs/design/README.md).
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

// Before a loop of a constant trip count in SCANVEC_HD code: unrolled in
// device code (its array stays in registers); nothing for the host compiler.
#if defined(__CUDA_ARCH__)
#  define SCANVEC_UNROLL _Pragma("unroll")
#else
#  define SCANVEC_UNROLL
#endif

// Checks of permutation indices (one extra pass); SCANVEC_CHECKS=0 turns them off.
#if !defined(SCANVEC_CHECKS)
#  define SCANVEC_CHECKS 1
#endif

// Everything scanvec declares lives in an inline namespace named after the
// settings that change inline function bodies (today SCANVEC_CHECKS). Two
// translation units built with different settings then instantiate different
// functions instead of two bodies of one (which would break the
// one-definition rule: the linker would keep either). Users still write
// scanvec::vector; objects do not cross between such translation units (a
// link error says so, never a silent mix).
#if SCANVEC_CHECKS
#  define SCANVEC_ABI checks_on
#else
#  define SCANVEC_ABI checks_off
#endif
#define SCANVEC_NAMESPACE_BEGIN namespace scanvec { inline namespace SCANVEC_ABI {
#define SCANVEC_NAMESPACE_END } }

SCANVEC_NAMESPACE_BEGIN

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

namespace detail {
/// The backend as a constant, for policies that choose a form by size on one
/// backend only (the backend's #if stays in config.hpp and the dispatch files).
#if defined(SCANVEC_BACKEND_CUDA)
inline constexpr bool on_cuda = true;
#else
inline constexpr bool on_cuda = false;
#endif
}  // namespace detail

SCANVEC_NAMESPACE_END
