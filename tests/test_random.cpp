// Counter-based random numbers (sv::random, sv::lazy::random) against the
// formula written out sequentially here: both backends must give exactly these
// values. Then neighbours (sv::previous, sv::next, sv::run_heads) against
// sequential references.
#include "support.hpp"
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/neighbours.hpp>
#include <scanvec/primitives/random.hpp>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

namespace tr {
/// A described struct with an equality usable on the backend (for run_heads).
struct item {
    int key;
    float w;
};
SCANVEC_HD inline bool operator==(const item& a, const item& b) { return a.key == b.key && a.w == b.w; }
SCANVEC_FIELDS(item, key, w)
}  // namespace tr
using tr::item;

namespace {

// ---- The generator's formula, written out sequentially --------------------

constexpr std::uint64_t gamma64 = 0x9E3779B97F4A7C15ull;

std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// The 64-bit word at position i for seed.
std::uint64_t word(std::uint64_t seed, std::uint64_t i) {
    const std::uint64_t key = mix(seed + gamma64);
    return mix(key + (i + 1) * gamma64);
}

template <class T> T unit(std::uint64_t w) {
    if constexpr (std::is_same_v<T, bool>) return (w >> 63) != 0;
    else if constexpr (std::is_same_v<T, float>) return float(std::uint32_t(w >> 40)) * 0x1p-24f;
    else if constexpr (std::is_same_v<T, double>) return double(w >> 11) * 0x1p-53;
    else return T(std::make_unsigned_t<T>(w >> (64 - 8 * sizeof(T))));
}

template <class T> std::vector<T> expected(std::size_t n, std::uint64_t seed) {
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = unit<T>(word(seed, i));
    return v;
}

/// Integers in [lo, hi]: lo + the high word of w * (hi - lo + 1); w itself for the full 64-bit range.
template <class T> T in_range(std::uint64_t w, T lo, T hi) {
    if constexpr (std::is_floating_point_v<T>) {
        const T u = unit<T>(w);
        const T r = std::fma(hi / 2 - lo / 2, u + u, lo);
        if (r < hi) return r;
        return lo == hi ? lo : std::nextafter(hi, lo);
    } else {
        using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
        const std::uint64_t l = std::uint64_t(W(lo)), span = std::uint64_t(W(hi)) - l;
        const std::uint64_t offset =
            span == ~std::uint64_t(0) ? w : std::uint64_t((unsigned __int128)w * (unsigned __int128)(span + 1) >> 64);
        return T(l + offset);
    }
}

template <class T> std::vector<T> expected(std::size_t n, std::uint64_t seed, T lo, T hi) {
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = in_range<T>(word(seed, i), lo, hi);
    return v;
}

/// Exact equality (bit-identical for floating point: no tolerance).
template <class T> void require_identical(const std::vector<T>& got, const std::vector<T>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (!(got[i] == want[i])) {
            INFO("at " << i << " of " << got.size() << ": got " << +got[i] << ", want " << +want[i]);
            REQUIRE(got[i] == want[i]);
        }
    }
}

struct below_half {
    SCANVEC_HD bool operator()(float u) const { return u < 0.5f; }
};
struct to_wide {
    SCANVEC_HD std::int64_t operator()(int x) const { return x; }
};

}  // namespace

// ---- random ---------------------------------------------------------------

TEST_CASE_TEMPLATE("random<T> equals the formula at every size", T, std::int8_t, std::uint8_t, std::int16_t,
                   std::uint16_t, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, bool, float, double) {
    for (std::size_t n : test::sizes) {
        CAPTURE(n);
        const std::uint64_t seed = 0x5eed0000 + n;
        auto want = expected<T>(n, seed);
        require_identical(sv::random<T>(n, seed).to_host(), want);
        require_identical(sv::lazy::random<T>(n, seed).to_host(), want);  // lazy == eager
    }
}

TEST_CASE_TEMPLATE("lazy::random by round: round r's numbers are those of the seed key(seed) + r, r on the device", T,
                   std::uint8_t, std::int32_t, std::uint64_t, bool, float, double) {
    for (std::size_t n : test::sizes) {
        for (std::uint64_t r : {std::uint64_t(0), std::uint64_t(1), std::uint64_t(12345), ~std::uint64_t(0)}) {
            CAPTURE(n);
            CAPTURE(r);
            const std::uint64_t seed = 0x5eed1000 + n;
            const sv::device_value<std::uint64_t> round = sv::reduce_to_device(sv::vector<std::uint64_t>{r});
            // the key wraps: seed key(seed) + r modulo 2^64
            require_identical(sv::lazy::random<T>(n, seed, round).to_host(), expected<T>(n, mix(seed + gamma64) + r));
        }
    }
}

