// scanvec/primitives/random.hpp - counter-based random numbers.
//
//   sv::random<T>(n, seed)            r[i] = a random T (see below), i < n
//   sv::random<T>(n, seed, lo, hi)    integers uniform in [lo, hi], floating point uniform in [lo, hi)
//   sv::lazy::random<T>(n, seed, round)  round r's numbers (r a sv::device_value, a loop's call):
//                                     those of seed key(seed) + r
//
// Each has a lazy twin in sv::lazy that returns a view (a transform iterator
// over a counting iterator): the numbers are computed inside the primitive that
// consumes them, so sv::count(sv::lazy::map(coin, sv::lazy::random<float>(n, s)))
// never writes them to memory.
//
// The contract:
//   - The value at position i is a pure function of (seed, i): no state, no
//     order of evaluation, no dependence on n. The same (seed, i) gives the same
//     value in every call, lazily or materialised, on either backend; the CUDA
//     and host backends give bit-identical results (integer arithmetic only, and
//     one correctly rounded fused multiply-add for floating-point ranges).
//   - The generator is SplitMix64 addressed by position: the seed is mixed into a
//     64-bit key, and the 64-bit word at position i is
//         mix(key + (i + 1) * 0x9E3779B97F4A7C15)
//     where mix is SplitMix64's finaliser (xor-shift 30, multiply
//     0xBF58476D1CE4E5B9, xor-shift 27, multiply 0x94D049BB133111EB,
//     xor-shift 31). The key is mix(seed + 0x9E3779B97F4A7C15). Not for
//     cryptography.
//   - From the word w (unsigned 64 bits):
//       integers of 8..64 bits   the top bits of w: uniform over all values of T
//       bool                     the top bit of w: a fair coin
//       float                    (w >> 40) * 2^-24: uniform in [0, 1), multiples of 2^-24
//       double                   (w >> 11) * 2^-53: uniform in [0, 1), multiples of 2^-53
//       integers in [lo, hi]     lo + mulhi(w, hi - lo + 1) (the high 64 bits of the
//                                128-bit product; w itself for the full 64-bit range);
//                                the bias is at most (hi - lo + 1) / 2^64 per value
//       floating in [lo, hi)     fma(hi/2 - lo/2, 2u, lo) for u the [0, 1) value above:
//                                lo + (hi - lo) u with one rounding after the product,
//                                the width halved so that wide ranges do not overflow;
//                                a result that rounds up to hi becomes the largest
//                                value below hi. lo == hi gives lo.
//   - lo > hi throws sv::error naming both bounds; so do floating bounds that are
//     not finite.
#pragma once

#include <scanvec/primitives/detail/random/streams.hpp>
#include <scanvec/runtime/label.hpp>
#include <scanvec/runtime/sequence.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN

namespace lazy {

/// n random values of T (integers and bool over all values, float and double in
/// [0, 1)), the value at i a function of (seed, i) only; computed when consumed.
template <class T> auto random(std::size_t n, std::uint64_t seed) {
    detail::expect_random_type<T>();
    return view(thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                detail::random_values<T>{detail::random_key(seed)}),
                n);
}

/// Round `round` of seed's numbers: the n values of random<T>(n, key + round)
/// for seed's key (key = mix(seed + 0x9E3779B97F4A7C15), above), the round
/// read on the device when the values are consumed: a stream of its own for
/// each round of a loop the device repeats (the body's call number,
/// runtime/loop.hpp). The view borrows round.
template <class T> auto random(std::size_t n, std::uint64_t seed, const device_value<std::uint64_t>& round) {
    detail::expect_random_type<T>();
    return view(thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                detail::round_random_values<T>{detail::random_key(seed), round.ptr()}),
                n);
}

/// n random values uniform in [lo, hi] (integers) or [lo, hi) (floating point);
/// computed when consumed. Throws sv::error when lo > hi.
template <class T> auto random(std::size_t n, std::uint64_t seed, T lo, T hi) {
    return view(thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), detail::random_in(seed, lo, hi)),
                n);
}

}  // namespace lazy

/// n random values of T (integers and bool over all values, float and double in
/// [0, 1)); the value at i depends only on (seed, i), identically on both backends.
/// O(n) work, one step; queued (no wait).
template <class T> vector<T> random(std::size_t n, std::uint64_t seed) {
    return detail::labelled("random", n, [&] { return materialize(lazy::random<T>(n, seed)); });
}

/// n random values uniform in [lo, hi] (integers) or [lo, hi) (floating point).
/// Throws sv::error, naming both bounds, when lo > hi. O(n) work, one step; queued.
template <class T> vector<T> random(std::size_t n, std::uint64_t seed, T lo, T hi) {
    return detail::labelled("random", n, [&] { return materialize(lazy::random<T>(n, seed, lo, hi)); });
}

SCANVEC_NAMESPACE_END
