// enumerate, count, pack and split against sequential references.
#include "support.hpp"
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/lazy_scan.hpp>
#include <scanvec/primitives/split.hpp>

namespace dt {
struct rec {
    int key;
    double weight;
};
SCANVEC_FIELDS(rec, key, weight)
struct is_odd {
    SCANVEC_HD bool operator()(int v) const { return (v & 1) != 0; }
};
}  // namespace dt

TEST_CASE("enumerate, count and pack") {
    for (std::size_t n : test::sizes) {
        for (auto p : test::flag_patterns) {
            CAPTURE(n);
            CAPTURE(test::name(p));
            auto hf = test::random_flags(n, p, 81 + n);
            auto h = test::random_values<int>(n, 82);
            sv::vector<bool> f(hf);
            sv::vector<int> a(h);
            auto e = sv::enumerate(f).to_host();
            auto packed = sv::pack(a, f).to_host();
            std::vector<int> want;
            sv::index_t c = 0;
            for (std::size_t i = 0; i < n; ++i) {
                REQUIRE(e[i] == c);
                if (hf[i]) { ++c; want.push_back(h[i]); }
            }
            CHECK(sv::count(f) == c);
            CHECK(packed == want);
        }
    }
}

TEST_CASE("pack on both sides of the scatter-before-count bound, of values and of records") {
    // up to pack_policy::scatter_before_count_max the scatter runs before the
    // count is read (into a result as long as the input); past it, after
    const std::size_t bound = sv::detail::pack_policy::scatter_before_count_max;
    for (std::size_t n : {bound, bound + 5}) {
        CAPTURE(n);
        auto hf = test::random_flags(n, test::flag_pattern::sparse, 91);
        auto h = test::random_values<int>(n, 92);
        std::vector<dt::rec> hr(n);
        for (std::size_t i = 0; i < n; ++i) hr[i] = {h[i], 0.5 * double(i)};
        std::vector<int> want;
        std::vector<dt::rec> want_r;
        for (std::size_t i = 0; i < n; ++i)
            if (hf[i]) want.push_back(h[i]), want_r.push_back(hr[i]);
        sv::vector<bool> f(hf);
        CHECK(sv::pack(sv::vector<int>(h), f).to_host() == want);
        auto got = sv::pack(sv::vector<dt::rec>(hr), f).to_host();
        REQUIRE(got.size() == want_r.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            REQUIRE(got[i].key == want_r[i].key);
            REQUIRE(got[i].weight == want_r[i].weight);
        }
        // all false and all true
        CHECK(sv::pack(sv::vector<int>(h), sv::vector<bool>(n, false)).empty());
        CHECK(sv::pack(sv::vector<int>(h), sv::vector<bool>(n, true)).to_host() == h);
    }
}

TEST_CASE("pack on both sides of the one-block bound: values, records, lazy and integer flags") {
    // On CUDA a pack of up to one_block_scan_shape<int>::size elements is one block.
    const std::size_t bound = std::size_t(sv::detail::one_block_scan_shape<int>::size);
    for (std::size_t n : {bound - 1, bound, bound + 1, std::size_t(3)}) {
        CAPTURE(n);
        auto h = test::random_values<int>(n, 93);
        std::vector<dt::rec> hr(n);
        for (std::size_t i = 0; i < n; ++i) hr[i] = {h[i], 0.25 * double(i)};
        const sv::vector<int> a(h);
        // flags from a lazy map (read once per element), and as integers (nonzero: kept)
        std::vector<int> hk(n);
        for (std::size_t i = 0; i < n; ++i) hk[i] = (h[i] % 3 == 0) ? int(i % 5) + 1 : 0;
        std::vector<int> want_lazy, want_int;
        std::vector<dt::rec> want_r;
        for (std::size_t i = 0; i < n; ++i) {
            if (h[i] & 1) want_lazy.push_back(h[i]), want_r.push_back(hr[i]);
            if (hk[i]) want_int.push_back(h[i]);
        }
        CHECK(sv::pack(a, sv::lazy::map(dt::is_odd{}, a)).to_host() == want_lazy);
        CHECK(sv::pack(a, sv::vector<int>(hk)).to_host() == want_int);
        auto got = sv::pack(sv::vector<dt::rec>(hr), sv::lazy::map(dt::is_odd{}, a)).to_host();
        REQUIRE(got.size() == want_r.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            REQUIRE(got[i].key == want_r[i].key);
            REQUIRE(got[i].weight == want_r[i].weight);
        }
        CHECK(sv::pack(a, sv::vector<bool>(n, false)).empty());
        CHECK(sv::pack(a, sv::vector<bool>(n, true)).to_host() == h);
    }
}

TEST_CASE("split is stable: falses first, then trues") {
    for (std::size_t n : test::sizes) {
        for (auto p : test::flag_patterns) {
            CAPTURE(n);
            auto hf = test::random_flags(n, p, 91 + n);
            auto h = test::random_values<int>(n, 92);
            auto got = sv::split(sv::vector<int>(h), sv::vector<bool>(hf)).to_host();
            std::vector<int> want;
            for (std::size_t i = 0; i < n; ++i) if (!hf[i]) want.push_back(h[i]);
            for (std::size_t i = 0; i < n; ++i) if (hf[i]) want.push_back(h[i]);
            REQUIRE(got == want);
        }
    }
}

