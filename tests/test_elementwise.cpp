// map, index, distribute, permute, back_permute against sequential references.
#include "support.hpp"
#include <scanvec/primitives/elementwise.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/scan.hpp>

#include <numeric>

namespace et {
struct particle {
    float x;
    float v;
    int id;
};
SCANVEC_FIELDS(particle, x, v, id)
/// Every field matters: the map below changes each one (one left out of the list would not compile).
struct padded_pt {
    char tag;
    double x;
    std::int16_t y;
};
SCANVEC_FIELDS(padded_pt, tag, x, y)
}  // namespace et
using et::particle;

TEST_CASE("map over one, two and three vectors") {
    for (std::size_t n : test::sizes) {
        CAPTURE(n);
        auto ha = test::random_values<int>(n, 11), hb = test::random_values<int>(n, 12);
        auto hc = test::random_values<float>(n, 13);
        sv::vector<int> a(ha), b(hb);
        sv::vector<float> c(hc);
        auto r1 = sv::map(SCANVEC_FN(int x) { return 3 * x + 1; }, a).to_host();
        auto r2 = sv::map(SCANVEC_FN(int x, int y) { return x - y; }, a, b).to_host();
        auto r3 = sv::map(SCANVEC_FN(int x, int y, float z) { return x * z + y; }, a, b, c).to_host();
        std::vector<float> want3(n);
        for (std::size_t i = 0; i < n; ++i) {
            REQUIRE(r1[i] == 3 * ha[i] + 1);
            REQUIRE(r2[i] == ha[i] - hb[i]);
            want3[i] = ha[i] * hc[i] + hb[i];
        }
        test::check_equal(r3, want3);  // the GPU may contract x*z+y into one FMA
    }
}

TEST_CASE("map with struct inputs and struct results") {
    std::vector<particle> h;
    for (int i = 0; i < 1000; ++i) h.push_back({float(i), 0.5f * i, i});
    sv::vector<particle> p(h);
    auto moved = sv::map(SCANVEC_FN(particle q) { return particle{q.x + q.v, q.v, q.id}; }, p);
    auto speeds = sv::map(SCANVEC_FN(particle q) { return q.v; }, p);
    auto hm = moved.to_host();
    auto hs = speeds.to_host();
    for (int i = 0; i < 1000; ++i) {
        REQUIRE(hm[i].x == float(i) + 0.5f * i);
        REQUIRE(hm[i].id == i);
        REQUIRE(hs[i] == 0.5f * i);
    }
    CHECK(moved.field<&particle::x>().size() == 1000);
}

TEST_CASE("map keeps every field of a struct with padding") {
    using et::padded_pt;
    std::vector<padded_pt> h;
    for (int i = 0; i < 500; ++i) h.push_back({char(i % 100), i * 0.25, std::int16_t(i)});
    sv::vector<padded_pt> p(h);
    auto r = sv::map(SCANVEC_FN(padded_pt a) { return padded_pt{char(a.tag + 1), a.x + 1, std::int16_t(a.y * 2)}; }, p)
                 .to_host();
    for (int i = 0; i < 500; ++i) {
        REQUIRE(r[i].tag == char(i % 100 + 1));
        REQUIRE(r[i].x == i * 0.25 + 1);
        REQUIRE(r[i].y == 2 * i);
    }
}

TEST_CASE("map of mismatched lengths throws length_error naming both") {
    sv::vector<int> a(5), b(7);
    CHECK_THROWS_AS(sv::map(SCANVEC_FN(int x, int y) { return x + y; }, a, b), sv::length_error);
    CHECK_THROWS_WITH(sv::map(SCANVEC_FN(int x, int y) { return x + y; }, a, b),
                      doctest::Contains("lengths differ (5 and 7)"));
}

TEST_CASE("index and distribute") {
    for (std::size_t n : test::sizes) {
        auto i = sv::index(n).to_host();
        auto d = sv::distribute(2.5f, n).to_host();
        REQUIRE(i.size() == n);
        REQUIRE(d.size() == n);
        for (std::size_t k = 0; k < n; ++k) {
            REQUIRE(i[k] == sv::index_t(k));
            REQUIRE(d[k] == 2.5f);
        }
    }
    CHECK(sv::index<int>(4).to_host() == std::vector<int>{0, 1, 2, 3});
}

TEST_CASE("lazy views fuse into the consuming primitive") {
    const std::size_t n = 65539;
    // sum of i*i for i < n computed without materialising index or map
    auto squares = sv::lazy::map(SCANVEC_FN(sv::index_t i) { return i * i; }, sv::lazy::index(n));
    sv::index_t expect = 0;
    for (std::size_t i = 0; i < n; ++i) expect += sv::index_t(i * i);
    CHECK(sv::reduce(squares) == expect);
    auto v = squares.to_vector();
    CHECK(v.size() == n);
    CHECK(v[n - 1] == sv::index_t((n - 1) * (n - 1)));
}

TEST_CASE("permute and back_permute with random permutations") {
    for (std::size_t n : test::sizes) {
        CAPTURE(n);
        auto ha = test::random_values<int>(n, 21);
        std::vector<long> perm(n);
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), std::mt19937_64(22));
        sv::vector<int> a(ha);
        sv::vector<long> idx(perm);
        auto p = sv::permute(a, idx).to_host();
        auto g = sv::back_permute(a, idx).to_host();
        for (std::size_t i = 0; i < n; ++i) {
            REQUIRE(p[perm[i]] == ha[i]);
            REQUIRE(g[i] == ha[perm[i]]);
        }
    }
}

