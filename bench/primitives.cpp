// bench/primitives.cpp - map, scan, reduce, segmented scan, permute, back_permute.
//
// Each against what a user would pick instead: on CUDA, CUB (temporary storage
// allocated once, outside the timed region) or Thrust with thrust::device; on
// the host, a plain sequential loop.
#include "harness.hpp"

#include <scanvec/primitives/elementwise.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/scan.hpp>
#include <scanvec/primitives/segmented.hpp>

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
    c.alternative("sequential loop", "loop", [&] {
        const int* in = a.data();
        const int* to = idx.data();
        int* out = ref.data();
        for (std::size_t i = 0; i < n; ++i) out[to[i]] = in[i];
    });
#endif
    c.scanvec_call("sv::permute", [&](std::string&) { return same(sv::permute(a, idx), ref); },
                   [&] { auto r = sv::permute(a, idx); });
    c.scanvec_call("sv::permute unchecked", [&](std::string&) { return same(sv::permute(a, idx, sv::unchecked), ref); },
                   [&] { auto r = sv::permute(a, idx, sv::unchecked); });
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