TEST_CASE("random: the formula's first words, written as constants") {
    // Guards the generator itself: a change to the mixing changes these.
    CHECK(mix(0) == 0);
    CHECK(word(0, 0) == mix(mix(gamma64) + gamma64));
    auto v = sv::random<std::uint64_t>(3, 42).to_host();
    CHECK(v[0] == word(42, 0));
    CHECK(v[2] == word(42, 2));
    CHECK(v[0] != v[1]);
}

TEST_CASE("random is reproducible: the same seed gives the same values, other seeds others") {
    const std::size_t n = 100003;
    auto a = sv::random<std::uint32_t>(n, 7).to_host();
    auto b = sv::random<std::uint32_t>(n, 7).to_host();
    CHECK(a == b);
    // The value at i depends on (seed, i) only: a shorter call is a prefix.
    auto prefix = sv::random<std::uint32_t>(1000, 7).to_host();
    CHECK(std::equal(prefix.begin(), prefix.end(), a.begin()));
    for (std::uint64_t other : {8ull, 6ull, 7ull + (1ull << 32), ~7ull}) {
        CAPTURE(other);
        auto c = sv::random<std::uint32_t>(n, other).to_host();
        std::size_t same = 0;
        for (std::size_t i = 0; i < n; ++i) same += a[i] == c[i];
        CHECK(same < 10);  // about n / 2^32 expected
    }
    // Neighbouring seeds are not shifted copies of one stream.
    auto d = sv::random<std::uint32_t>(n, 8).to_host();
    std::size_t shifted = 0;
    for (std::size_t i = 0; i + 1 < n; ++i) shifted += a[i + 1] == d[i] || a[i] == d[i + 1];
    CHECK(shifted < 10);
}

TEST_CASE_TEMPLATE("random integers in lo..hi, both included, equal the formula and stay in range", T, std::int8_t, std::uint8_t,
                   std::int16_t, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t) {
    using L = std::numeric_limits<T>;
    struct range {
        T lo, hi;
    };
    std::vector<range> ranges = {{T(0), T(9)}, {T(3), T(3)}, {T(0), T(100)}, {L::min(), L::max()},
                                 {T(L::max() - 1), L::max()}, {L::min(), T(L::min() + 2)}};
    if constexpr (std::is_signed_v<T>) {
        ranges.push_back({T(-50), T(-10)});
        ranges.push_back({T(-7), T(7)});
        ranges.push_back({T(-100), T(-100)});
    }
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(33), std::size_t(65539), std::size_t(1000003)}) {
        for (auto r : ranges) {
            CAPTURE(n);
            CAPTURE(+r.lo);
            CAPTURE(+r.hi);
            const std::uint64_t seed = 99 + n;
            auto got = sv::random<T>(n, seed, r.lo, r.hi).to_host();
            auto want = expected<T>(n, seed, r.lo, r.hi);
            require_identical(got, want);
            require_identical(sv::lazy::random<T>(n, seed, r.lo, r.hi).to_host(), want);
            for (T x : got) {
                if (x < r.lo || x > r.hi) REQUIRE(false);
            }
            if (r.lo == r.hi) CHECK(std::count(got.begin(), got.end(), r.lo) == std::ptrdiff_t(n));
        }
    }
}

TEST_CASE("random over the full int64 and uint64 ranges: lo plus the raw word") {
    const std::size_t n = 65539;
    using L = std::numeric_limits<std::int64_t>;
    auto s = sv::random<std::int64_t>(n, 5, L::min(), L::max()).to_host();
    auto u = sv::random<std::uint64_t>(n, 5, 0, ~std::uint64_t(0)).to_host();
    std::size_t negative = 0;
    for (std::size_t i = 0; i < n; ++i) {
        REQUIRE(std::uint64_t(s[i]) == word(5, i) + (std::uint64_t(1) << 63));  // lo = -2^63
        REQUIRE(u[i] == word(5, i));
        negative += s[i] < 0;
    }
    CHECK(std::fabs(double(negative) / n - 0.5) < 0.01);
    // the whole-type draw of uint64 is the full-range draw
    CHECK(sv::random<std::uint64_t>(n, 5).to_host() == u);
}

