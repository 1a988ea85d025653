// The book's programs (line-of-sight, line drawing, halving merge, quickhull,
// sparse matrix-vector multiply, list ranking, Euler-tour tree functions,
// remove-duplicates, string comparison)
// against sequential references, at sizes from 0 to about 10^6, on random
// inputs with fixed seeds and on the shapes that break such programs.
#include "support.hpp"
#include <scanvec/scanvec.hpp>  // every program of the library
#include "../examples/support/monotone_chain.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <string>

using sv::index_t;

namespace {

/// The sizes every program is run at.
const std::vector<std::size_t> book_sizes = test::sizes_upto_env({0, 1, 2, 100, 65537, 1000000});


}  // namespace

// ---- line-of-sight -------------------------------------------------------------

namespace {

template <class T> std::vector<bool> ref_line_of_sight(const std::vector<T>& alt, double eye_height) {
    std::vector<bool> vis(alt.size());
    if (alt.empty()) return vis;
    const double eye = double(alt[0]) + eye_height;
    double best = -std::numeric_limits<double>::infinity();
    vis[0] = true;
    for (std::size_t i = 1; i < alt.size(); ++i) {
        const double slope = (double(alt[i]) - eye) / double(i);
        vis[i] = slope > best;
        best = std::max(best, slope);
    }
    return vis;
}

enum class profile { random, ascending, descending, all_equal, few_distinct, mountain };
const profile profiles[] = {profile::random, profile::ascending, profile::descending,
                            profile::all_equal, profile::few_distinct, profile::mountain};
const char* name(profile p) {
    switch (p) {
        case profile::random: return "random";
        case profile::ascending: return "ascending";
        case profile::descending: return "descending";
        case profile::all_equal: return "all-equal";
        case profile::few_distinct: return "few-distinct";
        default: return "mountain";
    }
}

template <class T> std::vector<T> make_profile(std::size_t n, profile p, std::uint64_t seed) {
    switch (p) {
        case profile::random: return test::random_values<T>(n, seed, T(0), T(1000));
        case profile::few_distinct: return test::random_values<T>(n, seed, T(0), T(3));
        case profile::all_equal: return std::vector<T>(n, T(7));
        default: break;
    }
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double x = double(i);
        if (p == profile::ascending) v[i] = T(x * x / 1000);        // convex: every point visible
        else if (p == profile::descending) v[i] = T(-x);             // only the first step
        else v[i] = T(1000 * std::sin(x / 50) + x / 10);             // ridges: visibility comes and goes
    }
    return v;
}

template <class T> void check_line_of_sight(std::size_t n, profile p, double eye_height) {
    CAPTURE(n);
    CAPTURE(name(p));
    CAPTURE(eye_height);
    auto h = make_profile<T>(n, p, 17 + n);
    auto got = sv::line_of_sight(sv::vector<T>(h), eye_height).to_host();
    REQUIRE(got == ref_line_of_sight(h, eye_height));
}

}  // namespace

TEST_CASE("line-of-sight of Blelloch's kind of profile") {
    sv::vector<double> alt = {10, 12, 11, 15, 14, 21, 16, 22, 23, 18};
    auto vis = sv::line_of_sight(alt).to_host();
    // slopes from the eye at 10: 2, 0.5, 1.67, 1, 2.2, 1, 1.71, 1.63, 0.89
    CHECK(vis == std::vector<bool>{true, true, false, false, false, true, false, false, false, false});
    CHECK(sv::line_of_sight(sv::vector<int>()).empty());
    CHECK(sv::line_of_sight(sv::vector<int>{5}).to_host() == std::vector<bool>{true});
    // a high eye sees over the first rise
    CHECK(sv::line_of_sight(sv::vector<int>{0, 1, 2}, 10.0).to_host() == std::vector<bool>{true, true, true});
}

TEST_CASE("line-of-sight against the sequential max-scan") {
    for (std::size_t n : book_sizes) {
        for (auto p : profiles) {
            check_line_of_sight<double>(n, p, 0.0);
            check_line_of_sight<int>(n, p, 1.5);
        }
    }
    check_line_of_sight<float>(65537, profile::random, 0.0);
}

// ---- line drawing --------------------------------------------------------------

