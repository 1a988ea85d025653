// Segmented scans, reduce, index and distribute against per-segment references.
#include "support.hpp"
#include <scanvec/primitives/segmented_scan.hpp>
#include <scanvec/runtime/interop.hpp>

namespace {

template <class T, class Op>
std::vector<T> ref_seg(const std::vector<T>& a, const std::vector<bool>& f, Op op, T id, bool inclusive,
                       bool backward) {
    const std::size_t n = a.size();
    std::vector<T> r(n);
    auto head = [&](std::size_t i) { return i == 0 || f[i]; };
    if (!backward) {
        T acc = id;
        for (std::size_t i = 0; i < n; ++i) {
            if (head(i)) acc = id;
            if (inclusive) { acc = op(acc, a[i]); r[i] = acc; }
            else { r[i] = acc; acc = op(acc, a[i]); }
        }
    } else {
        T acc = id;
        for (std::size_t k = n; k-- > 0;) {
            if (k + 1 == n || head(k + 1)) acc = id;
            if (inclusive) { acc = op(a[k], acc); r[k] = acc; }
            else { r[k] = acc; acc = op(a[k], acc); }
        }
    }
    return r;
}

template <class T, class Op> void check_segmented(const std::vector<T>& h, const std::vector<bool>& hf, Op op) {
    sv::vector<T> a(h);
    sv::vector<bool> f(hf);
    const T id = op.identity();
    test::check_equal(sv::segmented_scan(a, f, op).to_host(), ref_seg(h, hf, op, id, false, false));
    test::check_equal(sv::segmented_inclusive_scan(a, f, op).to_host(), ref_seg(h, hf, op, id, true, false));
    test::check_equal(sv::segmented_backward_scan(a, f, op).to_host(), ref_seg(h, hf, op, id, false, true));
    test::check_equal(sv::segmented_backward_inclusive_scan(a, f, op).to_host(),
                      ref_seg(h, hf, op, id, true, true));
    auto inc = ref_seg(h, hf, op, id, true, false);
    std::vector<T> sums;
    for (std::size_t i = 0; i < h.size(); ++i)
        if (i + 1 == h.size() || hf[i + 1]) sums.push_back(inc[i]);
    test::check_equal(sv::segmented_reduce(a, f, op).to_host(), sums);
}

}  // namespace

TEST_CASE("the contract's segmented scan example") {
    sv::vector<int> a = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    sv::vector<bool> f = {true, false, false, false, true, false, false, false, false, true};
    CHECK(sv::segmented_scan(a, f).to_host() == std::vector<int>{0, 1, 3, 6, 0, 5, 11, 18, 26, 0});
    CHECK(sv::segmented_reduce(a, f).to_host() == std::vector<int>{10, 35, 10});
    CHECK(sv::segmented_index(f).to_host() == std::vector<sv::index_t>{0, 1, 2, 3, 0, 1, 2, 3, 4, 0});
    CHECK(sv::segmented_distribute(a, f).to_host() == std::vector<int>{1, 1, 1, 1, 5, 5, 5, 5, 5, 10});
}

TEST_CASE("segmented scans with every flag pattern and size") {
    for (std::size_t n : test::sizes) {
        for (auto p : test::flag_patterns) {
            CAPTURE(n);
            CAPTURE(test::name(p));
            auto hf = test::random_flags(n, p, 61 + n);
            check_segmented(test::random_values<int>(n, 62), hf, sv::plus<int>{});
            check_segmented(test::random_values<float>(n, 63, 0.0f, 1.0f), hf, sv::plus<float>{});
            check_segmented(test::random_values<int>(n, 64), hf, sv::max<int>{});
            check_segmented(test::random_values<int>(n, 65), hf, sv::min<int>{});
        }
    }
}

TEST_CASE("segmented scans of values and flags one element past an aligned start") {
    // CUDA reads a thread's bool flags as whole words where they are aligned;
    // views one element in take the element-wise reads, across many tiles.
    for (std::size_t n : test::sizes_upto_env({4097, 3 * 4096 + 5, 1000003})) {
        CAPTURE(n);
        auto hf = test::random_flags(n + 1, test::flag_pattern::sparse, 71 + n);
        const auto hv = test::random_values<int>(n + 1, 72 + n);
        const sv::vector<bool> f(hf);
        const sv::vector<int> a(hv);
        const auto fv = sv::view_of(f.data() + 1, n);
        const auto av = sv::view_of(a.data() + 1, n);
        const std::vector<int> h(hv.begin() + 1, hv.end());
        const std::vector<bool> hf1(hf.begin() + 1, hf.end());
        test::check_equal(sv::segmented_scan(av, fv).to_host(), ref_seg(h, hf1, sv::plus<int>{}, 0, false, false));
        test::check_equal(sv::segmented_inclusive_scan(av, fv).to_host(),
                          ref_seg(h, hf1, sv::plus<int>{}, 0, true, false));
        test::check_equal(sv::segmented_backward_inclusive_scan(av, fv).to_host(),
                          ref_seg(h, hf1, sv::plus<int>{}, 0, true, true));
    }
}

