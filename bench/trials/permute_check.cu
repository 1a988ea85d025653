// bench/trials/permute_check.cu - a trial, not part of scanvec_bench: forms of
// the checked permute at the sizes where its check costs most against a plain
// scatter (2^16 to 2^20, issue 23's row "checked permute ... <= 1.25x").
//
//   scanvec_trial_permute_check [log2 sizes, default 16 18 20]
//
// Each form scatters out[idx[i]] = a[i] and says whether idx is a permutation
// of 0..n-1; the host reads the verdict (a wait), as sv::permute does. Timed
// as scanvec_bench times (CUDA events, the L2 evicted before each repetition,
// the median of 31). The forms:
//   thrust::scatter          no check (the issue's reference)
//   sv::permute              the library: stamps up to 2^20 (atomicExch, its return read)
//   bare scatter kernel      no check: the floor of any one-launch form
//   stamps, 4 a thread       the library's check with 4 exchanges in flight per thread
//   fingerprint              the library's check past 2^20 (Lipton's products, a fold across blocks)
//   counts, two launches     atomicAdd whose result is unused (a reduction the
//                            SM does not wait for), then a pass that checks
//                            every count is 1 and clears it for the next call
// Every form is checked on a permutation and on one with a repeated target.
#include <scanvec/scanvec.hpp>

#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/scatter.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace sv = scanvec;

