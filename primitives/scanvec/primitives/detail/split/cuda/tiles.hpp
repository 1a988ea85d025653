// scanvec/primitives/detail/split/cuda/tiles.hpp - the flat split's scatter, tile by tile (CUDA).
//
// Each tile ranks its elements in shared memory, falses first, and writes its
// two runs with coalesced stores (read the elements and flags, write the
// elements). A tile needs its count of falses before it and the whole count F,
// which come from the reduce step, a count of falses per tile
// (split_count_tiles), by the number of tiles:
//   one tile            no count: the tile counts its own, the split is one launch
//   up to split_policy::counted_tiles_max
//                       every tile sums the counts itself: two launches
//   more                an exclusive scan of the counts (a few thousand
//                       values) gives each tile its prefix and F: no look-back
// n below 2^31. Why and how fast: docs/design/split.md. Shape: detail/split/policy.hpp.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/split/policy.hpp>
#include <scanvec/primitives/detail/scan/dispatch.hpp>
#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/device_value.hpp>
#include <scanvec/runtime/memory.hpp>

#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// Where the tile kernel gets each element's flag: read from their own sequence...
template <class FlagIt> struct flags_read {
    FlagIt it;
};
/// ...or, when the flags are a lazy map of the elements themselves (split by a
/// bit of the keys), computed from the element already loaded: no second read.
template <class Fn> struct flags_computed {
    Fn fn;
};

template <class In, class FlagIt> struct flags_map_elements : std::false_type {};
template <class In, class Fn, class R, class V>
struct flags_map_elements<In, thrust::transform_iterator<Fn, In, R, V>> : std::true_type {};

template <class X> struct is_flags_computed : std::false_type {};
template <class Fn> struct is_flags_computed<flags_computed<Fn>> : std::true_type {};

/// Where a tile gets its falses before it and F: from itself (one tile)...
struct prefix_own_tile {};
/// ...from every tile's count of falses (split_count_tiles)...
struct prefix_counted {
    const std::int32_t* counts;
    int num_tiles;
};
/// ...or from their exclusive scan: before[tile], and F = before[num_tiles].
struct prefix_scanned {
    const std::int32_t* before;
};

/// The falses before tile `tile` and in all tiles.
struct tile_counts {
    std::int32_t before, all;
};
struct add_tile_counts {
    __device__ tile_counts operator()(tile_counts x, tile_counts y) const { return {x.before + y.before, x.all + y.all}; }
};

/// The shared memory of the split's kernels for elements of type T.
template <class T> struct split_tile_storage {
    using shape = split_tile_shape<T>;
    using load_values = cub::BlockLoad<T, shape::threads, shape::items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using load_flags = cub::BlockLoad<bool, shape::threads, shape::items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using block_scan = cub::BlockScan<std::int32_t, shape::threads>;
    using block_reduce = cub::BlockReduce<std::int32_t, shape::threads>;
    using counts_reduce = cub::BlockReduce<tile_counts, shape::threads>;
    union type {
        typename load_values::TempStorage values;
        typename load_flags::TempStorage flags;
        typename block_reduce::TempStorage reduce;
        typename counts_reduce::TempStorage counts;
        typename block_scan::TempStorage scan;
        alignas(T) unsigned char staged[shape::size * sizeof(T)];
    };
};

/// Loads tile `base`'s elements into v and their flags into f; positions past
/// the end read as true (never counted as falses, never written).
template <class T, class In, class Flags>
__device__ void load_split_tile(In a, Flags flags, std::int32_t base, int valid, T (&v)[split_tile_shape<T>::items],
                                bool (&f)[split_tile_shape<T>::items], typename split_tile_storage<T>::type& smem) {
    using shape = split_tile_shape<T>;
    using load_values = typename split_tile_storage<T>::load_values;
    if (valid == shape::size) load_values(smem.values).Load(a + base, v);
    else load_values(smem.values).Load(a + base, v, valid);
    __syncthreads();
    if constexpr (is_flags_computed<Flags>::value) {
#pragma unroll
        for (int k = 0; k < shape::items; ++k)
            f[k] = int(threadIdx.x) * shape::items + k < valid ? bool(flags.fn(v[k])) : true;
    } else {
        using load_flags = typename split_tile_storage<T>::load_flags;
        if (valid == shape::size) load_flags(smem.flags).Load(flags.it + base, f);
        else load_flags(smem.flags).Load(flags.it + base, f, valid, true);
        __syncthreads();
    }
}