TEST_CASE("split on both sides of its one-tile and counted-tiles bounds, with read and computed flags") {
    // one tile of 4-byte keys holds 4096; up to 1024 tiles (2^22 keys) count
    // per tile, past that a reduce and look-back (detail/split/policy.hpp)
    for (std::size_t n : {std::size_t(4095), std::size_t(4096), std::size_t(4097), std::size_t(1) << 22,
                          (std::size_t(1) << 22) + 5}) {
        CAPTURE(n);
        auto h = test::random_values<int>(n, 94 + n);
        auto hf = test::random_flags(n, test::flag_pattern::dense, 95 + n);
        sv::vector<int> a(h);
        std::vector<int> want;
        for (std::size_t i = 0; i < n; ++i) if (!hf[i]) want.push_back(h[i]);
        for (std::size_t i = 0; i < n; ++i) if (hf[i]) want.push_back(h[i]);
        REQUIRE(sv::split(a, sv::vector<bool>(hf)).to_host() == want);
        auto bit3 = sv::lazy::map(SCANVEC_FN(int x) { return (x >> 3) & 1; }, a);  // computed from the loaded keys
        want.clear();
        for (int x : h) if (!((x >> 3) & 1)) want.push_back(x);
        for (int x : h) if ((x >> 3) & 1) want.push_back(x);
        REQUIRE(sv::split(a, bit3).to_host() == want);
    }
}

TEST_CASE("split of struct elements across many tiles is stable") {
    for (std::size_t n : test::sizes) {
        CAPTURE(n);
        auto keys = test::random_values<int>(n, 93);
        std::vector<dt::rec> h(n);
        for (std::size_t i = 0; i < n; ++i) h[i] = {keys[i], double(i) + 0.25};
        sv::vector<dt::rec> r(h);
        auto odd = sv::lazy::map(SCANVEC_FN(const dt::rec& x) { return (x.key & 1) != 0; }, r);
        auto got = sv::split(r, odd).to_host();
        std::vector<dt::rec> want;
        for (const auto& x : h) if ((x.key & 1) == 0) want.push_back(x);
        for (const auto& x : h) if ((x.key & 1) != 0) want.push_back(x);
        REQUIRE(got.size() == want.size());
        for (std::size_t i = 0; i < n; ++i) {
            REQUIRE(got[i].key == want[i].key);
            REQUIRE(got[i].weight == want[i].weight);
        }
    }
}

TEST_CASE("split of Blelloch's example and of structs, with flags from a lazy map") {
    sv::vector<int> a = {5, 7, 3, 1, 4, 2, 7, 2};
    auto odd = sv::lazy::map(SCANVEC_FN(int x) { return (x & 1) == 1; }, a);
    CHECK(sv::split(a, odd).to_host() == std::vector<int>{4, 2, 2, 5, 7, 3, 1, 7});
    sv::vector<dt::rec> r = {{3, 0.5}, {2, 1.5}, {1, 2.5}};
    sv::vector<bool> f = {true, false, true};
    auto s = sv::split(r, f).to_host();
    CHECK(s[0].key == 2);
    CHECK(s[1].key == 3);
    CHECK(s[2].weight == 2.5);
    auto pk = sv::pack(r, f).to_host();
    CHECK(pk.size() == 2);
    CHECK(pk[1].key == 1);
}

TEST_CASE("derived primitives reject mismatched lengths") {
    sv::vector<int> a(3);
    sv::vector<bool> f(2);
    CHECK_THROWS_AS(sv::pack(a, f), sv::length_error);
    CHECK_THROWS_WITH_AS(sv::split(a, f), doctest::Contains("split: lengths differ (3 and 2)"), sv::length_error);
}

TEST_CASE("a lazy scan feeds a permute in one pass and materialises on demand") {
    for (std::size_t n : test::sizes) {
        CAPTURE(n);
        auto h = test::random_values<int>(n, 121, 0, 5);
        sv::vector<int> a(h);
        auto lazy = sv::lazy::scan(a);
        auto got = lazy.to_host();
        auto want = sv::scan(a).to_host();
        REQUIRE(got == want);
        // reverse permutation computed from a lazy enumerate of all-true flags
        auto all = sv::lazy::distribute(true, n);
        auto rev = sv::lazy::map(SCANVEC_FN(sv::index_t e, sv::index_t i) { return sv::index_t(i) * 0 + e; },
                                 sv::lazy::enumerate(all), sv::lazy::index(n));
        auto same = sv::permute(a, rev, sv::unchecked).to_host();
        REQUIRE(same == h);
        auto mirrored = sv::lazy::map(SCANVEC_FN(sv::index_t e) { return sv::index_t(0) - e; }, sv::lazy::enumerate(all));
        auto back = sv::lazy::map(SCANVEC_FN(sv::index_t e) { return e; }, mirrored);
        auto m = back.to_host();
        for (std::size_t i = 0; i < n; ++i) REQUIRE(m[i] == -sv::index_t(i));
    }
}
