// scanvec/primitives/detail/split/policy.hpp - the tuning of the flat split (sv::split).
//
// Every constant that decides how sv::split runs, with the reason for it. How
// the passes run and what they measured: docs/design/split.md.
#pragma once

#include <scanvec/runtime/config.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

struct split_policy {
    /// The CUDA tile kernel (detail/split/cuda/tiles.hpp) counts positions and
    /// falses in 32 bits (its look-back carries an int32 per tile): it runs up
    /// to this many elements; longer vectors take the generic path (a 64-bit
    /// lazy scan fused with the scatter).
    static constexpr std::size_t max_tile_elements = std::size_t(std::numeric_limits<std::int32_t>::max());
    /// Up to this many tiles (2^22 4-byte keys) every tile sums the per-tile
    /// counts of falses itself (at most 4 loads a thread): two launches, which
    /// is what a small split costs. Past it those sums grow with the square of
    /// the tiles, and one exclusive scan of the counts (two more launches)
    /// costs less.
    static constexpr int counted_tiles_max = 1024;
    /// The host's blocks (split/host.hpp): 2^16 elements, so that a block's
    /// pass over its flags and elements outweighs its count's bookkeeping,
    /// while 2^24 elements still make 256 blocks, enough to share among the
    /// threads evenly.
    static constexpr index_t host_block = index_t(1) << 16;
};

/// The tile kernel's shape for elements of type T: 256 threads, each holding
/// about 64 bytes of elements (16 for 4-byte keys, at most 16) so that every
/// thread keeps several loads in flight in a pass bound by memory; elements of
/// 64 bytes or more go one per thread, which keeps the shared-memory staging
/// area (size x sizeof(T): 16 KB for elements under 64 bytes) small.
template <class T> struct split_tile_shape {
    static constexpr int threads = 256;
    static constexpr int items = sizeof(T) >= 64 ? 1 : int(64 / sizeof(T)) > 16 ? 16 : int(64 / sizeof(T));
    static constexpr int size = threads * items;
};

}  SCANVEC_NAMESPACE_END  // detail
