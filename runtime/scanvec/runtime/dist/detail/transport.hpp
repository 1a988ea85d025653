// scanvec/runtime/dist/detail/transport.hpp - what travels between ranks, and how.
//
// Two kinds of traffic: small control values on the host (block totals,
// counts, verdicts: O(p) words, MPI collectives), and the elements themselves
// (exchange_columns: an all-to-all; exchange_placed: into runs known
// beforehand; the raw bytes of each field array). The element exchanges are
// the one place where the engine is chosen: NCCL, device to device, when the
// communicator has it (exchange_nccl.hpp), else MPI (exchange_mpi.hpp, which
// stages device arrays through host memory on CUDA builds: the GPU machine's
// MPI is not CUDA-aware). Everything here is collective over the communicator.
//
// A failure on one rank alone is carried by the collectives here (the
// overloads that take a local_failure: verdict.hpp says how).
#pragma once

#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/dist/communicator.hpp>
#include <scanvec/runtime/dist/detail/exchange.hpp>
#include <scanvec/runtime/dist/detail/exchange_mpi.hpp>
#include <scanvec/runtime/dist/verdict.hpp>
#if defined(SCANVEC_HAVE_NCCL)
#  include <scanvec/runtime/dist/detail/exchange_nccl.hpp>
#endif

#include <algorithm>
#include <climits>
#include <cstdint>
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

/// A gathered value and whether its rank failed.
template <class T> struct with_verdict {
    T value;
    int failed;
};

/// allgather carrying the verdict of the local steps before it: on a rank
/// that failed, v is not read. Throws on every rank when one failed.
template <class T>
std::vector<T> allgather(const communicator& comm, const T& v, const local_failure& mine, const char* op) {
    const auto all = allgather(comm, with_verdict<T>{mine.failed() ? T{} : v, mine.failed() ? 1 : 0}, op);
    std::vector<T> r(all.size());
    int failing = comm.size();
    for (std::size_t k = all.size(); k-- > 0;) {
        if (all[k].failed) failing = int(k);
        r[k] = all[k].value;
    }
    expect_no_failure(comm, mine, failing, op);
    return r;
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

/// allreduce_min carrying the verdict of the local steps before it (one
/// MPI_Allreduce of two words). Throws on every rank when one failed.
inline std::uint64_t allreduce_min(const communicator& comm, std::uint64_t v, const local_failure& mine, const char* op) {
    std::uint64_t in[2] = {v, mine.failed() ? std::uint64_t(comm.rank()) : ~std::uint64_t(0)}, out[2] = {0, 0};
    mpi_check(MPI_Allreduce(in, out, 2, MPI_UINT64_T, MPI_MIN, comm.mpi()), op);
    expect_no_failure(comm, mine, out[1] == ~std::uint64_t(0) ? comm.size() : int(out[1]), op);
    return out[0];
}

/// True on every rank when ok is true on every rank.
inline bool all_ok(const communicator& comm, bool ok, const char* op) {
    int mine = ok ? 1 : 0, all = 0;
    mpi_check(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm.mpi()), op);
    return all == 1;
}

