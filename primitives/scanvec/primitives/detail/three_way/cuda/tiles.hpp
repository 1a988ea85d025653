// scanvec/primitives/detail/three_way/cuda/tiles.hpp - the three-way split family in tile passes (CUDA).
//
// Arithmetic keys, 32-bit positions, below 2^31 elements (three_way_tiles<T>
// hands larger states to the generic form). Each element's counts (is it less
// than its segment's pivot, is it greater) and whether it heads a segment pack
// into one word: the head flag in the top bit, less above greater. Scanning
// those words with
//     a (+) b = b if b heads a segment, else a + b
// is a segmented +-scan of both counts at once; it is associative, so CUB's
// block scan and decoupled look-back run it like a sum.
//
// count pass: each segment's pivot chosen where its part of the tile begins
// (by its head, or again by the tile it crosses into: the same answer); the
// tile's scan in shared memory; the last element of each segment in the tile
// leaves the segment's counts at its head: a plain store when the whole
// segment lies in the tile, an atomic add when it crosses a tile boundary (the
// split that made the segment zeroed its totals). What the atomic add finds
// there, the counts of the tiles before it in the pass's order, is kept for the
// tile (tile_offsets). The same pass counts the descents inside segments (one
// atomic per tile).
// split pass, stable: the same scan, now across tiles by look-back, gives each
// element its counts before it in its segment; with the segment's totals that
// is its place. In any order (integer keys): the tile's own scan and its
// tile_offsets give each element its place, and no tile waits for another.
// The element that lands first in a new segment writes the segment's length
// and zeroes its totals for the next count pass.
//
// A segment of one element (finished) has no pivot, no totals and never
// moves: both passes recognise it from the starts alone (it is a head and so
// is the next position). A tile of finished keys only is marked by the count
// pass (finished[t] = the state's number of splits) and skipped by both passes
// in every later state; the stable split then publishes it to the look-back as a tile
// of heads, which no counts cross. docs/design/quicksort.md has the rest.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/three_way/cuda/block_sort_segments.hpp>
#include <scanvec/primitives/detail/three_way/cuda/short_sort_tiles.hpp>
#include <scanvec/primitives/detail/three_way/generic.hpp>
#include <scanvec/primitives/detail/three_way/place.hpp>
#include <scanvec/primitives/detail/three_way/policy.hpp>
#include <scanvec/primitives/detail/common/cuda/tile_state.hpp>
#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/memory.hpp>

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_merge_sort.cuh>

#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// The packed word's layout: the head flag in the top bit, less above greater.
/// The split's scan crosses tiles (64-bit words, counts below 2^31); the
/// count's stays in one tile, whose counts fit 15 bits: 32-bit words, half
/// the integer work of a pass that is bound by it.
template <class Word> struct three_way_word_format;
template <> struct three_way_word_format<std::uint64_t> {
    static constexpr std::uint64_t head = std::uint64_t(1) << 63;
    static constexpr int less_shift = 32;
};
template <> struct three_way_word_format<std::uint32_t> {
    static constexpr std::uint32_t head = std::uint32_t(1) << 31;
    static constexpr int less_shift = 16;
};
constexpr std::uint64_t three_way_head = three_way_word_format<std::uint64_t>::head;
/// finished[t] of a tile not yet seen finished.
constexpr std::uint32_t three_way_never_finished = ~std::uint32_t(0);
/// A tile's start when its positions lie in more than one segment.
constexpr std::uint32_t three_way_many_segments = ~std::uint32_t(0);

/// The segmented sum of packed counts: restart at a head.
template <class Word = std::uint64_t> struct three_way_segmented_plus {
    __host__ __device__ Word operator()(Word a, Word b) const { return (b & three_way_word_format<Word>::head) ? b : a + b; }
};

using three_way_tile_state = cub::ScanTileState<std::uint64_t>;

