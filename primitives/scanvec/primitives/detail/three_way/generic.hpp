// scanvec/primitives/detail/three_way/generic.hpp - the three-way split family written once against Thrust.
//
// Any element type, both backends. The counts are one unsegmented +-scan of
// (is less, is equal) packed in a word; a segment's counts before a position
// are differences of that scan read at the position and at the segment's head,
// its totals the difference at its end; the split is a permute by the places
// those give. Also here: the bookkeeping every form keeps in a state
// (three_way_bookkeeping), which the CUDA tile form (three_way/cuda/tiles.hpp) fills.
// docs/design/quicksort.md says how the family runs.
#pragma once

#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/detail/three_way/place.hpp>
#include <scanvec/primitives/detail/three_way/policy.hpp>
#include <scanvec/primitives/elementwise.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/scan.hpp>
#include <scanvec/runtime/device_value.hpp>

#include <cstdint>
#include <utility>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

SCANVEC_NAMESPACE_BEGIN

template <class T, class Pos> struct pivoted_segments;

namespace detail {

enum : std::uint8_t { three_way_less = 0, three_way_equal = 1, three_way_greater = 2 };

struct compare_to_pivot {
    template <class T> SCANVEC_HD std::uint8_t operator()(const T& x, const T& pivot) const {
        return x < pivot ? three_way_less : (pivot < x ? three_way_greater : three_way_equal);
    }
};

/// The two counts of an element (is it less, is it equal) as one summable word.
template <class Pos> struct three_way_counts;
/// 32-bit positions: less in the high half of a 64-bit word, equal in the low
/// half. Neither half can overflow into the other (each count is below 2^32),
/// and a later prefix minus an earlier one borrows nothing.
template <> struct three_way_counts<std::uint32_t> {
    using word = std::uint64_t;
    using op = plus<word>;
    static SCANVEC_HD word of(std::uint8_t c) { return c == three_way_less ? word(1) << 32 : word(c == three_way_equal); }
    static SCANVEC_HD word minus(word a, word b) { return a - b; }
    static SCANVEC_HD std::uint32_t less(word w) { return std::uint32_t(w >> 32); }
    static SCANVEC_HD std::uint32_t equal(word w) { return std::uint32_t(w); }
};
struct three_way_counts64 {
    std::uint64_t less;
    std::uint64_t equal;
};
SCANVEC_FIELDS(three_way_counts64, less, equal)
/// 2^32 elements or more: two 64-bit counts.
template <> struct three_way_counts<std::uint64_t> {
    using word = three_way_counts64;
    struct op {
        SCANVEC_HD word operator()(const word& a, const word& b) const { return {a.less + b.less, a.equal + b.equal}; }
        SCANVEC_HD word identity() const { return {0, 0}; }
    };
    static SCANVEC_HD word of(std::uint8_t c) { return {c == three_way_less, c == three_way_equal}; }
    static SCANVEC_HD word minus(const word& a, const word& b) { return {a.less - b.less, a.equal - b.equal}; }
    static SCANVEC_HD std::uint64_t less(const word& w) { return w.less; }
    static SCANVEC_HD std::uint64_t equal(const word& w) { return w.equal; }
};

template <class Pos> struct count_of {
    SCANVEC_HD typename three_way_counts<Pos>::word operator()(std::uint8_t c) const { return three_way_counts<Pos>::of(c); }
};

/// The counts over positions [0, k): Incl[k-1], nothing for k = 0.
template <class Pos, class Incl> struct counts_before {
    Incl incl;
    SCANVEC_HD typename three_way_counts<Pos>::word operator()(index_t k) const {
        return k ? typename three_way_counts<Pos>::word(incl[k - 1]) : typename three_way_counts<Pos>::op{}.identity();
    }
};

/// One past the last position of i's segment: start + length[start].
template <class Pos, class Len> struct segment_end {
    Len length;
    SCANVEC_HD index_t operator()(Pos start) const { return index_t(start) + index_t(length[start]); }
};

/// A[i] < A[i-1] inside a segment (i not a head).
struct descent_in_segment {
    template <class T, class Pos> SCANVEC_HD bool operator()(const T& x, const T& before, Pos start, index_t i) const {
        return index_t(start) != i && x < before;
    }
};

struct previous {
    SCANVEC_HD index_t operator()(index_t i) const { return i > 0 ? i - 1 : 0; }
};

template <class Pos>
field_list<three_way_place<Pos>, &three_way_place<Pos>::dest, &three_way_place<Pos>::start, &three_way_place<Pos>::length>
scanvec_fields_of(three_way_place<Pos>*) {
    return {};
}

/// i's place after the split, its new segment's start and that segment's length.
/// before, base, through: the counts before i, before its segment, through its segment.
template <class Pos> struct place_after_split {
    using C = three_way_counts<Pos>;
    template <class W>
    SCANVEC_HD three_way_place<Pos> operator()(std::uint8_t c, const W& before, const W& base, const W& through, Pos start,
                                               index_t end, index_t i) const {
        const W in = C::minus(before, base), all = C::minus(through, base);
        const Pos less = Pos(C::less(in)), equal = Pos(C::equal(in));
        const Pos less_all = Pos(C::less(all)), equal_all = Pos(C::equal(all));
        if (c == three_way_less) return {Pos(start + less), start, less_all};
        if (c == three_way_equal) {
            const Pos at = Pos(start + less_all + equal);
            return {at, at, Pos(1)};
        }
        const Pos from = Pos(start + less_all + equal_all);
        return {Pos(from + (Pos(i - index_t(start)) - less - equal)), from, Pos(Pos(end) - from)};
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
template <class Pos, class Keys, class Chooser, class Out> struct pivot_at_heads {
    Keys keys;
    const Pos* start;
    const Pos* length;
    Out pivot;
    index_t n;
    Chooser chooser;
    SCANVEC_HD void operator()(index_t s) const {
        if (index_t(start[s]) != s) return;                       // not a head
        if (s + 1 == n || index_t(start[s + 1]) == s + 1) return;  // a finished segment of one
        pivot[s] = chooser(keys, Pos(s), length[s]);
    }
};

/// Whether s heads a segment of 2 to limit keys and its tile of limit
/// positions heads no longer segment (such a tile waits: see sort_short_segments).
template <class Pos> struct heads_short_segment {
    const Pos* start;
    const Pos* length;
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
template <class T, class Pos, std::size_t Limit, class Keys, class KeysOut> struct sort_short_at_head {
    Keys keys;
    KeysOut keys_out;  // the same memory as keys
    Pos* start;
    Pos* length;
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
            start[s + k] = Pos(s + k);
            length[s + k] = Pos(1);  // the generic split reads every segment's end
        }
    }
};

/// A chooser that keeps the pivots already chosen.
template <class Pivots> struct chosen_pivot {
    Pivots pivot;
    template <class Keys, class Pos> SCANVEC_HD auto operator()(const Keys&, Pos s, Pos) const { return pivot[s]; }
};
template <class C> constexpr bool is_chosen_pivot = false;
template <class P> constexpr bool is_chosen_pivot<chosen_pivot<P>> = true;

/// A form with nothing of its own to keep between calls (the generic and host forms).
struct three_way_no_state {};

/// What a pivoted_segments state keeps besides its keys and segments: the
/// counts every form keeps (what they hold is the form's: the generic form's
/// inclusive scan over all positions of the less and equal counts, the host
/// form's per block, the CUDA tile form's each segment's less and greater
/// totals at its head), how many splits made the state, and the form's own
/// state (Form::state: the CUDA tile form's in three_way/cuda/state.hpp).
template <class T, class Pos, class State> struct three_way_bookkeeping {
    vector<typename three_way_counts<Pos>::word> counts;
    std::uint32_t splits = 0;  ///< how many splits made this state
    State form;
};

/// The implementations' way in to a state's bookkeeping (private in pivoted_segments).
struct three_way_access {
    template <class T, class Pos> static auto& book(pivoted_segments<T, Pos>& segs) {
        return segs.book_;
    }
};

/// A split that counts, its number moved into the caller's word: for forms
/// whose split returns its own word (count_split_three_ways(segs, any_order, word)).
template <class Segments>
Segments number_into(std::pair<Segments, device_value<index_t>> split, device_value<index_t>& word) {
    backend::copy_on_device(word.ptr(), split.second.ptr(), sizeof(index_t), current_stream(),
                            "count_split_three_ways (its number)");
    return std::move(split.first);
}

/// The generic form: each step a few primitive calls over the whole vector.
template <class T, class Pos> struct three_way_generic {
    using segments = pivoted_segments<T, Pos>;
    using state = three_way_no_state;
    using counts = three_way_counts<Pos>;

    static std::size_t short_limit(std::size_t) { return short_sort_limit; }
    static std::size_t short_tile(std::size_t) { return short_sort_limit; }

    /// A new state of one segment, its keys in place: the length at 0.
    static void begin(segments& segs) {
        begin_unwritten(segs);
        if (segs.size() == 0) return;
        backend::write_small(segs.length.data(), Pos(segs.size()), current_stream(), "pivoted_segments (length)");
    }
    /// Its bookkeeping allocated, nothing written (the caller writes the length at 0).
    static void begin_unwritten(segments& segs) {
        three_way_access::book(segs).counts = vector<typename counts::word>(segs.size(), no_init);
    }

    static device_value<index_t> no_descents(stream_t s) {
        device_value<index_t> descents(s);
        backend::fill_zero(descents.ptr(), sizeof(index_t), s, "count_three_ways (descents)");
        return descents;
    }

    template <class Chooser> static void choose_pivots(segments& segs, const Chooser& chooser) {
        const index_t n = index_t(segs.size());
        auto keys = reader(segs.keys);
        auto pivot = writer(segs.pivot);
        using F = pivot_at_heads<Pos, decltype(keys), Chooser, decltype(pivot)>;
        thrust::for_each(policy(current_stream()), thrust::counting_iterator<index_t>(0),
                         thrust::counting_iterator<index_t>(n),
                         F{keys, segs.start.data(), segs.length.data(), pivot, n, chooser});
        backend::check_launch("choose_pivots");
    }

    template <class Chooser> static device_value<index_t> count(segments& segs, const Chooser& chooser) {
        const std::size_t n = segs.size();
        if (n < 2) return no_descents(current_stream());
        if constexpr (!is_chosen_pivot<Chooser>) {  // a step of its own, as the public choose_pivots
            labelled("choose_pivots", n, [&] {
                choose_pivots(segs, chooser);
                return 0;
            });
        }
        auto i = lazy::index(n);
        const auto& a = segs.keys;
        auto f = lazy::map(compare_to_pivot{}, a, lazy::back_permute(segs.pivot, segs.start));
        three_way_access::book(segs).counts = inclusive_scan(lazy::map(count_of<Pos>{}, f), typename counts::op{});
        auto descent = lazy::map(descent_in_segment{}, a, lazy::back_permute(a, lazy::map(previous{}, i)), segs.start, i);
        return reduce_to_device(lazy::map(flag_to_count{}, descent));
    }

    static void sort_short(segments& segs) {
        const std::size_t n = segs.size();
        if (n < 2) return;
        // the heads first, then the sorts: a sort rewrites the starts that name heads
        auto i = lazy::index(n);
        const auto heads = pack(i, lazy::map(heads_short_segment<Pos>{segs.start.data(), segs.length.data(), index_t(n),
                                                                      index_t(short_sort_limit)},
                                             i));
        auto keys = reader(segs.keys);
        auto keys_out = writer(segs.keys);
        using F = sort_short_at_head<T, Pos, short_sort_limit, decltype(keys), decltype(keys_out)>;
        thrust::for_each(policy(current_stream()), heads.data(), heads.data() + heads.size(),
                         F{keys, keys_out, segs.start.data(), segs.length.data()});
        backend::check_launch("sort_short_segments");
    }

    /// The stable split is one of the orders split_three_ways(segs, any_order) allows.
    static segments split_any_order(segments& segs) { return split(segs); }
    /// No split of this form counts: count, then split (the descents say whether every segment was sorted).
    static constexpr bool counts_in_split = false;
    static std::pair<segments, device_value<index_t>> count_split_any_order(segments& segs) {
        device_value<index_t> descents = count(segs, chosen_pivot<decltype(reader(segs.pivot))>{reader(segs.pivot)});
        return {split_any_order(segs), std::move(descents)};
    }

    static segments split(segments& segs) {
        const std::size_t n = segs.size();
        segments out;
        out.pivot = std::move(segs.pivot);
        auto& book = three_way_access::book(out);
        book = std::move(three_way_access::book(segs));
        ++book.splits;
        const auto upto_counts = std::move(book.counts);  // read here; the next count makes its own
        if (n < 2) {
            out.keys = std::move(segs.keys);
            out.start = std::move(segs.start);
            out.length = std::move(segs.length);
            return out;
        }
        auto i = lazy::index(n);
        const auto& start = segs.start;
        auto f = lazy::map(compare_to_pivot{}, segs.keys, lazy::back_permute(out.pivot, start));
        const counts_before<Pos, decltype(reader(upto_counts))> upto{reader(upto_counts)};
        auto end = lazy::map(segment_end<Pos, decltype(reader(segs.length))>{reader(segs.length)}, start);
        // where each element goes and the segment it lands in
        auto place = materialize(lazy::map(place_after_split<Pos>{}, f, lazy::map(upto, i), lazy::map(upto, start),
                                           lazy::map(upto, end), start, end, i));
        auto dest = lazy::map(place_dest{}, place);
        out.keys = permute(segs.keys, dest, unchecked);
        out.start = permute(lazy::map(place_start{}, place), dest, unchecked);
        out.length = permute(lazy::map(place_length{}, place), dest, unchecked);
        return out;
    }
};

}  // namespace detail
SCANVEC_NAMESPACE_END
