// scanvec/primitives/detail/scan/policy.hpp - the tuning of the scans, of pack and of segment ids.
//
// Every constant that decides how the host backend's scans run
// (detail/scan/host.hpp), when a CUDA scan is one block (scan/dispatch.hpp),
// the shape of the CUDA segmented scan (segmented_scan/cuda/tiles.hpp), how pack
// runs and when it waits (enumerate_pack.hpp), and how segments::ids() runs
// (segment_descriptor.hpp), with the reason for it. What they measured:
// docs/design/scans-and-reductions.md and small-calls.md.
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

/// CUDA: the segmented scan's tile kernel (segmented_scan/cuda/tiles.hpp). 128
/// threads of 128 bytes of items each (32 int32, at most 32: a thread's head
/// flags are one 32-bit mask): many items a thread keep loads in flight and
/// leave one pair a thread for the block scan. The tile's staging area (size
/// x sizeof(T)) stays at 16 KB up to 128-byte items and within the 48 KB of
/// static shared memory up to 256 bytes; larger items go to CUB's scan by
/// key. The look-back's waits (poll_ns between polls, first_ns before the
/// first) are CUB's sm_90 tuning of its plain scan; grids under
/// delay_min_tiles tiles do not wait, as few tiles contend. The shapes and
/// waits compared: docs/design/scans-and-reductions.md.
template <class T> struct segmented_scan_shape {
    static constexpr int threads = 128;
    static constexpr int items = sizeof(T) >= 128 ? 1 : int(128 / sizeof(T)) > 32 ? 32 : int(128 / sizeof(T));
    static constexpr int size = threads * items;
    static constexpr bool fits = sizeof(T) <= 256;
    static constexpr unsigned poll_ns = 648, first_ns = 1245;
    static constexpr unsigned delay_min_tiles = 500;
};

struct pack_policy {
    /// Up to this many elements pack writes into a result as long as its input
    /// and reads the count last: the scatter is queued before the one wait,
    /// so the host's launch of it overlaps the scan (for small vectors, where
    /// latency rules). The result then holds up to n elements of spare
    /// capacity (4 MiB of int32 at most). Longer inputs read the count first
    /// and allocate exactly.
    static constexpr std::size_t scatter_before_count_max = std::size_t(1) << 20;
    // CUDA: a pack of at most one_block_scan_shape<int>::size elements (2048)
    // is one block, one launch: the block scans the flags, moves the flagged
    // elements and stores the count where the host reads it.
};

/// CUDA: segments::ids() of at most this many elements finds each element's
/// segment by a binary search of the offsets, one launch; longer ones mark
/// the segments' starts and max-scan the marks (a fill, the marks, CUB's two
/// launches). A search takes at most log2(count) + 1 reads of offsets that
/// stay in the L1/L2 caches, under 17 at this bound.
struct segment_ids_policy {
    static constexpr std::size_t search_max = std::size_t(1) << 16;
    /// Whether ids() of n elements searches (on the host the scan costs no launches to save).
    static constexpr bool by_search(std::size_t n) { return on_cuda && n <= search_max; }
};

}  SCANVEC_NAMESPACE_END  // detail
