// scanvec/primitives/detail/three_way/cuda/word.hpp - the packed word of the
// tile passes (CUDA): head flag, less and greater counts in one word, their
// segmented sum, and one thread's run of a tile.
// The family on tiles and its passes: cuda/tiles.hpp.
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

    // ---- placement: where a tile's part of a segment goes -------------------------

    /// Each element's place, dest << 32 | its new segment's start, into place[]
    /// (exchanged as one word): past the end none (all ones), a finished element
    /// where it is, any other where place_of(k, i, before) says, before being
    /// the counts before it in the tile (run: those before this thread's first).
    template <class PlaceOf>
    __device__ void place_each(Word run, std::uint64_t (&place)[items], const PlaceOf& place_of) const {
#pragma unroll
        for (int k = 0; k < items; ++k) {
            const Word before = run;
            run = three_way_segmented_plus<Word>{}(run, w(k));
            const std::int32_t i = first + k;
            place[k] = ~std::uint64_t(0);
            if (i >= n) continue;
            place[k] = classed_alone(k) ? std::uint64_t(i) << 32 | std::uint32_t(i) : place_of(k, i, before);
        }
    }
    /// A word's counts as a segment's totals word (less above greater), its head flag dropped.
    static __device__ std::uint64_t as_totals(Word c) {
        constexpr int shift = three_way_word_format<Word>::less_shift;
        c &= ~head_bit;
        return std::uint64_t(c >> shift) << 32 | std::uint64_t(c & ((Word(1) << shift) - 1));
    }
    /// What the tiles before this one took of segment s (len positions): took(0)
    /// for the segment that crosses in from the left, took(1) for the one that
    /// runs out to the right, nothing for a segment inside the tile. (A functor:
    /// a caller whose took lies in global memory loads only the one it needs.)
    template <class Took>
    static __device__ std::uint64_t taken_before(std::uint32_t s, std::uint32_t len, std::int32_t base,
                                                 std::int32_t last, const Took& took) {
        return s <= std::uint32_t(base) ? took(0) : s + len > std::uint32_t(last) + 1 ? took(1) : 0;
    }
    /// Adds each segment's counts in the tile to its totals word (a plain store
    /// for a segment that lies in the tile, else an atomic add), from run, the
    /// counts before this thread's first element; what the adds before found
    /// for the segments at the tile's two ends goes to took[0] and took[1].
    __device__ void add_counts(Word run, std::uint64_t* totals, std::int32_t base, std::int32_t last,
                               std::uint64_t* took) const {
#pragma unroll
        for (int k = 0; k < items; ++k) {
            run = three_way_segmented_plus<Word>{}(run, w(k));
            const std::int32_t i = first + k;
            if (i > last || alone(k)) continue;
            const bool ends = next_is_head(k);
            if (!ends && i != last) continue;  // not the segment's last element in this tile
            const std::uint64_t counts = as_totals(run);
            std::uint64_t before = 0;
            if (ends && (run & head_bit)) totals[s[k]] = counts;  // the whole segment is in this tile
            else before = atomicAdd(reinterpret_cast<unsigned long long*>(totals + s[k]), (unsigned long long)counts);
            if (s[k] <= std::uint32_t(base)) took[0] = before;
            if (i == last) took[1] = before;
        }
    }
};

}  SCANVEC_NAMESPACE_END  // detail

#endif
