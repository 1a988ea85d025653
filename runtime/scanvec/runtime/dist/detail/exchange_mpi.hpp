// scanvec/runtime/dist/detail/exchange_mpi.hpp - the element exchanges over MPI.
//
// The host backend's engine, and the CUDA backend's where NCCL is absent or
// the ranks share a GPU. MPI on the GPU machine is not CUDA-aware, so CUDA
// builds stage each column through host memory here (the ranges that move
// copied out before, and to their places after). Collective over the
// communicator. The steps of one rank alone (the staging, the counts as
// MPI's ints) run under a verdict that every rank shares before any message
// is posted, and the copies back to the device under one shared after.
#pragma once

#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/dist/communicator.hpp>
#include <scanvec/runtime/dist/detail/exchange.hpp>
#include <scanvec/runtime/dist/verdict.hpp>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace dist::detail::mpi_engine {

/// The ranges of a column that an exchange reads (or writes): count[k]
/// elements from position at[k], k in rank order. An all-to-all side names
/// its ranges at places of the caller's choosing (gaps allowed), a placed
/// exchange the whole array.
struct staged_ranges {
    std::vector<index_t> at, count;
    static staged_ranges whole(index_t n) { return {{0}, {n}}; }
    static staged_ranges of(const all_to_all_side& s) { return {s.displs, s.counts}; }
    /// Where each range lies once packed one after another, and their sum.
    std::vector<index_t> packed(index_t& total) const {
        std::vector<index_t> r(at.size());
        total = 0;
        for (std::size_t k = 0; k < at.size(); ++k) {
            r[k] = total;
            total += count[k];
        }
        return r;
    }
};

/// Where MPI reads and writes the columns' bytes: the columns' own arrays on
/// the host backend; on CUDA builds host copies of the ranges that move,
/// packed (the send side filled when made, the receive side copied to its
/// places on the device by finish(): only those, since the rest of the
/// receive array may hold what earlier exchanges put there).
class staging {
public:
    staging(const std::vector<column>& cols, staged_ranges send, staged_ranges recv, const char* op)
        : cols_(cols), send_ranges_(std::move(send)), recv_ranges_(std::move(recv)) {
#if defined(SCANVEC_BACKEND_CUDA)
        index_t send_total = 0, recv_total = 0;
        send_at_ = send_ranges_.packed(send_total);
        recv_at_ = recv_ranges_.packed(recv_total);
        send_.resize(cols.size());
        recv_.resize(cols.size());
        for (std::size_t c = 0; c < cols.size(); ++c) {
            const std::size_t e = cols[c].elem_bytes;
            send_[c].resize(std::size_t(send_total) * e);
            recv_[c].resize(std::size_t(recv_total) * e);
            for (std::size_t k = 0; k < send_at_.size(); ++k)
                if (send_ranges_.count[k] > 0)
                    backend::copy_to_host(send_[c].data() + std::size_t(send_at_[k]) * e,
                                          static_cast<const unsigned char*>(cols[c].send) + std::size_t(send_ranges_.at[k]) * e,
                                          std::size_t(send_ranges_.count[k]) * e, op);
        }
#else
        send_at_ = send_ranges_.at;
        recv_at_ = recv_ranges_.at;
        (void)op;
#endif
    }
    const unsigned char* send(std::size_t c) const {
#if defined(SCANVEC_BACKEND_CUDA)
        return send_[c].data();
#else
        return static_cast<const unsigned char*>(cols_[c].send);
#endif
    }
    unsigned char* recv(std::size_t c) {
#if defined(SCANVEC_BACKEND_CUDA)
        return recv_[c].data();
#else
        return static_cast<unsigned char*>(cols_[c].recv);
#endif
    }
    /// The ranges' places in send(c) and recv(c): packed on CUDA builds, the caller's on the host.
    const std::vector<index_t>& send_at() const { return send_at_; }
    const std::vector<index_t>& recv_at() const { return recv_at_; }
    /// The received ranges to their places (CUDA builds: copies to the
    /// device, under `failed`, whose verdict every rank then shares).
    void finish(const communicator& comm, local_failure& failed, const std::string& op) {
#if defined(SCANVEC_BACKEND_CUDA)
        failed.run([&] {
            for (std::size_t c = 0; c < cols_.size(); ++c) {
                const std::size_t e = cols_[c].elem_bytes;
                for (std::size_t k = 0; k < recv_at_.size(); ++k)
                    if (recv_ranges_.count[k] > 0)
                        backend::copy_to_device(
                            static_cast<unsigned char*>(cols_[c].recv) + std::size_t(recv_ranges_.at[k]) * e,
                            recv_[c].data() + std::size_t(recv_at_[k]) * e, std::size_t(recv_ranges_.count[k]) * e,
                            op.c_str());
            }
        });
        agree(comm, failed, (op + " (MPI_Allreduce of the verdict)").c_str());
#else
        (void)comm, (void)failed, (void)op;
#endif
    }

private:
    const std::vector<column>& cols_;
    staged_ranges send_ranges_, recv_ranges_;
    std::vector<index_t> send_at_, recv_at_;  // see send_at()
#if defined(SCANVEC_BACKEND_CUDA)
    std::vector<std::vector<unsigned char>> send_, recv_;
#endif
};

