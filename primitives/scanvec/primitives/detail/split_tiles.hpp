// scanvec/primitives/detail/split_tiles.hpp - the flat split's scatter, tile by tile (CUDA).
//
// split_by_tiles(a, flags, n, falses, out, s) writes the stable split of a[0..n)
// into out in one pass (read the elements and flags, write the elements), n
// below 2^31, *falses (on the device) the number of false flags. Each tile
// ranks its elements in shared memory, falses first, and writes its two runs
// with coalesced stores; its count of falses before it comes from decoupled
// look-back over the tiles (CUB's ScanTileState and TilePrefixCallbackOp).
// Why and how fast: docs/design/split.md. Shape: detail/split_policy.hpp.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/split_policy.hpp>
#include <scanvec/primitives/detail/tile_state.hpp>
#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/device_value.hpp>
#include <scanvec/runtime/memory.hpp>

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_load.cuh>
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

template <class T, class In, class Flags, class Out>
__global__ void __launch_bounds__(split_tile_shape<T>::threads)
    split_tiles(In a, Flags flags, std::int32_t n, const index_t* falses, Out out, split_tile_state tiles) {
    using shape = split_tile_shape<T>;
    constexpr int threads = shape::threads, items = shape::items;
    using load_values = cub::BlockLoad<T, threads, items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using load_flags = cub::BlockLoad<bool, threads, items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using block_scan = cub::BlockScan<std::int32_t, threads>;
    using look_back = cub::TilePrefixCallbackOp<std::int32_t, ::cuda::std::plus<std::int32_t>, split_tile_state>;
    __shared__ union {
        typename load_values::TempStorage values;
        typename load_flags::TempStorage flags;
        struct {
            typename block_scan::TempStorage scan;
            typename look_back::TempStorage prefix;
        } scan;
        alignas(T) unsigned char staged[shape::size * sizeof(T)];
    } smem;

    const int tile = blockIdx.x;
    const std::int32_t base = tile * shape::size;
    const int valid = n - base < shape::size ? n - base : shape::size;

    T v[items];
    bool f[items];
    if (valid == shape::size) load_values(smem.values).Load(a + base, v);
    else load_values(smem.values).Load(a + base, v, valid);
    __syncthreads();
    // positions past the end read as true: never counted as falses, never written
    if constexpr (is_flags_computed<Flags>::value) {
#pragma unroll
        for (int k = 0; k < items; ++k) f[k] = int(threadIdx.x) * items + k < valid ? bool(flags.fn(v[k])) : true;
    } else {
        if (valid == shape::size) load_flags(smem.flags).Load(flags.it + base, f);
        else load_flags(smem.flags).Load(flags.it + base, f, valid, true);
        __syncthreads();
    }

    std::int32_t mine = 0;  // my falses
#pragma unroll
    for (int k = 0; k < items; ++k) mine += f[k] ? 0 : 1;
    std::int32_t before_me, tile_falses, before_tile;  // falses before my first element, in the tile, before it
    if (tile == 0) {
        block_scan(smem.scan.scan).ExclusiveSum(mine, before_me, tile_falses);
        if (threadIdx.x == 0) tiles.SetInclusive(0, tile_falses);
        before_tile = 0;
    } else {
        look_back prefix(tiles, smem.scan.prefix, ::cuda::std::plus<std::int32_t>{}, tile);
        block_scan(smem.scan.scan).ExclusiveSum(mine, before_me, prefix);
        __syncthreads();
        tile_falses = prefix.GetBlockAggregate();
        before_tile = prefix.GetExclusivePrefix();
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
    const index_t down = before_tile, up = read_only(falses) + (base - before_tile);
    for (int j = threadIdx.x; j < valid; j += threads) out[j < tile_falses ? down + j : up + (j - tile_falses)] = staged[j];
}

/// out[split index] = a[i] for i < n: falses (flags[i] false) from 0 in order,
/// trues from *falses (on the device) in order. n below 2^31.
template <class T, class In, class FlagIt, class Out>
void split_by_tiles(In a, FlagIt flags, std::size_t n, const index_t* falses, Out out, stream_t s) {
    if (n == 0) return;
    using shape = split_tile_shape<T>;
    const int num_tiles = int((n + shape::size - 1) / shape::size);
    const tile_state<split_tile_state> status(num_tiles, s, "split");
    const split_tile_state& tiles = status.tiles;
    if constexpr (flags_map_elements<In, FlagIt>::value) {
        if (flags.base() == a) {
            split_tiles<T><<<num_tiles, shape::threads, 0, s>>>(a, flags_computed<std::decay_t<decltype(flags.functor())>>{flags.functor()},
                                                               std::int32_t(n), falses, out, tiles);
            backend::check_launch("split (permute by tiles)");
            return;
        }
    }
    split_tiles<T><<<num_tiles, shape::threads, 0, s>>>(a, flags_read<FlagIt>{flags}, std::int32_t(n), falses, out, tiles);
    backend::check_launch("split (permute by tiles)");
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
