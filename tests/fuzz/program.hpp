// The differential fuzzer's shared declarations: the element types and
// operators (namespace fz: device code needs them at namespace scope), the
// reference's own pieces, and the program class (namespace fuzz). The step
// families' member functions are defined in the steps_*.cpp files beside this
// one, each explicitly instantiated for the six element types there, so that
// the files compile in parallel; test_fuzz.cpp holds the driver and the recipe.
#pragma once

#include "../support.hpp"
#include <scanvec/scanvec.hpp>  // the fuzzer calls every primitive

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <variant>

// ---- element types and operators (namespace scope: nvcc needs them there) ----

namespace fz {

/// A 2x2 matrix of integers mod 2^32 (a described struct); the product is associative, not commutative.
struct mat2 {
    std::uint32_t a, b, c, d;
};
SCANVEC_FIELDS(mat2, a, b, c, d)
SCANVEC_HD inline bool operator<(const mat2& x, const mat2& y) {
    if (x.a != y.a) return x.a < y.a;
    if (x.b != y.b) return x.b < y.b;
    if (x.c != y.c) return x.c < y.c;
    return x.d < y.d;
}
inline bool operator==(const mat2& x, const mat2& y) { return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d; }
inline bool operator!=(const mat2& x, const mat2& y) { return !(x == y); }
inline std::ostream& operator<<(std::ostream& o, const mat2& m) {
    return o << "[" << m.a << " " << m.b << "; " << m.c << " " << m.d << "]";
}

struct mat_mul {
    SCANVEC_HD mat2 operator()(const mat2& x, const mat2& y) const {
        return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
    }
};
struct mat_add {
    SCANVEC_HD mat2 operator()(const mat2& x, const mat2& y) const {
        return {x.a + y.a, x.b + y.b, x.c + y.c, x.d + y.d};
    }
};
/// x -> m*x + c mod 2^32 packed in one word (m high, c low); f then g.
struct affine_then {
    SCANVEC_HD std::uint64_t operator()(std::uint64_t f, std::uint64_t g) const {
        const std::uint32_t fm = std::uint32_t(f >> 32), fc = std::uint32_t(f), gm = std::uint32_t(g >> 32),
                            gc = std::uint32_t(g);
        return (std::uint64_t(gm * fm) << 32) | std::uint32_t(gm * fc + gc);
    }
};
/// plus, max, min, xor (integers) or last-nonzero chosen at run time: one instantiation
/// of every primitive serves them all. It declares no commutativity, so reductions keep
/// the operands' order (the path of non-commutative operators).
template <class T> struct dyn_op {
    int kind;  // 0 plus, 1 max, 2 min, 3 xor, 4 last nonzero
    SCANVEC_HD T operator()(const T& a, const T& b) const {
        switch (kind) {
            case 0: return T(a + b);
            case 1: return a < b ? b : a;
            case 2: return b < a ? b : a;
            case 3:
                if constexpr (std::is_integral_v<T>) return T(a ^ b);
                else return a;
            default: return b != T(0) ? b : a;
        }
    }
    SCANVEC_HD T identity() const {
        if (kind == 1) {
            if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
            else return std::numeric_limits<T>::lowest();
        }
        if (kind == 2) {
            if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
            else return std::numeric_limits<T>::max();
        }
        return T(0);
    }
};

// element-wise functors
struct add_c {
    long long c;
    template <class T> SCANVEC_HD T operator()(T x) const { return T(x + T(c)); }
};
struct mul_c {
    int c;
    template <class T> SCANVEC_HD T operator()(T x) const { return T(x * T(c)); }
};
struct mod_c {  // the remainder keeps x's sign
    int m;
    template <class T> SCANVEC_HD T operator()(T x) const { return T((long long)x % m); }
};
struct negate {
    template <class T> SCANVEC_HD T operator()(T x) const { return T(-x); }
};
struct add2 {
    template <class T> SCANVEC_HD T operator()(T x, T y) const { return T(x + y); }
};
struct max2 {
    template <class T> SCANVEC_HD T operator()(T x, T y) const { return x < y ? y : x; }
};
struct select3 {  // f ? x : y
    SCANVEC_HD int operator()(bool f, int x, int y) const { return f ? x : y; }
};
struct not1 {
    SCANVEC_HD bool operator()(bool f) const { return !f; }
};
struct and2 {
    SCANVEC_HD bool operator()(bool f, bool g) const { return f && g; }
};
struct xor2 {
    SCANVEC_HD bool operator()(bool f, bool g) const { return f != g; }
};
struct transpose {
    SCANVEC_HD mat2 operator()(const mat2& m) const { return {m.a, m.c, m.b, m.d}; }
};
struct affine_square {
    SCANVEC_HD std::uint64_t operator()(std::uint64_t f) const { return affine_then{}(f, f); }
};
struct divisible {  // x % m == 0
    int m;
    template <class T> SCANVEC_HD bool operator()(T x) const { return (long long)x % m == 0; }
};
struct digit_of {  // a digit in 0..m-1
    long long m;
    template <class T> SCANVEC_HD int operator()(T x) const { return int((((long long)x % m) + m) % m); }
};
struct to_i32 {
    template <class T> SCANVEC_HD int operator()(T x) const { return int(x); }
};
struct i64_to_i32 {
    SCANVEC_HD int operator()(std::int64_t x) const { return int(x % 1000003); }
};
struct to_i64 {
    template <class T> SCANVEC_HD std::int64_t operator()(T x) const { return std::int64_t(x); }
};
struct to_f32 {
    template <class T> SCANVEC_HD float operator()(T x) const { return float(x); }
};
struct bool_to_i32 {
    SCANVEC_HD int operator()(bool f) const { return f ? 1 : 0; }
};
struct i32_to_mat {
    SCANVEC_HD mat2 operator()(int x) const {
        const std::uint32_t u = std::uint32_t(x);
        return {u, u * 3u + 1u, 7u, u ^ 5u};
    }
};
struct i64_to_affine {
    SCANVEC_HD std::uint64_t operator()(std::int64_t x) const {
        const std::uint64_t u = std::uint64_t(x);
        return ((u * 2654435761u) << 32) | std::uint32_t(u * 40503u + 1u);
    }
};
struct unit_to_integer {  // [0, 1) -> an integer-valued float in [0, scale)
    float scale;
    SCANVEC_HD float operator()(float u) const { return float(int(u * scale)); }
};

}  // namespace fz

