// scanvec/primitives/detail/permute/checks.hpp - what permute and
// back_permute check, and the functors that check as they move: the first
// index out of range, the first repeat, the error that names them.
#pragma once

#include <scanvec/primitives/detail/common/atomics.hpp>
#include <scanvec/primitives/detail/common/first_where.hpp>
#include <scanvec/primitives/detail/permute/fingerprint.hpp>
#include <scanvec/primitives/detail/scan/dispatch.hpp>
#include <scanvec/primitives/elementwise.hpp>

#include <thrust/for_each.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdint>
#include <string>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// Records the first position whose index is out of range (and, for permute,
/// the first position whose index was already taken), in one pass.
template <class IdxIt> struct index_checker {
    IdxIt idx;
    index_t bound;
    unsigned* taken;                 // one bit per target, or null when repeats are allowed
    unsigned long long* first_bad;   // [0] out of range, [1] repeated
    SCANVEC_HD void operator()(index_t i) const {
        const auto j = static_cast<long long>(idx[i]);
        if (!in_range(j, bound)) {
            atomic_min(&first_bad[0], (unsigned long long)i);
        } else if (taken) {
            unsigned bit = 1u << (j & 31);
            if (atomic_fetch_or(&taken[j >> 5], bit) & bit) atomic_min(&first_bad[1], (unsigned long long)i);
        }
    }
};

template <class Idx> [[noreturn]] void throw_out_of_range(const char* op, const Idx& idx, std::size_t at, std::size_t bound) {
    throw index_error(std::string(op) + ": index idx[" + std::to_string(at) + "] = " +
                      std::to_string(static_cast<long long>(element_at(idx, at))) + " is out of range for length " +
                      std::to_string(bound));
}

/// r[i] = a[idx[i]], recording the first i whose index is out of range (and
/// reading nothing for it): the gather and its bounds check in one pass.
template <class T, class AIt> struct checked_gather {
    AIt a;
    index_t bound;
    unsigned long long* first_bad;
    template <class J> SCANVEC_HD T operator()(J j, index_t i) const {
        const auto k = static_cast<long long>(j);
        if (in_range(k, bound)) return a[k];
        atomic_min(first_bad, (unsigned long long)i);
        return T{};
    }
};

/// out[i] = a[idx[i]], or T{} with i recorded when idx[i] is out of range
/// (checked_gather as a pass over the positions).
template <class T, class AIt, class IdxIt, class Out> struct gather_checked_at {
    IdxIt idx;
    Out out;
    checked_gather<T, AIt> gather;
    SCANVEC_HD void operator()(index_t i) const { out[i] = gather(idx[i], i); }
};

/// Flips the bit of target idx[i] in parity and returns the target, or records
/// i as out of range and returns -1.
template <class IdxIt> struct flip_target {
    IdxIt idx;
    index_t bound;
    unsigned* parity;                  // one bit per target
    unsigned long long* out_of_range;  // the first position with a bad index
    SCANVEC_HD long long operator()(index_t i) const {
        const auto j = static_cast<long long>(idx[i]);
        if (!in_range(j, bound)) {
            atomic_min(out_of_range, (unsigned long long)i);
            return -1;
        }
        atomic_flip(&parity[j >> 5], 1u << (j & 31));
        return j;
    }
};

/// flip_target, then out[idx[i]] = a[i] for an index in range: check and move in one pass.
template <class IdxIt, class In, class Out> struct scatter_flipping {
    flip_target<IdxIt> flip;
    In a;
    Out out;
    SCANVEC_HD void operator()(index_t i) const {
        const long long j = flip(i);
        if (j >= 0) out[j] = a[i];
    }
};

/// 1 for a parity word with a clear bit among the first n (bits past n are never flipped).
struct word_unfilled {
    const unsigned* parity;
    index_t n;
    SCANVEC_HD unsigned long long operator()(index_t w) const {
        const index_t rest = n - 32 * w;
        const unsigned full = rest >= 32 ? ~0u : (1u << rest) - 1u;
        return parity[w] != full;
    }
};

/// Whether idx[from + k] is value (the search for a repeated index's positions).
template <class It> struct holds_at {
    It idx;
    index_t from;
    index_t value;
    SCANVEC_HD bool operator()(index_t k) const { return index_t(idx[from + k]) == value; }
};

template <class Idx> void check_indices(const char* op, const Idx& idx, std::size_t bound, bool unique) {
#if SCANVEC_CHECKS
    const std::size_t m = idx.size();
    if (m == 0) return;
    auto s = current_stream();
    const std::size_t words = unique ? (bound + 31) / 32 : 0;
    runtime::scratch state(2 * sizeof(unsigned long long) + words * sizeof(unsigned));
    auto* first_bad = state.as<unsigned long long>();
    unsigned* taken = unique ? reinterpret_cast<unsigned*>(first_bad + 2) : nullptr;
    backend::fill_bytes(first_bad, 0xff, 2 * sizeof(unsigned long long), s, "index check (init)");  // ~0: none yet
    if (words) backend::fill_zero(taken, words * sizeof(unsigned), s, "index check (init)");
    thrust::for_each_n(policy(s), thrust::counting_iterator<index_t>(0), m,
                       index_checker<decltype(reader(idx))>{reader(idx), index_t(bound), taken, first_bad});
    backend::check_launch(op);
    unsigned long long bad[2];
    backend::read_small(bad, first_bad, sizeof(bad), s, "index check (result)");
    if (bad[0] != ~0ull) throw_out_of_range(op, idx, bad[0], bound);
    if (bad[1] != ~0ull) {  // name the value and its first two positions (deterministic)
        const auto value = element_at(idx, bad[1]);
        auto same = [&](std::size_t from) {
            return from + std::size_t(first_index_where(holds_at<decltype(reader(idx))>{reader(idx), index_t(from), value},
                                                        m - from, s));
        };
        const std::size_t first = same(0), second = same(first + 1);
        throw index_error(std::string(op) + ": index " + std::to_string(static_cast<long long>(value)) +
                          " repeats in idx (at idx[" + std::to_string(first) + "] and idx[" +
                          std::to_string(second) + "]); idx must be a permutation");
    }
#else
    (void)op; (void)idx; (void)bound; (void)unique;
#endif
}

template <class Idx> void expect_indices() {
    static_assert(std::is_integral_v<value_t<Idx>>, "sv::permute / sv::back_permute (a, idx): idx must hold integers");
}

} SCANVEC_NAMESPACE_END
