// scanvec/primitives/dist/enumerate_pack.hpp - enumerate, count and pack on distributed vectors.
//
//   dist::enumerate(flags)   r[i] = number of true flags before global position i; r on flags' blocks
//   dist::count(flags)       number of true flags, on every rank
//   dist::pack(a, flags)     the a[i] whose flag is true, in order; each stays on its rank
//
// Flags: a dist::vector of bool or integers (nonzero = true). enumerate and
// count are dist::scan and dist::reduce of the flags read as counts; pack
// moves nothing between ranks (flags on other blocks than a are moved to a's
// first, dist::redistribute).
#pragma once

#include <scanvec/primitives/dist/permute.hpp>
#include <scanvec/primitives/dist/scan.hpp>
#include <scanvec/primitives/enumerate_pack.hpp>

#include <optional>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace dist {

/// r[i] = the number of true flags before global position i; r on flags' blocks.
/// Costs as dist::scan (the count per flag is read inside the scan).
template <class F> vector<index_t> enumerate(const vector<F>& flags) {
    static_assert(std::is_integral_v<F>, "sv::dist::enumerate: flags must be bool or integers");
    return detail::on_layout(detail::scan_block<false, false>(flags.comm(), *flags.layout(),
                                                              lazy::map(detail::block::flag_to_count{}, flags.local()),
                                                              plus<index_t>{}, "dist::enumerate"),
                             flags.layout(), flags.comm());
}

/// The number of true flags, on every rank. Costs as dist::reduce.
template <class F> index_t count(const vector<F>& flags) {
    static_assert(std::is_integral_v<F>, "sv::dist::count: flags must be bool or integers");
    return detail::reduce_block(flags.comm(), lazy::map(detail::block::flag_to_count{}, flags.local()), plus<index_t>{},
                                "dist::count");
}

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
    detail::local_failure failure;  // the block sizes' gather carries its verdict
    scanvec::vector<T> kept;
    failure.run([&] { kept = scanvec::pack(a.local(), f.local()); });
    return vector<T>(std::move(kept), a.comm(), failure, "dist::pack (MPI_Allgather of block sizes)");
}

}  SCANVEC_NAMESPACE_END  // dist
