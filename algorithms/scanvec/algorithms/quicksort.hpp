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
// How the program holds the segments. Each element carries two positions, set
// for its segment in the previous round: Start, where its segment begins (the
// head flags are Start[i] = i), and Pivot, where its segment's pivot lies.
// The pivot across a segment is then the gather A[Pivot] (every element of a
// segment reads one address), and the new segments of a split are known at
// every position from the old segment's start and its class counts, so the
// new (Start, Pivot) is one map after the permute.
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
// elements): the count reads A and Start; the segmented backward scan reads A,
// Pivot and Start and writes three counts (12 bytes); the permute reads A,
// Pivot and Start and writes A (the segmented enumerate that ranks each class is
// a lazy scan fused into it); the new-segment map reads Start and writes (Start,
// Pivot). The gathers (A[Pivot], counts at Start, the nine samples) hit one
// address per segment. For 32-bit keys: 60 bytes per element per round, 4
// passes plus one host read. 2^24 random keys take about 38 rounds and move
// about 38 GB: some 13 ms on an H100 (3 TB/s) plus 38 x (4 launches + a sync),
// roughly 30x cub::DeviceRadixSort. The rounds, not the passes, set that: any
// round-by-round quicksort reads and writes the keys every round (8 bytes x 38
// rounds = 5 GB at 2^24), and the segments' own state (Start, Pivot, counts)
// is the rest.
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

/// Per element: where its segment starts and where its segment's pivot lies.
template <class Off> struct qs_state {
    Off start;
    Off pivot;
};
/// From i to the end of its segment: elements less than and equal to the pivot, and the last position.
template <class Off> struct qs_tally {
    Off less;
    Off equal;
    Off last;
};
/// From the start of i's segment to i (exclusive): elements less and equal; start marks the segment.
template <class Off> struct qs_before {
    Off start;
    Off less;
    Off equal;
};
/// A segment: its first position and its length.
template <class Off> struct qs_range {
    Off start;
    Off length;
};

// Struct-of-arrays descriptions (SCANVEC_FIELDS written out for templates).
template <class Off>
field_list<qs_state<Off>, &qs_state<Off>::start, &qs_state<Off>::pivot> scanvec_fields_of(qs_state<Off>*) {
    return {};
}
template <class Off>
field_list<qs_tally<Off>, &qs_tally<Off>::less, &qs_tally<Off>::equal, &qs_tally<Off>::last>
scanvec_fields_of(qs_tally<Off>*) {
    return {};
}

enum : std::uint8_t { qs_less = 0, qs_equal = 1, qs_greater = 2 };

