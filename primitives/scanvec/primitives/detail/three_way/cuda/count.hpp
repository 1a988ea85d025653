// scanvec/primitives/detail/three_way/cuda/count.hpp - the count pass (CUDA):
// each segment's less and equal counts at its head, its pivot chosen on the
// way, the descents counted.
// The family on tiles and its passes: cuda/tiles.hpp.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/three_way/cuda/word.hpp>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// Whether the state is a first state that is still one segment: no split
/// made it, and the base case sorts no segment of more than block_sort_limit
/// keys (a shorter first segment it may have sorted, each key then finished).
template <class T> SCANVEC_HD bool three_way_one_first_segment(std::uint32_t splits, std::int32_t n) {
    return splits == 0 && n > std::int32_t(block_sort_limit<T>);
}

/// A split pass's block 0 notes its output's number of splits (read by
/// nothing in this round: the state read has its own word). Called by block
/// 0 alone and not inlined: the other blocks branch past it, and no thread
/// holds the number in a register through the pass (the split that counts
/// has none to spare), nor waits for its load before its own loads.
__device__ __noinline__ inline void three_way_note_next_splits(const std::uint32_t* splits, std::uint32_t* next) {
    if (threadIdx.x == 0) *next = *splits + 1;
}
/// The state's number of splits (three_way_round::splits), loaded where it is compared.
template <class T> __device__ __forceinline__ std::uint32_t three_way_splits(const three_way_round<T>& round) {
    return read_only(round.splits);
}

