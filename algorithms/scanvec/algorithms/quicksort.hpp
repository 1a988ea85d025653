// scanvec/algorithms/quicksort.hpp - Blelloch's segmented quicksort.
//
//   sv::quicksort(a)                      a sorted ascending (any type with a SCANVEC_HD operator<)
//   sv::quicksort(a, &rounds)             and the number of rounds taken
//   sv::quicksort_rounds(a)               {sorted, rounds}
//   sv::quicksort_rounds(a, on_round)     every round of the model down to segments of one (no
//                                         base case), calling on_round(round, keys, heads) after
//                                         each (heads: a lazy vector of the new head flags)
//
// Floating keys: -0 and +0 are equal keys (either order is sorted); with NaN,
// which compares false with every key, no order is promised, but every key is
// kept and the sort ends.
//
// Every segment is split in the same round, so a round is a constant number of
// primitive steps (the three-way split family, three_way_split.hpp) whatever
// the number of segments, and the rounds are the depth of the recursion:
// O(log n) expected. Traced (sv::trace), each round is a call "round" that
// shows the book's picture of it (A, Seg-Flags, Pivots, F, Index, A',
// Seg-Flags') with its steps beneath. How it runs, why, and what it measured:
// docs/design/quicksort.md.
#pragma once

#include <scanvec/primitives/detail/common/one_device_only.hpp>
#include <scanvec/primitives/three_way_split.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

SCANVEC_NAMESPACE_BEGIN

/// The sorted vector and the number of rounds the segmented quicksort took.
template <class T> struct quicksort_result {
    vector<T> sorted;
    int rounds = 0;
    std::size_t size() const { return sorted.size(); }
};

