// scanvec/primitives/detail/permute/host.hpp - the checked permute on the host: each thread marks its own targets.
//
// sv::permute checks that idx is a permutation as it scatters. On CUDA every
// thread flips its target's bit in one shared bitmap with an atomic xor. On
// the host an atomic is a locked instruction that waits for the stores before
// it, and two cores flipping bits of one cache line take the line from each
// other; so here each thread flips bits in a bitmap of its own (plain xor) as
// it scatters its contiguous part of idx, and one more pass xors the threads'
// bitmaps word by word: with every index in range, every bit of the xor is
// set iff every target was hit exactly once (n hits on n targets, each hit an
// odd number of times). The first out-of-range position is the least one any
// thread saw. permute.hpp throws; docs/design/permutes.md says what it measured.
#pragma once

#include <scanvec/primitives/detail/permute/policy.hpp>
#include <scanvec/runtime/sequence.hpp>
#include <scanvec/runtime/vector.hpp>

#include <cstdint>

#if !defined(SCANVEC_BACKEND_CUDA)
#  include <scanvec/runtime/memory.hpp>
#  include <omp.h>
#endif

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// What the checked scatter saw: the first position whose index is out of
/// range (~0: none) and, when none is, whether idx is a permutation.
struct scatter_verdict {
    unsigned long long out_of_range;
    bool permutation;
};

#if !defined(SCANVEC_BACKEND_CUDA)

inline constexpr bool permute_checks_by_threads = true;

/// Whether every thread's bitmap of n bits fits the budget (permute_policy).
inline bool thread_marks_fit(std::size_t n) {
    return std::size_t(omp_get_max_threads()) <= permute_policy::max_thread_bitmaps && n > 0;
}

/// r[idx[i]] = a[i] for every index in range (r a vector or an output's target),
/// each thread marking its targets in its own bitmap.
template <class A, class Idx, class R> scatter_verdict scatter_with_thread_marks(const A& a, const Idx& idx, R& r) {
    using T = value_t<A>;
    const index_t n = index_t(a.size()), words = (n + 63) / 64;
    const int threads = omp_get_max_threads();
    runtime::scratch marks(std::size_t(threads) * std::size_t(words) * sizeof(std::uint64_t));
    std::uint64_t* bits = marks.as<std::uint64_t>();
    auto in = reader(a);
    auto j = reader(idx);
    auto out = writer(r);
    unsigned long long bad = ~0ull;
    int used = 1;  // the threads the team got (fewer when nested)
#pragma omp parallel num_threads(threads) reduction(min : bad)
    {
        const index_t t = omp_get_thread_num(), p = omp_get_num_threads();
        if (t == 0) used = int(p);
        std::uint64_t* mine = bits + t * words;
        for (index_t w = 0; w < words; ++w) mine[w] = 0;
        const index_t lo = n * t / p, hi = n * (t + 1) / p;
        for (index_t i = lo; i < hi; ++i) {
            const auto k = static_cast<long long>(j[i]);
            if (k < 0 || k >= n) {
                if ((unsigned long long)i < bad) bad = (unsigned long long)i;
                continue;
            }
            out[k] = T(in[i]);
            mine[k >> 6] ^= std::uint64_t(1) << (k & 63);
        }
    }
    if (bad != ~0ull) return {bad, false};
    index_t unfilled = 0;
#pragma omp parallel for schedule(static) num_threads(threads) reduction(+ : unfilled)
    for (index_t w = 0; w < words; ++w) {
        std::uint64_t x = 0;
        for (int t = 0; t < used; ++t) x ^= bits[index_t(t) * words + w];
        const index_t rest = n - 64 * w;
        unfilled += x != (rest >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << rest) - 1);
    }
    return {~0ull, unfilled == 0};
}

#else

inline constexpr bool permute_checks_by_threads = false;
inline bool thread_marks_fit(std::size_t) { return false; }
template <class A, class Idx, class R> scatter_verdict scatter_with_thread_marks(const A& a, const Idx& idx, R& r);

#endif

}  SCANVEC_NAMESPACE_END  // detail
