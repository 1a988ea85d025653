// bench/harness.hpp - the timing harness: how a time is taken, checked and recorded.
//
// A configuration (one operation, one input, one type, one size) is measured as
//
//     config c(suite, "scan", "values 0..7", "int32", n);
//     c.alternative("cub::DeviceScan::ExclusiveSum", "cub scan", run_cub);  // timed; writes the reference
//     c.scanvec_call("sv::scan", check, run_sv);  // checked once against the reference, then timed
//     c.finish();  // + a memcpy of the same bytes; one row per (scanvec call, alternative)
//
// Timing, as a GPU user trusts it: the first calls are warm-ups (scanvec's
// memory cache and Thrust's temporaries reach their steady state); then each
// repetition is timed alone with CUDA events on the default stream, after the
// L2 has been flushed (a read of twice its size) and the device synchronised,
// so every repetition starts cold and a small call pays its launch and
// synchronisation costs. The median is reported. On the host backend the same
// with std::chrono::steady_clock (wall time).
#pragma once

#include "report.hpp"

#include <scanvec/runtime/memory.hpp>
#include <scanvec/runtime/sequence.hpp>
#include <scanvec/runtime/trace.hpp>
#include <scanvec/runtime/vector.hpp>

#include <thrust/execution_policy.h>
#include <thrust/find.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/tabulate.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <cuda_runtime.h>
#endif

namespace bench {
namespace sv = scanvec;

using action = std::function<void()>;

// ---- options ----------------------------------------------------------------

struct options {
    std::string out;                        ///< directory for bench.csv, bench.md, growth.csv
    std::vector<std::size_t> sizes;         ///< the table's sizes
    std::vector<std::size_t> growth_sizes;  ///< the cost-growth view's sizes (scan and sorts)
    std::vector<std::size_t> keys64_sizes;  ///< 64-bit key sorts
    std::size_t nested_n = 0;               ///< the nested-vector scans
    std::size_t quicksort_max = 0;          ///< largest quicksort
    std::set<std::string> only;             ///< families to run (empty: all)
    bool quick = false;
    bool wants(const std::string& family) const { return only.empty() || only.count(family); }
};

// ---- backend plumbing ---------------------------------------------------------

#if defined(SCANVEC_BACKEND_CUDA)
inline void cuda_check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
    }
}
#endif

/// Waits for all work on the device (and surfaces its errors).
inline void sync() {
#if defined(SCANVEC_BACKEND_CUDA)
    cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    cuda_check(cudaGetLastError(), "kernel");
#endif
}

