// scanvec/primitives/detail/three_way/rounds.hpp - a segmented quicksort's
// rounds, run as fast as the three-way family allows: the engine behind
// algorithms/quicksort.hpp, whose program says only what a round does.
//
// A round of the book's loop is: the base case, a pivot for each segment,
// the three-way split, the new segment flags; the loop stops when the split
// moved no key out of order. The engine owns what makes that fast and is not
// the book's text:
//   - the first state reads the program's keys in place (first_segments);
//   - the loop's test (the descents, or the keys left unsorted) is counted on
//     the device with the split and read by the host one round late: unwatched,
//     the host queues round r+1 before it reads round r's test, so the GPU
//     never idles while the host reads;
//   - after the first round the count and split run as one call
//     (count_split_three_ways; one pass on CUDA tiles);
//   - where a state's rounds allocate nothing and wait for nothing
//     (repeats_on_device: CUDA tiles from three_way_rounds_on_device_from
//     keys) the rounds after the first are captured once and repeated by the
//     device while a key is unsorted (runtime/repeat_on_device.hpp);
//   - under a trace that shows values, each round is a call "round" with the
//     book's picture of it (picture.hpp) and the stable split.
// docs/design/quicksort.md says why and what each measured.
#pragma once

#include <scanvec/primitives/detail/three_way/picture.hpp>
#include <scanvec/primitives/three_way_split.hpp>
#include <scanvec/runtime/device_value.hpp>
#include <scanvec/runtime/repeat_on_device.hpp>

#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// Whether a form can make a first state that reads a program's keys where they are (begin_over).
template <class Impl, class = void> struct begins_over_keys : std::false_type {};
template <class Impl> struct begins_over_keys<Impl, std::void_t<decltype(&Impl::begin_over)>> : std::true_type {};

/// A program's first state: one segment over `input`, which the program
/// holds unchanged until the state's first split (quicksort's input). Where
/// `in_place` allows it and the form can (CUDA tiles: reads_in_place), the
/// state reads the keys where they are until that split, and its own keys
/// and starts are written by later splits: no copy of the keys and no fill
/// of the starts before the first pass, no zeroed pivots (the tile form
/// reads a pivot only where one was chosen). Such a state's keys, starts and
/// pivots are not for the program to read before its first split (a program
/// that shows them passes in_place = false); every call of the family runs on it.
/// Otherwise pivoted_segments(a copy of input).
template <class Pos, class A> pivoted_segments<value_t<A>, Pos> first_segments(const A& input, bool in_place) {
    using T = value_t<A>;
    using impl = three_way_impl<T, Pos>;
    if constexpr (begins_over_keys<impl>::value && std::is_pointer_v<decltype(reader(input))>) {
        const std::size_t n = input.size();
        if (in_place && impl::reads_in_place(n)) {
            pivoted_segments<T, Pos> segs;
            segs.keys = vector<T>(n, no_init);
            segs.start = vector<Pos>(n, no_init);
            segs.length = vector<Pos>(n, no_init);
            segs.pivot = vector<T>(n, no_init);
            impl::begin_over(segs, reader(input));
            return segs;
        }
    }
    return pivoted_segments<T, Pos>(materialize(input));
}

/// count_three_ways(segs), the descents left on the device: a program that
/// queues the split before it reads them (get()) keeps the GPU busy while it
/// waits. Model: as count_three_ways. Does not wait for the device.
template <class T, class Pos> device_value<index_t> count_three_ways_to_device(pivoted_segments<T, Pos>& segs) {
    return detail::labelled_scalar("count_three_ways", segs.size(), [&] {
        using P = decltype(detail::reader(segs.pivot));
        return detail::three_way_impl<T, Pos>::count(segs, detail::chosen_pivot<P>{detail::reader(segs.pivot)});
    });
}