namespace detail {

struct is_head {
    template <class Pos> SCANVEC_HD bool operator()(Pos start, index_t i) const { return index_t(start) == i; }
};

SCANVEC_HD inline std::uint64_t mix64(std::uint64_t x) {  // splitmix64's finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/// The pivot of the segment of len keys from start. A segment shorter than
/// 2^14 keys takes the ninther of nine positions hashed from (start, round),
/// one in each ninth of the segment; a longer one the median of 256 keys, one
/// hashed position in each 256th. Both split sorted, reversed and random input
/// near the middle and need no randomness in the input. The median lands
/// near the middle more surely than a ninther, which saves the last rounds,
/// whose few long segments every pass waits for; there are few such
/// segments to pay for its 256 reads. Called by one thread; the CUDA tile
/// passes choose a long segment's pivot with a warp instead (is_wide,
/// narrow, wide_sample: the same median, docs/design/quicksort.md).
struct ninther {
    std::uint64_t round;
    static constexpr std::uint64_t wide = std::uint64_t(1) << 14;
    static constexpr int wide_samples = 256;
    template <class Keys, class Pos> SCANVEC_HD auto operator()(const Keys& keys, Pos start, Pos len) const {
        using T = std::decay_t<decltype(keys[start])>;
        if (!is_wide(len)) return narrow(keys, start, len);
        T x[wide_samples];
        for (int k = 0; k < wide_samples; ++k) x[k] = wide_sample(keys, start, len, k);
        sort_samples(x);
        return x[wide_samples / 2];
    }
    template <class Pos> SCANVEC_HD static bool is_wide(Pos len) { return std::uint64_t(len) >= wide; }
    /// The ninther of a segment shorter than `wide`.
    template <class Keys, class Pos> SCANVEC_HD auto narrow(const Keys& keys, Pos start, Pos len) const {
        using T = std::decay_t<decltype(keys[start])>;
        T x[9];
        load_nine(keys, start, len, mix64(std::uint64_t(start) * 0x9e3779b97f4a7c15ull + round), x);
        return ninth_of(x);
    }
    /// Sample k (0..255) of a long segment: the key at start + floor(len * (k
    /// + r / 128) / 256), r from 7 bits of a hash of (start, round, k). Exact
    /// while len * 2^15 < 2^64.
    template <class Keys, class Pos> SCANVEC_HD auto wide_sample(const Keys& keys, Pos start, Pos len, int k) const {
        const std::uint64_t h = mix64(std::uint64_t(start) * 0x9e3779b97f4a7c15ull + round + std::uint64_t(k));
        const std::uint64_t step = std::uint64_t(k) * 128 + (h & 127);
        return keys[start + Pos(std::uint64_t(len) * step / (std::uint64_t(wide_samples) * 128))];
    }
    /// The samples in ascending order (a bitonic network: the same
    /// comparisons whatever the keys, so it ends whatever operator< does).
    template <class T> SCANVEC_HD static void sort_samples(T (&x)[wide_samples]) {
        for (int k = 2; k <= wide_samples; k <<= 1)
            for (int j = k >> 1; j > 0; j >>= 1)
                for (int i = 0; i < wide_samples; ++i) {
                    const int l = i ^ j;
                    if (l <= i) continue;
                    const bool up = (i & k) == 0;
                    if (up ? x[l] < x[i] : x[i] < x[l]) {
                        const T t = x[i];
                        x[i] = x[l];
                        x[l] = t;
                    }
                }
    }
    /// x <- the keys at one position in each ninth of the segment, drawn by the
    /// hash h: start + floor(len * (k + r / 128) / 9), r from 7 bits of h. In
    /// integers over a divisor known at compile time, no division at run time
    /// (docs/design/quicksort.md). Exact while len * 9 * 128 < 2^64.
    template <class T, class Keys, class Pos>
    SCANVEC_HD static void load_nine(const Keys& keys, Pos start, Pos len, std::uint64_t h, T (&x)[9]) {
        constexpr std::uint64_t steps = 9 * 128;  // 128 steps in each ninth
        SCANVEC_UNROLL
        for (int k = 0; k < 9; ++k) {
            const std::uint64_t step = std::uint64_t(k) * 128 + ((h >> (7 * k)) & 127);  // < steps
            x[k] = keys[start + Pos(std::uint64_t(len) * step / steps)];
        }
    }
    template <class T> SCANVEC_HD static T ninth_of(const T (&x)[9]) {
        return median(median(x[0], x[3], x[6]), median(x[1], x[4], x[7]), median(x[2], x[5], x[8]));
    }
    template <class T> SCANVEC_HD static T median(const T& a, const T& b, const T& c) {
        if (a < b) return b < c ? b : (a < c ? c : a);
        return a < c ? a : (b < c ? c : b);
    }
};

/// The book's picture of one round, for a trace that shows its vectors
/// (sv::trace): the keys and segments as the pivots are chosen, then the
/// keys and segments the split made. Read back to the host only when shown.
template <class T, class Pos> struct round_picture {
    bool shown = false;
    std::vector<T> keys, pivot;
    std::vector<Pos> start;

    explicit round_picture(std::size_t n) {
        auto& obs = runtime::observation();
        if constexpr (std::is_arithmetic_v<T>) shown = obs.current && obs.current->wants_values(n);
        (void)obs;
    }
    void before(const pivoted_segments<T, Pos>& segs) {
        if constexpr (std::is_arithmetic_v<T>) {
            if (!shown) return;
            keys = segs.keys.to_host();
            pivot = segs.pivot.to_host();
            start = segs.start.to_host();
        } else {
            (void)segs;
        }
    }
    /// Rows A, Seg-Flags, Pivots (each segment's pivot over all of it; a
    /// segment of one is its own), F (<, = or > than the pivot), Index (where
    /// the three-way split sends each key), then A' and Seg-Flags' as split.
    void after(const pivoted_segments<T, Pos>& segs) {
        if constexpr (std::is_arithmetic_v<T>) draw(segs); else (void)segs;
    }
    void draw(const pivoted_segments<T, Pos>& segs) {
        if (!shown) return;
        const std::size_t n = keys.size();
        std::vector<std::size_t> end(n);  // one past each key's segment
        for (std::size_t i = n; i-- > 0;) end[i] = (i + 1 == n || std::size_t(start[i + 1]) == i + 1) ? i + 1 : end[i + 1];
        std::vector<std::string> heads(n), pivots(n), flags(n), index(n), new_heads(n);
        std::vector<int> cls(n);  // 0 less, 1 equal, 2 greater
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t s = std::size_t(start[i]);
            const T p = end[i] - s >= 2 ? pivot[s] : keys[i];
            cls[i] = keys[i] < p ? 0 : (p < keys[i] ? 2 : 1);
            heads[i] = s == i ? "T" : "F";
            pivots[i] = table::cell(p);
            flags[i] = cls[i] == 0 ? "<" : (cls[i] == 1 ? "=" : ">");
        }
        for (std::size_t s = 0; s < n; s = end[s]) {  // stable: less, then equal, then greater
            std::size_t at = s;
            for (int c = 0; c < 3; ++c)
                for (std::size_t i = s; i < end[s]; ++i)
                    if (cls[i] == c) index[i] = std::to_string(at++);
        }
        const auto keys_after = segs.keys.to_host();
        const auto start_after = segs.start.to_host();
        std::vector<std::string> a(n), a_after(n);
        for (std::size_t i = 0; i < n; ++i) {
            a[i] = table::cell(keys[i]);
            a_after[i] = table::cell(keys_after[i]);
            new_heads[i] = std::size_t(start_after[i]) == i ? "T" : "F";
        }
        table t;
        t.row_cells("A", a).row_cells("Seg-Flags", heads).row_cells("Pivots", pivots).row_cells("F", flags);
        t.row_cells("Index", index).row_cells("A'", a_after).row_cells("Seg-Flags'", new_heads);
        if (auto* obs = runtime::observation().current) obs->model_view(t, 5);
    }
};

struct no_round_callback {
    template <class... X> void operator()(const X&...) const {}
};

//   procedure quicksort(A)
//       Seg-Flags[0] <- T
//       while not every segment of A is sorted
//           sort each short segment at once                the base case
//           Pivots <- seg-distribute(a pivot of each segment, Seg-Flags)
//           F      <- Pivots <=> A                           less, equal or greater
//           A      <- seg-split(A, F, Seg-Flags)             three ways, in every segment
//           Seg-Flags <- new-seg-flags(A, Pivots, Seg-Flags)
//
// The loop's test is the descents (A[i] < A[i-1] inside a segment), counted
// with F; the host reads them after the round's split is queued. Unwatched,
// the rounds after the first count F as they split (count_split_three_ways:
// one pass on CUDA), and the test becomes whether any key was left unsorted.
// Where the state's rounds allocate nothing and wait for nothing and are
// long enough to pay for a graph (repeats_on_device: CUDA tiles, from
// three_way_rounds_on_device_from keys), the rounds after the first are queued once and the device repeats
// them while a key is unsorted (runtime/repeat_on_device.hpp): the host waits once.
template <class Pos, class A, class OnRound>
quicksort_result<value_t<A>> quicksort_in(const A& input, OnRound& on_round, bool base_case) {
    using T = value_t<A>;
    quicksort_result<T> out;
    // Unwatched, the host queues round r+1 before it reads round r's test
    // (from the second round on): the GPU never idles while the host reads
    constexpr bool run_ahead = std::is_same_v<OnRound, no_round_callback>;
    // Seg-Flags[0] <- T: one segment, the whole vector (read where it is until
    // the first split, unless a trace pictures the rounds or no base case
    // runs first: first_segments)
    pivoted_segments<T, Pos> segs =
        detail::first_segments<Pos>(input, base_case && !round_picture<T, Pos>(input.size()).shown);
    std::uint64_t queued = 0;
    const auto pivots = [&] {
        // the base case: every short segment sorted at once, its keys finished
        if (base_case) sort_short_segments(segs);
        // Pivots <- a pivot of each segment, at its head
        choose_pivots(segs, ninther{queued++});
    };
    const auto round = [&] {  // queues one round; returns its test, on its way to the host
        return labelled("round", segs.size(), [&] {
            pivots();
            round_picture<T, Pos> picture(segs.size());  // shown by a trace only
            picture.before(segs);
            if (run_ahead && queued > 1 && !picture.shown) {
                // F <- A <=> Pivots[Start] and A <- seg-split(A, F) three ways, in any order within
                // each class, in one call; Seg-Flags <- less | each equal alone | greater
                auto [next, unsorted] = count_split_three_ways(segs, any_order);
                segs = std::move(next);
                return unsorted.fetch();
            }
            // F <- A <=> Pivots[Start], counted per segment, with the descents (the first
            // round's stop sorted input before a key moves)
            auto descents = count_three_ways_to_device(segs).fetch();
            // A <- seg-split(A, F) three ways; Seg-Flags <- less | each equal alone | greater.
            // A sort needs no order within a class; a picture shows the book's stable split
            segs = picture.shown ? split_three_ways(segs) : split_three_ways(segs, any_order);
            picture.after(segs);
            return descents;
        });
    };
    auto descents = round();
    for (;;) {
        std::optional<decltype(descents)> next;
        if (run_ahead && out.rounds > 0) next = round();
        // stop when every segment was sorted (its split moved no key out of order)
        if (descents.get() == 0) break;
        ++out.rounds;
        on_round(out.rounds, static_cast<const vector<T>&>(segs.keys),
                 lazy::map(is_head{}, segs.start, lazy::index(segs.size())));
        if (run_ahead && repeats_on_device(segs)) {
            // the rounds after the first on the device, two at a time (the
            // state's buffers alternate), while a key is left unsorted
            device_value<index_t> unsorted;
            out.rounds += int(runtime::repeat_on_device(2, [&] {
                                  pivots();
                                  segs = count_split_three_ways(segs, any_order, unsorted);
                                  return static_cast<const index_t*>(unsorted.ptr());
                              }).nonzero);
            break;
        }
        descents = next ? std::move(*next) : round();
    }
    out.sorted = std::move(segs.keys);
    return out;
}

template <class A, class OnRound> quicksort_result<value_t<A>> quicksort_with(const A& a, OnRound on_round, bool base_case) {
    return labelled({"quicksort", {"A"}, "Sorted"}, a.size(), [&] {
        if (a.size() <= std::numeric_limits<std::uint32_t>::max())
            return quicksort_in<std::uint32_t>(a, on_round, base_case);
        return quicksort_in<std::uint64_t>(a, on_round, base_case);
    }, a);
}

}  // namespace detail