TEST_CASE("flags may be any integral vector, read as nonzero") {
    sv::vector<int> a = {1, 2, 3, 4};
    sv::vector<int> f = {7, 0, -3, 0};
    CHECK(sv::segmented_inclusive_scan(a, f).to_host() == std::vector<int>{1, 3, 3, 7});
    sv::vector<unsigned char> g = {0, 0, 2, 0};  // position 0 starts a segment anyway
    CHECK(sv::segmented_inclusive_scan(a, g).to_host() == std::vector<int>{1, 3, 3, 7});
}

TEST_CASE("segmented index and distribute against references") {
    for (std::size_t n : test::sizes) {
        auto hf = test::random_flags(n, test::flag_pattern::sparse, 71);
        auto h = test::random_values<int>(n, 72);
        sv::vector<bool> f(hf);
        auto idx = sv::segmented_index(f).to_host();
        auto dist = sv::segmented_distribute(sv::vector<int>(h), f).to_host();
        sv::index_t pos = 0;
        int first = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (i == 0 || hf[i]) { pos = 0; first = h[i]; }
            REQUIRE(idx[i] == pos++);
            REQUIRE(dist[i] == first);
        }
    }
}

TEST_CASE("segmented primitives reject mismatched lengths") {
    sv::vector<int> a(5);
    sv::vector<bool> f(4);
    CHECK_THROWS_WITH_AS(sv::segmented_scan(a, f), doctest::Contains("(5 and 4)"), sv::length_error);
    CHECK_THROWS_AS(sv::segmented_reduce(a, f), sv::length_error);
}

TEST_CASE("segmented enumerate and split against per-segment references") {
    for (std::size_t n : test::sizes) {
        for (auto p : test::flag_patterns) {
            CAPTURE(n);
            CAPTURE(test::name(p));
            auto heads = test::random_flags(n, p, 101 + n);
            auto hf = test::random_flags(n, test::flag_pattern::dense, 102 + n);
            auto h = test::random_values<int>(n, 103);
            sv::vector<bool> vh(heads), vf(hf);
            sv::vector<int> a(h);
            auto e = sv::segmented_enumerate(vf, vh).to_host();
            auto s = sv::segmented_split(a, vf, vh).to_host();
            std::vector<int> want;
            std::size_t start = 0;
            sv::index_t c = 0;
            for (std::size_t i = 0; i <= n; ++i) {
                if (i == n || (i > 0 && heads[i])) {  // close segment [start, i)
                    for (std::size_t k = start; k < i; ++k) if (!hf[k]) want.push_back(h[k]);
                    for (std::size_t k = start; k < i; ++k) if (hf[k]) want.push_back(h[k]);
                    start = i;
                    c = 0;
                }
                if (i == n) break;
                REQUIRE(e[i] == c);
                if (hf[i]) ++c;
            }
            REQUIRE(s == want);
        }
    }
}

TEST_CASE("segment descriptor conversions") {
    sv::vector<bool> f = {false, false, true, false, false, false, true, true};  // position 0 heads anyway
    CHECK(sv::flags_to_lengths(f).to_host() == std::vector<sv::index_t>{2, 4, 1, 1});
    CHECK(sv::flags_to_offsets(f).to_host() == std::vector<sv::index_t>{0, 2, 6, 7});
    CHECK(sv::segment_ids(f).to_host() == std::vector<sv::index_t>{0, 0, 1, 1, 1, 1, 2, 3});
    sv::vector<sv::index_t> len = {2, 0, 4, 1, 1, 0};
    CHECK(sv::lengths_to_offsets(len).to_host() == std::vector<sv::index_t>{0, 2, 2, 6, 7, 8});
    CHECK(sv::lengths_to_flags(len).to_host() ==
          std::vector<bool>{true, false, true, false, false, false, true, true});
    CHECK(sv::offsets_to_flags(sv::vector<int>{0, 3}, 5).to_host() == std::vector<bool>{true, false, false, true, false});
    for (std::size_t n : test::sizes) {
        auto hf = test::random_flags(n, test::flag_pattern::sparse, 111);
        sv::vector<bool> vf(hf);
        auto lengths = sv::flags_to_lengths(vf);
        auto back = sv::lengths_to_flags(lengths).to_host();
        for (std::size_t i = 0; i < n; ++i) REQUIRE(back[i] == (i == 0 || hf[i]));
        CHECK(sv::reduce(lengths) == sv::index_t(n));
    }
}
