// scanvec/primitives/detail/common/deferred.hpp - a check's first failure kept
// where the check ran, for the host's next wait (sv::deferred_checks).
//
// A deferred check finds its first bad position on the device as the checked
// call does, then one more one-thread step stores the failure in the thread's
// record (runtime/deferred_checks.hpp) if none is there yet, so the first
// failing call in stream order is the one reported. Nothing is read back.
#pragma once

#include <scanvec/primitives/detail/scan/dispatch.hpp>
#include <scanvec/runtime/deferred_checks.hpp>

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
/// index and the bound unless an earlier failure is stored.
template <class IdxIt> struct store_first_failure {
    const unsigned long long* first_bad;
    IdxIt idx;
    index_t bound;
    const char* op;
    deferred_failure* record;
    SCANVEC_HD void operator()(index_t) const {
        const unsigned long long k = *first_bad;
        if (k == ~0ull || record->op) return;
        record->position = static_cast<long long>(k);
        record->value = static_cast<long long>(idx[index_t(k)]);
        record->bound = bound;
        record->op = op;
    }
};

/// Queues the store of a check's verdict, left at first_bad, into this
/// thread's record. op must be a string literal (its address is stored).
template <class Idx>
void store_failure(const char* op, const unsigned long long* first_bad, const Idx& idx, std::size_t bound, stream_t s) {
    thrust::for_each_n(policy(s), thrust::counting_iterator<index_t>(0), 1,
                       store_first_failure<decltype(reader(idx))>{first_bad, reader(idx), index_t(bound), op,
                                                                  backend::deferred_record()});
    backend::check_launch(op);
}

}  SCANVEC_NAMESPACE_END  // detail
