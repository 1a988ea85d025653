// enumerate, count, pack and split against sequential references.
#include "support.hpp"

namespace dt {
struct rec {
    int key;
    double weight;
};
SCANVEC_FIELDS(rec, key, weight)
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
