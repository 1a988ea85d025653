// scanvec/runtime/dist/detail/exchange.hpp - what an element exchange moves: the
// arrays (columns) and, for each peer, how many elements go and where they
// land. The engines (exchange_mpi.hpp, exchange_nccl.hpp) carry it out;
// transport.hpp chooses between them.
#pragma once

#include <scanvec/runtime/config.hpp>

#include <cstddef>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace dist::detail {

/// One array taking part in an exchange: `send` holds the elements grouped by
/// destination rank (send_counts[0] for rank 0, then rank 1's, ...), `recv`
/// receives them grouped by source rank. Both in the backend's memory.
struct column {
    const void* send;
    void* recv;
    std::size_t elem_bytes;
};

/// One side of an all-to-all: counts[r] elements for (or from) rank r,
/// starting at displs[r]; total = their sum.
struct all_to_all_side {
    std::vector<index_t> counts, displs;
    index_t total = 0;
    explicit all_to_all_side(const std::vector<index_t>& c) : counts(c), displs(c.size()) {
        for (std::size_t r = 0; r < c.size(); ++r) {
            displs[r] = total;
            total += c[r];
        }
    }
    /// Counts at places of the caller's choosing (gaps allowed; send ranges
    /// may overlap, receive ranges must not).
    all_to_all_side(const std::vector<index_t>& c, const std::vector<index_t>& at) : counts(c), displs(at) {
        for (index_t k : c) total += k;
    }
};

/// One run of positions [at, at + count) of an array.
struct run {
    index_t at;
    index_t count;
};

/// An exchange where every element lands in a place known beforehand: this
/// rank sends peer q the send_count[q] elements from position send_at[q] of
/// its send array (one contiguous range, possibly empty), and what peer r
/// sends fills the runs recv_runs[r] of its receive array, in order. Both
/// sides also know how the other cuts a message into runs: send_runs[q] are
/// the runs of q's receive array that this rank's range fills, in order, so
/// an engine that receives only into contiguous memory (NCCL) can send run
/// by run and receive in place. Lengths of the two arrays: send_total,
/// recv_total.
struct placed_exchange {
    std::vector<index_t> send_at, send_count;
    std::vector<std::vector<run>> send_runs, recv_runs;
    index_t send_total = 0, recv_total = 0;
    explicit placed_exchange(int p)
        : send_at(std::size_t(p), 0), send_count(std::size_t(p), 0), send_runs(std::size_t(p)), recv_runs(std::size_t(p)) {}
    /// Appends a received run from peer r, merged with the previous one when they touch.
    void receive(int r, index_t at, index_t count) { append(recv_runs[std::size_t(r)], at, count); }
    /// Adds the local positions [at, at + count) to what goes to peer q
    /// (contiguous with what is there), landing at [dest, dest + count) there.
    void send(int q, index_t at, index_t count, index_t dest) {
        if (count <= 0) return;
        if (send_count[std::size_t(q)] == 0) send_at[std::size_t(q)] = at;
        send_count[std::size_t(q)] += count;
        append(send_runs[std::size_t(q)], dest, count);
    }

private:
    static void append(std::vector<run>& runs, index_t at, index_t count) {
        if (count <= 0) return;
        if (!runs.empty() && runs.back().at + runs.back().count == at) runs.back().count += count;
        else runs.push_back(run{at, count});
    }
};

}  SCANVEC_NAMESPACE_END  // dist::detail
