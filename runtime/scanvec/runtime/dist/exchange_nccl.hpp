// scanvec/runtime/dist/exchange_nccl.hpp - the element exchanges over NCCL,
// device memory to device memory (CUDA builds with SCANVEC_HAVE_NCCL, one GPU
// per rank).
//
// NCCL has no all-to-all call: an exchange is one group of point-to-point
// calls (ncclGroupStart, an ncclSend and an ncclRecv per peer and column,
// ncclGroupEnd), which NCCL runs together. The calls are queued on the
// vectors' stream and return without waiting: later work on that stream sees
// the data. Counts are bytes (size_t), so no message limit as in MPI.
#pragma once

#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/buffer.hpp>
#include <scanvec/runtime/dist/communicator.hpp>
#include <scanvec/runtime/dist/exchange.hpp>

#include <nccl.h>

#include <string>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace dist::detail::nccl_engine {

/// ncclGroupStart on construction, ncclGroupEnd by end(); a group left by an
/// exception is closed too (NCCL requires every group to end).
class group {
public:
    explicit group(const std::string& op) : op_(op) { nccl_check(ncclGroupStart(), op_.c_str()); }
    group(const group&) = delete;
    group& operator=(const group&) = delete;
    void end() {
        open_ = false;
        nccl_check(ncclGroupEnd(), op_.c_str());
    }
    ~group() {
        if (open_) (void)ncclGroupEnd();
    }

private:
    std::string op_;
    bool open_ = true;
};

inline const unsigned char* at(const void* base, index_t elem, std::size_t elem_bytes) {
    return static_cast<const unsigned char*>(base) + std::size_t(elem) * elem_bytes;
}
inline unsigned char* at(void* base, index_t elem, std::size_t elem_bytes) {
    return static_cast<unsigned char*>(base) + std::size_t(elem) * elem_bytes;
}

/// exchange_columns over NCCL: one group for every column and peer.
inline void exchange_columns(const communicator& comm, const all_to_all_side& out, const all_to_all_side& in,
                             const std::vector<column>& cols, const std::string& op) {
    const std::string name = op + " [ncclSend/ncclRecv]";
    const stream_t s = backend::current_place().stream;
    const int p = comm.size();
    group g(name);
    for (const column& c : cols)
        for (int r = 0; r < p; ++r) {
            const std::size_t k = std::size_t(r);
            if (out.counts[k] > 0)
                nccl_check(ncclSend(at(c.send, out.displs[k], c.elem_bytes), std::size_t(out.counts[k]) * c.elem_bytes,
                                    ncclChar, r, comm.nccl(), s),
                           name.c_str());
            if (in.counts[k] > 0)
                nccl_check(ncclRecv(at(c.recv, in.displs[k], c.elem_bytes), std::size_t(in.counts[k]) * c.elem_bytes,
                                    ncclChar, r, comm.nccl(), s),
                           name.c_str());
        }
    g.end();
}

/// exchange_placed over NCCL: a peer whose elements land in one run is
/// received in place; a peer's several runs are received into one staging
/// array and copied to their runs on the device after the group (NCCL
/// receives into contiguous memory only).
inline void exchange_placed(const communicator& comm, const placed_exchange& x, const std::vector<column>& cols,
                            const std::string& op) {
    const std::string name = op + " [ncclSend/ncclRecv]";
    const stream_t s = backend::current_place().stream;
    const int p = comm.size();
    // Elements arriving from peers with several runs, and where each peer's start in the staging array.
    index_t staged = 0;
    std::vector<index_t> stage_at(std::size_t(p), -1);
    for (int r = 0; r < p; ++r) {
        const auto& runs = x.recv_runs[std::size_t(r)];
        if (runs.size() < 2) continue;
        stage_at[std::size_t(r)] = staged;
        for (const run& u : runs) staged += u.count;
    }
    std::vector<scanvec::detail::buffer<unsigned char>> stages;
    for (const column& c : cols) stages.emplace_back(std::size_t(staged) * c.elem_bytes);

    group g(name);
    for (std::size_t ci = 0; ci < cols.size(); ++ci) {
        const column& c = cols[ci];
        for (int r = 0; r < p; ++r) {
            const std::size_t k = std::size_t(r);
            if (x.send_count[k] > 0)
                nccl_check(ncclSend(at(c.send, x.send_at[k], c.elem_bytes), std::size_t(x.send_count[k]) * c.elem_bytes,
                                    ncclChar, r, comm.nccl(), s),
                           name.c_str());
            const auto& runs = x.recv_runs[k];
            if (runs.empty()) continue;
            index_t n = 0;
            for (const run& u : runs) n += u.count;
            void* into = runs.size() == 1 ? static_cast<void*>(at(c.recv, runs[0].at, c.elem_bytes))
                                          : static_cast<void*>(at(stages[ci].data(), stage_at[k], c.elem_bytes));
            nccl_check(ncclRecv(into, std::size_t(n) * c.elem_bytes, ncclChar, r, comm.nccl(), s), name.c_str());
        }
    }
    g.end();
    for (std::size_t ci = 0; ci < cols.size(); ++ci)
        for (int r = 0; r < p; ++r) {
            const auto& runs = x.recv_runs[std::size_t(r)];
            if (runs.size() < 2) continue;
            index_t from = stage_at[std::size_t(r)];
            for (const run& u : runs) {
                backend::copy_on_device(at(cols[ci].recv, u.at, cols[ci].elem_bytes),
                                        at(stages[ci].data(), from, cols[ci].elem_bytes),
                                        std::size_t(u.count) * cols[ci].elem_bytes, s, name.c_str());
                from += u.count;
            }
        }
}

}  SCANVEC_NAMESPACE_END  // dist::detail::nccl_engine
