// scanvec/primitives/detail/pack/generic.hpp - pack on both backends: a scan
// of the flags (the count at its end), then one scatter that reads them again.
// The flag functors serve enumerate and count too.
#pragma once

#include <scanvec/primitives/detail/scan/dispatch.hpp>
#include <scanvec/primitives/detail/scan/policy.hpp>
#include <scanvec/primitives/elementwise.hpp>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// out[index[i]] = in[i] where flag[i] is set; position 0 also stores the
/// count (index[n]) at *count when count is given (pinned memory the host reads after a wait).
template <class In, class F, class Out> struct pack_scatter {
    In in;
    F flag;
    const index_t* index;
    Out out;
    index_t n;
    index_t* count;
    SCANVEC_HD void operator()(index_t i) const {
        if (flag[i]) out[index[i]] = in[i];
        if (i == 0 && count) *count = index[n];
    }
};

struct flag_to_count {
    template <class F> SCANVEC_HD index_t operator()(const F& f) const { return f ? 1 : 0; }
};
struct flag_not_to_count {
    template <class F> SCANVEC_HD index_t operator()(const F& f) const { return f ? 0 : 1; }
};
struct is_set {
    template <class F> SCANVEC_HD bool operator()(const F& f) const { return f ? true : false; }
};

/// A pack's result when the count is read last: room for all n elements,
/// move(r, count) queues the work that fills it and stores the count in this
/// thread's pinned result buffer, then one wait and the result cut to the count.
template <class T, class Move> vector<T> packed_count_last(std::size_t n, stream_t s, Move move) {
    auto* count = static_cast<index_t*>(backend::result_buffer());
    vector<T> r(n, no_init);
    move(r, count);
    backend::synchronize(s, "pack (count)");
    r.resize(std::size_t(*count));
    return r;
}

/// Index = enumerate(Flags) over n flags, with the count at Index[n].
template <class Flags> vector<index_t> pack_positions(const Flags& flags, std::size_t n, stream_t s) {
    vector<index_t> index(n + 1, no_init);
    exclusive_scan_with_total_n(reader(lazy::map(flag_to_count{}, flags)), n, index.data(), plus<index_t>{},
                                index_t(0), s);
    return index;
}

/// Permutes the flagged elements of a (n = a.size()) to their Index in r, and
/// stores the count at *count when count is given.
template <class A, class Flags, class R>
void pack_scatter_to(const A& a, const Flags& flags, const vector<index_t>& index, R& r, index_t* count, stream_t s) {
    const std::size_t n = a.size();
    auto in = reader(a);
    auto f = reader(flags);
    thrust::for_each_n(policy(s), thrust::counting_iterator<index_t>(0), index_t(n),
                       pack_scatter<decltype(in), decltype(f), decltype(writer(r))>{in, f, index.data(), writer(r),
                                                                                    index_t(n), count});
    backend::check_launch("pack");
}

/// pack past one block: a scan of the flags (the count at its end), then a
/// scatter that reads them again.
template <class A, class Flags> vector<value_t<A>> pack_by_scan(const A& a, const Flags& flags, stream_t s) {
    const std::size_t n = a.size();
    vector<index_t> index = pack_positions(flags, n, s);
    // one pass moves the elements and stores the count in pinned memory: one wait, no copy
    if (n <= pack_policy::scatter_before_count_max)
        return packed_count_last<value_t<A>>(
            n, s, [&](vector<value_t<A>>& r, index_t* count) { pack_scatter_to(a, flags, index, r, count, s); });
    vector<value_t<A>> r(std::size_t(index[n]), no_init);
    pack_scatter_to(a, flags, index, r, nullptr, s);
    return r;
}

} SCANVEC_NAMESPACE_END
