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
//   stamps (library kernel)  scatter_stamped_fails: the stamps as the library launches them
//   power sums (library)     scatter_checked up to 2^20: the power sums below, as the library folds them
//   counts, two launches     atomicAdd whose result is unused (a reduction the
//                            SM does not wait for), then a pass that checks
//                            every count is 1 and clears it for the next call
//   power sums               sum over i of r^idx[i] against sum over i < n of
//                            r^i = (r^n - 1) / (r - 1), modulo 2^61 - 1 at two
//                            random points r (the difference is a polynomial
//                            in r of degree below n, zero only for a
//                            permutation: a non-permutation passes with
//                            probability below (n/p)^2, as Lipton's products).
//                            r^j = lo[j mod 1024] * hi[j / 1024] from two
//                            tables a point (8 KB each, read through L1): one
//                            multiplication an element and point, no random
//                            access to a stamp, a fold of sums across blocks
//   hash sums                sum of mix64(idx[i] ^ seed) against the same of
//                            i < n (wrapping 64-bit adds): the arithmetic
//                            floor of a sum check, not a proof (no bound)
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

// ---- power sums and hash sums: one pass, sums folded across blocks by the last one ----

constexpr std::uint64_t p61 = sv::detail::mersenne61;
constexpr int table_bits = 10, table_size = 1 << table_bits;  // r^j for j < 2^20
constexpr int sum_items = 4;                                  // elements a thread

__host__ __device__ inline std::uint64_t add_mod61(std::uint64_t a, std::uint64_t b) {
    const std::uint64_t s = a + b;
    return s >= p61 ? s - p61 : s;
}

std::uint64_t pow_mod61(std::uint64_t r, std::uint64_t e) {
    std::uint64_t x = 1;
    for (; e; e >>= 1, r = sv::detail::mul_mod61(r, r))
        if (e & 1) x = sv::detail::mul_mod61(x, r);
    return x;
}

struct power_tables {
    const std::uint64_t* lo[2];  // r^j, j < 1024
    const std::uint64_t* hi[2];  // r^(1024 j), j < 1024
};

