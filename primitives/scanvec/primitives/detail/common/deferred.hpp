// scanvec/primitives/detail/common/deferred.hpp - a check's first failure kept
// where the check ran, for the host's next wait (sv::deferred_checks).
//
// A deferred check finds its first bad position on the device as the checked
// call does (where it can, in the call's own pass: a min into the thread's
// word), then stores the failure in the thread's record
// (runtime/deferred_checks.hpp) if none is there yet, so the first failing
// call in stream order is the one reported: where the call's pass is a
// for-each over its positions, its last block to finish stores it in the same
// launch; else one more one-thread step does. Nothing is read back.
#pragma once

#include <scanvec/primitives/detail/common/live.hpp>
#include <scanvec/primitives/detail/scan/dispatch.hpp>
#include <scanvec/runtime/deferred_checks.hpp>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <scanvec/primitives/detail/permute/cuda/check_state.hpp>
#endif

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstddef>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// Whether this thread's deferrable checks store their verdict instead of
/// waiting for it: in a sv::deferred_checks scope, or while a loop body is
/// captured (sv::repeat_while), where nothing may wait.
inline bool checks_deferred() {
    const auto& t = this_thread();
    return t.deferring > 0 || t.capture != nullptr;
}

/// One thread: the check's first bad position (~0: none), stored with its
/// index and the bound unless an earlier failure is stored; the word is left
/// at ~0 again (so the thread's word serves the next call as it is).
template <class IdxIt> struct store_first_failure {
    unsigned long long* first_bad;
    IdxIt idx;
    index_t bound;
    const char* op;
    deferred_failure* record;
    SCANVEC_HD void operator()(index_t) const {
        // volatile: on CUDA the other blocks' atomics are in L2, not in this SM's L1
        const unsigned long long k = *static_cast<volatile unsigned long long*>(first_bad);
        if (k == ~0ull) return;
        *first_bad = ~0ull;
        if (record->op) return;
        record->position = static_cast<long long>(k);
        record->value = static_cast<long long>(idx[index_t(k)]);
        record->bound = bound;
        record->kind = 0;
        record->op = op;
    }
};

/// This thread's word for a deferred check's first bad position on the
/// current stream, ~0 between calls (the store above leaves it so): a call
/// whose own pass min-reduces into it needs no fill and no temporary. On CUDA
/// a block the thread keeps per stream (from the memory cache, given back
/// when the thread ends), whose second word counts the blocks of a pass that
/// stores its own verdict (for_each_position_then_store; 0 between calls); on
/// the host a word of its context.
inline unsigned long long* deferred_word() {
#if defined(SCANVEC_BACKEND_CUDA)
    static constexpr char kind = 0;
    const int device = current_device("deferred check (cudaGetDevice)");
    const stream_t s = current_stream();  // one word per stream: calls on two streams may overlap
    if (kept_block* b = find_kept(&kind, device, [&](const kept_block& k) { return k.stream == s; }))
        return static_cast<unsigned long long*>(b->p);
    kept_block& b = keep_block(&kind, device, 2 * sizeof(unsigned long long));
    b.stream = s;
    backend::fill_bytes(b.p, 0xff, sizeof(unsigned long long), s, "deferred check (its word)");
    backend::fill_bytes(static_cast<unsigned long long*>(b.p) + 1, 0, sizeof(unsigned long long), s,
                        "deferred check (its count)");
    return static_cast<unsigned long long*>(b.p);
#else
    return &this_thread().deferred_word;
#endif
}

/// Queues the store of a check's verdict, left at first_bad, into this
/// thread's record, and first_bad's reset to ~0. op must be a string literal
/// (its address is stored).
template <class Idx>
void store_failure(const char* op, unsigned long long* first_bad, const Idx& idx, std::size_t bound, stream_t s) {
    thrust::for_each_n(policy(s), thrust::counting_iterator<index_t>(0), 1,
                       store_first_failure<decltype(reader(idx))>{first_bad, reader(idx), index_t(bound), op,
                                                                  backend::deferred_record()});
    backend::check_launch(op);
}

#if defined(SCANVEC_BACKEND_CUDA)
/// f(k) for the positions below end (and *live), then, by the last block to
/// finish, store(0): the pass and the store of its verdict in one launch.
/// blocks_done counts the blocks and is left at 0.
template <class F, class Store>
__global__ void each_position_then_store(index_t n, F f, const index_t* live, Store store, unsigned long long* blocks_done) {
    const index_t end = live ? (read_only(live) < n ? (read_only(live) < 0 ? 0 : read_only(live)) : n) : n;
    for (index_t k = index_t(blockIdx.x) * blockDim.x + threadIdx.x; k < end; k += index_t(gridDim.x) * blockDim.x) f(k);
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();  // this block's atomics before its count
        if (atomicAdd(blocks_done, 1ull) == gridDim.x - 1) {
            __threadfence();
            store(0);
            *blocks_done = 0;
        }
    }
}
#endif

/// f(k) for k in 0..n-1 (below *live with live), whose check min-reduces
/// into first_bad (deferred_word()), then the verdict stored as
/// store_failure(op, first_bad, idx, bound) does: on CUDA one launch.
template <class F, class Idx>
void for_each_position_then_store(std::size_t n, F f, const index_t* live, const char* op, unsigned long long* first_bad,
                                  const Idx& idx, std::size_t bound, stream_t s) {
#if defined(SCANVEC_BACKEND_CUDA)
    if (n == 0) return;
    constexpr unsigned threads = 256;
    const unsigned blocks = unsigned(std::min<std::size_t>((n + threads - 1) / threads, 4096));
    using Store = store_first_failure<decltype(reader(idx))>;
    each_position_then_store<F, Store><<<blocks, threads, 0, s>>>(
        index_t(n), f, live, Store{first_bad, reader(idx), index_t(bound), op, backend::deferred_record()}, first_bad + 1);
    backend::check_launch(op);
#else
    for_each_position(n, f, live, s, op);
    store_failure(op, first_bad, idx, bound, s);
#endif
}

}  SCANVEC_NAMESPACE_END  // detail
