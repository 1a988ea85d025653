// The exercises of docs/exercises.md: the student's solutions (examples/exercises/student.hpp)
// and the reference solutions (examples/exercises/solutions.hpp), each run against a
// sequential loop on random inputs with fixed seeds, sizes 0, 1, 2, 33, 1000 and 65539.
// A wrong answer names the exercise, whose solution, the size and the first wrong
// position. Also here: the worked port of docs/porting.md (line of sight), the other
// code blocks of that document, and checks that the documents still show the code
// that is compiled and the constants (short_limit) that the code has on this backend.
//
//     cmake --build --preset host --target test_exercises && ./build/host/tests/test_exercises
//     ./build/host/tests/test_exercises -tc="exercise 3*"      one exercise only
#include "line_of_sight.hpp"
#include "porting_snippets.hpp"
#include "solutions.hpp"
#include "student.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using exercises::line;
using exercises::pixel;
using sv::index_t;

const std::size_t sizes[] = {0, 1, 2, 33, 1000, 65539};

// ---- random inputs (fixed seeds) ---------------------------------------------

std::vector<int> random_ints(std::size_t n, std::uint64_t seed, int lo = -1000, int hi = 1000) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<int> v(n);
    for (auto& x : v) x = d(rng);
    return v;
}

std::vector<bool> random_bools(std::size_t n, double p, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution d(p);
    std::vector<bool> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = d(rng);
    return v;
}

/// Head-flag shapes; position 0 is left false in some on purpose (it heads a segment anyway).
struct head_shape {
    const char* name;
    double p;        // chance of a head at each position
    bool first_set;  // position 0 set explicitly
};
const head_shape head_shapes[] = {
    {"every element a segment", 1.0, true},
    {"one segment", 0.0, true},
    {"sparse heads", 0.01, false},
    {"dense heads", 0.5, false},
};

std::vector<bool> random_heads(std::size_t n, const head_shape& shape, std::uint64_t seed) {
    auto h = random_bools(n, shape.p, seed);
    if (n && shape.first_set) h[0] = true;
    return h;
}

bool is_head(const std::vector<bool>& heads, std::size_t i) { return i == 0 || heads[i]; }

std::vector<line> random_lines(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> d(-20, 20);
    std::vector<line> v(n);
    for (auto& l : v) l = line{d(rng), d(rng), d(rng), d(rng)};
    return v;
}

// ---- comparing and reporting ---------------------------------------------------

std::string show(bool b) { return b ? "T" : "F"; }
std::string show(int x) { return std::to_string(x); }
std::string show(index_t x) { return std::to_string(x); }
std::string show(const pixel& p) { return "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ")"; }

bool same(const pixel& a, const pixel& b) { return a.x == b.x && a.y == b.y; }
template <class T> bool same(const T& a, const T& b) { return a == b; }

/// "" when equal, else what differs first.
template <class T> std::string difference(const std::vector<T>& got, const std::vector<T>& want) {
    if (got.size() != want.size())
        return "length " + std::to_string(got.size()) + ", want " + std::to_string(want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!same(got[i], want[i])) return "at position " + std::to_string(i) + ": got " + show(got[i]) + ", want " + show(want[i]);
    return "";
}

/// One run of one solution: which exercise, whose solution, which input.
struct attempt {
    std::string exercise, who, input;
    std::size_t n;
    std::string where() const {
        return exercise + ": the " + who + " solution, n = " + std::to_string(n) + (input.empty() ? "" : ", " + input);
    }
};

/// Runs f (which computes the solution and returns a difference); reports a failure. True if right.
bool passes(const attempt& a, const std::function<std::string()>& f) {
    std::string diff;
    try {
        diff = f();
    } catch (const std::exception& e) {
        FAIL_CHECK(a.where() << ": threw " << e.what());
        return false;
    }
    if (!diff.empty()) {
        FAIL_CHECK(a.where() << ": wrong " << diff);
        return false;
    }
    return true;
}