/// One thread's run of a tile: its keys and starts, and each element's word.
template <class T, class Word = std::uint64_t> struct three_way_run {
    static constexpr Word head_bit = three_way_word_format<Word>::head, one_less = Word(1) << three_way_word_format<Word>::less_shift;
    static constexpr int threads = three_way_tile_shape<T>::threads, items = three_way_tile_shape<T>::items;
    // Blocked and vectorized straight into registers (no shared memory, no
    // barrier): the keys' and the starts' loads are in flight together, which
    // halves the waits for memory of a pass bound by them.

    T v[items];
    std::uint32_t s[items];
    /// Each element's class in 4 bits (element k at bit 4k): alone (finished,
    /// or past the end), head, less, equal (greater: none of alone, less, equal).
    /// Its word is built where it is used: the split holds the classes across
    /// its look-back, where 8 64-bit words took 16 registers.
    std::uint32_t classes;
    static constexpr std::uint32_t alone_class = 8, head_class = 4, less_class = 2, equal_class = 1;
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

    /// The tile's first position and its last (the vector's last in the last tile).
    static __device__ std::int32_t base_of(int tile) { return std::int32_t(tile) * threads * items; }
    static __device__ std::int32_t last_of(std::int32_t base, std::int32_t n) {
        return (n - base < threads * items ? n : base + threads * items) - 1;
    }
    /// The start shared by every position of the tile [base, last] when one
    /// segment holds it all and it has two positions or more, else
    /// three_way_many_segments. Starts never decrease, so the two ends tell:
    /// such a tile (most tiles while segments are longer than the base
    /// case's) needs no starts loaded: half of a round's reads, a third of its bytes.
    static __device__ std::uint32_t one_segment(const std::uint32_t* start, std::int32_t base, std::int32_t last) {
        const std::uint32_t s0 = __ldg(start + base);
        return last > base && __ldg(start + last) == s0 ? s0 : three_way_many_segments;
    }
    /// Loads the tile at base: keys, and starts (or all s0, from one_segment).
    __device__ void load(const T* keys, const std::uint32_t* start, std::int32_t base, std::int32_t count,
                         std::uint32_t s0) {
        load_keys(keys, base, count);
        load_starts(start, base, s0);
    }
    /// Loads the tile's keys only (of `count` positions in all).
    __device__ void load_keys(const T* keys, std::int32_t base, std::int32_t count) {
        n = count;
        first = base + std::int32_t(threadIdx.x) * items;
        load_blocked(keys + base, v, base);
    }
    /// Loads the starts (again, in the split, from the cache after its
    /// look-back: the classes alone held across it leave registers for more blocks).
    __device__ void load_starts(const std::uint32_t* start, std::int32_t base, std::uint32_t s0) {
        if (s0 != three_way_many_segments) {  // no key of the tile is alone
#pragma unroll
            for (int k = 0; k < items; ++k) s[k] = s0;
            start_after = s0;
            return;
        }
        load_blocked(start + base, s, base);
        start_after = first + items < n ? __ldg(start + first + items) : 0u;
    }
    template <class U> __device__ void load_blocked(const U* from, U (&to)[items], std::int32_t base) const {
        const int valid = n - base < threads * items ? n - base : threads * items;
        if (valid == threads * items)  // (CUB's signature takes a non-const pointer; it only reads)
            cub::LoadDirectBlockedVectorized(int(threadIdx.x), const_cast<U*>(from), to);
        else
            cub::LoadDirectBlocked(int(threadIdx.x), from, to, valid, U{});
    }
    /// Classifies every element against its segment's pivot, pivot_of(k).
    template <class PivotOf> __device__ void classify(const PivotOf& pivot_of) {
        classes = 0;
#pragma unroll
        for (int k = 0; k < items; ++k) {
            std::uint32_t c = alone_class | head_class;  // past the end, or finished: no counts, a segment of its own
            if (first + k < n && !alone(k)) {
                const T p = pivot_of(k);
                c = (head(k) ? head_class : 0) | (v[k] < p ? less_class : (p < v[k] ? 0 : equal_class));
            }
            classes |= c << (4 * k);
        }
    }
    __device__ std::uint32_t class_of(int k) const { return (classes >> (4 * k)) & 15; }
    __device__ bool classed_alone(int k) const { return class_of(k) & alone_class; }
    __device__ bool classed_head(int k) const { return class_of(k) & head_class; }
    __device__ bool is_less(int k) const { return class_of(k) & less_class; }
    __device__ bool is_equal(int k) const { return class_of(k) & equal_class; }
    __device__ bool is_greater(int k) const { return !(class_of(k) & (alone_class | less_class | equal_class)); }
    /// Element k's word: the head flag, one less or one greater.
    __device__ Word w(int k) const {
        const std::uint32_t c = class_of(k);
        return (c & head_class ? head_bit : Word(0)) |
               (c & less_class ? one_less : Word(!(c & (alone_class | equal_class))));
    }
    __device__ bool all_alone() const {
        bool all = true;
#pragma unroll
        for (int k = 0; k < items; ++k) all &= first + k >= n || alone(k);
        return all;
    }
    __device__ Word aggregate() const {
        Word a = 0;
#pragma unroll
        for (int k = 0; k < items; ++k) a = three_way_segmented_plus<Word>{}(a, w(k));
        return a;
    }
};

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
#pragma unroll
    for (int k = 0; k < items; ++k) {
        run = three_way_segmented_plus<word>{}(run, r.w(k));
        const std::int32_t i = r.first + k;
        if (i > last || r.alone(k)) continue;
        const bool ends = r.next_is_head(k);
        if (!ends && i != last) continue;  // not the segment's last element in this tile
        constexpr int shift = three_way_word_format<word>::less_shift;
        const word c = run & ~run_t::head_bit;  // as the 64-bit word of the totals:
        const std::uint64_t counts = std::uint64_t(c >> shift) << 32 | (c & ((word(1) << shift) - 1));
        std::uint64_t before = 0;  // what tiles before this one took of the segment
        if (ends && (run & run_t::head_bit)) totals[r.s[k]] = counts;  // the whole segment is in this tile
        else before = atomicAdd(reinterpret_cast<unsigned long long*>(totals + r.s[k]), (unsigned long long)counts);
        if (r.s[k] <= std::uint32_t(base)) taken[0] = before;
        if (i == last) taken[1] = before;
    }
    __syncthreads();
    const unsigned tile_down = block_sum(smem.sum).Sum(down);
    if (threadIdx.x == 0 && tile_down) {
        atomicAdd(descents, (unsigned long long)tile_down);
        *round.descents_seen = splits;
    }
}

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
#pragma unroll
    for (int k = 0; k < items; ++k) {
        const std::uint64_t before = run;
        run = three_way_segmented_plus<>{}(run, r.w(k));
        const std::int32_t i = r.first + k;
        place[k] = ~std::uint64_t(0);
        if (i >= n) continue;
        const std::uint32_t s = r.s[k];
        if (r.classed_alone(k)) {  // finished: stays
            place[k] = std::uint64_t(i) << 32 | std::uint32_t(i);
            continue;
        }
        const std::uint64_t in = r.classed_head(k) ? 0 : before & ~three_way_head;  // my segment's counts before me
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
        place[k] = std::uint64_t(dest) << 32 | to_start;
        store::new_segment(round, dest, len);
    }
    r.load_blocked(keys + base, r.v, base);
    store::striped(round, r.v, place, smem.warps[threadIdx.x / 32]);
}

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
    constexpr int shift = three_way_word_format<word>::less_shift;
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
#pragma unroll
    for (int k = 0; k < items; ++k) {
        const word before = run;
        run = three_way_segmented_plus<word>{}(run, r.w(k));
        const std::int32_t i = r.first + k;
        place[k] = ~std::uint64_t(0);
        if (i >= n) continue;
        const std::uint32_t s = r.s[k];
        if (r.classed_alone(k)) {  // finished: stays
            place[k] = std::uint64_t(i) << 32 | std::uint32_t(i);
            continue;
        }
        const std::uint32_t len_all = __ldg(length + s);
        const word here = r.classed_head(k) ? 0 : before & ~run_t::head_bit;  // before me in this tile
        const std::uint64_t in = (std::uint64_t(here >> shift) << 32 | (here & ((word(1) << shift) - 1))) +
                                 (s <= std::uint32_t(base)                 ? __ldg(taken)      // crosses in from the left
                                  : s + len_all > std::uint32_t(last) + 1 ? __ldg(taken + 1)  // out to the right
                                                                           : 0);
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
            continue;  // equal: its place is written with the pivot
        } else {
            dest = to_start = std::uint32_t(i);  // equal, sorted: stays, a segment of one
        }
        place[k] = std::uint64_t(dest) << 32 | to_start;
        store::new_segment(round, dest, len);
    }
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
    constexpr int shift = three_way_word_format<word>::less_shift;
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
    const auto counts_of = [](word c) {  // as the 64-bit word of the totals: less, greater
        c &= ~run_t::head_bit;
        return std::uint64_t(c >> shift) << 32 | (c & ((word(1) << shift) - 1));
    };
    // each segment's part in the tile: its counts added to the segment's
    // word by its last element here (a plain store when the segment lies in
    // the tile), what the adds before found kept for the two ends' segments
    word run = first_run;
