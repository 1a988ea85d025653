// Differential fuzzing of whole vector-model programs.
//
// Each program is 3 to 20 random primitive calls over a small pool of live
// vectors (int, int64, float holding integers so that sums are exact, bool
// flags, a described struct (2x2 matrices mod 2^32), affine maps packed in a
// uint64) of sizes 0, 1, odd, 2^k - 1, 2^k, 2^k + 1 up to ~70000, with
// operators commutative or not. Every step runs through scanvec and through
// the plain sequential interpreter below (std::vector and loops), and every
// result is compared before the next step uses it; at the end of a program
// every live input is compared again (a primitive must not change its inputs).
// Operands that a step needs at a given length (flags, indices, a second
// vector) are made by extra steps when the pool has none; those count as steps.
//
// Environment:
//   SCANVEC_FUZZ_PROGRAMS=N  programs to run (default 1500; 1000 under SCANVEC_TEST_SMALL=1)
//   SCANVEC_FUZZ_SEED=S      seed of the first program (default 20261201); program i has seed S + i
//   SCANVEC_FUZZ_VERBOSE=1   print every step before it runs (for a crash: the last line is the culprit)
//   SCANVEC_FUZZ_DUMP=path   write a digest: one line "<seed> <step> <kind> <64-bit hash>" per step
//
// A mismatch prints the seed, the whole program, the step that differed and
// where; replay it with
//   SCANVEC_FUZZ_SEED=<seed> SCANVEC_FUZZ_PROGRAMS=1 SCANVEC_FUZZ_VERBOSE=1 ./tests/test_fuzz
//
// Comparing the backends: the programs depend on the seed only (each step's
// choices read the reference's values, never scanvec's), so the CUDA and host
// builds run the same programs and their digests must be identical. Integer
// and bool results are hashed by value, floats by their value printed with 9
// significant digits (-0 as 0), and sv::write's unspecified winners are
// canonicalised (an unwritten position hashes its value, a written one only a
// mark, once its value was checked to be among those sent there). Both runs
// need the same SCANVEC_FUZZ_PROGRAMS, SCANVEC_FUZZ_SEED and SCANVEC_TEST_SMALL
// (it changes the sizes). On the GPU machine, from the repository root:
//
//   cmake --preset cuda && cmake --build --preset cuda --target test_fuzz
//   cmake --preset host && cmake --build --preset host --target test_fuzz
//   SCANVEC_FUZZ_PROGRAMS=5000 SCANVEC_FUZZ_DUMP=fuzz-cuda.txt build/cuda/tests/test_fuzz
//   SCANVEC_FUZZ_PROGRAMS=5000 SCANVEC_FUZZ_DUMP=fuzz-host.txt build/host/tests/test_fuzz
//   diff fuzz-host.txt fuzz-cuda.txt && echo "backends agree"
//
// The same diff between OMP_NUM_THREADS=1 and the default compares the host
// backend with itself across thread counts.
#include "support.hpp"

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

using fz::mat2;
using index_t = sv::index_t;
using u64 = std::uint64_t;
using i64 = std::int64_t;