/// counts[tile] = the falses of the tile (the reduce step, tile by tile), and
/// counts[number of tiles] = 0, so that an exclusive scan of them ends in F.
template <class T, class In, class Flags>
__global__ void __launch_bounds__(split_tile_shape<T>::threads)
    split_count_tiles(In a, Flags flags, std::int32_t n, std::int32_t* counts) {
    using shape = split_tile_shape<T>;
    using storage = split_tile_storage<T>;
    __shared__ typename storage::type smem;
    const std::int32_t base = std::int32_t(blockIdx.x) * shape::size;
    const int valid = n - base < shape::size ? n - base : shape::size;
    // A count needs no order: striped loads, each warp's coalesced, straight from memory.
    const auto is_false = [&](int at) -> std::int32_t {
        if constexpr (is_flags_computed<Flags>::value) return flags.fn(a[base + at]) ? 0 : 1;
        else return flags.it[base + at] ? 0 : 1;
    };
    std::int32_t mine = 0;
    if (valid == shape::size) {
#pragma unroll
        for (int k = 0; k < shape::items; ++k) mine += is_false(k * shape::threads + int(threadIdx.x));
    } else {
        for (int at = threadIdx.x; at < valid; at += shape::threads) mine += is_false(at);
    }
    const std::int32_t tile_falses = typename storage::block_reduce(smem.reduce).Sum(mine);
    if (threadIdx.x == 0) counts[blockIdx.x] = tile_falses;
    if (blockIdx.x == 0 && threadIdx.x == 0) counts[gridDim.x] = 0;
}

template <class T, class In, class Flags, class Prefix, class Out>
__global__ void __launch_bounds__(split_tile_shape<T>::threads)
    split_tiles(In a, Flags flags, std::int32_t n, Prefix prefix, Out out) {
    using shape = split_tile_shape<T>;
    using storage = split_tile_storage<T>;
    constexpr int threads = shape::threads, items = shape::items;
    using block_scan = typename storage::block_scan;
    __shared__ typename storage::type smem;
    __shared__ tile_counts counted;

    const int tile = blockIdx.x;
    const std::int32_t base = tile * shape::size;
    const int valid = n - base < shape::size ? n - base : shape::size;

    tile_counts known{0, 0};  // scanned counts are read first, in flight with the tile's loads
    if constexpr (std::is_same_v<Prefix, prefix_scanned>) known = {prefix.before[tile], prefix.before[gridDim.x]};

    T v[items];
    bool f[items];
    load_split_tile<T>(a, flags, base, valid, v, f, smem);

    std::int32_t mine = 0;  // my falses
#pragma unroll
    for (int k = 0; k < items; ++k) mine += f[k] ? 0 : 1;
    std::int32_t falses_before, tile_falses, before_tile;  // falses in the tile before my first element, in it, before it
    index_t falses;                                          // F, in all tiles
    if constexpr (std::is_same_v<Prefix, prefix_counted>) {
        tile_counts c{0, 0};
        for (int t = threadIdx.x; t < prefix.num_tiles; t += threads) {
            const std::int32_t k = prefix.counts[t];
            c.all += k;
            c.before += t < tile ? k : 0;
        }
        c = typename storage::counts_reduce(smem.counts).Reduce(c, add_tile_counts{});
        if (threadIdx.x == 0) counted = c;
        __syncthreads();
        before_tile = counted.before;
        falses = counted.all;
    } else if constexpr (std::is_same_v<Prefix, prefix_scanned>) {
        before_tile = known.before;
        falses = known.all;
    }
    block_scan(smem.scan).ExclusiveSum(mine, falses_before, tile_falses);
    if constexpr (std::is_same_v<Prefix, prefix_own_tile>) {
        before_tile = 0;
        falses = tile_falses;
    }
    __syncthreads();  // the scan's storage becomes the staging area

    // rank in the tile: falses first, then trues, each in order
    T* staged = reinterpret_cast<T*>(smem.staged);
#pragma unroll
    for (int k = 0; k < items; ++k) {
        const int at = threadIdx.x * items + k;
        if (at < valid) {
            if (!f[k]) staged[falses_before++] = v[k];
            else staged[tile_falses + (at - falses_before)] = v[k];
        }
    }
    __syncthreads();

    // both runs, coalesced: falses from I-down of the tile's first element, trues from F + its trues before
    const index_t down = before_tile, up = falses + (base - before_tile);
    for (int j = threadIdx.x; j < valid; j += threads) out[j < tile_falses ? down + j : up + (j - tile_falses)] = staged[j];
}