#pragma unroll
    for (int k = 0; k < items; ++k) {
        run = three_way_segmented_plus<word>{}(run, r.w(k));
        const std::int32_t i = r.first + k;
        if (i > last || r.alone(k)) continue;
        const bool ends = r.next_is_head(k);
        if (!ends && i != last) continue;  // not the segment's last element in this tile
        const std::uint64_t counts = counts_of(run);
        if (ends && (run & run_t::head_bit)) {
            totals[r.s[k]] = counts;  // the whole segment is in this tile
            continue;
        }
        const std::uint64_t before = atomicAdd(reinterpret_cast<unsigned long long*>(totals + r.s[k]), (unsigned long long)counts);
        if (r.s[k] <= std::uint32_t(base)) smem.took[0] = before;
        if (i == last) smem.took[1] = before;
    }
    __syncthreads();
    std::uint64_t place[items];  // dest << 32 | start: exchanged as one word
    run = first_run;
#pragma unroll
    for (int k = 0; k < items; ++k) {
        const word before = run;
        run = three_way_segmented_plus<word>{}(run, r.w(k));
        const std::int32_t i = r.first + k;
        place[k] = ~std::uint64_t(0);
        if (i >= n) continue;
        const std::uint32_t s = r.s[k];
        if (r.classed_alone(k)) {  // finished: stays
            place[k] = std::uint64_t(i) << 32 | std::uint32_t(i);
            continue;
        }
        if (r.is_equal(k)) continue;  // its place gets the pivot from the fill pass
        const std::uint32_t len_all = __ldg(length + s);
        const std::uint64_t in = (r.classed_head(k) ? 0 : counts_of(before)) +
                                 (s <= std::uint32_t(base)                 ? smem.took[0]  // crosses in from the left
                                  : s + len_all > std::uint32_t(last) + 1 ? smem.took[1]  // out to the right
                                                                           : 0);
        place[k] = r.is_less(k) ? std::uint64_t(s + std::uint32_t(in >> 32)) << 32 | s
                                : std::uint64_t(s + len_all - 1 - std::uint32_t(in)) << 32 | three_way_start_later;
    }
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