// ---- the reference and the programs (a namespace of their own: no argument-dependent
// lookup from the library's code into them through fz's types) ---------------------

namespace fuzz {

using fz::mat2;
using index_t = sv::index_t;
using u64 = std::uint64_t;
using i64 = std::int64_t;


// ---- the reference's own pieces ----------------------------------------------

template <class T> const char* type_name();
template <> inline const char* type_name<int>() { return "i32"; }
template <> inline const char* type_name<i64>() { return "i64"; }
template <> inline const char* type_name<float>() { return "f32"; }
template <> inline const char* type_name<bool>() { return "bool"; }
template <> inline const char* type_name<mat2>() { return "mat2"; }
template <> inline const char* type_name<u64>() { return "u64"; }

template <class T> constexpr bool is_numeric_v = std::is_same_v<T, int> || std::is_same_v<T, i64> || std::is_same_v<T, float>;

/// The largest magnitude that keeps a T exact: no signed overflow, floats integral.
template <class T> double limit_of() {
    if constexpr (std::is_same_v<T, int>) return 2147483647.0;
    else if constexpr (std::is_same_v<T, i64>) return 4.0e18;
    else return 16777216.0;  // 2^24
}

template <class T> double magnitude(const std::vector<T>& v) {
    double m = 0;
    if constexpr (is_numeric_v<T>)
        for (const T& x : v) m = std::max(m, std::fabs(double(x)));
    return m;
}

/// SplitMix64 by position, written from sv::random's documented contract.
struct splitmix {
    static u64 mix(u64 z) {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    u64 key;
    explicit splitmix(u64 seed) : key(mix(seed + 0x9E3779B97F4A7C15ull)) {}
    u64 word(u64 i) const { return mix(key + (i + 1) * 0x9E3779B97F4A7C15ull); }
    template <class T> T in(u64 i, T lo, T hi) const {  // integers in [lo, hi]
        const u64 l = u64(i64(lo)), span = u64(i64(hi)) - l;
        const u64 w = word(i);
        const u64 off = span == ~u64(0) ? w : u64((unsigned __int128)w * (span + 1) >> 64);
        return T(l + off);
    }
};

/// FNV-1a, 64 bits, over a canonical encoding of a result.
struct hasher {
    u64 h = 0xcbf29ce484222325ull;
    void byte(unsigned char c) { h = (h ^ c) * 0x100000001b3ull; }
    void word(u64 w) { for (int i = 0; i < 8; ++i) byte((unsigned char)(w >> (8 * i))); }
    void value(int x) { word(u64(i64(x))); }
    void value(i64 x) { word(u64(x)); }
    void value(u64 x) { word(x); }
    void value(bool x) { byte(x ? 1 : 0); }
    void value(const mat2& m) { word(m.a); word(m.b); word(m.c); word(m.d); }
    void value(float x) {
        char s[32];
        std::snprintf(s, sizeof s, "%.9g", double(x == 0.0f ? 0.0f : x));
        for (char* p = s; *p; ++p) byte((unsigned char)*p);
        byte(0);
    }
    template <class T> void values(const std::vector<T>& v) {
        word(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) value(T(v[i]));
    }
};

template <class T> std::string show(const T& x) {
    std::ostringstream s;
    if constexpr (std::is_same_v<T, bool>) s << (x ? "T" : "F");
    else s << x;
    return s.str();
}

// ---- the pool ------------------------------------------------------------------

template <class T> struct slot {
    sv::vector<T> dev;
    std::vector<T> ref;
};
using any_slot = std::variant<slot<int>, slot<i64>, slot<float>, slot<bool>, slot<mat2>, slot<u64>>;
struct entry {
    std::string name;
    any_slot v;
};

/// A result that differs from the reference.
struct mismatch : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct totals {
    std::size_t programs = 0, steps = 0, failures = 0;
    std::map<std::string, std::size_t> kinds;
    std::map<std::string, double> seconds;  // by the kind of each call (with the operands it made)
};

// ---- a program ---------------------------------------------------------------------

class program {
public:
    program(u64 seed, std::ostream* dump, bool verbose, totals& t)
        : seed_(seed), rng_(seed), dump_(dump), verbose_(verbose), totals_(t) {}

