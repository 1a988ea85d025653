// porting_snippets.hpp - the code blocks of docs/porting.md, compiled.
//
// Each region between "// ---- snippet: NAME ----" and "// ---- end ----" is
// copied verbatim into docs/porting.md; tests/test_exercises.cpp compiles and
// runs these functions, and checks that the document still shows exactly
// this text. Edit here first, then the document.
#pragma once

#include "line_of_sight.hpp"

#include <scanvec/scanvec.hpp>

#include <climits>
#include <string>

namespace sv = scanvec;

namespace snippets {

// ---- snippet: functor ----
/// An operator as a function object: state in members, SCANVEC_HD on operator().
struct clamp {
    int lo, hi;
    SCANVEC_HD int operator()(int x) const { return x < lo ? lo : (x > hi ? hi : x); }
};
// ---- end ----

// ---- snippet: lambda ----
/// The same operator as a SCANVEC_FN lambda: it captures lo and hi by value.
inline sv::vector<int> clamp_all(const sv::vector<int>& a, int lo, int hi) {
    return sv::map(SCANVEC_FN(int x) { return x < lo ? lo : (x > hi ? hi : x); }, a);
}
// ---- end ----

// ---- snippet: monoid-lambda ----
/// A max-scan with a user operator: sv::monoid(op, identity).
inline sv::vector<int> running_max(const sv::vector<int>& a) {
    auto bigger = sv::monoid(SCANVEC_FN(int x, int y) { return x < y ? y : x; }, INT_MIN);
    return sv::inclusive_scan(a, bigger);
}
// ---- end ----

// ---- snippet: monoid-struct ----
/// x -> a * x + b. Composition is associative but does not commute.
struct affine {
    long long a, b;
};
SCANVEC_FIELDS(affine, a, b)

/// then(f, g): first f, then g.
struct then {
    SCANVEC_HD affine operator()(const affine& f, const affine& g) const {
        return affine{g.a * f.a, g.a * f.b + g.b};
    }
};

/// x[i] = a[i] * x[i-1] + b[i], with x[-1] = x0, for all i at once.
inline sv::vector<long long> linear_recurrence(const sv::vector<affine>& steps, long long x0) {
    // Composed[i] <- steps[0] then ... then steps[i]
    sv::vector<affine> composed = sv::inclusive_scan(steps, sv::monoid(then{}, affine{1, 0}));
    // x[i] <- Composed[i](x0)
    return sv::map(SCANVEC_FN(affine f) { return f.a * x0 + f.b; }, composed);
}
// ---- end ----

// ---- snippet: described ----
struct particle {
    float x;
    float v;
    int id;
};
SCANVEC_FIELDS(particle, x, v, id)  // at namespace scope: three arrays, x, v and id

/// Moves every particle by its speed; returns the positions.
inline sv::vector<float> step(sv::vector<particle>& p) {
    p = sv::map(SCANVEC_FN(particle q) { q.x += q.v; return q; }, p);
    sv::vector<float>& xs = p.field<&particle::x>();  // the x array itself: no copy
    return xs;
}
// ---- end ----

// ---- snippet: lazy ----
/// One pass: the squares are computed inside the reduction and never stored.
inline long long sum_of_squares(const sv::vector<int>& a) {
    return sv::reduce(sv::lazy::map(SCANVEC_FN(int x) { return (long long)x * x; }, a));
}
// ---- end ----

// ---- snippet: lazy-scan ----
/// Where split sends element i: falses to their rank among the falses,
/// trues after all the falses.
struct split_target {
    sv::index_t falses;
    SCANVEC_HD sv::index_t operator()(bool f, sv::index_t falses_before, sv::index_t i) const {
        return f ? falses + (i - falses_before) : falses_before;
    }
};
struct is_false {
    SCANVEC_HD bool operator()(bool f) const { return !f; }
};

/// Blelloch's split with the index never stored: 2 passes over the data.
inline sv::vector<int> my_split(const sv::vector<int>& a, const sv::vector<bool>& flags) {
    auto not_flags = sv::lazy::map(is_false{}, flags);
    const sv::index_t falses = sv::count(not_flags);            // pass 1
    auto down = sv::lazy::enumerate(not_flags);                  // a scan, not run yet
    auto index = sv::lazy::map(split_target{falses}, flags, down, sv::lazy::index(a.size()));
    return sv::permute(a, index, sv::unchecked);                 // pass 2: scan and scatter together
}
// ---- end ----

// ---- snippet: trace ----
struct cost {
    std::size_t steps, work;
};
/// The model's cost of the line-of-sight port, counted by a trace.
inline cost cost_of_line_of_sight(const sv::vector<float>& altitude) {
    sv::trace t;  // counts silently, on this thread, while it lives
    sv::vector<bool> visible = port::line_of_sight(altitude, 2.0f);
    // t.by_primitive() is {"map": 2, "scan": 1}
    return cost{t.steps(), t.work()};  // 3 steps; work 3 n (per step, the larger of input and output length)
}
// ---- end ----

// ---- snippet: errors ----
/// The message of the error a bad call throws ("" when it does not throw).
inline std::string unequal_lengths() {
    sv::vector<int> a = {5, 7, 3}, b = {1, 2};
    try {
        sv::map(SCANVEC_FN(int x, int y) { return x + y; }, a, b);
    } catch (const sv::length_error& e) {
        return e.what();  // map: lengths differ (3 and 2)
    }
    return "";
}
inline std::string repeated_index() {
    sv::vector<int> a = {5, 7, 3}, idx = {2, 0, 2};
    try {
        sv::permute(a, idx);
    } catch (const sv::index_error& e) {
        return e.what();  // permute: index 2 repeats in idx (at idx[0] and idx[2]); ...
    }
    return "";
}
// ---- end ----

}  // namespace snippets
