// scanvec/primitives/detail/write/dispatch.hpp - the one place the writes
// choose their form: a struct's write of few elements in one block on CUDA,
// else the generic passes; a combining write by atomics where the element has
// them, else by sorting.
#pragma once

#include <scanvec/primitives/detail/common/live.hpp>
#include <scanvec/primitives/detail/write/checks.hpp>
#include <scanvec/primitives/detail/write/generic.hpp>
#include <scanvec/primitives/detail/write/policy.hpp>

#if defined(SCANVEC_BACKEND_CUDA)
#include <scanvec/primitives/detail/write/cuda/one_block.hpp>
#endif

#include <thrust/scatter.h>

#include <cstdint>
#include <limits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

template <class K, class T, class Idx, class V>
void write_elected(vector<T>& dst, const Idx& idx, const V& vals, const index_t* live) {
    auto s = current_stream();
    // no initialisation: every slot pass 2 reads was stored in pass 1
    runtime::scratch winner(dst.size() * sizeof(K));
#if defined(SCANVEC_BACKEND_CUDA)
    if (write_fits_one_block(idx.size())) return write_elected_in_one_block(dst, idx, vals, winner.as<K>(), live, s);
#endif
    write_elected_passes(dst, idx, vals, winner.as<K>(), live, s);
}

/// The writes themselves, indices known to be in range; or, with
/// deferred_op (a deferred check, detail/common/deferred.hpp), those out of
/// range skipped and the first of them stored for the host's next wait under
/// that name: in the write's own pass where it is one scatter, else by a
/// check's pass first. With live (idx and vals bounded: their length on the
/// device, detail/common/live.hpp), only the positions below *live write.
template <class T, bool S, class Idx, class V>
void write_into(vector<T, S>& dst, const Idx& idx, const V& vals, const char* deferred_op = nullptr,
                const index_t* live = nullptr) {
    if (idx.empty()) return;
    const stream_t s = current_stream();
    if constexpr (S) {  // one writer per target stores every field (out of range: none)
        if (deferred_op) store_targets_outside(deferred_op, idx, dst.size(), live);
        if (idx.size() <= std::numeric_limits<std::uint32_t>::max()) write_elected<std::uint32_t>(dst, idx, vals, live);
        else write_elected<std::uint64_t>(dst, idx, vals, live);
    } else if (deferred_op || live) {
        unsigned long long* first_bad = deferred_op ? deferred_word() : nullptr;
        const scatter_in_range<decltype(reader(idx)), decltype(reader(vals)), decltype(writer(dst))> scatter{
            reader(idx), reader(vals), writer(dst), index_t(dst.size()), first_bad};
        if (deferred_op) for_each_position_then_store(idx.size(), scatter, live, deferred_op, first_bad, idx, dst.size(), s);
        else for_each_position(idx.size(), scatter, live, s, "write");
    } else {  // one store per element: one of them stands
        auto v = reader(vals);
        thrust::scatter(policy(s), v, v + idx.size(), reader(idx), writer(dst));
        backend::check_launch("write");
    }
}

/// The combining writes (a target out of range combines nothing); deferred_op
/// and live as for write_into (live: the elements with atomics only).
template <class T, bool S, class Idx, class V, class Op>
void combine_into(vector<T, S>& dst, const Idx& idx, const V& vals, Op op, const char* deferred_op = nullptr,
                  const index_t* live = nullptr) {
    if (idx.empty()) return;
    const stream_t s = current_stream();
    if constexpr (has_atomic_combine_v<T>) {
        if constexpr (sizeof(T) < 4) define_word_past_end(dst.data(), dst.size(), s);
        unsigned long long* first_bad = deferred_op ? deferred_word() : nullptr;
        using Combine = combine_at<T, Op, decltype(reader(idx)), decltype(reader(vals))>;
        const Combine combine{reader(idx), reader(vals), dst.data(), op, index_t(dst.size()), first_bad};
        if (deferred_op) for_each_position_then_store(idx.size(), combine, live, deferred_op, first_bad, idx, dst.size(), s);
        else for_each_position(idx.size(), combine, live, s, "combining_write (atomic)");
    } else {
        (void)live;  // bounded combining writes take elements with atomics only (primitives/bounded.hpp)
        if (deferred_op) store_targets_outside(deferred_op, idx, dst.size());
        combine_by_sorting(dst, idx, vals, op);
    }
}

} SCANVEC_NAMESPACE_END
