// Permutes within segments, pack, split, rank, reverse, append and flag_merge of
// nested vectors, against sequential per-segment references on every shape.
#include "nested_support.hpp"
#include <scanvec/primitives/nested_permute.hpp>
#include <scanvec/primitives/rearrange.hpp>

using test::index_t;
using test::nest;

namespace {

/// For every segment k of len, a random injective map of its elements into
/// 0..out[k]-1 (out[k] >= len[k]); flat, relative indices.
std::vector<index_t> injective_indices(const std::vector<index_t>& len, const std::vector<index_t>& out,
                                       std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<index_t> r;
    for (std::size_t k = 0; k < len.size(); ++k) {
        std::vector<index_t> p(out[k]);
        std::iota(p.begin(), p.end(), index_t(0));
        std::shuffle(p.begin(), p.end(), rng);
        r.insert(r.end(), p.begin(), p.begin() + len[k]);
    }
    return r;
}

std::vector<index_t> grown(const std::vector<index_t>& len, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<index_t> out(len.size());
    for (std::size_t k = 0; k < len.size(); ++k) out[k] = len[k] + index_t(rng() % 3);
    return out;
}

template <class F> void for_shapes(std::uint64_t seed, F&& f) {
    for (std::size_t n : test::sizes) {
        for (auto sh : test::shapes) {
            CAPTURE(n);
            const std::string shape_name = test::name(sh);
            CAPTURE(shape_name);
            f(n, test::random_lengths(n, sh, seed + n));
        }
    }
}

}  // namespace

TEST_CASE("permute and back_permute within segments") {
    for_shapes(101, [](std::size_t n, const std::vector<index_t>& len) {
        auto h = test::random_values<int>(n, 102);
        auto hx = test::cut(h, len);
        sv::nested<int> x(hx);
        auto perm = test::segment_permutations(len, 103 + n);
        auto hp = test::cut(perm, len);
        nest<int> want_p(len.size()), want_b(len.size());
        for (std::size_t k = 0; k < len.size(); ++k) {
            want_p[k].resize(len[k]);
            want_b[k].resize(len[k]);
            for (index_t i = 0; i < len[k]; ++i) {
                want_p[k][hp[k][i]] = hx[k][i];
                want_b[k][i] = hx[k][hp[k][i]];
            }
        }
        sv::vector<index_t> idx(perm);
        test::check_nested(sv::permute(x, idx).to_host(), want_p);
        test::check_nested(sv::permute(x, idx, sv::unchecked).to_host(), want_p);
        test::check_nested(sv::permute(x, sv::nested<index_t>(idx, x.segments())).to_host(), want_p);
        test::check_nested(sv::back_permute(x, idx).to_host(), want_b);
        // back_permute is the inverse of permute
        test::check_nested(sv::back_permute(sv::permute(x, idx), idx).to_host(), hx);
    });
}

TEST_CASE("back_permute gathers into the shape of a nested index") {
    for_shapes(111, [](std::size_t n, const std::vector<index_t>& len) {
        auto hx = test::cut(test::random_values<int>(n, 112), len);
        sv::nested<int> x(hx);
        // idx segment k: any length where x's segment k is non-empty, indices in it
        std::mt19937_64 rng(113 + n);
        nest<index_t> hidx(len.size());
        nest<int> want(len.size());
        for (std::size_t k = 0; k < len.size(); ++k) {
            const std::size_t m = len[k] ? rng() % 5 : 0;
            for (std::size_t j = 0; j < m; ++j) {
                hidx[k].push_back(index_t(rng() % std::uint64_t(len[k])));
                want[k].push_back(hx[k][hidx[k].back()]);
            }
        }
        auto got = sv::back_permute(x, sv::nested<index_t>(hidx));
        test::check_nested(got.to_host(), want);
    });
}

