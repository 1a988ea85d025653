// scanvec/primitives/dist/permute.hpp - permutes between ranks, and moving blocks.
//
//   dist::permute(a, idx)         r[idx[i]] = a[i]; idx a permutation of 0..n-1; r on a's blocks
//   dist::back_permute(a, idx)    r[i] = a[idx[i]]; r on idx's blocks
//   dist::redistribute(a, sizes)  the same elements in blocks of the given sizes
//   dist::rebalance(a)            the same elements in even blocks
//
// Each is collective. Elements travel once, in one all-to-all per exchange
// (MPI_Alltoallv of the raw bytes of each field array); counts per
// destination rank travel before them (MPI_Alltoall, p words per rank).
// Bad indices (checks on): sv::index_error on every rank, agreed before any
// element moves, naming the first bad global position and its value.
#pragma once

#include <scanvec/primitives/dist/detail/addressed.hpp>
#include <scanvec/primitives/dist/detail/common.hpp>
#include <scanvec/primitives/multisplit.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/write.hpp>

#include <thrust/copy.h>

#include <algorithm>
#include <optional>
#include <string>

SCANVEC_NAMESPACE_BEGIN namespace dist {
namespace detail {

/// One rank: the one-device call, its index errors named as the distributed call's
/// (its positions are the global ones).
template <class F> auto named_dist(F&& f) {
    try {
        return f();
    } catch (const index_error& e) {
        throw index_error(std::string("dist::") + e.what());
    }
}

/// The local elements and their global targets, as received by the ranks owning the targets.
template <class T> struct routed {
    scanvec::vector<T> values;         // grouped by source rank, each group in its sender's order
    scanvec::vector<index_t> targets;  // their global targets
};

/// Sends every local a[i] with its global target dest[i] to the rank owning
/// dest[i] on layout `to`. One MPI_Alltoall of counts (carrying the verdict
/// of the local steps before it), then `agree_before_exchange()`: a
/// collective that carries `failed`'s verdict (a plain one, or an index check
/// folded with it), so that nothing local is left between it and the
/// exchange; then one exchange. Out-of-range targets go to the first or last
/// rank (never out of bounds); callers check them in agree_before_exchange.
template <class T, class Dest, class Agree>
routed<T> route(const communicator& comm, const scanvec::vector<T>& a, const Dest& dest, const layout& to, const char* op,
                local_failure& failed, Agree&& agree_before_exchange) {
    const int p = comm.size();
    const std::size_t m = a.size();
    // Each element's owner, found once (a binary search in the offsets); the
    // counts, and the grouping by rank of values and targets (stable; owners
    // lie in 0..p-1 by construction), read it.
    std::vector<index_t> send_counts(std::size_t(p), 0);
    scanvec::vector<T> values;
    scanvec::vector<index_t> targets;
    failed.run([&] {
        if (!m) return;
        scanvec::vector<int> owners = materialize(lazy::map(owner_of{to.device_offsets().data(), p}, dest));
        send_counts = scanvec::histogram(owners, p).to_host();
        values = scanvec::vector<T>(m, no_init);
        targets = scanvec::vector<index_t>(m, no_init);
        block::multisplit_into(a, owners, index_t(p), values);
        block::multisplit_into(lazy::map(minus_base{0}, dest), owners, index_t(p), targets);
    });
    const auto recv_counts = exchange_counts(comm, send_counts, failed, step(op, "MPI_Alltoall of counts").c_str());
    index_t total = 0;
    for (index_t c : recv_counts) total += c;
    routed<T> r;
    failed.run([&] {
        r.values = scanvec::vector<T>(std::size_t(total), no_init);
        r.targets = scanvec::vector<index_t>(std::size_t(total), no_init);
    });
    agree_before_exchange();
    std::vector<column> cols;
    add_columns(cols, values, r.values);
    add_columns(cols, targets, r.targets);
    exchange_columns(comm, send_counts, recv_counts, cols, step(op, "exchange of the elements").c_str());
    return r;
}

/// route with one MPI_Allreduce of the verdict before the exchange.
template <class T, class Dest>
routed<T> route(const communicator& comm, const scanvec::vector<T>& a, const Dest& dest, const layout& to, const char* op,
                local_failure& failed) {
    return route(comm, a, dest, to, op, failed,
                 [&] { agree(comm, failed, step(op, "MPI_Allreduce of the verdict").c_str()); });
}

/// r[dest[i]] = a[i] on a's blocks, for global targets dest (a sequence on
/// this rank's block) that form a permutation: route, then one local scatter
/// into a block allocated before the exchange, its verdict shared after it.
template <class T, class Dest> vector<T> place(const vector<T>& a, const Dest& dest, const char* op) {
    local_failure failed;
    const std::size_t m = a.local().size();
    scanvec::vector<T> r;
    failed.run([&] { r = scanvec::vector<T>(m, no_init); });
    const auto agree_verdict = [&] { agree(a.comm(), failed, step(op, "MPI_Allreduce of the verdict").c_str()); };
    if (auto got = route_addressed(a.comm(), a.local(), dest, *a.layout(), op, failed, agree_verdict)) {
        failed.run([&] { scatter_records(*got, r); });
    } else {
        auto routed = route(a.comm(), a.local(), dest, *a.layout(), op, failed);
        // a write keeps to this rank's memory even with bad targets (undefined behaviour)
        failed.run([&] {
            r = scanvec::write(std::move(r), lazy::map(minus_base{a.offset()}, routed.targets), routed.values, unchecked);
        });
    }
    agree_verdict();
    return on_layout(std::move(r), a.layout(), a.comm());
}

/// The number of positions [a0, a1) and [b0, b1) share.
inline index_t overlap(index_t a0, index_t a1, index_t b0, index_t b1) {
    return std::max<index_t>(0, std::min(a1, b1) - std::max(a0, b0));
}

/// a's elements moved into `block`, allocated on layout `to` (the same
/// global size). Blocks are contiguous on both sides, so counts come from
/// the two layouts and the elements arrive in order: one exchange, no pass
/// over the data, nothing local that can fail.
template <class T>
vector<T> moved_into(const vector<T>& a, const layout_ptr& to, scanvec::vector<T> block, const char* op) {
    const auto& from = *a.layout();
    const int p = a.ranks(), me = a.comm().rank();
    std::vector<index_t> send_counts(static_cast<std::size_t>(p)), recv_counts(static_cast<std::size_t>(p));
    for (int r = 0; r < p; ++r) {
        send_counts[std::size_t(r)] = overlap(from.offsets[me], from.offsets[me + 1], to->offsets[r], to->offsets[r + 1]);
        recv_counts[std::size_t(r)] = overlap(from.offsets[r], from.offsets[r + 1], to->offsets[me], to->offsets[me + 1]);
    }
    exchange_vector(a.comm(), send_counts, recv_counts, a.local(), block, step(op, "exchange of the elements").c_str());
    return on_layout(std::move(block), to, a.comm());
}

/// a's elements on layout `to` (the same global size): the block allocated,
/// one MPI_Allreduce of the verdict, then moved_into.
template <class T> vector<T> moved_to(const vector<T>& a, const layout_ptr& to, const char* op) {
    const int me = a.comm().rank();
    local_failure failed;
    scanvec::vector<T> block;
    failed.run([&] { block = scanvec::vector<T>(std::size_t(to->offsets[me + 1] - to->offsets[me]), no_init); });
    agree(a.comm(), failed, step(op, "MPI_Allreduce of the verdict").c_str());
    return moved_into(a, to, std::move(block), op);
}

/// x itself when it is on layout `to`, else a copy moved there (kept in `keep`).
template <class X> const X& align(const X& x, const layout_ptr& to, std::optional<X>& keep, const char* op) {
    if (same_layout(x.layout(), to)) return x;
    keep.emplace(moved_to(x, to, op));
    return *keep;
}

/// base + j (a global position) where position j was hit more than once, else ~0.
struct repeated_at {
    index_t base;
    SCANVEC_HD std::uint64_t operator()(index_t j, int hits) const {
        return hits > 1 ? std::uint64_t(base + j) : ~std::uint64_t(0);
    }
};

/// After a checked permute found a bad target map: every rank's smallest
/// global target hit more than once, agreed, thrown on every rank.
template <class Targets>
[[noreturn]] void throw_repeat(const communicator& comm, const Targets& local_targets, std::size_t m, index_t base) {
    local_failure failed;
    std::uint64_t mine = ~std::uint64_t(0);
    failed.run([&] {
        if (!local_targets.size()) return;
        auto hits = scanvec::combining_write(scanvec::vector<int>(m, 0), local_targets,
                                             lazy::distribute(1, local_targets.size()), scanvec::plus<int>{}, unchecked);
        mine = scanvec::reduce(lazy::map(repeated_at{base}, lazy::index(m), hits), scanvec::min<std::uint64_t>{});
    });
    const std::uint64_t first = allreduce_min(comm, mine, failed, "dist::permute (MPI_Allreduce of the repeat check)");
    if (first == ~std::uint64_t(0)) throw index_error("dist::permute: idx is not a permutation");
    throw index_error("dist::permute: index " + std::to_string(first) + " repeats in idx; idx must be a permutation");
}

}  // namespace detail

/// The same elements in blocks of the given sizes (one per rank, the same on
/// every rank, summing to a.size()). Collective: each rank sends only the
/// elements that change rank, in one exchange; no pass over the data.
template <class T> vector<T> redistribute(const vector<T>& a, const std::vector<index_t>& block_sizes) {
    if (int(block_sizes.size()) != a.ranks())
        throw error("dist::redistribute: " + std::to_string(block_sizes.size()) + " block sizes for " +
                    std::to_string(a.ranks()) + " ranks");
    auto to = detail::make_layout(detail::offsets_of(block_sizes));
    if (to->size() != index_t(a.size()))
        throw length_error("dist::redistribute: block sizes add up to " + std::to_string(to->size()) + ", not " +
                           std::to_string(a.size()));
    return detail::moved_to(a, to, "dist::redistribute");
}

/// The same elements in even blocks (sizes differ by at most one). Collective;
/// as redistribute.
template <class T> vector<T> rebalance(const vector<T>& a) {
    return detail::moved_to(a, detail::make_layout(detail::even_offsets(index_t(a.size()), a.ranks())), "dist::rebalance");
}

/// r[idx[i]] = a[i], r on a's blocks; idx (any blocks) must be a permutation of
/// 0..n-1, not checked: bad indices are undefined behaviour.
/// O(n/p) elements sent per rank at most; one MPI_Alltoall of counts, one
/// exchange, one MPI_Allreduce of the verdict before it and one after the scatter.
template <class T, class I> vector<T> permute(const vector<T>& a, const vector<I>& idx, unchecked_t) {
    static_assert(std::is_integral_v<I>, "sv::dist::permute(a, idx): idx must hold integers");
    detail::expect_same_comm("dist::permute", a, idx);
    detail::expect_same_size("dist::permute", a, idx);
    const auto& comm = a.comm();
    if (comm.size() == 1) return detail::on_layout(scanvec::permute(a.local(), idx.local(), unchecked), a.layout(), comm);
    std::optional<vector<I>> keep;
    const auto& ix = detail::align(idx, a.layout(), keep, "dist::permute");
    return detail::place(a, ix.local(), "dist::permute");
}

/// r[idx[i]] = a[i], r on a's blocks; idx (any blocks, a's length) must be a
/// permutation of 0..n-1. Checked (unless SCANVEC_CHECKS=0): an index out of
/// range throws sv::index_error on every rank before any element moves; a
/// repeated index, after the exchange (one more MPI_Allreduce).
/// Collective; waits for the device. Cost: as the unchecked call, plus one pass over idx.
template <class T, class I> vector<T> permute(const vector<T>& a, const vector<I>& idx) {
#if SCANVEC_CHECKS
    static_assert(std::is_integral_v<I>, "sv::dist::permute(a, idx): idx must hold integers");
    detail::expect_same_comm("dist::permute", a, idx);
    detail::expect_same_size("dist::permute", a, idx);
    const auto& comm = a.comm();
    if (comm.size() == 1)
        return detail::on_layout(detail::named_dist([&] { return scanvec::permute(a.local(), idx.local()); }),
                                 a.layout(), comm);
    std::optional<vector<I>> keep;
    const auto& ix = detail::align(idx, a.layout(), keep, "dist::permute");
    // The index check's MPI_Allreduce, just before the exchange, carries the verdict of the routing's local steps
    detail::local_failure failed;
    const auto check_range = [&] { detail::expect_all_in_range("dist::permute", ix, index_t(a.size()), failed); };
    const std::size_t m = a.local().size();
    // Each rank checks that its targets are a permutation of its block; all agree (with the verdict).
    if (auto got = detail::route_addressed(comm, a.local(), ix.local(), *a.layout(), "dist::permute", failed, check_range)) {
        bool ok = got->size() == m;
        scanvec::vector<T> r;
        failed.run([&] {
            r = scanvec::vector<T>(m, no_init);
            if (ok && m) ok = detail::block::fingerprint_of(got->places(), m).permutation();
            detail::phase_done("permutation check");
            if (ok) detail::scatter_records(*got, r);
            detail::phase_done("scatter");
        });
        if (!detail::all_ok(comm, ok, failed, "dist::permute (MPI_Allreduce of the permutation check)"))
            detail::throw_repeat(comm, got->place_vector(), m, a.offset());
        return detail::on_layout(std::move(r), a.layout(), comm);
    }
    auto got = detail::route(comm, a.local(), ix.local(), *a.layout(), "dist::permute", failed, check_range);
    auto local_targets = lazy::map(detail::minus_base{a.offset()}, got.targets);
    bool ok = got.values.size() == m;
    scanvec::vector<T> r;
    failed.run([&] {
        if (!ok) return;
        try {
            r = scanvec::permute(got.values, local_targets);
        } catch (const index_error&) {
            ok = false;
        }
    });
    if (!detail::all_ok(comm, ok, failed, "dist::permute (MPI_Allreduce of the permutation check)"))
        detail::throw_repeat(comm, local_targets, m, a.offset());
    return detail::on_layout(std::move(r), a.layout(), comm);
#else
    return permute(a, idx, unchecked);
#endif
}

namespace detail {

/// A request's two halves: the place asked for (sent) and the position in idx's block it answers (kept).
struct split_request {
    const addressed<std::uint32_t>* records;
    std::uint32_t* places;
    std::uint32_t* positions;
    SCANVEC_HD void operator()(index_t k) const {
        places[k] = records[k].place;
        positions[k] = records[k].value;
    }
};

/// back_permute where a's blocks and idx's block are below 2^32 elements: each
/// request is a 32-bit place in its owner's block, grouped by owner and window
/// of the place with the positions it answers (one multisplit of
/// {place, position} records); the owners read the places window by window,
/// and the replies are written window by window of the result.
template <class T, class I>
vector<T> back_permute_addressed(const vector<T>& a, const vector<I>& idx, const addressing& how) {
    const char* op = "dist::back_permute";
    const auto& comm = a.comm();
    const std::size_t m = idx.local().size();
    local_failure failed;
    std::vector<index_t> ask_counts(std::size_t(comm.size()), 0), key_starts{0};
    scanvec::vector<std::uint32_t> requests, positions;
    failed.run([&] {
        runtime::scratch sent;
        key_starts = group_by_owner<std::uint32_t>(lazy::index<std::uint32_t>(m), idx.local(), *a.layout(), how,
                                                   comm.size(), sent, op);
        ask_counts = counts_per_rank(key_starts, how, comm.size());
        if (!m) return;
        requests = scanvec::vector<std::uint32_t>(m, no_init);
        positions = scanvec::vector<std::uint32_t>(m, no_init);
        thrust::for_each_n(block::policy(current_stream()), thrust::counting_iterator<index_t>(0), index_t(m),
                           split_request{sent.as<const addressed<std::uint32_t>>(), requests.data(), positions.data()});
        backend::check_launch(step(op, "requests").c_str());
    });
    phase_done("addressing and grouping by owner");
    const auto asked_counts = exchange_counts(comm, ask_counts, failed, step(op, "MPI_Alltoall of counts").c_str());
    index_t asked_total = 0;
    for (index_t c : asked_counts) asked_total += c;
    // Everything this rank will write, allocated before the index check (which carries the verdict)
    scanvec::vector<std::uint32_t> asked;
    scanvec::vector<T> answers, replies, r;
    failed.run([&] {
        asked = scanvec::vector<std::uint32_t>(std::size_t(asked_total), no_init);
        answers = scanvec::vector<T>(std::size_t(asked_total), no_init);
        replies = scanvec::vector<T>(m, no_init);
        r = scanvec::vector<T>(m, no_init);
    });
    expect_all_in_range(op, idx, index_t(a.size()), failed);
    phase_done("counts and checks");
    exchange_vector(comm, ask_counts, asked_counts, requests, asked, step(op, "exchange of the requests").c_str());
    phase_done("exchange of the requests");
    // Answers: read locally (the places lie in this rank's block), sent back the way the requests came.
    failed.run([&] {
        if (!asked_total) return;
        thrust::copy_n(block::policy(current_stream()), block::reader(lazy::back_permute(a.local(), asked)),
                       std::size_t(asked_total), block::writer(answers));
        backend::check_launch(step(op, "answers").c_str());
    });
    phase_done("answers");
    exchange_vector(comm, asked_counts, ask_counts, answers, replies, step(op, "exchange of the answers").c_str());
    phase_done("exchange of the answers");
    // Each reply to its position: r[positions[k]] = replies[k]. Each key's run
    // of replies holds its positions in order, so where r outgrows the L2 they
    // are written one window of r at a time across the runs.
    failed.run([&] {
        if (!m) return;
        const int bits = block::scatter_window_bits(m * sizeof(T), block::permute_policy::grouped_max_bits);
        scatter_by_windows(positions.data(), block::reader(replies), key_starts, bits,
                           std::max(0, block::bits_for(index_t(m)) - bits), block::writer(r), step(op, "replies").c_str());
    });
    agree(comm, failed, step(op, "MPI_Allreduce of the verdict").c_str());
    phase_done("replies in place");
    return on_layout(std::move(r), idx.layout(), comm);
}

/// back_permute with 64-bit global positions as requests (blocks of 2^32 elements or more).
template <class T, class I> vector<T> back_permute_routed(const vector<T>& a, const vector<I>& idx) {
    const auto& comm = a.comm();
    const int p = comm.size();
    const auto& want = idx.local();
    const std::size_t m = want.size();
    // Requests: the wanted global positions, grouped by the rank that owns
    // them, and my positions grouped likewise (owners lie in 0..p-1 by construction)
    local_failure failed;
    std::vector<index_t> ask_counts(std::size_t(p), 0);
    scanvec::vector<index_t> order, requests;
    failed.run([&] {
        if (!m) return;
        scanvec::vector<int> owners = materialize(lazy::map(owner_of{a.layout()->device_offsets().data(), p}, want));
        ask_counts = scanvec::histogram(owners, p).to_host();
        order = scanvec::vector<index_t>(m, no_init);
        requests = scanvec::vector<index_t>(m, no_init);
        block::multisplit_into(lazy::index(m), owners, index_t(p), order);
        block::multisplit_into(lazy::map(minus_base{0}, want), owners, index_t(p), requests);
    });
    const auto asked_counts = exchange_counts(comm, ask_counts, failed, "dist::back_permute (MPI_Alltoall of counts)");
    index_t asked_total = 0;
    for (index_t c : asked_counts) asked_total += c;
    // Everything this rank will write, allocated before the index check (which carries the verdict)
    scanvec::vector<index_t> asked;
    scanvec::vector<T> answers, replies, r;
    failed.run([&] {
        asked = scanvec::vector<index_t>(std::size_t(asked_total), no_init);
        answers = scanvec::vector<T>(std::size_t(asked_total), no_init);
        replies = scanvec::vector<T>(m, no_init);
        r = scanvec::vector<T>(m, no_init);
    });
    expect_all_in_range("dist::back_permute", idx, index_t(a.size()), failed);
    exchange_vector(comm, ask_counts, asked_counts, requests, asked, "dist::back_permute (exchange of the requests)");
    // Answers: read locally, sent back the way the requests came.
    failed.run([&] {
        if (!asked_total) return;
        auto read = lazy::back_permute(a.local(), lazy::map(minus_base{a.offset()}, asked));
        thrust::copy_n(block::policy(current_stream()), block::reader(read), std::size_t(asked_total), block::writer(answers));
        backend::check_launch("dist::back_permute");
    });
    exchange_vector(comm, asked_counts, ask_counts, answers, replies, "dist::back_permute (exchange of the answers)");
    // Each reply to its position: r[order[k]] = replies[k].
    failed.run([&] { r = scanvec::write(std::move(r), order, replies, unchecked); });
    agree(comm, failed, "dist::back_permute (MPI_Allreduce of the verdict)");
    return on_layout(std::move(r), idx.layout(), comm);
}

}  // namespace detail

/// r[i] = a[idx[i]], r on idx's blocks; idx values in 0..a.size()-1.
/// Checked (unless SCANVEC_CHECKS=0): an index out of range throws
/// sv::index_error on every rank before any element moves.
/// Collective; waits for the device. Two exchanges (the requests, then the
/// answers) after one MPI_Alltoall of counts; each rank sends at most its
/// idx block's length of requests (4 bytes each, below 2^32 elements a block)
/// and answers as many elements as it is asked; one MPI_Allreduce of the
/// verdict of the local steps after them.
template <class T, class I> vector<T> back_permute(const vector<T>& a, const vector<I>& idx) {
    static_assert(std::is_integral_v<I>, "sv::dist::back_permute(a, idx): idx must hold integers");
    detail::expect_same_comm("dist::back_permute", a, idx);
    const auto& comm = a.comm();
    if (comm.size() == 1)
        return detail::on_layout(detail::named_dist([&] { return scanvec::back_permute(a.local(), idx.local()); }),
                                 idx.layout(), comm);
    const auto how = detail::addressing_for(*a.layout(), sizeof(T));
    if (how && idx.layout()->largest_block() < (index_t(1) << 32)) return detail::back_permute_addressed(a, idx, *how);
    return detail::back_permute_routed(a, idx);
}

}  SCANVEC_NAMESPACE_END  // dist
