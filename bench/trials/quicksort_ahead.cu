// bench/trials/quicksort_ahead.cu - a trial, not part of scanvec_bench: how
// many rounds quicksort should queue before it reads a round's test (issue
// 23's row "quicksort at 2^20 <= 5x CUB", where the host's launches, not the
// kernels, bound the time).
//
//   scanvec_trial_quicksort_ahead [log2 sizes, default 20 24]
//
// sv::quicksort queues round r+1 before it waits for round r's test: two
// rounds in flight while the host waits. Here the same rounds (the same
// public calls, in the same order) run with 1 to 3 rounds in flight: 1 queues
// the next round only after the test (the GPU idles while the host queues
// it), 2 is sv::quicksort's, 3 queues one round further, which keeps the GPU
// busy through the host's slower rounds and costs one more round queued past
// the last (its tiles all finished). Each form and sv::quicksort and
// cub::DeviceRadixSort::SortKeys are timed side by side on the same random
// int32 keys: CUDA events around each call after a device synchronize,
// median of 21 calls after 3. Each result is checked sorted.
#include <scanvec/scanvec.hpp>

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <random>
#include <vector>

namespace sv = scanvec;

namespace {

/// quicksort's rounds (algorithms/quicksort.hpp, unwatched), `in_flight` rounds queued when a test is read.
sv::vector<std::int32_t> quicksort_in_flight(const sv::vector<std::int32_t>& a, int in_flight, int* rounds_out) {
    sv::pivoted_segments<std::int32_t, std::uint32_t> segs{sv::vector<std::int32_t>(a)};
    std::uint64_t queued = 0;
    const auto round = [&] {
        sv::sort_short_segments(segs);
        sv::choose_pivots(segs, sv::detail::ninther{queued++});
        if (queued > 1) {
            auto [next, unsorted] = sv::count_split_three_ways(segs, sv::any_order);
            segs = std::move(next);
            return unsorted.fetch();
        }
        auto descents = sv::count_three_ways_to_device(segs).fetch();
        segs = sv::split_three_ways(segs, sv::any_order);
        return descents;
    };
    std::deque<sv::pending_value<sv::index_t>> tests;
    tests.push_back(round());
    int rounds = 0;
    for (;;) {
        while (rounds > 0 && int(tests.size()) < in_flight) tests.push_back(round());
        const sv::index_t test = tests.front().get();
        tests.pop_front();
        if (test == 0) break;
        ++rounds;
        if (tests.empty()) tests.push_back(round());
    }
    *rounds_out = rounds;
    return std::move(segs.keys);
}

double median_ms(const std::function<void()>& call) {
    cudaEvent_t start, stop;
    sv::backend::check(cudaEventCreate(&start), "event");
    sv::backend::check(cudaEventCreate(&stop), "event");
    std::vector<float> ms;
    for (int i = 0; i < 24; ++i) {
        sv::backend::check(cudaDeviceSynchronize(), "synchronize");
        sv::backend::check(cudaEventRecord(start, sv::current_stream()), "record");
        call();
        sv::backend::check(cudaEventRecord(stop, sv::current_stream()), "record");
        sv::backend::check(cudaEventSynchronize(stop), "synchronize");
        float t = 0;
        sv::backend::check(cudaEventElapsedTime(&t, start, stop), "elapsed");
        if (i >= 3) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ms[ms.size() / 2];
}

bool sorted(const sv::vector<std::int32_t>& v, const std::vector<std::int32_t>& want) { return v.to_host() == want; }

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> logs;
    for (int i = 1; i < argc; ++i) logs.push_back(std::atoi(argv[i]));
    if (logs.empty()) logs = {20, 24};
    cudaDeviceProp prop{};
    sv::backend::check(cudaGetDeviceProperties(&prop, 0), "properties");
    std::printf("# quicksort, rounds in flight while the host waits for a test: %s\n", prop.name);
    std::printf("| n | call | ms (median of 21) | x CUB | rounds | sorted |\n|---|---|---|---|---|---|\n");
    for (int lg : logs) {
        const std::size_t n = std::size_t(1) << lg;
        std::mt19937 rng(2300 + lg);
        std::vector<std::int32_t> h(n);
        for (auto& x : h) x = std::int32_t(rng());
        std::vector<std::int32_t> want = h;
        std::sort(want.begin(), want.end());
        const sv::vector<std::int32_t> keys(h);

        // CUB's radix sort, its temporary storage made once
        sv::vector<std::int32_t> cub_out(n, sv::no_init);
        std::size_t temp_bytes = 0;
        sv::backend::check(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, keys.data(), cub_out.data(), int(n)),
                           "cub (size)");
        void* temp = nullptr;
        sv::backend::check(cudaMalloc(&temp, temp_bytes), "cudaMalloc");
        const double cub_ms = median_ms([&] {
            sv::backend::check(cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys.data(), cub_out.data(), int(n), 0, 32,
                                                               sv::current_stream()),
                               "cub");
        });
        std::printf("| 2^%d | cub::DeviceRadixSort::SortKeys | %.4f | 1.00 | | %s |\n", lg, cub_ms,
                    sorted(cub_out, want) ? "yes" : "NO");
        cudaFree(temp);

        int rounds = 0;
        sv::vector<std::int32_t> out;
        const double lib_ms = median_ms([&] { out = sv::quicksort(keys, &rounds); });
        std::printf("| 2^%d | sv::quicksort | %.4f | %.2f | %d | %s |\n", lg, lib_ms, lib_ms / cub_ms, rounds,
                    sorted(out, want) ? "yes" : "NO");
        for (int in_flight = 1; in_flight <= 3; ++in_flight) {
            const double ms = median_ms([&] { out = quicksort_in_flight(keys, in_flight, &rounds); });
            std::printf("| 2^%d | %d round%s in flight | %.4f | %.2f | %d | %s |\n", lg, in_flight, in_flight > 1 ? "s" : "",
                        ms, ms / cub_ms, rounds, sorted(out, want) ? "yes" : "NO");
        }
    }
    return 0;
}
