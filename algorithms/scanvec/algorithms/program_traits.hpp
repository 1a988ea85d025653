// scanvec/algorithms/program_traits.hpp - what a book program knows of the kind of vector it runs on.
#pragma once

#include <scanvec/primitives/elementwise.hpp>
#include <scanvec/primitives/lazy_scan.hpp>
#include <scanvec/primitives/multisplit.hpp>

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

}  // namespace detail
SCANVEC_NAMESPACE_END