/// The tiles of the count and split passes over n positions.
template <class T> int three_way_tiles_of(std::int32_t n) {
    return int((std::size_t(n) + three_way_tile_shape<T>::size - 1) / three_way_tile_shape<T>::size);
}

/// After the count pass over a first state that is one segment: each of its
/// `tiles` tiles left its own counts in taken[2t] and its descents in
/// taken[2t + 1], instead of adding them at the one head (where 2^17 tiles'
/// atomic adds to one word wait in line: docs/design/quicksort.md). A block
/// scans three_way_first_offsets_threads tiles' counts, across blocks by
/// decoupled look-back: each tile's offset (the counts of the tiles before
/// it) at both its ends, the totals at head 0 (the last tile), the descents
/// added into *descents (an add a block) and noted in *descents_seen.
template <class T>
__global__ void __launch_bounds__(three_way_first_offsets_threads)
    three_way_first_offsets(three_way_round<T> round, std::int32_t tiles, unsigned long long* descents,
                            three_way_tile_state status) {
    constexpr int threads = three_way_first_offsets_threads;
    using block_scan = cub::BlockScan<std::uint64_t, threads>;
    using block_sum = cub::BlockReduce<std::uint64_t, threads>;
    using look_back = cub::TilePrefixCallbackOp<std::uint64_t, ::cuda::std::plus<std::uint64_t>, three_way_tile_state>;
    __shared__ struct {
        typename block_scan::TempStorage scan;
        typename look_back::TempStorage prefix;
        typename block_sum::TempStorage sum;
    } smem;
    std::uint64_t* taken = round.tile_offsets;
    const std::int32_t t = std::int32_t(blockIdx.x) * threads + std::int32_t(threadIdx.x);
    const std::uint64_t counts = t < tiles ? taken[2 * t] : 0, down = t < tiles ? taken[2 * t + 1] : 0;
    std::uint64_t before;  // less << 32 | greater of the tiles before tile t (each below 2^31: no carry)
    if (blockIdx.x == 0) {
        std::uint64_t block_total;
        block_scan(smem.scan).ExclusiveScan(counts, before, std::uint64_t(0), ::cuda::std::plus<std::uint64_t>{}, block_total);
        if (threadIdx.x == 0) status.SetInclusive(0, block_total);
    } else {
        look_back prefix(status, smem.prefix, ::cuda::std::plus<std::uint64_t>{}, int(blockIdx.x));
        block_scan(smem.scan).ExclusiveScan(counts, before, ::cuda::std::plus<std::uint64_t>{}, prefix);
    }
    if (t < tiles) taken[2 * t] = taken[2 * t + 1] = before;
    if (t == tiles - 1) *round.from.totals = before + counts;  // the one segment's, at its head
    const std::uint64_t block_down = block_sum(smem.sum).Sum(down);
    if (threadIdx.x == 0 && block_down) {
        atomicAdd(descents, (unsigned long long)block_down);
        *round.descents_seen = 0;  // the first state's number of splits
    }
}

/// A first state's bookkeeping (three_way_tiles::begin): every word of it
/// is written by one launch, since each launch costs the host time that
/// small sorts wait for (docs/design/quicksort.md).
struct three_way_first_words {
    std::uint64_t* counts;         ///< counts[0] <- 0: the count pass adds into the head's totals
    std::uint32_t* length;         ///< length[0] <- n: the one segment
    std::uint32_t* tile_heads;     ///< `heads` words <- ~0 (no tile marked), but head_word <- splits (split 0's head)
    std::uint32_t* queue;          ///< `queue_words` <- 0, but queue_one <- 1 (the one segment) where >= 0
    std::uint32_t* finished;       ///< `finished_words` <- three_way_never_finished
    std::uint64_t* tile_offsets;   ///< `offset_words` <- 0
    std::uint32_t* descents_seen;  ///< <- ~0
    std::uint32_t* split_words;    ///< both <- 0
    /// null, or a first state's starts, all 0 (one segment), where the passes
    /// before its split read them: the two ends of each count and split tile
    /// (one_segment: every tile is then inside the one segment, and loads no
    /// other start) and the first short-sort tile and the position after it,
    /// where choose_pivots without the base case before it looks for heads.
    /// The rest the split after next writes, as it writes a state's buffers of
    /// two states ago.
    std::uint32_t* start;
    std::uint32_t splits;
    std::int32_t n, heads, head_word, queue_words, queue_one, finished_words, offset_words, head_span, start_threads;
    std::int32_t threads() const {
        return std::max({std::int32_t(1), heads, queue_words, finished_words, offset_words, start ? start_threads : 0});
    }
};

