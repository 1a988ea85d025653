// scanvec/primitives/detail/common/deferred.hpp - a check's first failure kept
// where the check ran, for the host's next wait (sv::deferred_checks).
//
// A deferred check finds its first bad position on the device as the checked
// call does (where it can, in the call's own pass: a min into the thread's
// word), then one more one-thread step stores the failure in the thread's
// record (runtime/deferred_checks.hpp) if none is there yet, so the first
// failing call in stream order is the one reported. Nothing is read back.
#pragma once

#include <scanvec/primitives/detail/scan/dispatch.hpp>
#include <scanvec/runtime/deferred_checks.hpp>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <scanvec/primitives/detail/permute/cuda/check_state.hpp>
#endif

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

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
        const unsigned long long k = *first_bad;
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
/// when the thread ends); on the host a word of its context.
inline unsigned long long* deferred_word() {
#if defined(SCANVEC_BACKEND_CUDA)
    static constexpr char kind = 0;
    const int device = current_device("deferred check (cudaGetDevice)");
    const stream_t s = current_stream();  // one word per stream: calls on two streams may overlap
    if (kept_block* b = find_kept(&kind, device, [&](const kept_block& k) { return k.stream == s; }))
        return static_cast<unsigned long long*>(b->p);
    kept_block& b = keep_block(&kind, device, sizeof(unsigned long long));
    b.stream = s;
    backend::fill_bytes(b.p, 0xff, sizeof(unsigned long long), s, "deferred check (its word)");
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

}  SCANVEC_NAMESPACE_END  // detail
