// scanvec/primitives/detail/permute/cuda/fused_check.hpp - the checked permute and back_permute as one kernel each (CUDA).
//
// permute up to permute_policy::stamped_check_max elements: each thread
// scatters its element and stamps its target with the call's epoch
// (stamp_state); a target stamped twice, or an index out of range, raises the
// failure flag. Past that bound (scatter_folded): each thread scatters its
// elements and folds a check of their targets, the sums of powers
// (detail/permute/power_sums.hpp) up to power_tables_reach, else the
// fingerprint (detail/permute/fingerprint.hpp); each block stores its
// partial; the last block to finish folds the partials and writes the
// verdict. back_permute: each thread gathers and raises the flag for an
// index out of range. Either way one launch and one wait, with the verdict in
// pinned memory; on failure an exact pass names the bad index
// (docs/design/permutes.md).
#pragma once

#include <scanvec/primitives/detail/permute/cuda/check_state.hpp>
#include <scanvec/primitives/detail/permute/fingerprint.hpp>
#include <scanvec/primitives/detail/permute/power_sums.hpp>
#include <scanvec/primitives/detail/permute/policy.hpp>

#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <array>

SCANVEC_NAMESPACE_BEGIN namespace detail {

struct fused_permute_policy {
    /// Threads per block: the block reduce of 40-byte partials stays small in shared memory.
    static constexpr int threads = 256;
    /// Elements a thread takes in each step of the folded checks: with 8
    /// blocks an SM (power_sum_check), the 2^20 elements of the sums' reach
    /// are one wave of 1024 blocks on 132 SMs (docs/design/permutes.md).
    static constexpr int items = 4;
};

/// The blocks for n elements, `items` a thread: at most check_state_policy::max_blocks.
inline unsigned check_blocks(index_t n) {
    constexpr index_t tile = index_t(fused_permute_policy::threads) * fused_permute_policy::items;
    return unsigned(std::min<index_t>((n + tile - 1) / tile, index_t(check_state_policy::max_blocks)));
}

/// A partial that another block stored, read from the L2 (not a stale L1 line).
template <class P> __device__ P load_cg(const P* p) {
    static_assert(sizeof(P) % sizeof(unsigned long long) == 0, "a partial of 64-bit words");
    P q;
    const auto* from = reinterpret_cast<const unsigned long long*>(p);
    auto* to = reinterpret_cast<unsigned long long*>(&q);
#pragma unroll
    for (std::size_t w = 0; w < sizeof(P) / sizeof(unsigned long long); ++w) to[w] = __ldcg(from + w);
    return q;
}

/// What scatter_folded folds over the elements it scatters: Lipton's
/// fingerprint (any n) ...
struct fingerprint_check {
    using partial = permutation_fingerprint;
    using fold = fingerprint_product;
    using position = index_t;
    static constexpr int blocks_per_sm = 4;  // 64 registers
    std::uint64_t x[2];
    __device__ void take(partial& f, index_t i, index_t j) const {
        f.of_idx[0] = mul_mod61(f.of_idx[0], x[0] - std::uint64_t(j));
        f.of_idx[1] = mul_mod61(f.of_idx[1], x[1] - std::uint64_t(j));
        f.of_pos[0] = mul_mod61(f.of_pos[0], x[0] - std::uint64_t(i));
        f.of_pos[1] = mul_mod61(f.of_pos[1], x[1] - std::uint64_t(i));
    }
    __device__ bool differs(const partial& all) const {
        return all.of_idx[0] != all.of_pos[0] || all.of_idx[1] != all.of_pos[1];
    }
};

/// ... or the sums of powers (n <= power_tables_reach), against their closed form.
struct power_sum_check {
    using partial = power_sums;
    using fold = power_sum_fold;
    using position = std::int32_t;  // n <= power_tables_reach
    /// 32 registers, 2048 threads an SM: at the tables' reach (2^20, 4 a
    /// thread) every block in one wave on an H100.
    static constexpr int blocks_per_sm = 8;
    power_tables tables;
    std::uint64_t expect[2];  // power_sum_below(k, n)
    __device__ void take(partial& f, std::int32_t, std::int32_t j) const {
        f.at[0] = add_mod61(f.at[0], tables.power(0, std::uint64_t(j)));
        f.at[1] = add_mod61(f.at[1], tables.power(1, std::uint64_t(j)));
    }
    __device__ bool differs(const partial& all) const { return all.at[0] != expect[0] || all.at[1] != expect[1]; }
};

/// out[idx[i]] = a[i] for every i with idx[i] in range, and the verdict of the
/// whole: verdict[0] the first out-of-range position if any, verdict[1] = 1
/// if the indices are not 0..n-1 in some order (the host sets ~0 and 0
/// before). Each block folds its elements' partial; a single block has the
/// whole, else each stores its partial and the last to finish folds them.
/// Leaves *blocks_done at 0.
template <class Check, class IdxIt, class In, class Out>
__global__ void __launch_bounds__(fused_permute_policy::threads, Check::blocks_per_sm)
    scatter_folded(IdxIt idx, In a, Out out, typename Check::position n, Check check,
                   typename Check::partial* partials, unsigned* blocks_done, unsigned long long* verdict) {
    using pos = typename Check::position;
    using partial = typename Check::partial;
    using fold_t = typename Check::fold;
    constexpr int threads = fused_permute_policy::threads, items = fused_permute_policy::items;
    using block_reduce = cub::BlockReduce<partial, threads>;
    __shared__ typename block_reduce::TempStorage temp;
    __shared__ bool last;
    const fold_t fold{};
    partial f = fold_t::identity();
    const pos step = pos(gridDim.x) * threads * items;
    for (pos base = pos(blockIdx.x) * threads * items + pos(threadIdx.x); base < n; base += step) {
#pragma unroll
        for (int k = 0; k < items; ++k) {
            const pos i = base + pos(k) * threads;
            if (i >= n) break;
            const auto j = static_cast<long long>(idx[i]);
            if (in_range(j, n)) {
                out[j] = a[i];
                check.take(f, i, pos(j));
            } else if (f.first_bad == ~0ull) {
                f.first_bad = (unsigned long long)i;  // a thread's positions rise: its first is its least
            }
        }
    }
    partial all = block_reduce(temp).Reduce(f, fold);
    if (gridDim.x > 1) {
        if (threadIdx.x == 0) {
            partials[blockIdx.x] = all;
            __threadfence();  // the partial is visible before the count says so
            last = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
        }
        __syncthreads();
        if (!last) return;
        __threadfence();
        partial g = fold_t::identity();
        for (unsigned b = threadIdx.x; b < gridDim.x; b += threads) g = fold(g, load_cg(partials + b));
        __syncthreads();  // temp is reused
        all = block_reduce(temp).Reduce(g, fold);
    }
    if (threadIdx.x == 0) {  // only what is wrong goes to the host's memory: a clean call writes nothing there
        if (all.first_bad != ~0ull) verdict[0] = all.first_bad;
        if (check.differs(all)) verdict[1] = 1;
        if (gridDim.x > 1) *blocks_done = 0;  // the state as it was found
    }
}

/// The checked scatter in one launch; returns the verdict {first out-of-range
/// position (~0: none), not a permutation (0 or 1)}. Up to power_tables_reach
/// elements by power sums, past it by the fingerprint.
template <class IdxIt, class In, class Out> std::array<unsigned long long, 2> scatter_checked(IdxIt idx, In a, Out out, index_t n) {
    const auto launch = [&](auto check) {
        using partial = typename decltype(check)::partial;
        static_assert(sizeof(partial) <= check_state_policy::slot_bytes, "a partial fits its slot");
        check_state st;
        unsigned long long* verdict = st.verdict();
        verdict[0] = ~0ull;  // as a clean call leaves them
        verdict[1] = 0;
        scatter_folded<<<check_blocks(n), fused_permute_policy::threads, 0, st.stream()>>>(
            idx, a, out, typename decltype(check)::position(n), check, static_cast<partial*>(st.partials()), st.blocks_done(), st.verdict());
        backend::check_launch("permute (scatter and check)");
        unsigned long long v[2];
        st.read_verdict(v, "permute (index check result)");
        return std::array<unsigned long long, 2>{v[0], v[1]};
    };
    if (std::size_t(n) <= power_tables_reach)
        return launch(power_sum_check{power_table_state(), {power_sum_below(0, std::size_t(n)), power_sum_below(1, std::size_t(n))}});
    const auto& x = fingerprint_points();
    return launch(fingerprint_check{{x[0], x[1]}});
}

/// Blocks of one element a thread for n elements.
inline unsigned element_blocks(index_t n) {
    return unsigned((n + fused_permute_policy::threads - 1) / fused_permute_policy::threads);
}

/// Sets *failed (once a block) when any thread of the block found bad input.
/// Made by every thread of the block at its start, over the block's shared word.
struct block_failure {
    int* any;  // in shared memory
    __device__ explicit block_failure(int* shared_word) : any(shared_word) {
        if (threadIdx.x == 0) *any = 0;
        __syncthreads();
    }
    __device__ void raise() const { *any = 1; }
    __device__ void report(unsigned* failed) const {
        __syncthreads();
        if (threadIdx.x == 0 && *any) *failed = 1u;
    }
};

/// out[idx[i]] = a[i] for every i with idx[i] in [0, n); raises *failed if an
/// index is out of range or a target is met twice (its stamp already holds epoch).
template <class IdxIt, class In, class Out>
__global__ void __launch_bounds__(fused_permute_policy::threads)
    scatter_stamped(IdxIt idx, In a, Out out, index_t n, unsigned* stamps, unsigned epoch, unsigned* failed) {
    __shared__ int any;
    const block_failure failure(&any);
    const index_t i = index_t(blockIdx.x) * fused_permute_policy::threads + threadIdx.x;
    if (i < n) {
        const auto j = static_cast<long long>(idx[i]);
        if (in_range(j, n)) {
            out[j] = a[i];
            if (atomicExch(stamps + j, epoch) == epoch) failure.raise();
        } else {
            failure.raise();
        }
    }
    failure.report(failed);
}

/// The checked scatter of n <= permute_policy::stamped_check_max elements in
/// one launch; true when idx is not a permutation of 0..n-1.
template <class IdxIt, class In, class Out> bool scatter_stamped_fails(IdxIt idx, In a, Out out, index_t n) {
    const stream_t s = current_stream();
    const stamp_state stamps(std::size_t(n), s);
    const failure_flag failed;
    scatter_stamped<<<element_blocks(n), fused_permute_policy::threads, 0, s>>>(idx, a, out, n, stamps.words(),
                                                                               stamps.epoch(), failed.device());
    backend::check_launch("permute (scatter and check)");
    return failed.raised(s, "permute (index check result)");
}

/// out[i] = a[idx[i]] for every i whose index lies in [0, bound); raises
/// *failed if an index does not.
template <class IdxIt, class In, class Out>
__global__ void __launch_bounds__(fused_permute_policy::threads)
    gather_flagged(IdxIt idx, In a, Out out, index_t m, index_t bound, unsigned* failed) {
    __shared__ int any;
    const block_failure failure(&any);
    const index_t i = index_t(blockIdx.x) * fused_permute_policy::threads + threadIdx.x;
    if (i < m) {
        const auto j = static_cast<long long>(idx[i]);
        if (in_range(j, bound)) out[i] = a[j];
        else failure.raise();
    }
    failure.report(failed);
}

/// The checked gather in one launch; true when an index lies outside [0, bound).
template <class IdxIt, class In, class Out> bool gather_fails(IdxIt idx, In a, Out out, index_t m, index_t bound) {
    const stream_t s = current_stream();
    const failure_flag failed;
    gather_flagged<<<element_blocks(m), fused_permute_policy::threads, 0, s>>>(idx, a, out, m, bound, failed.device());
    backend::check_launch("back_permute (gather and check)");
    return failed.raised(s, "back_permute (index check result)");
}

}  SCANVEC_NAMESPACE_END  // detail