inline double wall_ms(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// Evicts the L2 before a repetition by reading twice its size (nothing on the
/// host). A read, not a memset: a memset would leave the L2 full of dirty lines
/// whose write-back the timed call would then pay for.
class l2_flush {
public:
    explicit l2_flush(std::size_t l2_bytes) : words_(2 * l2_bytes / sizeof(std::uint64_t)) {
#if defined(SCANVEC_BACKEND_CUDA)
        if (words_) {
            cuda_check(cudaMalloc(&p_, words_ * sizeof(std::uint64_t)), "cudaMalloc (L2 flush buffer)");
            cuda_check(cudaMemset(p_, 1, words_ * sizeof(std::uint64_t)), "cudaMemset (L2 flush buffer)");
        }
#endif
    }
    l2_flush(const l2_flush&) = delete;
    l2_flush& operator=(const l2_flush&) = delete;
    ~l2_flush() {
#if defined(SCANVEC_BACKEND_CUDA)
        if (p_) (void)cudaFree(p_);
#endif
    }
    void operator()() {
#if defined(SCANVEC_BACKEND_CUDA)
        if (p_) sink_ += thrust::reduce(thrust::device, p_, p_ + words_);
#endif
    }

private:
    std::size_t words_;
    std::uint64_t* p_ = nullptr;
    std::uint64_t sink_ = 0;
};

/// Times one call: CUDA events around it on the default stream (scanvec's
/// stream), or the wall clock on the host.
class stopwatch {
public:
    stopwatch() {
#if defined(SCANVEC_BACKEND_CUDA)
        cuda_check(cudaEventCreate(&start_), "cudaEventCreate");
        cuda_check(cudaEventCreate(&stop_), "cudaEventCreate");
#endif
    }
    stopwatch(const stopwatch&) = delete;
    stopwatch& operator=(const stopwatch&) = delete;
    ~stopwatch() {
#if defined(SCANVEC_BACKEND_CUDA)
        (void)cudaEventDestroy(start_);
        (void)cudaEventDestroy(stop_);
#endif
    }
    double time(const action& run) {
#if defined(SCANVEC_BACKEND_CUDA)
        cuda_check(cudaEventRecord(start_, 0), "cudaEventRecord");
        run();
        cuda_check(cudaEventRecord(stop_, 0), "cudaEventRecord");
        cuda_check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
        cuda_check(cudaGetLastError(), "kernel");
        float ms = 0;
        cuda_check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
        return ms;
#else
        auto t0 = std::chrono::steady_clock::now();
        run();
        return wall_ms(t0);
#endif
    }

private:
#if defined(SCANVEC_BACKEND_CUDA)
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
#endif
};

/// How many repetitions: many for small sizes, fewer for large ones, and no
/// more than a time budget allows for slow calls.
struct rep_policy {
    int max_reps, min_reps, warmups;
    double budget_ms;
};

inline rep_policy policy_for(std::size_t n, bool quick) {
#if defined(SCANVEC_BACKEND_CUDA)
    const int reps = n <= (std::size_t(1) << 20) ? 50 : n <= (std::size_t(1) << 24) ? 30 : 15;
    return {quick ? 10 : reps, 5, 3, quick ? 200.0 : 1500.0};
#else
    const int reps = n <= (std::size_t(1) << 16) ? 30 : n <= (std::size_t(1) << 20) ? 15 : 7;
    return {quick ? 10 : reps, 3, 2, quick ? 100.0 : 1500.0};
#endif
}

// ---- the suite: everything measured in one run ----------------------------------

class suite {
public:
    suite(options o, environment e) : opt(std::move(o)), env(std::move(e)), flush_(env.l2_bytes) {}

    options opt;
    environment env;
    std::vector<row> rows;
    std::vector<measurement> log;
    bool emit_rows = true;  ///< false while filling in the cost-growth sizes

    /// Median time of run() (before() runs untimed ahead of every call, e.g. to restore an input).
    stats time(std::size_t n, const action& run, const action& before = {}) {
        const rep_policy p = policy_for(n, opt.quick);
        auto call = [&] {
            if (before) before();
            sync();
            auto t0 = std::chrono::steady_clock::now();
            run();
            sync();
            return wall_ms(t0);
        };
        double estimate = call();  // the first call may allocate: a warm-up, and a first estimate
        if (estimate < 100) {      // slower calls: that one warm-up is enough
            estimate = std::min(estimate, call());
            for (int i = 2; i < p.warmups; ++i) call();
        }
        const int reps = std::clamp(int(p.budget_ms / std::max(estimate, 1e-3)), p.min_reps, p.max_reps);
        std::vector<double> t;
        for (int i = 0; i < reps; ++i) {
            if (before) before();
            flush_();
            sync();
            t.push_back(watch_.time(run));
        }
        std::sort(t.begin(), t.end());
        const std::size_t m = t.size() / 2;
        return {t.size() % 2 ? t[m] : (t[m - 1] + t[m]) / 2, t.front(), reps};
    }

    /// Device memcpy of `bytes` (std::memcpy on the host): the physical limit. Memoised.
    stats memcpy_time(std::size_t bytes) {
        auto it = copies_.find(bytes);
        if (it != copies_.end()) return it->second;
        sv::vector<std::uint8_t> src(bytes), dst(bytes, sv::no_init);
        stats s = time(bytes / 4, [&] {
#if defined(SCANVEC_BACKEND_CUDA)
            cuda_check(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, 0), "cudaMemcpyAsync");
#else
            std::memcpy(dst.data(), src.data(), bytes);
#endif
        });
        return copies_[bytes] = s;
    }

    /// Whether a family was measured at size n (the growth view reuses the table's sizes).
    bool measured(const std::string& family, std::size_t n) const {
        for (auto& m : log)
            if (m.family == family && m.n == n) return true;
        return false;
    }

private:
    l2_flush flush_;
    stopwatch watch_;
    std::map<std::size_t, stats> copies_;
};

