// scanvec/primitives/detail/permute/policy.hpp - the tuning of permute's check.
//
// Every constant that decides how the checked permute runs (on the host
// detail/permute/host.hpp, on CUDA detail/permute/cuda/fused_check.hpp), with the
// reason for it. What it measured:
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
    /// CUDA: up to this many elements the check stamps every target (one
    /// atomic exchange an element, into a 32-bit word per target that the
    /// thread keeps: 512 KB at the bound); past it the scatter folds a sum of
    /// powers of its targets up to power_tables_reach (2^20), then Lipton's
    /// fingerprint (detail/permute/cuda/fused_check.hpp). A small scatter is bound
    /// by its launch and its wait, where one exchange an element costs less
    /// than the sums' table reads and fold across blocks; from about 2^18 on,
    /// the exchanges' random reads cost more than the sums' L1-held tables.
    static constexpr std::size_t stamped_check_max = std::size_t(1) << 17;
    /// CUDA: a permute whose result outgrows the L2 cache first groups its
    /// (target, element) pairs by the targets' top bits, so that the scatter
    /// writes each group into a window of the result that stays in the cache
    /// (detail/permute/grouped.hpp). Windows of about this many bytes: smaller
    /// ones need more bits than one grouping pass sorts by.
    static constexpr std::size_t grouped_window_bytes = std::size_t(1) << 20;
    /// The most bits the grouping sorts by: one pass of CUB's onesweep radix sort.
    static constexpr int grouped_max_bits = 8;
};

}  SCANVEC_NAMESPACE_END  // detail
