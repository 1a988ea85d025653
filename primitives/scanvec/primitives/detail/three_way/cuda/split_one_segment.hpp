// scanvec/primitives/detail/three_way/cuda/split_one_segment.hpp - the split
// of a tile that lies inside one segment (CUDA): ranked by warp ballots, each
// class stored as one run.
// The family on tiles and its passes: cuda/tiles.hpp.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/three_way/cuda/split_stable.hpp>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// A tile inside one segment s, ranked by warps: each warp reads its 32 x
/// items positions striped (lane l the l-th of every 32) and ranks its keys
/// less and greater than the pivot by ballots; the warps' counts meet in
/// shared memory (Space::warp_counts, one barrier). No block scan, no exchange.
template <class T> struct one_segment_ballots {
    static constexpr int items = three_way_tile_shape<T>::items, warps = three_way_tile_shape<T>::threads / 32;
    int lane;
    std::int32_t at, last;  // my positions: at + 32 k, those up to last in the tile
    T v[items];
    T pivot;
    std::uint32_t less[items], greater[items];  // bit l: lane l's key k is less (greater) than the pivot
    std::uint32_t before = 0, all = 0;          // less << 16 | greater of the warps before mine, of all (a tile's fit 16 bits)

    template <class Space>
    __device__ one_segment_ballots(const three_way_round<T>& round, std::uint32_t s, std::int32_t base, std::int32_t last_,
                                   Space& smem)
        : last(last_) {
        const int warp = int(threadIdx.x / 32);
        lane = int(threadIdx.x % 32);
        at = base + warp * 32 * items + lane;
#pragma unroll
        for (int k = 0; k < items; ++k) v[k] = at + 32 * k <= last ? round.from.keys[at + 32 * k] : T{};
        pivot = __ldg(round.pivot + s);
        std::uint32_t mine = 0;  // the warp's
#pragma unroll
        for (int k = 0; k < items; ++k) {
            const bool in = at + 32 * k <= last;
            less[k] = __ballot_sync(~0u, in && v[k] < pivot);
            greater[k] = __ballot_sync(~0u, in && pivot < v[k]);
            mine += std::uint32_t(__popc(less[k])) << 16 | std::uint32_t(__popc(greater[k]));
        }
        if (lane == 0) smem.warp_counts[warp] = mine;
        __syncthreads();
#pragma unroll
        for (int w = 0; w < warps; ++w) {
            const std::uint32_t c = smem.warp_counts[w];
            before += w < warp ? c : 0u;
            all += c;
        }
    }
    /// The less (greater) count of a word like before and all.
    static __device__ std::uint32_t less_of(std::uint32_t c) { return c >> 16; }
    static __device__ std::uint32_t greater_of(std::uint32_t c) { return c & 0xFFFF; }
    /// Among the warp's less (greater) keys k, those of the lanes before mine.
    __device__ std::uint32_t less_before(int k) const { return std::uint32_t(__popc(less[k] & ((1u << lane) - 1))); }
    __device__ std::uint32_t greater_before(int k) const { return std::uint32_t(__popc(greater[k] & ((1u << lane) - 1))); }
};

/// A tile inside one segment, its keys staged in shared memory (Space::staged,
/// a tile's keys): its less keys from the front, its greater keys from the
/// back, each class in the warps' order; then a block barrier. Each class then
/// leaves as one run of whole sectors (store_staged_run), where a warp's keys
/// of a class, about 16 an item, stored at once would cover sectors in part,
/// each sector twice (docs/design/quicksort.md).
template <class T, class Space> __device__ __forceinline__ void stage_classes(const one_segment_ballots<T>& b, Space& smem) {
    constexpr int items = three_way_tile_shape<T>::items;
    constexpr std::uint32_t size = three_way_tile_shape<T>::size;
    std::uint32_t less_at = b.less_of(b.before), greater_at = size - b.greater_of(b.all) + b.greater_of(b.before);
#pragma unroll
    for (int k = 0; k < items; ++k) {
        if (b.at + 32 * k > b.last) break;
        if (b.less[k] >> b.lane & 1) smem.staged[less_at + b.less_before(k)] = b.v[k];
        else if (b.greater[k] >> b.lane & 1) smem.staged[greater_at + b.greater_before(k)] = b.v[k];
        less_at += std::uint32_t(__popc(b.less[k]));
        greater_at += std::uint32_t(__popc(b.greater[k]));
    }
    __syncthreads();
}

