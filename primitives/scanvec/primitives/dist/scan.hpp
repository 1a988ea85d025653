// scanvec/primitives/dist/scan.hpp - scans and reductions over distributed vectors.
//
//   dist::reduce(a, op)                   a[0] op ... op a[n-1], on every rank
//   dist::scan(a, op)                     exclusive, r on a's blocks
//   dist::inclusive_scan(a, op)
//   dist::backward_scan(a, op), dist::backward_inclusive_scan(a, op)
//
// dist::enumerate and dist::count, scans and reductions of flags, are in
// enumerate_pack.hpp with dist::pack, as sv::enumerate is with sv::pack.
//
// Any associative operator with its identity, commutative or not: block
// totals are gathered on every rank (p values) and folded in rank order, so
// operands never change places. Over NCCL the scans gather and fold on the
// device and are queued (no wait); over MPI, and for reductions (whose
// result is a host value), each call waits for the device.
// What each rank sends: one value (O(p) words received). A local failure on
// one rank (out of memory) throws on every rank: the gathered totals carry
// the verdict of the reduce, and the scans end with one MPI_Allreduce of the
// verdict of their local scan.
#pragma once

#include <scanvec/primitives/dist/elementwise.hpp>
#include <scanvec/primitives/scan.hpp>
#include <scanvec/runtime/policy.hpp>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

SCANVEC_NAMESPACE_BEGIN namespace dist {
namespace detail {

/// Where a rank's carry is: a value on the host (gathered over MPI), or on
/// the device (gathered and folded there, read when the scan runs).
template <class T> struct carry_value {
    T v;
    SCANVEC_HD T get() const { return v; }
};
template <class T> struct carry_at {
    const T* p;
    SCANVEC_HD T get() const { return *p; }
};

/// The block read with the carry of the other ranks built in, so that one
/// inclusive scan gives the distributed inclusive scan (carry on the left
/// going forward, on the right going backward):
///   forward   b[0] = carry op a[0],      b[i] = a[i]
///   backward  b[m-1] = a[m-1] op carry,  b[i] = a[i]
/// (Exclusive scans take the carry as their start instead.)
template <class It, class Carry, class T, class Op, bool Backward> struct with_carry {
    It in;
    Carry carry;
    Op op;
    index_t m;
    SCANVEC_HD T operator()(index_t i) const {
        if constexpr (!Backward) return i == 0 ? T(op(carry.get(), T(in[0]))) : T(in[i]);
        else return i == m - 1 ? T(op(T(in[m - 1]), carry.get())) : T(in[i]);
    }
};

/// slots[p] = rank me's carry: slots[0..me) folded left to right (going
/// backward, slots(me..p) right to left). One thread, on the device.
template <class T, class Op, bool Backward> struct fold_carry {
    T* slots;
    int me, p;
    Op op;
    T id;
    SCANVEC_HD void operator()(int) const {
        T c = id;
        if constexpr (Backward)
            for (int r = p - 1; r > me; --r) c = T(op(slots[r], c));
        else
            for (int r = 0; r < me; ++r) c = T(op(c, slots[r]));
        slots[p] = c;
    }
};

/// The block's scan with the carry built in (carry: carry_value or
/// carry_at; start: the same carry as an exclusive scan's start).
template <bool Inclusive, bool Backward, class Seq, class Op, class Carry, class Start>
scanvec::vector<value_t<Seq>> scan_carried(const Seq& block, Op op, Carry carry, const Start& start) {
    using T = value_t<Seq>;
    const std::size_t m = block.size();
    if constexpr (!Inclusive)  // the carry as the scan's start: the one-device exclusive scan, at its speed
        return block::scan_pass<false, Backward>(Backward ? "backward_scan" : "scan", block, op, start);
    else {
        (void)start;
        using F = with_carry<decltype(block::reader(block)), Carry, T, Op, Backward>;
        auto fed = view(thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                        F{block::reader(block), carry, op, index_t(m)}),
                        m);
        if constexpr (Backward) return scanvec::backward_inclusive_scan(fed, op);
        else return scanvec::inclusive_scan(fed, op);
    }
}

/// This rank's part of a distributed scan of the block `block` (a local
/// sequence on layout `l`): one reduce of the block (only on the ranks whose
/// total someone needs), the totals gathered on every rank and folded in rank
/// order, one scan that takes the carry, and one MPI_Allreduce of the scan's
/// verdict. With NCCL the totals stay on the device (an MPI_Allreduce of the
/// reduce's verdict, ncclAllGather, the fold on one device thread, the carry
/// read by the scan): nothing waits for the device. Over MPI they come to the
/// host (MPI_Allgather carrying the reduce's verdict).
template <bool Inclusive, bool Backward, class Seq, class Op>
scanvec::vector<value_t<Seq>> scan_block(const communicator& comm, const layout& l, const Seq& block, Op op, const char* name) {
    using T = value_t<Seq>;
    auto local = [&](const auto& x) {
        if constexpr (Backward && Inclusive) return scanvec::backward_inclusive_scan(x, op);
        else if constexpr (Backward) return scanvec::backward_scan(x, op);
        else if constexpr (Inclusive) return scanvec::inclusive_scan(x, op);
        else return scanvec::scan(x, op);
    };
    const int p = comm.size(), me = comm.rank();
    if (p == 1) return local(block);
    const T id = block::identity_of<T>(op);
    const std::size_t m = block.size();
    const bool feeds = Backward ? l.offsets[me] > 0 : l.offsets[me + 1] < l.size();  // someone reads my total
    const bool alone = Backward ? l.offsets[me + 1] == l.size() : l.offsets[me] == 0;  // nothing on the carry side
    local_failure failed;
    scanvec::vector<T> r;
#if defined(SCANVEC_HAVE_NCCL)
    if (comm.uses_nccl()) {
        runtime::scratch slots;  // the p totals, then the carry
        failed.run([&] {
            slots = runtime::scratch((std::size_t(p) + 1) * sizeof(T));
            T* mine = slots.as<T>() + me;
            block::reduce_into(block::reader(block), feeds ? m : 0, op, id, mine, current_stream());
        });
        agree(comm, failed, step(name, "MPI_Allreduce of the reduce's verdict").c_str());
        allgather_on_device(comm, slots.as<T>(), step(name, "gather of block totals").c_str());
        failed.run([&] {
            thrust::for_each_n(block::policy(current_stream()), thrust::counting_iterator<int>(0), 1,
                               fold_carry<T, Op, Backward>{slots.as<T>(), me, p, op, id});
            backend::check_launch(step(name, "fold of the carry").c_str());
            T* carry = slots.as<T>() + p;
            r = alone || m == 0 ? local(block)
                                : scan_carried<Inclusive, Backward>(block, op, carry_at<T>{carry}, cub::FutureValue<T>(carry));
        });
        agree(comm, failed, step(name, "MPI_Allreduce of the verdict").c_str());
        return r;
    }
#endif
    T total = id;
    failed.run([&] {
        if (feeds && m) total = scanvec::reduce(block, op);
    });
    const auto totals = allgather(comm, total, failed, step(name, "MPI_Allgather of block totals").c_str());
    // The carry: the other side's totals folded in rank order.
    T carry = id;
    if constexpr (Backward)
        for (int r = p - 1; r > me; --r) carry = op(totals[std::size_t(r)], carry);
    else
        for (int r = 0; r < me; ++r) carry = op(carry, totals[std::size_t(r)]);
    failed.run([&] {
        r = alone || m == 0 ? local(block) : scan_carried<Inclusive, Backward>(block, op, carry_value<T>{carry}, carry);
    });
    agree(comm, failed, step(name, "MPI_Allreduce of the verdict").c_str());
    return r;
}

/// The fold of every rank's block total in rank order, on every rank.
template <class Seq, class Op> value_t<Seq> reduce_block(const communicator& comm, const Seq& block, Op op, const char* name) {
    using T = value_t<Seq>;
    if (comm.size() == 1) return scanvec::reduce(block, op);
    const T id = block::identity_of<T>(op);
    local_failure failed;
    T mine = id;
    failed.run([&] {
        if (block.size()) mine = scanvec::reduce(block, op);
    });
    const auto totals = allgather(comm, mine, failed, step(name, "MPI_Allgather of block totals").c_str());
    T r = id;
    for (const T& t : totals) r = op(r, t);
    return r;
}

}  // namespace detail