// ---- checks ------------------------------------------------------------------

template <class T> struct differs {
    const T* got;
    const T* want;
    double tol;  // relative (to max(1, |want|)); 0: exact
    SCANVEC_HD bool operator()(std::int64_t i) const {
        if (tol == 0) return !(got[i] == want[i]);
        const double g = double(got[i]), w = double(want[i]);
        const double d = g > w ? g - w : w - g, m = w < 0 ? -w : w;
        return !(d <= tol * (m > 1 ? m : 1));
    }
};

template <class T> std::string show(const T& v) {
    if constexpr (std::is_floating_point_v<T>) return std::to_string(double(v));
    else return std::to_string(static_cast<long long>(v));
}

/// "" when got equals want (within tol for floats), else the first difference.
template <class T> std::string same(const sv::vector<T>& got, const sv::vector<T>& want, double tol = 0) {
    if (got.size() != want.size())
        return "length " + std::to_string(got.size()) + ", want " + std::to_string(want.size());
    const auto first = thrust::counting_iterator<std::int64_t>(0), last = first + std::int64_t(got.size());
    const auto it = thrust::find_if(thrust::device, first, last, differs<T>{got.data(), want.data(), tol});
    sync();
    if (it == last) return "";
    const std::int64_t i = *it;
    return "at " + std::to_string(i) + ": " + show(got[i]) + ", want " + show(want[i]);
}

template <class T> std::string same_value(T got, T want, double tol = 0) {
    const double g = double(got), w = double(want), d = g > w ? g - w : w - g;
    const bool ok = tol == 0 ? got == want : d <= tol * std::max(1.0, w < 0 ? -w : w);
    return ok ? "" : show(got) + ", want " + show(want);
}

/// Relative tolerance for results whose rounding depends on the order of operations.
template <class T> double tolerance() { return std::is_floating_point_v<T> ? 1e-3 : 0; }

/// "steps 123 (split 32, reduce 32)": the model's steps of a call, from sv::trace.
inline std::string steps_note(const sv::trace& t) {
    std::vector<std::pair<std::size_t, std::string>> top;
    for (auto& [name, count] : t.by_primitive()) top.push_back({count, name});
    std::sort(top.rbegin(), top.rend());
    std::string s = "steps " + std::to_string(t.steps());
    for (std::size_t i = 0; i < std::min<std::size_t>(top.size(), 2); ++i)
        s += (i ? ", " : " (") + top[i].second + " " + std::to_string(top[i].first);
    return top.empty() ? s : s + ")";
}

#if defined(SCANVEC_BACKEND_CUDA)
/// A CUB call as a careful CUB user makes it: its temporary storage sized and
/// allocated once, outside the timed region.
class cub_call {
public:
    using function = std::function<cudaError_t(void* temp, std::size_t& bytes)>;
    explicit cub_call(function f) : f_(std::move(f)) {
        cuda_check(f_(nullptr, bytes_), "CUB (temporary storage size)");
        temp_ = sv::runtime::scratch(bytes_ ? bytes_ : 1);
    }
    void operator()() const {
        std::size_t b = bytes_;
        cuda_check(f_(temp_.get(), b), "CUB");
    }

private:
    function f_;
    std::size_t bytes_ = 0;
    sv::runtime::scratch temp_;
};

/// Pinned host memory for one result that comes back to the host.
template <class T> class pinned {
public:
    pinned() { cuda_check(cudaMallocHost(&p_, sizeof(T)), "cudaMallocHost"); }
    pinned(const pinned&) = delete;
    pinned& operator=(const pinned&) = delete;
    ~pinned() { (void)cudaFreeHost(p_); }
    T* get() const { return p_; }

private:
    T* p_ = nullptr;
};
#endif