TEST_CASE_TEMPLATE("random floating point in lo..hi, hi excluded, equals the formula and stays in range", T, float, double) {
    struct range {
        T lo, hi;
    };
    const T big = std::numeric_limits<T>::max();
    const std::vector<range> ranges = {{T(0), T(1)},     {T(-1), T(1)},    {T(-10), T(-5)}, {T(2.5), T(2.5)},
                                       {T(100), T(101)}, {-big, big},      {T(0), big},     {T(1), std::nextafter(T(1), T(2))},
                                       {T(-1e-30), T(1e-30)}};
    for (std::size_t n : test::sizes) {
        for (auto r : ranges) {
            CAPTURE(n);
            CAPTURE(r.lo);
            CAPTURE(r.hi);
            const std::uint64_t seed = 1234 + n;
            auto got = sv::random<T>(n, seed, r.lo, r.hi).to_host();
            auto want = expected<T>(n, seed, r.lo, r.hi);
            require_identical(got, want);
            require_identical(sv::lazy::random<T>(n, seed, r.lo, r.hi).to_host(), want);
            for (T x : got) {
                if (r.lo == r.hi) REQUIRE(x == r.lo);
                else if (!(x >= r.lo && x < r.hi)) REQUIRE(false);
            }
        }
    }
}

TEST_CASE("random is roughly uniform") {
    const std::size_t n = 1000000;
    SUBCASE("floats and doubles in [0, 1): the mean is within 0.01 of 1/2, every decile holds about n/10") {
        auto f = sv::random<float>(n, 2024).to_host();
        auto d = sv::random<double>(n, 2025).to_host();
        CHECK(std::fabs(std::accumulate(f.begin(), f.end(), 0.0) / n - 0.5) < 0.01);
        CHECK(std::fabs(std::accumulate(d.begin(), d.end(), 0.0) / n - 0.5) < 0.01);
        std::vector<std::size_t> deciles(10);
        for (float x : f) {
            REQUIRE(x >= 0.0f);
            REQUIRE(x < 1.0f);
            ++deciles[std::size_t(x * 10)];
        }
        for (std::size_t c : deciles) CHECK(std::fabs(double(c) - n / 10.0) < 0.05 * n / 10.0);
    }
    SUBCASE("integers in [0, 9] and [-500, 499]: each of 10 buckets within 5% of n/10") {
        auto a = sv::random<int>(n, 31, 0, 9).to_host();
        auto b = sv::random<std::int64_t>(n, 32, -500, 499).to_host();
        std::vector<std::size_t> ca(10), cb(10);
        for (int x : a) ++ca[std::size_t(x)];
        for (auto x : b) ++cb[std::size_t((x + 500) / 100)];
        for (std::size_t k = 0; k < 10; ++k) {
            CAPTURE(k);
            CHECK(std::fabs(double(ca[k]) - n / 10.0) < 0.05 * n / 10.0);
            CHECK(std::fabs(double(cb[k]) - n / 10.0) < 0.05 * n / 10.0);
        }
    }
    SUBCASE("the low and high bytes of uint32 draws: every bit set about half the time") {
        auto u = sv::random<std::uint32_t>(n, 33).to_host();
        for (int bit = 0; bit < 32; ++bit) {
            std::size_t set = 0;
            for (auto x : u) set += (x >> bit) & 1u;
            CAPTURE(bit);
            CHECK(std::fabs(double(set) / n - 0.5) < 0.01);
        }
    }
    SUBCASE("coin flips: about half true") {
        auto c = sv::random<bool>(n, 34).to_host();
        const auto heads = std::count(c.begin(), c.end(), true);
        CHECK(std::fabs(double(heads) / n - 0.5) < 0.01);
    }
}

