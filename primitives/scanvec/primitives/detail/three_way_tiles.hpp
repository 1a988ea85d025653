// scanvec/primitives/detail/three_way_tiles.hpp - the segmented three-way split in two tile passes (CUDA).
//
// Each element's counts (is it less than its segment's pivot, is it equal)
// and whether it heads a segment pack into one 64-bit word: the head flag in
// bit 63, less in bits 32-62, equal in bits 0-31 (below 2^31 elements nothing
// overflows). Scanning those words with
//     a (+) b = b if b heads a segment, else a + b
// is a segmented +-scan of both counts at once; it is associative, so CUB's
// block scan and decoupled look-back run it like a sum.
//
// count pass: the tile's scan in shared memory; the last element of each
// segment in the tile leaves the segment's counts at its head: a plain store
// when the whole segment lies in the tile, an atomic add when it crosses a
// tile boundary (the split that made the segment zeroed its totals). The same
// pass counts the descents inside segments (one atomic per tile).
// split pass: the same scan, now across tiles by look-back, gives each
// element its counts before it in its segment; with the segment's totals that
// is its place. The element that lands first in a new segment writes the
// segment's length and zeroes its totals for the next count pass.
//
// A segment of one element (finished) has no pivot, no totals and never
// moves: both passes recognise it from the starts alone (it is a head and so
// is the next position).
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/tile_state.hpp>
#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/device_value.hpp>
#include <scanvec/runtime/memory.hpp>

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include <cstdint>

