// Memory the caller owns (views and outputs) and streams the caller gives:
// the same results as with scanvec's own vectors, on both backends.
#include "support.hpp"
#include <scanvec/primitives/elementwise.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/scan.hpp>
#include <scanvec/primitives/segmented_scan.hpp>
#include <scanvec/runtime/interop.hpp>
#include <scanvec/runtime/stream.hpp>

#include <cuda/std/span>
#include <thrust/device_vector.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <numeric>
#include <random>
#include <thread>

namespace io {
struct particle {
    float x;
    std::int32_t id;
};
SCANVEC_FIELDS(particle, x, id)
/// An affine map x -> m*x + c (mod 2^32) as {m, c}: f then g; associative, not commutative.
struct affine {
    std::uint32_t m, c;
};
SCANVEC_FIELDS(affine, m, c)
struct affine_then {
    SCANVEC_HD affine operator()(const affine& f, const affine& g) const { return {g.m * f.m, g.m * f.c + g.c}; }
};
}  // namespace io

namespace {

using io::affine;

template <class T> thrust::device_vector<T> to_device(const std::vector<T>& h) {
    return thrust::device_vector<T>(h.begin(), h.end());
}
template <class T> std::vector<T> to_host(const thrust::device_vector<T>& d) {
    std::vector<T> h(d.size());
    thrust::copy(d.begin(), d.end(), h.begin());
    return h;
}

const std::size_t interop_sizes[] = {0, 1, 33, 4099, 100003};

}  // namespace

TEST_CASE("views over caller-owned memory read like vectors") {
    for (std::size_t n : interop_sizes) {
        CAPTURE(n);
        const auto h = test::random_values<int>(n, 11 + n);
        auto d = to_device(h);
        sv::vector<int> v(h);
        test::check_equal(sv::scan(sv::view_of(d)).to_host(), sv::scan(v).to_host());
        test::check_equal(sv::inclusive_scan(sv::view_of(thrust::raw_pointer_cast(d.data()), n), sv::max<int>{}).to_host(),
                          sv::inclusive_scan(v, sv::max<int>{}).to_host());
        CHECK(sv::reduce(sv::view_of(d)) == sv::reduce(v));
        cuda::std::span<int> sp(thrust::raw_pointer_cast(d.data()), n);  // a span is a container too
        test::check_equal(sv::scan(sv::view_of(sp)).to_host(), sv::scan(v).to_host());
        const thrust::device_vector<int>& cd = d;  // read-only memory gives a read-only view
        auto twice = sv::map(SCANVEC_FN(int a) { return 2 * a; }, sv::view_of(cd));
        test::check_equal(twice.to_host(), sv::map(SCANVEC_FN(int a) { return 2 * a; }, v).to_host());
    }
}

TEST_CASE("results written into caller-owned memory (sv::into)") {
    for (std::size_t n : interop_sizes) {
        CAPTURE(n);
        const auto h = test::random_values<long long>(n, 21 + n);
        const auto f = test::random_flags(n, test::flag_pattern::sparse, 22 + n);
        const auto p = test::random_permutation(n, 23 + n);
        sv::vector<long long> v(h);
        sv::vector<bool> flags(f);
        sv::vector<sv::index_t> idx(p);
        thrust::device_vector<long long> out(n, -7);

        auto s = sv::scan(v, sv::into(out));
        CHECK(s.size() == n);
        test::check_equal(to_host(out), sv::scan(v).to_host());
        test::check_equal(s.to_host(), to_host(out));  // the returned view reads out itself
        sv::inclusive_scan(v, sv::max<long long>{}, sv::into(out));
        test::check_equal(to_host(out), sv::inclusive_scan(v, sv::max<long long>{}).to_host());
        sv::backward_scan(v, sv::into(out));
        test::check_equal(to_host(out), sv::backward_scan(v).to_host());
        sv::backward_inclusive_scan(v, sv::into(out));
        test::check_equal(to_host(out), sv::backward_inclusive_scan(v).to_host());
        sv::segmented_scan(v, flags, sv::into(out));
        test::check_equal(to_host(out), sv::segmented_scan(v, flags).to_host());
        sv::segmented_inclusive_scan(v, flags, sv::min<long long>{}, sv::into(out));
        test::check_equal(to_host(out), sv::segmented_inclusive_scan(v, flags, sv::min<long long>{}).to_host());
        sv::segmented_backward_inclusive_scan(v, flags, sv::into(out));
        test::check_equal(to_host(out), sv::segmented_backward_inclusive_scan(v, flags).to_host());
        sv::permute(v, idx, sv::into(out));
        test::check_equal(to_host(out), sv::permute(v, idx).to_host());
        sv::back_permute(sv::view_of(out), idx, sv::into(v));  // a vector is an output too
        std::vector<long long> want(n);
        const auto permuted = to_host(out);
        for (std::size_t i = 0; i < n; ++i) want[i] = permuted[std::size_t(p[i])];
        test::check_equal(v.to_host(), want);
        // a lazy map evaluated straight into the caller's buffer: one pass
        sv::copy(sv::lazy::map(SCANVEC_FN(long long a, bool b) { return b ? a : -a; }, v, flags), sv::into(out));
        for (std::size_t i = 0; i < n; ++i) want[i] = f[i] ? want[i] : -want[i];
        test::check_equal(to_host(out), want);
    }
}

