// scanvec/primitives/detail/three_way/cuda/split_stable.hpp - the stable split
// pass (CUDA): each element's counts before it by look-back, its place from
// them; the stores every split form shares.
// The family on tiles and its passes: cuda/tiles.hpp.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/three_way/cuda/word.hpp>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// A warp's blocked items (lane l holds Items consecutive ones) made striped
/// (lane l holds items l, l + 32, ...) through the warp's own shared space,
/// padded so that neither side's accesses meet in a bank; __syncwarp only.
template <class U, int Items> struct warp_exchange {
    static constexpr int pad_every = sizeof(U) >= 8 ? 16 : 32;  // words of a bank row: 8-byte items go a half-warp at a time
    static constexpr int slots = 32 * Items + 32 * Items / pad_every;
    struct space {
        U at[slots];
    };
    static __device__ int slot(int j) { return j + j / pad_every; }
    static __device__ void blocked_to_striped(U (&x)[Items], space& s) {
        const int lane = int(threadIdx.x % 32);
#pragma unroll
        for (int k = 0; k < Items; ++k) s.at[slot(lane * Items + k)] = x[k];
        __syncwarp();
#pragma unroll
        for (int k = 0; k < Items; ++k) x[k] = s.at[slot(k * 32 + lane)];
    }
};

/// A place's new start when the fill pass writes it (the split that counts:
/// a greater key's segment begins where only the last tile's count tells).
constexpr std::uint32_t three_way_start_later = ~std::uint32_t(0);

/// What the forms of the split do with a tile's places (place[k] = dest << 32
/// | new start, or ~0: nothing to store; start three_way_start_later: the key only).
template <class T> struct three_way_split_store {
    static constexpr int items = three_way_tile_shape<T>::items;
    using keys_exchange = warp_exchange<T, items>;
    using places_exchange = warp_exchange<std::uint64_t, items>;
    struct space {  // a warp's
        typename keys_exchange::space keys;
        typename places_exchange::space places;
    };

    /// The first element to land in a new segment of two or more (len: its
    /// length, else 0; after the split that counts, the fill pass at the
    /// segment's head) writes, from here (one element in thousands), its
    /// length, its totals zeroed for the next count pass, its tile's mark for
    /// sort_short_segments and its entry in a block-sort queue (the long
    /// queue past block_sort_limit<T>: three_way/cuda/block_sort_segments.hpp).
    static __device__ __forceinline__ void new_segment(const three_way_round<T>& round, std::uint32_t dest,
                                                       std::uint32_t len) {
        if (len < 2) return;
        round.to.length[dest] = len;
        round.to.totals[dest] = 0;
        constexpr std::uint32_t tile_keys = short_sort_shape<T>::tile_keys;
        round.tile_heads[2 * (dest / tile_keys) + (len > tile_keys)] = three_way_splits(round) + 1;
        queue_block_sort<T>(round.block_sort_queue, round.queue_slots, dest, len);
    }

    /// Each thread holds consecutive elements; stored as they are, a warp's
    /// stores would land `items` apart. Striped across the warp's lanes
    /// instead, neighbouring lanes hold neighbouring elements, whose places
    /// are mostly neighbours too (a run per class and segment): coalesced
    /// stores. Within the warp: no block barrier.
    static __device__ __forceinline__ void striped(const three_way_round<T>& round, T (&v)[items],
                                                   std::uint64_t (&place)[items], space& warp) {
        keys_exchange::blocked_to_striped(v, warp.keys);  // in place: registers for more blocks
        places_exchange::blocked_to_striped(place, warp.places);
#pragma unroll
        for (int k = 0; k < items; ++k) {
            const std::uint32_t dest = std::uint32_t(place[k] >> 32);
            if (dest == ~std::uint32_t(0)) continue;
            round.to.keys[dest] = v[k];
            const std::uint32_t to_start = std::uint32_t(place[k]);
            if (to_start != three_way_start_later) round.to.start[dest] = to_start;
        }
    }
};

