// scanvec/primitives/detail/permute/fingerprint.hpp - whether indices form a permutation, by one reduce.
//
// The arithmetic of permute's probabilistic check (docs/design/permutes.md):
// Lipton's multiset fingerprint modulo the Mersenne prime 2^61 - 1, as a
// commutative monoid that any reduce (CUB's, a block's, the host's) can fold.
#pragma once

#include <scanvec/runtime/config.hpp>

#include <array>
#include <cstdint>
#include <random>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// An index value read as a signed position, and whether it lies in [0, bound).
SCANVEC_HD inline bool in_range(long long j, index_t bound) { return j >= 0 && j < bound; }

// Lipton's multiset fingerprint. idx (n values, all in [0, n)) is a
// permutation iff the multisets {idx[i]} and {i} are equal, i.e. iff the
// polynomials prod (X - idx[i]) and prod (X - i) are equal. Over the prime
// p = 2^61 - 1 their difference, when not zero, has degree below n and so at
// most n - 1 roots: at a random point x the products differ except with
// probability below n/p (2^-33 at 2^28 elements); two independent points
// make it below (n/p)^2, 2^-66. The points are drawn once per process from
// std::random_device, so no input can be built to match them.
inline constexpr std::uint64_t mersenne61 = (std::uint64_t(1) << 61) - 1;

/// a * b mod 2^61 - 1, for a, b < 2^61 - 1.
SCANVEC_HD inline std::uint64_t mul_mod61(std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__)
    const std::uint64_t lo = a * b, hi = __umul64hi(a, b);
#else
    const unsigned __int128 w = static_cast<unsigned __int128>(a) * b;
    const std::uint64_t lo = std::uint64_t(w), hi = std::uint64_t(w >> 64);
#endif
    // a*b = (hi:lo) = (hi*8 + lo/2^61) * 2^61 + lo mod 2^61, and 2^61 = 1 mod p
    const std::uint64_t r = (lo & mersenne61) + ((lo >> 61) | (hi << 3));
    return r >= mersenne61 ? r - mersenne61 : r;
}

/// The two products at each point, and the first out-of-range position (~0: none).
struct permutation_fingerprint {
    std::uint64_t of_idx[2];  // prod (x_k - idx[i])
    std::uint64_t of_pos[2];  // prod (x_k - i)
    unsigned long long first_bad;
    /// Every index in range and the products equal: a permutation (a non-permutation
    /// passes with probability below (n/p)^2).
    SCANVEC_HD bool permutation() const {
        return first_bad == ~0ull && of_idx[0] == of_pos[0] && of_idx[1] == of_pos[1];
    }
};

struct fingerprint_product {
    static constexpr bool commutative = true;
    SCANVEC_HD permutation_fingerprint operator()(const permutation_fingerprint& a,
                                                  const permutation_fingerprint& b) const {
        return {{mul_mod61(a.of_idx[0], b.of_idx[0]), mul_mod61(a.of_idx[1], b.of_idx[1])},
                {mul_mod61(a.of_pos[0], b.of_pos[0]), mul_mod61(a.of_pos[1], b.of_pos[1])},
                a.first_bad < b.first_bad ? a.first_bad : b.first_bad};
    }
    SCANVEC_HD static permutation_fingerprint identity() { return {{1, 1}, {1, 1}, ~0ull}; }
};

/// Position i's factors (x_k - idx[i], x_k - i), or its position if idx[i] is out of range.
template <class IdxIt> struct fingerprint_factors {
    IdxIt idx;
    index_t bound;
    std::uint64_t x[2];  // in [2^60, p): above every position, so no factor is 0
    SCANVEC_HD permutation_fingerprint operator()(index_t i) const {
        const auto j = static_cast<long long>(idx[i]);
        if (!in_range(j, bound)) return {{1, 1}, {1, 1}, (unsigned long long)i};
        return {{x[0] - std::uint64_t(j), x[1] - std::uint64_t(j)}, {x[0] - std::uint64_t(i), x[1] - std::uint64_t(i)}, ~0ull};
    }
};

/// The two random points, drawn once per process.
inline const std::array<std::uint64_t, 2>& fingerprint_points() {
    static const std::array<std::uint64_t, 2> points = [] {
        std::random_device device;
        std::seed_seq seed{device(), device(), device(), device()};
        std::mt19937_64 rng(seed);
        std::uniform_int_distribution<std::uint64_t> in(std::uint64_t(1) << 60, mersenne61 - 1);
        return std::array<std::uint64_t, 2>{in(rng), in(rng)};
    }();
    return points;
}

}  SCANVEC_NAMESPACE_END  // detail