/// all_ok carrying the verdict of the local steps before it (one MPI_Allreduce
/// of two words). Throws on every rank when one failed.
inline bool all_ok(const communicator& comm, bool ok, const local_failure& mine, const char* op) {
    int in[2] = {ok ? 1 : 0, mine.failed() ? comm.rank() : comm.size()}, out[2] = {0, 0};
    mpi_check(MPI_Allreduce(in, out, 2, MPI_INT, MPI_MIN, comm.mpi()), op);
    expect_no_failure(comm, mine, out[1], op);
    return out[0] == 1;
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

/// exchange_counts carrying the verdict of the local steps before it: a rank
/// that failed sends -1 to every rank (counts are never negative), so every
/// rank learns of every failure with no extra word. Throws on every rank when one failed.
inline std::vector<index_t> exchange_counts(const communicator& comm, const std::vector<index_t>& send,
                                            const local_failure& mine, const char* op) {
    const auto recv = exchange_counts(comm, mine.failed() ? std::vector<index_t>(std::size_t(comm.size()), -1) : send, op);
    int failing = comm.size();
    for (std::size_t k = recv.size(); k-- > 0;)
        if (recv[k] < 0) failing = int(k);
    expect_no_failure(comm, mine, failing, op);
    return recv;
}

/// Every rank's values (the same number from each), in rank order: rank r's at [r * v.size(), ...).
inline std::vector<index_t> allgather_counts(const communicator& comm, const std::vector<index_t>& v, const char* op) {
    std::vector<std::int64_t> mine(v.begin(), v.end()), all(v.size() * std::size_t(comm.size()));
    const int k = mpi_count(index_t(v.size()), op);
    mpi_check(MPI_Allgather(mine.data(), k, MPI_INT64_T, all.data(), k, MPI_INT64_T, comm.mpi()), op);
    return std::vector<index_t>(all.begin(), all.end());
}

/// allgather_counts carrying the verdict of the local steps before it: a
/// rank that failed sends -1 counts (counts are never negative). Throws on
/// every rank when one failed.
inline std::vector<index_t> allgather_counts(const communicator& comm, const std::vector<index_t>& v,
                                             const local_failure& mine, const char* op) {
    const auto all = allgather_counts(comm, mine.failed() ? std::vector<index_t>(v.size(), -1) : v, op);
    int failing = comm.size();
    const std::size_t k = v.size();
    for (std::size_t r = std::size_t(comm.size()); k && r-- > 0;)
        if (all[r * k] < 0) failing = int(r);
    expect_no_failure(comm, mine, failing, op);
    return all;
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

#if defined(SCANVEC_HAVE_NCCL)
/// Every rank's value of T at slots[rank] (device memory of comm.size() T's)
/// gathered into every rank's slots, device to device (NCCL's all-gather),
/// queued on the current stream: no host round trip. Communicators that use NCCL only.
template <class T> void allgather_on_device(const communicator& comm, T* slots, const char* op) {
    static_assert(std::is_trivially_copyable_v<T>, "dist: values sent between ranks must be trivially copyable");
    nccl_engine::allgather_slots(comm, slots, sizeof(T), op);
}
#endif

/// exchange_columns with both sides' places given (all_to_all_side's second
/// constructor): for callers that leave gaps, or send one range to two
/// ranks, where exchanges_in_place(comm) says the engine reads and writes
/// the columns' own memory.
inline void exchange_columns(const communicator& comm, const all_to_all_side& out, const all_to_all_side& in,
                             const std::vector<column>& cols, const char* op) {
    if (cols.empty()) return;
#if defined(SCANVEC_HAVE_NCCL)
    if (comm.uses_nccl()) return nccl_engine::exchange_columns(comm, out, in, cols, op);
#endif
    mpi_engine::exchange_columns(comm, out, in, cols, op);
}

/// Whether the element exchanges read and write the columns' own memory
/// (NCCL, or MPI on the host backend), rather than host copies of them
/// packed end to end (MPI on CUDA builds).
inline bool exchanges_in_place(const communicator& comm) {
#if defined(SCANVEC_BACKEND_CUDA)
    return comm.uses_nccl();
#else
    (void)comm;
    return true;
#endif
}

/// The element exchange: every column's elements go to their destination
/// ranks (send_counts[r] to rank r, grouped by rank; recv_counts[r] arrive
/// from rank r, grouped by rank). Collective. Over MPI it waits until this
/// rank's data has arrived; over NCCL it is queued on the vectors' stream.
/// op names the step in errors; the engine's call is added to it.
inline void exchange_columns(const communicator& comm, const std::vector<index_t>& send_counts,
                             const std::vector<index_t>& recv_counts, const std::vector<column>& cols, const char* op) {
    exchange_columns(comm, all_to_all_side(send_counts), all_to_all_side(recv_counts), cols, op);
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