template <class T> __global__ void three_way_first_words_set(three_way_first_words w) {
    const std::int32_t i = std::int32_t(blockIdx.x) * std::int32_t(blockDim.x) + std::int32_t(threadIdx.x);
    if (i == 0) {
        w.counts[0] = 0;
        w.length[0] = std::uint32_t(w.n);
        *w.descents_seen = ~std::uint32_t(0);
        w.split_words[0] = w.split_words[1] = 0;
    }
    if (i < w.heads) w.tile_heads[i] = i == w.head_word ? w.splits : ~std::uint32_t(0);
    if (i < w.queue_words) w.queue[i] = i == w.queue_one ? 1u : 0u;
    if (i < w.finished_words) w.finished[i] = three_way_never_finished;
    if (i < w.offset_words) w.tile_offsets[i] = 0;
    if (!w.start || i >= w.start_threads) return;
    if (i < w.head_span) w.start[i] = 0;
    const std::int32_t base = i * three_way_tile_shape<T>::size;
    if (base >= w.n) return;
    w.start[base] = 0;
    w.start[three_way_run<T>::last_of(base, w.n)] = 0;
}

/// choose_pivots over the state round.from, by the marks of the last split
/// (after_short_sort: sort_short_segments ran on this state); the next
/// split's look-back status is initialised by the same launch, in
/// split_status (allocated when it does not have the size: once for a
/// program's rounds, which then allocate nothing).
template <class T, class Chooser>
void pivots_by_tiles(const three_way_round<T>& round, const Chooser& chooser, bool after_short_sort,
                     runtime::scratch& split_status) {
    const int tiles = int((std::size_t(round.n) + short_sort_shape<T>::tile_keys - 1) / short_sort_shape<T>::tile_keys);
    const int split_tiles = three_way_tiles_of<T>(round.n);
    // a warp per tile: 32 threads for every tile_keys positions, so a thread for every tile of the split
    static_assert(short_sort_shape<T>::tile_keys <= three_way_tile_shape<T>::size * 32,
                  "the pivots' grid has a thread for every tile of the split");
    constexpr int warps = three_way_pivot_threads / 32;
    const std::size_t status_bytes = tile_state_bytes<three_way_tile_state>(split_tiles, "choose_pivots");
    if (split_status.size() != status_bytes) split_status = runtime::scratch(status_bytes);
    const auto status = tile_state_on<three_way_tile_state>(split_tiles, split_status.get(), split_status.size(),
                                                            "choose_pivots");
    // warps for the long queue: no more than its slots (n / (block_sort_limit<T> + 1) can be that long)
    const int queue_warps =
        after_short_sort ? int(std::min<std::size_t>(std::size_t(round.n) / (std::size_t(block_sort_limit<T>) + 1),
                                                     three_way_pivot_queue_warps))
                         : 0;
    std::uint32_t* queue = round.block_sort_queue;
    pivots_at_marked_tiles<T, Chooser><<<(tiles + queue_warps + warps - 1) / warps, three_way_pivot_threads, 0, round.stream>>>(
        round.from.keys, round.from.start, round.from.length, round.pivot, chooser, round.tile_heads, round.splits,
        round.n, status, split_tiles, after_short_sort, queue + block_sort_long_queue,
        block_sort_heads(queue, round.queue_slots, block_sort_long_queue), queue_warps);
    backend::check_launch("choose_pivots (by marked tiles)");
}

/// The count pass over round.from, each segment's pivot chosen on the way
/// (chooser(keys, s, length[s]), stored at its head); the descents are added
/// into *descents, which the caller zeroed. first_state: three_way_one_first_segment.
template <class T, class Chooser>
void three_way_count_by_tiles(const three_way_round<T>& round, const Chooser& chooser, unsigned long long* descents,
                              bool first_state) {
    const int num_tiles = int((std::size_t(round.n) + three_way_tile_shape<T>::size - 1) / three_way_tile_shape<T>::size);
    three_way_count_tiles<T, Chooser><<<num_tiles, three_way_tile_shape<T>::threads, 0, round.stream>>>(round, chooser,
                                                                                                      descents);
    backend::check_launch("count_three_ways (count by tiles)");
    if (first_state) {  // the tiles left their counts: offsets, totals
        const int blocks = (num_tiles + three_way_first_offsets_threads - 1) / three_way_first_offsets_threads;
        const tile_state<three_way_tile_state> status(blocks, round.stream, "count_three_ways (first offsets)");
        three_way_first_offsets<T><<<blocks, three_way_first_offsets_threads, 0, round.stream>>>(round, num_tiles, descents,
                                                                                              status.tiles);
        backend::check_launch("count_three_ways (the first state's tile offsets)");
    }
}