namespace {

long long round_div_ref(long long num, long long den) {  // nearest, halves away from zero
    const long long q = std::llabs(num) * 2 + den;
    return (num < 0 ? -1 : 1) * (q / (2 * den));
}

std::vector<std::vector<sv::pixel>> ref_lines(const std::vector<sv::pixel>& from, const std::vector<sv::pixel>& to) {
    std::vector<std::vector<sv::pixel>> out(from.size());
    for (std::size_t k = 0; k < from.size(); ++k) {
        const long long dx = to[k].x - from[k].x, dy = to[k].y - from[k].y;
        const long long steps = std::max(std::llabs(dx), std::llabs(dy));
        for (long long i = 0; i <= steps; ++i) {
            if (steps == 0) out[k].push_back(from[k]);
            else out[k].push_back({int(from[k].x + round_div_ref(i * dx, steps)),
                                   int(from[k].y + round_div_ref(i * dy, steps))});
        }
    }
    return out;
}

std::vector<sv::pixel> random_pixels(std::size_t n, std::uint64_t seed, int range) {
    auto x = test::random_values<int>(n, seed, -range, range);
    auto y = test::random_values<int>(n, seed + 1, -range, range);
    std::vector<sv::pixel> p(n);
    for (std::size_t i = 0; i < n; ++i) p[i] = {x[i], y[i]};
    return p;
}

}  // namespace

TEST_CASE("draw_lines: a few lines by hand") {
    sv::vector<sv::pixel> from = {{0, 0}, {2, 2}, {5, 1}, {0, 0}};
    sv::vector<sv::pixel> to = {{4, 2}, {2, 2}, {1, -3}, {-3, 1}};
    auto lines = sv::draw_lines(from, to);
    CHECK(lines.count() == 4);
    CHECK(lines.lengths().to_host() == std::vector<index_t>{5, 1, 5, 4});
    auto h = lines.to_host();
    CHECK(h[0] == std::vector<sv::pixel>{{0, 0}, {1, 1}, {2, 1}, {3, 2}, {4, 2}});
    CHECK(h[1] == std::vector<sv::pixel>{{2, 2}});
    CHECK(h[2] == std::vector<sv::pixel>{{5, 1}, {4, 0}, {3, -1}, {2, -2}, {1, -3}});
    CHECK(h[3] == std::vector<sv::pixel>{{0, 0}, {-1, 0}, {-2, 1}, {-3, 1}});
    CHECK(sv::draw_lines(sv::vector<sv::pixel>(), sv::vector<sv::pixel>()).count() == 0);
    CHECK_THROWS_AS(sv::draw_lines(from, sv::vector<sv::pixel>(3)), sv::length_error);
}

TEST_CASE("draw_lines against the sequential rasteriser: connected lines from end to end") {
    for (std::size_t n : book_sizes) {
        for (int range : {0, 8, 200}) {
            if (n > 100000 && range > 8) continue;  // ~10^6 lines of up to 17 pixels each
            CAPTURE(n);
            CAPTURE(range);
            auto from = random_pixels(n, 31 + n, range);
            auto to = random_pixels(n, 37 + n, range);
            auto got = sv::draw_lines(sv::vector<sv::pixel>(from), sv::vector<sv::pixel>(to)).to_host();
            auto want = ref_lines(from, to);
            REQUIRE(got == want);
            // independent of the formula: every line runs from one end to the other in king's moves
            std::size_t bad = 0;
            for (std::size_t k = 0; k < n; ++k) {
                const auto& line = got[k];
                if (line.front() != from[k] || line.back() != to[k]) ++bad;
                for (std::size_t i = 1; i < line.size(); ++i)
                    if (std::abs(line[i].x - line[i - 1].x) > 1 || std::abs(line[i].y - line[i - 1].y) > 1) ++bad;
            }
            REQUIRE(bad == 0);
        }
    }
}

// ---- halving merge -------------------------------------------------------------

namespace bk {
/// Sorted by key only: the tag shows whether equal keys keep a's before b's.
struct item {
    int key;
    int tag;
};
SCANVEC_FIELDS(item, key, tag)
SCANVEC_HD inline bool operator<(const item& a, const item& b) { return a.key < b.key; }
inline bool operator==(const item& a, const item& b) { return a.key == b.key && a.tag == b.tag; }
}  // namespace bk

