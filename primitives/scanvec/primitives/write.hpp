// scanvec/primitives/write.hpp - writes where several elements may target one position.
//
//   sv::write(dst, idx, vals)                NESL's dst <- {(idx[k], vals[k])}: dst with vals[k]
//                                            written at idx[k] for every k. Where indices repeat,
//                                            exactly one of the values sent there wins; which one
//                                            is unspecified (it may differ between runs and
//                                            backends). A described struct is written whole:
//                                            every field of a position comes from one element.
//   sv::combining_write(dst, idx, vals, op)  the model's combining send: r[j] = dst[j] op v1 op v2 ...
//                                            over every vals[k] with idx[k] == j; op must commute
//                                            (sv::plus, max, min, logical_or/and, bit_or/and/xor,
//                                            or sv::commutative_monoid(op, identity)).
//
// dst is taken by value: `d = sv::write(std::move(d), idx, v)` updates d's own
// memory, and the call costs O(idx.size()) work whatever d's length (a BFS
// level that touches 10 vertices pays for 10). Given an lvalue, dst is copied
// first (O(dst.size())). idx and vals are vectors or lazy views of one length.
//
// Positions not written keep dst's value. Indices out of 0..dst.size()-1
// throw sv::index_error naming the first bad position and its value, before
// anything is written (the caller's dst is unchanged); that check reads idx
// once and waits for the device. With a last argument sv::unchecked (indices
// the program built and knows to be in range), or SCANVEC_CHECKS=0, there is
// no check and no wait, and a bad index is undefined behaviour. Length
// mismatches of idx and vals throw sv::length_error with both lengths.
//
// How they run: docs/design/writes.md.
#pragma once

#include <scanvec/primitives/detail/atomics.hpp>
#include <scanvec/primitives/detail/one_device_only.hpp>
#include <scanvec/primitives/detail/write_policy.hpp>
#include <scanvec/primitives/permute.hpp>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scatter.h>
#include <thrust/sort.h>

#include <cstdint>
#include <limits>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN
namespace detail {

/// k when idx[k] is outside [0, bound), else ~0: reduced with min, the first bad position.
template <class IdxIt> struct position_if_outside {
    IdxIt idx;
    index_t bound;
    SCANVEC_HD unsigned long long operator()(index_t k) const {
        return in_range(static_cast<long long>(idx[k]), bound) ? ~0ull : (unsigned long long)k;
    }
};

/// Throws index_error for the first idx[k] outside [0, bound), before anything is written.
template <class Idx> void expect_targets_in_range(const char* op, const Idx& idx, std::size_t bound) {
#if SCANVEC_CHECKS
    if (idx.empty()) return;
    auto bad = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                               position_if_outside<decltype(reader(idx))>{reader(idx), index_t(bound)});
    const auto first = reduce_n(bad, idx.size(), min<unsigned long long>{}, ~0ull, current_stream());
    if (first != ~0ull) throw_out_of_range(op, idx, first, bound);
#else
    (void)op; (void)idx; (void)bound;
#endif
}

struct to_position {
    template <class J> SCANVEC_HD index_t operator()(const J& j) const { return index_t(j); }
};

/// Pass 1 of a struct write: every writer stores its position at its target; one store stands.
template <class K, class IdxIt> struct elect_writer {
    IdxIt idx;
    K* winner;
    SCANVEC_HD void operator()(index_t k) const { store_relaxed(winner + index_t(idx[k]), K(k)); }
};

/// Pass 2: the elected writer of each target stores its whole element.
template <class K, class IdxIt, class In, class Out> struct write_if_elected {
    IdxIt idx;
    const K* winner;
    In vals;
    Out out;
    SCANVEC_HD void operator()(index_t k) const {
        const index_t j = index_t(idx[k]);
        if (winner[j] == K(k)) out[j] = vals[k];
    }
};

