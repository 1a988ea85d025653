// scanvec/algorithms/dist/detail/sort.hpp - the machinery of the distributed
// radix sort (algorithms/dist/sort.hpp): the exact cuts found a digit at a
// time, the exchange in rounds merged as they land, and their tuning.
#pragma once

#include <scanvec/algorithms/radix_sort.hpp>
#include <scanvec/primitives/dist/detail/block.hpp>
#include <scanvec/primitives/dist/permute.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/runtime/dist/phases.hpp>
#include <scanvec/runtime/dist/detail/transport.hpp>
#include <scanvec/runtime/dist/vector.hpp>

#include <thrust/copy.h>
#include <thrust/merge.h>

#include <algorithm>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace dist {

/// Bits of the key decided per round of the exact cuts: 2^8 candidate
/// counts per rank boundary (2 KB a rank), so 32-bit keys take 4 rounds of
/// one small MPI_Allgather each. A wider digit would make fewer rounds of
/// larger gathers and searches; a round's cost is its latency at this size.
inline constexpr int sort_cut_digit_bits = 8;

namespace detail {

/// The exchange goes in rounds, each run merged as it lands (beside the next
/// round), where the blocks average at least this many keys and there are 3
/// ranks or more (with 2 the one merge waits for the one run either way).
/// Below it one group and the merges after it cost less: the rounds' extra
/// NCCL groups outweigh the short merges they hide (measurements in
/// docs/design/distributed.md, "The distributed sort"). Tests lower it to
/// reach the rounds with small vectors.
inline index_t& sort_rounds_min_keys() {
    static index_t keys = index_t(1) << 27;
    return keys;
}

/// Exact cuts of this rank's sorted block (ascending in radix order) for the
/// global sorted places `targets` (the p + 1 block offsets of the result):
/// cuts[q] = how many of this block's keys come before global place
/// targets[q] in (key, rank, place) order. Collective; the first gather
/// carries the verdict of the local steps before it.
template <class K>
std::vector<index_t> exact_cuts(const communicator& comm, const scanvec::vector<K>& sorted,
                                const std::vector<index_t>& targets, local_failure& failed) {
    using U = decltype(block::radix_key_bits(K()));
    constexpr int width = 8 * int(sizeof(U)), digit = sort_cut_digit_bits, fan = 1 << digit;
    static_assert(width % digit == 0, "dist::radix_sort: the key's width must be whole digits");
    const int p = comm.size(), me = comm.rank();
    const index_t m = index_t(sorted.size()), n = targets.back();
    // The boundaries strictly inside the vector; the others cut at 0 or m.
    std::vector<int> inner;
    for (int q = 1; q < p; ++q)
        if (targets[std::size_t(q)] > 0 && targets[std::size_t(q)] < n) inner.push_back(q);
    const std::size_t a = inner.size(), per_rank = a * std::size_t(fan);
    // Per inner boundary: the bits decided so far, and for every rank how
    // many of its keys lie below them (a range of radix order holds the rest).
    std::vector<U> prefix(a, U(0));
    std::vector<index_t> below(a * std::size_t(p), 0), upto(a * std::size_t(p), 0);
    const auto of = [p](std::size_t k, int r) { return k * std::size_t(p) + std::size_t(r); };  // boundary k, rank r
    for (int shift = width - digit; a && shift >= 0; shift -= digit) {
        const U low = shift ? U((U(1) << shift) - 1) : U(0);
        std::vector<U> needles(per_rank);
        for (std::size_t k = 0; k < a; ++k)
            for (int d = 0; d < fan; ++d) needles[k * fan + std::size_t(d)] = U(prefix[k] | U(U(d) << shift) | low);
        std::vector<index_t> mine(per_rank, 0);
        failed.run([&] { mine = block::count_through_radix(sorted, needles); });
        // all[r * per_rank + k * fan + d]: rank r's keys at most needle (k, d)
        const auto all = allgather_counts(comm, mine, failed, "dist::radix_sort (MPI_Allgather of the cut counts)");
        for (std::size_t k = 0; k < a; ++k) {
            const index_t t = targets[std::size_t(inner[k])];
            index_t global = 0;
            int d = 0;
            for (;; ++d) {  // the first digit whose keys take the count past t (the last one does)
                global = 0;
                for (int r = 0; r < p; ++r) global += all[std::size_t(r) * per_rank + k * fan + std::size_t(d)];
                if (global > t || d == fan - 1) break;
            }
            for (int r = 0; r < p; ++r) {
                const std::size_t at = std::size_t(r) * per_rank + k * fan;
                if (d > 0) below[of(k, r)] = all[at + std::size_t(d) - 1];
                upto[of(k, r)] = all[at + std::size_t(d)];
            }
            prefix[k] = U(prefix[k] | U(U(d) << shift));
        }
    }
    // After the last digit prefix[k] is the key at place t: the keys below it
    // come first, then those equal to it in rank order, up to t in all.
    std::vector<index_t> cuts(std::size_t(p) + 1, 0);
    cuts[std::size_t(p)] = m;
    for (int q = 1; q < p; ++q)
        cuts[std::size_t(q)] = targets[std::size_t(q)] <= 0 ? 0 : m;
    for (std::size_t k = 0; k < a; ++k) {
        index_t left = targets[std::size_t(inner[k])];  // of the keys equal to prefix[k], those before the cut
        for (int r = 0; r < p; ++r) left -= below[of(k, r)];
        for (int r = 0; r < me; ++r) left -= upto[of(k, r)] - below[of(k, r)];  // taken by lower ranks
        cuts[std::size_t(inner[k])] = below[of(k, me)] + std::clamp(left, index_t(0), upto[of(k, me)] - below[of(k, me)]);
    }
    return cuts;
}

/// The sort's exchange: rank q gets this rank's run [cuts[q], cuts[q+1]) of
/// its sorted block, sent widened to whole 16-byte words at both ends and
/// placed at a 16-byte boundary on the receiver, which merges the runs
/// inside the padding. NCCL copies 16 bytes at a time only from and to
/// 16-byte boundaries, so runs cut anywhere would move at a fraction of the
/// all-to-all's speed (docs/design/distributed.md, "The distributed sort").
/// `grain` elements make 16 bytes (1: no widening, where the engine packs
/// host copies end to end).
struct sort_exchange {
    std::vector<index_t> send_counts, send_at, recv_counts, recv_at;
    std::vector<block::run_range> run_from;  // the received run from each rank, in rank order (empty ones too)
    index_t recv_total = 0, exact_total = 0;

