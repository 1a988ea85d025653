// scanvec/primitives/dist/detail/common.hpp - what the distributed primitives share:
// argument checks that every rank decides alike, owner look-ups, moving the
// field arrays of a block, and errors agreed on by all ranks.
#pragma once

#include <scanvec/primitives/dist/detail/block.hpp>
#include <scanvec/runtime/dist/vector.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace dist::detail {

/// "op (what)": the name of one step of a collective call, for its errors.
inline std::string step(const char* op, const char* what) { return std::string(op) + " (" + what + ")"; }

/// Wraps a result block on a layout the ranks know already (no communication).
template <class T>
vector<T> on_layout(scanvec::vector<T> block, const layout_ptr& layout, const communicator& comm) {
    return vector<T>(std::move(block), layout, comm, agreed);
}

/// The vectors of one call must share a communicator (the same object on every rank, so every rank decides alike).
template <class A, class... B> void expect_same_comm(const char* op, const A& a, const B&... b) {
    if (((a.comm() != b.comm()) || ...))
        throw error(std::string(op) + ": the vectors live on different communicators");
}

/// Global sizes are known to every rank: a mismatch throws on every rank, with no communication.
template <class A, class... B> void expect_same_size([[maybe_unused]] const char* op, const A& a, const B&... b) {
    (block::expect_same_length(op, a.size(), b.size()), ...);
}

inline bool same_layout(const layout_ptr& a, const layout_ptr& b) { return a == b || a->offsets == b->offsets; }

/// The rank whose block holds global position g: the largest r with offsets[r] <= g
/// (empty blocks skipped), for 0 <= g < offsets[p]. O(log p).
struct owner_of {
    const index_t* offsets;
    int ranks;
    template <class G> SCANVEC_HD int operator()(const G& g) const {
        return int(block::segment_of_position{offsets, index_t(ranks)}(index_t(g)));
    }
};

/// g - base: a global position as a position in this rank's block.
struct minus_base {
    index_t base;
    template <class G> SCANVEC_HD index_t operator()(const G& g) const { return index_t(g) - base; }
};

/// base + i: a position in this rank's block as a global position.
struct plus_base {
    index_t base;
    SCANVEC_HD index_t operator()(index_t i) const { return base + i; }
};

/// Calls f(x_column, y_column) for each backend array of two vectors of T:
/// the vectors themselves, or each pair of field arrays of a described struct.
template <class T, class F> void for_each_column(scanvec::vector<T>& x, scanvec::vector<T>& y, F&& f);
template <class T, class F, std::size_t... I>
void for_each_field(scanvec::vector<T>& x, scanvec::vector<T>& y, F& f, std::index_sequence<I...>) {
    (f(x.template field<fields_of<T>::template member<I>>(), y.template field<fields_of<T>::template member<I>>()), ...);
}
template <class T, class F> void for_each_column(scanvec::vector<T>& x, scanvec::vector<T>& y, F&& f) {
    if constexpr (is_described_v<T>) for_each_field(x, y, f, std::make_index_sequence<fields_of<T>::size>{});
    else f(x, y);
}

/// The columns of an exchange sending every array of `from` into the same array of `to`.
template <class T> void add_columns(std::vector<column>& cols, const scanvec::vector<T>& from, scanvec::vector<T>& to) {
    for_each_column(const_cast<scanvec::vector<T>&>(from), to, [&](auto& x, auto& y) {
        cols.push_back(column{x.data(), y.data(), sizeof(*x.data())});
    });
}

/// One vector's elements exchanged (every field array in one round).
template <class T>
void exchange_vector(const communicator& comm, const std::vector<index_t>& send_counts,
                     const std::vector<index_t>& recv_counts, const scanvec::vector<T>& from, scanvec::vector<T>& to,
                     const char* what) {
    std::vector<column> cols;
    add_columns(cols, from, to);
    exchange_columns(comm, send_counts, recv_counts, cols, what);
}

/// base + k (a global position) when idx[k] lies outside [0, bound), else ~0: reduced with min, the first bad one.
template <class It> struct outside_at {
    It idx;
    index_t bound;
    index_t base;
    SCANVEC_HD std::uint64_t operator()(index_t k) const {
        const long long j = static_cast<long long>(idx[k]);
        return (j >= 0 && j < bound) ? ~std::uint64_t(0) : std::uint64_t(base + k);
    }
};

/// The owner of global position `first` of idx tells everyone its value (MPI_Bcast); every rank throws the same error.
template <class Idx> [[noreturn]] void throw_bad_index(const char* op, const Idx& idx, index_t bound, std::uint64_t first) {
    const auto& block = idx.local();
    const auto& o = idx.offsets();
    const int owner = int(std::upper_bound(o.begin(), o.end() - 1, index_t(first)) - o.begin()) - 1;
    long long value = 0;
    if (idx.comm().rank() == owner) value = static_cast<long long>(block[std::size_t(index_t(first) - idx.offset())]);
    value = broadcast(idx.comm(), value, owner, (std::string(op) + " (MPI_Bcast of a bad index)").c_str());
    throw index_error(std::string(op) + ": index idx[" + std::to_string(first) + "] = " + std::to_string(value) +
                      " is out of range for length " + std::to_string(bound));
}

/// As expect_all_in_range below, the MPI_Allreduce also carrying the verdict
/// of this rank's local steps so far (the range pass runs under it too):
/// every rank throws when one failed. With checks off, one MPI_Allreduce of
/// the verdict alone.
template <class Idx> void expect_all_in_range(const char* op, const Idx& idx, index_t bound, local_failure& failed) {
#if SCANVEC_CHECKS
    const auto& block = idx.local();
    std::uint64_t mine = ~std::uint64_t(0);
    failed.run([&] {
        if (!block.empty())
            mine = scanvec::reduce(lazy::map(outside_at<decltype(block::reader(block))>{block::reader(block), bound, idx.offset()},
                                             lazy::index(block.size())),
                                   scanvec::min<std::uint64_t>{});
    });
    const std::uint64_t first =
        allreduce_min(idx.comm(), mine, failed, (std::string(op) + " (MPI_Allreduce of the index check)").c_str());
    if (first == ~std::uint64_t(0)) return;
    throw_bad_index(op, idx, bound, first);
#else
    (void)idx; (void)bound;
    agree(idx.comm(), failed, (std::string(op) + " (MPI_Allreduce of the verdict)").c_str());
#endif
}

/// Agreed by all ranks: the smallest global position of idx (a dist vector)
/// whose value is outside [0, bound), and that value; ~0 when none.
/// One pass over the block, one MPI_Allreduce; one MPI_Bcast when one is found.
template <class Idx> void expect_all_in_range(const char* op, const Idx& idx, index_t bound) {
#if SCANVEC_CHECKS
    const auto& block = idx.local();
    std::uint64_t mine = ~std::uint64_t(0);
    if (!block.empty())
        mine = scanvec::reduce(lazy::map(outside_at<decltype(block::reader(block))>{block::reader(block), bound, idx.offset()},
                                         lazy::index(block.size())),
                               scanvec::min<std::uint64_t>{});
    const std::uint64_t first = allreduce_min(idx.comm(), mine, (std::string(op) + " (MPI_Allreduce of the index check)").c_str());
    if (first == ~std::uint64_t(0)) return;
    throw_bad_index(op, idx, bound, first);
#else
    (void)op; (void)idx; (void)bound;
#endif
}

}  SCANVEC_NAMESPACE_END  // dist::detail
