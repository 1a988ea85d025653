// scanvec/algorithms/split.hpp - Blelloch's split, written as the book writes it.
//
//   procedure split(A, Flags)
//       I-down <- enumerate(not(Flags))
//       I-up   <- n - back-enumerate(Flags) - 1
//       Index  <- if Flags then I-up else I-down
//       permute(A, Index)
//
//   sv::split_by_enumerate(a, flags)   that program, one primitive call per line
//
// Elements with false flags come first, then those with true flags, each group
// in its original order: the same result as the primitive sv::split
// (primitives/split.hpp), which runs the same index in fewer passes.
#pragma once

#include <scanvec/algorithms/program_traits.hpp>
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/split.hpp>

SCANVEC_NAMESPACE_BEGIN
namespace detail {

struct flag_is_clear {
    template <class F> SCANVEC_HD bool operator()(const F& f) const { return !f; }
};

/// n - c - 1: a count of elements after i turned into a position from the top.
struct from_the_top {
    index_t n;
    SCANVEC_HD index_t operator()(index_t c) const { return n - c - 1; }
};

struct if_flag_then_else {
    template <class F> SCANVEC_HD index_t operator()(const F& flag, index_t up, index_t down) const {
        return flag ? up : down;
    }
};

}  // namespace detail

/// Stable split by Blelloch's program: enumerate, back-enumerate, permute.
/// Model: O(n) work, 3 steps (two scans and a permute); does not wait for the
/// device. sv::split gives the same result in 2 steps.
/// The same text runs on sv::dist::vector (<scanvec/dist.hpp>).
template <class A, class Flags>
detail::program_vector_t<A, detail::program_value_t<A>> split_by_enumerate(const A& a, const Flags& flags) {
    static_assert(std::is_integral_v<detail::program_value_t<Flags>>, "flags must be sv::vector<bool> or hold integers");
    using lazy = detail::lazy_views_t<A>;
    return detail::labelled({"split_by_enumerate", {"A", "Flags"}, "Split"}, a.size(), [&] {
        detail::expect_same_length("split_by_enumerate", a.size(), flags.size());
        const index_t n = index_t(a.size());
        // I-down <- enumerate(not(Flags))
        auto down = enumerate(lazy::map(detail::flag_is_clear{}, flags));
        // I-up <- n - back-enumerate(Flags) - 1, back-enumerate(Flags) = the true flags after i
        auto after = backward_scan(lazy::map(detail::flag_to_count{}, flags));
        auto up = lazy::map(detail::from_the_top{n}, after);
        // Index <- if Flags then I-up else I-down
        auto index = lazy::map(detail::if_flag_then_else{}, flags, up, down);
        // permute(A, Index): a permutation by construction, so unchecked
        return permute(a, index, unchecked);
    }, a, flags);
}

SCANVEC_NAMESPACE_END
