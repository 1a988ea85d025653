// scanvec/primitives/dist/pack_split.hpp - pack and split on distributed vectors.
//
//   dist::pack(a, flags)    the a[i] whose flag is true, in order; each stays on its rank
//   dist::split(a, flags)   stable: false flags first, then true; r on a's blocks
//
// Flags: a dist::vector of bool or integers (nonzero = true), a's length; on
// other blocks than a they are moved to a's first (dist::redistribute).
#pragma once

#include <scanvec/primitives/dist/scan.hpp>

SCANVEC_NAMESPACE_BEGIN namespace dist {
namespace detail {

/// Where split sends position i: falses keep their order from 0, trues from the number of falses.
struct split_destination {
    index_t falses;         // in the whole vector
    index_t falses_before;  // on the ranks to the left
    index_t trues_before;
    template <class F> SCANVEC_HD index_t operator()(const F& f, index_t down, index_t i) const {
        return f ? falses + trues_before + (i - down) : falses_before + down;
    }
};

}  // namespace detail

/// The elements whose flag is true, in order. Each kept element stays on its
/// rank, so the result's blocks are uneven (dist::rebalance evens them).
/// O(n/p) work per rank; each rank sends one count (MPI_Allgather). Collective;
/// waits for the device.
template <class T, class F> vector<T> pack(const vector<T>& a, const vector<F>& flags) {
    static_assert(std::is_integral_v<F>, "sv::dist::pack: flags must be bool or integers");
    detail::expect_same_comm("dist::pack", a, flags);
    detail::expect_same_size("dist::pack", a, flags);
    std::optional<vector<F>> keep;
    const auto& f = detail::align(flags, a.layout(), keep, "dist::pack");
    return vector<T>(scanvec::pack(a.local(), f.local()), a.comm());
}

/// Stable split: the elements whose flag is false first, then those whose
/// flag is true, each group in its original order; r on a's blocks.
/// O(n/p) work per rank: a local enumerate, one MPI_Allgather of the counts of
/// falses, then the elements move as in dist::permute (one exchange; a rank
/// sends at most its block). Collective; waits for the device.
template <class T, class F> vector<T> split(const vector<T>& a, const vector<F>& flags) {
    static_assert(std::is_integral_v<F>, "sv::dist::split: flags must be bool or integers");
    detail::expect_same_comm("dist::split", a, flags);
    detail::expect_same_size("dist::split", a, flags);
    const auto& comm = a.comm();
    if (comm.size() == 1) return detail::on_layout(scanvec::split(a.local(), flags.local()), a.layout(), comm);
    std::optional<vector<F>> keep;
    const auto& f = detail::align(flags, a.layout(), keep, "dist::split");
    // Down <- enumerate(not F) on the block; its total, and every rank's, give the global places
    auto down = scanvec::scan_total(lazy::map(::scanvec::detail::flag_not_to_count{}, f.local()));
    const auto falses = detail::allgather(comm, down.total, "dist::split (MPI_Allgather of counts)");
    index_t before = 0, all = 0;
    for (int r = 0; r < comm.size(); ++r) {
        if (r < comm.rank()) before += falses[std::size_t(r)];
        all += falses[std::size_t(r)];
    }
    // Index <- if F then Falses + Up else Down (global); permute(A, Index)
    auto dest = lazy::map(detail::split_destination{all, before, a.offset() - before}, f.local(), down.values,
                          lazy::index(a.local().size()));
    return detail::place(a, dest, "dist::split");
}

}  SCANVEC_NAMESPACE_END  // dist
