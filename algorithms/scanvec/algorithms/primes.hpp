// scanvec/algorithms/primes.hpp - the primes up to n by the sieve of Eratosthenes.
//
// NESL's sieve: the primes up to sqrt(n), found the same way, are the only
// ones that strike; every one of them gets a slot for each of its multiples
// from its square on, and all the multiples are struck out in one write of
// false, however many primes strike the same number:
//
//   procedure primes(n)                            the primes p <= n
//       if n < 2 then return []
//       S     <- primes(floor(sqrt(n)))             the sieving primes
//       C     <- allocate(floor(n / S) - S + 1)     a slot per multiple p*p, p*(p+1), ..., <= n
//       M     <- distribute(S, C) * (distribute(S, C) + index(C))
//       Prime <- distribute(true, n + 1) <- {(m, false) : m in M}
//       pack(index(n + 1), Prime and index(n + 1) >= 2)
//
// Cost: the multiples number sum over p <= sqrt(n) of n / p, so O(n log log n)
// work; the recursion has O(log log n) levels (n, sqrt(n), n^(1/4), ...), each
// a constant number of steps.
//
// Contract: sv::primes(n) returns the primes p with 2 <= p <= n in ascending
// order, as T (n's integer type; an empty vector for n < 2). The write of
// false is a collision write (sv::write: several primes may strike one number).
#pragma once

#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/nested.hpp>
#include <scanvec/primitives/write.hpp>

#include <cmath>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN
namespace detail::sieve {

/// floor(sqrt(n)), exactly.
inline index_t isqrt(index_t n) {
    index_t r = index_t(std::sqrt(double(n)));
    while (r > 0 && r * r > n) --r;
    while ((r + 1) * (r + 1) <= n) ++r;
    return r;
}

/// The multiples of p from p * p up to n: n / p - p + 1 of them.
template <class T> struct multiples_from_square {
    index_t n;
    SCANVEC_HD index_t operator()(const T& p) const { return n / index_t(p) - index_t(p) + 1; }
};
/// Slot j of prime p: the multiple p * (p + j).
template <class T> struct multiple {
    SCANVEC_HD index_t operator()(const T& p, index_t j) const { return index_t(p) * (index_t(p) + j); }
};
/// Position i is a prime: not struck and at least 2.
struct prime_at {
    SCANVEC_HD bool operator()(bool unstruck, index_t i) const { return unstruck && i >= 2; }
};

template <class T> vector<T> sieve(index_t n) {
    if (n < 2) return vector<T>();
    // S <- primes(floor(sqrt(n)))
    vector<T> s = sieve<T>(isqrt(n));
    // C <- allocate(floor(n / S) - S + 1)
    segments c = allocate(lazy::map(multiples_from_square<T>{n}, s));
    // M <- distribute(S, C) * (distribute(S, C) + index(C))
    vector<T> p = distribute(s, c);
    vector<index_t> j = index(c);
    auto m = lazy::map(multiple<T>{}, p, j);
    // Prime <- distribute(true, n + 1) <- {(m, false)}
    vector<bool> prime = write(vector<bool>(std::size_t(n) + 1, true), m, lazy::distribute(false, m.size()), unchecked);  // multiples <= n
    // pack(index(n + 1), Prime and index >= 2)
    return pack(lazy::index<T>(std::size_t(n) + 1), lazy::map(prime_at{}, prime, lazy::index(std::size_t(n) + 1)));
}

}  // namespace detail::sieve

/// The primes p with 2 <= p <= n, ascending, by the sieve of Eratosthenes.
template <class T> vector<T> primes(T n) {
    static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>, "sv::primes(n): n must be an integer");
    const index_t limit = std::is_signed_v<T> && n < T(1) ? 0 : index_t(n);  // below 2 there are none
    return detail::labelled("primes", std::size_t(limit), [&] { return detail::sieve::sieve<T>(limit); });
}

SCANVEC_NAMESPACE_END
