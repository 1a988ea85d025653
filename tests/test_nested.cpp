// Segment descriptors, nested vectors and the segmented scans, reduces, index,
// distribute, extract, replace, enumerate, count and expand, against
// sequential per-segment references on every descriptor shape.
#include "nested_support.hpp"
#include <scanvec/primitives/nested.hpp>

using test::index_t;
using test::nest;
using test::shape;

namespace {

/// Per-segment reference scans: inclusive / exclusive, forward / backward.
template <class T, class Op> nest<T> ref_scan(const nest<T>& x, Op op, T id, bool inclusive, bool backward) {
    nest<T> r(x.size());
    for (std::size_t k = 0; k < x.size(); ++k) {
        const auto& s = x[k];
        r[k].resize(s.size());
        T acc = id;
        if (!backward) {
            for (std::size_t i = 0; i < s.size(); ++i) {
                if (inclusive) { acc = op(acc, s[i]); r[k][i] = acc; }
                else { r[k][i] = acc; acc = op(acc, s[i]); }
            }
        } else {
            for (std::size_t i = s.size(); i-- > 0;) {
                if (inclusive) { acc = op(s[i], acc); r[k][i] = acc; }
                else { r[k][i] = acc; acc = op(s[i], acc); }
            }
        }
    }
    return r;
}
template <class T, class Op> std::vector<T> ref_reduce(const nest<T>& x, Op op, T id) {
    std::vector<T> r;
    for (auto& s : x) {
        T acc = id;
        for (auto& v : s) acc = op(acc, v);
        r.push_back(acc);
    }
    return r;
}

template <class T, class Op> void check_scans(const nest<T>& hx, Op op) {
    sv::nested<T> x(hx);
    const T id = op.identity();
    test::check_nested(sv::scan(x, op).to_host(), ref_scan(hx, op, id, false, false));
    test::check_nested(sv::inclusive_scan(x, op).to_host(), ref_scan(hx, op, id, true, false));
    test::check_nested(sv::backward_scan(x, op).to_host(), ref_scan(hx, op, id, false, true));
    test::check_nested(sv::backward_inclusive_scan(x, op).to_host(), ref_scan(hx, op, id, true, true));
    test::check_equal(sv::reduce(x, op).to_host(), ref_reduce(hx, op, id));
    // the (values, descriptor) forms give the same flat results
    test::check_equal(sv::scan(x.values(), x.segments(), op).to_host(), test::flatten(ref_scan(hx, op, id, false, false)));
    test::check_equal(sv::reduce(x.values(), x.segments(), op).to_host(), ref_reduce(hx, op, id));
}

}  // namespace

TEST_CASE("a nested vector of Blelloch's kind") {
    sv::nested<int> x(nest<int>{{1, 2, 3}, {}, {4}, {5, 6}});
    CHECK(x.count() == 4);
    CHECK(x.total() == 6);
    CHECK(x.lengths().to_host() == std::vector<index_t>{3, 0, 1, 2});
    CHECK(x.segments().offsets().to_host() == std::vector<index_t>{0, 3, 3, 4, 6});
    CHECK(x.segments().flags().to_host() == std::vector<bool>{true, false, false, true, true, false});
    CHECK(x.segments().ids().to_host() == std::vector<index_t>{0, 0, 0, 2, 3, 3});
    CHECK(sv::materialize(x.segments().lazy_ids()).to_host() == std::vector<index_t>{0, 0, 0, 2, 3, 3});
    CHECK(sv::scan(x).to_host() == nest<int>{{0, 1, 3}, {}, {0}, {0, 5}});
    CHECK(sv::reduce(x).to_host() == std::vector<int>{6, 0, 4, 11});
    CHECK(sv::reduce(x, sv::max<int>{}).to_host() == std::vector<int>{3, sv::max<int>{}.identity(), 4, 6});
    CHECK(sv::index(x.segments()).to_host() == std::vector<index_t>{0, 1, 2, 0, 0, 1});
    CHECK(sv::distribute(sv::vector<int>{10, 20, 30, 40}, x.segments()).to_host() ==
          std::vector<int>{10, 10, 10, 30, 40, 40});
    CHECK(sv::length(x).to_host() == std::vector<index_t>{3, 0, 1, 2});
    CHECK(sv::expand(sv::vector<int>{7, 8, 9}, sv::vector<int>{2, 0, 3}).to_host() == nest<int>{{7, 7}, {}, {9, 9, 9}});
}

