// Shared test helpers: seeded random inputs, the standard sizes, flag patterns.
#pragma once

// Each test includes the headers of what it tests.
#include <scanvec/primitives/operators.hpp>
#include <scanvec/runtime/memory.hpp>
#include <scanvec/runtime/print.hpp>
#include <scanvec/runtime/vector.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <string>
#include <random>
#include <vector>

namespace sv = scanvec;

namespace test {

/// SCANVEC_TEST_SMALL=1: sizes up to 65539 only, for runs under the
/// sanitizers (ASan, compute-sanitizer), which find their errors at any size;
/// SCANVEC_TEST_SMALL=N (N > 1): sizes up to N, for the slowest of them
/// (racecheck, whose hazards lie within one block). Unset or 0: every size.
inline std::size_t size_limit() {
    const char* small = std::getenv("SCANVEC_TEST_SMALL");
    if (!small || std::string(small).empty() || std::string(small) == "0") return std::size_t(-1);
    const unsigned long long n = std::strtoull(small, nullptr, 10);
    return n > 1 ? std::size_t(n) : std::size_t(65539);
}
inline bool small_sizes_only() { return size_limit() != std::size_t(-1); }

/// The given sizes, less those above size_limit().
inline std::vector<std::size_t> sizes_upto_env(std::vector<std::size_t> s) {
    const std::size_t limit = size_limit();
    s.erase(std::remove_if(s.begin(), s.end(), [limit](std::size_t n) { return n > limit; }), s.end());
    return s;
}

/// Sizes every primitive is checked at: empty, one, around a warp, past a block, ~10^6.
inline const std::vector<std::size_t> sizes = sizes_upto_env({0, 1, 2, 31, 32, 33, 1000, 65539, 1000003});

template <class T> std::vector<T> random_values(std::size_t n, std::uint64_t seed, T lo = T(-100), T hi = T(100)) {
    std::mt19937_64 rng(seed);
    std::vector<T> v(n);
    if constexpr (std::is_floating_point_v<T>) {
        std::uniform_real_distribution<T> d(lo, hi);
        for (auto& x : v) x = d(rng);
    } else {
        std::uniform_int_distribution<long long> d((long long)lo, (long long)hi);
        for (auto& x : v) x = T(d(rng));
    }
    return v;
}

/// A random permutation of 0..n-1 (fixed seed), as I.
template <class I = sv::index_t> std::vector<I> random_permutation(std::size_t n, std::uint64_t seed) {
    std::vector<I> p(n);
    std::iota(p.begin(), p.end(), I(0));
    std::shuffle(p.begin(), p.end(), std::mt19937_64(seed));
    return p;
}

enum class flag_pattern { all, first_only, sparse, dense };
inline const flag_pattern flag_patterns[] = {flag_pattern::all, flag_pattern::first_only, flag_pattern::sparse,
                                             flag_pattern::dense};
inline const char* name(flag_pattern p) {
    switch (p) {
        case flag_pattern::all: return "all";
        case flag_pattern::first_only: return "first-only";
        case flag_pattern::sparse: return "sparse";
        default: return "dense";
    }
}

/// Head flags; position 0 is set in every pattern except `sparse`/`dense`,
/// where it is random (the library must treat position 0 as a head anyway).
inline std::vector<bool> random_flags(std::size_t n, flag_pattern p, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution sparse(0.01), dense(0.5);
    std::vector<bool> f(n);
    for (std::size_t i = 0; i < n; ++i) {
        switch (p) {
            case flag_pattern::all: f[i] = true; break;
            case flag_pattern::first_only: f[i] = (i == 0); break;
            case flag_pattern::sparse: f[i] = sparse(rng); break;
            case flag_pattern::dense: f[i] = dense(rng); break;
        }
    }
    return f;
}

/// Float results compared within a relative tolerance of the sequential reference.
template <class T> void check_equal(const std::vector<T>& got, const std::vector<T>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        if constexpr (std::is_floating_point_v<T>) {
            const double tol = 1e-4 * std::max(1.0, std::fabs(double(want[i])));
            if (std::fabs(double(got[i]) - double(want[i])) > tol) {
                INFO("at " << i << ": got " << got[i] << ", want " << want[i]);
                CHECK(false);
                return;
            }
        } else if (!(got[i] == want[i])) {
            INFO("at " << i << " of " << got.size());
            CHECK(got[i] == want[i]);
            return;
        }
    }
}

/// A stream of the user's kind for sv::on: a non-blocking CUDA stream (it does
/// not wait for the default stream), or on the host a distinct dummy handle.
inline sv::stream_t make_stream() {
#if defined(SCANVEC_BACKEND_CUDA)
    cudaStream_t s = nullptr;
    REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    return s;
#else
    return new char;
#endif
}
inline void destroy_stream(sv::stream_t s) {
#if defined(SCANVEC_BACKEND_CUDA)
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    CHECK(cudaStreamDestroy(s) == cudaSuccess);
#else
    delete static_cast<char*>(s);
#endif
}

/// Fault injection for one call: call() once to count its memory requests,
/// then once with each of them made to fail. Every run throws
/// sv::out_of_memory or returns what check(result) accepts, and gives back
/// every byte; after a failure, the call runs again and check accepts it.
template <class Call, class Check> void each_request_failing(Call call, Check check) {
    auto& mem = sv::runtime::memory();
    const auto before = mem.stats();
    check(call());
    const auto after = mem.stats();
    const std::size_t requests = (after.cache_hits + after.backend_allocations) - (before.cache_hits + before.backend_allocations);
    CHECK(requests > 0);
    for (std::size_t k = 0; k < requests; ++k) {
        CAPTURE(k);
        const auto in_use = mem.stats().bytes_in_use;
        mem.fail_after(k);
        bool threw = false;
        try {
            check(call());
        } catch (const sv::out_of_memory&) {
            threw = true;
        }
        mem.stop_failing();
        CHECK(mem.stats().bytes_in_use == in_use);
        if (threw) check(call());  // and the runtime works on
    }
}

}  // namespace test

#if defined(SCANVEC_BACKEND_CUDA)
#  define SCANVEC_IS_CUDA 1
#else
#  define SCANVEC_IS_CUDA 0
#endif