/// Sorts ascending by Blelloch's segmented quicksort, round after round down
/// to segments of one (no base case: every split is shown), calling
/// on_round(round, keys, heads) after each round; returns the sorted vector
/// and the rounds taken.
template <class A, class OnRound> quicksort_result<value_t<A>> quicksort_rounds(const A& a, OnRound on_round) {
    static_assert(detail::has_less_v<value_t<A>>,
                  "sv::quicksort: the element type needs a SCANVEC_HD operator< (bool operator<(const T&, const T&))");
    if constexpr (detail::has_less_v<value_t<A>>) return detail::quicksort_with(a, on_round, false);
    else return {};
}

/// Sorts ascending by segmented quicksort with its base case; returns the
/// sorted vector and the rounds taken.
template <class A> quicksort_result<value_t<A>> quicksort_rounds(const A& a) {
    static_assert(detail::has_less_v<value_t<A>>,
                  "sv::quicksort: the element type needs a SCANVEC_HD operator< (bool operator<(const T&, const T&))");
    if constexpr (detail::has_less_v<value_t<A>>) return detail::quicksort_with(a, detail::no_round_callback{}, true);
    else return {};
}

/// Sorts ascending by Blelloch's segmented quicksort (any type with a SCANVEC_HD operator<).
template <class A> vector<value_t<A>> quicksort(const A& a) { return quicksort_rounds(a).sorted; }

/// The same, storing the number of rounds taken in *rounds.
template <class A> vector<value_t<A>> quicksort(const A& a, int* rounds) {
    auto r = quicksort_rounds(a);
    if (rounds) *rounds = r.rounds;
    return std::move(r.sorted);
}

// A sv::dist::vector: one error that names sv::dist::quicksort (primitives/detail/common/one_device_only.hpp).
SCANVEC_DETAIL_ONE_DEVICE_ONLY(quicksort, dist::vector<T>)

SCANVEC_NAMESPACE_END