struct compare_to_pivot {
    template <class T> SCANVEC_HD std::uint8_t operator()(const T& x, const T& pivot) const {
        return x < pivot ? qs_less : (pivot < x ? qs_greater : qs_equal);
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

template <class Off> struct tally_of {
    SCANVEC_HD qs_tally<Off> operator()(std::uint8_t c, index_t i) const {
        return {Off(c == qs_less), Off(c == qs_equal), Off(i)};
    }
};
template <class Off> struct tally_sum {
    SCANVEC_HD qs_tally<Off> operator()(const qs_tally<Off>& a, const qs_tally<Off>& b) const {
        return {Off(a.less + b.less), Off(a.equal + b.equal), a.last < b.last ? b.last : a.last};
    }
    SCANVEC_HD qs_tally<Off> identity() const { return {0, 0, 0}; }
};

template <class Off> struct before_of {
    SCANVEC_HD qs_before<Off> operator()(Off start, std::uint8_t c) const {
        return {start, Off(c == qs_less), Off(c == qs_equal)};
    }
};
/// + on the counts, restarting where a later segment begins: a segmented +-scan
/// written as a plain scan (starts only grow along the vector, so the larger
/// start is the later segment).
template <class Off> struct before_sum {
    SCANVEC_HD qs_before<Off> operator()(const qs_before<Off>& a, const qs_before<Off>& b) const {
        return a.start < b.start ? b : qs_before<Off>{a.start, Off(a.less + b.less), Off(a.equal + b.equal)};
    }
    SCANVEC_HD qs_before<Off> identity() const { return {0, 0, 0}; }
};

/// Where element i goes: less first, then equal, then greater, in its segment.
template <class Off> struct destination {
    SCANVEC_HD index_t operator()(const qs_before<Off>& before, std::uint8_t c, Off start, const qs_tally<Off>& total,
                                  index_t i) const {
        const bool inside = before.start == start;  // false at a head: nothing before it in its segment
        const Off less = inside ? before.less : Off(0), equal = inside ? before.equal : Off(0);
        if (c == qs_less) return index_t(start + less);
        if (c == qs_equal) return index_t(start + total.less + equal);
        return index_t(start + total.less + total.equal + (Off(i - index_t(start)) - less - equal));
    }
};

/// The segment position i belongs to after the split: less [s, s+L), each
/// equal element alone (finished), greater [s+L+E, last].
template <class Off> struct new_segment {
    SCANVEC_HD qs_range<Off> operator()(Off start, const qs_tally<Off>& total, index_t i) const {
        const Off j = Off(i), less_end = Off(start + total.less), equal_end = Off(less_end + total.equal);
        if (j < less_end) return {start, total.less};
        if (j < equal_end) return {j, Off(1)};
        return {equal_end, Off(total.last + 1 - equal_end)};
    }
};

SCANVEC_HD inline std::uint64_t mix64(std::uint64_t x) {  // splitmix64's finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/// (Start, Pivot) for an element of segment seg: the pivot is the ninther of
/// nine positions hashed from (segment start, round), one in each ninth of the
/// segment. keys reads A at any position (a lazy back-permute of A).
template <class Off, class Keys> struct ninther_pivot {
    Keys keys;
    std::uint64_t round;
    SCANVEC_HD qs_state<Off> operator()(const qs_range<Off>& seg) const {
        if (seg.length == 1) return {seg.start, seg.start};  // finished
        const std::uint64_t h = mix64(std::uint64_t(seg.start) * 0x9e3779b97f4a7c15ull + round);
        const std::uint64_t len = seg.length;
        Off at[9];
        for (int k = 0; k < 9; ++k) {
            // u / 2^32 in [k/9, (k+1)/9), from 7 bits of the hash: the sample is
            // start + floor(length * u / 2^32), without a division
            const std::uint64_t u = (((std::uint64_t(k) << 7) | ((h >> (7 * k)) & 127)) << 32) / 1152;
            at[k] = Off(seg.start + (len >> 32) * u + (((len & 0xffffffffull) * u) >> 32));
        }
        return {seg.start, median(median(at[0], at[3], at[6]), median(at[1], at[4], at[7]), median(at[2], at[5], at[8]))};
    }
    /// The position holding the median of the three keys.
    SCANVEC_HD Off median(Off i, Off j, Off k) const {
        using T = typename std::iterator_traits<Keys>::value_type;
        const T a = keys[i], b = keys[j], c = keys[k];
        if (a < b) return b < c ? j : (a < c ? k : i);
        return a < c ? i : (b < c ? k : j);
    }
};

/// (Start, Pivot) of every element for the segments seg, the pivots chosen in A.
template <class Off, class T, class Seg>
vector<qs_state<Off>> with_pivots(const vector<T>& a, const Seg& seg, std::uint64_t round) {
    auto keys = lazy::back_permute(a, lazy::index(a.size())).begin();
    return map(ninther_pivot<Off, decltype(keys)>{keys, round}, seg);
}

template <class Off, class A, class OnRound> quicksort_result<value_t<A>> quicksort_in(const A& input, OnRound& on_round) {
    using T = value_t<A>;
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
        const auto& pivot_at = state.template field<&qs_state<Off>::pivot>();
        auto heads = lazy::map(is_head{}, start, i);
        // Pivots <- each segment's pivot across it: A[Pivot]
        auto pivots = lazy::back_permute(a, pivot_at);
        // F <- Pivots <=> A: less, equal or greater
        auto f = lazy::map(compare_to_pivot{}, a, pivots);
        // Totals <- segmented backward scans: (less, equal) from i to its segment's end, and that end
        auto tally = segmented_backward_inclusive_scan(lazy::map(tally_of<Off>{}, f, i), heads, tally_sum<Off>{});
        //           so each segment's counts L, E and its last position are read at its start
        auto totals = lazy::back_permute(tally, start);
        // Before <- segmented enumerates of less and of equal: a lazy scan, run inside the permute
        auto before = lazy::scan(lazy::map(before_of<Off>{}, start, f), before_sum<Off>{});
        // Index <- start + (less: Before.less | equal: L + Before.equal | greater: L + E + greater before i)
        auto index = lazy::map(destination<Off>{}, before, f, start, totals, i);
        // A <- permute(A, Index): a permutation by construction
        a = permute(a, index, unchecked);
        // Seg-Flags <- new-seg-flags: less | each equal alone | greater, with their pivots
        state = with_pivots<Off>(a, lazy::map(new_segment<Off>{}, start, totals, i), std::uint64_t(++out.rounds));
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
