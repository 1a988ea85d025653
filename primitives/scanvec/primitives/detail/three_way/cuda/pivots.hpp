// scanvec/primitives/detail/three_way/cuda/pivots.hpp - pivots by tiles
// (CUDA): a long segment's pivot chosen by a warp, the pass that chooses each
// marked segment's pivot.
// The family on tiles and its passes: cuda/tiles.hpp.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/three_way/cuda/word.hpp>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// operator< as CUB's comparator.
struct pivot_sample_less {
    template <class T> __device__ bool operator()(const T& a, const T& b) const { return a < b; }
};

/// Choosers that take a long segment's pivot as the median of 32 x k samples
/// (is_wide(len), narrow(keys, s, len) for the others, wide_sample(keys, s,
/// len, j), wide_samples): the pivots' warp sorts them together, one sample
/// set at a time, where one thread would hold them all.
template <class Chooser, class T, class = void> struct chooses_wide_by_warp : std::false_type {
    static constexpr int per_lane = 1;
};
template <class Chooser, class T>
struct chooses_wide_by_warp<Chooser, T,
                            std::void_t<decltype(Chooser::wide_samples),
                                        decltype(std::declval<const Chooser&>().wide_sample(std::declval<const T*>(),
                                                                                             std::uint32_t(0), std::uint32_t(0), 0))>>
    : std::bool_constant<Chooser::wide_samples % 32 == 0 && Chooser::wide_samples >= 32> {
    static constexpr int per_lane = Chooser::wide_samples / 32;
};

/// A long segment's pivot (at head i, len keys) by the whole warp where the
/// chooser can (chooses_wide_by_warp: each lane sorts per_lane of its
/// samples together with the others', the median is the pivot), else by lane 0.
template <class T, class Chooser, class SortSpace>
__device__ void choose_long_pivot(const T* keys, T* pivot, const Chooser& chooser, std::uint32_t i, std::uint32_t len,
                                  SortSpace& space) {
    using by_warp = chooses_wide_by_warp<Chooser, T>;
    const int lane = int(threadIdx.x % 32);
    if constexpr (by_warp::value) {
        if (chooser.is_wide(len)) {
            T x[by_warp::per_lane];
#pragma unroll
            for (int j = 0; j < by_warp::per_lane; ++j) x[j] = chooser.wide_sample(keys, i, len, lane * by_warp::per_lane + j);
            cub::WarpMergeSort<T, by_warp::per_lane, 32>(space).Sort(x, pivot_sample_less{});
            // the median, sorted sample wide_samples / 2: the first of its lane's (blocked order)
            const T p = __shfl_sync(~0u, x[0], 16);
            if (lane == 0) pivot[i] = p;
        } else if (lane == 0) {
            pivot[i] = chooser.narrow(keys, i, len);
        }
    } else if (lane == 0) {
        pivot[i] = chooser(keys, i, len);
    }
}

