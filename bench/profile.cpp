// scanvec_profile - one algorithm on one size, for a profiler (ncu) to take apart.
//
//   scanvec_profile quicksort|split|radix_sort|split_radix_sort [log2 n = 24] [host-rounds]
//
// host-rounds: an observer that records nothing is installed, so quicksort
// drives its rounds from the host (the form before its rounds ran on the
// device, and the one ncu can take apart: it profiles no kernel inside a
// graph's conditional loop).
//
// Runs the program once to warm the memory cache, then times 5 runs (median),
// then runs it once more between cudaProfilerStart/Stop, so that
//   ncu --profile-from-start off --metrics gpu__time_duration.sum --print-summary per-kernel
// reports the kernels of exactly one call.
#include <scanvec/scanvec.hpp>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <cuda_profiler_api.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace sv = scanvec;

/// Sees every call and keeps nothing: its presence alone changes which form runs.
struct silent_observer : sv::runtime::observer {
    void primitive(const sv::runtime::call_record&, const sv::table*) override {}
};

struct is_odd {
    SCANVEC_HD bool operator()(int x) const { return (x & 1) != 0; }
};

int main(int argc, char** argv) {
    const std::string what = argc > 1 ? argv[1] : "quicksort";
    const std::size_t n = std::size_t(1) << (argc > 2 ? std::stoi(argv[2]) : 24);
    std::vector<int> h(n);
    std::mt19937 gen(7);
    for (auto& x : h) x = int(gen());
    const sv::vector<int> keys(h);
    const auto odd = sv::lazy::map(is_odd{}, keys);

    silent_observer silent;
    sv::runtime::observer* const before = sv::runtime::observation().current;
    if (argc > 3 && std::string(argv[3]) == "host-rounds") sv::runtime::observation().current = &silent;
    int rounds = 0;
    std::function<void()> run;
    if (what == "quicksort") run = [&] { auto r = sv::quicksort(keys, &rounds); };
    else if (what == "split") run = [&] { auto r = sv::split(keys, odd); };
    else if (what == "radix_sort") run = [&] { auto r = sv::radix_sort(keys); };
    else if (what == "split_radix_sort") run = [&] { auto r = sv::split_radix_sort(keys); };
    else {
        std::fprintf(stderr, "scanvec_profile: unknown program %s\n", what.c_str());
        return 2;
    }
    run();
    std::vector<double> ms;
    for (int k = 0; k < 5; ++k) {
        const auto t0 = std::chrono::steady_clock::now();
        run();
        sv::backend::synchronize(nullptr, "profile");
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%s of 2^%d int32: median %.3f ms", what.c_str(), argc > 2 ? std::stoi(argv[2]) : 24, ms[2]);
    if (what == "quicksort") std::printf(", %d rounds, %.3f ms per round", rounds, ms[2] / rounds);
    std::printf("\n");
#if defined(SCANVEC_BACKEND_CUDA)
    cudaProfilerStart();
    run();
    cudaDeviceSynchronize();
    cudaProfilerStop();
#endif
    sv::runtime::observation().current = before;
    return 0;
}
