// scanvec/dist.hpp - distributed vectors over MPI (and, on CUDA builds with NCCL, NCCL).
//
//     #include <scanvec/dist.hpp>
//     namespace sv = scanvec;
//     sv::dist::environment env(argc, argv);                 // MPI_Init ... MPI_Finalize
//     auto a = sv::dist::vector<int>::scatter(host_data);   // from rank 0, in even blocks
//     auto s = sv::dist::scan(a);                            // the same meaning as sv::scan
//     std::vector<int> h = s.to_host();                      // on rank 0
//
// Needs MPI (link MPI::MPI_CXX, or the scanvec::dist target); <scanvec/scanvec.hpp> does not.
// The book's programs written on sv::vector run unchanged on dist::vector
// (sv::split_radix_sort(d), sv::split_by_enumerate(d, f), sv::line_of_sight(d)):
// their primitives are found by argument-dependent lookup in sv::dist, their
// lazy views through the program_traits specialised below (on distributed
// vectors a lazy view is computed into a vector when made: one more pass,
// agreed by the ranks as dist::map is).
// dist::radix_sort is the distributed sort (algorithms/dist/sort.hpp: the
// one-device radix sort on each rank, exact cuts at the result's block
// boundaries found a digit at a time, one all-to-all, a merge of the runs);
// dist::quicksort sorts by processor teams (algorithms/dist/quicksort.hpp:
// the communicator splits with the vector, down to the one-device quicksort).
//
// Every dist:: call is collective over the vectors' communicator unless its
// contract says it is local. The design: docs/design/distributed.md.
#pragma once

#include <scanvec/scanvec.hpp>

#include <scanvec/runtime/dist/communicator.hpp>
#include <scanvec/runtime/dist/detail/transport.hpp>
#include <scanvec/runtime/dist/vector.hpp>

#include <scanvec/primitives/dist/elementwise.hpp>
#include <scanvec/primitives/dist/enumerate_pack.hpp>
#include <scanvec/primitives/dist/multisplit.hpp>
#include <scanvec/primitives/dist/permute.hpp>
#include <scanvec/primitives/dist/scan.hpp>
#include <scanvec/primitives/dist/segment_descriptor.hpp>
#include <scanvec/primitives/dist/segmented_scan.hpp>
#include <scanvec/primitives/dist/split.hpp>
#include <scanvec/primitives/dist/write.hpp>

#include <scanvec/algorithms/dist/sort.hpp>
#include <scanvec/algorithms/dist/quicksort.hpp>

#include <algorithm>
#include <limits>
#include <optional>
#include <tuple>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace dist {
namespace detail {

/// lazy::index(n) in a distributed program: the global positions 0..n-1, laid
/// out as the vectors it is mapped with (no vector of its own).
struct global_index {
    std::size_t n;
    std::size_t size() const { return n; }
};

using block::is_dist_vector;

/// The first distributed vector among the arguments.
template <class X, class... Y> const auto& first_vector(const X& x, const Y&... y) {
    if constexpr (is_dist_vector<X>::value) return x;
    else {
        static_assert(sizeof...(Y) > 0, "sv::dist lazy map: one argument at least must be a sv::dist::vector");
        return first_vector(y...);
    }
}

/// An argument of a map, on the layout of the map's first vector.
template <class X> struct on_first {
    const X* x;
    std::optional<X> moved;
    const X& get() const { return moved ? *moved : *x; }
};
template <> struct on_first<global_index> {
    global_index x;
};

template <class X, class V> auto align_to(const X& x, const V& first, const char* op) {
    if constexpr (std::is_same_v<X, global_index>) {
        return on_first<global_index>{x};
    } else {
        expect_same_comm(op, first, x);
        on_first<X> r{&x, std::nullopt};
        if (!same_layout(x.layout(), first.layout())) r.moved.emplace(moved_to(x, first.layout(), op));
        return r;
    }
}

/// This rank's part of an aligned argument: its block, or the global positions of the block.
template <class X, std::enable_if_t<!std::is_same_v<X, global_index>, int> = 0>
const auto& local_part(const on_first<X>& a, index_t, std::size_t) {
    return a.get().local();
}
inline auto local_part(const on_first<global_index>&, index_t base, std::size_t m) {
    return scanvec::lazy::map(plus_base{base}, scanvec::lazy::index(m));
}

/// The lazy views of a program on distributed vectors: each computes its
/// result into a dist::vector on the layout of its first vector argument.
struct program_lazy {
    template <class F, class... S> static auto map(F f, const S&... s) {
        const auto& first = first_vector(s...);
        (block::expect_same_length("dist::map", first.size(), s.size()), ...);
        auto args = std::make_tuple(align_to(s, first, "dist::map")...);
        const index_t base = first.offset();
        const std::size_t m = first.local().size();
        auto block = local_call(first.comm(), "dist::map (MPI_Allreduce of the verdict)", [&] {
            return std::apply([&](const auto&... a) { return scanvec::map(f, local_part(a, base, m)...); }, args);
        });
        return on_layout(std::move(block), first.layout(), first.comm());
    }
    static global_index index(std::size_t n) { return global_index{n}; }
    template <class T> static auto radix_digit(const vector<T>& keys, int lo, int k) {
        auto digits = scanvec::lazy::radix_digit(keys.local(), lo, k);  // checks lo and k on every rank alike
        auto block = local_call(keys.comm(), "dist::radix_digit (MPI_Allreduce of the verdict)",
                                [&] { return materialize(digits); });
        return on_layout(std::move(block), keys.layout(), keys.comm());
    }
    template <class T, class Op> static vector<T> scan(const vector<T>& x, Op op) { return dist::scan(x, op); }
};

}  // namespace detail
}  SCANVEC_NAMESPACE_END  // dist

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// Programs on distributed vectors: results are dist::vectors on the input's layout.
template <class T> struct program_traits<dist::vector<T>, void> {
    using value_type = T;
    template <class U> using vector_type = dist::vector<U>;
    using lazy = dist::detail::program_lazy;
    template <class U> static dist::vector<U> empty(const dist::vector<T>& like) {
        return dist::detail::on_layout(scanvec::vector<U>(), like.layout(), like.comm());
    }
};

}  SCANVEC_NAMESPACE_END  // detail
