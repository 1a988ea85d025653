// scanvec/primitives/detail/write/generic.hpp - the writes on both backends:
// a scatter; a struct's write in two passes (every writer stores its position
// at its target, then the one that stands stores its whole element); the
// combining write by atomics, or by sorting the writes by target where the
// element has no atomic (docs/design/writes.md). A target out of range writes
// nothing (a deferred check's guard: the check stored its error for later).
#pragma once

#include <scanvec/primitives/detail/common/atomics.hpp>
#include <scanvec/primitives/detail/common/live.hpp>
#include <scanvec/primitives/detail/permute/fingerprint.hpp>
#include <scanvec/primitives/detail/sort/dispatch.hpp>
#include <scanvec/primitives/elementwise.hpp>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/reduce.h>

SCANVEC_NAMESPACE_BEGIN namespace detail {

struct to_position {
    template <class J> SCANVEC_HD index_t operator()(const J& j) const { return index_t(j); }
};

/// Pass 1 of a struct write: every writer stores its position at its target
/// (a target out of 0..bound-1 stores nothing); one store stands.
template <class K, class IdxIt> struct elect_writer {
    IdxIt idx;
    K* winner;
    index_t bound;
    SCANVEC_HD void operator()(index_t k) const {
        const auto j = static_cast<long long>(idx[k]);
        if (in_range(j, bound)) store_relaxed(winner + index_t(j), K(k));
    }
};

/// Pass 2: the elected writer of each target stores its whole element.
template <class K, class IdxIt, class In, class Out> struct write_if_elected {
    IdxIt idx;
    const K* winner;
    In vals;
    Out out;
    index_t bound;
    SCANVEC_HD void operator()(index_t k) const {
        const auto j = static_cast<long long>(idx[k]);
        if (in_range(j, bound) && winner[j] == K(k)) out[j] = vals[k];
    }
};

/// out[idx[k]] = vals[k] where idx[k] lies in 0..bound-1, else k min-reduced
/// into first_bad when given (a deferred check in the write's own pass).
template <class IdxIt, class In, class Out> struct scatter_in_range {
    IdxIt idx;
    In vals;
    Out out;
    index_t bound;
    unsigned long long* first_bad;
    SCANVEC_HD void operator()(index_t k) const {
        const auto j = static_cast<long long>(idx[k]);
        if (in_range(j, bound)) out[j] = vals[k];
        else if (first_bad) atomic_min(first_bad, (unsigned long long)k);
    }
};

/// Both passes over the whole grid (with live, the positions below *live);
/// winner has room for dst.size() positions.
template <class K, class T, class Idx, class V>
void write_elected_passes(vector<T>& dst, const Idx& idx, const V& vals, K* winner, const index_t* live, stream_t s) {
    const index_t bound = index_t(dst.size());
    for_each_position(idx.size(), elect_writer<K, decltype(reader(idx))>{reader(idx), winner, bound}, live, s,
                      "write (elect one writer per target)");
    for_each_position(idx.size(),
                      write_if_elected<K, decltype(reader(idx)), decltype(reader(vals)), decltype(writer(dst))>{
                          reader(idx), winner, reader(vals), writer(dst), bound},
                      live, s, "write (elected writers)");
}

/// out[idx[k]] = out[idx[k]] op vals[k], atomically; a target out of
/// 0..bound-1 combines nothing (and with first_bad, a deferred check, its k
/// is min-reduced there).
template <class T, class Op, class IdxIt, class In> struct combine_at {
    IdxIt idx;
    In vals;
    T* out;
    Op op;
    index_t bound;
    unsigned long long* first_bad;
    SCANVEC_HD void operator()(index_t k) const {
        const auto j = static_cast<long long>(idx[k]);
        if (in_range(j, bound)) atomic_combine(out + index_t(j), T(vals[k]), op);
        else if (first_bad) atomic_min(first_bad, (unsigned long long)k);
    }
};

/// Zeroes the bytes between the end of n elements at p and the next 4-byte
/// boundary: a 1- or 2-byte compare-and-swap on CUDA reads its whole aligned
/// word, and the word holding the last element must hold no undefined bytes
/// (compute-sanitizer's initcheck reports them; the swap keeps them as they
/// were). They lie in p's own 256-byte block, past every element.
template <class T> void define_word_past_end(T* p, std::size_t n, stream_t s) {
    const auto end = reinterpret_cast<std::uintptr_t>(p + n);
    if (n == 0 || end % 4 == 0) return;
    backend::fill_zero(p + n, 4 - end % 4, s, "combining_write (the last element's word)");
}

/// out[key[u]] = dst[key[u]] op sums[u] for each distinct target u (in 0..bound-1).
template <class Op, class KeyIt, class SumIt, class In, class Out> struct combine_run {
    KeyIt keys;
    SumIt sums;
    In dst;
    Out out;
    Op op;
    index_t bound;
    SCANVEC_HD void operator()(index_t u) const {
        const index_t j = keys[u];
        if (in_range(j, bound)) out[j] = op(dst[j], sums[u]);
    }
};

/// A target, or bound for one out of 0..bound-1 (sorted past every good one).
struct position_or_bound {
    index_t bound;
    template <class J> SCANVEC_HD index_t operator()(const J& j) const {
        return in_range(static_cast<long long>(j), bound) ? index_t(j) : bound;
    }
};

/// The combining write by sorting: writes ordered by target, each run reduced, then combined into dst.
template <class T, class Idx, class V, class Op>
void combine_by_sorting(vector<T>& dst, const Idx& idx, const V& vals, Op op) {
    const std::size_t m = idx.size();
    auto s = current_stream();
    vector<index_t> targets = materialize(lazy::map(position_or_bound{index_t(dst.size())}, idx));
    vector<index_t> order = materialize(lazy::index(m));
    sort_pairs(targets.begin(), targets.end(), order.begin(), s);
    backend::check_launch("combining_write (sort by target)");
    vector<index_t> keys(m, no_init);
    vector<T> sums(m, no_init);
    auto sorted_vals = thrust::make_permutation_iterator(reader(vals), order.data());
    auto ends = thrust::reduce_by_key(policy(s), targets.begin(), targets.end(), sorted_vals, keys.begin(),
                                      writer(sums), thrust::equal_to<index_t>{}, op);
    backend::check_launch("combining_write (reduce each target's values)");
    const index_t runs = index_t(ends.first - keys.begin());
    thrust::for_each_n(policy(s), thrust::counting_iterator<index_t>(0), runs,
                       combine_run<Op, const index_t*, decltype(reader(sums)), decltype(reader(dst)),
                                   decltype(writer(dst))>{keys.data(), reader(sums), reader(dst), writer(dst), op,
                                                          index_t(dst.size())});
    backend::check_launch("combining_write (combine into dst)");
}

} SCANVEC_NAMESPACE_END
