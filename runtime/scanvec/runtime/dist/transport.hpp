// scanvec/runtime/dist/transport.hpp - what travels between ranks, and how.
//
// Two kinds of traffic: small control values on the host (block totals,
// counts, verdicts: O(p) words, MPI collectives), and the elements themselves
// (exchange_columns: one all-to-all per exchange, the raw bytes of each field
// array). The element exchange is the one place where an engine for device
// data (NCCL's grouped ncclSend/ncclRecv) replaces MPI; today CUDA builds
// stage device arrays through host memory there, since the GPU machine's MPI
// is not CUDA-aware. Everything here is collective over the communicator.
#pragma once

#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/dist/communicator.hpp>

#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace dist::detail {

/// n as an MPI count; sv::backend_error past INT_MAX (MPI 3 counts are int).
inline int mpi_count(index_t n, const char* op) {
    if (n < 0 || n > INT_MAX)
        throw backend_error(std::string("scanvec: ") + op + ": " + std::to_string(n) +
                            " elements in one message exceed MPI's int counts (2^31 - 1)");
    return int(n);
}

/// A contiguous MPI type of `bytes` bytes (one element), freed on destruction.
class byte_type {
public:
    byte_type(std::size_t bytes, const char* op) {
        mpi_check(MPI_Type_contiguous(int(bytes), MPI_BYTE, &type_), op);
        mpi_check(MPI_Type_commit(&type_), op);
    }
    byte_type(const byte_type&) = delete;
    byte_type& operator=(const byte_type&) = delete;
    ~byte_type() {
        if (type_ != MPI_DATATYPE_NULL && mpi_running()) MPI_Type_free(&type_);
    }
    MPI_Datatype get() const { return type_; }

private:
    MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

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

/// One array taking part in an exchange: `send` holds the elements grouped by
/// destination rank (send_counts[0] for rank 0, then rank 1's, ...), `recv`
/// receives them grouped by source rank. Both in the backend's memory.
struct column {
    const void* send;
    void* recv;
    std::size_t elem_bytes;
};

/// Counts and displacements of one side of an all-to-all, as MPI ints (in elements).
struct layout_ints {
    std::vector<int> counts, displs;
    index_t total = 0;
    layout_ints(const std::vector<index_t>& c, const char* op) : counts(c.size()), displs(c.size()) {
        for (std::size_t r = 0; r < c.size(); ++r) {
            counts[r] = mpi_count(c[r], op);
            displs[r] = mpi_count(total, op);
            total += c[r];
        }
        mpi_count(total, op);
    }
};

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

/// One run of positions [at, at + count) of an array.
struct run {
    index_t at;
    index_t count;
};

/// An exchange where every element lands in a place known beforehand: this
/// rank sends peer q the send_count[q] elements from position send_at[q] of
/// its send array (one contiguous range, possibly empty), and what peer r
/// sends fills the runs recv_runs[r] of its receive array, in order. Lengths
/// of the two arrays: send_total, recv_total.
struct placed_exchange {
    std::vector<index_t> send_at, send_count;
    std::vector<std::vector<run>> recv_runs;
    index_t send_total = 0, recv_total = 0;
    explicit placed_exchange(int p) : send_at(std::size_t(p), 0), send_count(std::size_t(p), 0), recv_runs(std::size_t(p)) {}
    /// Appends a received run from peer r, merged with the previous one when they touch.
    void receive(int r, index_t at, index_t count) {
        if (count <= 0) return;
        auto& runs = recv_runs[std::size_t(r)];
        if (!runs.empty() && runs.back().at + runs.back().count == at) runs.back().count += count;
        else runs.push_back(run{at, count});
    }
    /// Adds the local positions [at, at + count) to what goes to peer q (contiguous with what is there).
    void send(int q, index_t at, index_t count) {
        if (count <= 0) return;
        if (send_count[std::size_t(q)] == 0) send_at[std::size_t(q)] = at;
        send_count[std::size_t(q)] += count;
    }
};

/// The placed exchange: for each column, one MPI_Isend per peer (its
/// contiguous range) and one MPI_Irecv per peer into an indexed datatype of
/// its runs, so elements land in place with no pass after; all columns in
/// flight together, one MPI_Waitall. Collective in effect (every rank calls
/// it with matching placements); waits until this rank's data has arrived.
inline void exchange_placed(const communicator& comm, const placed_exchange& x, const std::vector<column>& cols,
                            const char* op) {
    const int p = comm.size();
    if (cols.empty()) return;
#if defined(SCANVEC_BACKEND_CUDA)
    // As in exchange_columns: device data is staged through host memory until the NCCL path lands.
    std::vector<std::vector<unsigned char>> host_send(cols.size()), host_recv(cols.size());
    for (std::size_t c = 0; c < cols.size(); ++c) {
        host_send[c].resize(std::size_t(x.send_total) * cols[c].elem_bytes);
        host_recv[c].resize(std::size_t(x.recv_total) * cols[c].elem_bytes);
        if (!host_send[c].empty()) backend::copy_to_host(host_send[c].data(), cols[c].send, host_send[c].size(), op);
    }
    auto send_ptr = [&](std::size_t c) -> const unsigned char* { return host_send[c].data(); };
    auto recv_ptr = [&](std::size_t c) -> unsigned char* { return host_recv[c].data(); };
#else
    auto send_ptr = [&](std::size_t c) -> const unsigned char* { return static_cast<const unsigned char*>(cols[c].send); };
    auto recv_ptr = [&](std::size_t c) -> unsigned char* { return static_cast<unsigned char*>(cols[c].recv); };
#endif
    constexpr int tag_base = 0x5ca0;
    std::vector<MPI_Request> requests;
    std::vector<std::unique_ptr<byte_type>> types;
    for (std::size_t c = 0; c < cols.size(); ++c) {
        types.push_back(std::make_unique<byte_type>(cols[c].elem_bytes, op));
        const MPI_Datatype t = types.back()->get();
        const int tag = tag_base + int(c);
        // Receives first: each peer's runs as one indexed type, freed once posted (MPI finishes the receive).
        for (int r = 0; r < p; ++r) {
            const auto& runs = x.recv_runs[std::size_t(r)];
            if (runs.empty()) continue;
            std::vector<int> lengths(runs.size()), displs(runs.size());
            for (std::size_t k = 0; k < runs.size(); ++k) {
                lengths[k] = mpi_count(runs[k].count, op);
                displs[k] = mpi_count(runs[k].at, op);
            }
            MPI_Datatype indexed = MPI_DATATYPE_NULL;
            mpi_check(MPI_Type_indexed(int(runs.size()), lengths.data(), displs.data(), t, &indexed), op);
            mpi_check(MPI_Type_commit(&indexed), op);
            requests.push_back(MPI_REQUEST_NULL);
            const int rc = MPI_Irecv(recv_ptr(c), 1, indexed, r, tag, comm.mpi(), &requests.back());
            MPI_Type_free(&indexed);
            mpi_check(rc, op);
        }
        for (int q = 0; q < p; ++q) {
            const index_t n = x.send_count[std::size_t(q)];
            if (n == 0) continue;
            requests.push_back(MPI_REQUEST_NULL);
            mpi_check(MPI_Isend(send_ptr(c) + std::size_t(x.send_at[std::size_t(q)]) * cols[c].elem_bytes,
                                mpi_count(n, op), t, q, tag, comm.mpi(), &requests.back()),
                      op);
        }
    }
    if (!requests.empty())
        mpi_check(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE), op);
#if defined(SCANVEC_BACKEND_CUDA)
    for (std::size_t c = 0; c < cols.size(); ++c)
        if (!host_recv[c].empty()) backend::copy_to_device(cols[c].recv, host_recv[c].data(), host_recv[c].size(), op);
#endif
}