    sort_exchange(const communicator& comm, const std::vector<index_t>& cuts, index_t grain, local_failure& failed) {
        const std::size_t p = cuts.size() - 1;
        const index_t m = cuts[p];
        std::vector<index_t> exact(p), lead(p);
        send_counts.resize(p);
        send_at.resize(p);
        for (std::size_t q = 0; q < p; ++q) {
            exact[q] = cuts[q + 1] - cuts[q];
            send_at[q] = cuts[q] - cuts[q] % grain;
            const index_t end = std::min((cuts[q + 1] + grain - 1) / grain * grain, m);
            send_counts[q] = exact[q] ? end - send_at[q] : 0;
            lead[q] = exact[q] ? cuts[q] - send_at[q] : 0;
        }
        const auto got = exchange_counts(comm, exact, failed, "dist::radix_sort (MPI_Alltoall of counts)");
        const auto widened = grain > 1 ? exchange_counts(comm, send_counts, "dist::radix_sort (MPI_Alltoall of counts)") : got;
        const auto leads = grain > 1 ? exchange_counts(comm, lead, "dist::radix_sort (MPI_Alltoall of counts)") : lead;
        recv_counts = widened;
        recv_at.resize(p);
        for (std::size_t q = 0; q < p; ++q) {
            recv_total = (recv_total + grain - 1) / grain * grain;
            recv_at[q] = recv_total;
            const index_t first = recv_total + (grain > 1 ? leads[q] : 0);
            run_from.push_back({first, first + got[q]});
            recv_total += widened[q];
            exact_total += got[q];
        }
    }
};

/// The exchange in p rounds, each run merged as it lands: in round k this
/// rank sends its run for rank me + k and receives the run of rank me - k
/// (round 0: its own), and a second stream merges the received run into
/// those before it while the next round moves. So only the last merge (of
/// the whole block) waits for the exchange's end, where the exchange in one
/// group and ceil(log2 p) merge passes came one after the other. Returns the
/// merged block, made on the calling stream. Collective (a round a collective).
template <class K>
scanvec::vector<K> exchange_merging(const communicator& comm, const scanvec::vector<K>& sorted, const sort_exchange& x,
                                    local_failure& failed) {
    const char* op = "dist::radix_sort (exchange of the keys)";
    const int p = comm.size(), me = comm.rank();
    scanvec::vector<K> received, merged;
    failed.run([&] {
        received = scanvec::vector<K>(std::size_t(x.recv_total), no_init);
        merged = scanvec::vector<K>(std::size_t(x.exact_total), no_init);
    });
    agree(comm, failed, "dist::radix_sort (MPI_Allreduce of the verdict)");
    phase_done("counts and the verdict");
    const stream_t main = current_stream(), side = backend::side_stream(op);
    struct rejoin {  // the calling stream waits for the merges before anything here is freed, also on an exception
        stream_t main, side;
        ~rejoin() {
            try {
                backend::order_after(main, side, "dist::radix_sort (merges)");
            } catch (...) {  // no event: wait for the whole device instead
                try {
                    backend::synchronize_device("dist::radix_sort (merges)");
                } catch (...) {
                }
            }
        }
    } rejoined{main, side};
    const auto from_of = [&](int k) { return std::size_t((me - k + p) % p); };
    int last = -1;  // the round of the last run that is not empty: its merge writes the result
    for (int k = 0; k < p; ++k)
        if (x.run_from[from_of(k)].size() > 0) last = k;
    const K* acc = nullptr;  // the runs merged so far: acc_n keys
    index_t acc_n = 0;
    scanvec::vector<K> held;  // the latest merge, made on the side stream
    for (int k = 0; k < p; ++k) {
        const std::size_t to = std::size_t((me + k) % p), from = from_of(k);
        std::vector<index_t> send_counts(std::size_t(p), 0), recv_counts(std::size_t(p), 0);
        send_counts[to] = x.send_counts[to];
        recv_counts[from] = x.recv_counts[from];
        std::vector<column> cols;
        add_columns(cols, sorted, received);
        exchange_columns(comm, all_to_all_side(send_counts, x.send_at), all_to_all_side(recv_counts, x.recv_at), cols, op);
        failed.run([&] {
            const block::run_range r = x.run_from[from];
            if (r.size() == 0) return;
            const K* run = received.data() + r.begin;
            if (acc_n == 0 && k != last) {  // the first run: merged with the next
                acc = run;
                acc_n = r.size();
                return;
            }
            backend::order_after(side, main, op);  // after this round's exchange, in the stream's order
            on beside(side);
            scanvec::vector<K> next;
            K* out = merged.data();
            if (k != last) {
                next = scanvec::vector<K>(std::size_t(acc_n + r.size()), no_init);
                out = next.data();
            }
            const auto s = block::policy(side);
            if (acc_n == 0) thrust::copy(s, run, run + r.size(), out);  // the only run
            else thrust::merge(s, acc, acc + acc_n, run, run + r.size(), out, block::radix_less<K>{});
            backend::check_launch(op);
            if (k != last) {
                held = std::move(next);
                acc = held.data();
                acc_n = held.size();
            }
        });
    }
    agree(comm, failed, "dist::radix_sort (MPI_Allreduce of the verdict)");
    return merged;
}

/// Elements of K in 16 bytes where the exchange reads the arrays in place (else 1).
template <class K> index_t sort_grain(const communicator& comm) {
    return exchanges_in_place(comm) && 16 % sizeof(K) == 0 ? index_t(16 / sizeof(K)) : 1;
}

}  // namespace detail

}  SCANVEC_NAMESPACE_END  // dist
