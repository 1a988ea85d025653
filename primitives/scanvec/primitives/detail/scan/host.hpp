// scanvec/primitives/detail/scan/host.hpp - the scans on the host: blocked, on every OpenMP thread.
//
// Thrust's OpenMP system runs its scans (and scans by key) on one thread: it
// has no parallel scan of its own and falls back to the sequential one. These
// take their place on the host backend (scan/dispatch.hpp chooses them):
//
//   omp_scan(in, n, out, op, init)          exclusive (Exclusive = true) or inclusive
//   omp_scan_by_segment(in, n, heads, ...)  the same restarting where heads[j] is set (and at 0)
//
// Each cuts the positions into one block per thread (host_scan_policy) and
// runs three phases in one parallel region: every block folds its values (for
// a scan by segment: from its last head on), one thread turns the folds into
// each block's carry, in order, and every block scans itself from its carry.
// The operator's order is kept (the folds are combined left to right), so it
// need not commute. Below host_scan_policy::min_parallel elements, or on one
// thread, one sequential loop. docs/design/scans-and-reductions.md says what
// they measured.
#pragma once

#if !defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/scan/policy.hpp>
#include <scanvec/runtime/config.hpp>

#include <omp.h>

#include <cstdint>
#include <cstring>
#include <iterator>
#include <optional>
#include <type_traits>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// The blocks of n positions on the host: one per thread, at most.
inline index_t omp_scan_blocks(index_t n) {
    if (n < host_scan_policy::min_parallel) return 1;
    const index_t threads = omp_get_max_threads();
    return threads < 1 ? 1 : threads;
}

/// Scans values in[0..n) into out (any random-access output, a tabulate
/// output iterator included): exclusive from init, or inclusive.
template <bool Exclusive, class In, class Out, class Op, class T>
void omp_scan(In in, index_t n, Out out, Op op, const T& init) {
    using V = std::conditional_t<Exclusive, T,
                                 std::decay_t<std::invoke_result_t<Op, typename std::iterator_traits<In>::value_type,
                                                                   typename std::iterator_traits<In>::value_type>>>;
    const auto start = [&]() -> std::optional<V> {  // before position 0
        if constexpr (Exclusive) return V(init);
        else return std::nullopt;
    };
    const index_t blocks = omp_scan_blocks(n);
    // block b scans [lo, hi) starting from its carry (for an inclusive scan, none in block 0)
    const auto scan_block = [&](index_t lo, index_t hi, std::optional<V> carry) {
        if constexpr (Exclusive) {
            V acc = *carry;
            for (index_t i = lo; i < hi; ++i) {
                const V x = V(in[i]);
                out[i] = acc;
                acc = op(acc, x);
            }
        } else {
            index_t i = lo;
            V acc = carry ? op(*carry, V(in[i])) : V(in[i]);
            out[i] = acc;
            for (++i; i < hi; ++i) {
                acc = op(acc, V(in[i]));
                out[i] = acc;
            }
        }
    };
    if (blocks == 1) {
        scan_block(0, n, start());
        return;
    }
    std::vector<std::optional<V>> fold(static_cast<std::size_t>(blocks)), carry(static_cast<std::size_t>(blocks));
#pragma omp parallel num_threads(int(blocks))
    {
        const index_t b = omp_get_thread_num(), nb = omp_get_num_threads();
        const index_t lo = n * b / nb, hi = n * (b + 1) / nb;
        if (b + 1 < nb && lo < hi) {  // the last block's fold carries nowhere
            V acc = V(in[lo]);
            for (index_t i = lo + 1; i < hi; ++i) acc = op(acc, V(in[i]));
            fold[std::size_t(b)] = acc;
        }
#pragma omp barrier
#pragma omp single
        {
            std::optional<V> c = start();
            for (index_t k = 0; k < nb; ++k) {
                carry[std::size_t(k)] = c;
                if (fold[std::size_t(k)]) c = c ? op(*c, *fold[std::size_t(k)]) : *fold[std::size_t(k)];
            }
        }  // (an implicit barrier)
        if (lo < hi) scan_block(lo, hi, carry[std::size_t(b)]);
    }
}

/// h ? a : b, for integers without a branch (segment heads fall at random).
template <class V> V pick(bool h, const V& a, const V& b) {
    if constexpr (std::is_integral_v<V> && !std::is_same_v<V, bool>) {
        using U = std::make_unsigned_t<V>;
        const U m = U(0) - U(h);
        return V((U(a) & m) | (U(b) & ~m));
    } else {
        return h ? a : b;
    }
}

