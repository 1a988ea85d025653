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