    /// Runs the program; returns false (after reporting) on the first mismatch or error.
    /// After every step its operands are compared with the reference again, and at the
    /// end every live vector.
    bool run();

private:
    // -- randomness and sizes
    u64 below(u64 m) { return m ? rng_() % m : 0; }
    bool coin(double p = 0.5) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
    template <class X> const X& pick(const std::vector<X>& v) { return v[below(v.size())]; }

    std::size_t draw_size() {
        const bool small = test::small_sizes_only();
        const u64 r = below(100);
        if (r < 25) return pick(std::vector<std::size_t>{0, 1, 2, 3, 5, 7, 13});
        const int top = r < 60 ? 10 : r < (small ? 100 : 85) ? (small ? 13 : 14) : 16;
        const int k = 4 + int(below(u64(top - 3)));
        const std::size_t p = std::size_t(1) << k;
        switch (below(4)) {
            case 0: return p - 1;
            case 1: return p;
            case 2: return p + 1;
            default: return std::min<std::size_t>(69999, p + 2 * below(p) + 1);  // odd
        }
    }
    /// A length for indices or values sent to a vector of length n.
    std::size_t draw_count(std::size_t n) {
        switch (below(6)) {
            case 0: return 0;
            case 1: return 1;
            case 2: return n / 2 + 1;
            case 3: return n;
            case 4: return std::min<std::size_t>(2 * n + 1, 140001);
            default: return below(2 * n + 2);
        }
    }