namespace et {
/// permute(a, idx) against the loop, checked, unchecked and into the caller's memory.
template <class T, class I> void check_large_permute(std::size_t n, std::uint64_t seed) {
    CAPTURE(n);
    const auto ha = test::random_values<T>(n, seed, T(0), T(100));
    const auto perm = test::random_permutation<I>(n, seed + 1);
    std::vector<T> want(n);
    for (std::size_t i = 0; i < n; ++i) want[std::size_t(perm[i])] = ha[i];
    const sv::vector<T> a(ha);
    const sv::vector<I> idx(perm);
    CHECK(sv::permute(a, idx).to_host() == want);
    CHECK(sv::permute(a, idx, sv::unchecked).to_host() == want);
    sv::vector<T> out(n, T(0));
    sv::permute(a, idx, sv::into(out));
    CHECK(out.to_host() == want);
}
}  // namespace et

TEST_CASE("permute of results past the L2 cache (CUDA groups the pairs by target first)") {
    if (test::small_sizes_only()) return;  // 64 MB results: not under the sanitizers
    // 64 MB results (the H100's L2 holds 50 MB), sizes that are not powers of two
    et::check_large_permute<int, long>((std::size_t(1) << 24) + 3, 31);
    et::check_large_permute<double, int>((std::size_t(1) << 23) + 7, 32);
    et::check_large_permute<std::uint16_t, std::uint32_t>((std::size_t(1) << 25) + 1, 33);
    // indices read lazily: i -> i * 1000003 mod n, a permutation (gcd(1000003, n) = 1)
    const std::size_t n = (std::size_t(1) << 24) + 3;
    auto a = sv::map(SCANVEC_FN(sv::index_t i) { return int(i % 1000); }, sv::lazy::index(n));
    auto idx = sv::lazy::map(SCANVEC_FN(sv::index_t i) { return sv::index_t((i * 1000003) % sv::index_t(n)); },
                             sv::lazy::index(n));
    const auto r = sv::permute(a, idx).to_host();
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += r[(i * 1000003) % n] != int(i % 1000);
    CHECK(wrong == 0);
#if SCANVEC_CHECKS
    // bad indices are named at their positions in idx, not in the grouped pairs
    auto perm = test::random_permutation<int>(n, 34);
    auto repeated = perm;
    repeated[9000001] = repeated[123];
    CHECK_THROWS_WITH_AS(sv::permute(a, sv::vector<int>(repeated)),
                         doctest::Contains("at idx[123] and idx[9000001]"), sv::index_error);
    auto outside = perm;
    outside[16000000] = int(n) + 5;
    CHECK_THROWS_WITH_AS(sv::permute(a, sv::vector<int>(outside)), doctest::Contains("idx[16000000]"),
                         sv::index_error);
#endif
}

TEST_CASE("back_permute may repeat indices and change the length") {
    sv::vector<int> a = {10, 20, 30};
    sv::vector<int> idx = {2, 2, 0, 1, 0};
    CHECK(sv::back_permute(a, idx).to_host() == std::vector<int>{30, 30, 10, 20, 10});
}

TEST_CASE("permute and back_permute of structs") {
    std::vector<particle> h = {{1, 2, 0}, {3, 4, 1}, {5, 6, 2}};
    sv::vector<particle> p(h);
    sv::vector<int> idx = {2, 0, 1};
    auto r = sv::permute(p, idx).to_host();
    CHECK(r[2].id == 0);
    CHECK(r[0].id == 1);
    CHECK(r[1].x == 5);
    auto g = sv::back_permute(p, idx).to_host();
    CHECK(g[0].id == 2);
    CHECK(g[2].v == 4);
}

TEST_CASE("bad permutation indices throw index_error naming the index, inputs untouched") {
    sv::vector<int> a = {1, 2, 3, 4};
    sv::vector<int> repeated = {0, 1, 1, 3};
    sv::vector<int> high = {0, 1, 2, 4};
    sv::vector<int> negative = {0, -1, 2, 3};
#if SCANVEC_CHECKS
    CHECK_THROWS_WITH_AS(sv::permute(a, repeated), doctest::Contains("index 1 repeats in idx (at idx[1] and idx[2])"), sv::index_error);
    CHECK_THROWS_WITH_AS(sv::permute(a, high), doctest::Contains("idx[3] = 4 is out of range for length 4"),
                         sv::index_error);
    CHECK_THROWS_AS(sv::permute(a, negative), sv::index_error);
    CHECK_THROWS_WITH_AS(sv::back_permute(a, sv::vector<int>{0, 9}),
                         doctest::Contains("idx[1] = 9 is out of range"), sv::index_error);
    CHECK_THROWS_AS(sv::back_permute(a, negative), sv::index_error);
#endif
    CHECK_THROWS_AS(sv::permute(a, sv::vector<int>{0, 1}), sv::length_error);
    CHECK(a.to_host() == std::vector<int>{1, 2, 3, 4});
    CHECK(repeated.to_host() == std::vector<int>{0, 1, 1, 3});
}
