// scanvec/primitives/detail/three_way/cuda/short_sort_tiles.hpp - sort every short segment at once (CUDA).
//
// The base case of a segmented quicksort: a segment that fits in a block's
// shared memory is sorted there in one go instead of by further rounds.
//
// A block owns the segments whose head lies in its tile of `tile_keys`
// positions (three_way/policy.hpp) and whose length is at most `tile_keys`;
// such a segment ends within the window of two tiles starting at the block's
// tile. It sorts them once no longer segment is headed in its tile (before,
// most of its window would be sorted again in a later round): the last split
// marked, per tile, whether it left a short head there and whether a long
// one, so an idle block reads two words only. The block loads that window and
// sorts it by (rank, key), where an element of an owned short segment has the
// rank of its head and every other element the rank of its own position: the
// owned segments come out sorted in their own places and every other element
// stays where it was. The block writes back only the owned segments, and
// every key of them becomes a finished segment of one (start[i] = i).
//
// How the block sorts: 32-bit integer and float keys by radix, each (rank,
// key) packed in one 64-bit word (12 bits of rank above the key's bits, made
// so that unsigned order is the key's order: radix_bits): 44 bits in 11
// passes, faster than merging (docs/design/quicksort.md); other keys by a
// merge sort of (rank, key) records with their operator<.
//
// Windows of neighbouring tiles overlap, so the even tiles run in one launch
// and the odd tiles in the next: no block reads what another block of the
// same launch writes.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/three_way/place.hpp>
#include <scanvec/primitives/detail/three_way/policy.hpp>
#include <scanvec/runtime/backend.hpp>

#include <cub/block/block_exchange.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

template <class T> struct ranked_key {
    T key;
    std::uint32_t rank;  // the window position of its segment's head, or its own
};

/// The unsigned word of a key's radix bits: as wide as the key (4 or 8 bytes).
template <class T> using radix_word_t = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;

/// A key's bits in unsigned order, and back: an integer's with its sign
/// flipped when signed; a float's or double's with every bit flipped when
/// negative, else the sign (-NaN < -inf < ... < -0 < +0 < ... < +inf < NaN).
template <class T> __device__ radix_word_t<T> radix_bits(T key) {
    using W = radix_word_t<T>;
    constexpr W top = W(1) << (8 * sizeof(W) - 1);
    if constexpr (std::is_floating_point_v<T>) {
        W u;
        if constexpr (sizeof(T) == 8) u = W(__double_as_longlong(key));
        else u = __float_as_uint(key);
        return u ^ ((u & top) ? ~W(0) : top);
    } else {
        return W(key) ^ (std::is_signed_v<T> ? top : W(0));
    }
}
template <class T> __device__ T from_radix_bits(radix_word_t<T> bits) {
    using W = radix_word_t<T>;
    constexpr W top = W(1) << (8 * sizeof(W) - 1);
    if constexpr (std::is_floating_point_v<T>) {
        const W u = bits ^ ((bits & top) ? top : ~W(0));
        if constexpr (sizeof(T) == 8) return __longlong_as_double(static_cast<long long>(u));
        else return __uint_as_float(u);
    } else {
        return T(bits ^ (std::is_signed_v<T> ? top : W(0)));
    }
}

/// (rank, key) as one word whose unsigned order is by rank, then key.
template <class T> __device__ std::uint64_t rank_key_word(std::uint32_t rank, T key) {
    static_assert(sizeof(T) == 4, "a 32-bit key beside its rank");
    return std::uint64_t(rank) << 32 | radix_bits(key);
}
template <class T> __device__ ranked_key<T> from_rank_key_word(std::uint64_t w) {
    return {from_radix_bits<T>(std::uint32_t(w)), std::uint32_t(w >> 32)};
}

/// The merge sort's key order: operator<, but for floating point the total
/// order of their bits (as radix_bits): with NaN, operator< is no strict weak
/// order, and a block merge sort's partitions then disagree and lose keys.
template <class T> __device__ bool key_less(const T& a, const T& b) {
    if constexpr (std::is_floating_point_v<T> && (sizeof(T) == 4 || sizeof(T) == 8)) return radix_bits(a) < radix_bits(b);
    else return a < b;
}