    // -- steps and their record
    std::string fresh_name() { return "v" + std::to_string(next_name_++); }
    std::size_t begin_step(const std::string& kind, const std::string& text) {
        steps_.push_back(text);
        kind_ = kind;
        totals_.steps++;
        totals_.kinds[kind]++;
        if (verbose_) std::cerr << "fuzz: seed " << seed_ << " step " << steps_.size() - 1 << ": " << text << std::endl;
        return steps_.size() - 1;
    }
    void digest(const hasher& h) {
        if (dump_) {
            char hex[24];
            std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h.h);
            *dump_ << seed_ << " " << steps_.size() - 1 << " " << kind_ << " " << hex << "\n";
        }
    }
    bool report(const std::string& what) {
        std::ostringstream o;
        o << "fuzz: MISMATCH in the program of seed " << seed_ << " at step " << steps_.size() - 1 << ": "
          << (steps_.empty() ? "(none)" : steps_.back()) << "\n  " << what << "\n  the program (n = " << n_ << "):\n";
        for (std::size_t i = 0; i < steps_.size(); ++i) o << "    " << i << ": " << steps_[i] << "\n";
        o << "  replay: SCANVEC_FUZZ_SEED=" << seed_ << " SCANVEC_FUZZ_PROGRAMS=1 SCANVEC_FUZZ_VERBOSE=1 ./tests/test_fuzz\n";
        std::cerr << o.str();
        totals_.failures++;
        if (totals_.failures <= 5) FAIL_CHECK(o.str());
        return false;
    }

    // -- comparisons
    template <class T> static bool same(const T& a, const T& b) { return a == b; }
    template <class T> void compare(const std::vector<T>& got, const std::vector<T>& want, const char* what = "result") {
        if (got.size() != want.size())
            throw mismatch(std::string(what) + ": length " + std::to_string(got.size()) + ", want " +
                           std::to_string(want.size()));
        for (std::size_t i = 0; i < got.size(); ++i)
            if (!same<T>(got[i], want[i]))
                throw mismatch(std::string(what) + " at " + std::to_string(i) + " of " + std::to_string(got.size()) +
                               ": got " + show<T>(got[i]) + ", want " + show<T>(want[i]));
    }
    template <class T> void compare_scalar(const T& got, const T& want, const char* what = "result") {
        if (!same<T>(got, want)) throw mismatch(std::string(what) + ": got " + show<T>(got) + ", want " + show<T>(want));
    }
    template <class T> void expect_unchanged(const std::string& name, const slot<T>& s) {
        const auto got = s.dev.to_host();
        if (got.size() != s.ref.size() || !std::equal(got.begin(), got.end(), s.ref.begin(), same<T>))
            compare(std::vector<T>(got.begin(), got.end()), s.ref, ("input " + name + " changed").c_str());
    }

    /// Checks a vector result against the reference, hashes it, and adds it to the pool.
    template <class T> slot<T>& result(const std::string& name, sv::vector<T> dev, std::vector<T> ref) {
        const auto got = dev.to_host();
        compare(std::vector<T>(got.begin(), got.end()), ref);
        hasher h;
        h.values(ref);
        digest(h);
        pool_.push_back(std::make_shared<entry>(entry{name, slot<T>{std::move(dev), std::move(ref)}}));
        if (pool_.size() > 10) pool_.erase(pool_.begin() + std::ptrdiff_t(below(pool_.size() - 1)));  // not the new one
        return std::get<slot<T>>(pool_.back()->v);
    }
    template <class T> void checked_scalar(const T& got, const T& want) {
        compare_scalar(got, want);
        hasher h;
        h.value(want);
        digest(h);
    }