TEST_CASE("descriptor forms convert into each other") {
    for (std::size_t n : test::sizes) {
        for (auto sh : test::shapes) {
            CAPTURE(n);
            const std::string shape_name = test::name(sh);
            CAPTURE(shape_name);
            auto len = test::random_lengths(n, sh, 11 + n);
            auto off = test::offsets_of(len);
            auto s = sv::segments::from_lengths(sv::vector<index_t>(len));
            REQUIRE(s.count() == len.size());
            REQUIRE(s.total() == n);
            REQUIRE(s.size() == n);
            CHECK(s.lengths().to_host() == len);
            CHECK(s.offsets().to_host() == off);
            CHECK(s.starts().to_host() == std::vector<index_t>(off.begin(), off.end() - 1));
            // flags and ids against the reference
            std::vector<bool> flags(n, false);
            std::vector<index_t> ids(n);
            std::size_t empties = 0;
            for (std::size_t k = 0; k < len.size(); ++k) {
                if (len[k] == 0) ++empties;
                else flags[off[k]] = true;
                for (index_t i = off[k]; i < off[k + 1]; ++i) ids[i] = index_t(k);
            }
            CHECK(s.flags().to_host() == flags);
            CHECK(s.ids().to_host() == ids);
            CHECK(sv::materialize(s.lazy_ids()).to_host() == ids);
            CHECK(s.empty_count() == empties);
            CHECK(s.has_empty() == (empties > 0));
            // every construction gives the same descriptor
            CHECK(sv::segments::from_lengths(len) == s);
            CHECK(sv::segments::from_offsets(sv::vector<index_t>(off)) == s);
            CHECK(sv::segments::from_starts(sv::vector<index_t>(std::vector<index_t>(off.begin(), off.end() - 1)), n) == s);
            CHECK(sv::allocate(sv::vector<int>(std::vector<int>(len.begin(), len.end()))) == s);
            if (empties == 0) {
                auto f = sv::segments::from_flags(sv::vector<bool>(flags));
                CHECK(f == s);
                CHECK(f.lengths().to_host() == len);
                CHECK(f.ids().to_host() == ids);
                CHECK(sv::flags_to_lengths(s.flags()).to_host() == len);
            } else {
                CHECK(sv::segments::from_flags(sv::vector<bool>(flags)) != s);
            }
        }
    }
}

TEST_CASE("segment ids on both sides of the search bound, with runs of empty segments") {
    // On CUDA up to segment_ids_policy::search_max elements each finds its segment
    // by a binary search of the offsets; past it, marks and a max-scan.
    const std::size_t bound = sv::detail::segment_ids_policy::search_max;
    for (std::size_t n : {std::size_t(1), std::size_t(2047), bound, bound + 1}) {
        CAPTURE(n);
        // empty segments first, between runs and last; lengths 1 to 40
        std::mt19937_64 rng(5 + n);
        std::vector<index_t> len(3, 0);
        std::size_t placed = 0;
        while (placed < n) {
            const std::size_t l = std::min<std::size_t>(n - placed, 1 + rng() % 40);
            len.push_back(index_t(l));
            placed += l;
            for (std::size_t e = rng() % 3; e-- > 0;) len.push_back(0);
        }
        len.push_back(0);
        std::vector<index_t> ids;
        for (std::size_t k = 0; k < len.size(); ++k) ids.insert(ids.end(), std::size_t(len[k]), index_t(k));
        CHECK(sv::segments::from_lengths(sv::vector<index_t>(len)).ids().to_host() == ids);
    }
}