// ---- one configuration ---------------------------------------------------------

/// One operation on one input at one size: its scanvec calls, its alternatives, the memcpy.
class config {
public:
    config(suite& s, std::string family, std::string input, std::string type, std::size_t n)
        : s_(s), family_(std::move(family)), input_(std::move(input)), type_(std::move(type)), n_(n) {}

    /// Bytes a call must read and write at least (GB/s), and the bytes of the memcpy reference.
    config& bytes(double moved, std::size_t copied) { bytes_ = moved; copy_bytes_ = copied; return *this; }
    /// A sort: throughput in keys/s; the memcpy reference copies the keys.
    config& keys(std::size_t copied) { keys_ = true; copy_bytes_ = copied; return *this; }

    /// An alternative a user would pick: timed now (what it writes serves as the reference).
    void alternative(const std::string& name, const std::string& short_name, const action& run,
                     const action& before = {}) {
        entry e{name, short_name, "ok", "", {}};
        try {
            e.t = s_.time(n_, run, before);
        } catch (const std::exception& ex) {
            e.check = std::string("error: ") + ex.what();
        }
        record(e, "alternative");
        alts_.push_back(e);
    }

    /// A scanvec call: check() (returning "" when right; it may write a note) runs
    /// once; a wrong or failing call is reported and not timed.
    void scanvec_call(const std::string& name, const std::function<std::string(std::string& note)>& check,
                 const action& run) {
        entry e{name, "", "ok", "", {}};
        try {
            std::string wrong = check(e.note);
            sync();
            if (!wrong.empty()) e.check = "WRONG " + wrong;
            else e.t = s_.time(n_, run);
        } catch (const std::exception& ex) {
            e.check = std::string("error: ") + ex.what();
            try { sync(); } catch (...) {}
        }
        if (e.check != "ok") std::printf("  !! %s %s %s n=%zu: %s\n", name.c_str(), type_.c_str(), input_.c_str(), n_, e.check.c_str());
        record(e, "scanvec");
        svs_.push_back(e);
    }

    /// Times the memcpy and adds one row per (scanvec call, alternative).
    void finish() {
        const stats copy = copy_bytes_ ? s_.memcpy_time(copy_bytes_) : stats{};
        record(entry{"memcpy", "memcpy", "ok", "", copy}, "memcpy");
        if (!s_.emit_rows) return;
        for (auto& v : svs_) {
            for (std::size_t k = 0; k < std::max<std::size_t>(alts_.size(), 1); ++k) {
                row r;
                r.family = family_; r.input = input_; r.type = type_; r.n = n_;
                r.impl = v.name; r.sv = v.t; r.check = v.check; r.note = v.note;
                if (k < alts_.size()) { r.alt = alts_[k].name; r.alt_short = alts_[k].short_name; r.alt_t = alts_[k].t; }
                r.copy = copy; r.copy_bytes = copy_bytes_; r.bytes = bytes_; r.keys = keys_;
                s_.rows.push_back(r);
            }
        }
    }

private:
    struct entry {
        std::string name, short_name, check, note;
        stats t;
    };
    void record(const entry& e, const char* role) {
        s_.log.push_back({family_, input_, type_, n_, e.name, role, e.t});
        if (e.t.valid())
            std::printf("  %-14s %-8s n=%-10zu %-36s %10.4f ms\n", family_.c_str(), type_.c_str(), n_, e.name.c_str(),
                        e.t.median_ms);
        std::fflush(stdout);
    }

    suite& s_;
    std::string family_, input_, type_;
    std::size_t n_;
    double bytes_ = 0;
    std::size_t copy_bytes_ = 0;
    bool keys_ = false;
    std::vector<entry> alts_, svs_;
};

// ---- inputs --------------------------------------------------------------------

