// scanvec/runtime/dist/vector.hpp - sv::dist::vector<T>: one vector in blocks over the ranks.
//
// Rank r holds the elements at global positions offsets()[r] .. offsets()[r+1]-1
// as an ordinary sv::vector<T> (local(); described structs are stored as one
// array per field there too). Blocks may be uneven and ranks may hold none.
// Every rank knows the global size and every rank's offset: they are agreed
// when the vector is made, so checks of lengths need no communication.
#pragma once

#include <scanvec/runtime/dist/detail/transport.hpp>
#include <scanvec/runtime/sequence.hpp>
#include <scanvec/runtime/vector.hpp>

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace dist {
namespace detail {

/// Where each rank's block starts: offsets[r] for rank r, offsets[p] = the
/// global size; the same copy on the host and in the backend's memory (for
/// owner look-ups inside a pass).
struct layout {
    std::vector<index_t> offsets;
    explicit layout(std::vector<index_t> o) : offsets(std::move(o)) {}
    /// The offsets in the backend's memory, copied there on first use: a
    /// local step of the call that needs them (it may run out of memory
    /// there, under that call's agreement), not of every layout's making.
    const scanvec::vector<index_t>& device_offsets() const {
        std::call_once(copied_, [this] { device_ = scanvec::vector<index_t>(offsets); });
        return device_;
    }
    index_t size() const { return offsets.back(); }
    int ranks() const { return int(offsets.size()) - 1; }
    index_t largest_block() const {
        index_t largest = 0;
        for (std::size_t r = 0; r + 1 < offsets.size(); ++r) largest = std::max(largest, offsets[r + 1] - offsets[r]);
        return largest;
    }

private:
    mutable std::once_flag copied_;
    mutable scanvec::vector<index_t> device_;
};
using layout_ptr = std::shared_ptr<const layout>;

inline layout_ptr make_layout(std::vector<index_t> offsets) { return std::make_shared<const layout>(std::move(offsets)); }

/// Offsets of blocks of the given sizes, in rank order.
inline std::vector<index_t> offsets_of(const std::vector<index_t>& sizes) {
    std::vector<index_t> o(sizes.size() + 1, 0);
    for (std::size_t r = 0; r < sizes.size(); ++r) o[r + 1] = o[r] + sizes[r];
    return o;
}

/// Offsets of n elements in p blocks whose sizes differ by at most one (the first n % p get one more).
inline std::vector<index_t> even_offsets(index_t n, int p) {
    std::vector<index_t> sizes(std::size_t(p), n / p);
    for (index_t r = 0; r < n % p; ++r) ++sizes[std::size_t(r)];
    return offsets_of(sizes);
}

/// Host elements as one contiguous array (std::vector<bool> has none).
template <class T> using host_elem = std::conditional_t<std::is_same_v<T, bool>, unsigned char, T>;
static_assert(sizeof(bool) == 1, "scanvec::dist moves bool arrays as bytes");

template <class T> std::vector<host_elem<T>> contiguous(const std::vector<T>& h) {
    return std::vector<host_elem<T>>(h.begin(), h.end());
}
template <class T> scanvec::vector<T> upload(const std::vector<host_elem<T>>& h) {
    return scanvec::vector<T>(reinterpret_cast<const T*>(h.data()), h.size());
}

/// The library's own invariant: a block's length matches what its layout says.
inline void expect_block(index_t want, std::size_t got) {
    if (index_t(got) != want)
        throw error("dist::vector: a block of " + std::to_string(got) + " elements where the layout says " +
                    std::to_string(want));
}

/// Tag: a block whose layout the ranks have agreed on already (no communication).
struct agreed_t {};
inline constexpr agreed_t agreed{};

}  // namespace detail

/// A vector of T spread over the ranks of a communicator in contiguous blocks.
/// T as for sv::vector: arithmetic, bool, or a described struct.
template <class T> class vector {
public:
    using value_type = T;
    using block_type = scanvec::vector<T>;

    /// An empty vector over dist::world() (no communication once world() exists).
    vector() : vector(block_type{}, detail::make_layout(std::vector<index_t>(std::size_t(world().size()) + 1, 0)),
                      world(), detail::agreed) {}

    /// This rank's block is `block`; the blocks follow each other in rank order.
    /// Collective: one MPI_Allgather of the block sizes.
    explicit vector(block_type block, const communicator& comm = world())
        : comm_(comm), block_(std::move(block)) {
        const auto sizes = detail::allgather(comm_, index_t(block_.size()), "dist::vector (MPI_Allgather of block sizes)");
        layout_ = detail::make_layout(detail::offsets_of(sizes));
    }

    /// As vector(block, comm), the block's steps having run under `failure`:
    /// the MPI_Allgather of the block sizes also carries whether they failed
    /// (on a rank that failed, block is not read), and every rank throws when
    /// one did (transport.hpp).
    vector(block_type block, const communicator& comm, const detail::local_failure& failure, const char* op)
        : comm_(comm), block_(std::move(block)) {
        const auto sizes = detail::allgather(comm_, index_t(block_.size()), failure, op);
        layout_ = detail::make_layout(detail::offsets_of(sizes));
    }
    /// A block on a layout every rank knows already (the library's own results). No communication.
    vector(block_type block, detail::layout_ptr layout, const communicator& comm, detail::agreed_t)
        : comm_(comm), layout_(std::move(layout)), block_(std::move(block)) {
        detail::expect_block(layout_->offsets[std::size_t(comm_.rank()) + 1] - layout_->offsets[std::size_t(comm_.rank())],
                             block_.size());
    }

    /// A copy: each rank copies its block. Collective: one MPI_Allreduce of
    /// the copies' verdict, so that an out-of-memory on one rank throws on
    /// every rank. Moves are free and local.
    vector(const vector& o)
        : comm_(o.comm_), layout_(o.layout_),
          block_(detail::local_call(comm_, "dist::vector (copy; MPI_Allreduce of the verdict)", [&] { return o.block_; })) {}
    vector(vector&&) = default;
    /// Collective, as the copy.
    vector& operator=(const vector& o) {
        if (this != &o) *this = vector(o);
        return *this;
    }
    vector& operator=(vector&&) = default;

    /// Collective: root's host data in even blocks (sizes differ by at most one).
    /// Other ranks' `host` is ignored. O(n) bytes leave root (MPI_Scatterv).
    static vector scatter(const std::vector<T>& host, int root = 0, const communicator& comm = world()) {
        const index_t n = detail::broadcast(comm, index_t(host.size()), root, "dist::scatter (MPI_Bcast of the size)");
        return scatter_to(host, detail::make_layout(detail::even_offsets(n, comm.size())), root, comm);
    }

    /// Collective: root's host data in blocks of the given sizes (the same
    /// block_sizes on every rank, one per rank, summing to root's host.size()).
    static vector scatter(const std::vector<T>& host, const std::vector<index_t>& block_sizes, int root,
                          const communicator& comm = world()) {
        if (int(block_sizes.size()) != comm.size())
            throw error("dist::scatter: " + std::to_string(block_sizes.size()) + " block sizes for " +
                        std::to_string(comm.size()) + " ranks");
        const index_t n = detail::broadcast(comm, index_t(host.size()), root, "dist::scatter (MPI_Bcast of the size)");
        auto layout = detail::make_layout(detail::offsets_of(block_sizes));
        if (layout->size() != n)
            throw length_error("dist::scatter: block sizes add up to " + std::to_string(layout->size()) +
                               ", not the " + std::to_string(n) + " elements given on the root");
        return scatter_to(host, std::move(layout), root, comm);
    }

    /// The global number of elements (the same on every rank).
    std::size_t size() const { return std::size_t(layout_->size()); }
    bool empty() const { return size() == 0; }

    /// This rank's block. Keep its length: the other ranks know it.
    block_type& local() { return block_; }
    const block_type& local() const { return block_; }

    /// Global position of this rank's first element.
    index_t offset() const { return offset(comm_.rank()); }
    /// Global position of rank r's first element (r = ranks(): the global size).
    index_t offset(int r) const { return layout_->offsets[std::size_t(r)]; }
    /// Every rank's offset, then the global size (ranks() + 1 values).
    const std::vector<index_t>& offsets() const { return layout_->offsets; }
    int ranks() const { return comm_.size(); }
    const communicator& comm() const { return comm_; }
    /// The shared description of the blocks (for the library's own calls).
    const detail::layout_ptr& layout() const { return layout_; }

    /// Collective: the whole vector on root (empty on the other ranks).
    /// O(n) bytes arrive at root (MPI_Gatherv, after one MPI_Allreduce of the
    /// verdict of the host copies); waits for the device.
    std::vector<T> to_host(int root = 0) const {
        std::vector<detail::host_elem<T>> mine, all;
        std::vector<int> counts, displs;
        int sent = 0;
        detail::local_failure failed;
        failed.run([&] {
            mine = detail::contiguous(block_.to_host());
            sent = detail::mpi_count(index_t(mine.size()), "dist::to_host");
            all.resize(comm_.rank() == root ? size() : 0);
            if (comm_.rank() == root) placement(counts, displs, "dist::to_host");
        });
        detail::agree(comm_, failed, "dist::to_host (MPI_Allreduce of the verdict)");
        detail::byte_type t(sizeof(T), "dist::to_host (MPI_Type_contiguous)");
        detail::mpi_check(MPI_Gatherv(mine.data(), sent, t.get(),
                                      all.data(), counts.data(), displs.data(), t.get(), root, comm_.mpi()),
                          "dist::to_host (MPI_Gatherv)");
        if constexpr (std::is_same_v<detail::host_elem<T>, T>) return all;
        else
            return detail::local_call(comm_, "dist::to_host (MPI_Allreduce of the verdict)",
                                      [&] { return std::vector<T>(all.begin(), all.end()); });
    }

    /// The vector itself (programs written for lazy views call to_vector() on
    /// what they build; distributed programs build vectors): moved, or copied
    /// as the copy constructor copies.
    vector to_vector() const& { return *this; }
    vector to_vector() && { return std::move(*this); }

    /// Collective: the whole vector as one sv::vector on root (empty elsewhere).
    block_type gather(int root = 0) const {
        auto h = to_host(root);
        return detail::local_call(comm_, "dist::gather (MPI_Allreduce of the verdict)",
                                  [&] { return comm_.rank() == root ? block_type(h) : block_type(); });
    }

private:
    // Host buffers, and the block, under a verdict shared before the
    // MPI_Scatterv and after the upload.
    static vector scatter_to(const std::vector<T>& host, detail::layout_ptr layout, int root, const communicator& comm) {
        vector v(block_type{}, layout, comm, detail::agreed_t{}, 0);
        std::vector<detail::host_elem<T>> all, mine;
        std::vector<int> counts, displs;
        int received = 0;
        detail::local_failure failed;
        failed.run([&] {
            if (comm.rank() == root) all = detail::contiguous(host);
            mine.resize(std::size_t(v.offset(comm.rank() + 1) - v.offset()));
            received = detail::mpi_count(index_t(mine.size()), "dist::scatter");
            if (comm.rank() == root) v.placement(counts, displs, "dist::scatter");
        });
        detail::agree(comm, failed, "dist::scatter (MPI_Allreduce of the verdict)");
        detail::byte_type t(sizeof(T), "dist::scatter (MPI_Type_contiguous)");
        detail::mpi_check(MPI_Scatterv(all.data(), counts.data(), displs.data(), t.get(), mine.data(),
                                       received, t.get(), root, comm.mpi()),
                          "dist::scatter (MPI_Scatterv)");
        failed.run([&] { v.block_ = detail::upload<T>(mine); });
        detail::agree(comm, failed, "dist::scatter (MPI_Allreduce of the verdict)");
        return v;
    }
    // Unchecked: the block is filled in afterwards.
    vector(block_type block, detail::layout_ptr layout, const communicator& comm, detail::agreed_t, int)
        : comm_(comm), layout_(std::move(layout)), block_(std::move(block)) {}

    void placement(std::vector<int>& counts, std::vector<int>& displs, const char* op) const {
        counts.resize(std::size_t(ranks()));
        displs.resize(std::size_t(ranks()));
        for (int r = 0; r < ranks(); ++r) {
            counts[std::size_t(r)] = detail::mpi_count(offset(r + 1) - offset(r), op);
            displs[std::size_t(r)] = detail::mpi_count(offset(r), op);
        }
    }

    communicator comm_;
    detail::layout_ptr layout_;
    block_type block_;
};

}  SCANVEC_NAMESPACE_END  // dist