namespace {

enum class merge_kind { random, few_distinct, all_equal, a_below_b, b_below_a, interleaved };
const merge_kind merge_kinds[] = {merge_kind::random, merge_kind::few_distinct, merge_kind::all_equal,
                                  merge_kind::a_below_b, merge_kind::b_below_a, merge_kind::interleaved};
const char* name(merge_kind k) {
    switch (k) {
        case merge_kind::random: return "random";
        case merge_kind::few_distinct: return "few-distinct";
        case merge_kind::all_equal: return "all-equal";
        case merge_kind::a_below_b: return "a-below-b";
        case merge_kind::b_below_a: return "b-below-a";
        default: return "interleaved";
    }
}

/// Two sorted inputs of lengths na and nb.
std::pair<std::vector<int>, std::vector<int>> merge_inputs(std::size_t na, std::size_t nb, merge_kind k,
                                                            std::uint64_t seed) {
    std::vector<int> a, b;
    switch (k) {
        case merge_kind::random:
            a = test::random_values<int>(na, seed, -1000000, 1000000);
            b = test::random_values<int>(nb, seed + 1, -1000000, 1000000);
            break;
        case merge_kind::few_distinct:
            a = test::random_values<int>(na, seed, 0, 3);
            b = test::random_values<int>(nb, seed + 1, 0, 3);
            break;
        case merge_kind::all_equal: a.assign(na, 5); b.assign(nb, 5); break;
        case merge_kind::a_below_b:
            a = test::random_values<int>(na, seed, 0, 100);
            b = test::random_values<int>(nb, seed + 1, 100, 200);
            break;
        case merge_kind::b_below_a:
            a = test::random_values<int>(na, seed, 100, 200);
            b = test::random_values<int>(nb, seed + 1, 0, 100);
            break;
        case merge_kind::interleaved:
            for (std::size_t i = 0; i < na; ++i) a.push_back(int(2 * i));
            for (std::size_t i = 0; i < nb; ++i) b.push_back(int(2 * i + 1));
            break;
    }
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    return {a, b};
}

}  // namespace

TEST_CASE("halving merge: flags and result on a small case") {
    sv::vector<int> a = {1, 3, 5, 7, 9, 11};
    sv::vector<int> b = {2, 3, 4, 10, 12, 13, 14};
    CHECK(sv::halving_merge(a, b).to_host() == std::vector<int>{1, 2, 3, 3, 4, 5, 7, 9, 10, 11, 12, 13, 14});
    CHECK(sv::halving_merge_flags(a, b).to_host() ==
          std::vector<bool>{false, true, false, true, true, false, false, false, true, false, true, true, true});
    CHECK(sv::halving_merge(sv::vector<int>(), sv::vector<int>()).empty());
    CHECK(sv::halving_merge(sv::vector<int>{4}, sv::vector<int>()).to_host() == std::vector<int>{4});
    CHECK(sv::halving_merge(sv::vector<int>(), sv::vector<int>{4}).to_host() == std::vector<int>{4});
    CHECK(sv::halving_merge(sv::vector<int>{4}, sv::vector<int>{4}).to_host() == std::vector<int>{4, 4});
    CHECK(sv::halving_merge(sv::vector<int>{5}, sv::vector<int>{4}).to_host() == std::vector<int>{4, 5});
}

TEST_CASE("halving merge against std::merge") {
    const std::pair<std::size_t, std::size_t> lengths[] = {
        {0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 2}, {2, 1}, {2, 2}, {3, 2}, {1, 100}, {100, 1}, {100, 100},
        {100, 2}, {2, 100}, {65537, 65537}, {65537, 100}, {100, 65537}, {1000000, 1}, {500000, 500000}};
    for (const auto& len : lengths) {
        const std::size_t na = len.first, nb = len.second;
        if (test::small_sizes_only() && na + nb > 2 * 65537) continue;
        for (auto k : merge_kinds) {
            CAPTURE(na);
            CAPTURE(nb);
            CAPTURE(name(k));
            auto [a, b] = merge_inputs(na, nb, k, 41 + na + 7 * nb);
            std::vector<int> want;
            std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(want));
            auto got = sv::halving_merge(sv::vector<int>(a), sv::vector<int>(b)).to_host();
            REQUIRE(got == want);
        }
    }
}

TEST_CASE("halving merge of every small pair of lengths") {
    for (std::size_t na = 0; na <= 9; ++na) {
        for (std::size_t nb = 0; nb <= 9; ++nb) {
            for (auto k : {merge_kind::random, merge_kind::few_distinct, merge_kind::interleaved}) {
                CAPTURE(na);
                CAPTURE(nb);
                auto [a, b] = merge_inputs(na, nb, k, 3 + na * 10 + nb);
                std::vector<int> want;
                std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(want));
                REQUIRE(sv::halving_merge(sv::vector<int>(a), sv::vector<int>(b)).to_host() == want);
            }
        }
    }
}