// ---- sequential references -----------------------------------------------------

std::vector<int> seq_segment_max(const std::vector<int>& v, const std::vector<bool>& heads) {
    std::vector<int> r;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (is_head(heads, i)) r.push_back(v[i]);
        else r.back() = std::max(r.back(), v[i]);
    }
    return r;
}

std::vector<int> seq_pack_odd(const std::vector<int>& v) {
    std::vector<int> r;
    for (int x : v)
        if (x % 2 != 0) r.push_back(x);
    return r;
}

std::vector<index_t> seq_segment_lengths(const std::vector<bool>& heads) {
    std::vector<index_t> r;
    for (std::size_t i = 0; i < heads.size(); ++i) {
        if (is_head(heads, i)) r.push_back(0);
        ++r.back();
    }
    return r;
}

index_t seq_pixel_count(const line& l) {
    return std::max(std::abs(l.x1 - l.x0), std::abs(l.y1 - l.y0)) + 1;
}

std::vector<pixel> seq_draw_lines(const std::vector<line>& lines) {
    std::vector<pixel> r;
    for (auto& l : lines)
        for (index_t t = 0; t < seq_pixel_count(l); ++t) r.push_back(exercises::pixel_on(l, t));
    return r;
}

std::vector<int> seq_split_segments(const std::vector<int>& v, const std::vector<bool>& f,
                                    const std::vector<bool>& heads) {
    std::vector<int> r;
    for (std::size_t s = 0; s < v.size();) {
        std::size_t e = s + 1;
        while (e < v.size() && !heads[e]) ++e;
        for (std::size_t i = s; i < e; ++i)
            if (!f[i]) r.push_back(v[i]);
        for (std::size_t i = s; i < e; ++i)
            if (f[i]) r.push_back(v[i]);
        s = e;
    }
    return r;
}

index_t seq_count_distinct(const std::vector<int>& sorted) {
    index_t c = 0;
    for (std::size_t i = 0; i < sorted.size(); ++i) c += (i == 0 || sorted[i] != sorted[i - 1]);
    return c;
}

// ---- the checks, one per exercise ------------------------------------------------

using segment_max_fn = sv::vector<int> (*)(const sv::vector<int>&, const sv::vector<bool>&);
void check_segment_max(const char* who, segment_max_fn solve) {
    for (std::size_t n : sizes)
        for (auto& shape : head_shapes) {
            auto v = random_ints(n, 100 + n);
            auto heads = random_heads(n, shape, 200 + n);
            attempt a{"exercise 1 (segment_max)", who, shape.name, n};
            if (!passes(a, [&] {
                    return difference(solve(sv::vector<int>(v), sv::vector<bool>(heads)).to_host(),
                                      seq_segment_max(v, heads));
                }))
                return;
        }
}

using pack_odd_fn = sv::vector<int> (*)(const sv::vector<int>&);
void check_pack_odd(const char* who, pack_odd_fn solve) {
    for (std::size_t n : sizes) {
        auto v = random_ints(n, 300 + n);
        attempt a{"exercise 2 (pack_odd)", who, "", n};
        if (!passes(a, [&] { return difference(solve(sv::vector<int>(v)).to_host(), seq_pack_odd(v)); })) return;
    }
}

using segment_lengths_fn = sv::vector<index_t> (*)(const sv::vector<bool>&);
void check_segment_lengths(const char* who, segment_lengths_fn solve) {
    for (std::size_t n : sizes)
        for (auto& shape : head_shapes) {
            auto heads = random_heads(n, shape, 400 + n);
            attempt a{"exercise 3 (segment_lengths)", who, shape.name, n};
            if (!passes(a, [&] {
                    return difference(solve(sv::vector<bool>(heads)).to_host(), seq_segment_lengths(heads));
                }))
                return;
        }
}

