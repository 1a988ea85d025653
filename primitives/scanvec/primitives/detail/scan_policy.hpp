// scanvec/primitives/detail/scan_policy.hpp - the tuning of the scans, and of pack.
//
// Every constant that decides how the host backend's scans run
// (detail/scan_omp.hpp), when a CUDA scan is one block (scan_dispatch.hpp),
// and when pack waits (enumerate_pack.hpp), with the reason for it. What they measured:
// docs/design/scans-and-reductions.md.
#pragma once

#include <scanvec/runtime/config.hpp>

SCANVEC_NAMESPACE_BEGIN namespace detail {

struct host_scan_policy {
    /// Below this many elements a scan runs as one loop on the calling thread:
    /// starting the team and its barrier (a few microseconds) costs more than
    /// the second thread saves on 2^14 elements, and the values stay in the
    /// caller's cache.
    static constexpr index_t min_parallel = index_t(1) << 14;
};

/// CUDA: a scan of at most one tile runs as one block (one launch) instead of
/// CUB's decoupled look-back scan, which launches a kernel to initialise its
/// tile states and then the scan: for a small vector the launches are the
/// cost. A tile: 256 threads of up to 8 items, about 32 bytes of items a
/// thread (2048 int32), one item a thread for items of 32 bytes or more,
/// which keeps the block's shared memory under 64 KB for items up to 256 bytes.
template <class T> struct one_block_scan_shape {
    static constexpr int threads = 256;
    static constexpr int items = sizeof(T) >= 32 ? 1 : int(32 / sizeof(T)) > 8 ? 8 : int(32 / sizeof(T));
    static constexpr int size = threads * items;
    static constexpr bool fits = sizeof(T) <= 256;
};

struct pack_policy {
    /// Up to this many elements pack writes into a result as long as its input
    /// and reads the count last: the scatter is queued before the one wait,
    /// so the host's launch of it overlaps the scan (for small vectors, where
    /// latency rules). The result then holds up to n elements of spare
    /// capacity (4 MiB of int32 at most). Longer inputs read the count first
    /// and allocate exactly.
    static constexpr std::size_t scatter_before_count_max = std::size_t(1) << 20;
};

}  SCANVEC_NAMESPACE_END  // detail
