// scanvec/algorithms/quicksort.hpp - Blelloch's segmented quicksort.
//
//   procedure quicksort(A)
//       Seg-Flags[0] <- T
//       while not every segment of A is sorted
//           Pivots <- seg-distribute(a pivot of each segment, Seg-Flags)
//           F      <- Pivots <=> A                           less, equal or greater
//           A      <- seg-split(A, F, Seg-Flags)             three ways, in every segment
//           Seg-Flags <- new-seg-flags(A, Pivots, Seg-Flags)
//
// Every segment is split in the same round, so a round is a constant number of
// passes over the whole vector whatever the number of segments, and the rounds
// are the depth of the recursion: O(log n) expected.
//
// How the program holds the segments. Each element carries three positions,
// set for its segment in the previous round: Start and End, where its segment
// begins and ends (the head flags are Start[i] = i), and Pivot, where its
// segment's pivot lies. The pivot across a segment is then the gather
// A[Pivot] (every element of a segment reads one address).
//
// The three-way split counts with ONE unsegmented +-scan. C[i] holds i's two
// counts (is it less, is it equal) in one word, and Incl <- +-scan(C),
// inclusive, over the whole vector. The counts of a segment before any of its
// positions are then differences of Incl: before i in its segment,
// Incl[i-1] - Incl[Start-1]; in the whole segment, Incl[End-1] - Incl[Start-1].
// So a segmented enumerate of each class and the segment totals all come from
// one plain scan of machine words (CUB's fastest scan), read at i, at Start
// and at End (the last two: one address per segment). The new segments are
// known at every position from the old segment's bounds and totals, so the
// new (Start, End, Pivot) is one map after the permute.
//
// Pivots: the median of three medians of three (the ninther) of nine positions
// hashed from (segment start, round), one in each ninth of the segment. On
// sorted, reversed or random input this splits near the middle, and it needs
// no randomness in the input: expected rounds about log2 n + a tail of small
// segments (about 38 at 2^24 random keys, about 30 at 2^20). The elements
// equal to the pivot are finished: each becomes a segment of its own (Start =
// Pivot = i), compares equal to itself and never moves again; all-equal input
// and few distinct keys finish in a round per distinct key along a path.
//
// Termination: the loop ends when no segment holds a descent (A[i] < A[i-1]
// with i not a head), a count (a reduce): sorted input takes no round at all.
// That count is the round's one host synchronisation.
//
// Cost per round, n elements of b bytes, 4-byte positions (8-byte above 2^32
// elements, then the counts are two words): the scan reads A and Pivot and
// writes Incl (8 bytes); the permute reads A, Pivot, Start, End and Incl and
// writes A; the new-segment map reads Start and End and writes (Start, End,
// Pivot); the count reads A and Start. For 32-bit keys: 72 bytes per element
// per round in 4 passes plus one host read, each pass a plain CUB scan,
// transform or reduce. Measured (H100, 2^24 random int32, ncu): 38 rounds of
// 0.54 ms - new state 0.18, permute 0.17, scan 0.11, count 0.06 - 20 ms in
// all, 47x cub::DeviceRadixSort. (Segmented scans of 12-byte structs took
// 0.99 ms a round: CUB runs such types with its generic policy, each scan
// costing ~8 memcpys of the keys.) The rounds, not the passes, set the total:
// any round-by-round quicksort reads and writes every key every round.
//
//   sv::quicksort(a)                      a sorted ascending (any type with a SCANVEC_HD operator<)
//   sv::quicksort(a, &rounds)             and the number of rounds taken
//   sv::quicksort_rounds(a)               {sorted, rounds}
//   sv::quicksort_rounds(a, on_round)     calls on_round(round, keys, heads) after each round
//                                         (heads: a lazy vector of the new head flags)
#pragma once

#include <scanvec/primitives/lazy_scan.hpp>
#include <scanvec/primitives/segmented.hpp>

#include <cstdint>
#include <limits>
#include <utility>

