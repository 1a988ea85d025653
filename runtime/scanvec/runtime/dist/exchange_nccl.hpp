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

/// The calls of one exchange, inside its group: count elements of a column
/// sent from element `from` of its send array, or received at element `to`
/// of its receive array, as bytes, on the vectors' stream.
class peer_calls {
public:
    peer_calls(const communicator& comm, const std::string& op)
        : comm_(comm), name_(op + " [ncclSend/ncclRecv]"), stream_(backend::current_place().stream), group_(name_) {}
    void send(const column& c, index_t from, index_t count, int peer) const {
        if (count > 0)
            nccl_check(ncclSend(at(c.send, from, c.elem_bytes), std::size_t(count) * c.elem_bytes, ncclChar, peer,
                                comm_.nccl(), stream_),
                       name_.c_str());
    }
    void recv(const column& c, index_t to, index_t count, int peer) const {
        if (count > 0)
            nccl_check(ncclRecv(at(c.recv, to, c.elem_bytes), std::size_t(count) * c.elem_bytes, ncclChar, peer,
                                comm_.nccl(), stream_),
                       name_.c_str());
    }
    /// Ends the group: NCCL runs every call of it together.
    void run() { group_.end(); }

private:
    const communicator& comm_;
    std::string name_;
    stream_t stream_;
    group group_;
};

/// exchange_columns over NCCL: one group for every column and peer.
inline void exchange_columns(const communicator& comm, const all_to_all_side& out, const all_to_all_side& in,
                             const std::vector<column>& cols, const std::string& op) {
    peer_calls calls(comm, op);
    for (const column& c : cols)
        for (int r = 0; r < comm.size(); ++r) {
            const std::size_t k = std::size_t(r);
            calls.send(c, out.displs[k], out.counts[k], r);
            calls.recv(c, in.displs[k], in.counts[k], r);
        }
    calls.run();
}

/// exchange_placed over NCCL: one ncclSend/ncclRecv pair per run of the
/// receiver (both sides know the runs), so every element is received in place.
inline void exchange_placed(const communicator& comm, const placed_exchange& x, const std::vector<column>& cols,
                            const std::string& op) {
    peer_calls calls(comm, op);
    for (const column& c : cols)
        for (int r = 0; r < comm.size(); ++r) {
            const std::size_t k = std::size_t(r);
            index_t from = x.send_at[k];
            for (const run& u : x.send_runs[k]) {  // NCCL matches a pair's calls in order
                calls.send(c, from, u.count, r);
                from += u.count;
            }
            for (const run& u : x.recv_runs[k]) calls.recv(c, u.at, u.count, r);
        }
    calls.run();
}

/// In place, on the device: rank r's `bytes` at slots + r * bytes go to every
/// rank's slots (ncclAllGather), queued on the current stream.
inline void allgather_slots(const communicator& comm, void* slots, std::size_t bytes, const std::string& op) {
    auto* base = static_cast<unsigned char*>(slots);
    nccl_check(ncclAllGather(base + std::size_t(comm.rank()) * bytes, base, bytes, ncclChar, comm.nccl(),
                             backend::current_place().stream),
               (op + " [ncclAllGather]").c_str());
}

}  SCANVEC_NAMESPACE_END  // dist::detail::nccl_engine
