// scanvec/primitives/permute.hpp - permute (scatter) and back_permute (gather).
//
//   sv::permute(a, idx)        r[idx[i]] = a[i]   idx a permutation of 0..n-1
//   sv::back_permute(a, idx)   r[i] = a[idx[i]]   r.size() == idx.size()
//
// With checks on (SCANVEC_CHECKS, the default) bad indices (out of range,
// and for permute repeated) throw sv::index_error naming the position and the
// value, and nothing the caller holds is changed; a checked call waits for the
// device to read its verdict. With checks off bad indices are undefined
// behaviour and the calls only queue work. How the checks run and what they
// cost: docs/design/permutes.md.
#pragma once

#include <scanvec/primitives/detail/atomics.hpp>
#include <scanvec/primitives/detail/one_device_only.hpp>
#include <scanvec/primitives/detail/permutation_fingerprint.hpp>
#if defined(SCANVEC_BACKEND_CUDA)
#  include <scanvec/primitives/detail/permute_fused_check.hpp>
#  include <scanvec/primitives/detail/permute_grouped.hpp>
#endif
#include <scanvec/primitives/detail/permute_omp.hpp>
#include <scanvec/primitives/detail/scan_dispatch.hpp>
#include <scanvec/primitives/elementwise.hpp>
#include <scanvec/runtime/interop.hpp>

#include <thrust/find.h>
#include <thrust/for_each.h>
#include <thrust/gather.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scatter.h>
#include <thrust/transform.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>

SCANVEC_NAMESPACE_BEGIN
namespace detail {

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
        auto it = reader(idx);
        auto same = [&](std::size_t from) {
            return std::size_t(thrust::find(policy(s), it + from, it + m, value) - it);
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

}  // namespace detail

/// Tag: the caller guarantees the indices (a program that builds them from a
/// scan, as split does); the validation pass is skipped.
struct unchecked_t {};
inline constexpr unchecked_t unchecked{};

namespace detail {

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

/// On the host with more threads than bitmaps of their own: up to this many
/// elements permute checks inside its scatter with a shared bitmap; past it the
/// bitmap falls out of the caches and idx is checked by its fingerprint first
/// (docs/design/permutes.md). CUDA checks in one launch at any size.
inline constexpr std::size_t fused_permute_check_max = std::size_t(1) << 25;

/// permute's check: the parity bitmap, the first out-of-range position, and
/// the verdict, read back once.
template <class Idx> class permutation_check {
public:
    permutation_check(const Idx& idx, std::size_t n)
        : idx_(idx), n_(n), words_((n + 31) / 32), s_(current_stream()),
          state_(2 * sizeof(unsigned long long) + words_ * sizeof(unsigned)) {
        backend::fill_bytes(result(), 0xff, sizeof(unsigned long long), s_, "permute (index check init)");
        backend::fill_zero(parity(), words_ * sizeof(unsigned), s_, "permute (index check init)");
    }
    flip_target<decltype(reader(std::declval<const Idx&>()))> flipper() const {
        return {reader(idx_), index_t(n_), parity(), result()};
    }
    stream_t stream() const { return s_; }
    /// Throws index_error for the first out-of-range index, else for the first repeat.
    void verdict() const {
        backend::check_launch("permute");
        auto unfilled = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                        word_unfilled{parity(), index_t(n_)});
        reduce_into(unfilled, words_, plus<unsigned long long>{}, 0ull, result() + 1, s_);
        unsigned long long bad[2];
        backend::read_small(bad, result(), sizeof(bad), s_, "permute (index check result)");
        if (bad[0] != ~0ull) throw_out_of_range("permute", idx_, bad[0], n_);
        if (bad[1] != 0) {  // a target missed: find and name the first repeat exactly
            check_indices("permute", idx_, n_, true);
            throw index_error("permute: idx is not a permutation");  // (check_indices has thrown)
        }
    }

private:
    // state: [0] first out-of-range position (~0: none), [1] parity words with a clear bit, then the bits
    unsigned long long* result() const { return state_.as<unsigned long long>(); }
    unsigned* parity() const { return reinterpret_cast<unsigned*>(result() + 2); }
    const Idx& idx_;
    std::size_t n_, words_;
    stream_t s_;
    runtime::scratch state_;
};


/// The fingerprint of the n indices read through it (one reduce, waits for it).
template <class It> permutation_fingerprint fingerprint_of(It it, std::size_t n) {
    const auto& x = fingerprint_points();
    auto factors = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                   fingerprint_factors<It>{it, index_t(n), {x[0], x[1]}});
    return reduce_n(factors, n, fingerprint_product{}, fingerprint_product::identity(), current_stream());
}

