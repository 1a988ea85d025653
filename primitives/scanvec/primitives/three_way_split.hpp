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
//   count_three_ways(segs, chooser)         the pivots chosen as by choose_pivots, then counted
//   segs = split_three_ways(segs)           the permute: less | each equal alone | greater
//   segs = split_three_ways(segs, any_order) the same, each class in any order (all quicksort needs)
//   sort_short_segments(segs)               the base case: every segment of at most
//                                           segs.short_limit() keys sorted at once, finished
//
// A program's rounds of them, the first state read in place, counted splits
// and rounds repeated by the device, are run by detail/three_way/rounds.hpp
// (quicksort's engine).
//
// After the split the less and greater parts are segments of their own and
// every element equal to its pivot is a finished segment of one. Call
// count_three_ways once before each split_three_ways. Pos, the position type,
// must hold n. Each call runs the form detail/three_way/dispatch.hpp picks;
// how the forms run and what they measured: docs/design/quicksort.md.
#pragma once

#include <scanvec/primitives/detail/three_way/dispatch.hpp>
#include <scanvec/runtime/device_value.hpp>

#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

SCANVEC_NAMESPACE_BEGIN

/// Keys held in segments, each segment with a pivot: the state of a program
/// that splits every segment around a pivot, round after round (quicksort).
/// Pos: the position type (std::uint32_t below 2^32 elements, else std::uint64_t).
/// What the passes keep besides (counts, marks, queues, spare buffers) is private.
template <class T, class Pos = std::uint32_t> struct pivoted_segments {
    vector<T> keys;
    vector<Pos> start;   ///< start[i]: where i's segment begins (a head when start[i] == i)
    vector<Pos> length;  ///< length[s] at each head s of a segment of two or more
    vector<T> pivot;     ///< pivot[s] at each such head, set by choose_pivots

    pivoted_segments() = default;
    /// One segment: the whole of keys. (pivot starts zeroed: the generic form
    /// compares a finished segment's head with it, unchosen, and any answer
    /// leaves it in place; a program that shows the state reads it all.)
    /// Does not wait for the device: its set-up is queued on the stream.
    explicit pivoted_segments(vector<T> k)
        : keys(std::move(k)), start(keys.size(), Pos(0)), length(keys.size(), no_init), pivot(keys.size()) {
        detail::three_way_impl<T, Pos>::begin(*this);
    }
    std::size_t size() const { return keys.size(); }

    /// sort_short_segments sorts the segments of at most this many keys: on
    /// CUDA tiles what a block's shared memory holds, else a thread's insertion sort.
    std::size_t short_limit() const { return detail::three_way_impl<T, Pos>::short_limit(size()); }
    /// The tiles of sort_short_segments' waiting rule: a segment of at most
    /// this many keys is sorted with the others headed in its tile of as many
    /// positions. Below short_limit() (integer and floating keys of 4 and 8 bytes on CUDA tiles) the
    /// longer short segments are sorted whole, a block each.
    std::size_t short_tile() const { return detail::three_way_impl<T, Pos>::short_tile(size()); }

  private:
    friend struct detail::three_way_access;
    detail::three_way_bookkeeping<T, Pos, typename detail::three_way_impl<T, Pos>::state> book_;
};


/// pivot[s] <- chooser(keys, s, length[s]) at each head s of a segment of two
/// or more elements; chooser is a SCANVEC_HD functor and keys reads any position.
/// Model: 1 step, O(n) work plus the chooser's reads. Does not wait for the device.
template <class T, class Pos, class Chooser> void choose_pivots(pivoted_segments<T, Pos>& segs, const Chooser& chooser) {
    detail::labelled("choose_pivots", segs.size(), [&] {
        detail::three_way_impl<T, Pos>::choose_pivots(segs, chooser);
        return 0;
    });
}

/// The base case of a segmented sort: sorts segments of 2 to L =
/// segs.short_limit() keys in place, stably, and makes each of their keys a
/// finished segment of one. Positions fall in tiles of W = segs.short_tile();
/// the segments of at most W keys sorted are those headed in a tile where the
/// last split left no head of a segment longer than W (such a tile waits, its
/// short segments splitting on, so that each key is sorted once); those of W
/// to L keys (L > W for integer and floating keys of 4 and 8 bytes on CUDA tiles) are all sorted.
/// Longer segments are left as they are.
/// Model: 1 step, each short segment sorted by one thread (on CUDA tiles one
/// block); O(n) work besides the sorts. Waits for the device once in the generic
/// form (the count of short segments); not on CUDA tiles.
template <class T, class Pos> void sort_short_segments(pivoted_segments<T, Pos>& segs) {
    detail::labelled("sort_short_segments", segs.size(), [&] {
        detail::three_way_impl<T, Pos>::sort_short(segs);
        return 0;
    });
}

/// count_three_ways(segs) below, choosing each segment's pivot first as
/// choose_pivots(segs, chooser) does; on CUDA tiles in the same pass (each tile chooses the
/// pivots of the segments it holds, where their part of it begins, so a
/// segment of m tiles is chosen m times: worth it for choosers of few reads).
/// Model: 3 steps (choose, scan, reduce). Waits for the device once (the returned count).
template <class T, class Pos, class Chooser> index_t count_three_ways(pivoted_segments<T, Pos>& segs, const Chooser& chooser) {
    return detail::labelled_scalar("count_three_ways", segs.size(), [&] {
               return detail::three_way_impl<T, Pos>::count(segs, chooser);
           })
        .get();
}

/// Counts, in every segment, the keys less than and equal to its pivot (kept
/// in segs for split_three_ways); returns the descents, the positions i inside
/// a segment with keys[i] < keys[i-1]: 0 when every segment is sorted.
/// Model: 2 steps, O(n) work (a segmented +-scan of both counts at once, a
/// +-reduce of the descents). Waits for the device once (the returned count).
template <class T, class Pos> index_t count_three_ways(pivoted_segments<T, Pos>& segs) {
    using P = decltype(detail::reader(segs.pivot));
    return count_three_ways(segs, detail::chosen_pivot<P>{detail::reader(segs.pivot)});
}

/// Splits every segment three ways around its pivot, stably: its keys less
/// than the pivot, then those equal, then the greater. The less and greater
/// parts become segments; each equal key a finished segment of one. Needs the
/// counts of count_three_ways on the same state, which it consumes.
/// Model: 1 step, O(n) work (a permute by the places the counts give). Does
/// not wait for the device.
template <class T, class Pos> pivoted_segments<T, Pos> split_three_ways(pivoted_segments<T, Pos>& segs) {
    return detail::labelled("split_three_ways", segs.size(), [&] { return detail::three_way_impl<T, Pos>::split(segs); });
}

/// Asks split_three_ways for the same segments with the keys of each class
/// in any order: a sort needs no more.
struct any_order_t {};
inline constexpr any_order_t any_order{};

/// The same split, each class's keys in any order (the stable order is one):
/// the same segments, starts and lengths, each new segment holding the same
/// keys. After a count that found no descent (every segment sorted) no key
/// moves, as in the stable split. On CUDA tiles integer keys take their places
/// without a look-back across tiles, in an order that may change from run to
/// run; other keys and forms split stably.
/// Model: as split_three_ways. Does not wait for the device.
template <class T, class Pos>
pivoted_segments<T, Pos> split_three_ways(pivoted_segments<T, Pos>& segs, any_order_t) {
    return detail::labelled("split_three_ways", segs.size(),
                            [&] { return detail::three_way_impl<T, Pos>::split_any_order(segs); });
}





SCANVEC_NAMESPACE_END
