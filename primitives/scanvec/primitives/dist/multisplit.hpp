// scanvec/primitives/dist/multisplit.hpp - stable splits into classes across ranks.
//
//   dist::multisplit(a, digits, m)   stable: the elements whose digit is 0, then 1, ..., m-1; r on a's blocks
//
// Each rank groups its block by class with the one-device multisplit (stable),
// and every rank learns every rank's class counts (MPI_Allgather of m words).
// Then each element's global place follows from interval arithmetic: class c
// of rank r goes to [start(c) + (class-c elements of ranks before r), ...),
// and in a rank's grouped block those places increase. So what a rank sends
// to each rank is one contiguous range of its grouped block, and what it
// receives lands in known runs of its result: one exchange, no search of
// owners, no pass after. dist::split (split.hpp) is the case m = 2.
#pragma once

#include <scanvec/primitives/dist/permute.hpp>
#include <scanvec/primitives/multisplit.hpp>

#include <optional>
#include <string>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace dist {
namespace detail {

/// The exchange that takes every rank's block, grouped by class (its classes
/// in order 0..m-1, each in its original order), to the stable global order
/// on layout `to`. counts[r * m + c] = rank r's elements of class c (every
/// rank's, the same on every rank). Host arithmetic, O(p m).
inline placed_exchange class_placement(const std::vector<index_t>& counts, int p, index_t m, int me, const layout& to) {
    const std::size_t M = std::size_t(m);
    // start[c]: where class c starts globally; before[r][c] = class-c elements on ranks before r
    std::vector<index_t> start(M, 0), running(M, 0);
    {
        std::vector<index_t> total(M, 0);
        for (int r = 0; r < p; ++r)
            for (std::size_t c = 0; c < M; ++c) total[c] += counts[std::size_t(r) * M + c];
        index_t s = 0;
        for (std::size_t c = 0; c < M; ++c) {
            start[c] = s;
            s += total[c];
        }
    }
    placed_exchange x(p);
    const index_t mine_from = to.offsets[std::size_t(me)], mine_to = to.offsets[std::size_t(me) + 1];
    for (int r = 0; r < p; ++r) {
        index_t local = 0;  // where class c starts in rank r's grouped block
        for (std::size_t c = 0; c < M; ++c) {
            const index_t n = counts[std::size_t(r) * M + c];
            if (n == 0) continue;
            const index_t g0 = start[c] + running[c], g1 = g0 + n;  // its global places
            running[c] += n;
            if (r == me) {
                // My elements local..local+n-1 go to g0..g1-1: split by the destination blocks
                int q = int(std::upper_bound(to.offsets.begin(), to.offsets.end() - 1, g0) - to.offsets.begin()) - 1;
                for (index_t g = g0; g < g1; ++q) {
                    const index_t end = std::min(g1, to.offsets[std::size_t(q) + 1]);
                    x.send(q, local + (g - g0), end - g, g - to.offsets[std::size_t(q)]);
                    g = end;
                }
            }
            // What of it lands in my block, in the sender's order
            const index_t lo = std::max(g0, mine_from), hi = std::min(g1, mine_to);
            if (lo < hi) x.receive(r, lo - mine_from, hi - lo);
            local += n;
        }
        if (r == me) x.send_total = local;
    }
    x.recv_total = mine_to - mine_from;
    return x;
}

/// Every rank's block `grouped` (grouped by class, m classes, this rank's
/// class counts `mine`) moved to the stable global order on layout `to`,
/// into r (this rank's block of `to`, allocated by the caller before the
/// verdict of its local steps, `failure`, travels with the counts).
template <class T>
void place_classes(const communicator& comm, const scanvec::vector<T>& grouped, const std::vector<index_t>& mine,
                   const layout& to, scanvec::vector<T>& r, const local_failure& failure, const char* op) {
    const auto all = allgather_counts(comm, mine, failure, step(op, "MPI_Allgather of class counts").c_str());
    const auto x = class_placement(all, comm.size(), index_t(mine.size()), comm.rank(), to);
    phase_done("class counts");
    std::vector<column> cols;
    add_columns(cols, grouped, r);
    exchange_placed(comm, x, cols, step(op, "exchange of the elements").c_str());
    phase_done("exchange of the elements");
}

/// This rank's block of layout `to`, allocated (left unwritten).
template <class T> scanvec::vector<T> block_of(const layout& to, const communicator& comm) {
    const auto me = std::size_t(comm.rank());
    return scanvec::vector<T>(std::size_t(to.offsets[me + 1] - to.offsets[me]), no_init);
}

}  // namespace detail

/// Stable m-way split: the elements whose digit is 0 first, then 1, ..., then
/// m-1, each class in its original order; r on a's blocks. digits: a
/// dist::vector of integers in 0..m-1, a's length (on other blocks, moved to
/// a's first). A digit outside 0..m-1 (checks on) throws sv::index_error on
/// every rank, agreed before anything moves.
/// O(n/p + m) work per rank: the one-device histogram and multisplit of its
/// block; one MPI_Allgather of m counts; one exchange (a rank sends at most its
/// block, at most one message per rank). Collective; waits for the device.
template <class T, class D> vector<T> multisplit(const vector<T>& a, const vector<D>& digits, index_t m) {
    static_assert(std::is_integral_v<D>, "sv::dist::multisplit: digits must be integers");
    detail::expect_same_comm("dist::multisplit", a, digits);
    detail::expect_same_size("dist::multisplit", a, digits);
    detail::block::expect_classes("dist::multisplit", m);
    const auto& comm = a.comm();
    if (comm.size() == 1)
        return detail::on_layout(detail::named_dist([&] { return scanvec::multisplit(a.local(), digits.local(), m); }),
                                 a.layout(), comm);
    std::optional<vector<D>> keep;
    const auto& d = detail::align(digits, a.layout(), keep, "dist::multisplit");
    // The local steps: count the classes (checking the digits), group the
    // block by class, allocate the result; every rank agrees on the digits
    // and on the steps' failures before anything moves.
    std::vector<index_t> mine(std::size_t(m), 0);
    bool bad = false;
    detail::local_failure failure;
    scanvec::vector<T> grouped, r;
    failure.run([&] {
        if (!a.local().empty()) {
            try {
                mine = scanvec::histogram(d.local(), m).to_host();
            } catch (const index_error&) {
                bad = true;
                return;
            }
        }
        grouped = scanvec::vector<T>(a.local().size(), no_init);
        if (!a.local().empty()) detail::block::multisplit_into(a.local(), d.local(), m, grouped);
        r = detail::block_of<T>(*a.layout(), comm);
    });
    if (!detail::all_ok(comm, !bad, failure, "dist::multisplit (MPI_Allreduce of the digit check)"))
        throw index_error("dist::multisplit: digits outside 0.." + std::to_string(m - 1) + " on some rank");
    detail::phase_done("local multisplit and digit check");
    detail::place_classes(comm, grouped, mine, *a.layout(), r, detail::local_failure{}, "dist::multisplit");
    return detail::on_layout(std::move(r), a.layout(), comm);
}

}  SCANVEC_NAMESPACE_END  // dist
