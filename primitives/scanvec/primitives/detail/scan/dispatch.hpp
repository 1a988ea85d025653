// scanvec/primitives/detail/scan/dispatch.hpp - the passes every scan-like primitive is built on.
//
// Over (iterator, length): inclusive and exclusive scan, the same restarting
// at segment boundaries (a scan by key), and reduce. On CUDA they call CUB's
// single-pass decoupled look-back scans and its reduction directly, with
// temporary storage from the runtime's cache (no allocation, no
// synchronisation except to return a reduction to the host). On the host
// backend the reduction is Thrust's OpenMP reduce and the scans are ours
// (scan/host.hpp: Thrust's OpenMP system scans on one thread).
//
// Item counts are 32-bit below 2^31 elements and 64-bit above (CUB is faster
// with 32-bit offsets), and CUB picks its tuned policies only for operators it
// recognises, so sv::plus over an arithmetic type reaches CUB as
// cuda::std::plus (cub_op). Measurements: docs/design/scans-and-reductions.md.
#pragma once

#include <scanvec/primitives/operators.hpp>
#include <scanvec/runtime/device_value.hpp>
#include <scanvec/runtime/label.hpp>
#include <scanvec/runtime/policy.hpp>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <scanvec/primitives/detail/scan/cuda/ordered_reduce.hpp>
#  include <scanvec/primitives/detail/scan/policy.hpp>
#  include <scanvec/primitives/detail/segmented_scan/cuda/tiles.hpp>
#  include <cub/block/block_load.cuh>
#  include <cub/block/block_scan.cuh>
#  include <cub/block/block_store.cuh>
#  include <cub/device/device_reduce.cuh>
#  include <cub/device/device_scan.cuh>
#  include <cuda/std/functional>
#else
#  include <scanvec/primitives/detail/scan/host.hpp>
#  include <thrust/scan.h>
#  include <thrust/reduce.h>
#endif
#include <thrust/fill.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdint>
#include <limits>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

#if defined(SCANVEC_BACKEND_CUDA)
/// Runs a CUB device algorithm given the size of its temporary storage.
template <class Call> void cub_launch(const char* op, std::size_t bytes, Call& call) {
    runtime::scratch temp(bytes ? bytes : 1);  // CUB reads a null pointer as a size query
    backend::check(call(temp.get(), bytes), op);
    backend::check_launch(op);
}

/// Runs a CUB device algorithm with the two-phase temporary storage hidden:
/// `call(temp, bytes)` is invoked once to size and once to run.
template <class Call> void cub_run(const char* op, Call&& call) {
    std::size_t bytes = 0;
    backend::check(call(nullptr, bytes), op);
    cub_launch(op, bytes, call);
}

/// cub_run for CUB's scans and reductions, whose temporary storage depends
/// only on the item count: the size query runs once per call site, device and
/// count, not before every launch. It repeats CUB's whole dispatch (device
/// attributes, occupancy), host time the GPU waits through before each kernel.
template <class Call> void cub_run_by_count(const char* op, std::size_t n, Call&& call) {
    struct size_of_last {
        int device = -1;
        std::size_t n = 0, bytes = 0;
    };
    thread_local size_of_last last;  // one per instantiation: per call site and types
    int device = 0;
    backend::check(cudaGetDevice(&device), op);
    if (last.device != device || last.n != n) {
        std::size_t bytes = 0;
        backend::check(call(nullptr, bytes), op);
        last = {device, n, bytes};
    }
    cub_launch(op, last.bytes, call);
}

/// The operator as CUB should see it: its own plus for arithmetic +, which
/// selects the tuned scan policies; others unchanged.
template <class Op> Op cub_op(Op op) { return op; }
template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0> ::cuda::std::plus<T> cub_op(plus<T>) { return {}; }
template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0> ::cuda::std::plus<T> cub_op(flipped<plus<T>>) {
    return {};
}

/// call(count) with the count as int32 when it fits, else as int64.
template <class Call> auto with_count(std::size_t n, Call&& call) {
    if (n <= std::size_t(std::numeric_limits<std::int32_t>::max())) return call(static_cast<std::int32_t>(n));
    return call(static_cast<std::int64_t>(n));
}
#endif