/// Whether split_three_ways(segs, any_order) takes the pass without look-back.
template <class T> constexpr bool three_way_splits_any_order = std::is_integral_v<T>;

/// The split pass: round.from split into round.to, stably or in any order
/// within each class (AnyOrder: integer keys only; with round.unsorted, the
/// split that counts and its fill pass, no count before them). The stable pass's
/// look-back status is the one choose_pivots initialised in `*chosen`;
/// without one (the pivots chosen by the count pass, or none chosen since
/// the last split) it is made and initialised here.
template <class T, bool AnyOrder> void three_way_split_by_tiles(const three_way_round<T>& round, const runtime::scratch* chosen) {
    const int num_tiles = three_way_tiles_of<T>(round.n);
    backend::fill_zero(round.block_sort_queue, block_sort_queues * sizeof(std::uint32_t), round.stream,
                       "split_three_ways (block-sort queues)");
    if constexpr (AnyOrder) {
        if (round.unsorted) {
            three_way_split_counting_tiles<T><<<num_tiles, three_way_tile_shape<T>::threads, 0, round.stream>>>(round);
            backend::check_launch("split_three_ways (split that counts, by tiles)");
            three_way_fill_tiles<T><<<num_tiles, three_way_tile_shape<T>::threads, 0, round.stream>>>(round);
            backend::check_launch("split_three_ways (fill of the equal and greater parts)");
            return;
        }
        static_assert(three_way_splits_any_order<T>, "the split without look-back takes integer keys");
        three_way_split_any_order_tiles<T><<<num_tiles, three_way_tile_shape<T>::threads, 0, round.stream>>>(round);
        backend::check_launch("split_three_ways (split by tiles, any order)");
        return;
    }
    const std::size_t bytes = tile_state_bytes<three_way_tile_state>(num_tiles, "split_three_ways");
    std::optional<tile_state<three_way_tile_state>> fresh;
    three_way_tile_state tiles;
    if (chosen && chosen->size() == bytes) {
        tiles = tile_state_on<three_way_tile_state>(num_tiles, chosen->get(), bytes, "split_three_ways");
    } else {
        fresh.emplace(num_tiles, round.stream, "split_three_ways");
        tiles = fresh->tiles;
    }
    three_way_split_tiles<T><<<num_tiles, three_way_tile_shape<T>::threads, 0, round.stream>>>(round, tiles);
    backend::check_launch("split_three_ways (split by tiles)");
}

