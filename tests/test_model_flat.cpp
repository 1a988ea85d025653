// The model's flat forms: default and flag permutes, flag_merge, rank, extract,
// replace, append, reverse and rotate, against sequential references.
#include "nested_support.hpp"
#include <scanvec/primitives/rearrange.hpp>
#include <scanvec/primitives/split.hpp>

using test::index_t;

TEST_CASE("default_permute fills what nothing writes") {
    for (std::size_t n : test::sizes) {
        CAPTURE(n);
        const std::size_t out = n + n / 3 + 1;
        auto targets = test::random_permutation(out, 61 + n);
        targets.resize(n);  // n distinct targets among out positions
        auto h = test::random_values<int>(n, 62);
        auto got = sv::default_permute(sv::vector<int>(h), sv::vector<index_t>(targets), -7, out).to_host();
        std::vector<int> want(out, -7);
        for (std::size_t i = 0; i < n; ++i) want[targets[i]] = h[i];
        REQUIRE(got == want);
    }
    CHECK(sv::default_permute(sv::vector<int>{1, 2}, sv::vector<int>{3, 0}, 9, 5).to_host() ==
          std::vector<int>{2, 9, 9, 1, 9});
}

TEST_CASE("flag_permute moves only the flagged elements") {
    for (std::size_t n : test::sizes) {
        for (auto p : test::flag_patterns) {
            CAPTURE(n);
            const std::string shape_name = test::name(p);
            CAPTURE(shape_name);
            auto hf = test::random_flags(n, p, 71 + n);
            auto h = test::random_values<int>(n, 72);
            const std::size_t out = n / 2 + 3;
            // flagged elements get distinct targets; the others get garbage (never read)
            std::size_t flagged = 0;
            for (bool b : hf) flagged += b;
            auto perm = test::random_permutation(std::max(out, flagged), 73 + n);
            std::vector<index_t> idx(n);
            std::size_t next = 0;
            std::vector<int> want(std::max(out, flagged), 0);
            for (std::size_t i = 0; i < n; ++i) {
                if (hf[i]) { idx[i] = perm[next++]; want[idx[i]] = h[i]; }
                else idx[i] = -12345;
            }
            auto got = sv::flag_permute(sv::vector<int>(h), sv::vector<index_t>(idx), sv::vector<bool>(hf),
                                        want.size()).to_host();
            REQUIRE(got == want);
        }
    }
    sv::vector<nt::lin> a = {{1, 2}, {3, 4}, {5, 6}};
    auto r = sv::flag_permute(a, sv::vector<int>{1, 9, 0}, sv::vector<int>{1, 0, 2}, 3).to_host();
    CHECK(r == std::vector<nt::lin>{{5, 6}, {1, 2}, {0, 0}});
}

TEST_CASE("flag_merge interleaves two vectors and undoes split") {
    for (std::size_t n : test::sizes) {
        for (auto p : test::flag_patterns) {
            CAPTURE(n);
            const std::string shape_name = test::name(p);
            CAPTURE(shape_name);
            auto hf = test::random_flags(n, p, 81 + n);
            auto h = test::random_values<int>(n, 82);
            std::vector<int> falses, trues;
            for (std::size_t i = 0; i < n; ++i) (hf[i] ? trues : falses).push_back(h[i]);
            sv::vector<bool> f(hf);
            auto merged = sv::flag_merge(f, sv::vector<int>(falses), sv::vector<int>(trues)).to_host();
            REQUIRE(merged == h);
            // split puts falses first, trues after: flag_merge takes them back
            sv::vector<int> a(h);
            auto sp = sv::split(a, f);
            const std::size_t nf = falses.size();
            auto back = sv::flag_merge(f, sv::view(sp.begin(), nf), sv::view(sp.begin() + nf, n - nf)).to_host();
            REQUIRE(back == h);
        }
    }
    CHECK(sv::flag_merge(sv::vector<bool>{false, true, true, false}, sv::vector<int>{1, 2}, sv::vector<int>{8, 9})
              .to_host() == std::vector<int>{1, 8, 9, 2});
}

TEST_CASE("rank is the stable sort position") {
    for (std::size_t n : test::sizes) {
        CAPTURE(n);
        auto h = test::random_values<int>(n, 91, -20, 20);  // many ties: stability matters
        auto got = sv::rank(sv::vector<int>(h)).to_host();
        std::vector<index_t> order(n);
        std::iota(order.begin(), order.end(), index_t(0));
        std::stable_sort(order.begin(), order.end(), [&](index_t i, index_t j) { return h[i] < h[j]; });
        std::vector<index_t> want(n);
        for (std::size_t j = 0; j < n; ++j) want[order[j]] = index_t(j);
        REQUIRE(got == want);
        // permuting by the rank sorts
        auto sorted = sv::permute(sv::vector<int>(h), sv::vector<index_t>(got)).to_host();
        REQUIRE(std::is_sorted(sorted.begin(), sorted.end()));
    }
    CHECK(sv::rank(sv::vector<double>{2.5, -1.0, 2.5, 0.0}).to_host() == std::vector<index_t>{2, 0, 3, 1});
    CHECK(sv::rank(sv::vector<nt::lin>{{2, 1}, {1, 5}, {2, 0}, {1, 5}}).to_host() == std::vector<index_t>{3, 0, 2, 1});
}

