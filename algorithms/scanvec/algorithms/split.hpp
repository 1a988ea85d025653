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

#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/lazy_scan.hpp>
#include <scanvec/primitives/multisplit.hpp>
#include <scanvec/primitives/split.hpp>

SCANVEC_NAMESPACE_BEGIN
namespace detail {

/// What a book program needs to know of the kind of vector it runs on, so that
/// one program text runs on every kind. Here one device: sv::vector and the
/// lazy views, whose results are sv::vector; <scanvec/dist.hpp> specializes it
/// for sv::dist::vector. The primitives themselves are called unqualified and
/// found by the argument's kind (sv::split, or sv::dist::split by
/// argument-dependent lookup); the lazy views are reached through `lazy`,
/// which a program names at block scope (`using lazy = detail::lazy_views_t<A>;`)
/// so that its text keeps `lazy::map(...)`. Each member here only forwards to
/// sv::lazy: on one device a program compiles to the same passes as before.
template <class A, class = void> struct program_traits {
    using value_type = value_t<A>;
    template <class T> using vector_type = vector<T>;
    struct lazy {
        template <class F, class... S> static auto map(F f, const S&... s) { return scanvec::lazy::map(f, s...); }
        static auto index(std::size_t n) { return scanvec::lazy::index(n); }
        template <class X> static auto radix_digit(const X& keys, int lo, int k) {
            return scanvec::lazy::radix_digit(keys, lo, k);
        }
        template <class X, class Op> static auto scan(const X& x, Op op) { return scanvec::lazy::scan(x, op); }
    };
    /// An empty result of element type T for input `like` (on its communicator, for distributed inputs).
    template <class T> static vector<T> empty(const A&) { return vector<T>(); }
};

/// The element type of a program's input A.
template <class A> using program_value_t = typename program_traits<A>::value_type;
/// The vector of T a program returns for input A (sv::vector<T> on one device).
template <class A, class T> using program_vector_t = typename program_traits<A>::template vector_type<T>;
/// The lazy views on A's kind of vector (sv::lazy on one device).
template <class A> using lazy_views_t = typename program_traits<A>::lazy;

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
    return detail::labelled("split_by_enumerate", a.size(), [&] {
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