/// The tiles of a split of n elements of type T.
template <class T> int split_tiles_for(std::size_t n) {
    return int((n + split_tile_shape<T>::size - 1) / split_tile_shape<T>::size);
}

/// The flags as the kernels take them: computed from the elements when they
/// are a lazy map of them (split by a bit of the keys), else read.
template <class In, class FlagIt, class Run> void with_tile_flags(In a, FlagIt flags, Run run) {
    if constexpr (flags_map_elements<In, FlagIt>::value) {
        if (flags.base() == a) {
            run(flags_computed<std::decay_t<decltype(flags.functor())>>{flags.functor()});
            return;
        }
    }
    run(flags_read<FlagIt>{flags});
}

/// True when the tile kernel takes n elements (32-bit counts).
inline bool split_by_tiles_fits(std::size_t n) { return n > 0 && n <= split_policy::max_tile_elements; }

/// The reduce step of a tiled split (split_by_tiles_fits): every tile's
/// falses, scanned when there are more than split_policy::counted_tiles_max,
/// or nothing for a single tile, which counts its own.
struct split_tile_falses {
    runtime::scratch counts;  // counts, then (more tiles) their exclusive scan
    int num_tiles = 0;
    bool scanned() const { return num_tiles > split_policy::counted_tiles_max; }
};
template <class T, class In, class FlagIt>
split_tile_falses count_split_tiles(In a, FlagIt flags, std::size_t n, stream_t s) {
    split_tile_falses c;
    c.num_tiles = split_tiles_for<T>(n);
    if (c.num_tiles <= 1) return c;
    const std::size_t words = std::size_t(c.num_tiles) + 1;
    c.counts = runtime::scratch((c.scanned() ? 2 : 1) * words * sizeof(std::int32_t));
    auto* counts = c.counts.template as<std::int32_t>();
    with_tile_flags(a, flags, [&](auto f) {
        split_count_tiles<T><<<c.num_tiles, split_tile_shape<T>::threads, 0, s>>>(a, f, std::int32_t(n), counts);
    });
    backend::check_launch("split (count by tiles)");
    if (c.scanned()) exclusive_scan_n(counts, words, counts + words, plus<std::int32_t>{}, std::int32_t(0), s);
    return c;
}

/// The permute step of a tiled split: out[split index] = a[i], falses
/// (flags[i] false) from 0 in order, trues from F in order.
template <class T, class In, class FlagIt, class Out>
void split_by_tiles(In a, FlagIt flags, std::size_t n, const split_tile_falses& c, Out out, stream_t s) {
    const int threads = split_tile_shape<T>::threads;
    const auto* counts = c.counts.template as<std::int32_t>();
    with_tile_flags(a, flags, [&](auto f) {
        if (c.num_tiles == 1)
            split_tiles<T><<<1, threads, 0, s>>>(a, f, std::int32_t(n), prefix_own_tile{}, out);
        else if (c.scanned())
            split_tiles<T><<<c.num_tiles, threads, 0, s>>>(a, f, std::int32_t(n),
                                                            prefix_scanned{counts + c.num_tiles + 1}, out);
        else
            split_tiles<T><<<c.num_tiles, threads, 0, s>>>(a, f, std::int32_t(n), prefix_counted{counts, c.num_tiles},
                                                            out);
    });
    backend::check_launch("split (permute by tiles)");
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
