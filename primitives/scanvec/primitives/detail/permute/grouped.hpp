// scanvec/primitives/detail/permute/grouped.hpp - a large permute as a multisplit by the targets' top bits, then a scatter (CUDA).
//
//   permute(A, I) = permute(A', I')   where (I', A') = multisplit((I, A), top bits of I)
//
// Scattered straight to random places of a result larger than the L2 cache,
// nearly every element costs a DRAM sector of its own. Grouped first by the
// top bits of their targets (one onesweep pass of CUB's radix sort over those
// bits, the elements riding along as values), the pairs of one group land in
// one window of the result, which stays in the cache while the group is
// written. Taken for arithmetic elements when the result is larger than the
// device's L2 and the pairs' memory can be had; otherwise nothing is done and
// the caller scatters directly. Measurements: docs/design/permutes.md.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/permute/policy.hpp>
#include <scanvec/primitives/detail/common/radix_digit_view.hpp>
#include <scanvec/primitives/detail/scan/dispatch.hpp>
#include <scanvec/primitives/elementwise.hpp>

#include <cub/device/device_radix_sort.cuh>

#include <optional>
#include <utility>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// How many top bits of its places cut a result of `bytes` into windows of
/// about grouped_window_bytes, at most max_bits; 0 (scatter directly) when
/// the result fits the L2.
inline int window_bits(std::size_t bytes, int max_bits) {
    int bits = 0;
    while (bits < max_bits && (bytes >> bits) > permute_policy::grouped_window_bytes) ++bits;
    if (bits == 0 || bytes <= backend::l2_cache_bytes("permute (cudaDeviceGetAttribute)")) return 0;
    return bits;
}

/// The bit range [lo, hi) of the targets 0..n-1 to group by; lo == hi: scatter directly.
template <class T> std::pair<int, int> grouping_bits(std::size_t n) {
    const int hi = bits_for(index_t(n));  // the targets 0..n-1
    const int bits = window_bits(n * sizeof(T), permute_policy::grouped_max_bits);
    return {hi > bits ? hi - bits : 0, hi};
}

/// The pairs (idx[i], a[i]) grouped by the top bits of their targets, in scratch memory.
template <class I, class T> struct grouped_pairs {
    runtime::scratch targets, values;
    const I* target() const { return targets.as<const I>(); }
    const T* value() const { return values.as<const T>(); }
};

/// (I', A'): a's elements with their targets idx, stably grouped by the top
/// bits of the targets; nothing when the direct scatter is the one to take
/// (elements that are not arithmetic, a result that fits the L2, or not
/// enough memory for the pairs).
template <class A, class Idx> auto group_by_target(const A& a, const Idx& idx) {
    using T = value_t<A>;
    using I = std::remove_cv_t<value_t<Idx>>;
    using result = std::optional<grouped_pairs<I, T>>;
    if constexpr (!std::is_arithmetic_v<T> || !std::is_integral_v<I> || sizeof(I) < 4 ||
                  !std::is_pointer_v<decltype(reader(a))>) {
        return result{};
    } else {
        const std::size_t n = a.size();
        const std::pair<int, int> bits = grouping_bits<T>(n);
        const int lo = bits.first, hi = bits.second;
        if (lo == hi) return result{};
        try {
            grouped_pairs<I, T> g{runtime::scratch(n * sizeof(I)), runtime::scratch(n * sizeof(T))};
            vector<I> materialized;  // a lazy idx is read once, into keys CUB can take
            const I* keys = nullptr;
            if constexpr (std::is_pointer_v<decltype(reader(idx))>) keys = reader(idx);
            else { materialized = materialize(idx); keys = materialized.data(); }
            const auto s = current_stream();
            cub_run("permute (grouping by target: cub::DeviceRadixSort)", [&](void* t, std::size_t& b) {
                return cub::DeviceRadixSort::SortPairs(t, b, keys, g.targets.template as<I>(), reader(a),
                                                       g.values.template as<T>(), n, lo, hi, s);
            });
            return result{std::move(g)};
        } catch (const out_of_memory&) {  // the direct scatter needs no more memory than its result
            return result{};
        }
    }
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