TEST_CASE("from_lengths names the first negative length, past a tile and in every length type") {
    // the offsets' scan finds it: the first of several, wherever it lies
    for (std::size_t m : {std::size_t(1), std::size_t(5), std::size_t(3000), std::size_t(100003)}) {
        CAPTURE(m);
        std::vector<int> len(m, 2);
        const std::size_t first = m / 2, later = m - 1;
        len[later] = -7;
        len[first] = -3;
        const std::string want = "lengths[" + std::to_string(first) + "] = -3 is negative";
        CHECK_THROWS_WITH_AS(sv::segments::from_lengths(sv::vector<int>(len)), doctest::Contains(want.c_str()), sv::index_error);
        std::vector<long long> len64(len.begin(), len.end());
        CHECK_THROWS_WITH_AS(sv::segments::from_lengths(sv::vector<long long>(len64)), doctest::Contains(want.c_str()),
                             sv::index_error);
        // unsigned lengths are never negative; their offsets and total are exact
        std::vector<unsigned> ulen(m, 3u);
        const auto s = sv::segments::from_lengths(sv::vector<unsigned>(ulen));
        CHECK(s.total() == index_t(3 * m));
        CHECK(s.offsets()[m] == index_t(3 * m));
        // lazy lengths
        const auto t = sv::segments::from_lengths(sv::lazy::distribute(index_t(2), m));
        CHECK(t.total() == index_t(2 * m));
        CHECK(t.offsets().to_host().back() == index_t(2 * m));
    }
    CHECK(sv::segments::from_lengths(sv::vector<int>()).count() == 0);
    CHECK(sv::segments::from_lengths(sv::vector<int>()).offsets().to_host() == std::vector<index_t>{0});
}

TEST_CASE("descriptors of no segments and of empty segments only") {
    sv::segments none;
    CHECK(none.count() == 0);
    CHECK(none.total() == 0);
    CHECK(none.offsets().to_host() == std::vector<index_t>{0});
    CHECK(none.flags().empty());
    CHECK(none.ids().empty());
    CHECK(sv::segments::from_flags(sv::vector<bool>()) == none);
    CHECK(sv::segments::from_lengths(std::vector<index_t>{}) == none);
    auto three = sv::segments::from_lengths({0, 0, 0});
    CHECK(three.count() == 3);
    CHECK(three.total() == 0);
    CHECK(three.empty_count() == 3);
    sv::nested<int> x(sv::vector<int>(), three);
    CHECK(sv::reduce(x).to_host() == std::vector<int>{0, 0, 0});
    CHECK(sv::reduce(x, sv::min<int>{}).to_host() == std::vector<int>(3, sv::min<int>{}.identity()));
    CHECK(sv::scan(x).to_host() == nest<int>(3));
    CHECK(sv::count(sv::vector<bool>(), three).to_host() == std::vector<index_t>{0, 0, 0});
    auto one = sv::segments::single(5);
    CHECK(one.count() == 1);
    CHECK(one.lengths().to_host() == std::vector<index_t>{5});
    CHECK(sv::segments::single(0).empty_count() == 1);
    CHECK(sv::segments::from_starts(sv::vector<index_t>{0, 2, 2}, 4).lengths().to_host() == std::vector<index_t>{2, 0, 2});
    CHECK(sv::segments::from_lengths(sv::vector<unsigned>{2, 0, 1}) == sv::segments::from_lengths({2, 0, 1}));
    CHECK(sv::segments::from_offsets(sv::vector<int>{0, 2, 2, 3}) == sv::segments::from_lengths({2, 0, 1}));
}

TEST_CASE("nested vectors round-trip ints, bools and described structs") {
    nest<int> a{{}, {1}, {2, 3}, {}, {4, 5, 6}, {}};
    CHECK(sv::nested<int>(a).to_host() == a);
    nest<bool> b{{true, false}, {}, {true}};
    CHECK(sv::nested<bool>(b).to_host() == b);
    nest<nt::lin> c{{{1, 2}, {3, 4}}, {}, {{5, 6}}};
    sv::nested<nt::lin> sc(c);
    CHECK(sc.to_host() == c);
    CHECK(sc.values().field<&nt::lin::b>().to_host() == std::vector<unsigned>{2, 4, 6});
    CHECK(sv::nested<int>().to_host().empty());
    CHECK_THROWS_AS(sv::nested<int>(sv::vector<int>(3), sv::segments::single(4)), sv::length_error);
}

TEST_CASE("segmented scans and reduce with every operator on every shape") {
    for (std::size_t n : test::sizes) {
        for (auto sh : test::shapes) {
            CAPTURE(n);
            const std::string shape_name = test::name(sh);
            CAPTURE(shape_name);
            auto len = test::random_lengths(n, sh, 21 + n);
            check_scans(test::cut(test::random_values<int>(n, 22), len), sv::plus<int>{});
            check_scans(test::cut(test::random_values<int>(n, 23), len), sv::max<int>{});
            check_scans(test::cut(nt::random_lins(n, 24), len), nt::lin_monoid());
            if (n > 65539) continue;  // the remaining operators at the smaller sizes
            check_scans(test::cut(test::random_values<int>(n, 25), len), sv::min<int>{});
            check_scans(test::cut(test::random_values<float>(n, 26, 0.0f, 1.0f), len), sv::plus<float>{});
            check_scans(test::cut(test::random_values<unsigned>(n, 27, 0u, 1u << 20), len), sv::bit_xor<unsigned>{});
            check_scans(test::cut(test::random_values<int>(n, 28, -1, 1), len), sv::times<int>{});
        }
    }
}