/// a[0] op ... op a[n-1] (the identity for n = 0), the same on every rank.
/// O(n/p) work per rank; each rank sends one value. Collective; waits for the device.
template <class T, class Op = plus<T>> T reduce(const vector<T>& a, Op op = {}) {
    return detail::reduce_block(a.comm(), a.local(), op, "dist::reduce");
}

/// Exclusive scan: r[0] = identity, r[i] = a[0] op ... op a[i-1]; r on a's blocks.
/// O(n/p) work per rank (two passes over the block where a carry comes in);
/// each rank sends one value. Collective; queued over NCCL (no wait), waits
/// for the device over MPI.
template <class T, class Op = plus<T>> vector<T> scan(const vector<T>& a, Op op = {}) {
    return detail::on_layout(detail::scan_block<false, false>(a.comm(), *a.layout(), a.local(), op, "dist::scan"),
                             a.layout(), a.comm());
}

/// Inclusive scan: r[i] = a[0] op ... op a[i]. Costs as dist::scan.
template <class T, class Op = plus<T>> vector<T> inclusive_scan(const vector<T>& a, Op op = {}) {
    return detail::on_layout(
        detail::scan_block<true, false>(a.comm(), *a.layout(), a.local(), op, "dist::inclusive_scan"), a.layout(),
        a.comm());
}

/// Right-to-left exclusive scan: r[n-1] = identity, r[i] = a[i+1] op ... op a[n-1]. Costs as dist::scan.
template <class T, class Op = plus<T>> vector<T> backward_scan(const vector<T>& a, Op op = {}) {
    return detail::on_layout(
        detail::scan_block<false, true>(a.comm(), *a.layout(), a.local(), op, "dist::backward_scan"), a.layout(),
        a.comm());
}

/// Right-to-left inclusive scan: r[i] = a[i] op ... op a[n-1]. Costs as dist::scan.
template <class T, class Op = plus<T>> vector<T> backward_inclusive_scan(const vector<T>& a, Op op = {}) {
    return detail::on_layout(
        detail::scan_block<true, true>(a.comm(), *a.layout(), a.local(), op, "dist::backward_inclusive_scan"),
        a.layout(), a.comm());
}

}  SCANVEC_NAMESPACE_END  // dist
