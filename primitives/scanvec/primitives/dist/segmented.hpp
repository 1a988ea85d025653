// scanvec/primitives/dist/segmented.hpp - segmented scans whose segments may cross ranks.
//
//   dist::segmented_scan(a, flags, op)            exclusive, restarting at every head flag
//   dist::segmented_inclusive_scan(a, flags, op)  inclusive, likewise
//   dist::segmented_reduce(a, flags, op)          one value per segment, on the rank of its head
//
// Position 0 always starts a segment; a block's first position does not,
// unless its flag is set. Each rank scans its block, then the elements before
// its first head take the carry of the blocks to its left: their totals
// folded back to the last head among them. Any associative operator.
#pragma once

#include <scanvec/primitives/dist/scan.hpp>
#include <scanvec/primitives/segmented_scan.hpp>

#include <thrust/transform.h>

SCANVEC_NAMESPACE_BEGIN namespace dist {
namespace detail {

/// What a block passes to the right: the fold of its elements after its last
/// head (all of them when it has none), and whether it has a head.
template <class T> struct segment_summary {
    T value;
    int has_head;
};

/// i where flags[i] is set, else `none`.
struct head_position {
    index_t none;
    template <class F> SCANVEC_HD index_t operator()(index_t i, const F& f) const { return f ? i : none; }
};

/// carry op x.
template <class T, class Op> struct carry_on_left {
    T carry;
    Op op;
    SCANVEC_HD T operator()(const T& x) const { return op(carry, x); }
};

template <bool Inclusive, class T, class F, class Op>
vector<T> segmented_pass(const vector<T>& a, const vector<F>& flags, Op op, const char* name) {
    static_assert(std::is_integral_v<F>, "sv::dist segmented scans: flags must be bool or integers");
    expect_same_comm(name, a, flags);
    expect_same_size(name, a, flags);
    const auto& comm = a.comm();
    std::optional<vector<F>> keep;
    const auto& fl = align(flags, a.layout(), keep, name);
    const auto& x = a.local();
    const auto& f = fl.local();
    auto r = [&] {
        if constexpr (Inclusive) return scanvec::segmented_inclusive_scan(x, f, op);
        else return scanvec::segmented_scan(x, f, op);
    }();
    const int p = comm.size(), me = comm.rank();
    if (p == 1) return on_layout(std::move(r), a.layout(), comm);
    const auto& o = a.offsets();
    const std::size_t m = x.size();
    const T id = core::identity_of<T>(op);
    // Summary of this block, for the ranks to the right
    segment_summary<T> mine{id, 0};
    if (m && o[std::size_t(me) + 1] < o.back()) {
        const index_t last = scanvec::reduce(lazy::map(head_position{-1}, lazy::index(m), f), scanvec::max<index_t>{});
        mine.has_head = last >= 0;
        const T end = core::element_at(r, m - 1);  // the fold from the last head (or the block's start)
        mine.value = Inclusive ? end : T(op(end, core::element_at(x, m - 1)));
    }
    const auto all = allgather(comm, mine, step(name, "MPI_Allgather of block summaries").c_str());
    if (m == 0 || o[std::size_t(me)] == 0) return on_layout(std::move(r), a.layout(), comm);
    // Carry <- the summaries to the left, folded with the segmented operator (a head restarts it)
    T carry = id;
    for (int k = 0; k < me; ++k) carry = all[std::size_t(k)].has_head ? all[std::size_t(k)].value : T(op(carry, all[std::size_t(k)].value));
    // The elements before the first head take it on their left
    const index_t first = scanvec::reduce(lazy::map(head_position{index_t(m)}, lazy::index(m), f), scanvec::min<index_t>{});
    if (first > 0) {
        thrust::transform(core::policy(current_stream()), core::reader(r), core::reader(r) + first, core::writer(r),
                          carry_on_left<T, Op>{carry, op});
        backend::check_launch(name);
    }
    return on_layout(std::move(r), a.layout(), comm);
}

/// What a block passes to the left for segmented_reduce: the fold of its
/// elements before its first head (all of them when it has none), whether it
/// has a head, and how many segments start on it.
template <class T> struct reduce_summary {
    T before_head;
    int has_head;
};

/// r[i] = local[i + skip], the last one with the carry from the right folded in on its right.
template <class It, class T, class Op> struct own_segments {
    It local;
    index_t skip, last;
    T carry;
    Op op;
    SCANVEC_HD T operator()(index_t i) const {
        const T v = T(local[i + skip]);
        return i == last ? T(op(v, carry)) : v;
    }
};

}  // namespace detail

/// One value per segment (the fold of its elements, in order), segments
/// given by head flags and crossing ranks freely; each result lives on the
/// rank that holds its segment's head (position 0 is always a head), so the
/// result's blocks are uneven. Any associative operator.
/// O(n/p) work per rank: the one-device segmented reduce of its block, and a
/// pass over its results; each rank sends one value and one flag, then one
/// count (two MPI_Allgather). Collective; waits for the device.
template <class T, class F, class Op = plus<T>>
vector<T> segmented_reduce(const vector<T>& a, const vector<F>& flags, Op op = {}) {
    static_assert(std::is_integral_v<F>, "sv::dist::segmented_reduce: flags must be bool or integers");
    constexpr const char* name = "dist::segmented_reduce";
    detail::expect_same_comm(name, a, flags);
    detail::expect_same_size(name, a, flags);
    const auto& comm = a.comm();
    if (comm.size() == 1) return vector<T>(scanvec::segmented_reduce(a.local(), flags.local(), op), comm);
    std::optional<vector<F>> keep;
    const auto& fl = detail::align(flags, a.layout(), keep, name);
    const auto& x = a.local();
    const auto& f = fl.local();
    const std::size_t m = x.size();
    const T id = detail::core::identity_of<T>(op);
    // Local segments: the block's first position acts as a head
    scanvec::vector<T> local = m ? scanvec::segmented_reduce(x, f, op) : scanvec::vector<T>();
    const bool lead = m && (a.offset() == 0 || bool(detail::core::element_at(f, 0)));  // a real head at the start
    detail::reduce_summary<T> mine{id, 0};
    if (m) {
        mine.has_head = lead || local.size() > 1;
        if (!lead) mine.before_head = detail::core::element_at(local, 0);
    }
    const auto all = detail::allgather(comm, mine, detail::step(name, "MPI_Allgather of block summaries").c_str());
    // This rank's last segment goes on through the ranks to its right up to the next head
    const int p = comm.size(), me = comm.rank();
    T carry = id;
    for (int q = me + 1; q < p; ++q) {
        carry = op(carry, all[std::size_t(q)].before_head);
        if (all[std::size_t(q)].has_head) break;
    }
    const index_t skip = lead ? 0 : 1;
    const index_t own = mine.has_head ? index_t(local.size()) - skip : 0;
    scanvec::vector<T> r(std::size_t(own), no_init);
    if (own) {
        using G = detail::own_segments<decltype(detail::core::reader(local)), T, Op>;
        r = materialize(view(thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                             G{detail::core::reader(local), skip, own - 1, carry, op}),
                             std::size_t(own)));
    }
    return vector<T>(std::move(r), comm);  // one MPI_Allgather of the counts
}

/// Exclusive scan restarting at every head flag (identity at each head), over
/// segments that may span ranks; r on a's blocks. O(n/p) work per rank; each
/// rank sends one value and one flag (MPI_Allgather). Collective; waits for the device.
template <class T, class F, class Op = plus<T>>
vector<T> segmented_scan(const vector<T>& a, const vector<F>& flags, Op op = {}) {
    return detail::segmented_pass<false>(a, flags, op, "dist::segmented_scan");
}

/// Inclusive scan restarting at every head flag. Costs as dist::segmented_scan.
template <class T, class F, class Op = plus<T>>
vector<T> segmented_inclusive_scan(const vector<T>& a, const vector<F>& flags, Op op = {}) {
    return detail::segmented_pass<true>(a, flags, op, "dist::segmented_inclusive_scan");
}

}  SCANVEC_NAMESPACE_END  // dist