namespace {

void cuda_ok(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

constexpr int threads = 256;

__global__ void bare_scatter(const int* idx, const int* a, int* out, int n) {
    const int i = blockIdx.x * threads + threadIdx.x;
    if (i < n) out[idx[i]] = a[i];
}

/// The library's stamps, 4 elements a thread: the 4 exchanges are issued before any result is used.
__global__ void stamps4(const int* idx, const int* a, int* out, int n, unsigned* stamps, unsigned epoch,
                        unsigned* failed) {
    const int base = (blockIdx.x * threads) * 4 + threadIdx.x;
    unsigned old[4];
    bool bad = false;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const int i = base + k * threads;
        old[k] = 0;
        if (i < n) {
            const int j = idx[i];
            if (j >= 0 && j < n) {
                out[j] = a[i];
                old[k] = atomicExch(stamps + j, epoch);
            } else {
                bad = true;
            }
        }
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) bad |= base + k * threads < n && old[k] == epoch;
    if (__syncthreads_or(bad) && threadIdx.x == 0) *failed = 1u;
}

/// Scatter and count each target (the count's old value is not read).
__global__ void scatter_counted(const int* idx, const int* a, int* out, int n, unsigned* counts, unsigned* failed) {
    const int i = blockIdx.x * threads + threadIdx.x;
    bool bad = false;
    if (i < n) {
        const int j = idx[i];
        if (j >= 0 && j < n) {
            out[j] = a[i];
            atomicAdd(counts + j, 1u);
        } else {
            bad = true;
        }
    }
    if (__syncthreads_or(bad) && threadIdx.x == 0) *failed = 1u;
}

/// Every count must be 1; each is cleared for the next call.
__global__ void counts_are_one(unsigned* counts, int n, unsigned* failed) {
    const int i = blockIdx.x * threads + threadIdx.x;
    bool bad = false;
    if (i < n) {
        bad = counts[i] != 1u;
        counts[i] = 0u;
    }
    if (__syncthreads_or(bad) && threadIdx.x == 0) *failed = 1u;
}

struct pinned_flag {
    unsigned* host = nullptr;
    unsigned* device = nullptr;
    pinned_flag() {
        cuda_ok(cudaHostAlloc(&host, sizeof(unsigned), cudaHostAllocMapped), "cudaHostAlloc");
        cuda_ok(cudaHostGetDevicePointer(&device, host, 0), "cudaHostGetDevicePointer");
    }
    ~pinned_flag() { (void)cudaFreeHost(host); }
};

struct trial {
    std::string name;
    // Runs the form on (idx, a) into out; returns true when it found idx not a permutation.
    std::function<bool(const int*, const int*, int*, int)> run;
};

double median_ms(const std::function<void()>& call, std::uint64_t* flush, std::size_t flush_words) {
    cudaEvent_t start, stop;
    cuda_ok(cudaEventCreate(&start), "cudaEventCreate");
    cuda_ok(cudaEventCreate(&stop), "cudaEventCreate");
    for (int w = 0; w < 3; ++w) call();
    std::vector<float> ms;
    volatile std::uint64_t sink = 0;
    for (int r = 0; r < 31; ++r) {
        sink = sink + thrust::reduce(thrust::device, flush, flush + flush_words);
        cuda_ok(cudaDeviceSynchronize(), "flush");
        cuda_ok(cudaEventRecord(start, 0), "cudaEventRecord");
        call();
        cuda_ok(cudaEventRecord(stop, 0), "cudaEventRecord");
        cuda_ok(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float t = 0;
        cuda_ok(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
        ms.push_back(t);
    }
    (void)cudaEventDestroy(start);
    (void)cudaEventDestroy(stop);
    std::nth_element(ms.begin(), ms.begin() + 15, ms.end());
    return ms[15];
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> logs;
    for (int k = 1; k < argc; ++k) logs.push_back(std::atoi(argv[k]));
    if (logs.empty()) logs = {16, 18, 20};
    cudaDeviceProp prop{};
    cuda_ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    const std::size_t flush_words = 2 * std::size_t(prop.l2CacheSize) / sizeof(std::uint64_t);
    std::uint64_t* flush = nullptr;
    cuda_ok(cudaMalloc(&flush, flush_words * sizeof(std::uint64_t)), "cudaMalloc");
    cuda_ok(cudaMemset(flush, 1, flush_words * sizeof(std::uint64_t)), "cudaMemset");
    const int max_n = 1 << *std::max_element(logs.begin(), logs.end());
    unsigned *stamps = nullptr, *counts = nullptr;
    cuda_ok(cudaMalloc(&stamps, sizeof(unsigned) * std::size_t(max_n)), "cudaMalloc");
    cuda_ok(cudaMalloc(&counts, sizeof(unsigned) * std::size_t(max_n)), "cudaMalloc");
    cuda_ok(cudaMemset(stamps, 0, sizeof(unsigned) * std::size_t(max_n)), "cudaMemset");
    cuda_ok(cudaMemset(counts, 0, sizeof(unsigned) * std::size_t(max_n)), "cudaMemset");
    pinned_flag flag;
    unsigned epoch = 0;
    const auto blocks = [](int n, int per_thread) { return (n + threads * per_thread - 1) / (threads * per_thread); };
    const auto verdict = [&] {
        cuda_ok(cudaStreamSynchronize(0), "verdict");
        return *flag.host != 0;
    };

    std::vector<trial> trials = {
        {"thrust::scatter (no check)",
         [](const int* idx, const int* a, int* out, int n) {
             thrust::scatter(thrust::device, a, a + n, idx, out);
             return false;
         }},
        {"sv::permute (library)",
         [](const int* idx, const int* a, int* out, int n) {
             try {
                 sv::permute(sv::view_of(a, std::size_t(n)), sv::view_of(idx, std::size_t(n)),
                             sv::into(sv::view_of(out, std::size_t(n))));
                 sv::synchronize();
                 return false;
             } catch (const sv::index_error&) {
                 return true;
             }
         }},
        {"bare scatter kernel (no check)",
         [&](const int* idx, const int* a, int* out, int n) {
             bare_scatter<<<blocks(n, 1), threads>>>(idx, a, out, n);
             cuda_ok(cudaGetLastError(), "bare_scatter");
             cuda_ok(cudaStreamSynchronize(0), "bare_scatter");
             return false;
         }},
        {"stamps, 4 a thread",
         [&](const int* idx, const int* a, int* out, int n) {
             *flag.host = 0;
             stamps4<<<blocks(n, 4), threads>>>(idx, a, out, n, stamps, ++epoch, flag.device);
             cuda_ok(cudaGetLastError(), "stamps4");
             return verdict();
         }},
        {"fingerprint (the library's form past 2^20)",
         [](const int* idx, const int* a, int* out, int n) {
             const auto v = sv::detail::scatter_checked(idx, a, out, sv::index_t(n));
             return v[0] != ~0ull || v[1] != 0;
         }},
        {"counts, two launches",
         [&](const int* idx, const int* a, int* out, int n) {
             *flag.host = 0;
             scatter_counted<<<blocks(n, 1), threads>>>(idx, a, out, n, counts, flag.device);
             counts_are_one<<<blocks(n, 1), threads>>>(counts, n, flag.device);
             cuda_ok(cudaGetLastError(), "counts");
             return verdict();
         }},
    };

    std::printf("device: %s\n", prop.name);
    std::printf("| n | form | median ms | vs thrust::scatter | checks right |\n|---|---|---|---|---|\n");
    for (int lg : logs) {
        const int n = 1 << lg;
        const std::size_t size = static_cast<std::size_t>(n);
        std::vector<int> perm(size), values(size);
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), std::mt19937(1234u + unsigned(lg)));
        std::iota(values.begin(), values.end(), 7);
        std::vector<int> repeated = perm;
        repeated[std::size_t(n / 3)] = repeated[std::size_t(n / 2)];
        int *idx = nullptr, *bad = nullptr, *a = nullptr, *out = nullptr, *want = nullptr;
        for (int** p : {&idx, &bad, &a, &out, &want}) cuda_ok(cudaMalloc(p, sizeof(int) * std::size_t(n)), "cudaMalloc");
        cuda_ok(cudaMemcpy(idx, perm.data(), sizeof(int) * std::size_t(n), cudaMemcpyHostToDevice), "copy");
        cuda_ok(cudaMemcpy(bad, repeated.data(), sizeof(int) * std::size_t(n), cudaMemcpyHostToDevice), "copy");
        cuda_ok(cudaMemcpy(a, values.data(), sizeof(int) * std::size_t(n), cudaMemcpyHostToDevice), "copy");
        thrust::scatter(thrust::device, a, a + n, idx, want);
        double reference = 0;
        for (const trial& t : trials) {
            // Right: the permutation passes with thrust's result, the repeat is found (forms that check).
            cuda_ok(cudaMemset(out, 0, sizeof(int) * std::size_t(n)), "cudaMemset");
            const bool passed = !t.run(idx, a, out, n);
            const bool same = thrust::equal(thrust::device, out, out + n, want);
            const bool checks = t.name.find("no check") == std::string::npos;
            const bool found = checks ? t.run(bad, a, out, n) : true;
            const double ms = median_ms([&] { (void)t.run(idx, a, out, n); }, flush, flush_words);
            if (reference == 0) reference = ms;
            std::printf("| 2^%d | %s | %.4f | %.2f | %s |\n", lg, t.name.c_str(), ms, ms / reference,
                        passed && same && found ? "yes" : "NO");
        }
        for (int* p : {idx, bad, a, out, want}) (void)cudaFree(p);
    }
    return 0;
}