TEST_CASE("halving merge is stable (a's first among equal keys) and takes doubles") {
    for (std::size_t n : book_sizes) {
        CAPTURE(n);
        auto ka = test::random_values<int>(n, 51, 0, 20);
        auto kb = test::random_values<int>(n / 2 + 1, 52, 0, 20);
        std::sort(ka.begin(), ka.end());
        std::sort(kb.begin(), kb.end());
        std::vector<bk::item> a, b;
        for (std::size_t i = 0; i < ka.size(); ++i) a.push_back({ka[i], int(i)});
        for (std::size_t i = 0; i < kb.size(); ++i) b.push_back({kb[i], -1 - int(i)});
        std::vector<bk::item> want;
        std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(want));
        REQUIRE(sv::halving_merge(sv::vector<bk::item>(a), sv::vector<bk::item>(b)).to_host() == want);

        auto da = test::random_values<double>(n, 53, -1, 1);
        auto db = test::random_values<double>(n, 54, -1, 1);
        std::sort(da.begin(), da.end());
        std::sort(db.begin(), db.end());
        std::vector<double> dwant;
        std::merge(da.begin(), da.end(), db.begin(), db.end(), std::back_inserter(dwant));
        REQUIRE(sv::halving_merge(sv::vector<double>(da), sv::vector<double>(db)).to_host() == dwant);
    }
}

// ---- quickhull -----------------------------------------------------------------

namespace {

using reference::monotone_chain;  // the sequential hull quickhull is checked against

enum class cloud { square, disc, circle, parabola, collinear, few_distinct, all_equal };
const cloud clouds[] = {cloud::square, cloud::disc, cloud::circle, cloud::parabola,
                        cloud::collinear, cloud::few_distinct, cloud::all_equal};
const char* name(cloud c) {
    switch (c) {
        case cloud::square: return "square";
        case cloud::disc: return "disc";
        case cloud::circle: return "circle";
        case cloud::parabola: return "parabola";
        case cloud::collinear: return "collinear";
        case cloud::few_distinct: return "few-distinct";
        default: return "all-equal";
    }
}

std::vector<sv::point2d> make_cloud(std::size_t n, cloud c, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<sv::point2d> p(n);
    std::uniform_int_distribution<int> coord(-1000000, 1000000), small(0, 3);
    std::uniform_real_distribution<double> unit(0, 1);
    const double pi = 3.14159265358979323846;
    for (std::size_t i = 0; i < n; ++i) {
        switch (c) {
            case cloud::square: p[i] = {double(coord(rng)), double(coord(rng))}; break;
            case cloud::disc: {
                const double r = 1000000 * std::sqrt(unit(rng)), t = 2 * pi * unit(rng);
                p[i] = {std::round(r * std::cos(t)), std::round(r * std::sin(t))};
                break;
            }
            case cloud::circle: {
                const double t = 2 * pi * unit(rng);
                p[i] = {std::round(1000000 * std::cos(t)), std::round(1000000 * std::sin(t))};
                break;
            }
            case cloud::parabola: {  // every point a corner (x distinct, |x| <= 40000)
                const double x = double(long(i % 80001) - 40000);
                p[i] = {x, x * x};
                break;
            }
            case cloud::collinear: {
                const double t = double(coord(rng) / 4);
                p[i] = {2 * t, 3 * t + 5};
                break;
            }
            case cloud::few_distinct: p[i] = {double(small(rng)), double(small(rng))}; break;
            case cloud::all_equal: p[i] = {3, -4}; break;
        }
    }
    if (c == cloud::parabola) std::shuffle(p.begin(), p.end(), rng);
    return p;
}

}  // namespace

TEST_CASE("quickhull of a small set, by hand") {
    sv::vector<sv::point2d> pts = {{0, 0}, {4, 0}, {4, 4}, {0, 4}, {2, 2}, {1, 3}, {2, 0}, {5, 2}};
    auto hull = sv::quickhull(pts).to_host();
    CHECK(hull == std::vector<sv::point2d>{{0, 0}, {4, 0}, {5, 2}, {4, 4}, {0, 4}});
    CHECK(sv::quickhull(sv::vector<sv::point2d>()).empty());
    CHECK(sv::quickhull(sv::vector<sv::point2d>{{1, 2}}).to_host() == std::vector<sv::point2d>{{1, 2}});
    CHECK(sv::quickhull(sv::vector<sv::point2d>{{1, 2}, {1, 2}}).to_host() == std::vector<sv::point2d>{{1, 2}});
    CHECK(sv::quickhull(sv::vector<sv::point2d>{{3, 2}, {1, 2}, {2, 2}}).to_host() ==
          std::vector<sv::point2d>{{1, 2}, {3, 2}});
}

