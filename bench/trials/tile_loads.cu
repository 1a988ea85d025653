// bench/trials/tile_loads.cu - a trial, not part of scanvec_bench: how fast a
// pass shaped like quicksort's count pass can read its keys (issue 23: the
// count takes 45 us a round at 2^24 on an H100, and 36 us when every tile is
// finished, where its 64 MB at memcpy's speed would take about 22).
//
//   scanvec_trial_tile_loads [log2 n, default 24]
//
// Each form reads n int32 keys, counts those below a pivot read from memory
// (as the count pass reads its segment's), sums the counts per block and adds
// them to one of 64 words by an atomic whose result it stores (as the count's
// offsets). Timed with CUDA events, the L2 evicted before each repetition,
// the median of 21. Forms: threads x keys a thread, blocked vectorized
// (the count's loads) or striped (coalesced per instruction); blocks an SM
// as __launch_bounds__ asks; one tile a block or a loop over tiles.
#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

template <int Threads, int Items, int Blocks, bool Striped, bool Loop>
__global__ void __launch_bounds__(Threads, Blocks)
    count_tiles(const int* keys, const std::uint32_t* start, const int* pivot, int n, unsigned long long* totals,
                unsigned long long* taken) {
    using reduce = cub::BlockReduce<unsigned, Threads>;
    __shared__ typename reduce::TempStorage smem;
    constexpr int tile = Threads * Items;
    const int tiles = (n + tile - 1) / tile;
    for (int t = blockIdx.x; t < tiles; t += Loop ? gridDim.x : tiles) {
        const int base = t * tile;
        const std::uint32_t s = __ldg(start + base);
        int v[Items];
        if (base + tile <= n) {
            if (Striped) cub::LoadDirectStriped<Threads>(int(threadIdx.x), keys + base, v);
            else cub::LoadDirectBlockedVectorized(int(threadIdx.x), const_cast<int*>(keys + base), v);
        } else {
            cub::LoadDirectBlocked(int(threadIdx.x), keys + base, v, n - base, 0);
        }
        const int p = __ldg(pivot + s);
        unsigned few = 0;
#pragma unroll
        for (int k = 0; k < Items; ++k) few += v[k] < p;
        const unsigned sum = reduce(smem).Sum(few);
        if (threadIdx.x == 0) taken[t] = atomicAdd(totals + (s & 63), (unsigned long long)sum);
        if (Loop) __syncthreads();
    }
}

struct data_t {
    int* keys;
    std::uint32_t* start;
    int* pivot;
    unsigned long long *totals, *taken;
    char* flush;
    int n;
};

template <int Threads, int Items, int Blocks, bool Striped, bool Loop> void form(const data_t& d, int sms) {
    constexpr int tile = Threads * Items;
    const int tiles = (d.n + tile - 1) / tile;
    const int grid = Loop ? std::min(tiles, sms * Blocks) : tiles;
    cudaFuncAttributes attr{};
    check(cudaFuncGetAttributes(&attr, count_tiles<Threads, Items, Blocks, Striped, Loop>), "attributes");
    int resident = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, count_tiles<Threads, Items, Blocks, Striped, Loop>,
                                                        Threads, 0),
          "occupancy");
    cudaEvent_t a, b;
    check(cudaEventCreate(&a), "event");
    check(cudaEventCreate(&b), "event");
    std::vector<float> ms;
    for (int r = 0; r < 21; ++r) {
        check(cudaMemset(d.flush, r, std::size_t(128) << 20), "flush the L2");
        check(cudaEventRecord(a), "record");
        count_tiles<Threads, Items, Blocks, Striped, Loop><<<grid, Threads>>>(d.keys, d.start, d.pivot, d.n, d.totals, d.taken);
        check(cudaEventRecord(b), "record");
        check(cudaEventSynchronize(b), "sync");
        check(cudaGetLastError(), "count_tiles");
        float t = 0;
        check(cudaEventElapsedTime(&t, a, b), "elapsed");
        ms.push_back(t * 1000);
    }
    std::sort(ms.begin(), ms.end());
    const double tb = double(d.n) * 4 / (ms[10] * 1e-6) / 1e12;
    std::printf("%4d x %2d %-8s %-6s (%2d regs, %d blocks/SM) %7.1f us  %.2f TB/s\n", Threads, Items,
                Striped ? "striped" : "blocked", Loop ? "loop" : "tile", attr.numRegs, resident, ms[10], tb);
}

}  // namespace