TEST_CASE("segmented scans of lazy values") {
    auto s = sv::segments::from_lengths({2, 0, 3});
    auto ones = sv::lazy::distribute(1, 5);
    CHECK(sv::scan(ones, s).to_host() == std::vector<int>{0, 1, 0, 1, 2});
    CHECK(sv::inclusive_scan(ones, s).to_host() == std::vector<int>{1, 2, 1, 2, 3});
    CHECK(sv::backward_scan(ones, s).to_host() == std::vector<int>{1, 0, 2, 1, 0});
    CHECK(sv::backward_inclusive_scan(ones, s).to_host() == std::vector<int>{2, 1, 3, 2, 1});
    CHECK(sv::reduce(ones, s).to_host() == std::vector<int>{2, 0, 3});
}

TEST_CASE("index, distribute, length, extract and replace on every shape") {
    for (std::size_t n : test::sizes) {
        for (auto sh : test::shapes) {
            CAPTURE(n);
            const std::string shape_name = test::name(sh);
            CAPTURE(shape_name);
            auto len = test::random_lengths(n, sh, 31 + n);
            auto off = test::offsets_of(len);
            auto hv = test::random_values<int>(n, 32);
            auto x = sv::nested<int>(sv::vector<int>(hv), sv::segments::from_lengths(len));
            const auto& s = x.segments();
            const std::size_t m = len.size();
            auto per_seg = test::random_values<int>(m, 33);
            auto idx = sv::index(s).to_host();
            auto dist = sv::distribute(sv::vector<int>(per_seg), s).to_host();
            REQUIRE(idx.size() == n);
            REQUIRE(dist.size() == n);
            for (std::size_t k = 0; k < m; ++k)
                for (index_t i = off[k]; i < off[k + 1]; ++i) {
                    REQUIRE(idx[i] == i - off[k]);
                    REQUIRE(dist[i] == per_seg[k]);
                }
            CHECK(sv::length(s).to_host() == len);
            CHECK(sv::length(x).to_host() == len);
            // extract/replace need every segment non-empty
            if (s.has_empty()) {
                if (m) CHECK_THROWS_AS(sv::extract(x, sv::vector<index_t>(m)), sv::index_error);
                continue;
            }
            std::mt19937_64 rng(34 + n);
            std::vector<index_t> pick(m);
            std::vector<int> want(m), put = test::random_values<int>(m, 35);
            auto replaced = hv;
            for (std::size_t k = 0; k < m; ++k) {
                pick[k] = index_t(rng() % std::uint64_t(len[k]));
                want[k] = hv[off[k] + pick[k]];
                replaced[off[k] + pick[k]] = put[k];
            }
            CHECK(sv::extract(x, sv::vector<index_t>(pick)).to_host() == want);
            CHECK(sv::extract(x.values(), s, sv::vector<index_t>(pick)).to_host() == want);
            CHECK(sv::replace(x, sv::vector<index_t>(pick), sv::vector<int>(put)).to_host() == test::cut(replaced, len));
        }
    }
}

TEST_CASE("segmented enumerate and count on every shape") {
    for (std::size_t n : test::sizes) {
        for (auto sh : test::shapes) {
            CAPTURE(n);
            const std::string shape_name = test::name(sh);
            CAPTURE(shape_name);
            auto len = test::random_lengths(n, sh, 41 + n);
            auto off = test::offsets_of(len);
            auto hf = test::random_flags(n, test::flag_pattern::dense, 42 + n);
            auto s = sv::segments::from_lengths(len);
            sv::vector<bool> f(hf);
            auto e = sv::enumerate(f, s).to_host();
            auto c = sv::count(f, s).to_host();
            REQUIRE(e.size() == n);
            REQUIRE(c.size() == len.size());
            for (std::size_t k = 0; k < len.size(); ++k) {
                index_t before = 0;
                for (index_t i = off[k]; i < off[k + 1]; ++i) {
                    REQUIRE(e[i] == before);
                    before += hf[i];
                }
                REQUIRE(c[k] == before);
            }
            sv::nested<bool> nf(f, s);
            CHECK(sv::enumerate(nf).to_host() == test::cut(e, len));
            CHECK(sv::count(nf).to_host() == c);
        }
    }
}