TEST_CASE("default_permute and flag_permute into another shape") {
    for_shapes(121, [](std::size_t n, const std::vector<index_t>& len) {
        auto h = test::random_values<int>(n, 122);
        auto hx = test::cut(h, len);
        sv::nested<int> x(hx);
        auto out_len = grown(len, 123 + n);
        auto out = sv::segments::from_lengths(out_len);
        auto idx = injective_indices(len, out_len, 124 + n);
        auto hidx = test::cut(idx, len);
        auto hf = test::random_flags(n, test::flag_pattern::dense, 125 + n);
        auto hfs = test::cut(std::vector<int>(hf.begin(), hf.end()), len);
        nest<int> want_d(len.size()), want_f(len.size());
        for (std::size_t k = 0; k < len.size(); ++k) {
            want_d[k].assign(out_len[k], -1);
            want_f[k].assign(out_len[k], 0);
            for (index_t i = 0; i < len[k]; ++i) {
                want_d[k][hidx[k][i]] = hx[k][i];
                if (hfs[k][i]) want_f[k][hidx[k][i]] = hx[k][i];
            }
        }
        sv::vector<index_t> didx(idx);
        test::check_nested(sv::default_permute(x, didx, -1, out).to_host(), want_d);
        // unflagged elements may hold any index: they are not read
        auto fidx = idx;
        for (std::size_t i = 0; i < n; ++i)
            if (!hf[i]) fidx[i] = -99;
        test::check_nested(sv::flag_permute(x, sv::vector<index_t>(fidx), sv::vector<bool>(hf), out).to_host(), want_f);
    });
}

TEST_CASE("pack shrinks every segment to its flagged elements") {
    for_shapes(131, [](std::size_t n, const std::vector<index_t>& len) {
        for (auto p : {test::flag_pattern::dense, test::flag_pattern::sparse, test::flag_pattern::all}) {
            auto hx = test::cut(test::random_values<int>(n, 132), len);
            auto hf = test::random_flags(n, p, 133 + n);
            auto hfs = test::cut(std::vector<int>(hf.begin(), hf.end()), len);
            nest<int> want(len.size());
            std::vector<index_t> want_len(len.size());
            for (std::size_t k = 0; k < len.size(); ++k) {
                for (index_t i = 0; i < len[k]; ++i)
                    if (hfs[k][i]) want[k].push_back(hx[k][i]);
                want_len[k] = index_t(want[k].size());
            }
            auto got = sv::pack(sv::nested<int>(hx), sv::vector<bool>(hf));
            test::check_nested(got.to_host(), want);
            CHECK(got.lengths().to_host() == want_len);
            CHECK(got.segments() == sv::segments::from_lengths(want_len));
            // the packed descriptor works for the next primitive
            CHECK(sv::reduce(got).to_host() == sv::reduce(sv::nested<int>(want)).to_host());
        }
    });
}

TEST_CASE("split is stable within every segment") {
    for_shapes(141, [](std::size_t n, const std::vector<index_t>& len) {
        auto hx = test::cut(test::random_values<int>(n, 142), len);
        auto hf = test::random_flags(n, test::flag_pattern::dense, 143 + n);
        auto hfs = test::cut(std::vector<int>(hf.begin(), hf.end()), len);
        nest<int> want(len.size());
        for (std::size_t k = 0; k < len.size(); ++k) {
            for (index_t i = 0; i < len[k]; ++i) if (!hfs[k][i]) want[k].push_back(hx[k][i]);
            for (index_t i = 0; i < len[k]; ++i) if (hfs[k][i]) want[k].push_back(hx[k][i]);
        }
        sv::nested<int> x(hx);
        sv::vector<bool> f(hf);
        test::check_nested(sv::split(x, f).to_host(), want);
        test::check_nested(sv::split(x, sv::nested<bool>(f, x.segments())).to_host(), want);
        // the same as the flag-driven segmented split where flags can say it
        if (!x.segments().has_empty())
            CHECK(sv::split(x, f).values().to_host() == sv::segmented_split(x.values(), f, x.segments().flags()).to_host());
    });
}

TEST_CASE("rank within segments is the stable sort position") {
    for_shapes(151, [](std::size_t n, const std::vector<index_t>& len) {
        auto hx = test::cut(test::random_values<int>(n, 152, -9, 9), len);  // ties: stability matters
        nest<index_t> want(len.size());
        for (std::size_t k = 0; k < len.size(); ++k) {
            std::vector<index_t> order(len[k]);
            std::iota(order.begin(), order.end(), index_t(0));
            std::stable_sort(order.begin(), order.end(), [&](index_t i, index_t j) { return hx[k][i] < hx[k][j]; });
            want[k].resize(len[k]);
            for (index_t j = 0; j < len[k]; ++j) want[k][order[j]] = j;
        }
        sv::nested<int> x(hx);
        auto r = sv::rank(x);
        test::check_nested(r.to_host(), want);
        // permuting by the rank sorts every segment
        auto sorted = sv::permute(x, r).to_host();
        for (auto& s : sorted) REQUIRE(std::is_sorted(s.begin(), s.end()));
    });
    nest<nt::lin> s{{{2, 1}, {1, 5}, {2, 0}}, {}, {{1, 5}, {1, 4}}};
    CHECK(sv::rank(sv::nested<nt::lin>(s)).to_host() == nest<index_t>{{2, 0, 1}, {}, {1, 0}});
    nest<float> f{{0.5f, -2.0f}, {3.0f}};
    CHECK(sv::rank(sv::nested<float>(f)).to_host() == nest<index_t>{{1, 0}, {0}});
}