TEST_CASE("a non-commutative scan into caller-owned field arrays, past one tile") {
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(100003)}) {
        CAPTURE(n);
        std::mt19937 gen(unsigned(31 + n));
        std::vector<std::uint32_t> hm(n), hc(n);
        for (std::size_t i = 0; i < n; ++i) { hm[i] = gen() | 1u; hc[i] = gen(); }
        auto dm = to_device(hm), dc = to_device(hc);
        thrust::device_vector<std::uint32_t> om(n), oc(n);
        auto in = sv::view_of_fields<affine>(n, thrust::raw_pointer_cast(dm.data()), thrust::raw_pointer_cast(dc.data()));
        auto out = sv::view_of_fields<affine>(n, thrust::raw_pointer_cast(om.data()), thrust::raw_pointer_cast(oc.data()));
        const auto op = sv::monoid(io::affine_then{}, affine{1, 0});

        sv::inclusive_scan(in, op, sv::into(out));
        std::vector<std::uint32_t> wm(n), wc(n);
        affine acc{1, 0};
        for (std::size_t i = 0; i < n; ++i) {
            acc = io::affine_then{}(acc, affine{hm[i], hc[i]});
            wm[i] = acc.m;
            wc[i] = acc.c;
        }
        test::check_equal(to_host(om), wm);
        test::check_equal(to_host(oc), wc);

        sv::backward_scan(in, op, sv::into(out));  // r[i] = a[i+1] op ... op a[n-1]
        acc = affine{1, 0};
        for (std::size_t i = n; i-- > 0;) {
            wm[i] = acc.m;
            wc[i] = acc.c;
            acc = io::affine_then{}(affine{hm[i], hc[i]}, acc);
        }
        test::check_equal(to_host(om), wm);
        test::check_equal(to_host(oc), wc);

        // the fields view reads whole structs, as a vector of them does
        sv::vector<affine> copy = in.to_vector();
        test::check_equal(copy.field<&affine::m>().to_host(), hm);
    }
}

TEST_CASE("a struct view built from separate field arrays") {
    thrust::device_vector<float> xs(std::vector<float>{1.5f, -2.0f, 3.25f});
    thrust::device_vector<std::int32_t> ids(std::vector<std::int32_t>{7, 8, 9});
    auto pv = sv::view_of_fields<io::particle>(3, thrust::raw_pointer_cast(xs.data()), thrust::raw_pointer_cast(ids.data()));
    auto host = pv.to_host();
    REQUIRE(host.size() == 3);
    CHECK(host[2].x == 3.25f);
    CHECK(host[2].id == 9);
    auto swapped = sv::back_permute(pv, sv::vector<int>{2, 0, 1});
    CHECK(swapped[0].id == 9);
    CHECK(swapped[1].x == 1.5f);
}

TEST_CASE("bad views and outputs are clear errors") {
    thrust::device_vector<int> d(10, 1), small(9);
    CHECK_THROWS_WITH_AS(sv::view_of(static_cast<int*>(nullptr), 5), doctest::Contains("null pointer"), sv::error);
    CHECK_NOTHROW(sv::view_of(static_cast<int*>(nullptr), 0));
    CHECK_THROWS_WITH_AS(sv::scan(sv::view_of(d), sv::into(small)),
                         doctest::Contains("the output holds 9 elements, the result has 10"), sv::length_error);
    sv::vector<sv::index_t> idx = {0, 1, 2, 3, 4, 5, 6, 7, 8, 10};
    CHECK_THROWS_AS(sv::permute(sv::view_of(d), idx, sv::into(d)), sv::index_error);
    CHECK_THROWS_AS(sv::back_permute(sv::view_of(d), idx, sv::into(d)), sv::index_error);
    if (std::string(sv::backend_name()) == "cuda") {
        std::vector<int> host(10, 1);  // plain host memory: not for the CUDA backend
        CHECK_THROWS_WITH_AS(sv::view_of(host.data(), host.size()), doctest::Contains("points to host memory"),
                             sv::error);
        CHECK_THROWS_WITH_AS(sv::view_of(host), doctest::Contains("data() points to host memory"), sv::error);
    }
}