#if defined(SCANVEC_BACKEND_CUDA)
/// Both passes of a small struct write in one block: the barrier between them
/// makes the block's elections visible to all its threads.
template <class K, class IdxIt, class In, class Out>
__global__ void __launch_bounds__(write_policy::elected_block_threads)
    write_elected_one_block(IdxIt idx, In vals, Out out, K* winner, index_t m) {
    const elect_writer<K, IdxIt> elect{idx, winner};
    for (index_t k = index_t(threadIdx.x); k < m; k += index_t(blockDim.x)) elect(k);
    __syncthreads();
    const write_if_elected<K, IdxIt, In, Out> store{idx, winner, vals, out};
    for (index_t k = index_t(threadIdx.x); k < m; k += index_t(blockDim.x)) store(k);
}
#endif

template <class K, class T, class Idx, class V> void write_elected(vector<T>& dst, const Idx& idx, const V& vals) {
    const index_t m = index_t(idx.size());
    auto s = current_stream();
    // no initialisation: every slot pass 2 reads was stored in pass 1
    runtime::scratch winner(dst.size() * sizeof(K));
#if defined(SCANVEC_BACKEND_CUDA)
    if (std::size_t(m) <= write_policy::elected_one_block_max) {
        write_elected_one_block<<<1, write_policy::elected_block_threads, 0, s>>>(reader(idx), reader(vals), writer(dst),
                                                                                 winner.as<K>(), m);
        backend::check_launch("write (elect and write, one block)");
        return;
    }
#endif
    thrust::for_each_n(policy(s), thrust::counting_iterator<index_t>(0), m,
                       elect_writer<K, decltype(reader(idx))>{reader(idx), winner.as<K>()});
    backend::check_launch("write (elect one writer per target)");
    thrust::for_each_n(policy(s), thrust::counting_iterator<index_t>(0), m,
                       write_if_elected<K, decltype(reader(idx)), decltype(reader(vals)), decltype(writer(dst))>{
                           reader(idx), winner.as<K>(), reader(vals), writer(dst)});
    backend::check_launch("write (elected writers)");
}

/// out[idx[k]] = out[idx[k]] op vals[k], atomically.
template <class T, class Op, class IdxIt, class In> struct combine_at {
    IdxIt idx;
    In vals;
    T* out;
    Op op;
    SCANVEC_HD void operator()(index_t k) const { atomic_combine(out + index_t(idx[k]), T(vals[k]), op); }
};

/// out[key[u]] = dst[key[u]] op sums[u] for each distinct target u.
template <class Op, class KeyIt, class SumIt, class In, class Out> struct combine_run {
    KeyIt keys;
    SumIt sums;
    In dst;
    Out out;
    Op op;
    SCANVEC_HD void operator()(index_t u) const {
        const index_t j = keys[u];
        out[j] = op(dst[j], sums[u]);
    }
};

/// The combining write by sorting: writes ordered by target, each run reduced, then combined into dst.
template <class T, class Idx, class V, class Op>
void combine_by_sorting(vector<T>& dst, const Idx& idx, const V& vals, Op op) {
    const std::size_t m = idx.size();
    auto s = current_stream();
    vector<index_t> targets = materialize(lazy::map(to_position{}, idx));
    vector<index_t> order = materialize(lazy::index(m));
    thrust::sort_by_key(policy(s), targets.begin(), targets.end(), order.begin());
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
                                   decltype(writer(dst))>{keys.data(), reader(sums), reader(dst), writer(dst), op});
    backend::check_launch("combining_write (combine into dst)");
}

template <class Idx, class V> void expect_write_arguments(const char* op, const Idx& idx, const V& vals) {
    static_assert(std::is_integral_v<value_t<Idx>>, "sv::write / sv::combining_write: idx must hold integers");
    expect_same_length(op, idx.size(), vals.size());
}

}  // namespace detail