/// choose_pivots on tiles: every segment of two or more keys was made by the
/// last split (which splits them all), and that split marked the tiles of
/// short_sort_shape<T>::tile_keys positions where it left such heads; a warp per
/// tile reads its two marks, and only a marked tile reads its starts (all of a
/// lane's at once, up to 32) and chooses at its heads: a lane a short
/// segment's, the whole warp a long one's where the chooser can
/// (chooses_wide_by_warp). Late rounds and the
/// first ones alike touch only the few tiles that hold heads.
/// After sort_short_segments (after_short_sort) two kinds of segment are
/// left: those longer than block_sort_limit<T>, which the split queued
/// (three_way/cuda/block_sort_segments.hpp's long queue: `long_count` of them at
/// `long_heads`), taken straight from the queue by `queue_warps` more warps;
/// and short ones in tiles that waited for a long head (both marks set),
/// which only those tiles look for. The same grid
/// initialises the next split's look-back status (split_tiles of the split's
/// num_split_tiles tiles, no more than its threads): a launch fewer a round.
template <class T, class Chooser>
__global__ void __launch_bounds__(three_way_pivot_threads)
    pivots_at_marked_tiles(const T* keys, const std::uint32_t* start, const std::uint32_t* length, T* pivot,
                           Chooser chooser, const std::uint32_t* tile_heads, const std::uint32_t* splits_at, std::int32_t n,
                           three_way_tile_state split_tiles, int num_split_tiles, bool after_short_sort,
                           const std::uint32_t* long_count, const std::uint32_t* long_heads, int queue_warps) {
    split_tiles.InitializeStatus(num_split_tiles);  // before any warp returns
    using by_warp = chooses_wide_by_warp<Chooser, T>;
    using warp_sort = cub::WarpMergeSort<T, by_warp::per_lane, 32>;
    __shared__ typename warp_sort::TempStorage sort_space[by_warp::value ? three_way_pivot_threads / 32 : 1];
    auto& space = sort_space[by_warp::value ? threadIdx.x / 32 : 0];
    constexpr std::int32_t tile_keys = short_sort_shape<T>::tile_keys;
    constexpr int per_lane = tile_keys / 32, batch = per_lane < 32 ? per_lane : 32;  // positions a lane loads at once
    static_assert(tile_keys % (32 * batch) == 0, "a tile is whole batches of a warp");
    const std::int32_t lane = std::int32_t(threadIdx.x % 32);
    const std::int32_t tiles = std::int32_t((std::int64_t(n) + tile_keys - 1) / tile_keys);
    const std::int32_t tile = std::int32_t(blockIdx.x) * (three_way_pivot_threads / 32) + std::int32_t(threadIdx.x / 32);
    if (tile >= tiles) {  // a warp of the long queue's, or past them in the last block
        if (tile - tiles >= queue_warps) return;
        const std::uint32_t count = *long_count;
        for (std::uint32_t e = std::uint32_t(tile - tiles); e < count; e += std::uint32_t(queue_warps)) {
            const std::uint32_t i = long_heads[e];
            choose_long_pivot(keys, pivot, chooser, i, length[i], space);
        }
        return;
    }
    const std::int32_t base = tile * tile_keys;
    const std::uint32_t splits = *splits_at;
    const bool short_mark = tile_heads[2 * tile] == splits, long_mark = tile_heads[2 * tile + 1] == splits;
    if (after_short_sort ? !(short_mark && long_mark) : !(short_mark || long_mark)) return;
    for (std::int32_t chunk = base; chunk < base + tile_keys && chunk < n; chunk += 32 * batch) {
        std::uint32_t here[batch], next[batch];  // start[i], start[i + 1] at the lane's positions i
#pragma unroll
        for (int k = 0; k < batch; ++k) {
            const std::int32_t i = chunk + k * 32 + lane;
            here[k] = i + 1 < n ? start[i] : 0u;
            next[k] = i + 1 < n ? start[i + 1] : 0u;
        }
        std::uint32_t heads = 0;  // bit k: position chunk + 32 k + lane heads a segment of two or more
#pragma unroll
        for (int k = 0; k < batch; ++k) {
            const std::int32_t i = chunk + k * 32 + lane;
            heads |= std::uint32_t(i + 1 < n && here[k] == std::uint32_t(i) && next[k] != std::uint32_t(i + 1)) << k;
        }
        std::uint32_t wide = 0;  // the heads of long segments, chosen below by the whole warp
        for (; heads != 0; heads &= heads - 1) {
            const int k = __ffs(int(heads)) - 1;
            const std::int32_t i = chunk + k * 32 + lane;
            const std::uint32_t len = length[i];
            if (after_short_sort && len > block_sort_limit<T>) continue;  // the long queue's
            if constexpr (by_warp::value) {
                if (chooser.is_wide(len)) {
                    wide |= std::uint32_t(1) << k;
                    continue;
                }
                pivot[i] = chooser.narrow(keys, std::uint32_t(i), len);
            } else {
                pivot[i] = chooser(keys, std::uint32_t(i), len);
            }
        }
        for (;;) {  // one long segment at a time, by the whole warp
            const unsigned who = __ballot_sync(~0u, wide != 0);
            if (!who) break;
            const int leader = __ffs(int(who)) - 1;
            const int k = __shfl_sync(~0u, __ffs(int(wide)) - 1, leader);
            const std::uint32_t i = std::uint32_t(chunk + k * 32 + leader);
            choose_long_pivot(keys, pivot, chooser, i, length[i], space);
            if (lane == leader) wide &= wide - 1;
        }
    }
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
