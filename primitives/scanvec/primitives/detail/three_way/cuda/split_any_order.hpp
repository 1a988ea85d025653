// scanvec/primitives/detail/three_way/cuda/split_any_order.hpp - the splits in
// any order within each class (CUDA, integer keys): places from a tile's own
// scan and its count-pass offsets, no look-back; the split that counts, and
// the fill after it.
// The family on tiles and its passes: cuda/tiles.hpp.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/three_way/cuda/split_one_segment.hpp>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// The split in any order within each class, for integer keys (a key equal
/// to its pivot is the pivot). Each element's counts before it are its
/// tile's own scan plus what the tiles before it in the count pass's order
/// took of its segment (tile_offsets): no tile waits for another. Less keys
/// go forward from the segment's start, greater ones from where its greater
/// part begins; equal keys are not moved: the tiles over the equal part
/// write the pivot there. In a state with no descent (every segment sorted)
/// no key moves, as in the stable split: quicksort's last rounds rely on it.
template <class T>
__global__ void __launch_bounds__(three_way_tile_shape<T>::threads, three_way_tile_shape<T>::split_blocks_per_sm)
    three_way_split_any_order_tiles(three_way_round<T> round) {
    static_assert(std::is_integral_v<T>, "keys equal to the pivot are the pivot");
    const T* keys = round.from.keys;
    const std::uint32_t* start = round.from.start;
    const std::uint32_t* length = round.from.length;
    const T* pivot = round.pivot;
    const std::uint64_t* totals = round.from.totals;
    const std::int32_t n = round.n;
    using word = std::uint32_t;  // counts within the tile
    using run_t = three_way_run<T, word>;
    constexpr int threads = run_t::threads, items = run_t::items;
    using block_scan = cub::BlockScan<word, threads>;
    using store = three_way_split_store<T>;
    using fills_exchange = warp_exchange<std::uint32_t, items>;
    __shared__ struct {
        typename block_scan::TempStorage scan;
        union {
            typename store::space warps[threads / 32];
            T staged[threads * items];  // a tile inside one segment: its less and greater keys
        };
        typename fills_exchange::space fills[threads / 32];  // the equal parts' starts
        std::uint32_t warp_counts[threads / 32];            // a tile inside one segment: each warp's counts
    } smem;

    const int tile = blockIdx.x;
    const std::int32_t base = run_t::base_of(tile), last = run_t::last_of(base, n);
    // these loads in flight together: none depends on another
    const std::uint32_t finished = round.finished[tile];
    const std::uint32_t tile_start = run_t::one_segment(start, base, last);
    // a state whose count found no descent is sorted: every key stays, as in the stable split
    if (blockIdx.x == 0) three_way_note_next_splits(round.splits, round.next_splits);
    const bool moves = *round.descents_seen == three_way_splits(round);
    if (finished < three_way_splits(round)) return;  // finished before this state: both buffers hold it already
    if (tile_start != three_way_many_segments)
        return three_way_split_any_order_one_segment(round, tile, tile_start, base, last, moves, smem);

    run_t r;
    r.load(keys, start, base, n, tile_start);
    r.classify([&](int k) { return __ldg(pivot + r.s[k]); });  // chosen and stored by the count pass
    word run;  // the counts before my first element in this tile
    block_scan(smem.scan).ExclusiveScan(r.aggregate(), run, word(0), three_way_segmented_plus<word>{});
    const std::uint64_t* taken = round.tile_offsets + 2 * tile;  // of the segments at my two ends, from the cache

    std::uint64_t place[items];  // dest << 32 | start: exchanged as one word
    std::uint32_t fills = 0;     // bit k: my position k lies in its segment's equal part
    r.place_each(run, place, [&](int k, std::int32_t i, word before) {
        const std::uint32_t s = r.s[k];
        const std::uint32_t len_all = __ldg(length + s);
        const std::uint64_t in = (r.classed_head(k) ? 0 : run_t::as_totals(before)) +  // before me in this tile
                                 run_t::taken_before(s, len_all, base, last, [&](int e) { return __ldg(taken + e); });
        const std::uint64_t all = __ldg(totals + s);
        const std::uint32_t less_all = std::uint32_t(all >> 32), greater_from = s + len_all - std::uint32_t(all);
        if (moves && std::uint32_t(i) >= s + less_all && std::uint32_t(i) < greater_from) fills |= 1u << k;
        std::uint32_t dest, to_start, len = 0;
        if (r.is_less(k)) {
            to_start = s;
            dest = moves ? s + std::uint32_t(in >> 32) : std::uint32_t(i);
            if (dest == to_start) len = less_all;
        } else if (r.is_greater(k)) {
            to_start = greater_from;
            dest = moves ? greater_from + std::uint32_t(in) : std::uint32_t(i);
            if (dest == to_start) len = std::uint32_t(all);
        } else if (moves) {
            return ~std::uint64_t(0);  // equal: its place is written with the pivot
        } else {
            dest = to_start = std::uint32_t(i);  // equal, sorted: stays, a segment of one
        }
        store::new_segment(round, dest, len);
        return std::uint64_t(dest) << 32 | to_start;
    });
    // the equal parts: each position the pivot of its segment, striped across
    // the warp as the other stores (few warps have any on random keys)
    if (__any_sync(~0u, fills != 0)) {
        constexpr std::uint32_t none = ~std::uint32_t(0);
        r.load_starts(start, base, tile_start);  // again, from the cache: registers for more blocks
#pragma unroll
        for (int k = 0; k < items; ++k) r.s[k] = fills >> k & 1 ? r.s[k] : none;
        fills_exchange::blocked_to_striped(r.s, smem.fills[threadIdx.x / 32]);
        const std::int32_t at = base + std::int32_t(threadIdx.x / 32) * 32 * items + std::int32_t(threadIdx.x % 32);
#pragma unroll
        for (int k = 0; k < items; ++k) {
            if (r.s[k] == none) continue;
            const std::int32_t i = at + 32 * k;
            round.to.keys[i] = __ldg(pivot + r.s[k]);
            round.to.start[i] = std::uint32_t(i);
        }
    }
    r.load_blocked(keys + base, r.v, base);  // again, from the cache: registers for more blocks
    store::striped(round, r.v, place, smem.warps[threadIdx.x / 32]);
}