namespace {

// ---- the reference's own pieces ----------------------------------------------

template <class T> const char* type_name();
template <> const char* type_name<int>() { return "i32"; }
template <> const char* type_name<i64>() { return "i64"; }
template <> const char* type_name<float>() { return "f32"; }
template <> const char* type_name<bool>() { return "bool"; }
template <> const char* type_name<mat2>() { return "mat2"; }
template <> const char* type_name<u64>() { return "u64"; }

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

std::uint64_t env_or(const char* name, std::uint64_t fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

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
    bool run() {
        const int calls = 3 + int(rng_() % 18);
        n_ = draw_size();
        try {
            for (int c = 0; c < calls; ++c) {
                const auto t0 = std::chrono::steady_clock::now();
                random_step();
                // the step's operands are as they were (a primitive must not write its inputs)
                for (auto& e : touched_) std::visit([&](auto& s) { expect_unchanged(e->name, s); }, e->v);
                touched_.clear();
                totals_.seconds[kind_] += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            }
            for (auto& e : pool_) std::visit([&](auto& s) { expect_unchanged(e->name, s); }, e->v);
        } catch (const mismatch& m) {
            return report(m.what());
        } catch (const std::exception& e) {
            return report(std::string("unexpected exception: ") + e.what());
        }
        return true;
    }

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
    template <class T> slot<T>& generate(std::size_t len) {
        const std::string name = fresh_name();
        const u64 s = rng_();
        if constexpr (std::is_same_v<T, int> || std::is_same_v<T, i64>) {
            const std::vector<std::pair<T, T>> ranges = {{-3, 3}, {-100, 100}, {0, 1}, {-1000000, 1000000}, {0, 70000}};
            const auto range = pick(ranges);
            const T lo = range.first, hi = range.second;
            switch (below(5)) {
                case 4: {  // every value of T: the top bits of the word
                    begin_step("random", name + " = random<" + std::string(type_name<T>()) + ">(" + std::to_string(len) +
                                             ", seed " + std::to_string(s) + ")");
                    splitmix g(s);
                    std::vector<T> ref(len);
                    for (std::size_t i = 0; i < len; ++i)
                        ref[i] = T(std::make_unsigned_t<T>(g.word(i) >> (64 - 8 * sizeof(T))));
                    return result(name, sv::random<T>(len, s), ref);
                }
                case 0: {
                    begin_step("random", name + " = random<" + type_name<T>() + ">(" + std::to_string(len) + ", seed " +
                                             std::to_string(s) + ", " + show(lo) + ", " + show(hi) + ")");
                    splitmix g(s);
                    std::vector<T> ref(len);
                    for (std::size_t i = 0; i < len; ++i) ref[i] = g.in<T>(i, lo, hi);
                    return result(name, sv::random<T>(len, s, lo, hi), ref);
                }
                case 1: {
                    begin_step("index", name + " = index<" + std::string(type_name<T>()) + ">(" + std::to_string(len) + ")");
                    std::vector<T> ref(len);
                    for (std::size_t i = 0; i < len; ++i) ref[i] = T(i);
                    if constexpr (std::is_same_v<T, int>) return result(name, sv::index<int>(len), ref);
                    else return result(name, sv::index(len), ref);
                }
                case 2: {
                    const T v = T(lo + T(below(u64(hi - lo) + 1)));
                    begin_step("distribute", name + " = distribute(" + show(v) + ", " + std::to_string(len) + ")");
                    return result(name, sv::distribute(v, len), std::vector<T>(len, v));
                }
                default: {
                    begin_step("upload", name + " = upload<" + std::string(type_name<T>()) + ">(" + std::to_string(len) +
                                             " values in " + show(lo) + ".." + show(hi) + ", seed " + std::to_string(s) + ")");
                    auto ref = test::random_values<T>(len, s, lo, hi);
                    return result(name, sv::vector<T>(ref), ref);
                }
            }
        } else if constexpr (std::is_same_v<T, float>) {
            switch (below(3)) {
                case 0: {
                    const float scale = pick(std::vector<float>{2, 64, 1000});
                    begin_step("random", name + " = map(x * " + show(scale) + " truncated, lazy::random<f32>(" +
                                             std::to_string(len) + ", seed " + std::to_string(s) + "))");
                    splitmix g(s);
                    std::vector<float> ref(len);
                    for (std::size_t i = 0; i < len; ++i) {
                        const float u = float(std::uint32_t(g.word(i) >> 40)) * 0x1p-24f;
                        ref[i] = float(int(u * scale));
                    }
                    return result(name, sv::map(fz::unit_to_integer{scale}, sv::lazy::random<float>(len, s)), ref);
                }
                case 1: {
                    const float v = float(int(below(201)) - 100);
                    begin_step("distribute", name + " = distribute(" + show(v) + "f, " + std::to_string(len) + ")");
                    return result(name, sv::distribute(v, len), std::vector<float>(len, v));
                }
                default: {
                    begin_step("upload", name + " = upload<f32>(" + std::to_string(len) + " integers in -100..100, seed " +
                                             std::to_string(s) + ")");
                    auto ints = test::random_values<int>(len, s, -100, 100);
                    std::vector<float> ref(ints.begin(), ints.end());
                    return result(name, sv::vector<float>(ref), ref);
                }
            }
        } else if constexpr (std::is_same_v<T, bool>) {
            if (coin(0.25)) {
                begin_step("random", name + " = random<bool>(" + std::to_string(len) + ", seed " + std::to_string(s) + ")");
                splitmix g(s);
                std::vector<bool> ref(len);
                for (std::size_t i = 0; i < len; ++i) ref[i] = (g.word(i) >> 63) != 0;
                return result(name, sv::random<bool>(len, s), ref);
            }
            const double density = pick(std::vector<double>{0.0, 0.002, 0.05, 0.5, 0.9, 1.0});
            begin_step("upload", name + " = flags(" + std::to_string(len) + ", density " + show(density) + ", seed " +
                                     std::to_string(s) + ")");
            std::mt19937_64 r(s);
            std::bernoulli_distribution d(density);
            std::vector<bool> ref(len);
            for (std::size_t i = 0; i < len; ++i) ref[i] = d(r);
            return result(name, sv::vector<bool>(ref), ref);
        } else if constexpr (std::is_same_v<T, mat2>) {
            const bool small = coin();
            if (coin(0.2)) {
                const mat2 v{std::uint32_t(below(5)), std::uint32_t(below(5)), std::uint32_t(below(5)), std::uint32_t(below(5))};
                begin_step("distribute", name + " = distribute(" + show(v) + ", " + std::to_string(len) + ")");
                return result(name, sv::distribute(v, len), std::vector<mat2>(len, v));
            }
            begin_step("upload", name + " = upload<mat2>(" + std::to_string(len) + (small ? " entries in 0..3" : " any entries") +
                                     ", seed " + std::to_string(s) + ")");
            auto e = test::random_values<std::uint32_t>(4 * len, s, 0u, small ? 3u : 0xffffffffu);
            std::vector<mat2> ref(len);
            for (std::size_t i = 0; i < len; ++i) ref[i] = {e[4 * i], e[4 * i + 1], e[4 * i + 2], e[4 * i + 3]};
            return result(name, sv::vector<mat2>(ref), ref);
        } else {
            if (coin(0.3)) {
                begin_step("random", name + " = random<u64>(" + std::to_string(len) + ", seed " + std::to_string(s) + ")");
                splitmix g(s);
                std::vector<u64> ref(len);
                for (std::size_t i = 0; i < len; ++i) ref[i] = g.word(i);
                return result(name, sv::random<u64>(len, s), ref);
            }
            begin_step("upload", name + " = upload<u64>(" + std::to_string(len) + " affine maps, seed " + std::to_string(s) + ")");
            auto ref = test::random_values<u64>(len, s, 0, ~u64(0) >> 1);
            return result(name, sv::vector<u64>(ref), ref);
        }
    }

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

    void random_step() {
        const u64 r = below(100);
        if (r < 5) with_type([&](auto t) { generate<typename decltype(t)::type>(draw_size()); });
        else if (r < 19) map_step();
        else if (r < 33) with_type([&](auto t) { scan_step<typename decltype(t)::type>(); });
        else if (r < 45) with_type([&](auto t) { segmented_step<typename decltype(t)::type>(); });
        else if (r < 51) with_type([&](auto t) { nested_step<typename decltype(t)::type>(); });
        else if (r < 56) flag_step();
        else if (r < 65) with_type([&](auto t) { pack_split_step<typename decltype(t)::type>(); });
        else if (r < 74) with_type([&](auto t) { permute_step<typename decltype(t)::type>(); });
        else if (r < 83) with_type([&](auto t) { write_step<typename decltype(t)::type>(); });
        else if (r < 90) with_type([&](auto t) { multisplit_step<typename decltype(t)::type>(); });
        else sort_step();
    }

    // ---- map ------------------------------------------------------------------------
    void map_step() {
        const std::string name = fresh_name();
        switch (below(9)) {
            case 0: return map_unary<int>(name);
            case 1: return map_unary<i64>(name);
            case 2: return map_unary<float>(name);
            case 3: return map_binary(name);
            case 4: return map_convert(name);
            case 5: return map_convert(name);
            case 6: {
                auto a_held = operand_any<bool>();
                const std::string an = a_held.first;
                const auto& a = a_held.second;
                const auto& ar = a->ref;
                const auto& ad = a->dev;
                if (coin()) {
                    begin_step("map", name + " = map(not, " + an + ")");
                    std::vector<bool> ref(ar.size());
                    for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = !ar[i];
                    result(name, sv::map(fz::not1{}, ad), ref);
                } else {
                    auto b_held = operand<bool>(ar.size());
                    const std::string bn = b_held.first;
                    const auto& b = b_held.second;
                    const auto& br = b->ref;
                    const auto& bd = b->dev;
                    const bool use_and = coin();
                    begin_step("map", name + " = map(" + (use_and ? "and" : "xor") + std::string(", ") + an + ", " + bn + ")");
                    std::vector<bool> ref(ar.size());
                    for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = use_and ? (ar[i] && br[i]) : (ar[i] != br[i]);
                    if (use_and) result(name, sv::map(fz::and2{}, ad, bd), ref);
                    else result(name, sv::map(fz::xor2{}, ad, bd), ref);
                }
                return;
            }
            case 7: {
                auto a_held = operand_any<mat2>();
                const std::string an = a_held.first;
                const auto& a = a_held.second;
                const auto& ar = a->ref;
                const auto& ad = a->dev;
                if (coin()) {
                    begin_step("map", name + " = map(transpose, " + an + ")");
                    std::vector<mat2> ref(ar.size());
                    for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = {ar[i].a, ar[i].c, ar[i].b, ar[i].d};
                    result(name, sv::map(fz::transpose{}, ad), ref);
                } else {
                    auto b_held = operand<mat2>(ar.size());
                    const std::string bn = b_held.first;
                    const auto& b = b_held.second;
                    const auto& br = b->ref;
                    const auto& bd = b->dev;
                    begin_step("map", name + " = map(matrix product, " + an + ", " + bn + ")");
                    std::vector<mat2> ref(ar.size());
                    for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = ref_mat_mul(ar[i], br[i]);
                    result(name, sv::map(fz::mat_mul{}, ad, bd), ref);
                }
                return;
            }
            default: {
                auto a_held = operand_any<u64>();
                const std::string an = a_held.first;
                const auto& a = a_held.second;
                const auto& ar = a->ref;
                const auto& ad = a->dev;
                begin_step("map", name + " = map(affine square, " + an + ")");
                std::vector<u64> ref(ar.size());
                for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = ref_affine(ar[i], ar[i]);
                result(name, sv::map(fz::affine_square{}, ad), ref);
            }
        }
    }

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

    template <class T> void map_unary(const std::string& name) {
        auto a_held = operand_any<T>();
        const std::string an = a_held.first;
        const auto& a = a_held.second;
        const auto& ar = a->ref;
        const auto& ad = a->dev;
        const double mag = magnitude(ar), lim = limit_of<T>();
        std::vector<T> ref(ar.size());
        const u64 which = below(4);
        if (which == 0 && mag + 50 <= lim) {
            const long long c = (long long)below(101) - 50;
            begin_step("map", name + " = map(x + " + std::to_string(c) + ", " + an + ")");
            for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = T(ar[i] + T(c));
            result(name, sv::map(fz::add_c{c}, ad), ref);
        } else if (which == 1 && mag * 3 <= lim) {
            const int c = pick(std::vector<int>{-3, -2, 2, 3});
            begin_step("map", name + " = map(x * " + std::to_string(c) + ", " + an + ")");
            for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = T(ar[i] * T(c));
            result(name, sv::map(fz::mul_c{c}, ad), ref);
        } else if (which == 2 && mag < lim) {
            begin_step("map", name + " = map(-x, " + an + ")");
            for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = T(-ar[i]);
            result(name, sv::map(fz::negate{}, ad), ref);
        } else if (mag <= lim) {
            const int m = pick(std::vector<int>{2, 3, 10, 1000, 65536});
            begin_step("map", name + " = map(x % " + std::to_string(m) + ", " + an + ")");
            for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = T((long long)ar[i] % m);
            result(name, sv::map(fz::mod_c{m}, ad), ref);
        } else {  // infinities or the identities of max and min: only comparisons are safe
            begin_step("map", name + " = map(max, " + an + ", " + an + ")");
            result(name, sv::map(fz::max2{}, ad, ad), ar);
        }
    }

    void map_binary(const std::string& name) {
        switch (below(4)) {
            case 0: return map_binary_of<int>(name);
            case 1: return map_binary_of<i64>(name);
            case 2: return map_binary_of<float>(name);
            default: {  // a three-way map: f ? a : b
                auto a_held = operand_any<int>();
                const std::string an = a_held.first;
                const auto& a = a_held.second;
                const auto& ar = a->ref;
                const auto& ad = a->dev;
                auto b_held = operand<int>(ar.size());
                const std::string bn = b_held.first;
                const auto& b = b_held.second;
                const auto& br = b->ref;
                const auto& bd = b->dev;
                auto f_held = operand<bool>(ar.size());
                const std::string fn = f_held.first;
                const auto& f = f_held.second;
                const auto& fr = f->ref;
                const auto& fd = f->dev;
                begin_step("map", name + " = map(f ? a : b, " + fn + ", " + an + ", " + bn + ")");
                std::vector<int> ref(ar.size());
                for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = fr[i] ? ar[i] : br[i];
                result(name, sv::map(fz::select3{}, fd, ad, bd), ref);
            }
        }
    }
    template <class T> void map_binary_of(const std::string& name) {
        auto a_held = operand_any<T>();
        const std::string an = a_held.first;
        const auto& a = a_held.second;
        const auto& ar = a->ref;
        const auto& ad = a->dev;
        auto b_held = operand<T>(ar.size());
        const std::string bn = b_held.first;
        const auto& b = b_held.second;
        const auto& br = b->ref;
        const auto& bd = b->dev;
        std::vector<T> ref(ar.size());
        if (magnitude(ar) + magnitude(br) <= limit_of<T>() && coin()) {
            begin_step("map", name + " = map(+, " + an + ", " + bn + ")");
            for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = T(ar[i] + br[i]);
            result(name, sv::map(fz::add2{}, ad, bd), ref);
        } else {
            begin_step("map", name + " = map(max, " + an + ", " + bn + ")");
            for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = std::max(ar[i], br[i]);
            result(name, sv::map(fz::max2{}, ad, bd), ref);
        }
    }

    void map_convert(const std::string& name) {
        switch (below(9)) {
            case 0: {
                auto a_held = operand_any<int>();
                const std::string an = a_held.first;
                const auto& a = a_held.second;
                const auto& ar = a->ref;
                const auto& ad = a->dev;
                begin_step("map", name + " = map(to i64, " + an + ")");
                return (void)result(name, sv::map(fz::to_i64{}, ad), std::vector<i64>(ar.begin(), ar.end()));
            }
            case 1: {
                auto a_held = operand_any<i64>();
                const std::string an = a_held.first;
                const auto& a = a_held.second;
                const auto& ar = a->ref;
                const auto& ad = a->dev;
                begin_step("map", name + " = map(x % 1000003 to i32, " + an + ")");
                std::vector<int> ref(ar.size());
                for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = int(ar[i] % 1000003);
                return (void)result(name, sv::map(fz::i64_to_i32{}, ad), ref);
            }
            case 2: {
                auto a_held = operand_any<int>();
                const std::string an = a_held.first;
                const auto& a = a_held.second;
                const auto& ar = a->ref;
                const auto& ad = a->dev;
                if (magnitude(ar) > limit_of<float>()) return map_convert(name);
                begin_step("map", name + " = map(to f32, " + an + ")");
                return (void)result(name, sv::map(fz::to_f32{}, ad), std::vector<float>(ar.begin(), ar.end()));
            }
            case 3: {
                auto a_held = operand_any<float>();
                const std::string an = a_held.first;
                const auto& a = a_held.second;
                const auto& ar = a->ref;
                const auto& ad = a->dev;
                if (magnitude(ar) > limit_of<float>()) return map_convert(name);
                begin_step("map", name + " = map(to i32, " + an + ")");
                std::vector<int> ref(ar.size());
                for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = int(ar[i]);
                return (void)result(name, sv::map(fz::to_i32{}, ad), ref);
            }
            case 4: return to_flags<int>(name);
            case 5: return to_flags<i64>(name);
            case 6: {
                auto a_held = operand_any<bool>();
                const std::string an = a_held.first;
                const auto& a = a_held.second;
                const auto& ar = a->ref;
                const auto& ad = a->dev;
                begin_step("map", name + " = map(f ? 1 : 0, " + an + ")");
                std::vector<int> ref(ar.size());
                for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = ar[i] ? 1 : 0;
                return (void)result(name, sv::map(fz::bool_to_i32{}, ad), ref);
            }
            case 7: {
                auto a_held = operand_any<int>();
                const std::string an = a_held.first;
                const auto& a = a_held.second;
                const auto& ar = a->ref;
                const auto& ad = a->dev;
                begin_step("map", name + " = map(to mat2, " + an + ")");
                std::vector<mat2> ref(ar.size());
                for (std::size_t i = 0; i < ar.size(); ++i) {
                    const std::uint32_t u = std::uint32_t(ar[i]);
                    ref[i] = {u, std::uint32_t(u64(u) * 3 + 1), 7u, u ^ 5u};
                }
                return (void)result(name, sv::map(fz::i32_to_mat{}, ad), ref);
            }
            default: {
                auto a_held = operand_any<i64>();
                const std::string an = a_held.first;
                const auto& a = a_held.second;
                const auto& ar = a->ref;
                const auto& ad = a->dev;
                begin_step("map", name + " = map(to affine, " + an + ")");
                std::vector<u64> ref(ar.size());
                for (std::size_t i = 0; i < ar.size(); ++i) {
                    const u64 u = u64(ar[i]);
                    ref[i] = ((u * 2654435761u) << 32) | std::uint32_t(u * 40503u + 1u);
                }
                return (void)result(name, sv::map(fz::i64_to_affine{}, ad), ref);
            }
        }
    }
    template <class T> void to_flags(const std::string& name) {
        auto a_held = operand_any<T>();
        const std::string an = a_held.first;
        const auto& a = a_held.second;
        const auto& ar = a->ref;
        const auto& ad = a->dev;
        const int m = pick(std::vector<int>{2, 3, 7, 64});
        begin_step("map", name + " = map(x % " + std::to_string(m) + " == 0, " + an + ")");
        std::vector<bool> ref(ar.size());
        for (std::size_t i = 0; i < ar.size(); ++i) ref[i] = (long long)ar[i] % m == 0;
        result(name, sv::map(fz::divisible{m}, ad), ref);
    }

    // ---- operators ----------------------------------------------------------------------
    template <class T> struct ref_op {
        std::string name;
        std::function<T(const T&, const T&)> f;
        T id;
        bool sum;  // may overflow: needs the magnitude check
    };
    /// f(device operator, reference operator) for an operator on T drawn at random;
    /// sums only where they cannot overflow (or lose exactness) over `terms` elements of magnitude mag.
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
    template <class T> void scan_step() {
        auto a_held = operand_any<T>();
        const std::string an = a_held.first;
        const auto& a = a_held.second;
        const auto& ar = a->ref;
        const auto& ad = a->dev;
        const std::size_t n = ar.size();
        const std::string name = fresh_name();
        with_op<T>(magnitude(ar), double(n), [&](auto op, const ref_op<T>& ro) {
            const std::string tail = "<" + std::string(type_name<T>()) + ">(" + an + ", " + ro.name + ")";
            std::vector<T> ref(n);
            T acc = ro.id;
            switch (below(6)) {
                case 0:
                    begin_step("scan", name + " = scan" + tail);
                    for (std::size_t i = 0; i < n; ++i) { ref[i] = acc; acc = ro.f(acc, ar[i]); }
                    return (void)result(name, sv::scan(ad, op), ref);
                case 1:
                    begin_step("inclusive_scan", name + " = inclusive_scan" + tail);
                    for (std::size_t i = 0; i < n; ++i) { acc = ro.f(acc, ar[i]); ref[i] = acc; }
                    return (void)result(name, sv::inclusive_scan(ad, op), ref);
                case 2:
                    begin_step("backward_scan", name + " = backward_scan" + tail);
                    for (std::size_t i = n; i-- > 0;) { ref[i] = acc; acc = ro.f(ar[i], acc); }
                    return (void)result(name, sv::backward_scan(ad, op), ref);
                case 3:
                    begin_step("backward_inclusive_scan", name + " = backward_inclusive_scan" + tail);
                    for (std::size_t i = n; i-- > 0;) { acc = ro.f(ar[i], acc); ref[i] = acc; }
                    return (void)result(name, sv::backward_inclusive_scan(ad, op), ref);
                case 4: {
                    begin_step("scan_total", name + " = scan_total" + tail);
                    for (std::size_t i = 0; i < n; ++i) { ref[i] = acc; acc = ro.f(acc, ar[i]); }
                    auto got = sv::scan_total(ad, op);
                    compare_scalar<T>(got.total, acc, "total");
                    return (void)result(name, std::move(got.values), ref);
                }
                default: {
                    begin_step("reduce", "reduce" + tail);
                    for (std::size_t i = 0; i < n; ++i) acc = ro.f(acc, ar[i]);
                    return checked_scalar<T>(sv::reduce(ad, op), acc);
                }
            }
        });
    }

    /// Per-segment reference scans over head flags (position 0 always heads).
    template <class T> static std::vector<T> ref_segmented(const std::vector<T>& a, const std::vector<bool>& f,
                                                           const ref_op<T>& ro, bool inclusive, bool backward) {
        const std::size_t n = a.size();
        std::vector<T> r(n);
        auto head = [&](std::size_t i) { return i == 0 || f[i]; };
        T acc = ro.id;
        if (!backward) {
            for (std::size_t i = 0; i < n; ++i) {
                if (head(i)) acc = ro.id;
                if (inclusive) { acc = ro.f(acc, a[i]); r[i] = acc; }
                else { r[i] = acc; acc = ro.f(acc, a[i]); }
            }
        } else {
            for (std::size_t i = n; i-- > 0;) {
                if (i + 1 == n || head(i + 1)) acc = ro.id;
                if (inclusive) { acc = ro.f(a[i], acc); r[i] = acc; }
                else { r[i] = acc; acc = ro.f(a[i], acc); }
            }
        }
        return r;
    }

    template <class T> void segmented_step() {
        auto a_held = operand_any<T>();
        const std::string an = a_held.first;
        const auto& a = a_held.second;
        const auto& ar = a->ref;
        const auto& ad = a->dev;
        const std::size_t n = ar.size();
        auto f_held = operand<bool>(n);
        const std::string fn = f_held.first;
        const auto& f = f_held.second;
        const auto& fr = f->ref;
        const auto& fd = f->dev;
        const std::string name = fresh_name();
        const u64 which = below(8);
        if (which == 6) {  // segmented_distribute: each segment's first element across it
            begin_step("segmented_distribute", name + " = segmented_distribute<" + std::string(type_name<T>()) + ">(" + an +
                                                   ", " + fn + ")");
            std::vector<T> ref(n);
            for (std::size_t i = 0; i < n; ++i) ref[i] = (i == 0 || fr[i]) ? ar[i] : ref[i - 1];
            return (void)result(name, sv::segmented_distribute(ad, fd), ref);
        }
        if (which == 7) {  // segmented_split on a second set of flags
            auto g_held = operand<bool>(n);
            const std::string gn = g_held.first;
            const auto& g = g_held.second;
            const auto& gr = g->ref;
            const auto& gd = g->dev;
            begin_step("segmented_split", name + " = segmented_split<" + std::string(type_name<T>()) + ">(" + an + ", " + gn +
                                              ", heads " + fn + ")");
            std::vector<T> ref;
            for (std::size_t s = 0, i = 1; i <= n; ++i)
                if (i == n || fr[i]) {
                    for (int pass = 0; pass < 2; ++pass)
                        for (std::size_t k = s; k < i; ++k)
                            if (gr[k] == bool(pass)) ref.push_back(ar[k]);
                    s = i;
                }
            return (void)result(name, sv::segmented_split(ad, gd, fd), ref);
        }
        with_op<T>(magnitude(ar), double(n), [&](auto op, const ref_op<T>& ro) {
            const std::string tail = "<" + std::string(type_name<T>()) + ">(" + an + ", heads " + fn + ", " + ro.name + ")";
            switch (which) {
                case 0:
                    begin_step("segmented_scan", name + " = segmented_scan" + tail);
                    return (void)result(name, sv::segmented_scan(ad, fd, op), ref_segmented(ar, fr, ro, false, false));
                case 1:
                    begin_step("segmented_inclusive_scan", name + " = segmented_inclusive_scan" + tail);
                    return (void)result(name, sv::segmented_inclusive_scan(ad, fd, op), ref_segmented(ar, fr, ro, true, false));
                case 2:
                    begin_step("segmented_backward_scan", name + " = segmented_backward_scan" + tail);
                    return (void)result(name, sv::segmented_backward_scan(ad, fd, op), ref_segmented(ar, fr, ro, false, true));
                case 3:
                    begin_step("segmented_backward_inclusive_scan", name + " = segmented_backward_inclusive_scan" + tail);
                    return (void)result(name, sv::segmented_backward_inclusive_scan(ad, fd, op),
                                        ref_segmented(ar, fr, ro, true, true));
                default: {
                    begin_step("segmented_reduce", name + " = segmented_reduce" + tail);
                    std::vector<T> ref;
                    T acc = ro.id;
                    for (std::size_t i = 0; i < n; ++i) {
                        if (i == 0 || fr[i]) acc = ro.id;
                        acc = ro.f(acc, ar[i]);
                        if (i + 1 == n || fr[i + 1]) ref.push_back(acc);
                    }
                    return (void)result(name, sv::segmented_reduce(ad, fd, op), ref);
                }
            }
        });
    }

    /// Segment lengths summing to n, empty segments included.
    std::vector<index_t> draw_lengths(std::size_t n) {
        std::vector<index_t> len;
        const std::size_t typical = 1 + below(pick(std::vector<u64>{2, 16, 300, 5000, 100000}));
        const double empty = pick(std::vector<double>{0.0, 0.1, 0.5});
        std::size_t left = n;
        if (coin(0.2)) len.push_back(0);
        while (left) {
            if (coin(empty)) { len.push_back(0); continue; }
            const std::size_t l = std::min<std::size_t>(left, 1 + below(2 * typical));
            len.push_back(index_t(l));
            left -= l;
        }
        if (coin(0.3)) len.push_back(0);
        return len;
    }

    template <class T> void nested_step() {
        auto a_held = operand_any<T>();
        const std::string an = a_held.first;
        const auto& a = a_held.second;
        const auto& ar = a->ref;
        const auto& ad = a->dev;
        const std::size_t n = ar.size();
        const auto len = draw_lengths(n);
        std::vector<std::size_t> start(len.size() + 1, 0);
        for (std::size_t k = 0; k < len.size(); ++k) start[k + 1] = start[k] + std::size_t(len[k]);
        std::string shape = std::to_string(len.size()) + " segments:";
        for (std::size_t k = 0; k < len.size() && k < 12; ++k) shape += " " + std::to_string(len[k]);
        if (len.size() > 12) shape += " ...";
        sv::nested<T> x(ad, sv::segments::from_lengths(sv::vector<index_t>(len)));
        const std::string name = fresh_name();
        if constexpr (!std::is_same_v<T, bool> && !std::is_same_v<T, u64>) {
            if (coin(0.2)) {  // rank: the position in a stable sort of the segment
                begin_step("rank (nested)", name + " = rank(nested<" + std::string(type_name<T>()) + ">(" + an + ", " + shape + "))");
                std::vector<index_t> ref(n);
                for (std::size_t k = 0; k < len.size(); ++k) {
                    std::vector<std::size_t> order;
                    for (std::size_t i = start[k]; i < start[k + 1]; ++i) order.push_back(i);
                    std::stable_sort(order.begin(), order.end(), [&](std::size_t p, std::size_t q) { return ar[p] < ar[q]; });
                    for (std::size_t j = 0; j < order.size(); ++j) ref[order[j]] = index_t(j);
                }
                auto r = sv::rank(x);
                compare(r.lengths().to_host(), len, "the result's segment lengths");
                return (void)result(name, std::move(r.values()), ref);
            }
        }
        with_op<T>(magnitude(ar), double(n), [&](auto op, const ref_op<T>& ro) {
            const std::string tail = "(nested<" + std::string(type_name<T>()) + ">(" + an + ", " + shape + "), " + ro.name + ")";
            const u64 which = below(5);
            if (which == 4) {
                begin_step("reduce (nested)", name + " = reduce" + tail);
                std::vector<T> ref(len.size(), ro.id);
                for (std::size_t k = 0; k < len.size(); ++k)
                    for (std::size_t i = start[k]; i < start[k + 1]; ++i) ref[k] = ro.f(ref[k], ar[i]);
                return (void)result(name, sv::reduce(x, op), ref);
            }
            const bool inclusive = which & 1, backward = which & 2;
            const char* names[] = {"scan", "inclusive_scan", "backward_scan", "backward_inclusive_scan"};
            begin_step(std::string(names[which]) + " (nested)", name + " = " + names[which] + tail);
            std::vector<T> ref(n);
            for (std::size_t k = 0; k < len.size(); ++k) {
                T acc = ro.id;
                if (!backward) {
                    for (std::size_t i = start[k]; i < start[k + 1]; ++i) {
                        if (inclusive) { acc = ro.f(acc, ar[i]); ref[i] = acc; }
                        else { ref[i] = acc; acc = ro.f(acc, ar[i]); }
                    }
                } else {
                    for (std::size_t i = start[k + 1]; i-- > start[k];) {
                        if (inclusive) { acc = ro.f(ar[i], acc); ref[i] = acc; }
                        else { ref[i] = acc; acc = ro.f(ar[i], acc); }
                    }
                }
            }
            sv::nested<T> r;
            switch (which) {
                case 0: r = sv::scan(x, op); break;
                case 1: r = sv::inclusive_scan(x, op); break;
                case 2: r = sv::backward_scan(x, op); break;
                default: r = sv::backward_inclusive_scan(x, op); break;
            }
            compare(r.lengths().to_host(), len, "the result's segment lengths");
            result(name, std::move(r.values()), ref);
        });
    }

    // ---- flags --------------------------------------------------------------------------------
    void flag_step() {
        auto f_held = operand_any<bool>();
        const std::string fn = f_held.first;
        const auto& f = f_held.second;
        const auto& fr = f->ref;
        const auto& fd = f->dev;
        const std::size_t n = fr.size();
        const std::string name = fresh_name();
        auto head = [&](std::size_t i) { return i == 0 || fr[i]; };
        switch (below(6)) {
            case 0: {
                begin_step("enumerate", name + " = enumerate(" + fn + ")");
                std::vector<i64> ref(n);
                i64 c = 0;
                for (std::size_t i = 0; i < n; ++i) { ref[i] = c; c += fr[i]; }
                return (void)result(name, sv::enumerate(fd), ref);
            }
            case 1: {
                begin_step("count", "count(" + fn + ")");
                return checked_scalar<i64>(sv::count(fd), i64(std::count(fr.begin(), fr.end(), true)));
            }
            case 2: {
                begin_step("segmented_index", name + " = segmented_index(" + fn + ")");
                std::vector<i64> ref(n);
                for (std::size_t i = 0; i < n; ++i) ref[i] = head(i) ? 0 : ref[i - 1] + 1;
                return (void)result(name, sv::segmented_index(fd), ref);
            }
            case 3: {
                auto g_held = operand<bool>(n);
                const std::string gn = g_held.first;
                const auto& g = g_held.second;
                const auto& gr = g->ref;
                const auto& gd = g->dev;
                begin_step("segmented_enumerate", name + " = segmented_enumerate(" + gn + ", heads " + fn + ")");
                std::vector<i64> ref(n);
                i64 c = 0;
                for (std::size_t i = 0; i < n; ++i) {
                    if (head(i)) c = 0;
                    ref[i] = c;
                    c += gr[i];
                }
                return (void)result(name, sv::segmented_enumerate(gd, fd), ref);
            }
            case 4: {
                begin_step("flags_to_lengths", name + " = flags_to_lengths(" + fn + ")");
                std::vector<i64> ref;
                for (std::size_t i = 0; i < n; ++i) {
                    if (head(i)) ref.push_back(0);
                    ref.back()++;
                }
                return (void)result(name, sv::flags_to_lengths(fd), ref);
            }
            default: {
                begin_step("segment_ids", name + " = segment_ids(" + fn + ")");
                std::vector<i64> ref(n);
                for (std::size_t i = 0; i < n; ++i) ref[i] = i == 0 ? 0 : ref[i - 1] + (fr[i] ? 1 : 0);
                return (void)result(name, sv::segment_ids(fd), ref);
            }
        }
    }

    // ---- pack and split --------------------------------------------------------------------
    template <class T> void pack_split_step() {
        auto a_held = operand_any<T>();
        const std::string an = a_held.first;
        const auto& a = a_held.second;
        const auto& ar = a->ref;
        const auto& ad = a->dev;
        const std::size_t n = ar.size();
        const std::string name = fresh_name();
        if constexpr (std::is_same_v<T, int>) {
            if (coin(0.3)) {  // flags computed inside the split (a lazy map), as the sorts do
                const int m = pick(std::vector<int>{2, 3, 5});
                begin_step("split", name + " = split<i32>(" + an + ", lazy x % " + std::to_string(m) + " == 0)");
                std::vector<int> ref;
                for (int pass = 0; pass < 2; ++pass)
                    for (std::size_t i = 0; i < n; ++i)
                        if ((ar[i] % m == 0) == bool(pass)) ref.push_back(ar[i]);
                return (void)result(name, sv::split(ad, sv::lazy::map(fz::divisible{m}, ad)), ref);
            }
        }
        auto f_held = operand<bool>(n);
        const std::string fn = f_held.first;
        const auto& f = f_held.second;
        const auto& fr = f->ref;
        const auto& fd = f->dev;
        std::vector<T> ref;
        if (coin()) {
            begin_step("pack", name + " = pack<" + std::string(type_name<T>()) + ">(" + an + ", " + fn + ")");
            for (std::size_t i = 0; i < n; ++i)
                if (fr[i]) ref.push_back(ar[i]);
            result(name, sv::pack(ad, fd), ref);
        } else {
            begin_step("split", name + " = split<" + std::string(type_name<T>()) + ">(" + an + ", " + fn + ")");
            for (int pass = 0; pass < 2; ++pass)
                for (std::size_t i = 0; i < n; ++i)
                    if (fr[i] == bool(pass)) ref.push_back(ar[i]);
            result(name, sv::split(ad, fd), ref);
        }
    }

    // ---- permutes ------------------------------------------------------------------------------
    template <class T> void permute_step() {
        auto a_held = operand_any<T>();
        const std::string an = a_held.first;
        const auto& a = a_held.second;
        const auto& ar = a->ref;
        const auto& ad = a->dev;
        const std::size_t n = ar.size();
        const std::string name = fresh_name();
        const u64 s = rng_();
        if (coin(0.55)) {
            std::vector<i64> perm(n);
            for (std::size_t i = 0; i < n; ++i) perm[i] = i64(i);
            const char* how = "random";
            switch (below(4)) {
                case 0: std::reverse(perm.begin(), perm.end()); how = "reversal"; break;
                case 1: if (n) std::rotate(perm.begin(), perm.begin() + std::ptrdiff_t(below(n)), perm.end()); how = "rotation"; break;
                default: std::shuffle(perm.begin(), perm.end(), std::mt19937_64(s));
            }
            const bool unchecked = coin(0.25);
            begin_step("permute", name + " = permute<" + std::string(type_name<T>()) + ">(" + an + ", " + how +
                                      " permutation, seed " + std::to_string(s) + (unchecked ? ", unchecked)" : ")"));
            std::vector<T> ref(n);
            for (std::size_t i = 0; i < n; ++i) ref[std::size_t(perm[i])] = ar[i];
            sv::vector<i64> idx(perm);
            return (void)result(name, unchecked ? sv::permute(ad, idx, sv::unchecked) : sv::permute(ad, idx), ref);
        }
        if (n == 0) return;  // no index is in range
        const std::size_t m = draw_count(n);
        std::mt19937_64 r(s);
        std::vector<i64> idx(m);
        for (auto& j : idx) j = i64(r() % n);
        begin_step("back_permute", name + " = back_permute<" + std::string(type_name<T>()) + ">(" + an + ", " +
                                       std::to_string(m) + " random indices, seed " + std::to_string(s) + ")");
        std::vector<T> ref(m);
        for (std::size_t i = 0; i < m; ++i) ref[i] = ar[std::size_t(idx[i])];
        result(name, sv::back_permute(ad, sv::vector<i64>(idx)), ref);
    }

    // ---- writes ---------------------------------------------------------------------------------
    template <class T> void write_step() {
        auto d_held = operand_any<T>();
        const std::string dn = d_held.first;
        const auto& d = d_held.second;
        const auto& dr = d->ref;
        const auto& dd = d->dev;
        const std::size_t n = dr.size();
        if (n == 0) return;
        const std::size_t m = draw_count(n);
        auto v_held = operand<T>(m);
        const std::string vn = v_held.first;
        const auto& v = v_held.second;
        const auto& vr = v->ref;
        const auto& vd = v->dev;
        const std::string name = fresh_name();
        const u64 s = rng_();
        std::mt19937_64 r(s);
        const u64 kind = below(3);
        if (kind == 0) {  // distinct targets: the result is determined
            std::vector<int> all(n);
            for (std::size_t i = 0; i < n; ++i) all[i] = int(i);
            std::shuffle(all.begin(), all.end(), r);
            const std::size_t k = std::min(m, n);
            std::vector<int> idx(all.begin(), all.begin() + std::ptrdiff_t(k));
            begin_step("write", name + " = write<" + std::string(type_name<T>()) + ">(" + dn + ", " + std::to_string(k) +
                                    " distinct targets, seed " + std::to_string(s) + ", " + vn + "[0.." + std::to_string(k) + "))");
            std::vector<T> ref = dr;
            for (std::size_t i = 0; i < k; ++i) ref[std::size_t(idx[i])] = vr[i];
            sv::vector<T> firsts = sv::back_permute(vd, sv::index<int>(k));
            return (void)result(name, sv::write(sv::vector<T>(dd), sv::vector<int>(idx), firsts), ref);
        }
        // colliding targets: m writes over about m/3 + 1 positions
        const std::size_t hot = std::max<std::size_t>(1, std::min(n, m / 3 + 1));
        std::vector<int> idx(m);
        for (auto& j : idx) j = int(r() % hot) * int(n / hot);
        if (kind == 1) {
            begin_step("write (colliding)", "write<" + std::string(type_name<T>()) + ">(" + dn + ", " + std::to_string(m) +
                                                " targets among " + std::to_string(hot) + ", seed " + std::to_string(s) +
                                                ", " + vn + ")");
            const auto got = sv::write(dd, sv::vector<int>(idx), vd).to_host();
            if (got.size() != n) throw mismatch("result length " + std::to_string(got.size()) + ", want " + std::to_string(n));
            std::vector<std::vector<std::size_t>> sent(n);
            for (std::size_t k = 0; k < m; ++k) sent[std::size_t(idx[k])].push_back(k);
            hasher h;
            h.word(n);
            for (std::size_t j = 0; j < n; ++j) {
                const T g = got[j];
                if (sent[j].empty()) {
                    if (!same<T>(g, dr[j]))
                        throw mismatch("unwritten position " + std::to_string(j) + " changed: got " + show<T>(g) +
                                       ", want " + show<T>(dr[j]));
                    h.value(g);
                } else {
                    bool found = false;
                    for (std::size_t k : sent[j]) found = found || same<T>(g, vr[k]);
                    if (!found)
                        throw mismatch("written position " + std::to_string(j) + " holds " + show<T>(g) + ", not one of the " +
                                       std::to_string(sent[j].size()) + " values sent there");
                    h.word(0x5752495454454eull);  // "written", its value checked
                }
            }
            return digest(h);
        }
        // combining writes: a commutative operator folds every value sent to a position
        auto run = [&](auto op, const char* opname, auto ref_f) {
            begin_step("combining_write", name + " = combining_write<" + std::string(type_name<T>()) + ">(" + dn + ", " +
                                              std::to_string(m) + " targets among " + std::to_string(hot) + ", seed " +
                                              std::to_string(s) + ", " + vn + ", " + opname + ")");
            std::vector<T> ref = dr;
            for (std::size_t k = 0; k < m; ++k) ref[std::size_t(idx[k])] = ref_f(ref[std::size_t(idx[k])], vr[k]);
            result(name, sv::combining_write(dd, sv::vector<int>(idx), vd, op), ref);
        };
        const bool sum_ok = magnitude(dr) + double(m) * magnitude(vr) <= limit_of<T>();
        if constexpr (std::is_same_v<T, int> || std::is_same_v<T, i64>) {
            switch (below(4)) {
                case 0: if (sum_ok) return run(sv::plus<T>{}, "plus", [](T x, T y) { return T(x + y); }); [[fallthrough]];
                case 1: return run(sv::max<T>{}, "max", [](T x, T y) { return std::max(x, y); });
                case 2: return run(sv::min<T>{}, "min", [](T x, T y) { return std::min(x, y); });
                default: return run(sv::bit_xor<T>{}, "xor", [](T x, T y) { return T(x ^ y); });
            }
        } else if constexpr (std::is_same_v<T, float>) {
            if (sum_ok && coin()) return run(sv::plus<float>{}, "plus", [](float x, float y) { return x + y; });
            return run(sv::max<float>{}, "max", [](float x, float y) { return x < y ? y : x; });
        } else if constexpr (std::is_same_v<T, bool>) {
            return run(sv::logical_or{}, "or", [](bool x, bool y) { return x || y; });
        } else if constexpr (std::is_same_v<T, mat2>) {
            return run(sv::commutative_monoid(fz::mat_add{}, mat2{0, 0, 0, 0}), "matrix sum (commutative monoid)", ref_mat_add);
        } else {
            return run(sv::bit_xor<u64>{}, "xor", [](u64 x, u64 y) { return x ^ y; });
        }
    }

    // ---- multisplit and histogram ---------------------------------------------------------------
    template <class T> void multisplit_step() {
        auto a_held = operand_any<T>();
        const std::string an = a_held.first;
        const auto& a = a_held.second;
        const auto& ar = a->ref;
        const auto& ad = a->dev;
        const std::size_t n = ar.size();
        const std::string name = fresh_name();
        if constexpr (std::is_same_v<T, int> || std::is_same_v<T, i64>) {
            if (coin(0.3)) {  // the radix digits of the keys themselves (CUB reads the bits on CUDA)
                const int k = 1 + int(below(8)), lo = int(below(8 * sizeof(T) - k + 1));
                begin_step("multisplit (radix digit)", name + " = multisplit<" + std::string(type_name<T>()) + ">(" + an +
                                                           ", lazy::radix_digit(" + an + ", " + std::to_string(lo) + ", " +
                                                           std::to_string(k) + "), " + std::to_string(1 << k) + ")");
                using U = std::make_unsigned_t<T>;
                auto digit = [&](T x) {
                    const U key = U(U(x) ^ (U(1) << (8 * sizeof(T) - 1)));
                    return int((key >> lo) & ((U(1) << k) - 1));
                };
                std::vector<T> ref;
                for (int b = 0; b < (1 << k); ++b)
                    for (std::size_t i = 0; i < n; ++i)
                        if (digit(ar[i]) == b) ref.push_back(ar[i]);
                return (void)result(name, sv::multisplit(ad, sv::lazy::radix_digit(ad, lo, k), index_t(1) << k), ref);
            }
        }
        const bool small = test::small_sizes_only();
        const long long m = pick(small ? std::vector<long long>{1, 2, 3, 4, 7, 16, 100, 256, 1000, 65537}
                                       : std::vector<long long>{1, 2, 3, 4, 7, 16, 100, 256, 1000, 65536, 65537, 200003});
        auto src_held = operand<int>(n);
        const std::string sn = src_held.first;
        const auto& src = src_held.second;
        const auto sr = src->ref;
        auto sd = src->dev;
        std::vector<int> digits(n);
        for (std::size_t i = 0; i < n; ++i) digits[i] = int(((sr[i] % m) + m) % m);
        const bool lazy = coin();
        const std::string dtext = (lazy ? "lazy " : "") + sn + " mod " + std::to_string(m);
        sv::vector<int> dd = lazy ? sv::vector<int>() : sv::map(fz::digit_of{m}, sd);
        if (coin(0.3)) {
            begin_step("histogram", name + " = histogram(" + dtext + ", " + std::to_string(m) + ")");
            std::vector<i64> ref(std::size_t(m), 0);
            for (int x : digits) ref[std::size_t(x)]++;
            return (void)result(name, lazy ? sv::histogram(sv::lazy::map(fz::digit_of{m}, sd), m) : sv::histogram(dd, m), ref);
        }
        begin_step("multisplit", name + " = multisplit<" + std::string(type_name<T>()) + ">(" + an + ", " + dtext + ", " +
                                     std::to_string(m) + ")");
        std::vector<std::vector<T>> buckets(static_cast<std::size_t>(m));
        for (std::size_t i = 0; i < n; ++i) buckets[std::size_t(digits[i])].push_back(ar[i]);
        std::vector<T> ref;
        for (auto& b : buckets) ref.insert(ref.end(), b.begin(), b.end());
        result(name, lazy ? sv::multisplit(ad, sv::lazy::map(fz::digit_of{m}, sd), m) : sv::multisplit(ad, dd, m), ref);
    }

    // ---- sorts ------------------------------------------------------------------------------------
    void sort_step() {
        const std::string name = fresh_name();
        switch (below(9)) {
            case 0: return radix_sorts<int>(name, true);
            case 1: return radix_sorts<i64>(name, true);
            case 2: return radix_sorts<int>(name, false);
            case 3: return radix_sorts<i64>(name, false);
            case 4: case 5: return quicksort_of<int>(name);
            case 6: return quicksort_of<float>(name);
            case 7: return quicksort_of<mat2>(name);
            default: {  // described structs, stably by one field
                auto a_held = operand_to_sort<mat2>();
                const std::string an = a_held.first;
                const auto& a = a_held.second;
                const auto& ar = a->ref;
                const auto& ad = a->dev;
                std::vector<mat2> ref = ar;
                if (coin()) {
                    begin_step("split_radix_sort (by field)", name + " = split_radix_sort(" + an + ", &mat2::a)");
                    std::stable_sort(ref.begin(), ref.end(), [](const mat2& x, const mat2& y) { return x.a < y.a; });
                    return (void)result(name, sv::split_radix_sort(ad, &mat2::a), ref);
                }
                const int k = 1 + int(below(16));
                begin_step("radix_sort (by field)", name + " = radix_sort(" + an + ", &mat2::c, " + std::to_string(k) + ")");
                std::stable_sort(ref.begin(), ref.end(), [](const mat2& x, const mat2& y) { return x.c < y.c; });
                return (void)result(name, sv::radix_sort(ad, &mat2::c, k), ref);
            }
        }
    }
    template <class T> void radix_sorts(const std::string& name, bool one_bit) {
        auto a_held = operand_to_sort<T>();
        const std::string an = a_held.first;
        const auto& a = a_held.second;
        auto ref = a->ref;  // sorted below
        const auto& ad = a->dev;
        std::sort(ref.begin(), ref.end());
        if (one_bit) {
            begin_step("split_radix_sort", name + " = split_radix_sort<" + std::string(type_name<T>()) + ">(" + an + ")");
            return (void)result(name, sv::split_radix_sort(ad), ref);
        }
        const int k = 1 + int(below(16));
        begin_step("radix_sort", name + " = radix_sort<" + std::string(type_name<T>()) + ">(" + an + ", " + std::to_string(k) + ")");
        result(name, sv::radix_sort(ad, k), ref);
    }
    template <class T> void quicksort_of(const std::string& name) {
        auto a_held = operand_to_sort<T>();
        const std::string an = a_held.first;
        const auto& a = a_held.second;
        auto ref = a->ref;  // sorted below
        const auto& ad = a->dev;
        std::sort(ref.begin(), ref.end());
        begin_step("quicksort", name + " = quicksort<" + std::string(type_name<T>()) + ">(" + an + ")");
        result(name, sv::quicksort(ad), ref);
    }

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

}  // namespace

TEST_CASE("differential fuzzing: random vector-model programs against a sequential interpreter") {
    const bool small = test::small_sizes_only();
    const u64 programs = env_or("SCANVEC_FUZZ_PROGRAMS", small ? 1000 : 1500);
    const u64 base = env_or("SCANVEC_FUZZ_SEED", 20261201);
    const char* dump_path = std::getenv("SCANVEC_FUZZ_DUMP");
    const char* v = std::getenv("SCANVEC_FUZZ_VERBOSE");
    const bool verbose = v && std::string(v) == "1";
    std::unique_ptr<std::ofstream> dump;
    if (dump_path && *dump_path) {
        dump = std::make_unique<std::ofstream>(dump_path);
        REQUIRE_MESSAGE(dump->good(), "cannot write SCANVEC_FUZZ_DUMP=" << dump_path);
        *dump << "# scanvec fuzz digest: seeds " << base << ".." << base + programs - 1
              << (small ? " (SCANVEC_TEST_SMALL=1)" : "") << "\n";
    }
    totals t;
    const auto t0 = std::chrono::steady_clock::now();
    for (u64 p = 0; p < programs; ++p) {
        program prog(base + p, dump.get(), verbose, t);
        prog.run();
        t.programs++;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::ostringstream kinds;
    for (auto& [k, c] : t.kinds) kinds << " " << k << " " << c << ";";
    std::vector<std::pair<double, std::string>> slow;
    for (auto& [k, sec] : t.seconds) slow.emplace_back(sec, k);
    std::sort(slow.rbegin(), slow.rend());
    kinds << " slowest:";
    for (std::size_t i = 0; i < slow.size() && i < 6; ++i) kinds << " " << slow[i].second << " " << slow[i].first << " s;";
    MESSAGE("fuzz: " << t.programs << " programs (seeds " << base << ".." << base + programs - 1 << "), " << t.steps
                     << " steps, " << t.failures << " failed, " << seconds << " s; steps by kind:" << kinds.str());
    CHECK(t.failures == 0);
}
