// scanvec/primitives/detail/permute/dispatch.hpp - the one place permute and
// back_permute choose their form: on CUDA the check fused into the move
// (stamps, then fingerprints) and past the L2 the pairs grouped by target; on
// the host a bitmap per thread, else the generic check (docs/design/permutes.md).
#pragma once

#include <scanvec/primitives/detail/common/deferred.hpp>
#include <scanvec/primitives/detail/permute/checks.hpp>
#include <scanvec/primitives/detail/permute/generic.hpp>
#include <scanvec/primitives/detail/permute/host.hpp>
#if defined(SCANVEC_BACKEND_CUDA)
#  include <scanvec/primitives/detail/permute/cuda/fused_check.hpp>
#  include <scanvec/primitives/detail/permute/grouped.hpp>
#endif

#include <thrust/gather.h>
#include <thrust/scatter.h>
#include <thrust/transform.h>

SCANVEC_NAMESPACE_BEGIN namespace detail {

#if defined(SCANVEC_BACKEND_CUDA)
/// r[I'[i]] = A'[i] for the n grouped pairs: each group into its window of r.
template <class Grouped, class R> void scatter_grouped(const Grouped& g, std::size_t n, R& r) {
    thrust::scatter(policy(current_stream()), g.value(), g.value() + n, g.target(), writer(r));
    backend::check_launch("permute");
}
#endif

/// r[idx[i]] = a[i] into r (a vector or an output's target), unchecked.
template <class A, class Idx, class R> void scatter_into(const A& a, const Idx& idx, R& r) {
    if (a.empty()) return;
#if defined(SCANVEC_BACKEND_CUDA)
    if (auto g = group_by_target(a, idx)) return scatter_grouped(*g, a.size(), r);  // a result past the L2
#endif
    auto in = detail::reader(a);
    thrust::scatter(detail::policy(current_stream()), in, in + a.size(), detail::reader(idx), detail::writer(r));
    backend::check_launch("permute");
}



/// The checked permute into r (a vector or an output's target).
template <class A, class Idx, class R> void permute_into(const A& a, const Idx& idx, R& r) {
    const std::size_t n = a.size();
    if (n == 0) return;
#if SCANVEC_CHECKS
    if constexpr (permute_checks_by_threads) {  // the host: a bitmap per thread (detail/permute/host.hpp)
        if (thread_marks_fit(n)) {
            const scatter_verdict v = scatter_with_thread_marks(a, idx, r);
            if (v.out_of_range != ~0ull) throw_out_of_range("permute", idx, v.out_of_range, n);
            if (v.permutation) return;
            check_indices("permute", idx, n, true);  // names the first repeat
            throw index_error("permute: idx is not a permutation");
        }
    }
#  if defined(SCANVEC_BACKEND_CUDA)
    // check and move in one launch, whatever n: stamps up to a bound, then fingerprints
    if (n <= permute_policy::stamped_check_max) {
        if (scatter_stamped_fails(reader(idx), reader(a), writer(r), index_t(n))) {
            check_indices("permute", idx, n, true);  // names the first bad index or repeat
            throw index_error("permute: idx is not a permutation");  // (check_indices has thrown)
        }
        return;
    }
    if (auto g = group_by_target(a, idx)) {  // a result past the L2: grouped by target, checked, then moved
        if (!fingerprint_of(g->target(), n).permutation()) {  // the grouped targets hold idx's values
            check_indices("permute", idx, n, true);  // names the bad index at its place in idx
            throw index_error("permute: idx is not a permutation");  // (check_indices has thrown)
        }
        scatter_grouped(*g, n, r);
        return;
    }
    const auto verdict = scatter_checked(reader(idx), reader(a), writer(r), index_t(n));
    if (verdict[0] != ~0ull) throw_out_of_range("permute", idx, verdict[0], n);
    if (verdict[1] != 0) {
        check_indices("permute", idx, n, true);  // names the first repeat
        throw index_error("permute: idx is not a permutation");  // (check_indices has thrown)
    }
#  else
    if (n > fused_permute_check_max) {  // check (one read of idx), then move
        expect_permutation("permute", idx, n);
        scatter_into(a, idx, r);
        return;
    }
    // check and move in one pass
    permutation_check<Idx> check(idx, n);
    auto flip = check.flipper();
    thrust::for_each_n(policy(current_stream()), thrust::counting_iterator<index_t>(0), n,
                       scatter_flipping<decltype(flip.idx), decltype(reader(a)), decltype(writer(r))>{
                           flip, reader(a), writer(r)});
    check.verdict();
#  endif
#else
    scatter_into(a, idx, r);
#endif
}

/// r[i] = a[idx[i]] into r, unchecked.
template <class A, class Idx, class R> void gather_into(const A& a, const Idx& idx, R& r) {
    if (idx.empty()) return;
    auto i = reader(idx);
    thrust::gather(policy(current_stream()), i, i + idx.size(), reader(a), writer(r));
    backend::check_launch("back_permute");
}

/// The checked back_permute into r (a vector or an output's target).
template <class A, class Idx, class R> void back_permute_into(const A& a, const Idx& idx, R& r) {
    if (idx.empty()) return;
    auto i = reader(idx);
    [[maybe_unused]] auto s = current_stream();
#if SCANVEC_CHECKS
    if (checks_deferred()) {  // the first bad position stored for the host's next wait; a bad index reads T{}
        unsigned long long* first_bad = deferred_word();
        using Gather = gather_checked_at<value_t<A>, decltype(reader(a)), decltype(i), decltype(writer(r))>;
        for_each_position_then_store(idx.size(), Gather{i, writer(r), {reader(a), index_t(a.size()), first_bad}}, nullptr,
                                     "back_permute", first_bad, idx, a.size(), s);
        return;
    }
#  if defined(SCANVEC_BACKEND_CUDA)
    if (gather_fails(i, reader(a), writer(r), index_t(idx.size()), index_t(a.size()))) {
        check_indices("back_permute", idx, a.size(), false);  // names the first bad position
        throw index_error("back_permute: an index is out of range");  // (check_indices has thrown)
    }
#  else
    runtime::scratch state(sizeof(unsigned long long));
    auto* first_bad = state.as<unsigned long long>();
    *first_bad = ~0ull;
    thrust::transform(policy(s), i, i + idx.size(), thrust::counting_iterator<index_t>(0), writer(r),
                      checked_gather<value_t<A>, decltype(reader(a))>{reader(a), index_t(a.size()), first_bad});
    if (*first_bad != ~0ull) throw_out_of_range("back_permute", idx, *first_bad, a.size());
#  endif
#else
    gather_into(a, idx, r);
#endif
}


/// How many window bits a scatter into `bytes` of memory takes, at most
/// max_bits (the distributed permute's grouping): on CUDA, windows where the
/// memory outgrows the L2; the host scatters directly (docs/design/permutes.md:
/// grouping does not pay there).
inline int scatter_window_bits(std::size_t bytes, int max_bits) {
#if defined(SCANVEC_BACKEND_CUDA)
    return window_bits(bytes, max_bits);
#else
    (void)bytes, (void)max_bits;
    return 0;
#endif
}

} SCANVEC_NAMESPACE_END