/// A 64-bit mix (the finaliser of a well-known hash): deterministic pseudo-random bits.
SCANVEC_HD inline std::uint64_t mix64(std::uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/// Small values (0..7 for integers, so sums of 2^28 fit in int32; [0, 1) for floats).
template <class T> struct small_value {
    std::uint64_t seed;
    SCANVEC_HD T operator()(std::int64_t i) const {
        const std::uint64_t r = mix64(std::uint64_t(i) + seed);
        if constexpr (std::is_floating_point_v<T>) return T(double(r >> 11) * (1.0 / 9007199254740992.0));
        else return T(r & 7);
    }
};

/// Keys with random bits over the whole range of K (negative ones too for signed K).
template <class K> struct random_key {
    std::uint64_t seed;
    SCANVEC_HD K operator()(std::int64_t i) const { return K(mix64(std::uint64_t(i) * 2 + 1 + seed)); }
};

/// Head flags: position 0, then each position with probability 1/mean.
struct random_head {
    std::uint64_t seed;
    std::uint64_t mean;
    SCANVEC_HD bool operator()(std::int64_t i) const { return i == 0 || mix64(std::uint64_t(i) + seed) % mean == 0; }
};

template <class T, class F> sv::vector<T> tabulate(std::size_t n, F f) {
    sv::vector<T> v(n, sv::no_init);
    thrust::tabulate(thrust::device, v.begin(), v.end(), f);
    return v;
}

template <class T> sv::vector<T> small_values(std::size_t n, std::uint64_t seed = 1) {
    return tabulate<T>(n, small_value<T>{seed});
}
template <class K> sv::vector<K> random_keys(std::size_t n, std::uint64_t seed = 2) {
    return tabulate<K>(n, random_key<K>{seed});
}
inline sv::vector<bool> random_heads(std::size_t n, std::uint64_t mean, std::uint64_t seed = 3) {
    return tabulate<bool>(n, random_head{seed, mean});
}

/// A uniformly random permutation of 0..n-1: positions sorted by random keys.
inline sv::vector<int> random_permutation(std::size_t n, std::uint64_t seed = 4) {
    auto keys = random_keys<std::uint32_t>(n, seed);
    sv::vector<int> idx(n, sv::no_init);
    thrust::sequence(thrust::device, idx.begin(), idx.end());
    thrust::sort_by_key(thrust::device, keys.begin(), keys.end(), idx.begin());
    return idx;
}

template <class T> const char* type_name() {
    if constexpr (std::is_same_v<T, float>) return "float32";
    else if constexpr (std::is_same_v<T, double>) return "float64";
    else if constexpr (std::is_same_v<T, std::uint64_t>) return "uint64";
    else if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
    else if constexpr (std::is_same_v<T, std::uint32_t>) return "uint32";
    else return "int32";
}

// ---- the families of rows (one file each) ----------------------------------------

void bench_map(suite& s, std::size_t n);
void bench_scan(suite& s, std::size_t n, bool growth_only);
void bench_reduce(suite& s, std::size_t n);
void bench_histogram(suite& s, std::size_t n);
void bench_segmented_scan(suite& s, std::size_t n);
void bench_permute(suite& s, std::size_t n);
void bench_back_permute(suite& s, std::size_t n);
void bench_split(suite& s, std::size_t n);
void bench_sort(suite& s, std::size_t n);
void bench_sort64(suite& s, std::size_t n);
void bench_quicksort_inputs(suite& s, std::size_t n);  // sorts.cpp: ordered, repetitive, other key types
void bench_sort_keys(suite& s, std::size_t n);  // sorts.cpp: float and double keys, {key, value} records
void bench_nested(suite& s, std::size_t n);
void bench_write(suite& s, std::size_t n);     // programs.cpp: sv::write, sv::combining_write
void bench_programs(suite& s, std::size_t n);  // programs.cpp: MIS, BFS, components, primes
void bench_streams(suite& s, std::size_t n);   // programs.cpp: two programs on two streams
void bench_calls(suite& s);                    // programs.cpp: many small calls (a BFS over a path), host cost per call
std::vector<std::size_t> program_sizes(const options& o);

}  // namespace bench
