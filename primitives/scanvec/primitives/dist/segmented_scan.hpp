// scanvec/primitives/dist/segmented_scan.hpp - segmented scans whose segments may cross ranks.
//
//   dist::segmented_scan(a, flags, op)            exclusive, restarting at every head flag
//   dist::segmented_inclusive_scan(a, flags, op)  inclusive, likewise
//   dist::segmented_backward_scan(a, flags, op), dist::segmented_backward_inclusive_scan(a, flags, op)
//                                                 right to left, the carry from the right
//   dist::segmented_reduce(a, flags, op)          one value per segment, on the rank of its head
//
// Position 0 always starts a segment; a block's first position does not,
// unless its flag is set. Each rank scans its block, then the elements before
// its first head take the carry of the blocks to its left: their totals
// folded back to the last head among them (going backward, the elements from
// its last head on take the carry of the blocks to its right, on their
// right). Any associative operator, commutative or not. A local failure on
// one rank (out of memory) throws on every rank: the gather carries the
// verdict of the block's scan, one MPI_Allreduce that of the carry's pass.
#pragma once

#include <scanvec/primitives/dist/scan.hpp>
#include <scanvec/primitives/segmented_scan.hpp>

#include <thrust/transform.h>

#include <algorithm>
#include <optional>

SCANVEC_NAMESPACE_BEGIN namespace dist {
namespace detail {

/// What a block passes to its neighbours' side: the fold of its elements
/// after its last head going forward (before its first head going backward;
/// all of them when it has none), and whether it has a head.
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

/// x op carry.
template <class T, class Op> struct carry_on_right {
    T carry;
    Op op;
    SCANVEC_HD T operator()(const T& x) const { return op(x, carry); }
};

/// The first (min) or last (max) position of a head flag in f, or `none`.
template <class Flags> index_t first_head(const Flags& f, index_t none) {
    return scanvec::reduce(lazy::map(head_position{none}, lazy::index(f.size()), f), scanvec::min<index_t>{});
}
template <class Flags> index_t last_head(const Flags& f) {
    return scanvec::reduce(lazy::map(head_position{-1}, lazy::index(f.size()), f), scanvec::max<index_t>{});
}

/// The distributed segmented scans. Forward: the elements before the block's
/// first head take the carry of the blocks to the left on their left.
/// Backward: the elements from its last head on take the carry of the blocks
/// to the right on their right. The carry folds the summaries of the blocks
/// on that side with the segmented operator (a head stops it). The verdict
/// of the block's scan travels with the summaries, that of the carry's pass
/// in one MPI_Allreduce.
template <bool Inclusive, bool Backward, class T, class F, class Op>
vector<T> segmented_pass(const vector<T>& a, const vector<F>& flags, Op op, const char* name) {
    static_assert(std::is_integral_v<F>, "sv::dist segmented scans: flags must be bool or integers");
    expect_same_comm(name, a, flags);
    expect_same_size(name, a, flags);
    const auto& comm = a.comm();
    const int p = comm.size(), me = comm.rank();
    auto local = [&](const auto& x, const auto& f) {
        if constexpr (Backward && Inclusive) return scanvec::segmented_backward_inclusive_scan(x, f, op);
        else if constexpr (Backward) return scanvec::segmented_backward_scan(x, f, op);
        else if constexpr (Inclusive) return scanvec::segmented_inclusive_scan(x, f, op);
        else return scanvec::segmented_scan(x, f, op);
    };
    if (p == 1) return on_layout(local(a.local(), flags.local()), a.layout(), comm);
    std::optional<vector<F>> keep;
    const auto& fl = align(flags, a.layout(), keep, name);
    const auto& x = a.local();
    const auto& f = fl.local();
    const auto& o = a.offsets();
    const std::size_t m = x.size();
    const T id = block::identity_of<T>(op);
    // Sends: someone on the other side reads my summary; receives: a carry may come in
    const bool sends = m && (Backward ? o[std::size_t(me)] > 0 : o[std::size_t(me) + 1] < o.back());
    const bool receives = m && (Backward ? o[std::size_t(me) + 1] < o.back() : o[std::size_t(me)] > 0);
    local_failure failed;
    scanvec::vector<T> r;
    segment_summary<T> mine{id, 0};
    index_t from = 0, to = 0;  // the positions that take the carry
    failed.run([&] {
        r = local(x, f);
        if (!sends && !receives) return;
        // Backward: the carry goes from the last head on, the summary is what comes before the first one
        if constexpr (Backward) {
            if (receives) from = std::max<index_t>(last_head(f), 0), to = index_t(m);
            if (sends) {
                const index_t first = first_head(f, index_t(m));
                mine.has_head = first < index_t(m);
                if (first > 0) {  // the fold of the elements before the first head, read at position 0
                    const T end = block::element_at(r, 0);
                    mine.value = Inclusive ? end : T(op(block::element_at(x, 0), end));
                }
            }
        } else {  // forward: the carry goes up to the first head, the summary is what follows the last one
            if (receives) to = first_head(f, index_t(m));
            if (sends) {
                mine.has_head = last_head(f) >= 0;
                const T end = block::element_at(r, m - 1);  // the fold from the last head (or the block's start)
                mine.value = Inclusive ? end : T(op(end, block::element_at(x, m - 1)));
            }
        }
    });
    const auto all = allgather(comm, mine, failed, step(name, "MPI_Allgather of block summaries").c_str());
    // Carry <- the summaries on the carry's side, nearest last, folded with the segmented operator
    T carry = id;
    if constexpr (Backward)
        for (int k = p - 1; k > me; --k) {
            const auto& s = all[std::size_t(k)];
            carry = s.has_head ? s.value : T(op(s.value, carry));
        }
    else
        for (int k = 0; k < me; ++k) {
            const auto& s = all[std::size_t(k)];
            carry = s.has_head ? s.value : T(op(carry, s.value));
        }
    // The carry's pass, on the ranks it reaches; its verdict shared by every rank
    failed.run([&] {
        if (!receives || from >= to) return;
        auto first = block::reader(r) + from, last = block::reader(r) + to;
        if constexpr (Backward)
            thrust::transform(block::policy(current_stream()), first, last, block::writer(r) + from,
                              carry_on_right<T, Op>{carry, op});
        else
            thrust::transform(block::policy(current_stream()), first, last, block::writer(r) + from,
                              carry_on_left<T, Op>{carry, op});
        backend::check_launch(name);
    });
    agree(comm, failed, step(name, "MPI_Allreduce of the verdict").c_str());
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
    const T id = detail::block::identity_of<T>(op);
    // Local segments: the block's first position acts as a head
    detail::local_failure failed;
    scanvec::vector<T> local;
    bool lead = false;  // a real head at the block's start
    detail::reduce_summary<T> mine{id, 0};
    failed.run([&] {
        if (!m) return;
        local = scanvec::segmented_reduce(x, f, op);
        lead = a.offset() == 0 || bool(detail::block::element_at(f, 0));
        mine.has_head = lead || local.size() > 1;
        if (!lead) mine.before_head = detail::block::element_at(local, 0);
    });
    const auto all = detail::allgather(comm, mine, failed, detail::step(name, "MPI_Allgather of block summaries").c_str());
    // This rank's last segment goes on through the ranks to its right up to the next head
    const int p = comm.size(), me = comm.rank();
    T carry = id;
    for (int q = me + 1; q < p; ++q) {
        carry = op(carry, all[std::size_t(q)].before_head);
        if (all[std::size_t(q)].has_head) break;
    }
    const index_t skip = lead ? 0 : 1;
    const index_t own = mine.has_head ? index_t(local.size()) - skip : 0;
    scanvec::vector<T> r;
    failed.run([&] {
        if (!own) return;
        using G = detail::own_segments<decltype(detail::block::reader(local)), T, Op>;
        r = materialize(view(thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                             G{detail::block::reader(local), skip, own - 1, carry, op}),
                             std::size_t(own)));
    });
    // One MPI_Allgather of the counts, carrying the verdict
    return vector<T>(std::move(r), comm, failed, detail::step(name, "MPI_Allgather of block sizes").c_str());
}

/// Exclusive scan restarting at every head flag (identity at each head), over
/// segments that may span ranks; r on a's blocks. O(n/p) work per rank; each
/// rank sends one value and one flag (MPI_Allgather), then its verdict
/// (MPI_Allreduce). Collective; waits for the device.
template <class T, class F, class Op = plus<T>>
vector<T> segmented_scan(const vector<T>& a, const vector<F>& flags, Op op = {}) {
    return detail::segmented_pass<false, false>(a, flags, op, "dist::segmented_scan");
}

/// Inclusive scan restarting at every head flag. Costs as dist::segmented_scan.
template <class T, class F, class Op = plus<T>>
vector<T> segmented_inclusive_scan(const vector<T>& a, const vector<F>& flags, Op op = {}) {
    return detail::segmented_pass<true, false>(a, flags, op, "dist::segmented_inclusive_scan");
}

/// Right-to-left exclusive scan within each segment: r[i] = a[i+1] op ... op
/// a[last of i's segment] (the identity at each segment's last position);
/// segments may span ranks, the carry comes from the right. r on a's blocks.
/// Costs as dist::segmented_scan.
template <class T, class F, class Op = plus<T>>
vector<T> segmented_backward_scan(const vector<T>& a, const vector<F>& flags, Op op = {}) {
    return detail::segmented_pass<false, true>(a, flags, op, "dist::segmented_backward_scan");
}

/// Right-to-left inclusive scan within each segment: r[i] = a[i] op ... op
/// a[last of i's segment]. Costs as dist::segmented_scan.
template <class T, class F, class Op = plus<T>>
vector<T> segmented_backward_inclusive_scan(const vector<T>& a, const vector<F>& flags, Op op = {}) {
    return detail::segmented_pass<true, true>(a, flags, op, "dist::segmented_backward_inclusive_scan");
}

}  SCANVEC_NAMESPACE_END  // dist