struct by_rank_then_key {
    template <class T> __device__ bool operator()(const ranked_key<T>& a, const ranked_key<T>& b) const {
        return a.rank != b.rank ? a.rank < b.rank : key_less(a.key, b.key);
    }
};

/// The shared memory of a block of short_sort_tiles.
template <class T> struct short_sort_memory {
    using shape = short_sort_shape<T>;
    using load_keys = cub::BlockLoad<T, shape::threads, shape::items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using load_starts = cub::BlockLoad<std::uint32_t, shape::threads, shape::items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using sort = cub::BlockMergeSort<ranked_key<T>, shape::threads, shape::items>;
    using exchange = cub::BlockExchange<ranked_key<T>, shape::threads, shape::items>;
    using radix_sort = cub::BlockRadixSort<std::uint64_t, shape::threads, shape::items>;
    union {
        typename load_keys::TempStorage keys;
        typename load_starts::TempStorage starts;
        typename std::conditional_t<short_sort_by_radix<T>, radix_sort, sort>::TempStorage sort;
        typename exchange::TempStorage exchange;
    } cub;
    bool short_head[shape::tile_keys];  // short_head[h]: base + h heads an owned short segment
};

/// One block's tile: sorts the short segments headed there (the tile is
/// marked: short heads and no long one).
template <class T>
__device__ __forceinline__ void short_sort_tile(short_sort_memory<T>& smem, T* keys, std::uint32_t* start, const std::uint32_t* length,
                                std::int32_t n, std::int32_t tile) {
    using shape = short_sort_shape<T>;
    using memory = short_sort_memory<T>;
    constexpr int threads = shape::threads, items = shape::items, tile_keys = shape::tile_keys;
    bool* short_head = smem.short_head;
    const std::int32_t base = tile * tile_keys;
    const int valid = n - base < shape::window ? n - base : shape::window;

    // which heads in my tile begin a segment of 2 to `tile_keys` elements
    bool any = false;
    for (int h = threadIdx.x; h < tile_keys; h += threads) {
        const std::int32_t i = base + h;
        bool is_short = false;
        if (i < n && start[i] == std::uint32_t(i) && i + 1 < n && start[i + 1] != std::uint32_t(i + 1))
            is_short = length[i] <= std::uint32_t(tile_keys);
        short_head[h] = is_short;
        any |= is_short;
    }
    if (!__syncthreads_or(any)) return;

    T v[items];
    std::uint32_t s[items];
    if (valid == shape::window) typename memory::load_keys(smem.cub.keys).Load(keys + base, v);
    else typename memory::load_keys(smem.cub.keys).Load(keys + base, v, valid, T());  // past the end: rank j keeps them last
    __syncthreads();
    if (valid == shape::window) typename memory::load_starts(smem.cub.starts).Load(start + base, s);
    else typename memory::load_starts(smem.cub.starts).Load(start + base, s, valid, 0u);
    __syncthreads();

    ranked_key<T> r[items];
#pragma unroll
    for (int k = 0; k < items; ++k) {
        const int j = int(threadIdx.x) * items + k;  // blocked: my elements are consecutive
        const std::int32_t h = std::int32_t(s[k]) - base;
        const bool owned = j < valid && h >= 0 && h < tile_keys && short_head[h];
        r[k] = {v[k], std::uint32_t(owned ? h : j)};
    }
    // sorted, and striped: neighbouring lanes hold neighbouring positions
    if constexpr (short_sort_by_radix<T>) {
        constexpr int rank_bits = 12;
        static_assert(shape::window <= 1 << rank_bits, "a window position fits the rank's bits");
        std::uint64_t w[items];
#pragma unroll
        for (int k = 0; k < items; ++k) w[k] = rank_key_word(r[k].rank, r[k].key);
        typename memory::radix_sort(smem.cub.sort).SortBlockedToStriped(w, 0, 32 + rank_bits);
#pragma unroll
        for (int k = 0; k < items; ++k) r[k] = from_rank_key_word<T>(w[k]);
    } else {
        typename memory::sort(smem.cub.sort).StableSort(r, by_rank_then_key{});
        __syncthreads();
        typename memory::exchange(smem.cub.exchange).BlockedToStriped(r);
    }

    // the element now at window position j belongs to an owned segment exactly
    // when its rank is an owned head (any other element kept rank j, and j is
    // no owned head, or the element there would have been owned)
#pragma unroll
    for (int k = 0; k < items; ++k) {
        const int j = k * threads + int(threadIdx.x);
        if (j >= valid || r[k].rank >= std::uint32_t(tile_keys) || !short_head[r[k].rank]) continue;
        keys[base + j] = r[k].key;
        start[base + j] = std::uint32_t(base + j);
    }
}

