// scanvec/algorithms/dist/quicksort.hpp - quicksort by processor teams: the
// communicator splits along the two halves of each round, as the vector
// splits, down to teams of one rank, which sort their part with the
// one-device quicksort (Hardwick's Machiavelli; Blelloch's book, quicksort
// with nested parallelism).
//
//   procedure team-quicksort(A, T)              A spread over the ranks of team T
//       if |T| = 1: return quicksort(A)              the one-device quicksort
//       pivot  <- median of three elements of A
//       F      <- A >= pivot   (or A > pivot when nothing is below it)
//       A      <- split(A, F)                       the lows first, stable
//       k      <- |T| * (lows / |A|), at least 1 and at most |T| - 1
//       A      <- redistribute(A): the lows over T's first k ranks, the highs over the rest
//       T'     <- my half of T (MPI_Comm_split)
//       return team-quicksort(my half of A, T')
//
// Every round leaves both halves non-empty, so each team is smaller than the
// one before: at most p - 1 rounds before every rank sorts alone. A vector
// whose elements are all equal stops at once (nothing below the pivot and
// nothing above it). The result is on a's layout. A local failure on one
// rank (out of memory in a team's step or a one-device sort) throws on every
// rank: a team's own calls agree within the team, and what a team caught
// travels to the whole communicator in the last collective.
#pragma once

#include <scanvec/algorithms/quicksort.hpp>
#include <scanvec/primitives/dist/elementwise.hpp>
#include <scanvec/primitives/dist/split.hpp>
#include <scanvec/primitives/dist/permute.hpp>
#include <scanvec/primitives/dist/scan.hpp>
#include <scanvec/runtime/dist/communicator.hpp>
#include <scanvec/runtime/dist/detail/transport.hpp>
#include <scanvec/runtime/dist/vector.hpp>

#include <algorithm>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace dist {
namespace detail {

/// x < pivot, and its two complements used as the high side's flags.
template <class T> struct below_pivot {
    T pivot;
    SCANVEC_HD bool operator()(const T& x) const { return x < pivot; }
};
template <class T> struct not_below_pivot {
    T pivot;
    SCANVEC_HD bool operator()(const T& x) const { return !(x < pivot); }
};
template <class T> struct above_pivot {
    T pivot;
    SCANVEC_HD bool operator()(const T& x) const { return pivot < x; }
};

template <class T> const T& median_of_three(const T& a, const T& b, const T& c) {
    if (a < b) return b < c ? b : (a < c ? c : a);
    return a < c ? a : (b < c ? c : b);
}

/// This rank's part of the sorted elements of a: a's team's ranks hold them
/// in rank order, in blocks of any size. The round's local steps run under
/// `failed`, whose verdict the team's next collective carries (the counts'
/// all-gather); a failure in a team below is kept in it too, for the
/// caller's last collective over the whole communicator.
template <class T> scanvec::vector<T> team_quicksort(const vector<T>& a, local_failure& failed) {
    const auto& comm = a.comm();
    const int p = comm.size(), me = comm.rank();
    scanvec::vector<T> r;
    const index_t n = index_t(a.size());
    if (p == 1 || n == 0) {
        failed.run([&] { r = n ? scanvec::quicksort(a.local()) : scanvec::vector<T>(); });
        return r;
    }
    // pivot <- median of three; F <- the high side's flags (both sides non-empty)
    const T pivot = median_of_three(dist::extract(a, n / 4), dist::extract(a, n / 2), dist::extract(a, 3 * n / 4));
    // Both candidates for F (x >= pivot, x > pivot) are made before the
    // counts' all-gather, which carries their verdict: after it nothing here
    // allocates before the split.
    scanvec::vector<bool> not_below, above;
    struct counts {
        index_t below, above;
    } mine{0, 0};
    failed.run([&] {
        not_below = scanvec::map(not_below_pivot<T>{pivot}, a.local());
        above = scanvec::map(above_pivot<T>{pivot}, a.local());
        mine = {index_t(a.local().size()) - scanvec::count(not_below), scanvec::count(above)};
    });
    index_t below_n = 0, above_n = 0;
    for (const counts& c : allgather(comm, mine, failed, "dist::quicksort (MPI_Allgather of the counts)")) {
        below_n += c.below;
        above_n += c.above;
    }
    if (below_n == 0 && above_n == 0) {  // nothing below the pivot, nothing above it: all equal, sorted
        failed.run([&] { r = a.local(); });
        return r;
    }
    // the high side: not below the pivot, or, when nothing is below it, above it
    const index_t highs = below_n > 0 ? n - below_n : above_n, lows = n - highs;
    const auto high = on_layout(below_n > 0 ? std::move(not_below) : std::move(above), a.layout(), comm);
    // A <- split(A, F); the lows over the first k ranks, the highs over the rest
    const auto parted = dist::split(a, high);
    const int k = std::clamp(int((2 * std::int64_t(p) * lows + n) / (2 * n)), 1, p - 1);  // p lows / n, rounded
    std::vector<index_t> sizes(static_cast<std::size_t>(p));
    for (int q = 0; q < p; ++q) {
        const bool in_low = q < k;
        const index_t part = in_low ? lows : highs, ranks = in_low ? k : p - k, at = in_low ? q : q - k;
        sizes[std::size_t(q)] = part * (at + 1) / ranks - part * at / ranks;
    }
    auto mine_part = dist::redistribute(parted, sizes);
    // T' <- my half of the team (kept by the team for its next sort that
    // halves at k); a team of one sorts alone, with no communicator
    const int team_size = me < k ? k : p - k;
    const communicator* team = comm.team(k, team_size > 1 ? (me < k ? 0 : 1) : -1);
    failed.run([&] {
        r = team ? team_quicksort(vector<T>(std::move(mine_part.local()), *team), failed)
                 : scanvec::quicksort(mine_part.local());
    });
    return r;
}

}  // namespace detail

/// a's elements ascending by <, r on a's blocks: quicksort by processor
/// teams (above). Per round of a team of q ranks: three extracts, two maps
/// and one all-gather of their counts, one split and one redistribute (each
/// moving at most the team's elements), and the first time a team halves at
/// a given rank, an MPI_Comm_split (on NCCL builds an NCCL communicator for
/// each new team of two or more; kept for later sorts); then the
/// one-device quicksort of a rank's part, one
/// MPI_Allgather of the block sizes and one rebalancing exchange. At most
/// p - 1 rounds; about log2 p when the pivots halve the vector. Collective.
template <class T> vector<T> quicksort(const vector<T>& a) {
    const auto& comm = a.comm();
    if (comm.size() == 1) return detail::on_layout(scanvec::quicksort(a.local()), a.layout(), comm);
    detail::local_failure failed;
    auto block = detail::team_quicksort(a, failed);
    vector<T> sorted(std::move(block), comm, failed, "dist::quicksort (MPI_Allgather of block sizes)");
    return detail::moved_to(sorted, a.layout(), "dist::quicksort (rebalance)");
}

}  SCANVEC_NAMESPACE_END  // dist
