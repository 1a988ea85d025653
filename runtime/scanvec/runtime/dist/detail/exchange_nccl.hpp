// scanvec/runtime/dist/detail/exchange_nccl.hpp - the element exchanges over NCCL,
// device memory to device memory (CUDA builds with SCANVEC_HAVE_NCCL, one GPU
// per rank).
//
// NCCL has no all-to-all call: an exchange is one group of point-to-point
// calls (ncclGroupStart, an ncclSend and an ncclRecv per peer and column,
// ncclGroupEnd), which NCCL runs together. The calls are queued on the
// vectors' stream and return without waiting: later work on that stream sees
// the data. Counts are words (size_t), so no message limit as in MPI. Large
// messages that start off a 16-byte boundary on their rank travel through an
// aligned temporary on that side (stage_min_bytes).
#pragma once

#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/dist/communicator.hpp>
#include <scanvec/runtime/dist/detail/exchange.hpp>
#include <scanvec/runtime/memory.hpp>

#include <nccl.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace dist::detail::nccl_engine {

/// A message of at least this many bytes whose address on this rank is not a
/// 16-byte boundary goes through an aligned temporary on this rank's side (a
/// device copy before the send, or after the receive): NCCL moves such a
/// message in packs of one word, far slower than in its 16-byte packs, and a
/// local copy costs less than the difference (docs/design/distributed.md,
/// "CUDA and NCCL", has the measurements). Below it the copy's launch would
/// cost more than it saves. Tests lower it to reach the path with small vectors.
inline std::size_t& stage_min_bytes() {
    static std::size_t bytes = std::size_t(1) << 20;
    return bytes;
}
/// How many messages this process has sent or received through a temporary.
inline std::atomic<std::size_t>& staged_messages() {
    static std::atomic<std::size_t> count{0};
    return count;
}

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

/// The NCCL type a message moves as: the widest word (8, 4, 2 or 1 bytes)
/// dividing the element's size, so both ends choose the same (NCCL wants a
/// send and its receive to agree on type and count), and every address is
/// a multiple of it (arrays are aligned to their elements). NCCL copies in
/// 16-byte packs when the addresses allow and in packs of one word of the
/// type otherwise, so messages that start at arbitrary elements (a sort's
/// cuts, a split's runs) move far faster as words than as bytes
/// (docs/design/distributed.md, "CUDA and NCCL").
struct nccl_words {
    ncclDataType_t type;
    std::size_t count;
};
inline nccl_words words_of(std::size_t elem_bytes, index_t count) {
    const std::size_t bytes = std::size_t(count) * elem_bytes;
    if (elem_bytes % 8 == 0) return {ncclUint64, bytes / 8};
    if (elem_bytes % 4 == 0) return {ncclUint32, bytes / 4};
    if (elem_bytes % 2 == 0) return {ncclFloat16, bytes / 2};  // any 2-byte type: send and receive only move bits
    return {ncclUint8, bytes};
}

/// The calls of one exchange, inside its group: count elements of a column
/// sent from element `from` of its send array, or received at element `to`
/// of its receive array, on the vectors' stream. What a rank sends
/// itself is a device copy on that stream instead (at the memory's speed,
/// where NCCL's copy to self is several times slower), made once both ends
/// are known: a self message's send and receive are paired in order.
class peer_calls {
public:
    peer_calls(const communicator& comm, const std::string& op)
        : comm_(comm), name_(op + " [ncclSend/ncclRecv]"), stream_(backend::current_place().stream), group_(name_) {}
    void send(const column& c, index_t from, index_t count, int peer) {
        if (count <= 0) return;
        const unsigned char* src = at(c.send, from, c.elem_bytes);
        const std::size_t bytes = std::size_t(count) * c.elem_bytes;
        if (peer == comm_.rank()) return self_.push_back({src, nullptr, bytes}), pair_self();
        if (unsigned char* stage = worth_staging(src, bytes) ? new_stage(bytes) : nullptr) {  // to a 16-byte boundary first
            backend::copy_on_device(stage, src, bytes, stream_, name_.c_str());
            src = stage;
        }
        const auto w = words_of(c.elem_bytes, count);
        nccl_check(ncclSend(src, w.count, w.type, peer, comm_.nccl(), stream_), name_.c_str());
    }
    void recv(const column& c, index_t to, index_t count, int peer) {
        if (count <= 0) return;
        unsigned char* dst = at(c.recv, to, c.elem_bytes);
        const std::size_t bytes = std::size_t(count) * c.elem_bytes;
        if (peer == comm_.rank()) return self_recv_.push_back({nullptr, dst, bytes}), pair_self();
        if (unsigned char* stage = worth_staging(dst, bytes) ? new_stage(bytes) : nullptr) {  // into place after the group
            unstage_.push_back({stage, dst, bytes});
            dst = stage;
        }
        const auto w = words_of(c.elem_bytes, count);
        nccl_check(ncclRecv(dst, w.count, w.type, peer, comm_.nccl(), stream_), name_.c_str());
    }
    /// Ends the group: NCCL runs every call of it together; then the messages
    /// received through temporaries are copied into place.
    void run() {
        if (!self_.empty() || !self_recv_.empty()) throw error(name_ + ": this rank's messages to itself do not pair up");
        group_.end();
        for (const piece& u : unstage_) backend::copy_on_device(u.dst, u.src, u.bytes, stream_, name_.c_str());
    }

private:
    struct piece {
        const unsigned char* src;
        unsigned char* dst;
        std::size_t bytes;
    };
    /// Copies the self messages whose send and receive are both known.
    void pair_self() {
        while (!self_.empty() && !self_recv_.empty()) {
            piece s = self_.front(), r = self_recv_.front();
            if (s.bytes != r.bytes) throw error(name_ + ": this rank's message to itself changes length");
            backend::copy_on_device(r.dst, s.src, s.bytes, stream_, name_.c_str());
            self_.erase(self_.begin());
            self_recv_.erase(self_recv_.begin());
        }
    }
    /// Off a 16-byte boundary and at least stage_min_bytes() long.
    bool worth_staging(const void* p, std::size_t bytes) const {
        return reinterpret_cast<std::uintptr_t>(p) % 16 != 0 && bytes >= stage_min_bytes();
    }
    /// A temporary at a 16-byte boundary (the cache's blocks are), kept until
    /// the group has ended; freed in stream order, after NCCL's kernel. Null
    /// when memory is short: the message then goes as it is, slower, since
    /// a rank that threw here would leave its peers waiting in the group.
    unsigned char* new_stage(std::size_t bytes) {
        try {
            stages_.emplace_back(bytes);
        } catch (const out_of_memory&) {
            return nullptr;
        }
        ++staged_messages();
        return stages_.back().as<unsigned char>();
    }
    const communicator& comm_;
    std::string name_;
    stream_t stream_;
    std::vector<runtime::scratch> stages_;  // before group_: outlives the group's end, also on an exception
    group group_;
    std::vector<piece> self_, self_recv_, unstage_;
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
