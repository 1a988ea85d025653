// scanvec/primitives/detail/three_way/policy.hpp - the tuning constants of the three-way split family.
//
// Every size the family's passes are tuned by, each with its reason; the
// measurements behind them are in docs/design/quicksort.md. Plain constants:
// the generic form reads short_sort_limit, the host form three_way_host_*,
// the CUDA tile passes the rest.
#pragma once

#include <scanvec/runtime/config.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// The generic form's longest short segment: one thread's insertion sort, in registers.
constexpr std::size_t short_sort_limit = 16;

/// The host form (detail/three_way/host.hpp): its passes take blocks of this
/// many positions, each on one thread: enough that a block's pass outweighs
/// its bookkeeping (one count word per block), few enough (256 at 2^24 keys)
/// that the threads share them evenly.
constexpr std::ptrdiff_t three_way_host_block = std::ptrdiff_t(1) << 16;
/// The host form's longest short segment: one thread sorts it with the
/// standard library. 2^14 keys (64 KB of 32-bit keys, with std::stable_sort's
/// buffer well inside a core's L2) are sorted faster than the rounds that
/// would split them further, each of which passes over every key; shorter
/// segments leave more rounds, longer ones fewer segments to share among threads.
constexpr std::size_t three_way_host_short_limit = std::size_t(1) << 14;

/// The count and split passes (detail/three_way/cuda/tiles.hpp): a tile of threads x items keys.
template <class T> struct three_way_tile_shape {
    static constexpr int threads = 256;
    /// 8 keys a thread was the fastest of 4, 6, 8, 12 and 16 on the H100; more costs occupancy (registers).
    static constexpr int items = 8;
    static constexpr int size = threads * items;
    /// The count pass with its pivots chosen before (quicksort's) is held to
    /// 48 registers, 5 blocks an SM, without spilling; with a chooser of its
    /// own it spills at 48 and is held to 64 (4 blocks).
    static constexpr int count_blocks_per_sm = 5;
    static constexpr int count_choosing_blocks_per_sm = 4;
    /// Both split passes (stable, any order): 5 blocks an SM (48 registers).
    /// The stable one holds it without spilling for every key type once it
    /// reloads its keys and starts from the cache after the scan; 6 (40
    /// registers) spills. The one in any order spills a few bytes at 48
    /// (docs/design/quicksort.md).
    static constexpr int split_blocks_per_sm = 5;
};

/// choose_pivots on marked tiles: a warp for each short-sort tile, this many
/// threads a block. A warp, not a block, a tile: a block a tile made waves of
/// mostly idle blocks; the warp also sorts a long segment's 256 samples, 8 a
/// lane (docs/design/quicksort.md).
constexpr int three_way_pivot_threads = 256;
/// choose_pivots after the base case: at most this many warps (besides the
/// tiles') take the queue of segments longer than the base case sorts, one
/// segment a warp at a time (the queue holds at most n / 16385 of them: 2^14
/// at 2^28 keys).
constexpr std::size_t three_way_pivot_queue_warps = 4096;
/// A first state's bookkeeping (three_way_first_words_set): a thread a word
/// (or a tile's starts), a few stores each; any block size that fills warps does.
constexpr int three_way_first_words_threads = 256;
/// The first state's tile offsets (three_way_first_offsets): a thread a
/// tile, a block this many (256 blocks at 2^28 keys), across blocks by
/// look-back, so that the scan's loads are coalesced and many in flight.
constexpr int three_way_first_offsets_threads = 512;

/// The base case's tiles (detail/three_way/cuda/short_sort_tiles.hpp): a block sorts a window of two tiles.
template <class T> struct short_sort_shape {
    static constexpr int threads = 256;
    /// A window of 4096 (4-byte keys) or 2048 (8-byte keys): the sort's shared
    /// memory (window x (key, rank)) stays within the static 48 KB.
    static constexpr int items = sizeof(T) <= 4 ? 16 : sizeof(T) <= 8 ? 8 : 4;
    static constexpr int window = threads * items;
    /// A block's tile of positions, and the longest segment the tile sort sorts:
    /// half its window, so that such a segment headed in the tile ends in the window.
    static constexpr int tile_keys = window / 2;
    /// Blocks an SM (__launch_bounds__; 80 registers a thread): the launch's
    /// grid is no larger than the GPU holds at once.
    static constexpr int blocks_per_sm = 3;
};

/// Keys the base case sorts by radix: 32-bit integers and floats, whose order
/// is their bits' (radix_bits in three_way/cuda/short_sort_tiles.hpp); faster than the merge
/// sort, which sorts the others by their operator<. A float's -0 sorts before
/// its +0 (equal keys: any order is sorted), NaN to the ends of its segment.
template <class T>
constexpr bool short_sort_by_radix = (std::is_integral_v<T> && sizeof(T) == 4) || std::is_same_v<T, float>;

/// Keys the base case's second tier sorts whole, a segment a block, by radix:
/// those of the radix tiles, and 64-bit integers and doubles (their bits
/// ordered as the keys, radix_bits). Their tiles merge-sort: a (rank, key)
/// word would not fit 64 bits.
template <class T>
constexpr bool block_sort_by_radix =
    short_sort_by_radix<T> || (sizeof(T) == 8 && (std::is_integral_v<T> || std::is_same_v<T, double>));

/// The base case's second tier (detail/three_way/cuda/block_sort_segments.hpp): one block
/// radix-sorts a whole segment of threads x items keys or fewer.
template <int Threads, int Items> struct block_sort_shape {
    static constexpr int threads = Threads;
    static constexpr int items = Items;
    static constexpr int keys = threads * items;
    /// Blocks an SM (64 registers a thread: 2 of 512 threads, 1 of 1024). They
    /// loop over a queue whose count only the device knows: no more blocks than
    /// the GPU holds at once, since an idle launch of more took longer (waves
    /// of blocks that read one word and leave).
    static constexpr int blocks_per_sm = 1024 / threads;
};
/// Two sizes, so that a segment of 3000 keys is not padded to 16384 (5 times
/// its sort). 16 keys a thread of 4 bytes (8192 keys: 33 KB of shared memory,
/// two blocks an SM; 16384: 67 KB, dynamic), 8 of 8 bytes (4096 and 8192 keys,
/// the same bytes; 16 would take past the 64 registers a thread of 1024 has).
template <class T> using block_sort_small = block_sort_shape<512, sizeof(T) == 8 ? 8 : 16>;
template <class T> using block_sort_large = block_sort_shape<1024, sizeof(T) == 8 ? 8 : 16>;

/// The longest segment sort_short_segments sorts on CUDA tiles: a block's
/// whole segment for keys sorted by radix, else a short-sort tile.
template <class T>
constexpr std::uint32_t block_sort_limit =
    block_sort_by_radix<T> ? std::uint32_t(block_sort_large<T>::keys) : std::uint32_t(short_sort_shape<T>::tile_keys);

/// The fewest keys whose rounds after the first run on the device
/// (repeats_on_device: one CUDA graph, runtime/repeat_on_device.hpp). Below,
/// a round's kernels are so short that capturing two rounds and updating
/// the kept graph cost the host about what the launches they replace do
/// (docs/design/quicksort.md, "The rounds on the device").
constexpr std::size_t three_way_rounds_on_device_from = std::size_t(1) << 18;

}  SCANVEC_NAMESPACE_END  // detail