#if defined(SCANVEC_BACKEND_CUDA)
TEST_CASE("a view of another device's memory is a clear error") {
    int devices = 0;
    REQUIRE(cudaGetDeviceCount(&devices) == cudaSuccess);
    if (devices < 2) {
        MESSAGE("one GPU: another device's memory cannot be made here");
        return;
    }
    void* other = nullptr;
    REQUIRE(cudaSetDevice(1) == cudaSuccess);
    REQUIRE(cudaMalloc(&other, 64 * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaSetDevice(0) == cudaSuccess);
    CHECK_THROWS_WITH_AS(sv::view_of(static_cast<float*>(other), 64),
                         doctest::Contains("points to memory of device 1, but this thread's device is 0"), sv::error);
    thrust::device_vector<float> here(64);
    CHECK_THROWS_WITH_AS(sv::view_of_fields<io::particle>(64, thrust::raw_pointer_cast(here.data()),
                                                          static_cast<std::int32_t*>(other)),
                         doctest::Contains("field 1 points to memory of device 1"), sv::error);
    REQUIRE(cudaSetDevice(1) == cudaSuccess);
    CHECK(cudaFree(other) == cudaSuccess);
    REQUIRE(cudaSetDevice(0) == cudaSuccess);
}
#endif

TEST_CASE("sv::on: a scope's work runs on its stream, and scopes nest") {
    CHECK(sv::current_stream() == sv::stream_t{});
    sv::stream_t a = test::make_stream(), b = test::make_stream();
    {
        sv::on scope(a);
        CHECK(sv::current_stream() == a);
        {
            sv::on inner(b);
            CHECK(sv::current_stream() == b);
        }
        CHECK(sv::current_stream() == a);
        const auto h = test::random_values<int>(100003, 41);
        sv::vector<int> v(h);
        CHECK(v.where().stream == a);
        auto s = sv::inclusive_scan(v);
        sv::synchronize();
        std::vector<int> want(h.size());
        std::partial_sum(h.begin(), h.end(), want.begin());
        test::check_equal(s.to_host(), want);
    }
    CHECK(sv::current_stream() == sv::stream_t{});
    test::destroy_stream(a);
    test::destroy_stream(b);
}

TEST_CASE("memory freed on one stream is reused on another, in order") {
    // A vector freed on stream a is the next block handed to stream b: the
    // cache orders b after a's work, so b's results stay right.
    sv::stream_t a = test::make_stream(), b = test::make_stream();
    const std::size_t n = 1 << 20;
    const auto h = test::random_values<int>(n, 51);
    std::vector<int> want(n);
    std::partial_sum(h.begin(), h.end(), want.begin());
    for (int round = 0; round < 4; ++round) {
        const auto before = sv::memory::stats();
        {
            sv::on on_a(a);
            sv::vector<int> x(h);
            auto y = sv::inclusive_scan(x);
            auto z = sv::inclusive_scan(y, sv::max<int>{});  // queued work still reading y when it is freed
            (void)z;
        }
        sv::on on_b(b);
        sv::vector<int> x(h);
        auto y = sv::inclusive_scan(x);
        test::check_equal(y.to_host(), want);
        if (round > 0) CHECK(sv::memory::stats().backend_allocations == before.backend_allocations);
    }
    sv::synchronize();
    test::destroy_stream(a);
    test::destroy_stream(b);
}

TEST_CASE("two host threads on two streams run the same programs concurrently") {
    const int threads = 2, rounds = 6;
    std::vector<std::vector<int>> inputs;
    std::vector<std::vector<long long>> expect;
    for (int t = 0; t < threads; ++t) {
        inputs.push_back(test::random_values<int>(300001 + 17 * t, 61 + t));
        std::vector<long long> w(inputs.back().size());
        long long acc = 0;
        for (std::size_t i = 0; i < w.size(); ++i) { w[i] = acc; acc += 3LL * inputs.back()[i]; }
        expect.push_back(w);
    }
    std::atomic<int> wrong{0}, failed{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            try {
                sv::stream_t s = test::make_stream();
                {
                    sv::on scope(s);
                    for (int r = 0; r < rounds; ++r) {
                        sv::vector<int> a(inputs[t]);
                        auto tripled = sv::map(SCANVEC_FN(int x) { return 3LL * x; }, a);
                        if (sv::scan(tripled).to_host() != expect[t]) ++wrong;
                    }
                }
                test::destroy_stream(s);
            } catch (...) {
                ++failed;
            }
        });
    for (auto& th : pool) th.join();
    CHECK(wrong == 0);
    CHECK(failed == 0);
}