/// The element exchange: every column's elements go to their destination
/// ranks, one all-to-all per column, all in flight together (MPI_Ialltoallv,
/// then one MPI_Waitall). Collective; waits until this rank's data has arrived.
inline void exchange_columns(const communicator& comm, const std::vector<index_t>& send_counts,
                             const std::vector<index_t>& recv_counts, const std::vector<column>& cols, const char* op) {
    const layout_ints out(send_counts, op), in(recv_counts, op);
    if (cols.empty()) return;
#if defined(SCANVEC_BACKEND_CUDA)
    // NCCL replaces this: with SCANVEC_HAVE_NCCL the device arrays will go
    // directly by grouped ncclSend/ncclRecv (one group for all columns). Until
    // then device data is staged through host memory, since MPI on the GPU
    // machine is not CUDA-aware.
    std::vector<std::vector<unsigned char>> host_send(cols.size()), host_recv(cols.size());
    for (std::size_t c = 0; c < cols.size(); ++c) {
        host_send[c].resize(std::size_t(out.total) * cols[c].elem_bytes);
        host_recv[c].resize(std::size_t(in.total) * cols[c].elem_bytes);
        backend::copy_to_host(host_send[c].data(), cols[c].send, host_send[c].size(), op);
    }
    auto send_ptr = [&](std::size_t c) -> const void* { return host_send[c].data(); };
    auto recv_ptr = [&](std::size_t c) -> void* { return host_recv[c].data(); };
#else
    auto send_ptr = [&](std::size_t c) -> const void* { return cols[c].send; };
    auto recv_ptr = [&](std::size_t c) -> void* { return cols[c].recv; };
#endif
    std::vector<std::unique_ptr<byte_type>> types;
    std::vector<MPI_Request> requests(cols.size(), MPI_REQUEST_NULL);
    for (std::size_t c = 0; c < cols.size(); ++c) {
        types.push_back(std::make_unique<byte_type>(cols[c].elem_bytes, op));
        const MPI_Datatype t = types.back()->get();
        mpi_check(MPI_Ialltoallv(send_ptr(c), out.counts.data(), out.displs.data(), t, recv_ptr(c), in.counts.data(),
                                 in.displs.data(), t, comm.mpi(), &requests[c]),
                  op);
    }
    mpi_check(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE), op);
#if defined(SCANVEC_BACKEND_CUDA)
    for (std::size_t c = 0; c < cols.size(); ++c)
        backend::copy_to_device(cols[c].recv, host_recv[c].data(), host_recv[c].size(), op);
#endif
}

}  SCANVEC_NAMESPACE_END  // dist::detail
