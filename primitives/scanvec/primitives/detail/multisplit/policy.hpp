// scanvec/primitives/detail/multisplit/policy.hpp - the tuning of histogram and multisplit.
//
// Every constant that decides how sv::histogram and sv::multisplit run, with
// the reason for it. How they run and what they measured: docs/design/multisplit.md.
#pragma once

#include <scanvec/runtime/config.hpp>

#include <algorithm>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// How histogram counts, by the number of bins m.
struct histogram_policy {
    /// Up to this many bins each block (CUDA: CUB's histogram, its counters in
    /// shared memory) or tile (host: a tile per thread's share, counts of at
    /// most n/4 entries in all) keeps counts of its own, merged at the end.
    /// Past it CUB keeps one copy of every bin per block in global memory
    /// (blocks x m counters: out of memory, then out-of-bounds writes, for
    /// millions of bins), and the host's tiles grow too large to give every
    /// thread one, so the one result array is counted into directly
    /// (count_many_bins): O(m) memory.
#if defined(SCANVEC_BACKEND_CUDA)
    static constexpr index_t privatized_max_bins = 256;
#else
    static constexpr index_t privatized_max_bins = index_t(1) << 16;
#endif
};

/// The host's tile-wise counting sort (histogram with few bins, multisplit).
struct counting_sort_policy {
    /// At most this many tiles: more than the threads of the machines the host
    /// backend runs on, so every thread gets tiles, while the m x tiles table
    /// of counts (scanned once) stays small.
    static constexpr index_t max_tiles = 256;
    /// At least this many elements a tile, so a tile's pass over its elements
    /// outweighs filling and copying its m counts...
    static constexpr index_t min_tile = 16384;
    /// ...and at least this many times m, so the table holds at most n/4 counts.
    static constexpr index_t min_tile_per_class = 4;

    /// Up to this many classes a tile's scatter (multisplit/host.hpp, x86)
    /// gathers each class's elements in a cache line of its own and stores
    /// whole lines with non-temporal stores: m lines of 64 bytes (16 KB for
    /// radix digits of 8 bits) stay in the core's L1 cache.
    static constexpr index_t max_buffered_classes = 256;
    /// That scatter takes the digits of 64 elements at a time into a small
    /// array first, then moves the elements: the digits' loop vectorises, and
    /// the moves keep the places in a local array (docs/design/multisplit.md).
    static constexpr index_t digit_run = 64;

    /// The number of tiles for n elements in m classes.
    static index_t tiles(index_t n, index_t m) {
        const index_t per_tile = std::max<index_t>(min_tile, min_tile_per_class * m);
        return std::max<index_t>(1, std::min<index_t>(max_tiles, n / per_tile));
    }
};

/// The host's radix run (multisplit/host.hpp, radix_run_into): a radix sort's
/// multisplits as one multisplit by the top digit, then each bucket by the
/// other digits in a thread's cache.
struct radix_run_policy {
    /// From this many keys: below it the whole vector's digit passes stay in
    /// the cache anyway (2^16 int32: 256 KB), and the run's 256 buckets would
    /// hold a few hundred keys each.
    static constexpr index_t min_keys = index_t(1) << 16;
    /// Buckets of at most this many keys are sorted by insertion, not by
    /// counting passes, each of which walks all 256 counts.
    static constexpr index_t insertion_max = 32;
};

}  SCANVEC_NAMESPACE_END  // detail