    // -- operands
    template <class T> std::vector<std::size_t> candidates(std::size_t len, bool any_length) {
        std::vector<std::size_t> c;
        for (std::size_t i = 0; i < pool_.size(); ++i)
            if (auto* s = std::get_if<slot<T>>(&pool_[i]->v))
                if (any_length || s->ref.size() == len) c.push_back(i);
        return c;
    }
    /// A live T, its name, and a pointer that keeps it alive while the step runs (a step's
    /// results may evict it from the pool).
    template <class T> std::pair<std::string, std::shared_ptr<slot<T>>> hold(const std::shared_ptr<entry>& e) {
        if (std::find(touched_.begin(), touched_.end(), e) == touched_.end()) touched_.push_back(e);
        return {e->name, std::shared_ptr<slot<T>>(e, &std::get<slot<T>>(e->v))};
    }
    /// A live T of length len (made by a new step when there is none, or sometimes anyway).
    template <class T> std::pair<std::string, std::shared_ptr<slot<T>>> operand(std::size_t len) {
        auto c = candidates<T>(len, false);
        if (c.empty() || coin(0.15)) {
            generate<T>(len);
            return hold<T>(pool_.back());
        }
        return hold<T>(pool_[pick(c)]);
    }
    /// A live T of any length (the program's length when there is none).
    template <class T> std::pair<std::string, std::shared_ptr<slot<T>>> operand_any() {
        auto c = candidates<T>(0, true);
        if (c.empty()) return operand<T>(n_);
        return hold<T>(pool_[pick(c)]);
    }
    /// A live T for a sort: under SCANVEC_TEST_SMALL=1 (the sanitizers, where a sort's dozens of
    /// passes cost the most) of at most 2049 elements, else of any length.
    template <class T> std::pair<std::string, std::shared_ptr<slot<T>>> operand_to_sort() {
        if (!test::small_sizes_only()) return operand_any<T>();
        const std::size_t cap = 2049;
        std::vector<std::size_t> c;
        for (std::size_t i : candidates<T>(0, true))
            if (std::get<slot<T>>(pool_[i]->v).ref.size() <= cap) c.push_back(i);
        if (c.empty()) return operand<T>(std::min(n_, cap));
        return hold<T>(pool_[pick(c)]);
    }

    // -- generators
    template <class T> slot<T>& generate(std::size_t len);

    // -- the step catalogue
    template <class F> void with_type(F&& f) {
        switch (below(11)) {
            case 0: case 1: case 2: return f(type_tag<int>{});
            case 3: case 4: return f(type_tag<i64>{});
            case 5: case 6: return f(type_tag<float>{});
            case 7: return f(type_tag<bool>{});
            case 8: case 9: return f(type_tag<mat2>{});
            default: return f(type_tag<u64>{});
        }
    }
    template <class T> struct type_tag { using type = T; };

    void random_step();

    // ---- map ------------------------------------------------------------------------
    void map_step();

    static mat2 ref_mat_mul(const mat2& x, const mat2& y) {
        mat2 r;
        r.a = std::uint32_t(u64(x.a) * y.a + u64(x.b) * y.c);
        r.b = std::uint32_t(u64(x.a) * y.b + u64(x.b) * y.d);
        r.c = std::uint32_t(u64(x.c) * y.a + u64(x.d) * y.c);
        r.d = std::uint32_t(u64(x.c) * y.b + u64(x.d) * y.d);
        return r;
    }
    static mat2 ref_mat_add(const mat2& x, const mat2& y) {
        return {std::uint32_t(u64(x.a) + y.a), std::uint32_t(u64(x.b) + y.b), std::uint32_t(u64(x.c) + y.c),
                std::uint32_t(u64(x.d) + y.d)};
    }
    static u64 ref_affine(u64 f, u64 g) {  // f then g: g(f(x)) = gm*(fm*x + fc) + gc
        const u64 fm = f >> 32, fc = f & 0xffffffffu, gm = g >> 32, gc = g & 0xffffffffu;
        const u64 m = (gm * fm) & 0xffffffffu, c = (gm * fc + gc) & 0xffffffffu;
        return (m << 32) | c;
    }

    template <class T> void map_unary(const std::string& name);

    void map_binary(const std::string& name);
    template <class T> void map_binary_of(const std::string& name);

    void map_convert(const std::string& name);
    template <class T> void to_flags(const std::string& name);

