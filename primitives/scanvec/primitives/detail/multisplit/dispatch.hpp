// scanvec/primitives/detail/multisplit/dispatch.hpp - the one place the
// family chooses its backend: CUB's onesweep passes on CUDA, the counting sort
// by tiles on the host; both give histogram_into and multisplit_into, and
// multisplit_digit_run runs a whole radix sort's digits at once where it can.
#pragma once

#include <scanvec/primitives/detail/common/radix_digit_view.hpp>
#include <scanvec/primitives/detail/multisplit/policy.hpp>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <scanvec/primitives/detail/multisplit/cuda/passes.hpp>
#else
#  include <scanvec/primitives/detail/multisplit/host.hpp>
#endif

#include <optional>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// The multisplits of a by the d-bit radix digits at bits 0, d, 2d, ... of the
/// K keys key_of(a) (a itself or one of its fields), in that order, run as one
/// where the backend can: on CUDA one run of CUB's radix sort over all the
/// bits, which is those passes with one histogram read shared by every digit;
/// on the host, for keys sorted on their own (no records) from
/// radix_run_policy::min_keys on, the top digit's multisplit and then every
/// bucket's passes in a thread's cache (docs/design/multisplit.md). Empty
/// when they must run one by one: records on the host, distributed or lazy
/// inputs, and while sv::trace watches (the trace shows each multisplit with
/// its values).
template <class K, class A, class KeyOf> std::optional<vector<value_t<A>>> multisplit_digit_run(const A& a, KeyOf key_of) {
#if defined(SCANVEC_BACKEND_CUDA)
    using T = value_t<A>;
    if constexpr (std::is_same_v<A, vector<T>> && std::is_same_v<std::decay_t<decltype(key_of(a))>, vector<K>>) {
        if (runtime::observation().current) return std::nullopt;
        return labelled("multisplit", a.size(), [&] {
            vector<T> r(a.size(), no_init);
            if (!a.empty()) sort_by_key_bits(key_of(a).data(), 0, int(8 * sizeof(K)), a, r, current_stream());
            return r;
        });
    } else {
        (void)a, (void)key_of;
        return std::nullopt;
    }
#else
    using T = value_t<A>;
    if constexpr (std::is_same_v<A, vector<K>> && std::is_same_v<T, K> && sizeof(K) > 1) {
        (void)key_of;
        if (runtime::observation().current || index_t(a.size()) < radix_run_policy::min_keys) return std::nullopt;
        return labelled("multisplit", a.size(), [&] {
            vector<K> r(a.size(), no_init);
            radix_run_into(a, r);
            return r;
        });
    } else {
        (void)a, (void)key_of;
        return std::nullopt;
    }
#endif
}

} SCANVEC_NAMESPACE_END