TEST_CASE("reverse within segments") {
    for_shapes(161, [](std::size_t n, const std::vector<index_t>& len) {
        auto hx = test::cut(test::random_values<int>(n, 162), len);
        auto want = hx;
        for (auto& s : want) std::reverse(s.begin(), s.end());
        test::check_nested(sv::reverse(sv::nested<int>(hx)).to_host(), want);
    });
}

TEST_CASE("append and flag_merge segment by segment") {
    for_shapes(171, [](std::size_t n, const std::vector<index_t>& len) {
        auto hx = test::cut(test::random_values<int>(n, 172), len);
        auto ylen = grown(std::vector<index_t>(len.size(), 0), 173 + n);  // 0..2 per segment
        std::vector<index_t> ysum = test::offsets_of(ylen);
        auto hy = test::cut(test::random_values<int>(std::size_t(ysum.back()), 174), ylen);
        sv::nested<int> x(hx), y(hy);
        nest<int> want_a(len.size()), want_m(len.size());
        std::vector<bool> flags;
        std::mt19937_64 rng(175 + n);
        for (std::size_t k = 0; k < len.size(); ++k) {
            want_a[k] = hx[k];
            want_a[k].insert(want_a[k].end(), hy[k].begin(), hy[k].end());
            // a random interleaving of x's and y's segment k
            std::vector<bool> seg(hx[k].size(), false);
            seg.insert(seg.end(), hy[k].size(), true);
            std::shuffle(seg.begin(), seg.end(), rng);
            std::size_t i = 0, j = 0;
            for (bool b : seg) {
                want_m[k].push_back(b ? hy[k][j++] : hx[k][i++]);
                flags.push_back(b);
            }
        }
        auto app = sv::append(x, y);
        test::check_nested(app.to_host(), want_a);
        auto merged = sv::flag_merge(sv::vector<bool>(flags), x, y);
        test::check_nested(merged.to_host(), want_m);
        CHECK(merged.segments() == app.segments());
    });
}

TEST_CASE("nested structs share one descriptor across their fields") {
    nest<nt::lin> hx{{{1, 2}, {3, 4}, {5, 6}}, {}, {{7, 8}}, {{9, 10}, {11, 12}}};
    sv::nested<nt::lin> x(hx);
    CHECK(sv::permute(x, sv::vector<int>{2, 0, 1, 0, 1, 0}).to_host() ==
          nest<nt::lin>{{{3, 4}, {5, 6}, {1, 2}}, {}, {{7, 8}}, {{11, 12}, {9, 10}}});
    CHECK(sv::pack(x, sv::vector<bool>{true, false, true, false, false, true}).to_host() ==
          nest<nt::lin>{{{1, 2}, {5, 6}}, {}, {}, {{11, 12}}});
    CHECK(sv::split(x, sv::vector<bool>{true, false, false, false, true, false}).to_host() ==
          nest<nt::lin>{{{3, 4}, {5, 6}, {1, 2}}, {}, {{7, 8}}, {{11, 12}, {9, 10}}});
    CHECK(sv::append(x, x).total() == 12);
    CHECK(sv::reverse(x).to_host()[0][0] == nt::lin{5, 6});
    CHECK_THROWS_AS(sv::extract(x, sv::vector<int>{0, 0, 0, 1}), sv::index_error);  // segment 1 is empty
    sv::nested<nt::lin> w(nest<nt::lin>{{{1, 2}, {3, 4}}, {{5, 6}}});
    CHECK(sv::extract(w, sv::vector<int>{1, 0}).to_host() == std::vector<nt::lin>{{3, 4}, {5, 6}});
    CHECK(sv::replace(w, sv::vector<int>{0, 0}, sv::vector<nt::lin>{{0, 1}, {0, 2}}).to_host() ==
          nest<nt::lin>{{{0, 1}, {3, 4}}, {{0, 2}}});
    CHECK(sv::reduce(w, nt::lin_monoid()).to_host() == std::vector<nt::lin>{{3, 3 * 2 + 4}, {5, 6}});
    auto d = sv::default_permute(x, sv::vector<int>{0, 1, 2, 0, 0, 1}, nt::lin{0, 0}, sv::segments::from_lengths({3, 1, 1, 2}));
    CHECK(d.to_host() == nest<nt::lin>{{{1, 2}, {3, 4}, {5, 6}}, {{0, 0}}, {{7, 8}}, {{9, 10}, {11, 12}}});
}