/// Counts and splits in one call, each class in any order: no
/// count_three_ways before it. Returns the split state and, left on the
/// device, a number that is 0 only when every segment of segs was sorted
/// (then no key's order changed). Where the split counts for itself (on CUDA
/// tiles, integer keys below 2^31: counts_in_split) the number is 0 exactly
/// when every key of segs was finished, and a sorted segment of two or more
/// keys is split like any other; elsewhere it is the descents of a count
/// before the split. So a program that must stop at once on sorted input
/// counts its first round (count_three_ways_to_device), as quicksort does.
/// Model: as count_three_ways then split_three_ways; on CUDA tiles one pass
/// over the keys and a pass over the equal and greater parts' positions
/// instead of two over the keys. Does not wait for the device.
template <class T, class Pos>
std::pair<pivoted_segments<T, Pos>, device_value<index_t>> count_split_three_ways(pivoted_segments<T, Pos>& segs, any_order_t) {
    if constexpr (detail::three_way_impl<T, Pos>::counts_in_split) {
        std::optional<device_value<index_t>> unsorted;
        auto next = detail::labelled("count_split_three_ways", segs.size(), [&] {
            auto r = detail::three_way_impl<T, Pos>::count_split_any_order(segs);
            unsorted.emplace(std::move(r.second));
            return std::move(r.first);
        });
        return {std::move(next), std::move(*unsorted)};
    } else {
        device_value<index_t> descents = count_three_ways_to_device(segs);
        return {split_three_ways(segs, any_order), std::move(descents)};
    }
}

/// Whether a form counts and splits into a word of the caller's (three_way_tiles).
template <class Impl, class Segs, class = void> struct counts_split_into : std::false_type {};
template <class Impl, class Segs>
struct counts_split_into<Impl, Segs,
                         std::void_t<decltype(Impl::count_split_any_order(std::declval<Segs&>(),
                                                                          std::declval<device_value<index_t>&>()))>>
    : std::true_type {};
/// Whether a form's rounds can run in a loop on the device (three_way_tiles).
template <class Impl, class = void> struct rounds_repeat : std::false_type {};
template <class Impl> struct rounds_repeat<Impl, std::void_t<decltype(&Impl::repeats_on_device)>> : std::true_type {};

/// Whether rounds of sort_short_segments, choose_pivots and
/// count_split_three_ways(segs, any_order, word) on segs can be repeated by
/// the device (runtime::repeat_on_device, period 2: a state's buffers
/// alternate): on CUDA tiles of at least three_way_rounds_on_device_from
/// keys, with runtime::device_loops(), while no observer (a trace) is
/// installed, which would see only the two rounds queued.
template <class T, class Pos> bool repeats_on_device(const pivoted_segments<T, Pos>& segs) {
    using impl = detail::three_way_impl<T, Pos>;
    if constexpr (detail::rounds_repeat<impl>::value) {
        return impl::repeats_on_device(segs.size()) && runtime::device_loops() && !runtime::observation().current;
    } else {
        (void)segs;
        return false;
    }
}

/// The same, the number left in `unsorted` (the caller's, rewritten). On
/// CUDA tiles a state's rounds of it allocate nothing once two splits have
/// made the buffers they alternate between, and wait for nothing: the same
/// launches on the same memory every second round, which a loop on the
/// device can repeat (runtime/repeat_on_device.hpp).
/// Model: as count_split_three_ways(segs, any_order). Does not wait for the device.
template <class T, class Pos>
pivoted_segments<T, Pos> count_split_three_ways(pivoted_segments<T, Pos>& segs, any_order_t, device_value<index_t>& unsorted) {
    using impl = detail::three_way_impl<T, Pos>;
    if constexpr (detail::counts_split_into<impl, pivoted_segments<T, Pos>>::value) {
        return detail::labelled("count_split_three_ways", segs.size(),
                                [&] { return impl::count_split_any_order(segs, unsorted); });
    } else {
        return detail::number_into(count_split_three_ways(segs, any_order), unsorted);
    }
}