/// The family on tiles (three_way/dispatch.hpp picks it for arithmetic keys
/// with 32-bit positions); states of 2^31 elements or more go to the generic form.
template <class T> struct three_way_tiles {
    using Pos = std::uint32_t;
    using segments = pivoted_segments<T, Pos>;
    using generic = three_way_generic<T, Pos>;

    /// The passes index positions with 32-bit signed integers.
    static bool fits(std::size_t n) { return n <= std::size_t(std::numeric_limits<std::int32_t>::max()); }

    static std::size_t short_limit(std::size_t n) {
        return fits(n) ? std::size_t(block_sort_limit<T>) : generic::short_limit(n);
    }
    static std::size_t short_tile(std::size_t n) {
        return fits(n) ? std::size_t(short_sort_shape<T>::tile_keys) : generic::short_tile(n);
    }

    /// The tile passes' view of a state (the split adds its output, round.to).
    static three_way_round<T> round_of(vector<T>& keys, vector<Pos>& start, vector<Pos>& length, vector<T>& pivot,
                                       three_way_bookkeeping<T, Pos>& book) {
        three_way_round<T> r{};
        // a first state over a program's keys reads them there (the passes before
        // its split write no key: first_segments makes it only where none would)
        T* const from_keys = book.first_keys ? const_cast<T*>(book.first_keys) : keys.data();
        r.from = {from_keys, start.data(), length.data(), book.counts.data()};
        r.pivot = pivot.data();
        r.tile_heads = book.tile_heads.data();
        r.block_sort_queue = book.block_sort_queue.data();
        const std::size_t queue_words = book.block_sort_queue.size();
        r.queue_slots = queue_words ? std::uint32_t(block_sort_queue_slots(queue_words)) : 0;
        r.finished = book.finished.data();
        r.tile_offsets = book.tile_offsets.data();
        r.descents_seen = book.descents_seen.data();
        r.splits = book.split_words.data() + book.splits % 2;
        r.next_splits = book.split_words.data() + (book.splits + 1) % 2;
        r.n = std::int32_t(keys.size());
        r.stream = current_stream();
        return r;
    }
    static three_way_round<T> round_of(segments& segs) {
        return round_of(segs.keys, segs.start, segs.length, segs.pivot, three_way_access::book(segs));
    }

    /// A new state of one segment: its bookkeeping allocated and set (with
    /// first_starts, the starts the passes before its split read).
    static void begin_with(segments& segs, bool first_starts) {
        const std::size_t n = segs.size();
        if (n < 2 || !fits(n)) {
            generic::begin(segs);
            // the count pass adds into the totals at heads
            if (n) backend::fill_zero(three_way_access::book(segs).counts.data(), sizeof(std::uint64_t), current_stream(),
                                      "pivoted_segments (counts)");
            return;
        }
        generic::begin_unwritten(segs);
        auto& book = three_way_access::book(segs);
        const std::size_t tile_keys = short_sort_shape<T>::tile_keys, tiles = (n + tile_keys - 1) / tile_keys;
        const std::size_t passes = three_way_tile_shape<T>::size, words = (n + passes - 1) / passes;
        book.tile_heads = vector<std::uint32_t>(2 * tiles, no_init);
        // slots in each queue for the most segments longer than a tile a split can make
        book.block_sort_queue = vector<std::uint32_t>(block_sort_queue_words(tiles), no_init);
        book.finished = vector<std::uint32_t>(words, no_init);
        book.tile_offsets = vector<std::uint64_t>(2 * words, no_init);  // a finished tile's are read, not used
        book.descents_seen = vector<std::uint32_t>(1, no_init);
        book.split_words = vector<std::uint32_t>(2, no_init);
        three_way_first_words w{};
        static_assert(sizeof(*book.counts.data()) == sizeof(std::uint64_t), "the head's totals are one 64-bit word");
        w.counts = reinterpret_cast<std::uint64_t*>(book.counts.data());
        w.length = segs.length.data();
        w.tile_heads = book.tile_heads.data();
        w.queue = book.block_sort_queue.data();
        w.finished = book.finished.data();
        w.tile_offsets = book.tile_offsets.data();
        w.descents_seen = book.descents_seen.data();
        w.split_words = book.split_words.data();
        w.splits = book.splits;
        w.n = std::int32_t(n);
        w.heads = std::int32_t(2 * tiles);
        w.head_word = n > tile_keys ? 1 : 0;  // "split 0" left one head, at 0
        w.queue_words = std::int32_t(book.block_sort_queue.size());
        w.queue_one = n > tile_keys ? std::int32_t(block_sort_queue_of<T>(std::uint32_t(n))) : -1;
        w.finished_words = std::int32_t(words);
        w.offset_words = std::int32_t(2 * words);
        if (first_starts) {
            w.start = segs.start.data();
            w.head_span = std::min<std::int32_t>(w.n, std::int32_t(tile_keys) + 1);
            w.start_threads = std::max(three_way_tiles_of<T>(w.n), w.head_span);
        }
        constexpr int threads = three_way_first_words_threads;
        three_way_first_words_set<T><<<(w.threads() + threads - 1) / threads, threads, 0, current_stream()>>>(w);
        backend::check_launch("pivoted_segments (first state's bookkeeping)");
    }

    /// The set-up is queued (one launch, three_way_first_words_set): no wait.
    static void begin(segments& segs) { begin_with(segs, false); }

    /// Whether a first state of n keys can read them where the program holds
    /// them (begin_over): positions the passes index, and more keys than the
    /// base case sorts in place, so that no pass writes a key before the split.
    static bool reads_in_place(std::size_t n) { return fits(n) && n > std::size_t(block_sort_limit<T>); }

    /// begin for a state whose keys are read at `keys` until its split (its own
    /// are unwritten): of its starts, all 0, only those the passes before the
    /// split read are written (three_way_first_words::start).
    static void begin_over(segments& segs, const T* keys) {
        begin_with(segs, true);
        three_way_access::book(segs).first_keys = keys;
    }

    template <class Chooser> static void choose_pivots(segments& segs, const Chooser& chooser) {
        const std::size_t n = segs.size();
        if (n < 2) return;  // no segment of two
        if (!fits(n)) return generic::choose_pivots(segs, chooser);
        auto& book = three_way_access::book(segs);  // the split marked the tiles with heads
        pivots_by_tiles(round_of(segs), chooser, book.short_sorted == book.splits, book.split_status);
        book.split_status_chosen = true;
    }

    template <class Chooser> static device_value<index_t> count(segments& segs, const Chooser& chooser) {
        const std::size_t n = segs.size();
        if (n < 2 || !fits(n)) return generic::count(segs, chooser);
        device_value<index_t> descents = generic::no_descents(current_stream());  // the count pass adds into it
        count_into(segs, chooser, descents);
        return descents;
    }
    /// The count into a zeroed word of the caller's.
    template <class Chooser> static void count_into(segments& segs, const Chooser& chooser, device_value<index_t>& descents) {
        static_assert(sizeof(index_t) == sizeof(unsigned long long), "the tile pass adds 64-bit words");
        auto& book = three_way_access::book(segs);
        three_way_count_by_tiles(round_of(segs), chooser, reinterpret_cast<unsigned long long*>(descents.ptr()),
                                 three_way_one_first_segment<T>(book.splits, std::int32_t(segs.size())));
    }

    static void sort_short(segments& segs) {
        const std::size_t n = segs.size();
        if (n < 2) return;
        if (!fits(n)) return generic::sort_short(segs);
        auto& book = three_way_access::book(segs);
        // a first state of one segment longer than the base case sorts has nothing to sort (no launch)
        if (!three_way_one_first_segment<T>(book.splits, std::int32_t(n))) {
            const three_way_round<T> round = round_of(segs);
            block_sort_queued(round);
            short_sort_by_tiles(round);
        }
        book.short_sorted = book.splits;  // choose_pivots then takes the long segments from their queue
    }

    /// Writes into the buffers of two states ago: the tiles it skips (finished) hold their keys already.
    static segments split(segments& segs) { return split_by_tiles<false>(segs); }
    /// Integer keys without look-back; others stably (one of the orders).
    static segments split_any_order(segments& segs) { return split_by_tiles<three_way_splits_any_order<T>>(segs); }

    /// Whether a state's rounds (the base case, choose_pivots,
    /// count_split_any_order into a caller's word) are to be repeated by the
    /// device: from the third round on they allocate nothing and wait for
    /// nothing, their buffers alternating; worth a graph from
    /// three_way_rounds_on_device_from keys.
    static bool repeats_on_device(std::size_t n) { return n >= three_way_rounds_on_device_from && fits(n); }

    /// Whether count_split_any_order counts in the split itself (one pass fewer).
    static constexpr bool counts_in_split = three_way_splits_any_order<T>;
    /// The split that counts (counts_in_split), and whether any key it read was
    /// not finished; other keys count, then split.
    static std::pair<segments, device_value<index_t>> count_split_any_order(segments& segs) {
        device_value<index_t> unsorted(current_stream());
        segments out = count_split_any_order(segs, unsorted);
        return {std::move(out), std::move(unsorted)};
    }
    /// The same, the number in the caller's word (zeroed here first): no
    /// allocation once the state's rounds have made their buffers (after two
    /// splits), so rounds of it can be repeated on the device.
    static segments count_split_any_order(segments& segs, device_value<index_t>& unsorted) {
        const std::size_t n = segs.size();
        if (n < 2 || !fits(n)) return number_into(generic::count_split_any_order(segs), unsorted);
        backend::fill_zero(unsorted.ptr(), sizeof(index_t), current_stream(), "count_split_three_ways (its number)");
        if constexpr (!counts_in_split) {
            count_into(segs, chosen_pivot<decltype(reader(segs.pivot))>{reader(segs.pivot)}, unsorted);
            return split_any_order(segs);
        } else {
            static_assert(sizeof(index_t) == sizeof(unsigned long long), "the tile pass stores a 64-bit word");
            return split_by_tiles<counts_in_split>(segs, reinterpret_cast<unsigned long long*>(unsorted.ptr()));
        }
    }

    template <bool AnyOrder> static segments split_by_tiles(segments& segs, unsigned long long* unsorted = nullptr) {
        const std::size_t n = segs.size();
        if (n < 2 || !fits(n)) return generic::split(segs);
        segments out;
        out.pivot = std::move(segs.pivot);
        auto& book = three_way_access::book(out);
        book = std::move(three_way_access::book(segs));
        const bool reuse = book.keys_two_splits_ago.size() == n;
        vector<std::uint64_t> totals = std::move(book.counts);  // read here; the new state's are zeroed at its heads
        // the buffers of two states ago, where there are such (no split reads what they hold)
        book.counts = reuse ? std::move(book.counts_two_splits_ago) : vector<std::uint64_t>(n, no_init);
        out.length = reuse ? std::move(book.length_two_splits_ago) : vector<Pos>(n, no_init);
        out.keys = reuse ? std::move(book.keys_two_splits_ago) : vector<T>(n, no_init);
        out.start = reuse ? std::move(book.start_two_splits_ago) : vector<Pos>(n, no_init);
        three_way_round<T> round = round_of(segs.keys, segs.start, segs.length, out.pivot, book);
        round.from.totals = totals.data();
        round.to = {out.keys.data(), out.start.data(), out.length.data(), book.counts.data()};
        round.unsorted = unsorted;
        three_way_split_by_tiles<T, AnyOrder>(round, book.split_status_chosen ? &book.split_status : nullptr);
        book.split_status_chosen = false;  // the next split's is initialised by the next choose_pivots
        book.first_keys = nullptr;  // the split wrote every key into out.keys
        ++book.splits;
        book.keys_two_splits_ago = std::move(segs.keys);
        book.start_two_splits_ago = std::move(segs.start);
        book.length_two_splits_ago = std::move(segs.length);
        book.counts_two_splits_ago = std::move(totals);
        return out;
    }
};

}  SCANVEC_NAMESPACE_END  // detail

#endif
