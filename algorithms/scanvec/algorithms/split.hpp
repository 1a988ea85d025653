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
// F the number of falses. I-down is a lazy scan: the permute consumes each
// prefix as the scan produces it, so the index vector is never stored. Below
// 2^26 elements F stays on the device (reduce_to_device) and the permute's
// pass reads it there, so the host does not wait between the two passes (a
// round trip of ~20 us, a sixth of a 2^24 split on an H100); above, the one
// read per element costs more than the round trip, and F comes to the host.
#pragma once

#include <scanvec/primitives/lazy_scan.hpp>

namespace scanvec {
namespace detail {

/// F as the index pass reads it: from device memory (at) or as a kernel argument (value).
struct falses_count {
    const index_t* at;
    index_t value;
    SCANVEC_HD index_t get() const { return at ? read_only(at) : value; }
};
inline constexpr std::size_t split_count_on_device_max = std::size_t(1) << 26;
/// F for the index pass of an n-element split (count must outlive the pass).
inline falses_count falses_for_pass(const device_value<index_t>& count, std::size_t n) {
    if (n < split_count_on_device_max) return {count.ptr(), 0};
    return {nullptr, count.get()};
}

struct split_index {
    falses_count falses;
    template <class F> SCANVEC_HD index_t operator()(const F& flag, index_t down, index_t i) const {
        return flag ? falses.get() + (i - down) : down;
    }
};

}  // namespace detail

/// Stable split: elements whose flag is false first, then those whose flag is true.
template <class A, class Flags> vector<value_t<A>> split(const A& a, const Flags& flags) {
    detail::expect_flags<Flags>();
    return detail::labelled("split", a.size(), [&] {
        detail::expect_same_length("split", a.size(), flags.size());
        auto not_flags = lazy::map(detail::flag_not_to_count{}, flags);
        // F <- the number of falses
        const auto count = reduce_to_device(not_flags);
        const auto falses = detail::falses_for_pass(count, a.size());
        // I-down <- enumerate(not(Flags))
        auto down = lazy::scan(not_flags);
        // Index <- if Flags then I-up else I-down,  I-up = F + i - I-down
        auto index = lazy::map(detail::split_index{falses}, flags, down, lazy::index(a.size()));
        // permute(A, Index): a permutation by construction
        return permute(a, index, unchecked);
    }, a, flags);
}

}  // namespace scanvec