int main(int argc, char** argv) {
    const int lg = argc > 1 ? std::atoi(argv[1]) : 24;
    data_t d{};
    d.n = 1 << lg;
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, 0), "device");
    const int sms = prop.multiProcessorCount;
    std::printf("%s, n = 2^%d int32\n", prop.name, lg);
    std::vector<int> keys(d.n);
    std::mt19937 rng(7);
    for (auto& k : keys) k = int(rng());
    std::vector<std::uint32_t> start(d.n);
    for (int i = 0; i < d.n; ++i) start[i] = std::uint32_t(i) & ~std::uint32_t(65535);  // segments of 2^16
    check(cudaMalloc(&d.keys, std::size_t(d.n) * 4), "malloc");
    check(cudaMalloc(&d.start, std::size_t(d.n) * 4), "malloc");
    check(cudaMalloc(&d.pivot, std::size_t(d.n) * 4), "malloc");
    check(cudaMalloc(&d.totals, 64 * 8), "malloc");
    check(cudaMalloc(&d.taken, std::size_t(d.n) * 8 / 256), "malloc");
    check(cudaMalloc(&d.flush, std::size_t(128) << 20), "malloc");
    check(cudaMemcpy(d.keys, keys.data(), std::size_t(d.n) * 4, cudaMemcpyHostToDevice), "upload");
    check(cudaMemcpy(d.start, start.data(), std::size_t(d.n) * 4, cudaMemcpyHostToDevice), "upload");
    check(cudaMemcpy(d.pivot, keys.data(), std::size_t(d.n) * 4, cudaMemcpyHostToDevice), "upload");

    form<256, 8, 5, false, false>(d, sms);  // the count pass's shape
    form<256, 8, 5, true, false>(d, sms);
    form<256, 8, 8, false, false>(d, sms);
    form<256, 16, 5, false, false>(d, sms);
    form<256, 16, 5, true, false>(d, sms);
    form<256, 8, 5, false, true>(d, sms);
    form<256, 16, 4, false, true>(d, sms);
    form<512, 8, 4, false, false>(d, sms);
    form<128, 16, 8, false, false>(d, sms);
    {  // reference: a copy of the keys (reads and writes n * 4 bytes each)
        int* to = nullptr;
        check(cudaMalloc(&to, std::size_t(d.n) * 4), "malloc");
        std::vector<float> ms;
        cudaEvent_t a, b;
        check(cudaEventCreate(&a), "event");
        check(cudaEventCreate(&b), "event");
        for (int r = 0; r < 21; ++r) {
            check(cudaMemset(d.flush, r, std::size_t(128) << 20), "flush");
            check(cudaEventRecord(a), "record");
            check(cudaMemcpyAsync(to, d.keys, std::size_t(d.n) * 4, cudaMemcpyDeviceToDevice), "copy");
            check(cudaEventRecord(b), "record");
            check(cudaEventSynchronize(b), "sync");
            float t = 0;
            check(cudaEventElapsedTime(&t, a, b), "elapsed");
            ms.push_back(t * 1000);
        }
        std::sort(ms.begin(), ms.end());
        std::printf("cudaMemcpy of the keys               %7.1f us  %.2f TB/s read + write\n", ms[10],
                    2.0 * d.n * 4 / (ms[10] * 1e-6) / 1e12);
    }
    return 0;
}
