// scanvec/primitives/dist/split.hpp - the stable split on distributed vectors.
//
//   dist::split(a, flags)   stable: false flags first, then true; r on a's blocks
//                           (the one-device split of each block, then one placed exchange)
//
// Flags: a dist::vector of bool or integers (nonzero = true), a's length; on
// other blocks than a they are moved to a's first (dist::redistribute).
#pragma once

#include <scanvec/primitives/dist/multisplit.hpp>
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/split.hpp>

SCANVEC_NAMESPACE_BEGIN namespace dist {

/// Stable split: the elements whose flag is false first, then those whose
/// flag is true, each group in its original order; r on a's blocks.
/// O(n/p) work per rank: the one-device split of its block and a count of its
/// flags; one MPI_Allgather of two counts; one exchange placed by intervals
/// (this rank's falses go to one contiguous global range and its trues to
/// another, so it sends each rank one contiguous range of its split block,
/// which lands in at most two runs there). Collective; waits for the device.
template <class T, class F> vector<T> split(const vector<T>& a, const vector<F>& flags) {
    static_assert(std::is_integral_v<F>, "sv::dist::split: flags must be bool or integers");
    detail::expect_same_comm("dist::split", a, flags);
    detail::expect_same_size("dist::split", a, flags);
    const auto& comm = a.comm();
    if (comm.size() == 1) return detail::on_layout(scanvec::split(a.local(), flags.local()), a.layout(), comm);
    std::optional<vector<F>> keep;
    const auto& f = detail::align(flags, a.layout(), keep, "dist::split");
    const index_t m = index_t(a.local().size());
    index_t trues = 0;
    detail::local_failure failure;  // the class counts' gather carries its verdict
    scanvec::vector<T> grouped, r;
    failure.run([&] {
        trues = m ? scanvec::count(f.local()) : 0;
        if (m) grouped = scanvec::split(a.local(), f.local());
        r = detail::block_of<T>(*a.layout(), comm);
    });
    detail::phase_done("local split");
    detail::place_classes(comm, grouped, {m - trues, trues}, *a.layout(), r, failure, "dist::split");
    return detail::on_layout(std::move(r), a.layout(), comm);
}

}  SCANVEC_NAMESPACE_END  // dist
