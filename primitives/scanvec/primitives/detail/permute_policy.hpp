// scanvec/primitives/detail/permute_policy.hpp - the tuning of permute's check on the host.
//
// Every constant that decides how the host's checked permute runs
// (detail/permute_omp.hpp), with the reason for it. What it measured:
// docs/design/permutes.md.
#pragma once

#include <scanvec/runtime/config.hpp>

#include <cstddef>

SCANVEC_NAMESPACE_BEGIN namespace detail {

struct permute_policy {
    /// Each thread keeps a bitmap of n bits: up to 16 threads that is at most
    /// 2n bytes, half the 4n of the 32-bit indices read beside it; more
    /// threads would need more memory than the scatter moves, and take the
    /// shared bitmap's atomics (as on CUDA) instead.
    static constexpr std::size_t max_thread_bitmaps = 16;
};

}  SCANVEC_NAMESPACE_END  // detail
