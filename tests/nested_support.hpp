// Helpers for the nested-vector tests: segment shapes, host nested data, references.
#pragma once

#include "support.hpp"
#include <scanvec/primitives/nested.hpp>

#include <algorithm>
#include <numeric>

namespace nt {

/// A non-commutative monoid on a described struct: affine maps x -> a*x + b
/// over unsigned integers (wrapping), composed exactly.
struct lin {
    unsigned a;
    unsigned b;
};
SCANVEC_FIELDS(lin, a, b)
inline bool operator==(const lin& x, const lin& y) { return x.a == y.a && x.b == y.b; }
SCANVEC_HD inline bool operator<(const lin& x, const lin& y) { return x.a < y.a || (x.a == y.a && x.b < y.b); }
struct compose {  // g after f
    SCANVEC_HD lin operator()(const lin& f, const lin& g) const { return lin{g.a * f.a, g.a * f.b + g.b}; }
};
inline auto lin_monoid() { return sv::monoid(compose{}, lin{1u, 0u}); }

inline std::vector<lin> random_lins(std::size_t n, std::uint64_t seed) {
    auto a = test::random_values<unsigned>(n, seed, 0u, 7u);
    auto b = test::random_values<unsigned>(n, seed + 1, 0u, 1000u);
    std::vector<lin> r(n);
    for (std::size_t i = 0; i < n; ++i) r[i] = lin{a[i], b[i]};
    return r;
}

}  // namespace nt

namespace test {

using sv::index_t;
template <class T> using nest = std::vector<std::vector<T>>;

/// Descriptor shapes: with empty segments, all of length 1, one segment,
/// many tiny segments, 32 each, and a power-law mix (empty segments included).
enum class shape { with_empty, ones, single, tiny, warp, power_law };
inline const shape shapes[] = {shape::with_empty, shape::ones, shape::single, shape::tiny, shape::warp, shape::power_law};
inline const char* name(shape s) {
    switch (s) {
        case shape::with_empty: return "with-empty";
        case shape::ones: return "ones";
        case shape::single: return "single";
        case shape::tiny: return "tiny";
        case shape::warp: return "warp";
        default: return "power-law";
    }
}
/// Whether head flags can express the shape (no empty segments).
inline bool flag_expressible(shape s) { return s == shape::ones || s == shape::tiny || s == shape::warp; }

/// Segment lengths summing to n.
inline std::vector<index_t> random_lengths(std::size_t n, shape s, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<index_t> len;
    const index_t total = index_t(n);
    index_t left = total;
    auto take = [&](index_t l) { l = std::min(l, left); len.push_back(l); left -= l; };
    switch (s) {
        case shape::with_empty: {
            len.push_back(0);  // empty first and last segments, empties between
            std::uniform_int_distribution<int> d(0, 5);
            while (left > 0) take(d(rng) < 2 ? 0 : index_t(d(rng)));
            len.push_back(0);
            break;
        }
        case shape::ones: while (left > 0) take(1); break;
        case shape::single: len.push_back(total); break;
        case shape::tiny: {
            std::uniform_int_distribution<int> d(1, 4);
            while (left > 0) take(d(rng));
            break;
        }
        case shape::warp: while (left > 0) take(32); break;
        case shape::power_law: {
            std::uniform_real_distribution<double> u(0.0, 1.0);
            while (left > 0) {
                const double x = std::pow(u(rng) + 1e-9, -1.3);  // mostly short, some very long
                take(index_t(x) - 1);
            }
            break;
        }
    }
    return len;
}

template <class T> nest<T> cut(const std::vector<T>& flat, const std::vector<index_t>& len) {
    nest<T> r(len.size());
    std::size_t at = 0;
    for (std::size_t k = 0; k < len.size(); ++k) {
        r[k].assign(flat.begin() + at, flat.begin() + at + len[k]);
        at += len[k];
    }
    return r;
}
template <class T> std::vector<T> flatten(const nest<T>& x) {
    std::vector<T> r;
    for (auto& s : x) r.insert(r.end(), s.begin(), s.end());
    return r;
}
inline std::vector<index_t> offsets_of(const std::vector<index_t>& len) {
    std::vector<index_t> off(len.size() + 1, 0);
    for (std::size_t k = 0; k < len.size(); ++k) off[k + 1] = off[k] + len[k];
    return off;
}

template <class T> void check_nested(const nest<T>& got, const nest<T>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
        CAPTURE(k);
        REQUIRE(got[k].size() == want[k].size());
    }
    check_equal(flatten(got), flatten(want));
}

/// A random permutation of 0..len-1 for every segment (relative indices), flat.
inline std::vector<index_t> segment_permutations(const std::vector<index_t>& len, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<index_t> r;
    for (index_t l : len) {
        std::vector<index_t> p(l);
        std::iota(p.begin(), p.end(), index_t(0));
        std::shuffle(p.begin(), p.end(), rng);
        r.insert(r.end(), p.begin(), p.end());
    }
    return r;
}

/// The sizes of the nested tests: the standard ones, 10^6 included.
inline const std::vector<std::size_t>& nested_sizes() { return sizes; }

}  // namespace test