/// The same, called: nvcc then allocates the merge sort's registers apart
/// from the kernel's loop, where inlined it spilled (the radix sort spills
/// less inlined; docs/design/quicksort.md).
template <class T>
__device__ __noinline__ void short_sort_tile_called(short_sort_memory<T>& smem, T* keys, std::uint32_t* start,
                                                    const std::uint32_t* length, std::int32_t n, std::int32_t tile) {
    short_sort_tile(smem, keys, start, length, n, tile);
}

/// The tiles of one parity (tile = 2 t + parity, t < tiles), no more blocks
/// than the GPU holds at once: each block reads the marks of its next
/// `threads` tiles (t = blockIdx.x, + gridDim.x, ...) in one go and sorts the
/// marked ones (a block a tile made waves of idle blocks, each reading two
/// words: docs/design/quicksort.md).
template <class T>
__global__ void __launch_bounds__(short_sort_shape<T>::threads, short_sort_shape<T>::blocks_per_sm)
    short_sort_tiles(T* keys, std::uint32_t* start, const std::uint32_t* length, const std::uint32_t* tile_heads,
                     const std::uint32_t* splits_at, std::int32_t n, int parity, std::int32_t tiles) {
    constexpr int threads = short_sort_shape<T>::threads;
    __shared__ short_sort_memory<T> smem;
    __shared__ std::int32_t marked[threads];
    __shared__ int marked_count;
    const std::int32_t grid = std::int32_t(gridDim.x);
    const std::uint32_t splits = *splits_at;
    for (std::int32_t first = std::int32_t(blockIdx.x); first < tiles; first += grid * threads) {
        if (threadIdx.x == 0) marked_count = 0;
        __syncthreads();
        const std::int32_t t = first + std::int32_t(threadIdx.x) * grid;
        if (t < tiles) {
            const std::int32_t tile = 2 * t + parity;
            if (tile_heads[2 * tile] == splits && tile_heads[2 * tile + 1] != splits) marked[atomicAdd(&marked_count, 1)] = tile;
        }
        __syncthreads();
        const int count = marked_count;
        for (int m = 0; m < count; ++m) {
            if constexpr (short_sort_by_radix<T>) short_sort_tile(smem, keys, start, length, n, marked[m]);
            else short_sort_tile_called(smem, keys, start, length, n, marked[m]);
            __syncthreads();  // the next tile reuses the shared memory
        }
    }
}

/// Sorts every segment of 2 to short_sort_shape<T>::tile_keys keys of
/// round.from in place (by the marks of the last split); each of their keys
/// becomes a finished segment of one.
template <class T> void short_sort_by_tiles(const three_way_round<T>& round) {
    using shape = short_sort_shape<T>;
    const int tiles = int((std::size_t(round.n) + shape::tile_keys - 1) / shape::tile_keys);
    const int most = shape::blocks_per_sm * backend::multiprocessor_count("sort_short_segments");
    for (int parity = 0; parity < 2 && parity < tiles; ++parity) {
        const int of_parity = (tiles - parity + 1) / 2;
        short_sort_tiles<T><<<std::min(of_parity, most), shape::threads, 0, round.stream>>>(
            round.from.keys, round.from.start, round.from.length, round.tile_heads, round.splits, round.n, parity,
            of_parity);
        backend::check_launch("sort_short_segments (sort by tiles)");
    }
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