using line_allocation_fn = exercises::allocation (*)(const sv::vector<line>&);
void check_line_allocation(const char* who, line_allocation_fn solve) {
    for (std::size_t n : sizes) {
        auto lines = random_lines(n, 500 + n);
        std::vector<index_t> counts(n), offsets(n);
        index_t total = 0;
        for (std::size_t i = 0; i < n; ++i) {
            counts[i] = seq_pixel_count(lines[i]);
            offsets[i] = total;
            total += counts[i];
        }
        attempt a{"exercise 4 (line_allocation)", who, "", n};
        if (!passes(a, [&]() -> std::string {
                auto got = solve(sv::vector<line>(lines));
                if (auto d = difference(got.counts.to_host(), counts); !d.empty()) return "counts " + d;
                if (auto d = difference(got.offsets.to_host(), offsets); !d.empty()) return "offsets " + d;
                if (got.total != total) return "total " + std::to_string(got.total) + ", want " + std::to_string(total);
                return "";
            }))
            return;
    }
}

using draw_lines_fn = sv::vector<pixel> (*)(const sv::vector<line>&);
void check_draw_lines(const char* who, draw_lines_fn solve) {
    for (std::size_t n : sizes) {
        auto lines = random_lines(n, 600 + n);
        attempt a{"exercise 5 (draw_lines)", who, "", n};
        if (!passes(a, [&] { return difference(solve(sv::vector<line>(lines)).to_host(), seq_draw_lines(lines)); }))
            return;
    }
}

using split_segments_fn = sv::vector<int> (*)(const sv::vector<int>&, const sv::vector<bool>&, const sv::vector<bool>&);
void check_split_segments(const char* who, split_segments_fn solve) {
    for (std::size_t n : sizes)
        for (auto& shape : head_shapes) {
            auto v = random_ints(n, 700 + n);
            auto f = random_bools(n, 0.5, 800 + n);
            auto heads = random_heads(n, shape, 900 + n);
            attempt a{"exercise 6 (split_segments)", who, shape.name, n};
            if (!passes(a, [&] {
                    return difference(solve(sv::vector<int>(v), sv::vector<bool>(f), sv::vector<bool>(heads)).to_host(),
                                      seq_split_segments(v, f, heads));
                }))
                return;
        }
}

using reverse_fn = sv::vector<int> (*)(const sv::vector<int>&);
void check_reverse(const char* who, reverse_fn solve) {
    for (std::size_t n : sizes) {
        auto v = random_ints(n, 1000 + n);
        attempt a{"exercise 7 (reverse)", who, "", n};
        if (!passes(a, [&] {
                return difference(solve(sv::vector<int>(v)).to_host(), std::vector<int>(v.rbegin(), v.rend()));
            }))
            return;
    }
}

using count_distinct_fn = index_t (*)(const sv::vector<int>&);
void check_count_distinct(const char* who, count_distinct_fn solve) {
    for (std::size_t n : sizes) {
        for (int range : {3, int(n / 3) + 1, INT_MAX / 2}) {  // many, some and almost no repeats
            auto v = random_ints(n, 1100 + n, -range, range);
            std::sort(v.begin(), v.end());
            attempt a{"exercise 8 (count_distinct)", who, "values in +-" + std::to_string(range), n};
            if (!passes(a, [&]() -> std::string {
                    const index_t got = solve(sv::vector<int>(v)), want = seq_count_distinct(v);
                    return got == want ? "" : "count " + std::to_string(got) + ", want " + std::to_string(want);
                }))
                return;
        }
    }
}

}  // namespace

// ---- the exercises: reference first (a failure there is the library's), then the student

