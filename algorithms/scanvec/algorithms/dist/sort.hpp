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
// docs/design/distributed.md has the costs and measurements.
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
        detail::phase_done("local radix sort");
        std::vector<index_t> places(static_cast<std::size_t>(s));
        for (int i = 0; i < s; ++i) places[std::size_t(i)] = index_t((2 * std::size_t(i) + 1) * m / (2 * std::size_t(s)));
        const auto keys = scanvec::back_permute(sorted, scanvec::vector<index_t>(places)).to_host();
        for (int i = 0; i < s; ++i) mine[std::size_t(i)] = {keys[std::size_t(i)], me, 1, places[std::size_t(i)]};
    });
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
    std::vector<index_t> send_counts(std::size_t(p), 0);
    failed.run([&] {
        const auto lower = m ? ::scanvec::detail::count_below(sorted, split_keys, false) : std::vector<index_t>(splitters.size(), 0);
        const auto upper = m ? ::scanvec::detail::count_below(sorted, split_keys, true) : std::vector<index_t>(splitters.size(), 0);
        index_t previous = 0;
        for (int q = 0; q < p; ++q) {
            const index_t cut = q + 1 < p ? detail::cut_of(splitters[std::size_t(q)], me, lower[std::size_t(q)], upper[std::size_t(q)])
                                          : index_t(m);
            send_counts[std::size_t(q)] = cut - previous;
            previous = cut;
        }
    });
    // B_r <- all-to-all(the runs between the cuts); merge(its p sorted runs)
    detail::phase_done("splitters and cuts");
    const auto recv_counts = detail::exchange_counts(comm, send_counts, failed, "dist::radix_sort (MPI_Alltoall of counts)");
    std::vector<index_t> bounds{0};
    for (index_t c : recv_counts) bounds.push_back(bounds.back() + c);
    scanvec::vector<K> received;
    failed.run([&] { received = scanvec::vector<K>(std::size_t(bounds.back()), no_init); });
    detail::agree(comm, failed, "dist::radix_sort (MPI_Allreduce of the verdict)");
    {
        std::vector<detail::column> cols;
        detail::add_columns(cols, sorted, received);
        detail::exchange_columns(comm, send_counts, recv_counts, cols, "dist::radix_sort (exchange of the keys)");
    }
    sorted = scanvec::vector<K>();
    detail::phase_done("exchange of the keys");
    scanvec::vector<K> merged;
    failed.run([&] { merged = ::scanvec::detail::merge_sorted_runs(std::move(received), std::move(bounds)); });
    detail::phase_done("merge of the runs");
    vector<K> r(std::move(merged), comm, failed, "dist::radix_sort (MPI_Allgather of block sizes)");
    // result <- rebalance(B, A's block sizes), into the block allocated first
    auto balanced = detail::moved_into(r, a.layout(), std::move(result), "dist::radix_sort (rebalance)");
    detail::phase_done("rebalance");
    return balanced;
}

}  SCANVEC_NAMESPACE_END  // dist