struct no_round_callback {
    template <class... X> void operator()(const X&...) const {}
};

struct is_head {
    template <class Pos> SCANVEC_HD bool operator()(Pos start, index_t i) const { return index_t(start) == i; }
};

/// The split a round's body calls (segs = split(segs)): counts F <- Pivots
/// <=> A, splits three ways and leaves the round's test with the engine.
/// fused: count and split in one call (rounds after the first, unwatched);
/// else the descents counted before the split, which is stable when the
/// round is pictured.
template <class T, class Pos, class Test> struct round_split {
    bool fused;
    round_picture<T, Pos>& picture;
    std::optional<Test>& test;
    pivoted_segments<T, Pos> operator()(pivoted_segments<T, Pos>& segs) const {
        picture.before(segs);
        if (fused) {
            auto [next, unsorted] = count_split_three_ways(segs, any_order);
            test.emplace(unsorted.fetch());
            return std::move(next);
        }
        test.emplace(count_three_ways_to_device(segs).fetch());
        auto next = picture.shown ? split_three_ways(segs) : split_three_ways(segs, any_order);
        picture.after(next);
        return next;
    }
};

/// The split of a round the device repeats: counted and split in one call,
/// the keys left unsorted in the loop's word.
template <class T, class Pos> struct device_round_split {
    device_value<index_t>& unsorted;
    pivoted_segments<T, Pos> operator()(pivoted_segments<T, Pos>& segs) const {
        return count_split_three_ways(segs, any_order, unsorted);
    }
};

/// Runs round(split, r) for r = 0, 1, ... until a round's split moved no key
/// out of order; calls on_round(rounds, keys, heads) after each round that
/// moved one (heads: a lazy vector of the new head flags). Returns the rounds
/// that moved keys. round may allocate only while the device does not repeat
/// it (a loop on the device replays its launches).
template <class T, class Pos, class Round, class OnRound>
int run_three_way_rounds(pivoted_segments<T, Pos>& segs, Round round, OnRound& on_round) {
    using test_t = decltype(std::declval<device_value<index_t>&>().fetch());
    constexpr bool run_ahead = std::is_same_v<OnRound, no_round_callback>;  // nothing to show between rounds
    std::uint64_t queued = 0;
    const auto queue_round = [&] {  // queues one round; returns its test, on its way to the host
        return labelled("round", segs.size(), [&] {
            round_picture<T, Pos> picture(segs.size());  // shown by a trace only
            std::optional<test_t> test;
            const std::uint64_t r = queued++;
            round(round_split<T, Pos, test_t>{run_ahead && r > 0 && !picture.shown, picture, test}, r);
            return std::move(*test);
        });
    };
    int rounds = 0;
    auto test = queue_round();
    for (;;) {
        std::optional<test_t> next;
        if (run_ahead && rounds > 0) next = queue_round();
        if (test.get() == 0) break;  // every segment was sorted: its split moved no key out of order
        ++rounds;
        on_round(rounds, static_cast<const vector<T>&>(segs.keys), lazy::map(is_head{}, segs.start, lazy::index(segs.size())));
        if (run_ahead && repeats_on_device(segs)) {
            // the rounds after the first on the device, two at a time (the state's
            // buffers alternate), while a key is left unsorted
            device_value<index_t> unsorted;
            rounds += int(runtime::repeat_on_device(2, [&] {
                              round(device_round_split<T, Pos>{unsorted}, queued++);
                              return static_cast<const index_t*>(unsorted.ptr());
                          }).nonzero);
            break;
        }
        test = next ? std::move(*next) : queue_round();
    }
    return rounds;
}

/// Whether a trace will picture the rounds of a sort of n keys of type T
/// (then the first state is a copy the picture can read).
template <class T> bool rounds_pictured(std::size_t n) { return round_picture<T, std::uint32_t>(n).shown; }

}  SCANVEC_NAMESPACE_END  // detail