TEST_CASE("exercise 1 - segment max") {
    check_segment_max("reference", exercises::reference::segment_max);
    check_segment_max("student", exercises::student::segment_max);
}
TEST_CASE("exercise 2 - pack the odd elements") {
    check_pack_odd("reference", exercises::reference::pack_odd);
    check_pack_odd("student", exercises::student::pack_odd);
}
TEST_CASE("exercise 3 - segment lengths from head flags") {
    check_segment_lengths("reference", exercises::reference::segment_lengths);
    check_segment_lengths("student", exercises::student::segment_lengths);
}
TEST_CASE("exercise 4 - line drawing allocation") {
    check_line_allocation("reference", exercises::reference::line_allocation);
    check_line_allocation("student", exercises::student::line_allocation);
}
TEST_CASE("exercise 5 - line drawing pixels") {
    check_draw_lines("reference", exercises::reference::draw_lines);
    check_draw_lines("student", exercises::student::draw_lines);
}
TEST_CASE("exercise 6 - segmented split") {
    check_split_segments("reference", exercises::reference::split_segments);
    check_split_segments("student", exercises::student::split_segments);
}
TEST_CASE("exercise 7 - reverse by back-permute") {
    check_reverse("reference", exercises::reference::reverse);
    check_reverse("student", exercises::student::reverse);
}
TEST_CASE("exercise 8 - count distinct sorted values") {
    check_count_distinct("reference", exercises::reference::count_distinct);
    check_count_distinct("student", exercises::student::count_distinct);
}

TEST_CASE("exercises - the small examples of docs/exercises.md") {
    using namespace exercises::reference;
    sv::vector<int> v = {3, 9, 2, 4, 1, 7, 5};
    sv::vector<bool> heads = {1, 0, 0, 1, 0, 1, 0};
    CHECK(segment_max(v, heads).to_host() == std::vector<int>{9, 4, 7});
    CHECK(pack_odd(v).to_host() == std::vector<int>{3, 9, 1, 7, 5});
    CHECK(segment_lengths(heads).to_host() == std::vector<index_t>{3, 2, 2});
    sv::vector<line> lines = {{0, 0, 3, 1}, {2, 2, 2, 2}, {5, 0, 3, 4}};
    auto alloc = line_allocation(lines);
    CHECK(alloc.counts.to_host() == std::vector<index_t>{4, 1, 5});
    CHECK(alloc.offsets.to_host() == std::vector<index_t>{0, 4, 5});
    CHECK(alloc.total == 10);
    auto px = draw_lines(lines);
    CHECK(px.field<&pixel::x>().to_host() == std::vector<int>{0, 1, 2, 3, 2, 5, 5, 4, 4, 3});
    CHECK(px.field<&pixel::y>().to_host() == std::vector<int>{0, 0, 1, 1, 2, 0, 1, 2, 3, 4});
    sv::vector<bool> f = {1, 0, 1, 1, 0, 0, 1};
    CHECK(split_segments(v, f, heads).to_host() == std::vector<int>{9, 3, 2, 1, 4, 7, 5});
    CHECK(reverse(v).to_host() == std::vector<int>{5, 7, 1, 4, 2, 9, 3});
    CHECK(count_distinct(sv::vector<int>{1, 1, 2, 5, 5, 5, 8}) == 4);
    {
        sv::trace t;  // exercise 8's hint: all lazy, one step
        (void)count_distinct(sv::vector<int>{1, 1, 2});
        CHECK(t.steps() == 1);
    }

    // pixel_on: a line drawn backwards covers the same pixels
    for (auto& l : random_lines(200, 77)) {
        const line back{l.x1, l.y1, l.x0, l.y0};
        const index_t m = seq_pixel_count(l);
        for (index_t t = 0; t < m; ++t) {
            const pixel p = exercises::pixel_on(l, t), q = exercises::pixel_on(back, m - 1 - t);
            REQUIRE(same(p, q));
        }
    }
}

// ---- the worked port: line of sight ------------------------------------------------