TEST_CASE("quickhull against the monotone chain") {
    for (std::size_t n : book_sizes) {
        for (auto c : clouds) {
            if (c == cloud::parabola && n > 80001) continue;  // keeps y = x^2 exact in the cross products
            CAPTURE(n);
            CAPTURE(name(c));
            auto p = make_cloud(n, c, 61 + n);
            auto got = sv::quickhull(sv::vector<sv::point2d>(p)).to_host();
            REQUIRE(got == monotone_chain(p));
        }
    }
}

// ---- sparse matrix-vector multiply -------------------------------------------------

namespace {

struct csr {
    std::vector<index_t> lengths;
    std::vector<index_t> columns;
    std::vector<double> values;
};

/// rows x cols, row lengths 0..max_len (so empty rows occur), integer values (exact sums).
csr random_csr(std::size_t rows, std::size_t cols, int max_len, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> len(0, max_len), val(-9, 9);
    std::uniform_int_distribution<index_t> col(0, index_t(cols) - 1);
    csr m;
    for (std::size_t r = 0; r < rows; ++r) {
        const int l = cols ? len(rng) : 0;
        m.lengths.push_back(l);
        for (int j = 0; j < l; ++j) {
            m.columns.push_back(col(rng));
            m.values.push_back(val(rng));
        }
    }
    return m;
}

template <class T> std::vector<T> ref_spmv(const csr& m, const std::vector<T>& x) {
    std::vector<T> y;
    std::size_t j = 0;
    for (index_t l : m.lengths) {
        T s = 0;
        for (index_t e = 0; e < l; ++e, ++j) s += T(m.values[j]) * x[m.columns[j]];
        y.push_back(s);
    }
    return y;
}

}  // namespace

TEST_CASE("spmv of a small matrix with an empty row") {
    // [1 0 2]       [  1]   [201]
    // [0 0 0]   x   [ 10] = [  0]
    // [0 3 4]       [100]   [430]
    sv::vector<double> values = {1, 2, 3, 4};
    sv::vector<int> columns = {0, 2, 1, 2};
    sv::vector<double> x = {1, 10, 100};
    const std::vector<double> want = {201, 0, 430};
    CHECK(sv::spmv(values, columns, sv::vector<int>{2, 0, 2}, x).to_host() == want);
    CHECK(sv::spmv(values, columns, sv::segments::from_lengths({2, 0, 2}), x).to_host() == want);
    sv::nested<double> nv(std::vector<std::vector<double>>{{1, 2}, {}, {3, 4}});
    sv::nested<int> nc(std::vector<std::vector<int>>{{0, 2}, {}, {1, 2}});
    CHECK(sv::spmv(nv, nc, x).to_host() == want);
    CHECK_THROWS_AS(sv::spmv(values, sv::vector<int>{0, 3, 1, 2}, sv::vector<int>{2, 0, 2}, x), sv::index_error);
    CHECK_THROWS_AS(sv::spmv(values, columns, sv::vector<int>{2, 0, 1}, x), sv::length_error);
}

TEST_CASE("spmv against the sequential row sums") {
    for (std::size_t rows : book_sizes) {
        for (int max_len : {0, 1, 6, 40}) {
            if (rows > 100000 && max_len > 6) continue;
            CAPTURE(rows);
            CAPTURE(max_len);
            const std::size_t cols = rows ? rows : 1;
            auto m = random_csr(rows, cols, max_len, 71 + rows + max_len);
            auto x = test::random_values<double>(cols, 72, -50, 50);
            for (auto& v : x) v = std::round(v);  // integers: the sums are exact in any order
            auto got = sv::spmv(sv::vector<double>(m.values), sv::vector<index_t>(m.columns),
                                sv::vector<index_t>(m.lengths), sv::vector<double>(x));
            REQUIRE(got.to_host() == ref_spmv(m, x));
            // float values and x: within rounding of the sequential sums
            std::vector<float> xf(x.begin(), x.end());
            for (auto& v : xf) v /= 7;
            std::vector<float> vf(m.values.begin(), m.values.end());
            auto gotf = sv::spmv(sv::vector<float>(vf), sv::vector<index_t>(m.columns),
                                 sv::segments::from_lengths(m.lengths), sv::vector<float>(xf));
            test::check_equal(gotf.to_host(), ref_spmv(m, xf));
        }
    }
}

