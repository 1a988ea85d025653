// bench/primitives.cpp - map, scan, reduce, segmented scan, permute, back_permute.
//
// Each against what a user would pick instead: on CUDA, CUB (temporary storage
// allocated once, outside the timed region) or Thrust with thrust::device; on
// the host, a plain sequential loop.
#include "harness.hpp"
#include "rows.hpp"
#include <scanvec/runtime/interop.hpp>

#include <scanvec/primitives/elementwise.hpp>
#include <scanvec/primitives/multisplit.hpp>
#include <scanvec/primitives/random.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/scan.hpp>
#include <scanvec/primitives/segmented_scan.hpp>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <cub/device/device_reduce.cuh>
#  include <cub/device/device_scan.cuh>
#  include <thrust/gather.h>
#  include <thrust/scan.h>
#  include <thrust/scatter.h>
#  include <thrust/transform.h>
#endif

namespace bench {
namespace {

struct add_one {
    template <class T> SCANVEC_HD T operator()(const T& x) const { return x + 1; }
};

struct to_int {
    SCANVEC_HD int operator()(bool b) const { return b ? 1 : 0; }
};

template <class T> void scan_of(suite& s, std::size_t n) {
    const auto a = small_values<T>(n);
    sv::vector<T> ref(n, sv::no_init);
    config c(s, "scan", std::is_integral_v<T> ? "exclusive +, values 0..7" : "exclusive +, values [0,1)",
             type_name<T>(), n);
    c.bytes(2.0 * n * sizeof(T), n * sizeof(T));
#if defined(SCANVEC_BACKEND_CUDA)
    cub_call cub_scan([&](void* t, std::size_t& b) {
        return cub::DeviceScan::ExclusiveSum(t, b, a.data(), ref.data(), int(n));
    });
    c.alternative("cub::DeviceScan::ExclusiveSum", "cub scan", [&] { cub_scan(); });
#else
    c.alternative("sequential loop", "loop", [&] {
        const T* in = a.data();
        T* out = ref.data();
        T sum = 0;
        for (std::size_t i = 0; i < n; ++i) out[i] = sum, sum += in[i];
    });
#endif
    c.scanvec_call("sv::scan", [&](std::string&) { return same(sv::scan(a), ref, tolerance<T>()); },
                   [&] { auto r = sv::scan(a); });
    if constexpr (std::is_same_v<T, int>) {  // the caller's own memory: a view in, the result into a buffer
        sv::vector<T> buffer(n, sv::no_init);   // stands for the caller's allocation
        const auto in = sv::view_of(a.data(), n);
        c.scanvec_call("sv::scan(view_of, into)",
                       [&](std::string&) {
                           sv::scan(in, sv::into(buffer));
                           return same(buffer, ref, tolerance<T>());
                       },
                       [&] { sv::scan(in, sv::into(buffer)); });
    }
    c.finish();
}

template <class T> void reduce_of(suite& s, std::size_t n) {
    const auto a = small_values<T>(n);
    T want{};
    config c(s, "reduce", std::is_integral_v<T> ? "+, values 0..7" : "+, values [0,1)", type_name<T>(), n);
    c.bytes(1.0 * n * sizeof(T), n * sizeof(T));
#if defined(SCANVEC_BACKEND_CUDA)
    // The sum comes back to the host, as sv::reduce's does (through pinned memory).
    sv::runtime::scratch d_sum(sizeof(T));
    pinned<T> h_sum;
    cub_call cub_sum([&](void* t, std::size_t& b) {
        return cub::DeviceReduce::Sum(t, b, a.data(), d_sum.as<T>(), int(n));
    });
    c.alternative("cub::DeviceReduce::Sum", "cub reduce", [&] {
        cub_sum();
        cuda_check(cudaMemcpyAsync(h_sum.get(), d_sum.get(), sizeof(T), cudaMemcpyDeviceToHost, 0), "cudaMemcpyAsync");
        cuda_check(cudaStreamSynchronize(0), "cudaStreamSynchronize");
        want = *h_sum.get();
    });
#else
    c.alternative("sequential loop", "loop", [&] {
        const T* in = a.data();
        T sum = 0;
        for (std::size_t i = 0; i < n; ++i) sum += in[i];
        want = sum;
    });
#endif
    c.scanvec_call("sv::reduce", [&](std::string&) { return same_value(sv::reduce(a), want, tolerance<T>()); },
                   [&] { volatile T r = sv::reduce(a); (void)r; });
    c.finish();
}

/// An affine map x -> m*x + c mod 2^32 packed in one word (m high, c low): f then g. Not commutative.
struct affine_then {
    SCANVEC_HD std::uint64_t operator()(std::uint64_t f, std::uint64_t g) const {
        const std::uint32_t fm = std::uint32_t(f >> 32), fc = std::uint32_t(f), gm = std::uint32_t(g >> 32),
                            gc = std::uint32_t(g);
        return (std::uint64_t(gm * fm) << 32) | std::uint32_t(gm * fc + gc);
    }
};

/// sv::reduce with an operator that does not commute (the order-keeping path), against the
/// commutative reduction of the same 64-bit words (CUB's on CUDA: the memory-bound reference).
void reduce_in_order(suite& s, std::size_t n) {
    const auto a = random_keys<std::uint64_t>(n, 5);
    const auto op = sv::monoid(affine_then{}, std::uint64_t(1) << 32);
    config c(s, "reduce", "non-commutative monoid (affine maps), in order", "uint64", n);
    c.bytes(1.0 * n * sizeof(std::uint64_t), n * sizeof(std::uint64_t));
    std::uint64_t want = 0;
#if defined(SCANVEC_BACKEND_CUDA)
    sv::runtime::scratch d_sum(sizeof(std::uint64_t));
    pinned<std::uint64_t> h_sum;
    cub_call cub_sum([&](void* t, std::size_t& b) {
        return cub::DeviceReduce::Sum(t, b, a.data(), d_sum.as<std::uint64_t>(), int(n));
    });
    c.alternative("cub::DeviceReduce::Sum of the same words (commutative)", "cub reduce +", [&] {
        cub_sum();
        cuda_check(cudaMemcpyAsync(h_sum.get(), d_sum.get(), sizeof(std::uint64_t), cudaMemcpyDeviceToHost, 0),
                   "cudaMemcpyAsync");
        cuda_check(cudaStreamSynchronize(0), "cudaStreamSynchronize");
    });
    want = sv::scan_total(a, op).total;  // CUB's single-pass scan keeps the order
#else
    c.alternative("sequential loop", "loop", [&] {
        const std::uint64_t* in = a.data();
        std::uint64_t acc = op.identity();
        for (std::size_t i = 0; i < n; ++i) acc = op(acc, in[i]);
        want = acc;
    });
#endif
    c.scanvec_call("sv::reduce (in order)", [&](std::string&) { return same_value(sv::reduce(a, op), want); },
                   [&] { volatile std::uint64_t r = sv::reduce(a, op); (void)r; });
    c.finish();
}

#if defined(SCANVEC_BACKEND_CUDA)
struct count_atomically {
    const std::uint32_t* d;
    unsigned long long* counts;
    __device__ void operator()(std::int64_t i) const { atomicAdd(counts + d[i], 1ull); }
};
#endif

/// sv::histogram of n random digits into m bins.
void histogram_of(suite& s, std::size_t n, sv::index_t m) {
    const auto d = sv::random<std::uint32_t>(n, 9, 0u, std::uint32_t(m - 1));
    const std::string shape = std::to_string(m) + " bins, uniform digits";
    config c(s, "histogram", shape.c_str(), "uint32", n);
    c.bytes(1.0 * n * sizeof(std::uint32_t), double(m) * sizeof(sv::index_t));
    std::vector<sv::index_t> want;
#if defined(SCANVEC_BACKEND_CUDA)
    sv::vector<unsigned long long> counts(static_cast<std::size_t>(m));
    c.alternative("atomicAdd kernel (thrust::for_each)", "atomics", [&] {
        cuda_check(cudaMemsetAsync(counts.data(), 0, std::size_t(m) * sizeof(unsigned long long), 0), "cudaMemsetAsync");
        thrust::for_each_n(thrust::device, thrust::counting_iterator<std::int64_t>(0), std::int64_t(n),
                           count_atomically{d.data(), counts.data()});
    });
    const auto h = counts.to_host();
    want.assign(h.begin(), h.end());
#else
    c.alternative("sequential loop", "loop", [&] {
        std::vector<sv::index_t> r(std::size_t(m), 0);
        const std::uint32_t* in = d.data();
        for (std::size_t i = 0; i < n; ++i) ++r[in[i]];
        want = std::move(r);
    });
#endif
    c.scanvec_call("sv::histogram",
                   [&](std::string&) { return sv::histogram(d, m).to_host() == want ? std::string() : "counts differ"; },
                   [&] { auto r = sv::histogram(d, m); });
    c.finish();
}

}  // namespace

void bench_map(suite& s, std::size_t n) {
    const auto a = small_values<int>(n);
    sv::vector<int> ref(n, sv::no_init);
    config c(s, "map", "x + 1", "int32", n);
    c.bytes(2.0 * n * sizeof(int), n * sizeof(int));
#if defined(SCANVEC_BACKEND_CUDA)
    c.alternative("thrust::transform", "thrust transform",
                  [&] { thrust::transform(thrust::device, a.begin(), a.end(), ref.begin(), add_one{}); });
#else
    c.alternative("sequential loop", "loop", [&] {
        const int* in = a.data();
        int* out = ref.data();
        for (std::size_t i = 0; i < n; ++i) out[i] = in[i] + 1;
    });
#endif
    c.scanvec_call("sv::map", [&](std::string&) { return same(sv::map(add_one{}, a), ref); },
                   [&] { auto r = sv::map(add_one{}, a); });
    c.finish();
}

void bench_scan(suite& s, std::size_t n, bool growth_only) {
    scan_of<int>(s, n);
    if (!growth_only) scan_of<float>(s, n);
}

void bench_reduce(suite& s, std::size_t n) {
    reduce_of<int>(s, n);
    reduce_of<float>(s, n);
    reduce_in_order(s, n);
}

void bench_histogram(suite& s, std::size_t n) {
    for (sv::index_t m : {sv::index_t(256), sv::index_t(1) << 16, sv::index_t(n)}) histogram_of(s, n, m);
}

void bench_segmented_scan(suite& s, std::size_t n) {
    const auto a = small_values<int>(n);
    const auto heads = random_heads(n, 64);
    sv::vector<int> ref(n, sv::no_init);
    config c(s, "segmented_scan", "head flags, random, mean length 64", "int32", n);
    c.bytes(n * (2.0 * sizeof(int) + sizeof(bool)), n * sizeof(int));
#if defined(SCANVEC_BACKEND_CUDA)
    // A Thrust user keys the segments: ids = inclusive +-scan of the heads (not timed).
    sv::vector<int> ids(n, sv::no_init);
    thrust::inclusive_scan(thrust::device, thrust::make_transform_iterator(heads.begin(), to_int{}),
                           thrust::make_transform_iterator(heads.end(), to_int{}), ids.begin());
    c.alternative("thrust::exclusive_scan_by_key (int32 segment ids)", "thrust scan_by_key",
                  [&] { thrust::exclusive_scan_by_key(thrust::device, ids.begin(), ids.end(), a.begin(), ref.begin()); });
#else
    c.alternative("sequential loop", "loop", [&] {
        const int* in = a.data();
        const bool* h = heads.data();
        int* out = ref.data();
        int sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (h[i]) sum = 0;
            out[i] = sum;
            sum += in[i];
        }
    });
#endif
    c.scanvec_call("sv::segmented_scan", [&](std::string&) { return same(sv::segmented_scan(a, heads), ref); },
                   [&] { auto r = sv::segmented_scan(a, heads); });
    c.finish();
}