#if defined(SCANVEC_BACKEND_CUDA)
/// A scan of n <= one_block_scan_shape<T>::size items by one block, in
/// order (any associative op): exclusive from init, or inclusive.
template <bool Exclusive, class T, class In, class Out, class Op>
__global__ void __launch_bounds__(one_block_scan_shape<T>::threads)
    one_block_scan(In in, int n, Out out, Op op, T init) {
    using shape = one_block_scan_shape<T>;
    using load = cub::BlockLoad<T, shape::threads, shape::items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using scan = cub::BlockScan<T, shape::threads>;
    using store = cub::BlockStore<T, shape::threads, shape::items, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    __shared__ union {
        typename load::TempStorage load;
        typename scan::TempStorage scan;
        typename store::TempStorage store;
    } smem;
    T v[shape::items];
    load(smem.load).Load(in, v, n, init);  // past n: never stored, never before a stored item
    __syncthreads();
    if constexpr (Exclusive) scan(smem.scan).ExclusiveScan(v, v, init, op);
    else scan(smem.scan).InclusiveScan(v, v, op);
    __syncthreads();
    store(smem.store).Store(out, v, n);
}

/// An initial value the scan reads on the device (cub::FutureValue): CUB's scan only.
template <class T> struct is_future_value : std::false_type {};
template <class V, class It> struct is_future_value<cub::FutureValue<V, It>> : std::true_type {};

/// Runs the scan as one block when n fits one (one_block_scan_shape); false otherwise.
template <bool Exclusive, class T, class In, class Out, class Op>
bool scan_in_one_block(In in, std::size_t n, Out out, Op op, T init, stream_t s) {
    using shape = one_block_scan_shape<T>;
    if constexpr (!shape::fits || is_future_value<T>::value) {
        return false;
    } else {
        if (n > std::size_t(shape::size)) return false;
        one_block_scan<Exclusive, T><<<1, shape::threads, 0, s>>>(in, int(n), out, op, init);
        backend::check_launch(Exclusive ? "exclusive scan (one block)" : "inclusive scan (one block)");
        return true;
    }
}
#endif

template <class In, class Out, class Op>
void inclusive_scan_n(In in, std::size_t n, Out out, Op op, stream_t s) {
    if (n == 0) return;
#if defined(SCANVEC_BACKEND_CUDA)
    using T = std::decay_t<decltype(op(*in, *in))>;
    if (scan_in_one_block<false>(in, n, out, op, T{}, s)) return;  // T{}: the items past n, never stored
    cub_run_by_count("inclusive scan (cub::DeviceScan::InclusiveScan)", n, [&](void* t, std::size_t& b) {
        return with_count(n, [&](auto count) { return cub::DeviceScan::InclusiveScan(t, b, in, out, cub_op(op), count, s); });
    });
#else
    (void)s;
    omp_scan<false>(in, index_t(n), out, op, 0);
#endif
}

template <class In, class Out, class Op, class T>
void exclusive_scan_n(In in, std::size_t n, Out out, Op op, T init, stream_t s) {
    if (n == 0) return;
#if defined(SCANVEC_BACKEND_CUDA)
    if (scan_in_one_block<true>(in, n, out, op, init, s)) return;
    cub_run_by_count("exclusive scan (cub::DeviceScan::ExclusiveScan)", n, [&](void* t, std::size_t& b) {
        return with_count(n, [&](auto count) { return cub::DeviceScan::ExclusiveScan(t, b, in, out, cub_op(op), init, count, s); });
    });
#else
    (void)s;
    omp_scan<true>(in, index_t(n), out, op, init);
#endif
}

/// min(i, last): reads past the end repeat the last element.
struct clamp_to {
    index_t last;
    SCANVEC_HD index_t operator()(index_t i) const { return i < last ? i : last; }
};

/// The exclusive scan of in[0..n) and its total in one pass: out[0..n] gets
/// n + 1 values, out[n] the total. The scan runs over n + 1 items whose last
/// repeats in[n-1]; an exclusive scan never folds its last item in.
template <class In, class Out, class Op, class T>
void exclusive_scan_with_total_n(In in, std::size_t n, Out out, Op op, T init, stream_t s) {
    if (n == 0) {
        thrust::fill_n(policy(s), out, 1, init);
        backend::check_launch("exclusive scan (empty)");
        return;
    }
    auto repeat_last = thrust::make_permutation_iterator(
        in, thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), clamp_to{index_t(n - 1)}));
    exclusive_scan_n(repeat_last, n + 1, out, op, init, s);
}