TEST_CASE("a lazy random vector inside another primitive equals the materialised one") {
    for (std::size_t n : test::sizes) {
        CAPTURE(n);
        const std::uint64_t seed = 77 + n;
        auto lazy_u = sv::lazy::random<float>(n, seed);
        auto u = sv::random<float>(n, seed);
        const sv::index_t lazy_count = sv::count(sv::lazy::map(below_half{}, lazy_u));
        CHECK(lazy_count == sv::count(sv::lazy::map(below_half{}, u)));
        auto hu = u.to_host();
        CHECK(lazy_count == std::count_if(hu.begin(), hu.end(), [](float x) { return x < 0.5f; }));

        auto lazy_d = sv::lazy::random<int>(n, seed, -1000, 1000);
        auto d = sv::random<int>(n, seed, -1000, 1000);
        const std::int64_t lazy_sum = sv::reduce(sv::lazy::map(to_wide{}, lazy_d));
        CHECK(lazy_sum == sv::reduce(sv::lazy::map(to_wide{}, d)));
        auto hd = d.to_host();
        CHECK(lazy_sum == std::accumulate(hd.begin(), hd.end(), std::int64_t(0)));
        // a lazy coin as flags
        auto coin = sv::lazy::random<bool>(n, seed);
        auto hc = sv::random<bool>(n, seed).to_host();
        CHECK(sv::count(coin) == std::count(hc.begin(), hc.end(), true));
        auto packed = sv::pack(d, coin).to_host();
        std::vector<int> want;
        for (std::size_t i = 0; i < n; ++i)
            if (hc[i]) want.push_back(hd[i]);
        CHECK(packed == want);
    }
}

TEST_CASE("random with a bad range throws sv::error naming both bounds") {
    CHECK_THROWS_AS(sv::random<int>(10, 1, 17, -4), sv::error);
    CHECK_THROWS_WITH(sv::random<int>(10, 1, 17, -4), doctest::Contains("lo = 17, hi = -4"));
    CHECK_THROWS_AS(sv::lazy::random<int>(10, 1, 17, -4), sv::error);
    CHECK_THROWS_AS(sv::random<int>(0, 1, 1, 0), sv::error);  // even when empty
    CHECK_THROWS_WITH(sv::random<std::uint64_t>(5, 1, 9, 3), doctest::Contains("lo = 9, hi = 3"));
    CHECK_THROWS_WITH(sv::random<std::int8_t>(5, 1, 9, 3), doctest::Contains("lo = 9, hi = 3"));
    CHECK_THROWS_WITH(sv::random<float>(5, 1, 2.5f, 1.5f), doctest::Contains("lo = 2.5, hi = 1.5"));
    CHECK_THROWS_AS(sv::random<double>(5, 1, 0.0, std::numeric_limits<double>::infinity()), sv::error);
    CHECK_THROWS_AS(sv::random<double>(5, 1, std::nan(""), 1.0), sv::error);
    CHECK_NOTHROW(sv::random<int>(5, 1, 3, 3));
}

// ---- previous, next, run_heads ---------------------------------------------

namespace {
const std::vector<std::size_t> neighbour_sizes = test::sizes_upto_env({0, 1, 2, 3, 33, 1000, 1000003});

template <class T> std::vector<T> previous_of(const std::vector<T>& a, T fill) {
    std::vector<T> r(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) r[i] = i == 0 ? fill : a[i - 1];
    return r;
}
template <class T> std::vector<T> next_of(const std::vector<T>& a, T fill) {
    std::vector<T> r(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) r[i] = i + 1 == a.size() ? fill : a[i + 1];
    return r;
}
template <class T> std::vector<bool> heads_of(const std::vector<T>& a) {
    std::vector<bool> r(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) r[i] = i == 0 || !(a[i] == a[i - 1]);
    return r;
}

struct twice {
    SCANVEC_HD int operator()(int x) const { return 2 * x; }
};
struct tenth {
    SCANVEC_HD sv::index_t operator()(sv::index_t i) const { return i / 10; }
};
struct differs {
    SCANVEC_HD bool operator()(int x, int before) const { return x != before; }
};
}  // namespace

TEST_CASE("previous and next of int vectors") {
    for (std::size_t n : neighbour_sizes) {
        CAPTURE(n);
        auto h = test::random_values<int>(n, 51 + n);
        sv::vector<int> a(h);
        CHECK(sv::previous(a, -1).to_host() == previous_of(h, -1));
        CHECK(sv::next(a, 12345).to_host() == next_of(h, 12345));
        CHECK(sv::lazy::previous(a, -1).to_host() == previous_of(h, -1));
        CHECK(sv::lazy::next(a, 12345).to_host() == next_of(h, 12345));
        CHECK(sv::previous(a, 0).size() == n);
    }
    sv::vector<int> a = {4, 8, 15};
    CHECK(sv::previous(a, 0).to_host() == std::vector<int>{0, 4, 8});
    CHECK(sv::next(a, 0).to_host() == std::vector<int>{8, 15, 0});
    sv::vector<int> one = {9};
    CHECK(sv::previous(one, 3).to_host() == std::vector<int>{3});
    CHECK(sv::next(one, 3).to_host() == std::vector<int>{3});
}