namespace detail {

/// The writes themselves, indices already known to be in range.
template <class T, bool S, class Idx, class V> void write_into(vector<T, S>& dst, const Idx& idx, const V& vals) {
    if (idx.empty()) return;
    if constexpr (S) {  // one writer per target stores every field
        if (idx.size() <= std::numeric_limits<std::uint32_t>::max()) write_elected<std::uint32_t>(dst, idx, vals);
        else write_elected<std::uint64_t>(dst, idx, vals);
    } else {  // one store per element: one of them stands
        auto v = reader(vals);
        thrust::scatter(policy(current_stream()), v, v + idx.size(), reader(idx), writer(dst));
        backend::check_launch("write");
    }
}

template <class T, bool S, class Idx, class V, class Op>
void combine_into(vector<T, S>& dst, const Idx& idx, const V& vals, Op op) {
    if (idx.empty()) return;
    if constexpr (has_atomic_combine_v<T>) {
        using Combine = combine_at<T, Op, decltype(reader(idx)), decltype(reader(vals))>;
        thrust::for_each_n(policy(current_stream()), thrust::counting_iterator<index_t>(0), index_t(idx.size()),
                           Combine{reader(idx), reader(vals), dst.data(), op});
        backend::check_launch("combining_write (atomic)");
    } else {
        combine_by_sorting(dst, idx, vals, op);
    }
}

template <class T, class V> constexpr void expect_written_values() {
    static_assert(std::is_convertible_v<value_t<V>, T>,
                  "sv::write / sv::combining_write: vals must convert to dst's elements");
}
template <class Op> constexpr void expect_commutative() {
    static_assert(is_commutative_v<Op>,
                  "sv::combining_write(dst, idx, vals, op): op must commute (sv::plus, sv::max, sv::min, "
                  "sv::logical_or, sv::bit_or, ... or sv::commutative_monoid(op, identity))");
}

}  // namespace detail

/// dst with vals[k] written at idx[k] for every k; where indices repeat, one of
/// the values sent there wins (unspecified which; a struct is written whole).
/// O(idx.size()) work on dst's own memory when dst is moved in, one step; checked,
/// it waits for the device (the index check's verdict).
template <class T, bool S, class Idx, class V> vector<T, S> write(vector<T, S> dst, const Idx& idx, const V& vals) {
    detail::expect_written_values<T, V>();
    return detail::labelled("write", idx.size(), [&] {
        detail::expect_write_arguments("write", idx, vals);
        detail::expect_targets_in_range("write", idx, dst.size());
        detail::write_into(dst, idx, vals);
        return std::move(dst);
    }, idx, vals);
}

/// The same for indices the caller guarantees to lie in 0..dst.size()-1 (built
/// by the program, as a pack of checked targets): no check, no wait.
template <class T, bool S, class Idx, class V>
vector<T, S> write(vector<T, S> dst, const Idx& idx, const V& vals, unchecked_t) {
    detail::expect_written_values<T, V>();
    return detail::labelled("write", idx.size(), [&] {
        detail::expect_write_arguments("write", idx, vals);
        detail::write_into(dst, idx, vals);
        return std::move(dst);
    }, idx, vals);
}

/// r[j] = dst[j] op (every vals[k] with idx[k] == j); op associative and commutative.
/// O(idx.size()) work on dst's own memory when dst is moved in, one step; it
/// waits for the device (the index check's verdict).
template <class T, bool S, class Idx, class V, class Op>
vector<T, S> combining_write(vector<T, S> dst, const Idx& idx, const V& vals, Op op) {
    detail::expect_commutative<Op>();
    detail::expect_written_values<T, V>();
    return detail::labelled("combining_write", idx.size(), [&] {
        detail::expect_write_arguments("combining_write", idx, vals);
        detail::expect_targets_in_range("combining_write", idx, dst.size());
        detail::combine_into(dst, idx, vals, op);
        return std::move(dst);
    }, idx, vals);
}

/// The same for indices the caller guarantees to lie in 0..dst.size()-1: no check, no wait.
template <class T, bool S, class Idx, class V, class Op>
vector<T, S> combining_write(vector<T, S> dst, const Idx& idx, const V& vals, Op op, unchecked_t) {
    detail::expect_commutative<Op>();
    detail::expect_written_values<T, V>();
    return detail::labelled("combining_write", idx.size(), [&] {
        detail::expect_write_arguments("combining_write", idx, vals);
        detail::combine_into(dst, idx, vals, op);
        return std::move(dst);
    }, idx, vals);
}

// A sv::dist::vector given to these: one error that names sv::dist::<name> (detail/one_device_only.hpp).
SCANVEC_DETAIL_ONE_DEVICE_ONLY(write, dist::vector<T>)
SCANVEC_DETAIL_ONE_DEVICE_ONLY(combining_write, dist::vector<T>)

SCANVEC_NAMESPACE_END