#if defined(SCANVEC_BACKEND_CUDA)
/// Whether neighbouring scan positions a, b (|a - b| = 1) lie in one segment,
/// for CUB's scan by key over the positions: not when the later one heads a
/// segment. CUB also compares the padding of a partial last tile, which
/// repeats one key (a == b): one position, no flag read.
template <class Heads> struct same_by_heads {
    Heads heads;
    template <class K> SCANVEC_HD bool operator()(K a, K b) const { return a == b || !heads[index_t(a < b ? b : a)]; }
};
#endif

/// Scans of the values in[0..n) that restart wherever a segment starts:
/// heads[j] is true when scan position j (j >= 1) begins a new segment;
/// position 0 always does. On CUDA one pass of the tile kernel
/// (segmented_scan/cuda/tiles.hpp) that reads the values and the flags and writes
/// the result; items over 256 bytes take CUB's scan by key, whose keys are
/// the positions themselves (no key array).
template <bool Inclusive, class In, class Out, class Heads, class Op, class T>
void scan_by_segment_n(In in, std::size_t n, Heads heads, Out out, Op op, T init, stream_t s) {
    if (n == 0) return;
#if defined(SCANVEC_BACKEND_CUDA)
    if constexpr (segmented_scan_shape<T>::fits) {
        segmented_scan_by_tiles<Inclusive, T>(in, n, heads, out, op, init, s);
    } else {
        const char* name = Inclusive ? "segmented scan (cub::DeviceScan::InclusiveScanByKey)"
                                     : "segmented scan (cub::DeviceScan::ExclusiveScanByKey)";
        cub_run_by_count(name, n, [&](void* t, std::size_t& b) {
            return with_count(n, [&](auto count) {
                using K = std::make_unsigned_t<decltype(count)>;
                thrust::counting_iterator<K> keys(0);
                const same_by_heads<Heads> same{heads};
                if constexpr (Inclusive)
                    return cub::DeviceScan::InclusiveScanByKey(t, b, keys, in, out, cub_op(op), K(count), same, s);
                else
                    return cub::DeviceScan::ExclusiveScanByKey(t, b, keys, in, out, cub_op(op), init, K(count), same,
                                                               s);
            });
        });
    }
#else
    (void)s;
    omp_scan_by_segment<!Inclusive>(in, index_t(n), heads, out, op, init);
#endif
}

/// in[0] op ... op in[n-1] written to *out, memory the kernels read: no host
/// round trip. init is op's identity. On CUDA an operator that declares it
/// commutes (is_commutative_v) goes to cub::DeviceReduce, which may combine in
/// any order; any other to the order-keeping reduction. Thrust's OpenMP reduce
/// keeps the order (each thread folds a contiguous interval, the intervals are
/// combined in order). out is a pointer, or (an operator that commutes) an
/// output iterator that stores a function of the reduction.
template <class In, class Op, class T, class Out> void reduce_into(In in, std::size_t n, Op op, T init, Out out, stream_t s) {
#if defined(SCANVEC_BACKEND_CUDA)
    if (n == 0) {
        thrust::fill_n(policy(s), out, 1, init);
        backend::check_launch("reduce (empty)");
        return;
    }
    if constexpr (!is_commutative_v<Op>) {
        ordered_reduce(in, n, op, init, out, s);
        return;
    }
    cub_run_by_count("reduce (cub::DeviceReduce::Reduce)", n, [&](void* t, std::size_t& b) {
        return with_count(n, [&](auto count) { return cub::DeviceReduce::Reduce(t, b, in, out, count, cub_op(op), init, s); });
    });
#else
    *out = thrust::reduce(policy(s), in, in + n, init, op);
#endif
}

/// Reduces n values to one, returned to the host (the one synchronisation).
template <class In, class Op, class T> T reduce_n(In in, std::size_t n, Op op, T init, stream_t s) {
    if (n == 0) return init;
    device_value<T> result(s);
    reduce_into(in, n, op, init, result.ptr(), s);
    return result.get();
}

}  SCANVEC_NAMESPACE_END  // detail
