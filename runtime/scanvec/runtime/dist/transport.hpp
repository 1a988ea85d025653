// scanvec/runtime/dist/transport.hpp - what travels between ranks, and how.
//
// Two kinds of traffic: small control values on the host (block totals,
// counts, verdicts: O(p) words, MPI collectives), and the elements themselves
// (exchange_columns: an all-to-all; exchange_placed: into runs known
// beforehand; the raw bytes of each field array). The element exchanges are
// the one place where the engine is chosen: NCCL, device to device, when the
// communicator has it (exchange_nccl.hpp), else MPI (exchange_mpi.hpp, which
// stages device arrays through host memory on CUDA builds: the GPU machine's
// MPI is not CUDA-aware). Everything here is collective over the communicator.
#pragma once

#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/dist/communicator.hpp>
#include <scanvec/runtime/dist/exchange.hpp>
#include <scanvec/runtime/dist/exchange_mpi.hpp>
#if defined(SCANVEC_HAVE_NCCL)
#  include <scanvec/runtime/dist/exchange_nccl.hpp>
#endif

#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace dist::detail {

/// Every rank's v, in rank order (MPI_Allgather of its bytes). T trivially copyable.
template <class T> std::vector<T> allgather(const communicator& comm, const T& v, const char* op) {
    static_assert(std::is_trivially_copyable_v<T>, "dist: values sent between ranks must be trivially copyable");
    std::vector<T> all(std::size_t(comm.size()));
    mpi_check(MPI_Allgather(&v, int(sizeof(T)), MPI_BYTE, all.data(), int(sizeof(T)), MPI_BYTE, comm.mpi()), op);
    return all;
}

/// The smallest of every rank's v (MPI_Allreduce).
inline std::uint64_t allreduce_min(const communicator& comm, std::uint64_t v, const char* op) {
    std::uint64_t r = 0;
    mpi_check(MPI_Allreduce(&v, &r, 1, MPI_UINT64_T, MPI_MIN, comm.mpi()), op);
    return r;
}

/// The sum of every rank's v (MPI_Allreduce).
inline index_t allreduce_sum(const communicator& comm, index_t v, const char* op) {
    std::int64_t r = 0, mine = v;
    mpi_check(MPI_Allreduce(&mine, &r, 1, MPI_INT64_T, MPI_SUM, comm.mpi()), op);
    return r;
}

/// True on every rank when ok is true on every rank.
inline bool all_ok(const communicator& comm, bool ok, const char* op) {
    int mine = ok ? 1 : 0, all = 0;
    mpi_check(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm.mpi()), op);
    return all == 1;
}

/// root's value of v on every rank.
template <class T> T broadcast(const communicator& comm, T v, int root, const char* op) {
    static_assert(std::is_trivially_copyable_v<T>, "dist: values sent between ranks must be trivially copyable");
    mpi_check(MPI_Bcast(&v, int(sizeof(T)), MPI_BYTE, root, comm.mpi()), op);
    return v;
}

/// recv[r] = what rank r sends to this rank, given send[r] = what this rank sends to r (MPI_Alltoall).
inline std::vector<index_t> exchange_counts(const communicator& comm, const std::vector<index_t>& send, const char* op) {
    std::vector<std::int64_t> s(send.begin(), send.end()), r(send.size());
    mpi_check(MPI_Alltoall(s.data(), 1, MPI_INT64_T, r.data(), 1, MPI_INT64_T, comm.mpi()), op);
    return std::vector<index_t>(r.begin(), r.end());
}

/// Every rank's values (the same number from each), in rank order: rank r's at [r * v.size(), ...).
inline std::vector<index_t> allgather_counts(const communicator& comm, const std::vector<index_t>& v, const char* op) {
    std::vector<std::int64_t> mine(v.begin(), v.end()), all(v.size() * std::size_t(comm.size()));
    const int k = mpi_count(index_t(v.size()), op);
    mpi_check(MPI_Allgather(mine.data(), k, MPI_INT64_T, all.data(), k, MPI_INT64_T, comm.mpi()), op);
    return std::vector<index_t>(all.begin(), all.end());
}

/// The elementwise sum of every rank's v (MPI_Allreduce).
inline std::vector<index_t> allreduce_sums(const communicator& comm, const std::vector<index_t>& v, const char* op) {
    std::vector<std::int64_t> mine(v.begin(), v.end()), all(v.size());
    mpi_check(MPI_Allreduce(mine.data(), all.data(), mpi_count(index_t(v.size()), op), MPI_INT64_T, MPI_SUM, comm.mpi()),
              op);
    return std::vector<index_t>(all.begin(), all.end());
}

/// The smallest and the largest of every rank's v (one MPI_Allreduce).
inline std::pair<std::uint64_t, std::uint64_t> allreduce_min_max(const communicator& comm, std::uint64_t lo,
                                                                 std::uint64_t hi, const char* op) {
    std::uint64_t mine[2] = {lo, ~hi}, all[2] = {0, 0};  // max(hi) = ~min(~hi)
    mpi_check(MPI_Allreduce(mine, all, 2, MPI_UINT64_T, MPI_MIN, comm.mpi()), op);
    return {all[0], ~all[1]};
}

/// The element exchange: every column's elements go to their destination
/// ranks (send_counts[r] to rank r, grouped by rank; recv_counts[r] arrive
/// from rank r, grouped by rank). Collective. Over MPI it waits until this
/// rank's data has arrived; over NCCL it is queued on the vectors' stream.
/// op names the step in errors; the engine's call is added to it.
inline void exchange_columns(const communicator& comm, const std::vector<index_t>& send_counts,
                             const std::vector<index_t>& recv_counts, const std::vector<column>& cols, const char* op) {
    if (cols.empty()) return;
    const all_to_all_side out(send_counts), in(recv_counts);
#if defined(SCANVEC_HAVE_NCCL)
    if (comm.uses_nccl()) return nccl_engine::exchange_columns(comm, out, in, cols, op);
#endif
    mpi_engine::exchange_columns(comm, out, in, cols, op);
}

/// The placed exchange (placed_exchange says what goes where): elements land
/// in their runs with no pass after. Collective in effect (every rank calls it
/// with matching placements); waits or queues as exchange_columns does.
inline void exchange_placed(const communicator& comm, const placed_exchange& x, const std::vector<column>& cols,
                            const char* op) {
    if (cols.empty()) return;
#if defined(SCANVEC_HAVE_NCCL)
    if (comm.uses_nccl()) return nccl_engine::exchange_placed(comm, x, cols, op);
#endif
    mpi_engine::exchange_placed(comm, x, cols, op);
}

}  SCANVEC_NAMESPACE_END  // dist::detail