namespace {

/// Checks visible flags against a sequential running maximum of the angles computed on the
/// host. Angles that tie (or nearly tie, within float rounding) with the running maximum are
/// skipped: there the GPU's atanf may round the other way.
std::string check_visible(const std::vector<float>& altitude, float eye, const std::vector<bool>& got) {
    if (got.size() != altitude.size()) return "length " + std::to_string(got.size());
    double best = -INFINITY;
    for (std::size_t i = 0; i < altitude.size(); ++i) {
        const double angle = std::atan((double(altitude[i]) - eye) / double(i + 1));
        const bool near_tie = std::isfinite(best) && std::fabs(angle - best) <= 1e-5 * std::max(1.0, std::fabs(best));
        if (!near_tie && got[i] != (angle > best))
            return "at position " + std::to_string(i) + ": got " + show(bool(got[i])) + ", want " + show(angle > best);
        best = std::max(best, angle);
    }
    return "";
}

}  // namespace

TEST_CASE("worked port - line of sight on the small example") {
    sv::vector<float> altitude = {1, 3, 2, 6, 5, 9, 4, 8};
    auto visible = port::line_of_sight(altitude, 2.0f);
    CHECK(visible.to_host() == std::vector<bool>{true, true, false, true, false, true, false, false});
    CHECK(port::line_of_sight_fused(altitude, 2.0f).to_host() == visible.to_host());
}

TEST_CASE("worked port - line of sight against a sequential loop") {
    for (std::size_t n : sizes) {
        std::mt19937_64 rng(1200 + n);
        std::uniform_real_distribution<float> d(0.f, 1000.f);
        std::vector<float> altitude(n);
        for (auto& a : altitude) a = d(rng);
        const float eye = 500.f;
        attempt plain{"line of sight (docs/porting.md)", "worked-port", "", n};
        passes(plain, [&] { return check_visible(altitude, eye, port::line_of_sight(sv::vector<float>(altitude), eye).to_host()); });
        attempt fused{"line of sight (docs/porting.md)", "fused worked-port", "", n};
        passes(fused, [&] {
            return check_visible(altitude, eye, port::line_of_sight_fused(sv::vector<float>(altitude), eye).to_host());
        });
    }
}

TEST_CASE("worked port - steps and work as docs/porting.md states them") {
    const std::size_t n = 1000;
    sv::vector<float> altitude(n, 1.0f);
    {
        sv::trace t;
        auto v = port::line_of_sight(altitude, 2.0f);
        CHECK(t.steps() == 3);
        CHECK(t.work() == 3 * n);
    }
    {
        sv::trace t;
        auto v = port::line_of_sight_fused(altitude, 2.0f);
        CHECK(t.steps() == 2);
        CHECK(t.work() == 2 * n);
    }
}

// ---- the other code blocks of docs/porting.md --------------------------------------

TEST_CASE("porting guide snippets - operators and monoids") {
    sv::vector<int> a = {-3, 4, 12, 7, -1};
    CHECK(sv::map(snippets::clamp{0, 9}, a).to_host() == std::vector<int>{0, 4, 9, 7, 0});
    CHECK(snippets::clamp_all(a, 0, 9).to_host() == std::vector<int>{0, 4, 9, 7, 0});
    CHECK(snippets::running_max(a).to_host() == std::vector<int>{-3, 4, 12, 12, 12});

    // the linear recurrence against a loop, on the test sizes
    for (std::size_t n : sizes) {
        CAPTURE(n);
        auto as = random_ints(n, 1300 + n, -1, 1), bs = random_ints(n, 1400 + n, -5, 5);
        std::vector<snippets::affine> steps(n);
        std::vector<long long> want(n);
        long long x = 7;
        for (std::size_t i = 0; i < n; ++i) {
            steps[i] = {as[i], bs[i]};
            x = as[i] * x + bs[i];
            want[i] = x;
        }
        CHECK(snippets::linear_recurrence(sv::vector<snippets::affine>(steps), 7).to_host() == want);
    }
}

