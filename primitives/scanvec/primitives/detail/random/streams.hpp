// scanvec/primitives/detail/random/streams.hpp - the counter-based streams
// behind sv::random: SplitMix64 words keyed by the seed, mapped to each type's
// range.
#pragma once

#include <scanvec/runtime/device_value.hpp>
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

SCANVEC_NAMESPACE_BEGIN namespace detail {

inline constexpr std::uint64_t random_gamma = 0x9E3779B97F4A7C15ull;

/// SplitMix64's finaliser: a bijection of 64-bit words that mixes every bit into every other.
SCANVEC_HD constexpr std::uint64_t random_mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// The key of a seed.
SCANVEC_HD constexpr std::uint64_t random_key(std::uint64_t seed) { return random_mix(seed + random_gamma); }

/// The 64-bit word at position i of the stream keyed by key.
SCANVEC_HD constexpr std::uint64_t random_word(std::uint64_t key, index_t i) {
    return random_mix(key + (std::uint64_t(i) + 1) * random_gamma);
}

/// The high 64 bits of the 128-bit product a * b.
SCANVEC_HD inline std::uint64_t mul_high(std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__)
    return __umul64hi(a, b);
#else
    return std::uint64_t((unsigned __int128)a * b >> 64);
#endif
}

SCANVEC_HD inline float fused_multiply_add(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
    return fmaf(a, b, c);
#else
    return std::fma(a, b, c);
#endif
}
SCANVEC_HD inline double fused_multiply_add(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
    return ::fma(a, b, c);
#else
    return std::fma(a, b, c);
#endif
}

template <class T> inline constexpr bool random_integer_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <class T> constexpr void expect_random_type() {
    static_assert(std::is_same_v<T, bool> || std::is_same_v<T, float> || std::is_same_v<T, double> ||
                      (random_integer_v<T> && sizeof(T) <= 8),
                  "sv::random<T>: T must be bool, float, double or an integer of 8 to 64 bits");
}

/// A word as a value of T over T's whole range (integers, bool) or in [0, 1) (float, double).
template <class T> SCANVEC_HD T random_unit(std::uint64_t w) {
    if constexpr (std::is_same_v<T, bool>) {
        return (w >> 63) != 0;
    } else if constexpr (std::is_same_v<T, float>) {
        return float(std::uint32_t(w >> 40)) * 0x1p-24f;
    } else if constexpr (std::is_same_v<T, double>) {
        return double(w >> 11) * 0x1p-53;
    } else {
        using U = std::make_unsigned_t<T>;
        return T(U(w >> (64 - 8 * sizeof(T))));
    }
}

/// r(i): a random T over T's whole range, or in [0, 1) for floating point.
template <class T> struct random_values {
    std::uint64_t key;
    SCANVEC_HD T operator()(index_t i) const { return random_unit<T>(random_word(key, i)); }
};

/// r(i) of round *round of the seed whose key is seed_key: the value at i of
/// the seed seed_key + *round (the round read where the value is consumed).
template <class T> struct round_random_values {
    std::uint64_t seed_key;
    const std::uint64_t* round;
    SCANVEC_HD T operator()(index_t i) const {
        return random_unit<T>(random_word(random_key(seed_key + read_only(round)), i));
    }
};

/// r(i): an integer uniform in [lo, lo + span] (span = hi - lo as a 64-bit word).
template <class T> struct random_integers_in {
    std::uint64_t key;
    std::uint64_t lo;    ///< lo, sign-extended to 64 bits
    std::uint64_t span;  ///< hi - lo (mod 2^64); ~0 for the full 64-bit range
    SCANVEC_HD T operator()(index_t i) const {
        const std::uint64_t w = random_word(key, i);
        const std::uint64_t offset = span == ~std::uint64_t(0) ? w : mul_high(w, span + 1);
        return T(lo + offset);
    }
};

/// r(i): a floating-point value uniform in [lo, hi).
template <class T> struct random_reals_in {
    std::uint64_t key;
    T lo;
    T half_span;  ///< hi/2 - lo/2
    T hi;
    T top;        ///< the largest value below hi (lo when lo == hi)
    SCANVEC_HD T operator()(index_t i) const {
        const T u = random_unit<T>(random_word(key, i));
        const T r = fused_multiply_add(half_span, u + u, lo);
        return r < hi ? r : top;
    }
};

template <class T> std::string random_bound(T v) {
    std::ostringstream s;
    if constexpr (std::is_floating_point_v<T>) {
        s.precision(std::numeric_limits<T>::max_digits10);
        s << v;
    } else {
        s << +v;
    }
    return s.str();
}

template <class T> [[noreturn]] void throw_random_range(const char* why, T lo, T hi) {
    throw error(std::string("random: ") + why + " (lo = " + random_bound(lo) + ", hi = " + random_bound(hi) + ")");
}

template <class T> auto random_in(std::uint64_t seed, T lo, T hi) {
    expect_random_type<T>();
    if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(lo) || !std::isfinite(hi)) throw_random_range("bounds must be finite", lo, hi);
        if (!(lo <= hi)) throw_random_range("bad range, lo > hi", lo, hi);
        const T half_span = hi / 2 - lo / 2;
        const T top = lo == hi ? lo : std::nextafter(hi, lo);
        return random_reals_in<T>{random_key(seed), lo, half_span, hi, top};
    } else {
        if (!(lo <= hi)) throw_random_range("bad range, lo > hi", lo, hi);
        using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
        const std::uint64_t l = std::uint64_t(W(lo)), h = std::uint64_t(W(hi));
        return random_integers_in<T>{random_key(seed), l, h - l};
    }
}

}  SCANVEC_NAMESPACE_END  // detail
