// scanvec/algorithms/dist/sort.hpp - the distributed sort: a sample sort whose
// local sorts are the one-device radix sort.
//
//   procedure dist-sort(A)                       on every rank, its block A_r
//       A_r      <- radix-sort(A_r)                  the one-device sort
//       Samples  <- all-gather(s evenly spaced (key, rank, place) of A_r)
//       Splitters <- p - 1 evenly spaced of sort(Samples)
//       Cuts     <- where each splitter falls in A_r  (binary searches)
//       B_r      <- all-to-all(the runs of A_r between the cuts)
//       B_r      <- merge(its p sorted runs)
//       result   <- rebalance(B, A's block sizes)
//
// Keys compare as (key, rank, place in the sorted block), so equal keys are
// spread over the ranks like any others (a vector of one repeated key comes
// out balanced). A local failure on one rank (out of memory) throws on every
// rank: each collective carries the verdict of the local steps before it.
// The runs travel widened to whole 16-byte words and land at 16-byte
// boundaries (sort_exchange), where NCCL copies fastest; dist::phase_log
// shows each phase's time. docs/design/distributed.md has the costs and
// measurements.
#pragma once

#include <scanvec/algorithms/radix_sort.hpp>
#include <scanvec/primitives/detail/sorted_runs.hpp>
#include <scanvec/primitives/dist/permute.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/runtime/dist/phases.hpp>
#include <scanvec/runtime/dist/transport.hpp>
#include <scanvec/runtime/dist/vector.hpp>

#include <algorithm>
#include <tuple>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace dist {

/// Samples each rank contributes per rank of the communicator: the ranks'
/// shares come out within about 1 / (sort_oversampling) of a block of even.
inline constexpr int sort_oversampling = 64;

namespace detail {

/// A sampled key with its place: (key, rank, place in that rank's sorted block).
template <class K> struct sort_sample {
    K key;
    int rank;
    int valid;  // 0: a rank with no elements sent it
    index_t place;
    bool operator<(const sort_sample& o) const {
        return std::tie(key, rank, place) < std::tie(o.key, o.rank, o.place);
    }
};

/// Where splitter s falls in this rank's sorted block: how many of its
/// elements come before s in (key, rank, place) order.
template <class K>
index_t cut_of(const sort_sample<K>& s, int me, index_t lower, index_t upper) {
    if (s.rank == me) return s.place;
    return me < s.rank ? upper : lower;  // equal keys: before s on lower ranks, after it on higher ones
}

/// The sort's exchange: rank q gets this rank's run [cuts[q], cuts[q+1]) of
/// its sorted block, sent widened to whole 16-byte words at both ends and
/// placed at a 16-byte boundary on the receiver, which merges the runs
/// inside the padding. NCCL copies 16 bytes at a time only from and to
/// 16-byte boundaries, so runs cut anywhere would move at a fraction of the
/// all-to-all's speed (docs/design/distributed.md, "The distributed sort").
/// `grain` elements make 16 bytes (1: no widening, where the engine packs
/// host copies end to end).
struct sort_exchange {
    std::vector<index_t> send_counts, send_at, recv_counts, recv_at;
    std::vector<::scanvec::detail::run_range> runs;  // the received runs, in rank order
    index_t recv_total = 0;

    sort_exchange(const communicator& comm, const std::vector<index_t>& cuts, index_t grain, local_failure& failed) {
        const std::size_t p = cuts.size() - 1;
        const index_t m = cuts[p];
        std::vector<index_t> exact(p), lead(p);
        send_counts.resize(p);
        send_at.resize(p);
        for (std::size_t q = 0; q < p; ++q) {
            exact[q] = cuts[q + 1] - cuts[q];
            send_at[q] = cuts[q] - cuts[q] % grain;
            const index_t end = std::min((cuts[q + 1] + grain - 1) / grain * grain, m);
            send_counts[q] = exact[q] ? end - send_at[q] : 0;
            lead[q] = exact[q] ? cuts[q] - send_at[q] : 0;
        }
        const auto got = exchange_counts(comm, exact, failed, "dist::radix_sort (MPI_Alltoall of counts)");
        const auto widened = grain > 1 ? exchange_counts(comm, send_counts, "dist::radix_sort (MPI_Alltoall of counts)") : got;
        const auto leads = grain > 1 ? exchange_counts(comm, lead, "dist::radix_sort (MPI_Alltoall of counts)") : lead;
        recv_counts = widened;
        recv_at.resize(p);
        for (std::size_t q = 0; q < p; ++q) {
            recv_total = (recv_total + grain - 1) / grain * grain;
            recv_at[q] = recv_total;
            const index_t first = recv_total + (grain > 1 ? leads[q] : 0);
            if (got[q]) runs.push_back({first, first + got[q]});
            recv_total += widened[q];
        }
    }
};

/// Elements of K in 16 bytes where the exchange reads the arrays in place (else 1).
template <class K> index_t sort_grain(const communicator& comm) {
    return exchanges_in_place(comm) && 16 % sizeof(K) == 0 ? index_t(16 / sizeof(K)) : 1;
}

}  // namespace detail