/// Throws index_error unless idx (length n) is a permutation of 0..n-1: the
/// first out-of-range position, else the first repeat. One pass over idx and
/// one value read back; the exact search for a repeat runs only on failure.
template <class Idx> void expect_permutation(const char* op, const Idx& idx, std::size_t n) {
    if (n == 0) return;
    const auto f = fingerprint_of(reader(idx), n);
    if (f.first_bad != ~0ull) throw_out_of_range(op, idx, f.first_bad, n);
    if (!f.permutation()) {
        check_indices(op, idx, n, true);  // names the first repeat
        throw index_error(std::string(op) + ": idx is not a permutation");  // (check_indices has thrown)
    }
}

/// The checked permute into r (a vector or an output's target).
template <class A, class Idx, class R> void permute_into(const A& a, const Idx& idx, R& r) {
    const std::size_t n = a.size();
    if (n == 0) return;
#if SCANVEC_CHECKS
    if constexpr (permute_checks_by_threads) {  // the host: a bitmap per thread (detail/permute_omp.hpp)
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

/// The checked back_permute into r (a vector or an output's target).
template <class A, class Idx, class R> void back_permute_into(const A& a, const Idx& idx, R& r) {
    if (idx.empty()) return;
    auto i = reader(idx);
    [[maybe_unused]] auto s = current_stream();
#if SCANVEC_CHECKS
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
    thrust::gather(policy(s), i, i + idx.size(), reader(a), writer(r));
    backend::check_launch("back_permute");
#endif
}

template <class Idx> void expect_indices() {
    static_assert(std::is_integral_v<value_t<Idx>>, "sv::permute / sv::back_permute (a, idx): idx must hold integers");
}

}  // namespace detail

/// r[idx[i]] = a[i]; idx must be a permutation of 0..n-1 (not checked: bad
/// indices are undefined behaviour). O(n) work, O(1) steps; only queues work.
template <class A, class Idx> vector<value_t<A>> permute(const A& a, const Idx& idx, unchecked_t) {
    detail::expect_indices<Idx>();
    return detail::labelled("permute", a.size(), [&] {
        detail::expect_same_length("permute", a.size(), idx.size());
        vector<value_t<A>> r(a.size(), no_init);
        detail::scatter_into(a, idx, r);
        return r;
    }, a, idx);
}

/// r[idx[i]] = a[i]; idx must be a permutation of 0..n-1. O(n) work, O(1) steps.
/// Checked (unless SCANVEC_CHECKS=0): sv::index_error on a bad index, and the
/// call waits for the device to read the check's verdict.
template <class A, class Idx> vector<value_t<A>> permute(const A& a, const Idx& idx) {
    detail::expect_indices<Idx>();
    return detail::labelled("permute", a.size(), [&] {
        detail::expect_same_length("permute", a.size(), idx.size());
        vector<value_t<A>> r(a.size(), no_init);
        detail::permute_into(a, idx, r);
        return r;
    }, a, idx);
}

/// r[i] = a[idx[i]]; every idx value in 0..a.size()-1; r.size() == idx.size().
/// O(n) work, O(1) steps. Checked (unless SCANVEC_CHECKS=0): sv::index_error
/// on an index out of range, and the call waits for the device to read it.
template <class A, class Idx> vector<value_t<A>> back_permute(const A& a, const Idx& idx) {
    detail::expect_indices<Idx>();
    return detail::labelled("back_permute", idx.size(), [&] {
        vector<value_t<A>> r(idx.size(), no_init);
        detail::back_permute_into(a, idx, r);
        return r;
    }, a, idx);
}

/// permute and back_permute written into the caller's memory (sv::into): out
/// holds the result's length (a.size(), idx.size()) of a's type and does not
/// overlap the inputs. Checked as above; return out's view of the result.
template <class A, class Idx, class S> S permute(const A& a, const Idx& idx, output<S> out) {
    detail::expect_indices<Idx>();
    return detail::labelled("permute", a.size(), [&] {
        detail::expect_same_length("permute", a.size(), idx.size());
        detail::check_output<value_t<A>>("permute", out, a.size());
        detail::permute_into(a, idx, out.target);
        return out.target;
    }, a, idx);
}
template <class A, class Idx, class S> S back_permute(const A& a, const Idx& idx, output<S> out) {
    detail::expect_indices<Idx>();
    return detail::labelled("back_permute", idx.size(), [&] {
        detail::check_output<value_t<A>>("back_permute", out, idx.size());
        detail::back_permute_into(a, idx, out.target);
        return out.target;
    }, a, idx);
}

namespace lazy {
/// r[i] = a[idx[i]], read when consumed (no bounds check: the gather happens inside the consumer).
template <class A, class Idx> auto back_permute(const A& a, const Idx& idx) {
    return view(thrust::make_permutation_iterator(detail::reader(a), detail::reader(idx)), idx.size());
}
}  // namespace lazy

// A sv::dist::vector given to these: one error that names sv::dist::<name> (detail/one_device_only.hpp).
SCANVEC_DETAIL_ONE_DEVICE_ONLY(permute, dist::vector<T>)
SCANVEC_DETAIL_ONE_DEVICE_ONLY(back_permute, dist::vector<T>)

SCANVEC_NAMESPACE_END