TEST_CASE("previous, next and run_heads of views") {
    for (std::size_t n : neighbour_sizes) {
        CAPTURE(n);
        auto h = test::random_values<int>(n, 61 + n);
        sv::vector<int> a(h);
        std::vector<int> h2(n);
        for (std::size_t i = 0; i < n; ++i) h2[i] = 2 * h[i];
        auto doubled = sv::lazy::map(twice{}, a);
        CHECK(sv::previous(doubled, 7).to_host() == previous_of(h2, 7));
        CHECK(sv::next(doubled, 7).to_host() == next_of(h2, 7));
        CHECK(sv::lazy::next(doubled, 7).to_host() == next_of(h2, 7));
        // i / 10: runs of ten
        std::vector<sv::index_t> hi(n);
        for (std::size_t i = 0; i < n; ++i) hi[i] = sv::index_t(i / 10);
        auto tens = sv::lazy::map(tenth{}, sv::lazy::index(n));
        CHECK(sv::run_heads(tens).to_host() == heads_of(hi));
        CHECK(sv::count(sv::lazy::run_heads(tens)) == sv::index_t((n + 9) / 10));
        std::vector<sv::index_t> idx(n);
        std::iota(idx.begin(), idx.end(), sv::index_t(0));
        CHECK(sv::previous(sv::lazy::index(n), sv::index_t(-1)).to_host() == previous_of(idx, sv::index_t(-1)));
        CHECK(sv::next(sv::lazy::index(n), sv::index_t(-1)).to_host() == next_of(idx, sv::index_t(-1)));
        // a lazy neighbour feeding a map, inside the map's own pass
        auto d = sv::map(differs{}, a, sv::lazy::previous(a, 0)).to_host();
        REQUIRE(d.size() == n);
        for (std::size_t i = 0; i < n; ++i) REQUIRE(d[i] == (h[i] != (i == 0 ? 0 : h[i - 1])));
    }
}

TEST_CASE("run_heads of sorted and unsorted int vectors") {
    for (std::size_t n : neighbour_sizes) {
        CAPTURE(n);
        auto h = test::random_values<int>(n, 71 + n, -20, 20);
        sv::vector<int> unsorted(h);
        CHECK(sv::run_heads(unsorted).to_host() == heads_of(h));
        CHECK(sv::lazy::run_heads(unsorted).to_host() == heads_of(h));
        std::sort(h.begin(), h.end());
        sv::vector<int> sorted(h);
        auto heads = sv::run_heads(sorted);
        CHECK(heads.to_host() == heads_of(h));
        // in a sorted vector, the heads are the first of each distinct value
        const auto distinct = std::distance(h.begin(), std::unique(h.begin(), h.end()));
        CHECK(sv::count(heads) == distinct);
        CHECK(sv::count(sv::lazy::run_heads(sorted)) == distinct);
    }
    sv::vector<int> a = {1, 1, 2, 2, 2, 3, 1};
    auto r = sv::run_heads(a).to_host();
    CHECK(r == std::vector<bool>{true, false, true, false, false, true, true});
    CHECK(sv::run_heads(sv::vector<int>{}).empty());
    CHECK(sv::run_heads(sv::vector<int>{5}).to_host() == std::vector<bool>{true});
}

TEST_CASE("previous, next and run_heads of a described struct") {
    for (std::size_t n : neighbour_sizes) {
        CAPTURE(n);
        auto keys = test::random_values<int>(n, 81 + n, 0, 3);
        std::vector<item> h(n);
        for (std::size_t i = 0; i < n; ++i) h[i] = {keys[i], float(keys[i] % 2)};
        sv::vector<item> a(h);
        const item fill{-1, 0.5f};
        CHECK(sv::previous(a, fill).to_host() == previous_of(h, fill));
        CHECK(sv::next(a, fill).to_host() == next_of(h, fill));
        CHECK(sv::lazy::previous(a, fill).to_host() == previous_of(h, fill));
        CHECK(sv::lazy::next(a, fill).to_host() == next_of(h, fill));
        CHECK(sv::run_heads(a).to_host() == heads_of(h));
        CHECK(sv::lazy::run_heads(a).to_host() == heads_of(h));
        auto prev = sv::previous(a, fill);
        CHECK(prev.field<&item::key>().size() == n);
    }
}