TEST_CASE("porting guide snippets - described structs and lazy views and errors") {
    sv::vector<snippets::particle> p = {{0.f, 1.f, 0}, {2.f, -1.f, 1}};
    CHECK(snippets::step(p).to_host() == std::vector<float>{1.f, 1.f});
    CHECK(p.field<&snippets::particle::id>().to_host() == std::vector<int>{0, 1});

    CHECK(snippets::sum_of_squares(sv::vector<int>{1, 2, 3}) == 14);
    for (std::size_t n : sizes) {
        CAPTURE(n);
        sv::vector<int> v(random_ints(n, 1500 + n));
        sv::vector<bool> f(random_bools(n, 0.5, 1600 + n));
        CHECK(snippets::my_split(v, f).to_host() == sv::split(v, f).to_host());
    }

    CHECK(snippets::unequal_lengths() == "map: lengths differ (3 and 2)");
#if SCANVEC_CHECKS
    CHECK(snippets::repeated_index().rfind("permute: index 2 repeats in idx (at idx[0] and idx[2])", 0) == 0);
#endif
}

TEST_CASE("porting guide snippets - the trace of the worked port") {
    for (std::size_t n : {std::size_t(8), std::size_t(65539)}) {
        auto c = snippets::cost_of_line_of_sight(sv::vector<float>(n, 1.0f));
        CHECK(c.steps == 3);
        CHECK(c.work == 3 * n);
    }
}

TEST_CASE("porting guide table - constructs written from other primitives") {
    sv::vector<int> a = {3, 1, 7, 0, 4, 1, 6, 3};
    sv::vector<int> b = {1, 2, 3, 4, 5, 6, 7, 8};
    sv::vector<bool> f = {1, 0, 0, 1, 0, 1, 1, 0};
    sv::vector<bool> heads = {1, 0, 0, 1, 0, 1, 0, 0};
    // select
    CHECK(sv::map(SCANVEC_FN(bool c, int x, int y) { return c ? x : y; }, f, a, b).to_host() ==
          std::vector<int>{3, 2, 3, 0, 5, 1, 6, 8});
    // or-scan
    CHECK(sv::scan(f, sv::logical_or{}).to_host() == std::vector<bool>{0, 1, 1, 1, 1, 1, 1, 1});
    // back-enumerate
    CHECK(sv::backward_scan(sv::lazy::map(SCANVEC_FN(bool x) { return sv::index_t(x); }, f)).to_host() ==
          std::vector<index_t>{3, 3, 3, 2, 2, 1, 0, 0});
    // copy-scan, unsegmented and segmented
    CHECK(sv::distribute(a[0], a.size()).to_host() == std::vector<int>(8, 3));
    CHECK(sv::segmented_distribute(a, heads).to_host() == std::vector<int>{3, 3, 3, 0, 0, 1, 1, 1});
    // segmented +-distribute
    CHECK(sv::back_permute(sv::segmented_reduce(a, heads), sv::segment_ids(heads)).to_host() ==
          std::vector<int>{11, 11, 11, 4, 4, 10, 10, 10});
    // segmented pack: the values, then the new lengths
    CHECK(sv::pack(a, f).to_host() == std::vector<int>{3, 0, 1, 6});
    CHECK(sv::segmented_reduce(sv::lazy::map(SCANVEC_FN(bool x) { return sv::index_t(x); }, f), heads).to_host() ==
          std::vector<index_t>{1, 1, 2});
    // segment start of every element: i - segmented_index
    CHECK(sv::map(SCANVEC_FN(index_t i, index_t p) { return i - p; }, sv::index(8), sv::segmented_index(heads))
              .to_host() == std::vector<index_t>{0, 0, 0, 3, 3, 5, 5, 5});
    // flag-merge undoes the two packs
    auto not_f = sv::map(SCANVEC_FN(bool x) { return !x; }, f);
    CHECK(sv::flag_merge(f, sv::pack(a, not_f), sv::pack(a, f)).to_host() == a.to_host());
}

// ---- the documents show the code that is compiled ------------------------------------