void bench_permute(suite& s, std::size_t n) {
    const auto a = small_values<int>(n);
    const auto idx = random_permutation(n);
    sv::vector<int> ref(n, sv::no_init);
    config c(s, "permute", "random permutation (int32 indices)", "int32", n);
    c.bytes(3.0 * n * sizeof(int), n * sizeof(int));
#if defined(SCANVEC_BACKEND_CUDA)
    c.alternative("thrust::scatter", "thrust scatter",
                  [&] { thrust::scatter(thrust::device, a.begin(), a.end(), idx.begin(), ref.begin()); });
#else
    c.alternative("sequential loop", "loop", [&] { scatter_loop(a, idx, ref); });
#endif
    permute_rows(c, a, idx, ref);
    c.finish();
}

void bench_back_permute(suite& s, std::size_t n) {
    const auto a = small_values<int>(n);
    const auto idx = random_permutation(n);
    sv::vector<int> ref(n, sv::no_init);
    config c(s, "back_permute", "random permutation (int32 indices)", "int32", n);
    c.bytes(3.0 * n * sizeof(int), n * sizeof(int));
#if defined(SCANVEC_BACKEND_CUDA)
    c.alternative("thrust::gather", "thrust gather",
                  [&] { thrust::gather(thrust::device, idx.begin(), idx.end(), a.begin(), ref.begin()); });
#else
    c.alternative("sequential loop", "loop", [&] {
        const int* in = a.data();
        const int* from = idx.data();
        int* out = ref.data();
        for (std::size_t i = 0; i < n; ++i) out[i] = in[from[i]];
    });
#endif
    c.scanvec_call("sv::back_permute", [&](std::string&) { return same(sv::back_permute(a, idx), ref); },
                   [&] { auto r = sv::back_permute(a, idx); });
    c.finish();
}

}  // namespace bench
