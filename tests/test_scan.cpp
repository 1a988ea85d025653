// scan, inclusive_scan, reduce, scan_total and backward scans with every operator.
#include "support.hpp"
#include <scanvec/primitives/elementwise.hpp>
#include <scanvec/primitives/scan.hpp>

#include <functional>
#include <numeric>

namespace st {
/// An affine map x -> a*x + b; composition is associative and not commutative.
struct affine {
    float a;
    float b;
    int steps;
};
SCANVEC_FIELDS(affine, a, b, steps)
struct compose {
    SCANVEC_HD affine operator()(const affine& f, const affine& g) const {  // g after f
        return affine{g.a * f.a, g.a * f.b + g.b, f.steps + g.steps};
    }
};
}  // namespace st

namespace {

/// x + *at, *at read inside the pass.
struct add_at {
    const int* at;
    SCANVEC_HD int operator()(int x) const { return x + *at; }
};

struct widen {
    SCANVEC_HD long long operator()(int x) const { return x; }
};

template <class T, class Op> std::vector<T> ref_exclusive(const std::vector<T>& a, Op op, T id) {
    std::vector<T> r(a.size());
    T acc = id;
    for (std::size_t i = 0; i < a.size(); ++i) { r[i] = acc; acc = op(acc, a[i]); }
    return r;
}
template <class T, class Op> std::vector<T> ref_inclusive(const std::vector<T>& a, Op op) {
    std::vector<T> r(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) r[i] = i ? op(r[i - 1], a[i]) : a[i];
    return r;
}

template <class T, class Op> void check_all_scans(const std::vector<T>& h, Op op) {
    sv::vector<T> a(h);
    const T id = op.identity();
    test::check_equal(sv::scan(a, op).to_host(), ref_exclusive(h, op, id));
    test::check_equal(sv::inclusive_scan(a, op).to_host(), ref_inclusive(h, op));
    auto total = ref_exclusive(h, op, id);
    T want = h.empty() ? id : op(total.back(), h.back());
    test::check_equal(std::vector<T>{sv::reduce(a, op)}, std::vector<T>{want});
    test::check_equal(std::vector<T>{sv::reduce_to_device(a, op).get()}, std::vector<T>{want});
    auto st = sv::scan_total(a, op);
    test::check_equal(std::vector<T>{st.total}, std::vector<T>{want});
    // backward: r[i] = a[i+1] op ... op a[n-1]
    std::vector<T> rev(h.rbegin(), h.rend());
    auto flip = [op](const T& x, const T& y) { return op(y, x); };
    auto bex = ref_exclusive(rev, flip, id);
    auto bin = ref_inclusive(rev, flip);
    test::check_equal(sv::backward_scan(a, op).to_host(), std::vector<T>(bex.rbegin(), bex.rend()));
    test::check_equal(sv::backward_inclusive_scan(a, op).to_host(), std::vector<T>(bin.rbegin(), bin.rend()));
}

}  // namespace

TEST_CASE("plus scans of int and float at every size") {
    for (std::size_t n : test::sizes) {
        CAPTURE(n);
        check_all_scans(test::random_values<int>(n, 31), sv::plus<int>{});
        check_all_scans(test::random_values<float>(n, 32, 0.0f, 1.0f), sv::plus<float>{});
    }
}

TEST_CASE("the contract's example scan") {
    sv::vector<int> a = {3, 1, 7, 0, 4, 1, 6, 3};
    CHECK(sv::scan(a).to_host() == std::vector<int>{0, 3, 4, 11, 11, 15, 16, 22});
    CHECK(sv::inclusive_scan(a).to_host() == std::vector<int>{3, 4, 11, 11, 15, 16, 22, 25});
    CHECK(sv::reduce(a) == 25);
    CHECK(sv::reduce(sv::vector<int>{}) == 0);
    CHECK(sv::reduce_to_device(sv::vector<int>{}, sv::min<int>{}).get() == std::numeric_limits<int>::max());
    // the device value is what a later pass reads: add it to every element
    const auto total = sv::reduce_to_device(a);
    CHECK(sv::map(add_at{total.ptr()}, a).to_host() ==
          std::vector<int>{28, 26, 32, 25, 29, 26, 31, 28});
    CHECK(sv::reduce(sv::vector<int>{}, sv::max<int>{}) == std::numeric_limits<int>::lowest());
}