/// Block sums of two words (add is the monoid), the block's total in thread 0's return.
template <class Add>
__device__ void block_sums(std::uint64_t& s0, std::uint64_t& s1, std::uint64_t* w0, std::uint64_t* w1, Add add) {
    for (int o = 16; o > 0; o >>= 1) {
        s0 = add(s0, __shfl_down_sync(~0u, s0, o));
        s1 = add(s1, __shfl_down_sync(~0u, s1, o));
    }
    if ((threadIdx.x & 31) == 0) {
        w0[threadIdx.x >> 5] = s0;
        w1[threadIdx.x >> 5] = s1;
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (int w = 1; w < threads / 32; ++w) {
            s0 = add(s0, w0[w]);
            s1 = add(s1, w1[w]);
        }
}

/// After each block's partial (p0, p1) is stored: the last block folds them
/// and raises *failed unless the totals are (e0, e1). Leaves *done at 0.
template <class Add>
__device__ void fold_last(std::uint64_t p0, std::uint64_t p1, std::uint64_t* partials, unsigned* done,
                          std::uint64_t e0, std::uint64_t e1, unsigned* failed, Add add) {
    __shared__ std::uint64_t w0[threads / 32], w1[threads / 32];
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partials[2 * blockIdx.x] = p0;
        partials[2 * blockIdx.x + 1] = p1;
        __threadfence();
        last = atomicAdd(done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    __threadfence();
    std::uint64_t s0 = 0, s1 = 0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += threads) {
        s0 = add(s0, __ldcg(partials + 2 * b));
        s1 = add(s1, __ldcg(partials + 2 * b + 1));
    }
    block_sums(s0, s1, w0, w1, add);
    if (threadIdx.x == 0) {
        if (s0 != e0 || s1 != e1) *failed = 1u;
        *done = 0;
    }
}

__host__ __device__ inline std::uint64_t hash_of(std::uint64_t j, std::uint64_t seed) {
    return sv::detail::mix64(j ^ seed);
}

/// The power sums' terms r_k^j (add: modulo 2^61 - 1).
struct power_terms {
    power_tables t;
    __device__ std::uint64_t operator()(int j, int k) const {
        return sv::detail::mul_mod61(__ldg(t.lo[k] + (j & (table_size - 1))), __ldg(t.hi[k] + (j >> table_bits)));
    }
    __device__ std::uint64_t add(std::uint64_t a, std::uint64_t b) const { return add_mod61(a, b); }
};
/// The hash sums' terms (add: wrapping).
struct hash_terms {
    std::uint64_t seed[2];
    __device__ std::uint64_t operator()(int j, int k) const { return hash_of(std::uint64_t(j), seed[k]); }
    __device__ std::uint64_t add(std::uint64_t a, std::uint64_t b) const { return a + b; }
};

/// Scatters sum_items elements a thread and sums terms(idx[i], k) at two
/// points k; raises *failed for an index out of range or totals other than (e0, e1).
template <class Terms>
__global__ void __launch_bounds__(threads)
    scatter_summed(const int* idx, const int* a, int* out, int n, Terms terms, std::uint64_t e0, std::uint64_t e1,
                   std::uint64_t* partials, unsigned* done, unsigned* failed) {
    __shared__ std::uint64_t w0[threads / 32], w1[threads / 32];
    const auto add = [terms](std::uint64_t x, std::uint64_t y) { return terms.add(x, y); };
    std::uint64_t s0 = 0, s1 = 0;
    bool bad = false;
    const int base = blockIdx.x * threads * sum_items + threadIdx.x;
#pragma unroll
    for (int k = 0; k < sum_items; ++k) {
        const int i = base + k * threads;
        if (i >= n) continue;
        const int j = idx[i];
        if (j < 0 || j >= n) {
            bad = true;
            continue;
        }
        out[j] = a[i];
        s0 = add(s0, terms(j, 0));
        s1 = add(s1, terms(j, 1));
    }
    if (__syncthreads_or(bad) && threadIdx.x == 0) *failed = 1u;
    block_sums(s0, s1, w0, w1, add);
    fold_last(s0, s1, partials, done, e0, e1, failed, add);
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
    if (max_n > table_size * table_size) {
        std::fprintf(stderr, "sizes up to 2^%d (the power tables)\n", 2 * table_bits);
        return 2;
    }
    unsigned *stamps = nullptr, *counts = nullptr;
    cuda_ok(cudaMalloc(&stamps, sizeof(unsigned) * std::size_t(max_n)), "cudaMalloc");
    cuda_ok(cudaMalloc(&counts, sizeof(unsigned) * std::size_t(max_n)), "cudaMalloc");
    cuda_ok(cudaMemset(stamps, 0, sizeof(unsigned) * std::size_t(max_n)), "cudaMemset");
    cuda_ok(cudaMemset(counts, 0, sizeof(unsigned) * std::size_t(max_n)), "cudaMemset");
    pinned_flag flag;
    unsigned epoch = 0;
    // the sums' state: two points (seeds) drawn once, the tables, the partials and the ticket
    std::mt19937_64 draw{std::random_device{}()};
    const std::uint64_t r[2] = {2 + draw() % (p61 - 3), 2 + draw() % (p61 - 3)};
    const std::uint64_t seed[2] = {draw(), draw()};
    std::uint64_t* table_memory = nullptr;
    cuda_ok(cudaMalloc(&table_memory, 4 * table_size * sizeof(std::uint64_t)), "cudaMalloc");
    power_tables tables{};
    for (int k = 0; k < 2; ++k) {
        std::vector<std::uint64_t> lo(table_size), hi(table_size);
        const std::uint64_t step = pow_mod61(r[k], table_size);
        lo[0] = hi[0] = 1;
        for (int j = 1; j < table_size; ++j) {
            lo[std::size_t(j)] = sv::detail::mul_mod61(lo[std::size_t(j) - 1], r[k]);
            hi[std::size_t(j)] = sv::detail::mul_mod61(hi[std::size_t(j) - 1], step);
        }
        std::uint64_t* at = table_memory + 2 * k * table_size;
        cuda_ok(cudaMemcpy(at, lo.data(), table_size * sizeof(std::uint64_t), cudaMemcpyHostToDevice), "copy");
        cuda_ok(cudaMemcpy(at + table_size, hi.data(), table_size * sizeof(std::uint64_t), cudaMemcpyHostToDevice), "copy");
        tables.lo[k] = at;
        tables.hi[k] = at + table_size;
    }
    const auto power_sum = [&](int k, int n) {  // sum of r^i, i < n: (r^n - 1) / (r - 1)
        const std::uint64_t inverse = pow_mod61(r[k] - 1, p61 - 2);
        return sv::detail::mul_mod61((pow_mod61(r[k], std::uint64_t(n)) + p61 - 1) % p61, inverse);
    };
    const auto hash_sum = [&](int k, int n) {
        std::uint64_t s = 0;
        for (int i = 0; i < n; ++i) s += hash_of(std::uint64_t(i), seed[k]);
        return s;
    };
    const int max_sum_blocks = (max_n + threads * sum_items - 1) / (threads * sum_items);
    std::uint64_t* partials = nullptr;
    unsigned* done = nullptr;
    cuda_ok(cudaMalloc(&partials, 2 * sizeof(std::uint64_t) * std::size_t(max_sum_blocks)), "cudaMalloc");
    cuda_ok(cudaMalloc(&done, sizeof(unsigned)), "cudaMalloc");
    cuda_ok(cudaMemset(done, 0, sizeof(unsigned)), "cudaMemset");
    std::uint64_t expect_power[2] = {0, 0}, expect_hash[2] = {0, 0};  // for the current n
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
        {"stamps (the library's kernel)",
         [](const int* idx, const int* a, int* out, int n) {
             return sv::detail::scatter_stamped_fails(idx, a, out, sv::index_t(n));
         }},
        {"power sums (the library's kernel)",
         [](const int* idx, const int* a, int* out, int n) {
             const auto v = sv::detail::scatter_checked(idx, a, out, sv::index_t(n));
             return v[0] != ~0ull || v[1] != 0;
         }},
        {"power sums (two points mod 2^61 - 1)",
         [&](const int* idx, const int* a, int* out, int n) {
             *flag.host = 0;
             scatter_summed<<<blocks(n, sum_items), threads>>>(idx, a, out, n, power_terms{tables}, expect_power[0],
                                                               expect_power[1], partials, done, flag.device);
             cuda_ok(cudaGetLastError(), "scatter_summed (powers)");
             return verdict();
         }},
        {"hash sums (not a proof: the arithmetic floor)",
         [&](const int* idx, const int* a, int* out, int n) {
             *flag.host = 0;
             scatter_summed<<<blocks(n, sum_items), threads>>>(idx, a, out, n, hash_terms{{seed[0], seed[1]}},
                                                               expect_hash[0], expect_hash[1], partials, done, flag.device);
             cuda_ok(cudaGetLastError(), "scatter_summed (hashes)");
             return verdict();
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
        for (int k = 0; k < 2; ++k) {
            expect_power[k] = power_sum(k, n);
            expect_hash[k] = hash_sum(k, n);
        }
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