// ---- list ranking --------------------------------------------------------------

namespace {

/// next pointers of `lists` random lists over a random order of n elements.
std::vector<index_t> random_lists(std::size_t n, std::size_t lists, std::uint64_t seed) {
    auto order = test::random_permutation(n, seed);
    std::vector<index_t> next(n);
    for (std::size_t j = 0; j < n; ++j) {
        const bool last = j + 1 == n || (j + 1) % ((n + lists - 1) / lists) == 0;
        next[order[j]] = last ? order[j] : order[j + 1];
    }
    return next;
}

std::vector<index_t> ref_list_rank(const std::vector<index_t>& next) {
    const std::size_t n = next.size();
    std::vector<index_t> rank(n, -1);
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<index_t> path;
        index_t j = index_t(i);
        while (rank[j] < 0 && next[j] != j) { path.push_back(j); j = next[j]; }
        if (rank[j] < 0) rank[j] = 0;
        for (std::size_t k = path.size(); k-- > 0;) rank[path[k]] = rank[next[path[k]]] + 1;
    }
    return rank;
}

}  // namespace

TEST_CASE("list ranking by pointer jumping") {
    sv::vector<int> next = {3, 0, 2, 2, 1};  // 4 -> 1 -> 0 -> 3 -> 2
    CHECK(sv::list_rank(next).to_host() == std::vector<index_t>{2, 3, 0, 1, 4});
    for (std::size_t n : book_sizes) {
        for (std::size_t lists : {std::size_t(1), std::size_t(7), n ? n : 1}) {
            CAPTURE(n);
            CAPTURE(lists);
            auto h = random_lists(n, lists, 81 + n + lists);
            REQUIRE(sv::list_rank(sv::vector<index_t>(h)).to_host() == ref_list_rank(h));
        }
    }
    CHECK_THROWS_AS(sv::list_rank(sv::vector<int>{1, 5}), sv::index_error);
    // a cycle never reaches a tail: ranks of at least n
    auto cyc = sv::list_rank(sv::vector<int>{1, 2, 0, 3}).to_host();
    CHECK(cyc[0] >= 4);
    CHECK(cyc[3] == 0);
}

// ---- Euler tour: depth, subtree size, preorder, rootfix, leaffix ---------------------

namespace {

struct tree_ref {
    std::vector<index_t> depth, size, preorder;
    std::vector<long long> rootfix, leaffix;
};

/// Sequential references: children in order of their numbers, roots likewise.
tree_ref ref_tree(const std::vector<index_t>& parent, const std::vector<long long>& x) {
    const std::size_t n = parent.size();
    std::vector<std::vector<index_t>> children(n);
    std::vector<index_t> roots;
    for (std::size_t v = 0; v < n; ++v) {
        if (parent[v] == index_t(v)) roots.push_back(index_t(v));
        else children[parent[v]].push_back(index_t(v));
    }
    tree_ref r{std::vector<index_t>(n), std::vector<index_t>(n, 1), std::vector<index_t>(n),
               std::vector<long long>(n), std::vector<long long>(x)};
    std::vector<index_t> pre;  // preorder by an explicit stack
    for (auto root : roots) {
        std::vector<index_t> stack = {root};
        r.depth[root] = 0;
        r.rootfix[root] = x[root];
        while (!stack.empty()) {
            const index_t v = stack.back();
            stack.pop_back();
            r.preorder[v] = index_t(pre.size());
            pre.push_back(v);
            for (auto c = children[v].rbegin(); c != children[v].rend(); ++c) {
                r.depth[*c] = r.depth[v] + 1;
                r.rootfix[*c] = r.rootfix[v] + x[*c];
                stack.push_back(*c);
            }
        }
    }
    for (std::size_t k = pre.size(); k-- > 0;) {  // children after parents in preorder: sum backwards
        const index_t v = pre[k];
        if (parent[v] != v) {
            r.size[parent[v]] += r.size[v];
            r.leaffix[parent[v]] += r.leaffix[v];
        }
    }
    return r;
}

enum class tree_shape { random, forest, path, star, binary };
const tree_shape tree_shapes[] = {tree_shape::random, tree_shape::forest, tree_shape::path, tree_shape::star,
                                  tree_shape::binary};
const char* name(tree_shape s) {
    switch (s) {
        case tree_shape::random: return "random";
        case tree_shape::forest: return "forest";
        case tree_shape::path: return "path";
        case tree_shape::star: return "star";
        default: return "binary";
    }
}

/// Parent vectors of the shapes, vertex numbers shuffled (so children are not in tree order).
std::vector<index_t> make_tree(std::size_t n, tree_shape s, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<index_t> p(n);  // in "build order": p[i] < i or a root
    for (std::size_t i = 0; i < n; ++i) {
        switch (s) {
            case tree_shape::random: p[i] = i ? std::uniform_int_distribution<index_t>(0, index_t(i) - 1)(rng) : 0; break;
            case tree_shape::forest:
                p[i] = (i == 0 || rng() % 50 == 0) ? index_t(i) : std::uniform_int_distribution<index_t>(0, index_t(i) - 1)(rng);
                break;
            case tree_shape::path: p[i] = i ? index_t(i) - 1 : 0; break;
            case tree_shape::star: p[i] = 0; break;
            case tree_shape::binary: p[i] = i ? (index_t(i) - 1) / 2 : 0; break;
        }
    }
    auto label = test::random_permutation(n, seed + 1);
    std::vector<index_t> parent(n);
    for (std::size_t i = 0; i < n; ++i) parent[label[i]] = label[p[i]];
    return parent;
}

}  // namespace

