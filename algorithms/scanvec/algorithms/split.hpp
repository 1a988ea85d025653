// scanvec/algorithms/split.hpp - Blelloch's split: a stable partition by flags.
//
//   procedure split(A, Flags)
//       I-down <- enumerate(not(Flags))
//       I-up   <- n - back-enumerate(Flags) - 1
//       Index  <- if Flags then I-up else I-down
//       permute(A, Index)
//
// Elements with false flags come first, then those with true flags, each group
// in its original order. I-up needs no second scan: the trues before i number
// i - I-down[i], so n - back-enumerate(Flags)[i] - 1 = F + i - I-down[i], with
// F the number of falses. I-down is a lazy scan and never stored: the permute
// consumes it in its own pass. F stays on the device (reduce_to_device), so
// the host never waits between the two passes and a split radix sort makes no
// host round trip at all. On CUDA the permute recognises this index
// (split_form) and moves it tile by tile: inside a tile of consecutive
// elements the falses and the trues land as two contiguous runs, so each tile
// ranks its elements in shared memory and writes both runs with coalesced
// stores (detail/split_tiles.hpp). The host backend hands each prefix of the
// scan straight to its element's store.
#pragma once

#include <scanvec/primitives/lazy_scan.hpp>

namespace scanvec {
namespace detail {

struct split_index {
    const index_t* falses;  // on the device
    template <class F> SCANVEC_HD index_t operator()(const F& flag, index_t down, index_t i) const {
        return flag ? read_only(falses) + (i - down) : down;
    }
};

template <> struct split_form<split_index> : std::true_type {};

}  // namespace detail

/// Stable split: elements whose flag is false first, then those whose flag is true.
template <class A, class Flags> vector<value_t<A>> split(const A& a, const Flags& flags) {
    detail::expect_flags<Flags>();
    return detail::labelled("split", a.size(), [&] {
        detail::expect_same_length("split", a.size(), flags.size());
        auto not_flags = lazy::map(detail::flag_not_to_count{}, flags);
        // F <- the number of falses
        const auto falses = reduce_to_device(not_flags);
        // I-down <- enumerate(not(Flags))
        auto down = lazy::scan(not_flags);
        // Index <- if Flags then I-up else I-down,  I-up = F + i - I-down
        auto index = lazy::map(detail::split_index{falses.ptr()}, flags, down, lazy::index(a.size()));
        // permute(A, Index): a permutation by construction
        return permute(a, index, unchecked);
    }, a, flags);
}

}  // namespace scanvec