TEST_CASE("a fetched device value is the value when fetched, whatever is queued after") {
    const auto h = test::random_values<int>(100003, 45, -1000, 1000);
    const sv::vector<int> a(h);
    const long long want = std::accumulate(h.begin(), h.end(), 0LL);
    const auto total = sv::reduce_to_device(sv::map(widen{}, a));
    auto fetched = total.fetch();
    // overwritten on the device after the fetch was queued
    sv::backend::fill_zero(total.ptr(), sizeof(long long), total.stream(), "test (overwrite)");
    std::vector<sv::pending_value<long long>> many;  // several in flight at once, moved about
    for (int k = 0; k < 5; ++k) many.push_back(sv::reduce_to_device(sv::map(widen{}, a)).fetch());
    CHECK(total.get() == 0);
    CHECK(fetched.get() == want);
    fetched = std::move(many.back());
    many.pop_back();
    CHECK(fetched.get() == want);
    for (const auto& p : many) CHECK(p.get() == want);
    // a read past what a pinned slot holds is refused before it takes one
    CHECK_THROWS_WITH_AS(sv::backend::async_read(total.ptr(), 65, total.stream(), "test read"),
                         "test read: an asynchronous read holds at most 64 bytes, not 65", sv::error);
}

TEST_CASE("max, min, times and bitwise operators") {
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(33), std::size_t(65539)}) {
        CAPTURE(n);
        auto h = test::random_values<int>(n, 41, -1000, 1000);
        check_all_scans(h, sv::max<int>{});
        check_all_scans(h, sv::min<int>{});
        check_all_scans(test::random_values<float>(n, 42, -5.0f, 5.0f), sv::max<float>{});
        check_all_scans(test::random_values<long long>(n, 43, -1, 1), sv::times<long long>{});
        auto u = test::random_values<unsigned>(n, 44, 0u, 0xffffu);
        check_all_scans(u, sv::bit_or<unsigned>{});
        check_all_scans(u, sv::bit_and<unsigned>{});
        check_all_scans(u, sv::bit_xor<unsigned>{});
    }
}

TEST_CASE("logical operators on flags") {
    auto f = test::random_flags(1000, test::flag_pattern::sparse, 45);
    sv::vector<bool> v(f);
    auto any = sv::inclusive_scan(v, sv::logical_or{}).to_host();
    auto all = sv::inclusive_scan(v, sv::logical_and{}).to_host();
    bool a = false, b = true;
    for (std::size_t i = 0; i < f.size(); ++i) {
        a = a || f[i];
        b = b && f[i];
        REQUIRE(any[i] == a);
        REQUIRE(all[i] == b);
    }
}

TEST_CASE("a non-commutative monoid on a described struct") {
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(65539)}) {
        CAPTURE(n);
        auto ha = test::random_values<float>(n, 51, 0.9f, 1.1f);
        auto hb = test::random_values<float>(n, 52, -1.0f, 1.0f);
        std::vector<st::affine> h(n);
        for (std::size_t i = 0; i < n; ++i) h[i] = {ha[i], hb[i], 1};
        sv::vector<st::affine> a(h);
        auto op = sv::monoid(st::compose{}, st::affine{1.0f, 0.0f, 0});
        auto got = sv::inclusive_scan(a, op).to_host();
        auto want = ref_inclusive(h, op);
        auto ex = sv::scan(a, op).to_host();
        for (std::size_t i = 0; i < n; ++i) {
            REQUIRE(got[i].steps == int(i + 1));
            REQUIRE(ex[i].steps == int(i));
            REQUIRE(std::fabs(got[i].a - want[i].a) <= 1e-3f * std::max(1.0f, std::fabs(want[i].a)));
            REQUIRE(std::fabs(got[i].b - want[i].b) <= 1e-3f * std::max(1.0f, std::fabs(want[i].b)));
        }
        auto total = sv::reduce(a, op);
        CHECK(total.steps == int(n));
        // order matters: composing in reverse gives a different result
        auto rev = sv::backward_inclusive_scan(a, op).to_host();
        if (n) CHECK(rev[0].steps == int(n));
    }
}

TEST_CASE("monoid with a lambda operator") {
    sv::vector<int> a = {1, 2, 3};
    auto mx = sv::monoid(SCANVEC_FN(int x, int y) { return x > y ? x : y; }, -1);
    CHECK(sv::inclusive_scan(a, mx).to_host() == std::vector<int>{1, 2, 3});
    CHECK(sv::scan(a, mx).to_host() == std::vector<int>{-1, 1, 2});
}

TEST_CASE("NaN in a float scan propagates and does not crash") {
    sv::vector<float> a = {1.0f, std::nanf(""), 2.0f};
    auto r = sv::inclusive_scan(a).to_host();
    CHECK(r[0] == 1.0f);
    CHECK(std::isnan(r[1]));
    CHECK(std::isnan(r[2]));
    CHECK(std::isnan(sv::reduce(a)));
}
