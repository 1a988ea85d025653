// scanvec/primitives/three_way_split.hpp - split every segment three ways around its pivot.
//
// Blelloch's segmented quicksort splits every segment in one step: elements
// less than the segment's pivot first, then the equal ones, then the greater,
// each class in its original order. Here that step is a primitive family over
// one state, pivoted_segments:
//
//   keys                  the elements, segment after segment
//   start[i]              where i's segment begins (i is a head when start[i] = i)
//   length[s], pivot[s]   at each head s of a segment of two or more elements
//
//   segs = pivoted_segments<T>(keys)        one segment: the whole vector
//   choose_pivots(segs, chooser)            pivot[s] <- chooser(keys, s, length) at each head
//   count_three_ways(segs)                  each segment's less and equal counts; returns the
//                                           descents (keys[i] < keys[i-1] inside a segment)
//   count_three_ways_to_device(segs)        the same, the descents left on the device (get() later)
//   count_three_ways(segs, chooser)         the pivots chosen as by choose_pivots, then counted
//                                           (on CUDA tiles in the same pass, each tile choosing
//                                           for every segment in it: for choosers of few reads)
//   segs = split_three_ways(segs)           the permute: less | each equal alone | greater
//   sort_short_segments(segs)               the base case: every segment of at most
//                                           segs.short_limit() keys sorted at once, finished
//
// After the split the less and greater parts are segments of their own and
// every element equal to its pivot is a finished segment of one. Call
// count_three_ways once before each split_three_ways (the tile form adds the
// counts into totals that the previous split zeroed). Off must hold n.
//
// How it runs. Generic form (any element type, both backends): the counts are
// ONE unsegmented +-scan of (is less, is equal) packed in a word; a segment's
// counts before a position are differences of that scan read at the position
// and at the segment's head, its totals the difference at its end; the split
// is a permute by the destination those give. On CUDA, for arithmetic keys
// below 2^31 elements, each step is one pass of tile kernels
// (detail/three_way_tiles.hpp): the count pass scans the tile's counts by
// segment in shared memory and leaves only each segment's totals at its head
// (atomics where a segment crosses tiles) together with the descents; the
// split pass scans again with decoupled look-back across tiles and writes each
// element, its new start and the new heads' lengths. Per round that is the
// keys and starts read twice and written once. Given a chooser, the count
// pass also chooses the pivots. A tile whose keys are all finished is skipped
// by both passes from the state after the one where it was first seen so: the
// split writes into the buffers of two states ago, which hold it already. The
// base case sorts, per tile of short_tile() positions, a window of two tiles
// in shared memory (detail/short_sort_tiles.hpp); the split marks which tiles
// hold short and long heads, so the others cost two reads; choose_pivots
// reads the same marks and chooses only in tiles that hold heads. For 32-bit
// integer keys the split also queues the segments of one to eight tiles it
// makes, and the base case sorts each whole in one block
// (detail/block_sort_segments.hpp): some four rounds of splits fewer.
#pragma once

#include <scanvec/primitives/derived.hpp>
#include <scanvec/primitives/detail/short_sort_tiles.hpp>
#include <scanvec/primitives/detail/three_way_place.hpp>
#include <scanvec/primitives/detail/three_way_tiles.hpp>
#include <scanvec/primitives/elementwise.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/scan.hpp>
#include <scanvec/runtime/device_value.hpp>

#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

