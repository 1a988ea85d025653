// scanvec/primitives/detail/permute/power_sums.hpp - whether indices form a permutation, by sums of powers.
//
// idx (n values, all in [0, n)) is a permutation iff sum over i of r^idx[i]
// equals sum over i < n of r^i = (r^n - 1) / (r - 1) as polynomials in r:
// their difference is sum over v of (count of v in idx - 1) r^v, of degree
// below n, zero only when every count is 1. Modulo 2^61 - 1, at the two random
// points of the fingerprint (detail/permute/fingerprint.hpp), a
// non-permutation passes with probability below (n / 2^60)^2. Against the
// fingerprint: one modular product an element and point (r^j from two tables
// of 1024 powers), the positions' side a closed form, a fold of sums. The
// tables reach j < 2^20 (power_tables_reach). docs/design/permutes.md.
#pragma once

#include <scanvec/primitives/detail/permute/fingerprint.hpp>

#include <array>
#include <cstddef>
#include <cstdint>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// r^j = lo[j mod 2^bits] * hi[j >> bits], for j below power_tables_reach.
inline constexpr int power_table_bits = 10;
inline constexpr std::size_t power_table_size = std::size_t(1) << power_table_bits;
inline constexpr std::size_t power_tables_reach = power_table_size * power_table_size;

SCANVEC_HD inline std::uint64_t add_mod61(std::uint64_t a, std::uint64_t b) {
    const std::uint64_t s = a + b;  // both below 2^61: no overflow
    return s >= mersenne61 ? s - mersenne61 : s;
}

/// The two sums, and the first out-of-range position (~0: none).
struct power_sums {
    std::uint64_t at[2];
    unsigned long long first_bad;
};

struct power_sum_fold {
    static constexpr bool commutative = true;
    SCANVEC_HD power_sums operator()(const power_sums& a, const power_sums& b) const {
        return {{add_mod61(a.at[0], b.at[0]), add_mod61(a.at[1], b.at[1])},
                a.first_bad < b.first_bad ? a.first_bad : b.first_bad};
    }
    SCANVEC_HD static power_sums identity() { return {{0, 0}, ~0ull}; }
};

/// The tables of both points as the device reads them: lo[k] then hi[k], 1024 words each.
struct power_tables {
    const std::uint64_t* words;  // 4 * power_table_size: lo[0], hi[0], lo[1], hi[1]
    SCANVEC_HD std::uint64_t power(int k, std::uint64_t j) const {
        const std::uint64_t* lo = words + 2 * k * power_table_size;
#if defined(__CUDA_ARCH__)
        return mul_mod61(__ldg(lo + (j & (power_table_size - 1))), __ldg(lo + power_table_size + (j >> power_table_bits)));
#else
        return mul_mod61(lo[j & (power_table_size - 1)], lo[power_table_size + (j >> power_table_bits)]);
#endif
    }
};

inline std::uint64_t pow_mod61(std::uint64_t r, std::uint64_t e) {
    std::uint64_t x = 1;
    for (; e; e >>= 1, r = mul_mod61(r, r))
        if (e & 1) x = mul_mod61(x, r);
    return x;
}

/// The host's tables of the fingerprint's points, made once per process.
inline const std::array<std::uint64_t, 4 * power_table_size>& power_table_words() {
    static const auto words = [] {
        std::array<std::uint64_t, 4 * power_table_size> w{};
        const auto& r = fingerprint_points();
        for (int k = 0; k < 2; ++k) {
            std::uint64_t* lo = w.data() + 2 * k * power_table_size;
            std::uint64_t* hi = lo + power_table_size;
            const std::uint64_t step = pow_mod61(r[k], power_table_size);
            lo[0] = hi[0] = 1;
            for (std::size_t j = 1; j < power_table_size; ++j) {
                lo[j] = mul_mod61(lo[j - 1], r[k]);
                hi[j] = mul_mod61(hi[j - 1], step);
            }
        }
        return w;
    }();
    return words;
}

/// sum over i < n of r_k^i = (r_k^n - 1) / (r_k - 1): what a permutation's sums come to.
inline std::uint64_t power_sum_below(int k, std::size_t n) {
    static const auto inverse = [] {  // 1 / (r_k - 1) = (r_k - 1)^(p - 2), by Fermat
        const auto& r = fingerprint_points();
        return std::array<std::uint64_t, 2>{pow_mod61(r[0] - 1, mersenne61 - 2), pow_mod61(r[1] - 1, mersenne61 - 2)};
    }();
    const std::uint64_t r = fingerprint_points()[k];
    return mul_mod61(add_mod61(pow_mod61(r, n), mersenne61 - 1), inverse[k]);
}

}  SCANVEC_NAMESPACE_END  // detail