namespace scanvec {

/// The sorted vector and the number of rounds the segmented quicksort took.
template <class T> struct quicksort_result {
    vector<T> sorted;
    int rounds = 0;
    std::size_t size() const { return sorted.size(); }
};

namespace detail {

/// Per element: where its segment starts and ends (one past its last) and where its pivot lies.
template <class Off> struct qs_state {
    Off start;
    Off end;
    Off pivot;
};
/// A segment: its first position and one past its last.
template <class Off> struct qs_range {
    Off start;
    Off end;
};

// Struct-of-arrays description (SCANVEC_FIELDS written out for a template).
template <class Off>
field_list<qs_state<Off>, &qs_state<Off>::start, &qs_state<Off>::end, &qs_state<Off>::pivot>
scanvec_fields_of(qs_state<Off>*) {
    return {};
}

enum : std::uint8_t { qs_less = 0, qs_equal = 1, qs_greater = 2 };

struct compare_to_pivot {
    template <class T> SCANVEC_HD std::uint8_t operator()(const T& x, const T& pivot) const {
        return x < pivot ? qs_less : (pivot < x ? qs_greater : qs_equal);
    }
};

/// The two counts of an element (is it less, is it equal) as one summable word.
template <class Off> struct qs_counts;
/// 32-bit positions: less in the high half of a 64-bit word, equal in the low
/// half. Neither half can overflow into the other (each count is below 2^32),
/// and a later prefix minus an earlier one borrows nothing.
template <> struct qs_counts<std::uint32_t> {
    using word = std::uint64_t;
    using op = plus<word>;
    static SCANVEC_HD word of(std::uint8_t c) { return c == qs_less ? word(1) << 32 : word(c == qs_equal); }
    static SCANVEC_HD word minus(word a, word b) { return a - b; }
    static SCANVEC_HD std::uint32_t less(word w) { return std::uint32_t(w >> 32); }
    static SCANVEC_HD std::uint32_t equal(word w) { return std::uint32_t(w); }
};
struct qs_pair64 {
    std::uint64_t less;
    std::uint64_t equal;
};
SCANVEC_FIELDS(qs_pair64, less, equal)
/// 2^32 elements or more: two 64-bit counts.
template <> struct qs_counts<std::uint64_t> {
    using word = qs_pair64;
    struct op {
        SCANVEC_HD word operator()(const word& a, const word& b) const { return {a.less + b.less, a.equal + b.equal}; }
        SCANVEC_HD word identity() const { return {0, 0}; }
    };
    static SCANVEC_HD word of(std::uint8_t c) { return {c == qs_less, c == qs_equal}; }
    static SCANVEC_HD word minus(const word& a, const word& b) { return {a.less - b.less, a.equal - b.equal}; }
    static SCANVEC_HD std::uint64_t less(const word& w) { return w.less; }
    static SCANVEC_HD std::uint64_t equal(const word& w) { return w.equal; }
};

template <class Off> struct count_of {
    SCANVEC_HD typename qs_counts<Off>::word operator()(std::uint8_t c) const { return qs_counts<Off>::of(c); }
};

/// The counts over positions [0, k): Incl[k-1], nothing for k = 0.
template <class Off, class Incl> struct counts_before {
    Incl incl;
    SCANVEC_HD typename qs_counts<Off>::word operator()(index_t k) const {
        return k ? typename qs_counts<Off>::word(incl[k - 1]) : typename qs_counts<Off>::op{}.identity();
    }
};

struct is_head {
    template <class Off> SCANVEC_HD bool operator()(Off start, index_t i) const { return index_t(start) == i; }
};

struct previous {
    SCANVEC_HD index_t operator()(index_t i) const { return i > 0 ? i - 1 : 0; }
};

/// A[i] < A[i-1] inside a segment (i not a head).
struct descent_in_segment {
    template <class T, class Off> SCANVEC_HD bool operator()(const T& x, const T& before, Off start, index_t i) const {
        return index_t(start) != i && x < before;
    }
};

/// Where element i goes: less first, then equal, then greater, in its segment.
/// before, base, through: the counts before i, before its segment, through its segment.
template <class Off> struct destination {
    using C = qs_counts<Off>;
    template <class W>
    SCANVEC_HD index_t operator()(std::uint8_t c, const W& before, const W& base, const W& through, Off start,
                                  index_t i) const {
        const W in = C::minus(before, base), all = C::minus(through, base);
        const Off less = C::less(in), equal = C::equal(in);
        if (c == qs_less) return index_t(start + less);
        if (c == qs_equal) return index_t(start + C::less(all) + equal);
        return index_t(start + C::less(all) + C::equal(all) + (Off(i - index_t(start)) - less - equal));
    }
};

/// The segment position i belongs to after the split: less [s, s+L), each
/// equal element alone (finished), greater [s+L+E, end).
template <class Off> struct new_segment {
    using C = qs_counts<Off>;
    template <class W> SCANVEC_HD qs_range<Off> operator()(Off start, Off end, const W& base, const W& through,
                                                           index_t i) const {
        const W all = C::minus(through, base);
        const Off j = Off(i), less_end = Off(start + C::less(all)), equal_end = Off(less_end + C::equal(all));
        if (j < less_end) return {start, less_end};
        if (j < equal_end) return {j, Off(j + 1)};
        return {equal_end, end};
    }
};

SCANVEC_HD inline std::uint64_t mix64(std::uint64_t x) {  // splitmix64's finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/// (Start, End, Pivot) for an element of segment seg: the pivot is the ninther
/// of nine positions hashed from (segment start, round), one in each ninth of
/// the segment. keys reads A at any position (a lazy back-permute of A).
template <class Off, class Keys> struct ninther_pivot {
    Keys keys;
    std::uint64_t round;
    SCANVEC_HD qs_state<Off> operator()(const qs_range<Off>& seg) const {
        const Off len = Off(seg.end - seg.start);
        if (len == 1) return {seg.start, seg.end, seg.start};  // finished
        const std::uint64_t h = mix64(std::uint64_t(seg.start) * 0x9e3779b97f4a7c15ull + round);
        Off at[9];
        for (int k = 0; k < 9; ++k) {
            // u in [k/9, (k+1)/9) from 7 bits of the hash; the sample is start + floor(len * u)
            const double u = (double(k) + double((h >> (7 * k)) & 127) * (1.0 / 128)) * (1.0 / 9);
            const Off off = Off(double(len) * u);
            at[k] = Off(seg.start + (off < len ? off : Off(len - 1)));
        }
        return {seg.start, seg.end,
                median(median(at[0], at[3], at[6]), median(at[1], at[4], at[7]), median(at[2], at[5], at[8]))};
    }
    /// The position holding the median of the three keys.
    SCANVEC_HD Off median(Off i, Off j, Off k) const {
        using T = typename std::iterator_traits<Keys>::value_type;
        const T a = keys[i], b = keys[j], c = keys[k];
        if (a < b) return b < c ? j : (a < c ? k : i);
        return a < c ? i : (b < c ? k : j);
    }
};

/// (Start, End, Pivot) of every element for the segments seg, the pivots chosen in A.
template <class Off, class T, class Seg>
vector<qs_state<Off>> with_pivots(const vector<T>& a, const Seg& seg, std::uint64_t round) {
    auto keys = lazy::back_permute(a, lazy::index(a.size())).begin();
    return map(ninther_pivot<Off, decltype(keys)>{keys, round}, seg);
}

template <class Off, class A, class OnRound> quicksort_result<value_t<A>> quicksort_in(const A& input, OnRound& on_round) {
    using T = value_t<A>;
    using C = qs_counts<Off>;
    const std::size_t n = input.size();
    quicksort_result<T> out{materialize(input), 0};
    if (n < 2) return out;
    vector<T>& a = out.sorted;
    auto i = lazy::index(n);
    // Seg-Flags[0] <- T: one segment, the whole vector, with its pivot
    auto state = with_pivots<Off>(a, lazy::distribute(qs_range<Off>{Off(0), Off(n)}, n), 0);
    auto descents = [&] {
        const auto& start = state.template field<&qs_state<Off>::start>();
        return count(lazy::map(descent_in_segment{}, a, lazy::back_permute(a, lazy::map(previous{}, i)), start, i));
    };
    // while not every segment is sorted
    while (descents() > 0) {
        const auto& start = state.template field<&qs_state<Off>::start>();
        const auto& end = state.template field<&qs_state<Off>::end>();
        const auto& pivot_at = state.template field<&qs_state<Off>::pivot>();
        // Pivots <- each segment's pivot across it: A[Pivot]
        auto pivots = lazy::back_permute(a, pivot_at);
        // F <- Pivots <=> A: less, equal or greater
        auto f = lazy::map(compare_to_pivot{}, a, pivots);
        // Incl <- +-scan(C), inclusive: C[i] = (F[i] = less, F[i] = equal) as one word
        const auto incl = inclusive_scan(lazy::map(count_of<Off>{}, f), typename C::op{});
        //   the counts before i, before its segment (at Start) and through its segment (at End)
        const counts_before<Off, decltype(detail::reader(incl))> upto{detail::reader(incl)};
        auto before = lazy::map(upto, i);
        auto base = lazy::map(upto, start);
        auto through = lazy::map(upto, end);
        // Index <- Start + (less: less before i | equal: L + equal before i | greater: L + E + greater before i)
        auto index = lazy::map(destination<Off>{}, f, before, base, through, start, i);
        // A <- permute(A, Index): a permutation by construction
        a = permute(a, index, unchecked);
        // Seg-Flags <- new-seg-flags: less | each equal alone | greater, with their pivots
        state = with_pivots<Off>(a, lazy::map(new_segment<Off>{}, start, end, base, through, i),
                                 std::uint64_t(++out.rounds));
        on_round(out.rounds, static_cast<const vector<T>&>(a),
                 lazy::map(is_head{}, state.template field<&qs_state<Off>::start>(), i));
    }
    return out;
}

struct no_round_callback {
    template <class... X> void operator()(const X&...) const {}
};

}  // namespace detail

/// Sorts ascending by Blelloch's segmented quicksort, calling on_round(round,
/// keys, heads) after each round; returns the sorted vector and the rounds taken.
template <class A, class OnRound> quicksort_result<value_t<A>> quicksort_rounds(const A& a, OnRound on_round) {
    return detail::labelled("quicksort", a.size(), [&] {
        if (a.size() <= std::numeric_limits<std::uint32_t>::max())
            return detail::quicksort_in<std::uint32_t>(a, on_round);
        return detail::quicksort_in<std::uint64_t>(a, on_round);
    }, a);
}

/// Sorts ascending by segmented quicksort; returns the sorted vector and the rounds taken.
template <class A> quicksort_result<value_t<A>> quicksort_rounds(const A& a) {
    return quicksort_rounds(a, detail::no_round_callback{});
}

/// Sorts ascending by Blelloch's segmented quicksort (any type with a SCANVEC_HD operator<).
template <class A> vector<value_t<A>> quicksort(const A& a) { return quicksort_rounds(a).sorted; }

/// The same, storing the number of rounds taken in *rounds.
template <class A> vector<value_t<A>> quicksort(const A& a, int* rounds) {
    auto r = quicksort_rounds(a);
    if (rounds) *rounds = r.rounds;
    return std::move(r.sorted);
}

}  // namespace scanvec