TEST_CASE("Euler tour of a small forest") {
    //   0            6
    //  / \ \         |
    // 1   2 ...      7
    sv::vector<int> parent = {0, 0, 0, 1, 1, 2, 6, 6};
    auto t = sv::euler_tour(parent);
    CHECK(t.arcs.to_host() == std::vector<index_t>{0, 2, 6, 7, 8, 9, 3, 4, 10, 11, 5, 1, 12, 14, 15, 13});
    CHECK(sv::tree_depth(t).to_host() == std::vector<index_t>{0, 1, 1, 2, 2, 2, 0, 1});
    CHECK(sv::subtree_size(t).to_host() == std::vector<index_t>{6, 3, 2, 1, 1, 1, 2, 1});
    CHECK(sv::preorder_number(t).to_host() == std::vector<index_t>{0, 1, 4, 2, 3, 5, 6, 7});
    sv::vector<int> x = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(sv::rootfix(t, x).to_host() == std::vector<int>{1, 3, 4, 7, 8, 10, 7, 15});
    CHECK(sv::leaffix(t, x).to_host() == std::vector<int>{21, 11, 9, 4, 5, 6, 15, 8});
    auto none = sv::euler_tour(sv::vector<int>());
    CHECK(none.arcs.empty());
    CHECK(sv::tree_depth(none).empty());
    CHECK(sv::euler_tour(sv::vector<int>{0}).arcs.to_host() == std::vector<index_t>{0, 1});
}

TEST_CASE("Euler tour against sequential depth, size, preorder, rootfix and leaffix") {
    for (std::size_t n : book_sizes) {
        for (auto s : tree_shapes) {
            if (n > 100000 && (s == tree_shape::star || s == tree_shape::binary)) continue;  // shallow: nothing new at 10^6
            CAPTURE(n);
            CAPTURE(name(s));
            auto parent = make_tree(n, s, 91 + n);
            std::vector<long long> x(n);
            auto xi = test::random_values<int>(n, 92, -1000, 1000);
            std::copy(xi.begin(), xi.end(), x.begin());
            auto want = ref_tree(parent, x);
            auto t = sv::euler_tour(sv::vector<index_t>(parent));
            REQUIRE(t.arcs.size() == 2 * n);
            REQUIRE(sv::tree_depth(t).to_host() == want.depth);
            REQUIRE(sv::subtree_size(t).to_host() == want.size);
            REQUIRE(sv::preorder_number(t).to_host() == want.preorder);
            REQUIRE(sv::rootfix(t, sv::vector<long long>(x)).to_host() == want.rootfix);
            REQUIRE(sv::leaffix(t, sv::vector<long long>(x)).to_host() == want.leaffix);
        }
    }
}

TEST_CASE("Euler tour rejects parents out of range and cycles") {
    CHECK_THROWS_AS(sv::euler_tour(sv::vector<int>{0, 2}), sv::index_error);
    CHECK_THROWS_AS(sv::euler_tour(sv::vector<int>{0, -1}), sv::index_error);
    CHECK_THROWS_AS(sv::euler_tour(sv::vector<int>{1, 0}), sv::index_error);           // no root at all
    CHECK_THROWS_AS(sv::euler_tour(sv::vector<int>{0, 2, 3, 1}), sv::index_error);     // a root and a cycle
    auto t = sv::euler_tour(sv::vector<int>{0, 0});
    CHECK_THROWS_AS(sv::rootfix(t, sv::vector<int>(3)), sv::length_error);
}