/// The split that counts (integer keys, after the first round of a sort):
/// no count pass before it. A tile counts its classes and takes its share of
/// each segment by one atomic add to the segment's counts word (less above
/// greater, zeroed when the segment was made): less keys go forward from the
/// segment's start, greater ones backward from its end, each tile's run
/// where its atomic add put it. Where the greater part begins, and so the
/// greater keys' new start and the equal part, only the last add knows: the
/// fill pass after it writes those (three_way_fill_tiles). A tile whose keys
/// are all finished is marked so (as the count pass marks it) and copied.
/// *unsorted is set where any tile holds a key not finished.
template <class T, class Space>
__device__ __forceinline__ void three_way_split_counting_one_segment(const three_way_round<T>& round, std::uint32_t s,
                                                                     std::int32_t base, std::int32_t last, Space& smem) {
    const one_segment_ballots<T> b(round, s, base, last, smem);
    const std::uint32_t less_all = b.less_of(b.all), greater_all = b.greater_of(b.all);  // the tile's
    const std::uint32_t length = __ldg(round.from.length + s);                  // in flight across the add
    if (threadIdx.x == 0) {
        const std::uint64_t counts = std::uint64_t(less_all) << 32 | greater_all;
        smem.took[0] = counts ? atomicAdd(reinterpret_cast<unsigned long long*>(round.from.totals + s),
                                          (unsigned long long)counts)
                              : 0;
        *round.unsorted = 1;
    }
    stage_classes(b, smem);  // meanwhile; its barrier publishes took too
    const std::uint64_t took = smem.took[0];
    store_staged_run(round, smem.staged, 0, s + std::uint32_t(took >> 32), less_all,
                     [&](std::uint32_t dest) { round.to.start[dest] = s; });
    store_staged_run(round, smem.staged, three_way_tile_shape<T>::size - greater_all,
                     s + length - std::uint32_t(took) - greater_all, greater_all, [](std::uint32_t) {});
}

template <class T>
__global__ void __launch_bounds__(three_way_tile_shape<T>::threads, three_way_tile_shape<T>::split_blocks_per_sm)
    three_way_split_counting_tiles(three_way_round<T> round) {
    static_assert(std::is_integral_v<T>, "keys equal to the pivot are the pivot");
    const T* keys = round.from.keys;
    const std::uint32_t* start = round.from.start;
    const std::uint32_t* length = round.from.length;
    std::uint64_t* totals = round.from.totals;
    const std::int32_t n = round.n;
    using word = std::uint32_t;  // counts within the tile
    using run_t = three_way_run<T, word>;
    constexpr int threads = run_t::threads, items = run_t::items;
    using block_scan = cub::BlockScan<word, threads>;
    using store = three_way_split_store<T>;
    __shared__ struct {
        typename block_scan::TempStorage scan;
        union {
            typename store::space warps[threads / 32];
            T staged[threads * items];  // a tile inside one segment: its less and greater keys
        };
        std::uint32_t warp_counts[threads / 32];  // a tile inside one segment: each warp's counts
        std::uint64_t took[2];                    // what tiles before took of the segments at the tile's two ends
    } smem;

    const int tile = blockIdx.x;
    const std::int32_t base = run_t::base_of(tile), last = run_t::last_of(base, n);
    // these loads in flight together: none depends on another
    const std::uint32_t finished = round.finished[tile];
    const std::uint32_t tile_start = run_t::one_segment(start, base, last);
    if (finished < three_way_splits(round)) return;  // finished before this state: both buffers hold it already
    if (tile_start != three_way_many_segments)
        return three_way_split_counting_one_segment(round, tile_start, base, last, smem);

    run_t r;
    r.load(keys, start, base, n, tile_start);
    if (threadIdx.x < 2) smem.took[threadIdx.x] = 0;
    if (__syncthreads_and(r.all_alone())) {  // every key finished: copied now, skipped from the next state on
        if (threadIdx.x == 0 && finished == three_way_never_finished) round.finished[tile] = three_way_splits(round);
    } else if (threadIdx.x == 0) {
        *round.unsorted = 1;
    }
    r.classify([&](int k) { return __ldg(round.pivot + r.s[k]); });
    word first_run;  // the counts before my first element in this tile
    block_scan(smem.scan).ExclusiveScan(r.aggregate(), first_run, word(0), three_way_segmented_plus<word>{});
    // each segment's part in the tile added to the segment's word, what the
    // adds before found kept for the two ends' segments
    r.add_counts(first_run, totals, base, last, smem.took);
    __syncthreads();
    std::uint64_t place[items];  // dest << 32 | start: exchanged as one word
    r.place_each(first_run, place, [&](int k, std::int32_t, word before) {
        if (r.is_equal(k)) return ~std::uint64_t(0);  // its place gets the pivot from the fill pass
        const std::uint32_t s = r.s[k];
        const std::uint32_t len_all = __ldg(length + s);
        const std::uint64_t in = (r.classed_head(k) ? 0 : run_t::as_totals(before)) +
                                 run_t::taken_before(s, len_all, base, last, [&](int e) { return smem.took[e]; });
        return r.is_less(k) ? std::uint64_t(s + std::uint32_t(in >> 32)) << 32 | s
                            : std::uint64_t(s + len_all - 1 - std::uint32_t(in)) << 32 | three_way_start_later;
    });
    r.load_blocked(keys + base, r.v, base);  // again, from the cache: registers for more blocks
    store::striped(round, r.v, place, smem.warps[threadIdx.x / 32]);
}