#if defined(SCANVEC_SOURCE_DIR)
namespace documented {
/// A key of none of the arithmetic types: quicksort's base case for "other types".
struct key {
    int k;
};
SCANVEC_HD inline bool operator<(const key& a, const key& b) { return a.k < b.k; }
SCANVEC_FIELDS(key, k)
}  // namespace documented

namespace {

/// The source tree the documents are read from: SCANVEC_SOURCE_DIR in the
/// environment where the executable runs away from its build (binaries carried
/// to the GPU machine), else the tree it was built from.
std::string source_root() {
    const char* env = std::getenv("SCANVEC_SOURCE_DIR");
    return env && *env ? std::string(env) : std::string(SCANVEC_SOURCE_DIR);
}

std::vector<std::string> lines_of(const std::string& path) {
    std::ifstream in(path);
    REQUIRE_MESSAGE(in.good(), "cannot read " << path);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

/// The lines between "// ---- snippet: NAME ----" and the next "// ---- end ----".
std::vector<std::string> region(const std::vector<std::string>& file, const std::string& name) {
    const std::string open = "// ---- snippet: " + name + " ----";
    for (std::size_t i = 0; i < file.size(); ++i)
        if (file[i] == open) {
            std::vector<std::string> r;
            for (std::size_t j = i + 1; j < file.size() && file[j] != "// ---- end ----"; ++j) r.push_back(file[j]);
            return r;
        }
    return {};
}

/// Checks every code block preceded by a marker in the document:
///   <!-- snippet: PATH#NAME -->   the block is exactly region NAME of PATH
///   <!-- lines-in: PATH -->       every non-empty line of the block (less a final ';') occurs
///                                 within a line of PATH: signatures shown as declarations
/// Returns the number of blocks checked.
int check_document(const std::string& doc_name) {
    const std::string root = source_root();
    auto doc = lines_of(root + "/" + doc_name);
    int checked = 0;
    for (std::size_t i = 0; i + 1 < doc.size(); ++i) {
        const std::string l = trim(doc[i]);
        const bool snippet = l.rfind("<!-- snippet: ", 0) == 0, lines_in = l.rfind("<!-- lines-in: ", 0) == 0;
        if (!snippet && !lines_in) continue;
        const std::string arg = trim(l.substr(l.find(':') + 1, l.rfind("-->") - l.find(':') - 1));
        REQUIRE_MESSAGE(doc[i + 1].rfind("```", 0) == 0, doc_name << " line " << i + 2 << ": a marker must precede a ``` block");
        std::vector<std::string> block;
        std::size_t j = i + 2;
        for (; j < doc.size() && doc[j].rfind("```", 0) != 0; ++j) block.push_back(doc[j]);
        const std::string path = arg.substr(0, arg.find('#'));
        auto file = lines_of(root + "/" + path);
        if (snippet) {
            const std::string name = arg.substr(arg.find('#') + 1);
            auto want = region(file, name);
            CHECK_MESSAGE(!want.empty(), doc_name << " line " << i + 1 << ": no region '" << name << "' in " << path);
            CHECK_MESSAGE(block == want, doc_name << " line " << i + 3 << ": the block differs from region '" << name
                                                  << "' of " << path << " (copy the region into the document)");
        } else {
            for (auto& b : block) {
                std::string want = trim(b);
                if (!want.empty() && want.back() == ';') want.pop_back();  // a declaration of a definition
                if (want.empty()) continue;
                const bool found = std::any_of(file.begin(), file.end(),
                                               [&](const std::string& f) { return f.find(want) != std::string::npos; });
                CHECK_MESSAGE(found, doc_name << ": '" << want << "' is not in " << path);
            }
        }
        ++checked;
        i = j;
    }
    return checked;
}

/// The numbers a document states for a constant, by row: a table after
/// "<!-- constants: NAME -->" whose first column names the row and whose other
/// columns are headed by backends (sv::backend_name()). Returns row -> the
/// cell of this backend's column.
std::vector<std::pair<std::string, std::string>> constants_table(const std::string& doc_name, const std::string& name) {
    auto doc = lines_of(source_root() + "/" + doc_name);
    auto cells = [](const std::string& row) {
        std::vector<std::string> out;
        std::string t = trim(row);
        if (t.empty() || t.front() != '|') return out;
        for (std::size_t i = 1, j; (j = t.find('|', i)) != std::string::npos; i = j + 1) out.push_back(trim(t.substr(i, j - i)));
        return out;
    };
    const std::string marker = "<!-- constants: " + name + " -->";
    std::vector<std::pair<std::string, std::string>> rows;
    for (std::size_t i = 0; i < doc.size(); ++i) {
        if (trim(doc[i]) != marker) continue;
        REQUIRE_MESSAGE(i + 3 < doc.size(), doc_name << " line " << i + 1 << ": a table must follow " << marker);
        auto head = cells(doc[i + 1]);
        std::size_t column = 0;
        std::string backend = sv::backend_name();
        for (std::size_t c = 1; c < head.size(); ++c) {
            std::string h = head[c];
            std::transform(h.begin(), h.end(), h.begin(), [](unsigned char x) { return char(std::tolower(x)); });
            if (h == backend) column = c;
        }
        REQUIRE_MESSAGE(column > 0, doc_name << " line " << i + 2 << ": no column for the " << backend << " backend");
        for (std::size_t j = i + 3; j < doc.size() && !cells(doc[j]).empty(); ++j) {
            auto row = cells(doc[j]);
            REQUIRE_MESSAGE(row.size() == head.size(), doc_name << " line " << j + 1 << ": a row of " << row.size() << " cells");
            rows.emplace_back(row[0], row[column]);
        }
    }
    return rows;
}

template <class T, class Pos = std::uint32_t> std::string short_limit_of() {
    return std::to_string(sv::pivoted_segments<T, Pos>{sv::vector<T>(std::size_t(100))}.short_limit());
}

}  // namespace

TEST_CASE("docs/porting.md states short_limit() as the code has it on this backend") {
    // each row of the document's table: the types it names, and what the code says for each
    const std::vector<std::pair<std::string, std::vector<std::string>>> code = {
        {"`std::int32_t`, `std::uint32_t`, `float`",
         {short_limit_of<std::int32_t>(), short_limit_of<std::uint32_t>(), short_limit_of<float>()}},
        {"`std::int64_t`, `std::uint64_t`, `double`",
         {short_limit_of<std::int64_t>(), short_limit_of<std::uint64_t>(), short_limit_of<double>()}},
        {"`std::int8_t`, `std::uint8_t`, `std::int16_t`, `std::uint16_t`",
         {short_limit_of<std::int8_t>(), short_limit_of<std::uint8_t>(), short_limit_of<std::int16_t>(),
          short_limit_of<std::uint16_t>()}},
        {"other types (a struct with `<`), and any keys with 64-bit positions (`sv::pivoted_segments<T, std::uint64_t>`)",
         {short_limit_of<documented::key>(), short_limit_of<std::int32_t, std::uint64_t>(),
          short_limit_of<double, std::uint64_t>()}},
    };
    auto rows = constants_table("docs/porting.md", "short_limit");
    CHECK(rows.size() == code.size());
    for (auto& row : rows) {
        const std::string &label = row.first, &stated = row.second;
        CAPTURE(label);
        auto it = std::find_if(code.begin(), code.end(), [&](auto& c) { return c.first == label; });
        REQUIRE_MESSAGE(it != code.end(), "docs/porting.md's short_limit table has a row this test does not know: "
                                          "name its types in the test's table too");
        for (auto& value : it->second) CHECK_MESSAGE(stated == value, "the document says " << stated << ", the code " << value);
    }
}

TEST_CASE("docs/porting.md and docs/exercises.md show the compiled code") {
    CHECK(check_document("docs/porting.md") >= 8);
    CHECK(check_document("docs/exercises.md") >= 8);
}
#endif