template <class T, class Chooser>
__global__ void __launch_bounds__(three_way_tile_shape<T>::threads,
                                  is_chosen_pivot<Chooser> ? three_way_tile_shape<T>::count_blocks_per_sm
                                                           : three_way_tile_shape<T>::count_choosing_blocks_per_sm)
    three_way_count_tiles(three_way_round<T> round, Chooser chooser, unsigned long long* descents) {
    const T* keys = round.from.keys;
    const std::uint32_t* start = round.from.start;
    const std::uint32_t* length = round.from.length;
    T* pivot = round.pivot;
    const std::int32_t n = round.n;
    std::uint64_t* totals = round.from.totals;
    std::uint32_t* finished = round.finished;
    std::uint64_t* taken = round.tile_offsets + 2 * blockIdx.x;  // [0], [1]: the first and last positions' segments
    const std::uint32_t splits = three_way_splits(round);
    using word = std::uint32_t;  // counts within the tile
    static_assert(three_way_tile_shape<T>::size < 1 << 15, "a tile's counts fit 15 bits");
    using run_t = three_way_run<T, word>;
    constexpr int threads = run_t::threads, items = run_t::items;
    using block_scan = cub::BlockScan<word, threads>;
    using block_sum = cub::BlockReduce<unsigned, threads>;
    using block_sum_wide = cub::BlockReduce<std::uint64_t, threads>;
    __shared__ union {
        typename block_scan::TempStorage scan;
        typename block_sum::TempStorage sum;
        typename block_sum_wide::TempStorage wide;
    } smem;
    __shared__ T tile_pivot[three_way_tile_shape<T>::size];  // at the tile position where each segment's part begins

    const std::int32_t base = run_t::base_of(blockIdx.x), last = run_t::last_of(base, n);
    // these loads in flight together: none depends on another
    const std::uint32_t tile_finished = finished[blockIdx.x];
    // every tile inside the one segment of a first state, even a last tile of one key
    const bool first_state = three_way_one_first_segment<T>(splits, n);
    const std::uint32_t tile_start = first_state ? 0u : run_t::one_segment(start, base, last);
    run_t r;
    r.load_keys(keys, base, n);  // also in a finished tile, not to wait for its mark first
    const T key_before = r.first > 0 && r.first < n ? __ldg(keys + r.first - 1) : T{};  // for the descents
    if (tile_finished < splits) return;  // finished before this state: nothing to count
    r.load_starts(start, base, tile_start);
    // A tile of two keys or more inside one segment (most tiles, since the
    // base case takes the segments shorter than 8 tiles): no key is alone,
    // and a block sum of the counts replaces the segmented scan.
    if (tile_start != three_way_many_segments) {
        if (threadIdx.x == 0) {
            const T p = chooser(keys, tile_start, __ldg(length + tile_start));
            tile_pivot[0] = p;
            if (tile_start == std::uint32_t(base)) pivot[tile_start] = p;
        }
        __syncthreads();
        const T p = tile_pivot[0];
        // less << 20 | greater << 10 | descents among my keys (each at most
        // `items`); no head among them but maybe the tile's first position
        std::uint32_t few = 0;
#pragma unroll
        for (int k = 0; k < items; ++k) {
            if (r.first + k > last) continue;
            few += (r.v[k] < p ? 1u << 20 : 0u) + (p < r.v[k] ? 1u << 10 : 0u);
            if (k > 0) few += r.v[k] < r.v[k - 1];
        }
        if (r.first <= last && std::uint32_t(r.first) != tile_start) few += r.v[0] < key_before;
        // the tile's: less << 42 | greater << 21 | descents, each below 2^15
        const std::uint64_t mine = std::uint64_t(few >> 20) << 42 | std::uint64_t(few >> 10 & 1023) << 21 | (few & 1023);
        const std::uint64_t sum = block_sum_wide(smem.wide).Sum(mine);
        if (threadIdx.x == 0) {
            constexpr std::uint64_t field = (std::uint64_t(1) << 21) - 1;
            const std::uint64_t counts = (sum >> 42) << 32 | ((sum >> 21) & field);  // the totals' word: less, greater
            if (first_state) {  // the tile's own counts and descents: three_way_first_offsets scans them
                taken[0] = counts;
                taken[1] = sum & field;
                return;
            }
            taken[0] = counts ? atomicAdd(reinterpret_cast<unsigned long long*>(totals + tile_start), (unsigned long long)counts) : 0;
            if (sum & field) {
                atomicAdd(descents, (unsigned long long)(sum & field));
                *round.descents_seen = splits;
            }
        }
        return;
    }
    if (__syncthreads_and(r.all_alone())) {  // every key finished: from the next state on, skipped
        if (threadIdx.x == 0 && finished[blockIdx.x] == three_way_never_finished) finished[blockIdx.x] = splits;
        return;
    }
    // the pivot of every segment with a part in this tile, chosen where the part
    // begins (a segment crossing in from the left is chosen again here, with the
    // same answer); its head stores it for the split
#pragma unroll
    for (int k = 0; k < items; ++k) {
        const std::int32_t i = r.first + k;
        if (i >= n || r.alone(k) || !(r.head(k) || i == base)) continue;
        const std::uint32_t s = r.s[k];
        const T p = chooser(keys, s, __ldg(length + s));
        tile_pivot[i - base] = p;
        if (r.head(k)) pivot[s] = p;
    }
    __syncthreads();
    r.classify([&](int k) {
        const std::int32_t from = std::int32_t(r.s[k]) - base;
        return tile_pivot[from > 0 ? from : 0];
    });

    unsigned down = 0;  // descents among my elements
#pragma unroll
    for (int k = 0; k < items; ++k) {
        const std::int32_t i = r.first + k;
        if (i < n && i > 0 && !r.head(k)) down += r.v[k] < (k ? r.v[k - 1] : key_before);
    }
    word run;
    block_scan(smem.scan).ExclusiveScan(r.aggregate(), run, word(0), three_way_segmented_plus<word>{});
    r.add_counts(run, totals, base, last, taken);
    __syncthreads();
    const unsigned tile_down = block_sum(smem.sum).Sum(down);
    if (threadIdx.x == 0 && tile_down) {
        atomicAdd(descents, (unsigned long long)tile_down);
        *round.descents_seen = splits;
    }
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