TEST_CASE("extract, replace, append, reverse and rotate") {
    for (std::size_t n : test::sizes) {
        CAPTURE(n);
        auto h = test::random_values<int>(n, 101);
        auto g = test::random_values<int>(n / 2 + 1, 102);
        sv::vector<int> a(h);
        if (n) {
            const index_t i = index_t(n / 2);
            CHECK(sv::extract(a, i) == h[i]);
            auto want = h;
            want[i] = 4242;
            CHECK(sv::replace(a, i, 4242).to_host() == want);
        }
        auto cat = h;
        cat.insert(cat.end(), g.begin(), g.end());
        CHECK(sv::append(a, sv::vector<int>(g)).to_host() == cat);
        CHECK(sv::reverse(a).to_host() == std::vector<int>(h.rbegin(), h.rend()));
        for (index_t k : {index_t(0), index_t(1), index_t(-3), index_t(n), index_t(7 * n + 5)}) {
            CAPTURE(k);
            std::vector<int> want(n);
            for (std::size_t i = 0; i < n; ++i) want[std::size_t((index_t(i) + k % index_t(n) + index_t(n)) % index_t(n))] = h[i];
            REQUIRE(sv::rotate(a, k).to_host() == want);
        }
    }
    sv::vector<nt::lin> s = {{1, 2}, {3, 4}, {5, 6}};
    CHECK(sv::reverse(s).to_host() == std::vector<nt::lin>{{5, 6}, {3, 4}, {1, 2}});
    CHECK(sv::rotate(s, 1).to_host() == std::vector<nt::lin>{{5, 6}, {1, 2}, {3, 4}});
    CHECK(sv::append(s, s).size() == 6);
    CHECK(sv::replace(s, 1, nt::lin{9, 9}).to_host() == std::vector<nt::lin>{{1, 2}, {9, 9}, {5, 6}});
    CHECK(sv::extract(s, 2) == nt::lin{5, 6});
    CHECK(sv::reverse(sv::lazy::index(4)).to_host() == std::vector<index_t>{3, 2, 1, 0});
}

TEST_CASE("the flat model forms reject bad input") {
    sv::vector<int> a = {1, 2, 3};
    CHECK_THROWS_WITH_AS(sv::default_permute(a, sv::vector<int>{0, 5, 1}, 0, 4),
                         doctest::Contains("idx[1] = 5 is out of range for length 4"), sv::index_error);
    CHECK_THROWS_AS(sv::default_permute(a, sv::vector<int>{0, 1, 1}, 0, 4), sv::index_error);
    CHECK_THROWS_AS(sv::default_permute(a, sv::vector<int>{0, 1}, 0, 4), sv::length_error);
    CHECK_THROWS_WITH_AS(sv::flag_permute(a, sv::vector<int>{0, 7, 1}, sv::vector<bool>{true, true, false}, 3),
                         doctest::Contains("idx[1] = 7 is out of range for length 3"), sv::index_error);
    CHECK_THROWS_WITH_AS(sv::flag_permute(a, sv::vector<int>{2, 0, 2}, sv::vector<bool>{true, false, true}, 3),
                         doctest::Contains("position 2 of the result is written twice"), sv::index_error);
    CHECK_THROWS_AS(sv::flag_permute(a, sv::vector<int>{0, 1, 2}, sv::vector<bool>{true}, 3), sv::length_error);
    CHECK_THROWS_WITH_AS(sv::flag_merge(sv::vector<bool>{true, true, false}, sv::vector<int>{1, 2}, sv::vector<int>{3}),
                         doctest::Contains("1 false flags for a of length 2"), sv::length_error);
    CHECK_THROWS_AS(sv::flag_merge(sv::vector<bool>{true}, sv::vector<int>{1}, sv::vector<int>{3}), sv::length_error);
    CHECK_THROWS_AS(sv::extract(a, 3), sv::index_error);
    CHECK_THROWS_AS(sv::extract(a, -1), sv::index_error);
    CHECK_THROWS_AS(sv::replace(a, 3, 0), sv::index_error);
    CHECK(sv::rotate(sv::vector<int>(), 5).empty());
    CHECK(sv::reverse(sv::vector<int>()).empty());
    CHECK(sv::rank(sv::vector<int>()).empty());
}