/// Sorts integer keys ascending across the ranks; r on a's blocks (see the
/// procedure above). Per rank: the one-device radix sort of its block, two
/// binary searches per splitter, ceil(log2 p) merge passes, one all-to-all of
/// at most its block and one rebalancing exchange; on the host O(p^2 s log)
/// for the samples (s = sort_oversampling). Collective; waits for the device.
template <class K> vector<K> radix_sort(const vector<K>& a) {
    ::scanvec::detail::expect_radix_key<K>();
    const auto& comm = a.comm();
    const int p = comm.size(), me = comm.rank();
    if (p == 1) return detail::on_layout(scanvec::radix_sort(a.local()), a.layout(), comm);
    if (a.size() == 0) return a;
    const std::size_t m = a.local().size();
    // Local steps run under `failed`; each collective carries its verdict, so a
    // failure on one rank (out of memory) throws on every rank.
    detail::local_failure failed;
    // A_r <- radix-sort(A_r); the result's block, allocated now
    scanvec::vector<K> sorted, result;
    // Samples: s evenly spaced elements of every sorted block, with their places
    const int s = sort_oversampling * p;
    std::vector<detail::sort_sample<K>> mine(std::size_t(s), detail::sort_sample<K>{K(), me, 0, 0});
    failed.run([&] {
        result = scanvec::vector<K>(m, no_init);
        if (!m) return;
        sorted = scanvec::radix_sort(a.local());
        std::vector<index_t> places(static_cast<std::size_t>(s));
        for (int i = 0; i < s; ++i) places[std::size_t(i)] = index_t((2 * std::size_t(i) + 1) * m / (2 * std::size_t(s)));
        const auto keys = scanvec::back_permute(sorted, scanvec::vector<index_t>(places)).to_host();
        for (int i = 0; i < s; ++i) mine[std::size_t(i)] = {keys[std::size_t(i)], me, 1, places[std::size_t(i)]};
    });
    detail::phase_done("local radix sort");  // on every rank, blocks empty or not: the phases match
    if (failed.failed())
        for (auto& x : mine) x.valid = -1;  // the verdict travels with the samples
    constexpr const char* gather_op = "dist::radix_sort (MPI_Allgather of the samples)";
    std::vector<detail::sort_sample<K>> all(std::size_t(s) * std::size_t(p));
    detail::mpi_check(MPI_Allgather(mine.data(), int(s * sizeof(mine[0])), MPI_BYTE, all.data(), int(s * sizeof(mine[0])),
                                    MPI_BYTE, comm.mpi()),
                      gather_op);
    const auto bad = std::find_if(all.begin(), all.end(), [](const auto& x) { return x.valid < 0; });
    detail::expect_no_failure(comm, failed, bad == all.end() ? p : bad->rank, gather_op);
    detail::phase_done("samples (gathered)");
    all.erase(std::remove_if(all.begin(), all.end(), [](const auto& x) { return !x.valid; }), all.end());
    std::sort(all.begin(), all.end());
    // Splitters: p - 1 evenly spaced samples; Cuts: where each falls in this block
    std::vector<detail::sort_sample<K>> splitters;
    for (int j = 1; j < p; ++j) splitters.push_back(all[std::size_t(j) * all.size() / std::size_t(p)]);
    std::vector<K> split_keys;
    for (const auto& x : splitters) split_keys.push_back(x.key);
    std::vector<index_t> cuts(std::size_t(p) + 1, 0);
    failed.run([&] {
        const auto lower = m ? ::scanvec::detail::count_below(sorted, split_keys, false) : std::vector<index_t>(splitters.size(), 0);
        const auto upper = m ? ::scanvec::detail::count_below(sorted, split_keys, true) : std::vector<index_t>(splitters.size(), 0);
        for (int q = 0; q + 1 < p; ++q)
            cuts[std::size_t(q) + 1] = detail::cut_of(splitters[std::size_t(q)], me, lower[std::size_t(q)], upper[std::size_t(q)]);
        cuts[std::size_t(p)] = index_t(m);
    });
    // B_r <- all-to-all(the runs between the cuts); merge(its p sorted runs)
    detail::phase_done("splitters and cuts");
    const detail::sort_exchange x(comm, cuts, detail::sort_grain<K>(comm), failed);
    scanvec::vector<K> received;
    failed.run([&] { received = scanvec::vector<K>(std::size_t(x.recv_total), no_init); });
    detail::agree(comm, failed, "dist::radix_sort (MPI_Allreduce of the verdict)");
    detail::phase_done("counts and the verdict");
    {
        std::vector<detail::column> cols;
        detail::add_columns(cols, sorted, received);
        detail::exchange_columns(comm, detail::all_to_all_side(x.send_counts, x.send_at),
                                 detail::all_to_all_side(x.recv_counts, x.recv_at), cols,
                                 "dist::radix_sort (exchange of the keys)");
    }
    sorted = scanvec::vector<K>();
    detail::phase_done("exchange of the keys");
    scanvec::vector<K> merged;
    failed.run([&] { merged = ::scanvec::detail::merge_sorted_runs(std::move(received), x.runs); });
    detail::phase_done("merge of the runs");
    vector<K> r(std::move(merged), comm, failed, "dist::radix_sort (MPI_Allgather of block sizes)");
    // result <- rebalance(B, A's block sizes), into the block allocated first
    auto balanced = detail::moved_into(r, a.layout(), std::move(result), "dist::radix_sort (rebalance)");
    detail::phase_done("rebalance");
    return balanced;
}

}  SCANVEC_NAMESPACE_END  // dist
