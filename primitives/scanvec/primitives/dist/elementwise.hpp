// scanvec/primitives/dist/elementwise.hpp - map, index, distribute on distributed vectors.
//
//   dist::map(f, a, b, ...)      r[i] = f(a[i], b[i], ...), r on a's blocks
//   dist::index(n, comm)         r[i] = i, in even blocks
//   dist::distribute(v, n, comm) n copies of v, in even blocks
//   dist::extract(a, i)          a[i], on every rank
//
// Local: each rank works on its own block and no element travels, except when
// b, ... are on other blocks than a: they are moved to a's blocks first (an
// exchange each, as dist::redistribute). Each call ends with one
// MPI_Allreduce of its verdict, so that a failure on one rank (out of memory)
// throws on every rank at that call.
#pragma once

#include <scanvec/primitives/dist/permute.hpp>

SCANVEC_NAMESPACE_BEGIN namespace dist {
namespace detail {

template <class F, class A, class... B> auto map_aligned(F f, const A& a, const B&... b) {
    auto block = local_call(a.comm(), "dist::map (MPI_Allreduce of the verdict)",
                            [&] { return scanvec::map(f, a.local(), b.local()...); });
    return on_layout(std::move(block), a.layout(), a.comm());
}

}  // namespace detail

/// r[i] = f(a[i], b[i], ...), on a's blocks. Lengths must agree: sv::length_error
/// on every rank otherwise (global lengths are known to all; no communication).
/// O(n/p) work per rank, one step, one MPI_Allreduce of its verdict; queued
/// (no wait for the device) when the blocks agree.
template <class F, class A, class... B> auto map(F f, const vector<A>& a, const vector<B>&... b) {
    detail::expect_same_comm("dist::map", a, b...);
    detail::expect_same_size("dist::map", a, b...);
    if ((detail::same_layout(a.layout(), b.layout()) && ...)) return detail::map_aligned(f, a, b...);
    return detail::map_aligned(f, a, detail::moved_to(b, a.layout(), "dist::map")...);
}

/// r[i] = i (as sv::index_t, or I) in even blocks. O(n/p) work per rank; no
/// element travels (one MPI_Allreduce of the verdict).
template <class I = index_t> vector<I> index(std::size_t n, const communicator& comm = world()) {
    auto layout = detail::make_layout(detail::even_offsets(index_t(n), comm.size()));
    const index_t first = layout->offsets[std::size_t(comm.rank())];
    const std::size_t m = std::size_t(layout->offsets[std::size_t(comm.rank()) + 1] - first);
    auto block = detail::local_call(comm, "dist::index (MPI_Allreduce of the verdict)",
                                    [&] { return materialize(view(thrust::counting_iterator<I>(I(first)), m)); });
    return detail::on_layout(std::move(block), layout, comm);
}

/// n copies of v in even blocks. O(n/p) work per rank; no element travels
/// (one MPI_Allreduce of the verdict).
template <class T> vector<T> distribute(const T& v, std::size_t n, const communicator& comm = world()) {
    auto layout = detail::make_layout(detail::even_offsets(index_t(n), comm.size()));
    const std::size_t m = std::size_t(layout->offsets[std::size_t(comm.rank()) + 1] - layout->offsets[std::size_t(comm.rank())]);
    auto block = detail::local_call(comm, "dist::distribute (MPI_Allreduce of the verdict)",
                                    [&] { return scanvec::distribute(v, m); });
    return detail::on_layout(std::move(block), layout, comm);
}

/// a[i] on every rank: its owner reads it and broadcasts it (MPI_Bcast).
/// i outside [0, n) throws sv::index_error on every rank (no communication).
/// Collective; waits for the device.
template <class T> T extract(const vector<T>& a, index_t i) {
    if (i < 0 || i >= index_t(a.size()))
        throw index_error("dist::extract: index " + std::to_string(i) + " is out of range for length " +
                          std::to_string(a.size()));
    const auto& o = a.offsets();
    const int owner = int(std::upper_bound(o.begin(), o.end() - 1, i) - o.begin()) - 1;
    // The owner's read travels with its verdict: a read that failed there throws on every rank.
    const char* op = "dist::extract (MPI_Bcast)";
    detail::local_failure failure;
    detail::with_verdict<detail::host_elem<T>> v{{}, 0};
    if (a.comm().rank() == owner) {
        failure.run([&] {
            v.value = detail::host_elem<T>(detail::block::element_at(a.local(), std::size_t(i - a.offset())));
        });
        v.failed = failure.failed() ? 1 : 0;
    }
    v = detail::broadcast(a.comm(), v, owner, op);
    failure.shared();
    if (v.failed) detail::throw_agreed(a.comm(), failure, owner, op);
    return T(v.value);
}

}  SCANVEC_NAMESPACE_END  // dist