    // ---- operators ----------------------------------------------------------------------
    template <class T> struct ref_op {
        std::string name;
        std::function<T(const T&, const T&)> f;
        T id;
        bool sum;  // may overflow: needs the magnitude check
    };
    /// The reference of dyn_op<T>{kind}, written plainly.
    template <class T> static ref_op<T> ref_dyn(int kind) {
        const T lo = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
        const T hi = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
        switch (kind) {
            case 0: return {"plus (run-time)", [](const T& a, const T& b) { return T(a + b); }, T(0), true};
            case 1: return {"max (run-time)", [](const T& a, const T& b) { return std::max(a, b); }, lo, false};
            case 2: return {"min (run-time)", [](const T& a, const T& b) { return std::min(a, b); }, hi, false};
            case 3:
                if constexpr (std::is_integral_v<T>) return {"xor (run-time)", [](const T& a, const T& b) { return T(a ^ b); }, T(0), false};
                [[fallthrough]];
            default: return {"last-nonzero (run-time)", [](const T& a, const T& b) { return b != T(0) ? b : a; }, T(0), false};
        }
    }
    /// f(device operator, reference operator) for an operator on T drawn at random; sums only
    /// where they cannot overflow (or lose exactness) over `terms` elements of magnitude mag.
    /// Operators: the provided sv::plus (commutative: CUB's reductions on CUDA), run-time
    /// operators (dyn_op: order-keeping reductions), user monoids that do not commute.
    template <class T, class F> void with_op(double mag, double terms, F&& f) {
        const bool sum_ok = mag * terms <= limit_of<T>() && mag * terms == mag * terms;
        if constexpr (std::is_same_v<T, int> || std::is_same_v<T, i64> || std::is_same_v<T, float>) {
            const int kinds = std::is_same_v<T, float> ? 3 : 5;  // plus, max, min (, xor, last nonzero)
            int k = int(below(u64(kinds) + 1)) - 1;               // -1: sv::plus<T>
            if (k <= 0 && !sum_ok) k = 1 + int(below(u64(kinds) - 1));
            if constexpr (!std::is_same_v<T, i64>)  // (int64 sums run through dyn_op only: fewer instantiations)
                if (k < 0) return f(sv::plus<T>{}, ref_op<T>{"plus", [](const T& a, const T& b) { return T(a + b); }, T(0), true});
            return f(fz::dyn_op<T>{k < 0 ? 0 : k}, ref_dyn<T>(k < 0 ? 0 : k));
        } else if constexpr (std::is_same_v<T, bool>) {
            return f(sv::logical_or{}, ref_op<bool>{"or", [](bool a, bool b) { return a || b; }, false, false});
        } else if constexpr (std::is_same_v<T, mat2>) {
            return f(sv::monoid(fz::mat_mul{}, mat2{1, 0, 0, 1}), ref_op<mat2>{"matrix product", ref_mat_mul, mat2{1, 0, 0, 1}, false});
        } else {
            return f(sv::monoid(fz::affine_then{}, u64(1) << 32), ref_op<u64>{"affine composition", ref_affine, u64(1) << 32, false});
        }
    }

    // ---- scans ------------------------------------------------------------------------------
    template <class T> void scan_step();

    /// Per-segment reference scans over head flags (position 0 always heads).
    template <class T> static std::vector<T> ref_segmented(const std::vector<T>& a, const std::vector<bool>& f,
                                                           const ref_op<T>& ro, bool inclusive, bool backward);

    template <class T> void segmented_step();

    /// Segment lengths summing to n, empty segments included.
    std::vector<index_t> draw_lengths(std::size_t n);

    template <class T> void nested_step();

    // ---- flags --------------------------------------------------------------------------------
    void flag_step();

    // ---- pack and split --------------------------------------------------------------------
    template <class T> void pack_split_step();

    // ---- permutes ------------------------------------------------------------------------------
    template <class T> void permute_step();

    // ---- writes ---------------------------------------------------------------------------------
    template <class T> void write_step();

    // ---- multisplit and histogram ---------------------------------------------------------------
    template <class T> void multisplit_step();

    // ---- sorts ------------------------------------------------------------------------------------
    void sort_step();
    template <class T> void radix_sorts(const std::string& name, bool one_bit);
    template <class T> void quicksort_of(const std::string& name);

    u64 seed_;
    std::mt19937_64 rng_;
    std::ostream* dump_;
    bool verbose_;
    totals& totals_;
    std::size_t n_ = 0;
    std::vector<std::shared_ptr<entry>> pool_;
    std::vector<std::shared_ptr<entry>> touched_;  // the current step's operands
    std::vector<std::string> steps_;
    std::string kind_;
    int next_name_ = 0;
};

/// The explicit instantiations of a step family (a member function template without
/// arguments) for the pool's six element types, in the file that defines it.
#define FUZZ_STEP_FOR_EACH_TYPE(step)            \
    template void program::step<int>();          \
    template void program::step<i64>();          \
    template void program::step<float>();        \
    template void program::step<bool>();         \
    template void program::step<mat2>();         \
    template void program::step<u64>();

}  // namespace fuzz