/// The stable split: each element's counts before it in its segment by
/// look-back across the tiles.
template <class T>
__global__ void __launch_bounds__(three_way_tile_shape<T>::threads, three_way_tile_shape<T>::split_blocks_per_sm)
    three_way_split_tiles(three_way_round<T> round, three_way_tile_state tiles) {
    const T* keys = round.from.keys;
    const std::uint32_t* start = round.from.start;
    const std::uint32_t* length = round.from.length;
    const T* pivot = round.pivot;
    const std::uint64_t* totals = round.from.totals;
    const std::int32_t n = round.n;
    const std::uint32_t* finished = round.finished;
    const std::uint32_t splits = three_way_splits(round);
    if (blockIdx.x == 0) three_way_note_next_splits(round.splits, round.next_splits);
    using run_t = three_way_run<T>;
    constexpr int threads = run_t::threads, items = run_t::items;
    using block_scan = cub::BlockScan<std::uint64_t, threads>;
    using look_back = cub::TilePrefixCallbackOp<std::uint64_t, three_way_segmented_plus<>, three_way_tile_state>;
    using store = three_way_split_store<T>;
    __shared__ struct {  // no union: the exchanges need no barrier after the scan
        typename block_scan::TempStorage scan;
        typename look_back::TempStorage prefix;
        typename store::space warps[threads / 32];
    } smem;

    const int tile = blockIdx.x;
    const std::int32_t base = run_t::base_of(tile), last = run_t::last_of(base, n);
    const std::uint32_t tile_finished = finished[tile];  // in flight with the ends' starts
    const std::uint32_t tile_start = run_t::one_segment(start, base, last);
    if (tile_finished < splits) {  // finished before this state: both buffers hold it already
        if (threadIdx.x == 0) tiles.SetInclusive(tile, three_way_head);  // a tile of heads: no counts pass it
        return;
    }
    run_t r;
    r.load(keys, start, base, n, tile_start);
    r.classify([&](int k) { return __ldg(pivot + r.s[k]); });  // chosen and stored by the count pass

    std::uint64_t run;  // the segmented counts before my first element
    if (tile == 0) {
        std::uint64_t tile_total;
        block_scan(smem.scan).ExclusiveScan(r.aggregate(), run, std::uint64_t(0), three_way_segmented_plus<>{}, tile_total);
        if (threadIdx.x == 0) tiles.SetInclusive(0, tile_total);
    } else {
        look_back prefix(tiles, smem.prefix, three_way_segmented_plus<>{}, tile);
        block_scan(smem.scan).ExclusiveScan(r.aggregate(), run, three_way_segmented_plus<>{}, prefix);
    }
    r.load_starts(start, base, tile_start);  // again (the keys after the places): registers for more blocks

    // each element's place and its new segment's start (none past the end)
    std::uint64_t place[items];  // dest << 32 | start: exchanged as one word
    r.place_each(run, place, [&](int k, std::int32_t i, std::uint64_t before) {
        const std::uint32_t s = r.s[k];
        const std::uint64_t in = r.classed_head(k) ? 0 : run_t::as_totals(before);  // my segment's counts before me
        const std::uint32_t less = std::uint32_t(in >> 32), greater = std::uint32_t(in);
        const std::uint64_t all = __ldg(totals + s);
        const std::uint32_t less_all = std::uint32_t(all >> 32), greater_all = std::uint32_t(all);
        std::uint32_t dest, to_start, len = 0;
        if (r.is_less(k)) {
            dest = s + less;
            to_start = s;
            if (less == 0) len = less_all;
        } else if (r.is_equal(k)) {
            dest = to_start = s + less_all + (std::uint32_t(i) - s - less - greater);
        } else {
            to_start = s + __ldg(length + s) - greater_all;
            dest = to_start + greater;
            if (greater == 0) len = greater_all;
        }
        store::new_segment(round, dest, len);
        return std::uint64_t(dest) << 32 | to_start;
    });
    r.load_blocked(keys + base, r.v, base);
    store::striped(round, r.v, place, smem.warps[threadIdx.x / 32]);
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
