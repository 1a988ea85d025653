// Helpers of the distributed tests: the same seeded data on every rank, the
// block layouts to try, and comparisons made on rank 0 after a gather.
//
// Checks never stop a test case early (CHECK, not REQUIRE): a rank that left
// a case would leave the others waiting in its next collective.
#pragma once

#include <scanvec/dist.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace sv = scanvec;

namespace dtest {

inline const sv::dist::communicator& comm() { return sv::dist::world(); }
inline int rank() { return comm().rank(); }
inline int ranks() { return comm().size(); }
inline bool root() { return rank() == 0; }

/// Sizes: empty, one, fewer than the ranks, odd, not powers of two, and larger.
inline const std::vector<std::size_t> sizes = {0, 1, 2, 3, 5, 7, 100, 1001, 65539};

/// How the blocks are laid out.
enum class spread { even, first_rank, last_rank, random, every_other };
inline const spread spreads[] = {spread::even, spread::first_rank, spread::last_rank, spread::random, spread::every_other};
inline const char* name(spread s) {
    switch (s) {
        case spread::even: return "even";
        case spread::first_rank: return "all on rank 0";
        case spread::last_rank: return "all on the last rank";
        case spread::random: return "random";
        default: return "every other rank empty";
    }
}

/// Block sizes of n elements over p ranks (the same on every rank).
inline std::vector<sv::index_t> block_sizes(std::size_t n, int p, spread s, std::uint64_t seed) {
    std::vector<sv::index_t> b(std::size_t(p), 0);
    const sv::index_t N = sv::index_t(n);
    switch (s) {
        case spread::even:
            for (int r = 0; r < p; ++r) b[std::size_t(r)] = N / p + (r < N % p ? 1 : 0);
            break;
        case spread::first_rank: b[0] = N; break;
        case spread::last_rank: b[std::size_t(p - 1)] = N; break;
        case spread::random: {
            std::mt19937_64 rng(seed);
            sv::index_t left = N;
            for (int r = 0; r + 1 < p; ++r) {
                std::uniform_int_distribution<sv::index_t> d(0, left);
                b[std::size_t(r)] = d(rng);
                left -= b[std::size_t(r)];
            }
            b[std::size_t(p - 1)] = left;
            break;
        }
        case spread::every_other: {
            const int holders = (p + 1) / 2;  // ranks 0, 2, 4, ...
            for (int k = 0; k < holders; ++k) b[std::size_t(2 * k)] = N / holders + (k < N % holders ? 1 : 0);
            break;
        }
    }
    return b;
}

/// This rank's block of host data laid out by the given block sizes.
template <class T> std::vector<T> my_block(const std::vector<T>& all, const std::vector<sv::index_t>& sizes) {
    sv::index_t from = 0;
    for (int r = 0; r < rank(); ++r) from += sizes[std::size_t(r)];
    return std::vector<T>(all.begin() + from, all.begin() + from + sizes[std::size_t(rank())]);
}

/// A distributed vector of `all` (known on every rank) in the given layout, built from local blocks.
template <class T> sv::dist::vector<T> spread_out(const std::vector<T>& all, spread s, std::uint64_t seed = 7) {
    const auto sizes = block_sizes(all.size(), ranks(), s, seed);
    return sv::dist::vector<T>(sv::vector<T>(my_block(all, sizes)), comm());
}

template <class T> std::vector<T> random_values(std::size_t n, std::uint64_t seed, long long lo = -100, long long hi = 100) {
    std::mt19937_64 rng(seed);
    std::vector<T> v(n);
    if constexpr (std::is_floating_point_v<T>) {
        std::uniform_real_distribution<T> d{T(lo), T(hi)};
        for (auto& x : v) x = d(rng);
    } else {
        std::uniform_int_distribution<long long> d(lo, hi);
        for (auto& x : v) x = T(d(rng));
    }
    return v;
}

inline std::vector<bool> random_flags(std::size_t n, double p_true, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution d(p_true);
    std::vector<bool> f(n);
    for (std::size_t i = 0; i < n; ++i) f[i] = d(rng);
    return f;
}

inline std::vector<sv::index_t> random_permutation(std::size_t n, std::uint64_t seed) {
    std::vector<sv::index_t> p(n);
    for (std::size_t i = 0; i < n; ++i) p[i] = sv::index_t(i);
    std::shuffle(p.begin(), p.end(), std::mt19937_64(seed));
    return p;
}

/// Gathers d to rank 0 and compares it there with want; true on the other ranks.
template <class T> bool gathered_equals(const sv::dist::vector<T>& d, const std::vector<T>& want) {
    const auto got = d.to_host(0);
    if (!root()) return true;
    if (got.size() != want.size()) {
        MESSAGE("length " << got.size() << ", want " << want.size());
        return false;
    }
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!(got[i] == want[i])) {
            MESSAGE("first difference at " << i << " of " << got.size());
            return false;
        }
    return true;
}

/// The global size and every rank's offset agree with the block sizes this rank holds.
template <class T> bool layout_consistent(const sv::dist::vector<T>& d) {
    const auto sizes = sv::dist::detail::allgather(comm(), sv::index_t(d.local().size()), "test");
    sv::index_t off = 0;
    for (int r = 0; r < ranks(); ++r) {
        if (d.offset(r) != off) return false;
        off += sizes[std::size_t(r)];
    }
    return off == sv::index_t(d.size()) && d.offset(ranks()) == off;
}

/// An affine map x -> a x + b (mod 2^32) packed as a << 32 | b; `then` composes
/// f then g: associative, not commutative.
struct affine_then {
    SCANVEC_HD std::uint64_t operator()(std::uint64_t f, std::uint64_t g) const {
        const std::uint32_t fa = std::uint32_t(f >> 32), fb = std::uint32_t(f), ga = std::uint32_t(g >> 32),
                            gb = std::uint32_t(g);
        return (std::uint64_t(std::uint32_t(ga * fa)) << 32) | std::uint32_t(ga * fb + gb);
    }
};
inline constexpr std::uint64_t affine_identity = std::uint64_t(1) << 32;

inline std::vector<std::uint64_t> random_affine(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::uint64_t> v(n);
    for (auto& x : v) x = rng();
    return v;
}

}  // namespace dtest

/// A 2x2 matrix of unsigned ints (mod 2^32): a described struct whose product does not commute.
struct mat2 {
    std::uint32_t a, b, c, d;
    SCANVEC_HD bool operator==(const mat2& o) const { return a == o.a && b == o.b && c == o.c && d == o.d; }
};
SCANVEC_FIELDS(mat2, a, b, c, d)
struct mat2_product {
    SCANVEC_HD mat2 operator()(const mat2& x, const mat2& y) const {
        return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
    }
    SCANVEC_HD mat2 identity() const { return {1, 0, 0, 1}; }
};

/// A described struct with fields of three sizes.
struct particle {
    double x;
    float w;
    std::int16_t id;
    SCANVEC_HD bool operator==(const particle& o) const { return x == o.x && w == o.w && id == o.id; }
};
SCANVEC_FIELDS(particle, x, w, id)