/// exchange_columns over MPI: one MPI_Ialltoallv per column, all in flight
/// together, one MPI_Waitall. Counts past 2^31 - 1 in one message are an
/// sv::backend_error (MPI 3 counts are int).
inline void exchange_columns(const communicator& comm, const all_to_all_side& out, const all_to_all_side& in,
                             const std::vector<column>& cols, const std::string& op) {
    const std::string name = op + " [MPI_Ialltoallv]";
    const auto ints = [&](const std::vector<index_t>& v) {
        std::vector<int> r(v.size());
        for (std::size_t k = 0; k < v.size(); ++k) r[k] = mpi_count(v[k], name.c_str());
        return r;
    };
    local_failure failed;
    std::optional<staging> stage;
    std::vector<int> out_counts, out_displs, in_counts, in_displs;
    failed.run([&] {
        mpi_count(out.total, name.c_str());
        mpi_count(in.total, name.c_str());
        stage.emplace(cols, staged_ranges::of(out), staged_ranges::of(in), name.c_str());
        out_counts = ints(out.counts), out_displs = ints(stage->send_at());
        in_counts = ints(in.counts), in_displs = ints(stage->recv_at());
    });
    agree(comm, failed, (name + " (MPI_Allreduce of the verdict)").c_str());
    std::vector<std::unique_ptr<byte_type>> types;
    std::vector<MPI_Request> requests(cols.size(), MPI_REQUEST_NULL);
    for (std::size_t c = 0; c < cols.size(); ++c) {
        types.push_back(std::make_unique<byte_type>(cols[c].elem_bytes, name.c_str()));
        const MPI_Datatype t = types.back()->get();
        mpi_check(MPI_Ialltoallv(stage->send(c), out_counts.data(), out_displs.data(), t, stage->recv(c),
                                 in_counts.data(), in_displs.data(), t, comm.mpi(), &requests[c]),
                  name.c_str());
    }
    mpi_check(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE), name.c_str());
    stage->finish(comm, failed, name);
}

/// exchange_placed over MPI: per column, one MPI_Isend per peer (its
/// contiguous range) and one MPI_Irecv per peer into an indexed datatype of
/// its runs, so elements land in place with no pass after; all columns in
/// flight together, one MPI_Waitall.
inline void exchange_placed(const communicator& comm, const placed_exchange& x, const std::vector<column>& cols,
                            const std::string& op) {
    const std::string name = op + " [MPI_Isend/MPI_Irecv]";
    const int p = comm.size();
    local_failure failed;
    std::optional<staging> stage;
    std::vector<std::vector<int>> lengths(static_cast<std::size_t>(p)), displs(static_cast<std::size_t>(p));  // each peer's runs, as MPI's ints
    std::vector<int> send_counts(std::size_t(p), 0);
    failed.run([&] {
        stage.emplace(cols, staged_ranges::whole(x.send_total), staged_ranges::whole(x.recv_total), name.c_str());
        for (int r = 0; r < p; ++r) {
            const auto& runs = x.recv_runs[std::size_t(r)];
            for (const auto& run : runs) {
                lengths[std::size_t(r)].push_back(mpi_count(run.count, name.c_str()));
                displs[std::size_t(r)].push_back(mpi_count(run.at, name.c_str()));
            }
            send_counts[std::size_t(r)] = mpi_count(x.send_count[std::size_t(r)], name.c_str());
        }
    });
    agree(comm, failed, (name + " (MPI_Allreduce of the verdict)").c_str());
    constexpr int tag_base = 0x5ca0;
    std::vector<MPI_Request> requests;
    std::vector<std::unique_ptr<byte_type>> types;
    for (std::size_t c = 0; c < cols.size(); ++c) {
        types.push_back(std::make_unique<byte_type>(cols[c].elem_bytes, name.c_str()));
        const MPI_Datatype t = types.back()->get();
        const int tag = tag_base + int(c);
        // Receives first: each peer's runs as one indexed type, freed once posted (MPI finishes the receive).
        for (int r = 0; r < p; ++r) {
            const auto& l = lengths[std::size_t(r)];
            if (l.empty()) continue;
            MPI_Datatype indexed = MPI_DATATYPE_NULL;
            mpi_check(MPI_Type_indexed(int(l.size()), l.data(), displs[std::size_t(r)].data(), t, &indexed), name.c_str());
            mpi_check(MPI_Type_commit(&indexed), name.c_str());
            requests.push_back(MPI_REQUEST_NULL);
            const int rc = MPI_Irecv(stage->recv(c), 1, indexed, r, tag, comm.mpi(), &requests.back());
            MPI_Type_free(&indexed);
            mpi_check(rc, name.c_str());
        }
        for (int q = 0; q < p; ++q) {
            if (send_counts[std::size_t(q)] == 0) continue;
            requests.push_back(MPI_REQUEST_NULL);
            mpi_check(MPI_Isend(stage->send(c) + std::size_t(x.send_at[std::size_t(q)]) * cols[c].elem_bytes,
                                send_counts[std::size_t(q)], t, q, tag, comm.mpi(), &requests.back()),
                      name.c_str());
        }
    }
    if (!requests.empty())
        mpi_check(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE), name.c_str());
    stage->finish(comm, failed, name);
}

}  SCANVEC_NAMESPACE_END  // dist::detail::mpi_engine
