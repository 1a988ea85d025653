// scanvec/algorithms/dist/sort.hpp - the distributed sort: every rank sorts
// its block with the one-device radix sort, the ranks agree on exact cuts,
// and each rank merges the runs it receives.
//
//   procedure dist-sort(A)                       on every rank, its block A_r
//       A_r   <- radix-sort(A_r)                     the one-device sort
//       for each rank boundary t_q (A's block offsets), one digit at a time:
//           Counts <- all-gather(for each of the 2^8 next digits d,
//                                #(A_r <= prefix_q . d . 1...1))
//           prefix_q <- prefix_q . (the first d whose global count passes t_q)
//       Cuts  <- #(A_r < prefix_q), and of the keys equal to prefix_q
//                the first t_q - #(A < prefix_q) in rank order
//       B_r   <- all-to-all(the runs of A_r between the cuts)
//       B_r   <- merge(its p sorted runs)           |B_r| = |A_r|: no rebalance
//
// Large blocks on 3 ranks or more (detail::sort_rounds_min_keys) exchange in p
// rounds instead, each received run merged into the ones before it while the
// next round moves (exchange_merging).
//
// The cuts are exact: rank q receives the keys of global sorted places
// [t_q, t_{q+1}), so the result has A's block sizes with no exchange after
// the merge, whatever the keys (all equal, skewed). Finding them costs one
// MPI_Allgather of 2^8 counts per boundary for each 8 bits of the key
// (4 rounds for 32-bit keys) and one vectorised binary search per round. Keys
// compare in radix order (radix_key_bits: the order of the local sort), equal
// keys by (rank, place). A local failure on one rank (out of memory) throws
// on every rank: each collective carries the verdict of the local steps
// before it. The runs travel widened to whole 16-byte words and land at
// 16-byte boundaries (sort_exchange), where NCCL copies fastest;
// dist::phase_log shows each phase's time. docs/design/distributed.md has the
// costs and measurements.
#pragma once

#include <scanvec/algorithms/dist/detail/sort.hpp>
#include <scanvec/algorithms/radix_sort.hpp>
#include <scanvec/primitives/dist/detail/block.hpp>
#include <scanvec/primitives/dist/permute.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/runtime/dist/phases.hpp>
#include <scanvec/runtime/dist/detail/transport.hpp>
#include <scanvec/runtime/dist/vector.hpp>

#include <thrust/copy.h>
#include <thrust/merge.h>

#include <algorithm>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace dist {

/// Sorts keys (integers, float or double) ascending across the ranks; r on
/// a's blocks (see the procedure above). Per rank: the one-device radix sort
/// of its block, one vectorised binary search of 2^8 (p - 1) keys per 8 bits
/// of the key, ceil(log2 p) merge passes, one all-to-all of at most its
/// block. Collective; waits for the device.
template <class K> vector<K> radix_sort(const vector<K>& a) {
    detail::block::expect_radix_key<K>();
    const auto& comm = a.comm();
    const int p = comm.size();
    if (p == 1) return detail::on_layout(scanvec::radix_sort(a.local()), a.layout(), comm);
    if (a.size() == 0) return a;
    // Local steps run under `failed`; each collective carries its verdict, so a
    // failure on one rank (out of memory) throws on every rank.
    detail::local_failure failed;
    // A_r <- radix-sort(A_r)
    scanvec::vector<K> sorted;
    failed.run([&] { sorted = scanvec::radix_sort(a.local()); });
    detail::phase_done("local radix sort");
    // Cuts: exact, for the global places where A's blocks begin
    const std::vector<index_t> cuts = detail::exact_cuts(comm, sorted, a.layout()->offsets, failed);
    detail::phase_done("exact cuts");
    // B_r <- all-to-all(the runs between the cuts); merge(its p sorted runs)
    const detail::sort_exchange x(comm, cuts, detail::sort_grain<K>(comm), failed);
    if (p >= 3 && a.size() >= std::size_t(p) * std::size_t(detail::sort_rounds_min_keys())) {
        scanvec::vector<K> merged = detail::exchange_merging(comm, sorted, x, failed);
        sorted = scanvec::vector<K>();
        detail::phase_done("exchange and merges");
        return detail::on_layout(std::move(merged), a.layout(), comm);
    }
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
    failed.run([&] {
        std::vector<detail::block::run_range> runs;  // the runs that are not empty
        for (const auto& r : x.run_from)
            if (r.size() > 0) runs.push_back(r);
        merged = detail::block::merge_sorted_runs(std::move(received), std::move(runs));
    });
    detail::agree(comm, failed, "dist::radix_sort (MPI_Allreduce of the verdict)");
    detail::phase_done("merge of the runs");
    return detail::on_layout(std::move(merged), a.layout(), comm);
}

}  SCANVEC_NAMESPACE_END  // dist