namespace scanvec::detail {

constexpr std::uint64_t tw_head = std::uint64_t(1) << 63;
constexpr std::uint64_t tw_one_less = std::uint64_t(1) << 32;

/// The segmented sum of packed counts: restart at a head.
struct tw_segmented_plus {
    __host__ __device__ std::uint64_t operator()(std::uint64_t a, std::uint64_t b) const { return (b & tw_head) ? b : a + b; }
};

template <class T> struct tw_tile_shape {
    static constexpr int threads = 256;
    // 8 per thread: measured on the H100 (quicksort of 2^24 int32) against 4, 6, 12 and 16,
    // 8 was fastest (13.8 ms; 12: 16.3 ms, 16: 16.9 ms); more costs occupancy (registers)
    static constexpr int items = 8;
    static constexpr int size = threads * items;
};

using tw_tile_state = cub::ScanTileState<std::uint64_t>;

/// One thread's run of a tile: its keys and starts, and each element's word.
template <class T> struct tw_run {
    static constexpr int threads = tw_tile_shape<T>::threads, items = tw_tile_shape<T>::items;
    using load_keys = cub::BlockLoad<T, threads, items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using load_starts = cub::BlockLoad<std::uint32_t, threads, items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    union storage {
        typename load_keys::TempStorage keys;
        typename load_starts::TempStorage starts;
    };

    T v[items];
    std::uint32_t s[items];
    std::uint64_t w[items];
    std::int32_t first;  // position of v[0]
    std::int32_t n;
    std::uint32_t start_after;  // start of the position after v[items-1] (when there is one)

    __device__ bool head(int k) const { return s[k] == std::uint32_t(first + k); }
    __device__ bool next_is_head(int k) const {
        const std::int32_t i = first + k;
        if (i + 1 >= n) return true;
        return (k + 1 < items ? s[k + 1] : start_after) == std::uint32_t(i + 1);
    }
    __device__ bool alone(int k) const { return head(k) && next_is_head(k); }

    /// Loads the tile at base, classifies every element against pivot[start]. Ends with a barrier.
    __device__ void load(storage& smem, const T* keys, const std::uint32_t* start, const T* pivot, std::int32_t base,
                         std::int32_t count) {
        n = count;
        const int valid = n - base < threads * items ? n - base : threads * items;
        if (valid == threads * items) load_keys(smem.keys).Load(keys + base, v);
        else load_keys(smem.keys).Load(keys + base, v, valid);
        __syncthreads();
        if (valid == threads * items) load_starts(smem.starts).Load(start + base, s);
        else load_starts(smem.starts).Load(start + base, s, valid, 0u);
        __syncthreads();
        first = base + std::int32_t(threadIdx.x) * items;
        start_after = first + items < n ? __ldg(start + first + items) : 0u;
#pragma unroll
        for (int k = 0; k < items; ++k) {
            if (first + k >= n || alone(k)) {
                w[k] = tw_head;  // past the end, or finished: no counts, and a segment of its own
                continue;
            }
            const T p = __ldg(pivot + s[k]);
            w[k] = (head(k) ? tw_head : 0) | (v[k] < p ? tw_one_less : (p < v[k] ? 0 : 1));
        }
    }
    __device__ std::uint64_t aggregate() const {
        std::uint64_t a = 0;
#pragma unroll
        for (int k = 0; k < items; ++k) a = tw_segmented_plus{}(a, w[k]);
        return a;
    }
};

template <class T>
__global__ void __launch_bounds__(tw_tile_shape<T>::threads)
    three_way_count_tiles(const T* keys, const std::uint32_t* start, const T* pivot, std::int32_t n,
                          std::uint64_t* totals, unsigned long long* descents) {
    using run_t = tw_run<T>;
    constexpr int threads = run_t::threads, items = run_t::items;
    using block_scan = cub::BlockScan<std::uint64_t, threads>;
    using block_sum = cub::BlockReduce<unsigned, threads>;
    __shared__ union {
        typename run_t::storage load;
        typename block_scan::TempStorage scan;
        typename block_sum::TempStorage sum;
    } smem;

    const std::int32_t base = std::int32_t(blockIdx.x) * tw_tile_shape<T>::size;
    const std::int32_t last = (n - base < tw_tile_shape<T>::size ? n : base + tw_tile_shape<T>::size) - 1;
    run_t r;
    r.load(smem.load, keys, start, pivot, base, n);

    unsigned down = 0;  // descents among my elements
#pragma unroll
    for (int k = 0; k < items; ++k) {
        const std::int32_t i = r.first + k;
        if (i < n && i > 0 && !r.head(k)) down += r.v[k] < (k ? r.v[k - 1] : keys[i - 1]);
    }
    std::uint64_t run;
    block_scan(smem.scan).ExclusiveScan(r.aggregate(), run, std::uint64_t(0), tw_segmented_plus{});
#pragma unroll
    for (int k = 0; k < items; ++k) {
        run = tw_segmented_plus{}(run, r.w[k]);
        const std::int32_t i = r.first + k;
        if (i > last || r.alone(k)) continue;
        const bool ends = r.next_is_head(k);
        if (!ends && i != last) continue;  // not the segment's last element in this tile
        const std::uint64_t counts = run & ~tw_head;
        if (ends && (run & tw_head)) totals[r.s[k]] = counts;  // the whole segment is in this tile
        else atomicAdd(reinterpret_cast<unsigned long long*>(totals + r.s[k]), (unsigned long long)counts);
    }
    __syncthreads();
    const unsigned tile_down = block_sum(smem.sum).Sum(down);
    if (threadIdx.x == 0 && tile_down) atomicAdd(descents, (unsigned long long)tile_down);
}

template <class T>
__global__ void __launch_bounds__(tw_tile_shape<T>::threads)
    three_way_split_tiles(const T* keys, const std::uint32_t* start, const std::uint32_t* length, const T* pivot,
                          const std::uint64_t* totals, std::int32_t n, T* keys_out, std::uint32_t* start_out,
                          std::uint32_t* length_out, std::uint64_t* totals_out, tw_tile_state tiles) {
    using run_t = tw_run<T>;
    constexpr int threads = run_t::threads, items = run_t::items;
    using block_scan = cub::BlockScan<std::uint64_t, threads>;
    using look_back = cub::TilePrefixCallbackOp<std::uint64_t, tw_segmented_plus, tw_tile_state>;
    using exchange_keys = cub::BlockExchange<T, threads, items>;
    using exchange_places = cub::BlockExchange<std::uint32_t, threads, items>;
    __shared__ union {
        typename run_t::storage load;
        struct {
            typename block_scan::TempStorage scan;
            typename look_back::TempStorage prefix;
        } scan;
        typename exchange_keys::TempStorage keys;
        typename exchange_places::TempStorage places;
    } smem;

    const int tile = blockIdx.x;
    run_t r;
    r.load(smem.load, keys, start, pivot, std::int32_t(tile) * tw_tile_shape<T>::size, n);

    std::uint64_t run;  // the segmented counts before my first element
    if (tile == 0) {
        std::uint64_t tile_total;
        block_scan(smem.scan.scan).ExclusiveScan(r.aggregate(), run, std::uint64_t(0), tw_segmented_plus{}, tile_total);
        if (threadIdx.x == 0) tiles.SetInclusive(0, tile_total);
    } else {
        look_back prefix(tiles, smem.scan.prefix, tw_segmented_plus{}, tile);
        block_scan(smem.scan.scan).ExclusiveScan(r.aggregate(), run, tw_segmented_plus{}, prefix);
    }

    // each element's place and its new segment's start (none past the end)
    constexpr std::uint32_t none = ~std::uint32_t(0);
    std::uint32_t at[items], from[items], new_length[items];
#pragma unroll
    for (int k = 0; k < items; ++k) {
        const std::uint64_t before = run;
        run = tw_segmented_plus{}(run, r.w[k]);
        const std::int32_t i = r.first + k;
        at[k] = from[k] = none;
        new_length[k] = 0;
        if (i >= n) continue;
        const std::uint32_t s = r.s[k];
        if (r.alone(k)) {  // finished: stays
            at[k] = from[k] = std::uint32_t(i);
            continue;
        }
        const std::uint64_t in = r.head(k) ? 0 : before & ~tw_head;  // my segment's counts before me
        const std::uint32_t less = std::uint32_t(in >> 32), equal = std::uint32_t(in);
        const std::uint64_t all = __ldg(totals + s);
        const std::uint32_t less_all = std::uint32_t(all >> 32), equal_all = std::uint32_t(all);
        std::uint32_t len;
        if (r.w[k] & tw_one_less) {
            at[k] = s + less;
            from[k] = s;
            len = less_all;
        } else if (r.w[k] & 1) {
            at[k] = from[k] = s + less_all + equal;
            len = 1;
        } else {
            from[k] = s + less_all + equal_all;
            at[k] = from[k] + (std::uint32_t(i) - s - less - equal);
            len = at[k] == from[k] ? __ldg(length + s) - less_all - equal_all : 0;
        }
        if (at[k] != from[k]) len = 0;  // only the first of a new segment writes its length
        new_length[k] = len;
    }
    // Each thread holds consecutive elements; stored as they are, a warp's
    // stores would land 'items' apart. Striped across the threads instead,
    // neighbouring lanes hold neighbouring elements, whose places are mostly
    // neighbours too (a run per class and segment): coalesced stores.
    T v[items];
    std::uint32_t to[items], head_at[items], len[items];
    __syncthreads();
    exchange_keys(smem.keys).BlockedToStriped(r.v, v);
    __syncthreads();
    exchange_places(smem.places).BlockedToStriped(at, to);
    __syncthreads();
    exchange_places(smem.places).BlockedToStriped(from, head_at);
    __syncthreads();
    exchange_places(smem.places).BlockedToStriped(new_length, len);
#pragma unroll
    for (int k = 0; k < items; ++k) {
        if (to[k] == none) continue;
        keys_out[to[k]] = v[k];
        start_out[to[k]] = head_at[k];
        if (len[k] >= 2) {  // first in a new segment of two or more: its length, its totals zeroed
            length_out[to[k]] = len[k];
            totals_out[to[k]] = 0;
        }
    }
}

/// The count pass over n < 2^31 elements; returns the descents (waits for them).
template <class T>
index_t three_way_count_by_tiles(const T* keys, const std::uint32_t* start, const T* pivot, std::size_t n,
                                 std::uint64_t* totals, stream_t s) {
    const int num_tiles = int((n + tw_tile_shape<T>::size - 1) / tw_tile_shape<T>::size);
    device_value<unsigned long long> descents(s);
    backend::fill_zero(descents.ptr(), sizeof(unsigned long long), s, "count_three_ways (descents)");
    three_way_count_tiles<T><<<num_tiles, tw_tile_shape<T>::threads, 0, s>>>(keys, start, pivot, std::int32_t(n),
                                                                            totals, descents.ptr());
    backend::check_launch("count_three_ways (count by tiles)");
    return index_t(descents.get());
}

/// The split pass over n < 2^31 elements.
template <class T>
void three_way_split_by_tiles(const T* keys, const std::uint32_t* start, const std::uint32_t* length, const T* pivot,
                              const std::uint64_t* totals, std::size_t n, T* keys_out, std::uint32_t* start_out,
                              std::uint32_t* length_out, std::uint64_t* totals_out, stream_t s) {
    const int num_tiles = int((n + tw_tile_shape<T>::size - 1) / tw_tile_shape<T>::size);
    const tile_state<tw_tile_state> status(num_tiles, s, "split_three_ways");
    three_way_split_tiles<T><<<num_tiles, tw_tile_shape<T>::threads, 0, s>>>(
        keys, start, length, pivot, totals, std::int32_t(n), keys_out, start_out, length_out, totals_out, status.tiles);
    backend::check_launch("split_three_ways (split by tiles)");
}

}  // namespace scanvec::detail

#endif