/// keys[to + j] = staged[from + j] and placed(to + j) for j < count, by the
/// block, from the 128-byte line `to` lies in: each warp's stores fill whole lines.
template <class T, class Placed>
__device__ __forceinline__ void store_staged_run(const three_way_round<T>& round, const T* staged, std::uint32_t from,
                                                 std::uint32_t to, std::uint32_t count, const Placed& placed) {
    constexpr int threads = three_way_tile_shape<T>::threads, line = 128 / sizeof(T);
    for (int j = int(threadIdx.x) - int(to % line); j < int(count); j += threads) {
        if (j < 0) continue;
        round.to.keys[to + std::uint32_t(j)] = staged[from + std::uint32_t(j)];
        placed(to + std::uint32_t(j));
    }
}

/// The split in any order of a tile inside one segment s (most tiles): one
/// pivot, one length, one set of totals and offsets for all its keys, no key
/// alone, no head but maybe its first. So no per-key loads of those and no
/// per-key segment checks; and no block scan and no exchange either: each
/// warp takes its positions striped (lane l the l-th of every 32), ranks its
/// less and its greater keys by ballot, and stores each class's keys to
/// consecutive places. `moves` and `tile` as in three_way_split_any_order_tiles.
template <class T, class Space>
__device__ __forceinline__ void three_way_split_any_order_one_segment(const three_way_round<T>& round, int tile,
                                                                      std::uint32_t s, std::int32_t base,
                                                                      std::int32_t last, bool moves, Space& smem) {
    constexpr int items = three_way_tile_shape<T>::items;
    const one_segment_ballots<T> b(round, s, base, last, smem);
    const std::uint64_t all = __ldg(round.from.totals + s), took = __ldg(round.tile_offsets + 2 * tile);
    const std::uint32_t less_all = std::uint32_t(all >> 32), greater_all = std::uint32_t(all);
    const std::uint32_t equal_from = s + less_all, greater_from = s + __ldg(round.from.length + s) - greater_all;
    if (!moves) {  // a sorted state: every key stays (equal ones each a segment of one)
#pragma unroll
        for (int k = 0; k < items; ++k) {
            const std::uint32_t i = std::uint32_t(b.at + 32 * k);
            if (i > std::uint32_t(last)) break;
            const bool is_less = b.less[k] >> b.lane & 1, is_greater = b.greater[k] >> b.lane & 1;
            const std::uint32_t to_start = is_less ? s : is_greater ? greater_from : i;
            round.to.keys[i] = b.v[k];
            round.to.start[i] = to_start;
            if ((is_less || is_greater) && i == to_start)  // the first key of its new segment
                three_way_split_store<T>::new_segment(round, i, is_less ? less_all : greater_all);
        }
        return;
    }
    // the equal part: the pivot, each a segment of one
#pragma unroll
    for (int k = 0; k < items; ++k) {
        const std::uint32_t i = std::uint32_t(b.at + 32 * k);
        if (i > std::uint32_t(last)) break;
        if (i >= equal_from && i < greater_from) {
            round.to.keys[i] = b.pivot;
            round.to.start[i] = i;
        }
    }
    // the tile's less keys after what the tiles before took, its greater ones likewise
    stage_classes(b, smem);
    const std::uint32_t tile_less = b.less_of(b.all), tile_greater = b.greater_of(b.all);
    store_staged_run(round, smem.staged, 0, s + std::uint32_t(took >> 32), tile_less, [&](std::uint32_t dest) {
        round.to.start[dest] = s;
        if (dest == s) three_way_split_store<T>::new_segment(round, s, less_all);
    });
    store_staged_run(round, smem.staged, three_way_tile_shape<T>::size - tile_greater, greater_from + std::uint32_t(took),
                     tile_greater, [&](std::uint32_t dest) {
                         round.to.start[dest] = greater_from;
                         if (dest == greater_from) three_way_split_store<T>::new_segment(round, greater_from, greater_all);
                     });
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