/// After the split that counts: each split segment's counts are complete, so
/// its equal part gets the pivot (each key a segment of one) and its greater
/// part its start; the new segments their lengths, marks and queues
/// (three_way_split_store::new_segment). The less part's starts and every
/// finished key the split wrote itself. A block a tile, its positions
/// striped over the threads; a tile inside one segment reads the segment's
/// words once, then only stores.
template <class T> struct three_way_fill {
    const three_way_round<T>& round;
    /// Position u of segment s (counts less_all, greater_all; greater part from greater_from).
    __device__ void place(std::uint32_t u, std::uint32_t s, std::uint32_t greater_from, std::uint32_t greater_all,
                          const T& pivot) const {
        if (u < greater_from) {  // the equal part
            round.to.keys[u] = pivot;
            round.to.start[u] = u;
        } else {
            round.to.start[u] = greater_from;
            if (u == greater_from) three_way_split_store<T>::new_segment(round, u, greater_all);
        }
    }
};

template <class T>
__global__ void __launch_bounds__(three_way_tile_shape<T>::threads) three_way_fill_tiles(three_way_round<T> round) {
    using run_t = three_way_run<T, std::uint32_t>;
    constexpr int threads = run_t::threads;
    const std::int32_t n = round.n;
    const std::int32_t base = run_t::base_of(blockIdx.x), last = run_t::last_of(base, n);
    const std::uint32_t finished = round.finished[blockIdx.x];
    const std::uint32_t one = run_t::one_segment(round.from.start, base, last);
    if (blockIdx.x == 0) three_way_note_next_splits(round.splits, round.next_splits);  // for the split that counts
    if (finished <= three_way_splits(round)) return;  // finished: the split wrote (or earlier ones hold) every key
    const three_way_fill<T> fill{round};
    if (one != three_way_many_segments) {  // one segment: its words once, from its equal part on
        const std::uint64_t all = __ldg(round.from.totals + one);
        const std::uint32_t less_all = std::uint32_t(all >> 32), greater_all = std::uint32_t(all);
        const std::uint32_t greater_from = one + __ldg(round.from.length + one) - greater_all;
        const T pivot = __ldg(round.pivot + one);
        if (one == std::uint32_t(base) && threadIdx.x == 0)  // the less part's head: the segment's own
            three_way_split_store<T>::new_segment(round, one, less_all);
        const std::int32_t equal_from = std::int32_t(one + less_all);
        for (std::int32_t i = (equal_from > base ? equal_from : base) + std::int32_t(threadIdx.x); i <= last; i += threads)
            fill.place(std::uint32_t(i), one, greater_from, greater_all, pivot);
        return;
    }
    for (std::int32_t i = base + std::int32_t(threadIdx.x); i <= last; i += threads) {
        const std::uint32_t u = std::uint32_t(i), s = __ldg(round.from.start + i);
        if (s == u && (i + 1 == n || __ldg(round.from.start + i + 1) == u + 1)) continue;  // finished: the split wrote it
        const std::uint64_t all = __ldg(round.from.totals + s);
        const std::uint32_t less_all = std::uint32_t(all >> 32), greater_all = std::uint32_t(all);
        if (u == s) three_way_split_store<T>::new_segment(round, s, less_all);
        if (u < s + less_all) continue;  // the less part: the split wrote its starts
        fill.place(u, s, s + __ldg(round.from.length + s) - greater_all, greater_all, __ldg(round.pivot + s));
    }
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