namespace scanvec {

namespace detail {

enum : std::uint8_t { tw_less = 0, tw_equal = 1, tw_greater = 2 };

struct compare_to_pivot {
    template <class T> SCANVEC_HD std::uint8_t operator()(const T& x, const T& pivot) const {
        return x < pivot ? tw_less : (pivot < x ? tw_greater : tw_equal);
    }
};

/// The two counts of an element (is it less, is it equal) as one summable word.
template <class Off> struct tw_counts;
/// 32-bit positions: less in the high half of a 64-bit word, equal in the low
/// half. Neither half can overflow into the other (each count is below 2^32),
/// and a later prefix minus an earlier one borrows nothing.
template <> struct tw_counts<std::uint32_t> {
    using word = std::uint64_t;
    using op = plus<word>;
    static SCANVEC_HD word of(std::uint8_t c) { return c == tw_less ? word(1) << 32 : word(c == tw_equal); }
    static SCANVEC_HD word minus(word a, word b) { return a - b; }
    static SCANVEC_HD std::uint32_t less(word w) { return std::uint32_t(w >> 32); }
    static SCANVEC_HD std::uint32_t equal(word w) { return std::uint32_t(w); }
};
struct tw_pair64 {
    std::uint64_t less;
    std::uint64_t equal;
};
SCANVEC_FIELDS(tw_pair64, less, equal)
/// 2^32 elements or more: two 64-bit counts.
template <> struct tw_counts<std::uint64_t> {
    using word = tw_pair64;
    struct op {
        SCANVEC_HD word operator()(const word& a, const word& b) const { return {a.less + b.less, a.equal + b.equal}; }
        SCANVEC_HD word identity() const { return {0, 0}; }
    };
    static SCANVEC_HD word of(std::uint8_t c) { return {c == tw_less, c == tw_equal}; }
    static SCANVEC_HD word minus(const word& a, const word& b) { return {a.less - b.less, a.equal - b.equal}; }
    static SCANVEC_HD std::uint64_t less(const word& w) { return w.less; }
    static SCANVEC_HD std::uint64_t equal(const word& w) { return w.equal; }
};

template <class Off> struct count_of {
    SCANVEC_HD typename tw_counts<Off>::word operator()(std::uint8_t c) const { return tw_counts<Off>::of(c); }
};

/// The counts over positions [0, k): Incl[k-1], nothing for k = 0.
template <class Off, class Incl> struct counts_before {
    Incl incl;
    SCANVEC_HD typename tw_counts<Off>::word operator()(index_t k) const {
        return k ? typename tw_counts<Off>::word(incl[k - 1]) : typename tw_counts<Off>::op{}.identity();
    }
};

/// One past the last position of i's segment: start + length[start].
template <class Off, class Len> struct segment_end {
    Len length;
    SCANVEC_HD index_t operator()(Off start) const { return index_t(start) + index_t(length[start]); }
};

/// A[i] < A[i-1] inside a segment (i not a head).
struct descent_in_segment {
    template <class T, class Off> SCANVEC_HD bool operator()(const T& x, const T& before, Off start, index_t i) const {
        return index_t(start) != i && x < before;
    }
};

struct previous {
    SCANVEC_HD index_t operator()(index_t i) const { return i > 0 ? i - 1 : 0; }
};

// (tw_place: detail/three_way_place.hpp)
template <class Off>
field_list<tw_place<Off>, &tw_place<Off>::dest, &tw_place<Off>::start, &tw_place<Off>::length>
scanvec_fields_of(tw_place<Off>*) {
    return {};
}

/// i's place after the split, its new segment's start and that segment's length.
/// before, base, through: the counts before i, before its segment, through its segment.
template <class Off> struct three_way_place {
    using C = tw_counts<Off>;
    template <class W>
    SCANVEC_HD tw_place<Off> operator()(std::uint8_t c, const W& before, const W& base, const W& through, Off start,
                                        index_t end, index_t i) const {
        const W in = C::minus(before, base), all = C::minus(through, base);
        const Off less = Off(C::less(in)), equal = Off(C::equal(in));
        const Off less_all = Off(C::less(all)), equal_all = Off(C::equal(all));
        if (c == tw_less) return {Off(start + less), start, less_all};
        if (c == tw_equal) {
            const Off at = Off(start + less_all + equal);
            return {at, at, Off(1)};
        }
        const Off from = Off(start + less_all + equal_all);
        return {Off(from + (Off(i - index_t(start)) - less - equal)), from, Off(Off(end) - from)};
    }
};
struct place_dest {
    template <class P> SCANVEC_HD index_t operator()(const P& p) const { return index_t(p.dest); }
};
struct place_start {
    template <class P> SCANVEC_HD auto operator()(const P& p) const { return p.start; }
};
struct place_length {
    template <class P> SCANVEC_HD auto operator()(const P& p) const { return p.length; }
};

/// Calls chooser(keys, s, length) at each head s of a segment of two or more.
template <class Off, class Keys, class Chooser, class Out> struct pivot_at_heads {
    Keys keys;
    const Off* start;
    const Off* length;
    Out pivot;
    index_t n;
    Chooser chooser;
    SCANVEC_HD void operator()(index_t s) const {
        if (index_t(start[s]) != s) return;                       // not a head
        if (s + 1 == n || index_t(start[s + 1]) == s + 1) return;  // a finished segment of one
        pivot[s] = chooser(keys, Off(s), length[s]);
    }
};

/// Whether s heads a segment of 2 to limit keys and its tile of limit
/// positions heads no longer segment (such a tile waits: see sort_short_segments).
template <class Off> struct heads_short_segment {
    const Off* start;
    const Off* length;
    index_t n;
    index_t limit;
    SCANVEC_HD bool heads_some(index_t s) const {  // a segment of two or more
        return index_t(start[s]) == s && s + 1 < n && index_t(start[s + 1]) != s + 1;
    }
    SCANVEC_HD bool operator()(index_t s) const {
        if (!heads_some(s) || index_t(length[s]) > limit) return false;
        const index_t tile = s - s % limit, end = tile + limit < n ? tile + limit : n;
        for (index_t h = tile; h < end; ++h)
            if (heads_some(h) && index_t(length[h]) > limit) return false;
        return true;
    }
};

/// At the head s of a segment of 2 to Limit keys: sorts the segment in place
/// (insertion sort, stable) and makes each of its keys a finished segment of one.
template <class T, class Off, std::size_t Limit, class Keys, class KeysOut> struct sort_short_at_head {
    Keys keys;
    KeysOut keys_out;  // the same memory as keys
    Off* start;
    Off* length;
    SCANVEC_HD void operator()(index_t s) const {
        const index_t len = index_t(length[s]);
        T x[Limit];
        for (index_t k = 0; k < len; ++k) {
            T key = keys[s + k];
            index_t j = k;
            for (; j > 0 && key < x[j - 1]; --j) x[j] = x[j - 1];
            x[j] = key;
        }
        for (index_t k = 0; k < len; ++k) {
            keys_out[s + k] = x[k];
            start[s + k] = Off(s + k);
            length[s + k] = Off(1);  // the generic split reads every segment's end
        }
    }
};

/// The generic form's longest short segment: one thread's insertion sort.
constexpr std::size_t short_sort_limit = 16;

/// The CUDA tile kernels serve arithmetic keys with 32-bit positions below 2^31 elements.
template <class T, class Off> constexpr bool three_way_by_tiles() {
#if defined(SCANVEC_BACKEND_CUDA)
    return std::is_arithmetic_v<T> && std::is_same_v<Off, std::uint32_t>;
#else
    return false;
#endif
}

}  // namespace detail

/// Keys held in segments, each segment with a pivot: the state of a program
/// that splits every segment around a pivot, round after round (quicksort).
/// Off: the position type (std::uint32_t below 2^32 elements, else std::uint64_t).
template <class T, class Off = std::uint32_t> struct pivoted_segments {
    vector<T> keys;
    vector<Off> start;   ///< start[i]: where i's segment begins (a head when start[i] == i)
    vector<Off> length;  ///< length[s] at each head s of a segment of two or more
    vector<T> pivot;     ///< pivot[s] at each such head, set by choose_pivots
    /// Less and equal counts: the generic form's inclusive scan over all
    /// positions, or (CUDA tiles) each segment's totals at its head.
    vector<typename detail::tw_counts<Off>::word> counts;
    /// CUDA tiles: per tile of short_limit() positions, the last split (by
    /// number) that left a short segment's head there, and the last that left a
    /// longer one's: [2t] and [2t + 1]. sort_short_segments and choose_pivots
    /// read them to skip the tiles they have nothing to do in without reading them.
    vector<std::uint32_t> tile_heads;
    /// CUDA tiles, 32-bit integer keys: the heads of the segments longer than
    /// short_tile() and at most short_limit() keys that the last split made,
    /// which sort_short_segments sorts a block each: one queue per block size
    /// (detail/block_sort_segments.hpp).
    vector<std::uint32_t> block_sort_queue;
    /// CUDA tiles: per tile of the count and split passes, the state (by its
    /// number of splits) in which every key of it was first seen finished, ~0
    /// before. From the next state on both passes skip it: the keys and starts
    /// from two states ago (spare_keys, spare_start, where the split writes)
    /// hold it too, since finished keys never move.
    vector<std::uint32_t> finished;
    vector<T> spare_keys;
    vector<Off> spare_start;
    std::uint32_t splits = 0;  ///< how many splits made this state

    /// sort_short_segments sorts the segments of at most this many keys: on
    /// CUDA tiles what a block's shared memory holds, else a thread's insertion sort.
    std::size_t short_limit() const {
#if defined(SCANVEC_BACKEND_CUDA)
        if constexpr (detail::three_way_by_tiles<T, Off>())
            if (by_tiles()) return std::size_t(detail::block_sort_limit<T>);
#endif
        return detail::short_sort_limit;
    }
    /// The tiles of sort_short_segments' waiting rule: a segment of at most
    /// this many keys is sorted with the others headed in its tile of as many
    /// positions. Below short_limit() (32-bit integer keys on CUDA tiles) the
    /// longer short segments are sorted whole, a block each.
    std::size_t short_tile() const {
#if defined(SCANVEC_BACKEND_CUDA)
        if constexpr (detail::three_way_by_tiles<T, Off>())
            if (by_tiles()) return std::size_t(detail::short_sort_shape<T>::own);
#endif
        return detail::short_sort_limit;
    }

    pivoted_segments() = default;
    /// One segment: the whole of keys. (pivot starts zeroed: a finished segment's
    /// head is compared with it, unchosen, and any answer leaves it in place.)
    explicit pivoted_segments(vector<T> k)
        : keys(std::move(k)), start(keys.size(), Off(0)), length(keys.size(), no_init), pivot(keys.size()),
          counts(keys.size(), no_init) {
        if (keys.size() == 0) return;
        const Off n = Off(keys.size());
        backend::copy_to_device(length.data(), &n, sizeof(Off), "pivoted_segments (length)");
        if constexpr (detail::three_way_by_tiles<T, Off>()) {  // the count pass adds into the totals at heads
            const std::uint64_t zero = 0;
            backend::copy_to_device(counts.data(), &zero, sizeof zero, "pivoted_segments (counts)");
#if defined(SCANVEC_BACKEND_CUDA)
            if (keys.size() >= 2 && keys.size() <= std::size_t(std::numeric_limits<std::int32_t>::max())) {
                // no split has marked any tile yet (~0); "split 0" left one head, at 0
                const std::size_t own = detail::short_sort_shape<T>::own, tiles = (keys.size() + own - 1) / own;
                std::vector<std::uint32_t> marks(2 * tiles, ~std::uint32_t(0));
                marks[keys.size() > own] = splits;
                tile_heads = vector<std::uint32_t>(marks);
                // slots for the most segments longer than a tile a split can make, of either size
                std::vector<std::uint32_t> queue(detail::block_sort_queue_words(tiles), 0u);
                if (keys.size() > own && keys.size() <= detail::block_sort_limit<T>)  // the one segment, at 0
                    queue[keys.size() > std::size_t(detail::block_sort_small::keys)] = 1;
                block_sort_queue = vector<std::uint32_t>(queue);
                const std::size_t passes = detail::tw_tile_shape<T>::size;
                finished = vector<std::uint32_t>(
                    std::vector<std::uint32_t>((keys.size() + passes - 1) / passes, detail::tw_never));
            }
#endif
        }
    }
    std::size_t size() const { return keys.size(); }

  private:
    bool by_tiles() const { return size() <= std::size_t(std::numeric_limits<std::int32_t>::max()); }
};

/// pivot[s] <- chooser(keys, s, length[s]) at each head s of a segment of two
/// or more elements; chooser is a SCANVEC_HD functor and keys reads any position.
template <class T, class Off, class Chooser> void choose_pivots(pivoted_segments<T, Off>& segs, const Chooser& chooser) {
    detail::labelled("choose_pivots", segs.size(), [&] {
        const index_t n = index_t(segs.size());
#if defined(SCANVEC_BACKEND_CUDA)
        if constexpr (detail::three_way_by_tiles<T, Off>()) {
            if (n < 2) return 0;  // no segment of two
            if (n <= index_t(std::numeric_limits<std::int32_t>::max())) {  // the split marked the tiles with heads
                detail::pivots_by_tiles(segs.keys.data(), segs.start.data(), segs.length.data(), segs.pivot.data(),
                                        chooser, segs.tile_heads.data(), segs.splits, std::size_t(n),
                                        segs.keys.stream());
                return 0;
            }
        }
#endif
        auto keys = detail::reader(segs.keys);
        auto pivot = detail::writer(segs.pivot);
        using F = detail::pivot_at_heads<Off, decltype(keys), Chooser, decltype(pivot)>;
        thrust::for_each(detail::policy(segs.keys.stream()), thrust::counting_iterator<index_t>(0),
                         thrust::counting_iterator<index_t>(n),
                         F{keys, segs.start.data(), segs.length.data(), pivot, n, chooser});
        backend::check_launch("choose_pivots");
        return 0;
    });
}

/// The base case of a segmented sort: sorts segments of 2 to L =
/// segs.short_limit() keys in place, stably, and makes each of their keys a
/// finished segment of one. Positions fall in tiles of W = segs.short_tile();
/// the segments of at most W keys sorted are those headed in a tile where the
/// last split left no head of a segment longer than W (such a tile waits, its
/// short segments splitting on, so that each key is sorted once); those of W
/// to L keys (L > W for 32-bit integer keys on CUDA tiles) are all sorted.
/// Longer segments are left as they are.
template <class T, class Off> void sort_short_segments(pivoted_segments<T, Off>& segs) {
    detail::labelled("sort_short_segments", segs.size(), [&] {
        const std::size_t n = segs.size();
        if (n < 2) return 0;
#if defined(SCANVEC_BACKEND_CUDA)
        if constexpr (detail::three_way_by_tiles<T, Off>()) {
            if (n <= std::size_t(std::numeric_limits<std::int32_t>::max())) {
                detail::block_sort_queued(segs.keys.data(), segs.start.data(), segs.length.data(),
                                          segs.block_sort_queue.data(), detail::block_sort_queue_slots(segs.block_sort_queue.size()),
                                          segs.keys.stream());
                detail::short_sort_by_tiles(segs.keys.data(), segs.start.data(), segs.length.data(),
                                            segs.tile_heads.data(), segs.splits, n, segs.keys.stream());
                return 0;
            }
        }
#endif
        // the heads first, then the sorts: a sort rewrites the starts that name heads
        auto i = lazy::index(n);
        const auto heads = pack(i, lazy::map(detail::heads_short_segment<Off>{segs.start.data(), segs.length.data(),
                                                                             index_t(n), index_t(detail::short_sort_limit)},
                                             i));
        auto keys = detail::reader(segs.keys);
        auto keys_out = detail::writer(segs.keys);
        using F = detail::sort_short_at_head<T, Off, detail::short_sort_limit, decltype(keys), decltype(keys_out)>;
        thrust::for_each(detail::policy(segs.keys.stream()), heads.data(), heads.data() + heads.size(),
                         F{keys, keys_out, segs.start.data(), segs.length.data()});
        backend::check_launch("sort_short_segments");
        return 0;
    });
}

namespace detail {
/// A chooser that keeps the pivots already chosen.
template <class Pivots> struct chosen_pivot {
    Pivots pivot;
    template <class Keys, class Off> SCANVEC_HD auto operator()(const Keys&, Off s, Off) const { return pivot[s]; }
};
template <class C> constexpr bool is_chosen_pivot = false;
template <class P> constexpr bool is_chosen_pivot<chosen_pivot<P>> = true;

template <class T, class Off, class Chooser>
device_value<index_t> count_three_ways_with(pivoted_segments<T, Off>& segs, const Chooser& chooser) {
    return labelled_scalar("count_three_ways", segs.size(), [&]() -> device_value<index_t> {
        const std::size_t n = segs.size();
        const stream_t s = segs.keys.stream();
        if (n < 2 || three_way_by_tiles<T, Off>()) {
            device_value<index_t> descents(s);  // the tile pass adds into it
            backend::fill_zero(descents.ptr(), sizeof(index_t), s, "count_three_ways (descents)");
            if (n < 2) return descents;
#if defined(SCANVEC_BACKEND_CUDA)
            if constexpr (three_way_by_tiles<T, Off>()) {
                if (n <= std::size_t(std::numeric_limits<std::int32_t>::max())) {
                    static_assert(sizeof(index_t) == sizeof(unsigned long long), "the tile pass adds 64-bit words");
                    three_way_count_by_tiles(segs.keys.data(), segs.start.data(), segs.length.data(),
                                             segs.pivot.data(), chooser, n, segs.counts.data(), segs.finished.data(),
                                             segs.splits, reinterpret_cast<unsigned long long*>(descents.ptr()), s);
                    return descents;
                }
            }
#endif
        }
        if constexpr (!is_chosen_pivot<Chooser>) choose_pivots(segs, chooser);
        using C = tw_counts<Off>;
        auto i = lazy::index(n);
        const auto& a = segs.keys;
        auto f = lazy::map(compare_to_pivot{}, a, lazy::back_permute(segs.pivot, segs.start));
        segs.counts = inclusive_scan(lazy::map(count_of<Off>{}, f), typename C::op{});
        auto descent = lazy::map(descent_in_segment{}, a, lazy::back_permute(a, lazy::map(previous{}, i)), segs.start, i);
        return reduce_to_device(lazy::map(flag_to_count{}, descent));
    });
}
}  // namespace detail

/// Counts, in every segment, the keys less than and equal to its pivot
/// (kept in segs.counts for split_three_ways); returns the descents, the
/// positions i inside a segment with keys[i] < keys[i-1]: 0 when every
/// segment is sorted. One host synchronisation (the returned count).
template <class T, class Off> index_t count_three_ways(pivoted_segments<T, Off>& segs) {
    return count_three_ways_to_device(segs).get();
}

/// The same, the descents left on the device: a program that queues the
/// split before it reads them (get()) keeps the GPU busy while it waits.
template <class T, class Off> device_value<index_t> count_three_ways_to_device(pivoted_segments<T, Off>& segs) {
    using P = decltype(detail::reader(segs.pivot));
    return detail::count_three_ways_with(segs, detail::chosen_pivot<P>{detail::reader(segs.pivot)});
}

/// The same, choosing each segment's pivot first as choose_pivots(segs,
/// chooser) does; on CUDA tiles in the same pass (each tile chooses the
/// pivots of the segments it holds, where their part of it begins, so a
/// segment of m tiles is chosen m times: worth it for choosers of few reads).
template <class T, class Off, class Chooser> index_t count_three_ways(pivoted_segments<T, Off>& segs, const Chooser& chooser) {
    return detail::count_three_ways_with(segs, chooser).get();
}

/// Splits every segment three ways around its pivot, stably: its keys less
/// than the pivot, then those equal, then the greater. The less and greater
/// parts become segments; each equal key a finished segment of one. Needs the
/// counts of count_three_ways on the same state.
template <class T, class Off> pivoted_segments<T, Off> split_three_ways(pivoted_segments<T, Off>& segs) {
    return detail::labelled("split_three_ways", segs.size(), [&] {
        const std::size_t n = segs.size();
        pivoted_segments<T, Off> out;
        out.pivot = std::move(segs.pivot);
        out.tile_heads = std::move(segs.tile_heads);
        out.block_sort_queue = std::move(segs.block_sort_queue);
        out.finished = std::move(segs.finished);
        out.splits = segs.splits + 1;
        if (n < 2) {
            out.keys = std::move(segs.keys);
            out.start = std::move(segs.start);
            out.length = std::move(segs.length);
            return out;
        }
#if defined(SCANVEC_BACKEND_CUDA)
        if constexpr (detail::three_way_by_tiles<T, Off>()) {
            if (n <= std::size_t(std::numeric_limits<std::int32_t>::max())) {
                // into the buffers of two states ago (finished tiles are skipped: they hold them already)
                const bool spare = segs.spare_keys.size() == n;
                out.length = vector<Off>(n, no_init);
                out.counts = vector<typename detail::tw_counts<Off>::word>(n, no_init);
                out.keys = spare ? std::move(segs.spare_keys) : vector<T>(n, no_init);
                out.start = spare ? std::move(segs.spare_start) : vector<Off>(n, no_init);
                detail::three_way_split_by_tiles(segs.keys.data(), segs.start.data(), segs.length.data(),
                                                 out.pivot.data(), segs.counts.data(), n, out.keys.data(),
                                                 out.start.data(), out.length.data(), out.counts.data(),
                                                 out.tile_heads.data(), out.block_sort_queue.data(),
                                                 detail::block_sort_queue_slots(out.block_sort_queue.size()), out.finished.data(), segs.splits,
                                                 segs.keys.stream());
                out.spare_keys = std::move(segs.keys);
                out.spare_start = std::move(segs.start);
                return out;
            }
        }
#endif
        auto i = lazy::index(n);
        const auto& start = segs.start;
        auto f = lazy::map(detail::compare_to_pivot{}, segs.keys, lazy::back_permute(out.pivot, start));
        const detail::counts_before<Off, decltype(detail::reader(segs.counts))> upto{detail::reader(segs.counts)};
        auto end = lazy::map(detail::segment_end<Off, decltype(detail::reader(segs.length))>{detail::reader(segs.length)},
                             start);
        // where each element goes and the segment it lands in
        auto place = materialize(lazy::map(detail::three_way_place<Off>{}, f, lazy::map(upto, i), lazy::map(upto, start),
                                           lazy::map(upto, end), start, end, i));
        auto dest = lazy::map(detail::place_dest{}, place);
        out.keys = permute(segs.keys, dest, unchecked);
        out.start = permute(lazy::map(detail::place_start{}, place), dest, unchecked);
        out.length = permute(lazy::map(detail::place_length{}, place), dest, unchecked);
        return out;
    });
}

}  // namespace scanvec
