// scanvec/primitives/detail/permute_fused_check.hpp - the checked permute and back_permute as one kernel each (CUDA).
//
// permute up to permute_policy::stamped_check_max elements: each thread
// scatters its element and stamps its target with the call's epoch
// (stamp_state); a target stamped twice, or an index out of range, raises the
// failure flag. Past that bound: each thread scatters its elements and folds
// their fingerprint factors (detail/permutation_fingerprint.hpp); each block
// stores its partial product; the last block to finish folds the partials and
// writes the verdict. back_permute: each thread gathers and raises the flag
// for an index out of range. Either way one launch and one wait, with the
// verdict in pinned memory; on failure an exact pass names the bad index
// (docs/design/permutes.md).
#pragma once

#include <scanvec/primitives/detail/check_state.hpp>
#include <scanvec/primitives/detail/permutation_fingerprint.hpp>
#include <scanvec/primitives/detail/permute_policy.hpp>

#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <array>

SCANVEC_NAMESPACE_BEGIN namespace detail {

struct fused_permute_policy {
    /// Threads per block: the block reduce of 40-byte partials stays small in shared memory.
    static constexpr int threads = 256;
};

/// The blocks for n elements: one thread each, at most check_state_policy::max_blocks.
inline unsigned check_blocks(index_t n) {
    constexpr int threads = fused_permute_policy::threads;
    return unsigned(std::min<index_t>((n + threads - 1) / threads, index_t(check_state_policy::max_blocks)));
}

/// out[idx[i]] = a[i] for every i with idx[i] in range, and the verdict of the
/// whole in verdict[0] (first out-of-range position, ~0: none) and verdict[1]
/// (1: the indices are not 0..n-1 in some order). Leaves *blocks_done at 0.
template <class IdxIt, class In, class Out>
__global__ void __launch_bounds__(fused_permute_policy::threads)
    scatter_fingerprinted(IdxIt idx, In a, Out out, index_t n, std::uint64_t x0, std::uint64_t x1,
                          permutation_fingerprint* partials, unsigned* blocks_done, unsigned long long* verdict) {
    using block_reduce = cub::BlockReduce<permutation_fingerprint, fused_permute_policy::threads>;
    __shared__ typename block_reduce::TempStorage temp;
    __shared__ bool last;
    const fingerprint_product fold{};
    permutation_fingerprint f = fingerprint_product::identity();
    const index_t stride = index_t(gridDim.x) * fused_permute_policy::threads;
    for (index_t i = index_t(blockIdx.x) * fused_permute_policy::threads + threadIdx.x; i < n; i += stride) {
        const auto j = static_cast<long long>(idx[i]);
        if (in_range(j, n)) {
            out[j] = a[i];
            f.of_idx[0] = mul_mod61(f.of_idx[0], x0 - std::uint64_t(j));
            f.of_idx[1] = mul_mod61(f.of_idx[1], x1 - std::uint64_t(j));
        } else if (f.first_bad == ~0ull) {
            f.first_bad = (unsigned long long)i;  // a thread's positions rise: its first is its least
        }
        f.of_pos[0] = mul_mod61(f.of_pos[0], x0 - std::uint64_t(i));
        f.of_pos[1] = mul_mod61(f.of_pos[1], x1 - std::uint64_t(i));
    }
    const permutation_fingerprint block = block_reduce(temp).Reduce(f, fold);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = block;
        __threadfence();  // the partial is visible before the count says so
        last = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    __threadfence();
    permutation_fingerprint g = fingerprint_product::identity();
    for (unsigned b = threadIdx.x; b < gridDim.x; b += fused_permute_policy::threads) {
        const permutation_fingerprint* p = partials + b;
        permutation_fingerprint q;
        q.of_idx[0] = __ldcg(&p->of_idx[0]);
        q.of_idx[1] = __ldcg(&p->of_idx[1]);
        q.of_pos[0] = __ldcg(&p->of_pos[0]);
        q.of_pos[1] = __ldcg(&p->of_pos[1]);
        q.first_bad = __ldcg(&p->first_bad);
        g = fold(g, q);
    }
    __syncthreads();  // temp is reused
    const permutation_fingerprint all = block_reduce(temp).Reduce(g, fold);
    if (threadIdx.x == 0) {
        verdict[0] = all.first_bad;
        verdict[1] = all.of_idx[0] != all.of_pos[0] || all.of_idx[1] != all.of_pos[1];
        *blocks_done = 0;  // the state as it was found
    }
}

/// The checked scatter in one launch; returns the verdict {first out-of-range
/// position (~0: none), products differ (0 or 1)}.
template <class IdxIt, class In, class Out> std::array<unsigned long long, 2> scatter_checked(IdxIt idx, In a, Out out, index_t n) {
    static_assert(sizeof(permutation_fingerprint) <= check_state_policy::slot_bytes, "a partial fits its slot");
    const auto& x = fingerprint_points();
    check_state st;
    scatter_fingerprinted<<<check_blocks(n), fused_permute_policy::threads, 0, st.stream()>>>(
        idx, a, out, n, x[0], x[1], static_cast<permutation_fingerprint*>(st.partials()), st.blocks_done(),
        st.verdict());
    backend::check_launch("permute (scatter and check)");
    unsigned long long v[2];
    st.read_verdict(v, "permute (index check result)");
    return {v[0], v[1]};
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