/// The positions a segmented scan checks for heads at once (8: one 64-bit word of bool flags).
constexpr index_t scan_run = 8;

/// Whether none of the scan_run flags from position i is set: one 64-bit read
/// when the flags are a bool array (each byte 0 or 1), never otherwise (the
/// caller then steps element by element).
template <class Heads> bool no_head_in_run(Heads heads, index_t i) {
    if constexpr (std::is_same_v<Heads, const bool*> || std::is_same_v<Heads, bool*>) {
        std::uint64_t w;
        std::memcpy(&w, heads + i, sizeof w);
        return w == 0;
    } else {
        (void)heads, (void)i;
        return false;
    }
}

/// A scan of in[0..n) restarting wherever heads[j] is set (and at 0):
/// exclusive from init at every head, or inclusive. Where the flags are a
/// bool array, runs of scan_run positions without a head scan plainly.
template <bool Exclusive, class In, class Out, class Heads, class Op, class T>
void omp_scan_by_segment(In in, index_t n, Heads heads, Out out, Op op, const T& init) {
    using V = T;
    const auto head = [&](index_t i) { return i == 0 || bool(heads[i]); };
    // the fold through position i given the fold before it: from init at a
    // head (exclusive), from nothing at the start of a block without one
    const auto step = [&](const std::optional<V>& acc, index_t i) -> V {
        const V x = V(in[i]);
        if (head(i)) return Exclusive ? V(op(V(init), x)) : x;
        return acc ? V(op(*acc, x)) : x;
    };
    // From the fold before lo (any value when lo heads a segment, as 0 does);
    // a select, not a branch, at each head: segments of a few elements cost
    // no mispredicted jumps.
    const auto scan_block = [&](index_t lo, index_t hi, std::optional<V> carry) {
        const V id = V(init);
        const Heads hd = heads;  // local copies: the stores through out cannot change them
        const Op f = op;
        const Out o = out;
        V acc = carry ? *carry : id;
        for (index_t i = lo; i < hi;) {
            if (i > 0 && i + scan_run <= hi && no_head_in_run(hd, i)) {  // a plain scan: no select in the chain
                for (index_t j = i; j < i + scan_run; ++j) {
                    const V x = V(in[j]);
                    if constexpr (Exclusive) {
                        o[j] = acc;
                        acc = f(acc, x);
                    } else {
                        acc = f(acc, x);
                        o[j] = acc;
                    }
                }
                i += scan_run;
                continue;
            }
            const bool h = i == 0 || bool(hd[i]);
            const V x = V(in[i]);
            if constexpr (Exclusive) {
                const V before = pick(h, id, acc);
                o[i] = before;
                acc = f(before, x);
            } else {
                acc = pick(h, x, V(f(acc, x)));
                o[i] = acc;
            }
            ++i;
        }
    };
    const index_t blocks = omp_scan_blocks(n);
    if (blocks == 1) {
        scan_block(0, n, std::nullopt);
        return;
    }
    // per block: whether it holds a head, and its fold from its last head (or its start) on
    std::vector<char> has_head(static_cast<std::size_t>(blocks), 0);
    std::vector<std::optional<V>> fold(static_cast<std::size_t>(blocks)), carry(static_cast<std::size_t>(blocks));
#pragma omp parallel num_threads(int(blocks))
    {
        const index_t b = omp_get_thread_num(), nb = omp_get_num_threads();
        const index_t lo = n * b / nb, hi = n * (b + 1) / nb;
        if (b + 1 < nb && lo < hi) {
            // from the block's last head on, or all of it
            index_t from = hi - 1;
            while (from > lo && !head(from)) --from;
            has_head[std::size_t(b)] = head(from);
            std::optional<V> acc;
            for (index_t i = from; i < hi; ++i) acc = step(acc, i);
            fold[std::size_t(b)] = acc;
        }
#pragma omp barrier
#pragma omp single
        {
            std::optional<V> c;
            for (index_t k = 0; k < nb; ++k) {
                carry[std::size_t(k)] = c;
                const auto& f = fold[std::size_t(k)];
                if (f) c = has_head[std::size_t(k)] || !c ? *f : V(op(*c, *f));
            }
        }
        if (lo < hi) scan_block(lo, hi, carry[std::size_t(b)]);
    }
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