TEST_CASE("allocate and expand: counts per element become segments") {
    for (std::size_t m : {0, 1, 33, 1000, 100003}) {
        CAPTURE(m);
        auto counts = test::random_values<int>(m, 51, 0, 6);
        auto vals = test::random_values<int>(m, 52);
        auto x = sv::expand(sv::vector<int>(vals), sv::vector<int>(counts));
        nest<int> want(m);
        for (std::size_t i = 0; i < m; ++i) want[i].assign(counts[i], vals[i]);
        CHECK(x.to_host() == want);
        // the load-balancing step: each slot learns its element and its rank within it
        auto owner = x.segments().ids().to_host();
        auto slot = sv::index(x.segments()).to_host();
        std::size_t at = 0;
        for (std::size_t i = 0; i < m; ++i)
            for (int j = 0; j < counts[i]; ++j, ++at) {
                REQUIRE(owner[at] == index_t(i));
                REQUIRE(slot[at] == j);
            }
    }
    auto st = sv::expand(sv::vector<nt::lin>{{1, 2}, {3, 4}}, sv::vector<int>{1, 2}).to_host();
    CHECK(st == nest<nt::lin>{{{1, 2}}, {{3, 4}, {3, 4}}});
}

TEST_CASE("descriptors and segmented forms reject bad input") {
    CHECK_THROWS_WITH_AS(sv::segments::from_lengths(sv::vector<int>{2, -1, 3}),
                         doctest::Contains("lengths[1] = -1 is negative"), sv::index_error);
    CHECK_THROWS_AS(sv::segments::from_lengths({2, -1}), sv::index_error);
    CHECK_THROWS_WITH_AS(sv::segments::from_offsets(sv::vector<index_t>{1, 2}), doctest::Contains("offsets[0] = 1"),
                         sv::index_error);
    CHECK_THROWS_WITH_AS(sv::segments::from_offsets(sv::vector<index_t>{0, 4, 3}),
                         doctest::Contains("offsets[1] = 4 > offsets[2] = 3"), sv::index_error);
    CHECK_THROWS_AS(sv::segments::from_offsets(sv::vector<index_t>{}), sv::index_error);
    CHECK_THROWS_WITH_AS(sv::segments::from_starts(sv::vector<index_t>{0, 5}, 3),
                         doctest::Contains("starts[1] = 5 exceeds the total 3"), sv::index_error);
    CHECK_THROWS_AS(sv::segments::from_starts(sv::vector<index_t>{}, 3), sv::index_error);
    auto s = sv::segments::from_lengths({2, 2});
    sv::vector<int> a(5);
    CHECK_THROWS_WITH_AS(sv::scan(a, s), doctest::Contains("(5 and 4)"), sv::length_error);
    CHECK_THROWS_AS(sv::reduce(a, s), sv::length_error);
    CHECK_THROWS_AS(sv::backward_inclusive_scan(a, s), sv::length_error);
    CHECK_THROWS_AS(sv::distribute(sv::vector<int>(3), s), sv::length_error);
    CHECK_THROWS_AS(sv::enumerate(sv::vector<bool>(3), s), sv::length_error);
    CHECK_THROWS_AS(sv::count(sv::vector<bool>(3), s), sv::length_error);
    sv::nested<int> x(sv::vector<int>(4), s);
    CHECK_THROWS_WITH_AS(sv::extract(x, sv::vector<int>{1, 2}),
                         doctest::Contains("idx[1] = 2 is out of range for segment 1 of length 2"), sv::index_error);
    CHECK_THROWS_AS(sv::extract(x, sv::vector<int>{-1, 0}), sv::index_error);
    CHECK_THROWS_AS(sv::extract(x, sv::vector<int>{0}), sv::length_error);
    CHECK_THROWS_AS(sv::replace(x, sv::vector<int>{0, 0}, sv::vector<int>{1}), sv::length_error);
    CHECK_THROWS_AS(sv::expand(sv::vector<int>(2), sv::vector<int>(3)), sv::length_error);
}
