// scanvec/primitives/dist/write.hpp - writes with collisions on distributed vectors.
//
//   sv::dist::write(dst, idx, vals)                as sv::write: dst with vals[k] at idx[k];
//                                                  where indices repeat one value wins
//   sv::dist::combining_write(dst, idx, vals, op)  as sv::combining_write: r[j] = dst[j] op
//                                                  (every vals[k] with idx[k] == j), op commutative
//
// Each value travels to the rank owning its target, with its place in that
// rank's block (one MPI_Alltoall of counts, one exchange of records, as
// permute), and that rank writes it into its block with the one-device call. dst is taken by value: moved in, its blocks
// are written in place. idx and vals have one length (any blocks: vals moves
// to idx's first); dst's length is independent.
#pragma once

#include <scanvec/primitives/dist/detail/common.hpp>
#include <scanvec/primitives/dist/permute.hpp>
#include <scanvec/primitives/write.hpp>
#include <scanvec/runtime/dist/vector.hpp>

#include <optional>
#include <utility>

SCANVEC_NAMESPACE_BEGIN namespace dist {
namespace detail {

/// The values routed to their targets' owners on dst's layout, then written
/// there by local(block, places in the block, values). Targets checked first (checks on).
template <class T, class I, class V, class Local>
vector<T> routed_write(vector<T> dst, const vector<I>& idx, const vector<V>& vals, const char* op, Local local) {
    static_assert(std::is_integral_v<I>, "sv::dist writes: idx must hold integers");
    expect_same_comm(op, dst, idx, vals);
    expect_same_size(op, idx, vals);
    std::optional<vector<V>> keep;
    const auto& v = align(vals, idx.layout(), keep, op);
    // The target check's MPI_Allreduce, just before the exchange, carries the verdict of the routing's local steps
    local_failure failed;
    const auto check_range = [&] { expect_all_in_range(op, idx, index_t(dst.size()), failed); };
    scanvec::vector<T> block;
    if (auto got = route_addressed(dst.comm(), v.local(), idx.local(), *dst.layout(), op, failed, check_range)) {
        failed.run([&] { block = local(std::move(dst.local()), got->place_sequence(), got->value_sequence()); });
    } else {
        auto pairs = route(dst.comm(), v.local(), idx.local(), *dst.layout(), op, failed, check_range);
        failed.run([&] {
            block = local(std::move(dst.local()), lazy::map(minus_base{dst.offset()}, pairs.targets), pairs.values);
        });
    }
    agree(dst.comm(), failed, step(op, "MPI_Allreduce of the verdict").c_str());
    return on_layout(std::move(block), dst.layout(), dst.comm());
}

}  // namespace detail

/// dst with vals[k] written at idx[k] for every k; where indices repeat, one of
/// the values sent there wins (unspecified which). An index outside
/// 0..dst.size()-1 throws sv::index_error on every rank before anything moves
/// (checks on). Each rank sends at most its block of (place, value) records.
/// Collective; waits for the device.
template <class T, class I, class V> vector<T> write(vector<T> dst, const vector<I>& idx, const vector<V>& vals) {
    return detail::routed_write(std::move(dst), idx, vals, "dist::write", [](auto block, const auto& at, const auto& v) {
        return scanvec::write(std::move(block), at, v, unchecked);
    });
}

/// r[j] = dst[j] op (every vals[k] with idx[k] == j); op associative and
/// commutative (as sv::combining_write). Errors and cost as dist::write.
template <class T, class I, class V, class Op>
vector<T> combining_write(vector<T> dst, const vector<I>& idx, const vector<V>& vals, Op op) {
    detail::block::expect_commutative<Op>();
    return detail::routed_write(std::move(dst), idx, vals, "dist::combining_write",
                                [op](auto block, const auto& at, const auto& v) {
                                    return scanvec::combining_write(std::move(block), at, v, op, unchecked);
                                });
}

}  SCANVEC_NAMESPACE_END  // dist
