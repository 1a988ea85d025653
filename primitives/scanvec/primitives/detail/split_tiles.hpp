// scanvec/primitives/detail/split_tiles.hpp - the flat split's scatter, tile by tile (CUDA).
//
// Each tile ranks its elements in shared memory, falses first, and writes its
// two runs with coalesced stores (read the elements and flags, write the
// elements). A tile needs its count of falses before it and the whole count F,
// which come, by the number of tiles:
//   one tile            from the tile itself: the split is one launch
//   up to split_policy::counted_tiles_max
//                       from a count of falses per tile (split_count_tiles),
//                       which every tile sums: two launches, no look-back
//   more                F from the caller (a reduce on the device), the counts
//                       before each tile by decoupled look-back over the tiles
//                       (CUB's ScanTileState and TilePrefixCallbackOp)
// n below 2^31. Why and how fast: docs/design/split.md. Shape: detail/split_policy.hpp.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/split_policy.hpp>
#include <scanvec/primitives/detail/tile_state.hpp>
#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/device_value.hpp>
#include <scanvec/runtime/memory.hpp>

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

using split_tile_state = cub::ScanTileState<std::int32_t>;

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
/// ...or by look-back, with F counted by the caller.
struct prefix_look_back {
    split_tile_state tiles;
    const index_t* falses;
};

/// The falses before tile `tile` and in all tiles.
struct tile_counts {
    std::int32_t before, all;
};
struct add_tile_counts {
    __device__ tile_counts operator()(tile_counts x, tile_counts y) const { return {x.before + y.before, x.all + y.all}; }
};

/// Loads tile `base`'s elements into v and their flags into f; positions past
/// the end read as true (never counted as falses, never written).
template <class T, class In, class Flags, class Storage>
__device__ void load_split_tile(In a, Flags flags, std::int32_t base, int valid, T (&v)[split_tile_shape<T>::items],
                                bool (&f)[split_tile_shape<T>::items], Storage& smem) {
    using shape = split_tile_shape<T>;
    using load_values = cub::BlockLoad<T, shape::threads, shape::items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using load_flags = cub::BlockLoad<bool, shape::threads, shape::items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    if (valid == shape::size) load_values(smem.values).Load(a + base, v);
    else load_values(smem.values).Load(a + base, v, valid);
    __syncthreads();
    if constexpr (is_flags_computed<Flags>::value) {
#pragma unroll
        for (int k = 0; k < shape::items; ++k)
            f[k] = int(threadIdx.x) * shape::items + k < valid ? bool(flags.fn(v[k])) : true;
    } else {
        if (valid == shape::size) load_flags(smem.flags).Load(flags.it + base, f);
        else load_flags(smem.flags).Load(flags.it + base, f, valid, true);
        __syncthreads();
    }
}

/// The shared memory of the split's kernels for elements of type T.
template <class T> struct split_tile_storage {
    using shape = split_tile_shape<T>;
    using load_values = cub::BlockLoad<T, shape::threads, shape::items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using load_flags = cub::BlockLoad<bool, shape::threads, shape::items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using block_scan = cub::BlockScan<std::int32_t, shape::threads>;
    using block_reduce = cub::BlockReduce<std::int32_t, shape::threads>;
    using counts_reduce = cub::BlockReduce<tile_counts, shape::threads>;
    using look_back = cub::TilePrefixCallbackOp<std::int32_t, ::cuda::std::plus<std::int32_t>, split_tile_state>;
    union type {
        typename load_values::TempStorage values;
        typename load_flags::TempStorage flags;
        typename block_reduce::TempStorage reduce;
        typename counts_reduce::TempStorage counts;
        struct {
            typename block_scan::TempStorage scan;
            typename look_back::TempStorage prefix;
        } scan;
        alignas(T) unsigned char staged[shape::size * sizeof(T)];
    };
};