TEST_CASE("segmented permutes reject bad input") {
    sv::nested<int> x(nest<int>{{1, 2, 3}, {}, {4, 5}});
    CHECK_THROWS_WITH_AS(sv::permute(x, sv::vector<int>{0, 1, 3, 0, 1}),
                         doctest::Contains("idx[2] = 3 is out of range for segment 0 of length 3"), sv::index_error);
    CHECK_THROWS_WITH_AS(sv::permute(x, sv::vector<int>{0, 1, 2, 1, 1}),
                         doctest::Contains("position 1 of segment 2 is written twice"), sv::index_error);
    CHECK_THROWS_AS(sv::permute(x, sv::vector<int>{0, 1, 2, 1}), sv::length_error);
    CHECK_THROWS_AS(sv::permute(x, sv::nested<int>(nest<int>{{0, 1, 2}, {1}, {0}})), sv::length_error);
    CHECK_THROWS_WITH_AS(sv::back_permute(x, sv::vector<int>{0, 0, 0, 2, 0}),
                         doctest::Contains("idx[3] = 2 is out of range for segment 2 of length 2"), sv::index_error);
    CHECK_THROWS_WITH_AS(sv::back_permute(x, sv::nested<int>(nest<int>{{0}, {0}, {1}})),
                         doctest::Contains("out of range for segment 1 of length 0"), sv::index_error);
    CHECK_THROWS_AS(sv::back_permute(x, sv::nested<int>(nest<int>{{0}, {0}})), sv::length_error);
    auto out = sv::segments::from_lengths({3, 0, 3});
    CHECK_THROWS_AS(sv::default_permute(x, sv::vector<int>{0, 1, 2, 0, 3}, 0, out), sv::index_error);
    CHECK_THROWS_AS(sv::default_permute(x, sv::vector<int>{0, 1, 2, 0, 0}, 0, out), sv::index_error);
    CHECK_THROWS_AS(sv::default_permute(x, sv::vector<int>{0, 1, 2, 0, 1}, 0, sv::segments::single(6)), sv::length_error);
    CHECK_THROWS_AS(sv::flag_permute(x, sv::vector<int>{0, 0, 2, 0, 1}, sv::vector<int>{1, 1, 0, 0, 0}, out),
                    sv::index_error);
    CHECK(sv::flag_permute(x, sv::vector<int>{0, 0, 2, 0, 1}, sv::vector<int>{1, 0, 1, 0, 1}, out).to_host() ==
          nest<int>{{1, 0, 3}, {}, {0, 5, 0}});
    CHECK_THROWS_AS(sv::pack(x, sv::vector<bool>(4)), sv::length_error);
    CHECK_THROWS_AS(sv::split(x, sv::vector<bool>(6)), sv::length_error);
    sv::nested<int> y(nest<int>{{1}, {2}});
    CHECK_THROWS_AS(sv::append(x, y), sv::length_error);
    sv::nested<int> z(nest<int>{{7}, {8}, {}});
    CHECK(sv::flag_merge(sv::vector<int>{0, 1, 0, 0, 1, 0, 0}, x, z).to_host() == nest<int>{{1, 7, 2, 3}, {8}, {4, 5}});
    CHECK_THROWS_WITH_AS(sv::flag_merge(sv::vector<int>{0, 0, 0, 1, 0, 0, 1}, x, z),
                         doctest::Contains("segment 1 has 1 false flags for 0 elements of x"), sv::length_error);
    CHECK_THROWS_WITH_AS(sv::flag_merge(sv::vector<int>{0, 0, 1, 1, 0, 0, 0}, x, z),
                         doctest::Contains("segment 0 has 2 false flags for 3 elements of x"), sv::length_error);
    CHECK_THROWS_AS(sv::flag_merge(sv::vector<bool>(3), x, z), sv::length_error);
}
