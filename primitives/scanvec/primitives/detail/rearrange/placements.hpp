// scanvec/primitives/detail/rearrange/placements.hpp - the placements behind
// the rearranging calls: default and flag permutes, merges by flags, rank,
// extract and replace.
#pragma once

#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/detail/common/one_device_only.hpp>
#include <scanvec/primitives/detail/permute/placement.hpp>
#include <scanvec/primitives/detail/sort/dispatch.hpp>

#include <string>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// a[i] < a[j], for sorting positions of any type with operator<.
template <class T, class It> struct less_at {
    It a;
    SCANVEC_HD bool operator()(index_t i, index_t j) const { return T(a[i]) < T(a[j]); }
};

/// The positions of a in stable ascending order: order[j] = position of the j-th smallest.
template <class A> vector<index_t> sorted_order(const A& a) {
    using T = value_t<A>;
    const std::size_t n = a.size();
    vector<index_t> order = materialize(lazy::index(n));
    if (n < 2) return order;
    auto s = current_stream();
    if constexpr (std::is_arithmetic_v<T>) {
        vector<T> keys = materialize(a);  // radix sort of (key, position) pairs
        stable_sort_pairs(keys.begin(), keys.end(), order.begin(), s);
    } else {  // merge sort of positions by the elements' operator<
        stable_sort_by(order.begin(), order.end(), less_at<T, decltype(reader(a))>{reader(a)}, s);
    }
    backend::check_launch("rank (sort)");
    return order;
}

/// The next element of a or of b, chosen by the flag; down[i] = false flags before i.
template <class T, class FIt, class AIt, class BIt> struct merge_pick {
    FIt f;
    const index_t* down;
    AIt a;
    BIt b;
    SCANVEC_HD T operator()(index_t i) const { return f[i] ? T(b[i - down[i]]) : T(a[down[i]]); }
};

/// r[i] = f[i] ? b[i - down[i]] : a[down[i]], where down holds n + 1 counts of false flags.
template <class T, class F, class A, class B> vector<T> merge_by_flags(const F& f, const vector<index_t>& down, const A& a, const B& b) {
    const std::size_t n = f.size();
    vector<T> r(n, no_init);
    if (n) {
        using Pick = merge_pick<T, decltype(reader(f)), decltype(reader(a)), decltype(reader(b))>;
        thrust::transform(policy(current_stream()), thrust::counting_iterator<index_t>(0),
                          thrust::counting_iterator<index_t>(index_t(n)), writer(r),
                          Pick{reader(f), down.data(), reader(a), reader(b)});
        backend::check_launch("flag_merge");
    }
    return r;
}

/// n + 1 values: the number of false flags before each position, then the total.
template <class F> vector<index_t> count_false_before(const F& f) {
    const std::size_t n = f.size();
    vector<index_t> down(n + 1, no_init);
    down.set(0, 0);
    inclusive_scan_n(map_iterator(flag_not_to_count{}, f), n, down.begin() + 1, plus<index_t>{}, current_stream());
    return down;
}

template <class Idx> [[noreturn]] void throw_flat_placement(const char* op, const placement_fault& fault, const Idx& idx,
                                                           std::size_t n) {
    if (fault.element >= 0)
        throw index_error(std::string(op) + ": index idx[" + std::to_string(fault.element) + "] = " +
                          std::to_string((long long)element_at(idx, fault.element)) + " is out of range for length " +
                          std::to_string(n));
    throw index_error(std::string(op) + ": position " + std::to_string(fault.target) +
                      " of the result is written twice; idx must not repeat");
}

}  SCANVEC_NAMESPACE_END  // detail