// ---- remove duplicates -----------------------------------------------------------

namespace {

template <class T> std::vector<T> ref_remove_duplicates(const std::vector<T>& a) {
    std::vector<T> sorted = a, r;
    std::sort(sorted.begin(), sorted.end());
    std::vector<bool> taken(a.size());
    for (const T& x : a) {
        const std::size_t k = std::size_t(std::lower_bound(sorted.begin(), sorted.end(), x) - sorted.begin());
        if (!taken[k]) { taken[k] = true; r.push_back(x); }
    }
    return r;
}

}  // namespace

TEST_CASE("remove_duplicates keeps first occurrences in order") {
    CHECK(sv::remove_duplicates(sv::vector<int>{5, 3, 5, 8, 1, 3, 3, 9, 8, 2, 5, 1}).to_host() ==
          std::vector<int>{5, 3, 8, 1, 9, 2});
    for (std::size_t n : book_sizes) {
        for (int range : {0, 3, 1000, 1 << 30}) {
            CAPTURE(n);
            CAPTURE(range);
            auto h = test::random_values<int>(n, 101 + n, -range, range);
            REQUIRE(sv::remove_duplicates(sv::vector<int>(h)).to_host() == ref_remove_duplicates(h));
        }
        auto sorted = test::random_values<int>(n, 102, 0, 50);
        std::sort(sorted.begin(), sorted.end());
        REQUIRE(sv::remove_duplicates(sv::vector<int>(sorted)).to_host() == ref_remove_duplicates(sorted));
        std::reverse(sorted.begin(), sorted.end());
        REQUIRE(sv::remove_duplicates(sv::vector<int>(sorted)).to_host() == ref_remove_duplicates(sorted));
        auto d = test::random_values<double>(n, 103, -2, 2);
        for (auto& v : d) v = std::round(v * 4) / 4;
        REQUIRE(sv::remove_duplicates(sv::vector<double>(d)).to_host() == ref_remove_duplicates(d));
    }
}

// ---- string comparison -------------------------------------------------------------

namespace {

std::vector<std::vector<char>> as_chars(const std::vector<std::string>& s) {
    std::vector<std::vector<char>> r;
    for (auto& w : s) r.emplace_back(w.begin(), w.end());
    return r;
}

}  // namespace

TEST_CASE("compare_strings against std::string::compare") {
    const std::vector<std::string> x = {"scan", "vector", "model", "", "", "blelloch", "pack", "ab", "b"};
    const std::vector<std::string> y = {"scat", "vectors", "model", "a", "", "blelloc", "pack", "b", "ab"};
    CHECK(sv::compare_strings(sv::nested<char>(as_chars(x)), sv::nested<char>(as_chars(y))).to_host() ==
          std::vector<int>{-1, -1, 0, -1, 0, 1, 0, -1, 1});
    CHECK(sv::compare_strings(sv::nested<char>(), sv::nested<char>()).empty());
    CHECK_THROWS_AS(sv::compare_strings(sv::nested<char>(as_chars(x)), sv::nested<char>(as_chars({"a"}))),
                    sv::length_error);
    for (std::size_t n : book_sizes) {
        for (int max_len : {0, 3, 30}) {
            if (n > 100000 && max_len > 3) continue;
            CAPTURE(n);
            CAPTURE(max_len);
            std::mt19937_64 rng(111 + n + max_len);
            std::vector<std::string> a(n), b(n);
            for (std::size_t k = 0; k < n; ++k) {
                for (int c = int(rng() % (max_len + 1)); c > 0; --c) a[k] += char('a' + rng() % 3);
                b[k] = a[k].substr(0, rng() % (a[k].size() + 1));  // a common prefix, then anything
                for (int c = int(rng() % 3); c > 0; --c) b[k] += char('a' + rng() % 3);
            }
            std::vector<int> want(n);
            for (std::size_t k = 0; k < n; ++k) {
                const int c = a[k].compare(b[k]);
                want[k] = c < 0 ? -1 : (c > 0 ? 1 : 0);
            }
            auto got = sv::compare_strings(sv::nested<char>(as_chars(a)), sv::nested<char>(as_chars(b)));
            REQUIRE(got.to_host() == want);
        }
    }
}