/// counts[tile] = the falses of the tile (the reduce step, tile by tile).
template <class T, class In, class Flags>
__global__ void __launch_bounds__(split_tile_shape<T>::threads)
    split_count_tiles(In a, Flags flags, std::int32_t n, std::int32_t* counts) {
    using shape = split_tile_shape<T>;
    using storage = split_tile_storage<T>;
    __shared__ typename storage::type smem;
    const std::int32_t base = std::int32_t(blockIdx.x) * shape::size;
    const int valid = n - base < shape::size ? n - base : shape::size;
    bool f[shape::items];
    if constexpr (is_flags_computed<Flags>::value) {
        T v[shape::items];
        load_split_tile<T>(a, flags, base, valid, v, f, smem);
    } else {
        using load_flags = typename storage::load_flags;
        if (valid == shape::size) load_flags(smem.flags).Load(flags.it + base, f);
        else load_flags(smem.flags).Load(flags.it + base, f, valid, true);
        __syncthreads();
    }
    std::int32_t mine = 0;
#pragma unroll
    for (int k = 0; k < shape::items; ++k) mine += f[k] ? 0 : 1;
    const std::int32_t tile_falses = typename storage::block_reduce(smem.reduce).Sum(mine);
    if (threadIdx.x == 0) counts[blockIdx.x] = tile_falses;
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

    T v[items];
    bool f[items];
    load_split_tile<T>(a, flags, base, valid, v, f, smem);

    std::int32_t mine = 0;  // my falses
#pragma unroll
    for (int k = 0; k < items; ++k) mine += f[k] ? 0 : 1;
    std::int32_t before_me, tile_falses, before_tile;  // falses before my first element, in the tile, before it
    index_t falses;                                      // F, in all tiles
    if constexpr (std::is_same_v<Prefix, prefix_own_tile>) {
        block_scan(smem.scan.scan).ExclusiveSum(mine, before_me, tile_falses);
        before_tile = 0;
        falses = tile_falses;
    } else if constexpr (std::is_same_v<Prefix, prefix_counted>) {
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
        block_scan(smem.scan.scan).ExclusiveSum(mine, before_me, tile_falses);
        before_me += before_tile;
    } else {
        using look_back = typename storage::look_back;
        if (tile == 0) {
            block_scan(smem.scan.scan).ExclusiveSum(mine, before_me, tile_falses);
            if (threadIdx.x == 0) prefix.tiles.SetInclusive(0, tile_falses);
            before_tile = 0;
        } else {
            look_back back(prefix.tiles, smem.scan.prefix, ::cuda::std::plus<std::int32_t>{}, tile);
            block_scan(smem.scan.scan).ExclusiveSum(mine, before_me, back);
            __syncthreads();
            tile_falses = back.GetBlockAggregate();
            before_tile = back.GetExclusivePrefix();
        }
        falses = read_only(prefix.falses);
    }
    __syncthreads();  // the scan's storage becomes the staging area

    // rank in the tile: falses first, then trues, each in order
    T* staged = reinterpret_cast<T*>(smem.staged);
    std::int32_t falses_before = before_me - before_tile;
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

/// True when split_counted_by_tiles takes n elements of type T: the
/// falses need no count of their own.
template <class T> bool split_counts_itself(std::size_t n) {
    return n > 0 && n <= split_policy::max_tile_elements && split_tiles_for<T>(n) <= split_policy::counted_tiles_max;
}

/// The reduce step of a split that counts itself (split_counts_itself):
/// every tile's falses, or nothing for a single tile, which counts its own.
struct split_tile_falses {
    runtime::scratch counts;
    int num_tiles = 0;
};
template <class T, class In, class FlagIt>
split_tile_falses count_split_tiles(In a, FlagIt flags, std::size_t n, stream_t s) {
    split_tile_falses c;
    c.num_tiles = split_tiles_for<T>(n);
    if (c.num_tiles <= 1) return c;
    c.counts = runtime::scratch(std::size_t(c.num_tiles) * sizeof(std::int32_t));
    auto* counts = c.counts.template as<std::int32_t>();
    with_tile_flags(a, flags, [&](auto f) {
        split_count_tiles<T><<<c.num_tiles, split_tile_shape<T>::threads, 0, s>>>(a, f, std::int32_t(n), counts);
    });
    backend::check_launch("split (count by tiles)");
    return c;
}

/// The permute step of a split that counts itself: out[split index] = a[i].
template <class T, class In, class FlagIt, class Out>
void split_counted_by_tiles(In a, FlagIt flags, std::size_t n, const split_tile_falses& c, Out out, stream_t s) {
    const int threads = split_tile_shape<T>::threads;
    with_tile_flags(a, flags, [&](auto f) {
        if (c.num_tiles == 1)
            split_tiles<T><<<1, threads, 0, s>>>(a, f, std::int32_t(n), prefix_own_tile{}, out);
        else
            split_tiles<T><<<c.num_tiles, threads, 0, s>>>(
                a, f, std::int32_t(n), prefix_counted{c.counts.template as<std::int32_t>(), c.num_tiles}, out);
    });
    backend::check_launch("split (permute by tiles)");
}

/// out[split index] = a[i] for i < n: falses (flags[i] false) from 0 in order,
/// trues from *falses (on the device) in order. n below 2^31.
template <class T, class In, class FlagIt, class Out>
void split_by_tiles(In a, FlagIt flags, std::size_t n, const index_t* falses, Out out, stream_t s) {
    if (n == 0) return;
    const int num_tiles = split_tiles_for<T>(n);
    const tile_state<split_tile_state> status(num_tiles, s, "split");
    with_tile_flags(a, flags, [&](auto f) {
        split_tiles<T><<<num_tiles, split_tile_shape<T>::threads, 0, s>>>(a, f, std::int32_t(n),
                                                                        prefix_look_back{status.tiles, falses}, out);
    });
    backend::check_launch("split (permute by tiles)");
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
