// bench/trials/block_sort.cu - a trial, not part of scanvec_bench: how
// quicksort's base case should sort a segment of 8193 to 16384 int32 keys in
// one block (issue 23: the block sorts are about a quarter of quicksort's
// kernels at 2^24).
//
//   scanvec_trial_block_sort [segments, default 1024]
//
// Segments of 8193 to 16384 keys back to back (about 12.6 M keys for 1024),
// each spanning 22 bits (as a segment between two pivots does at 2^24), all
// sorted by one launch a form. Timed with CUDA events, the input copied back
// before each repetition (not timed), the median of 21. Every form's result
// is checked against std::sort of each segment. The forms:
//   library                  block_sort_segments<int, block_sort_large>: CUB's
//                            block radix sort, 4-bit digits (6 passes over 22
//                            bits), ranked by per-thread counters
//   match, R-bit digits      CUB's BlockRadixRankMatch (warp histograms and
//                            __match_any_sync, onesweep's ranking) over
//                            ceil(bits / R) passes, the keys warp-striped,
//                            scattered to shared memory by rank after each
//   cub::DeviceSegmentedSort the same segments by CUB's segmented sort
#include <scanvec/primitives/detail/block_sort_segments.hpp>

#include <cub/block/block_radix_rank.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace sv = scanvec;

namespace {

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

template <int Bits> struct digit_at {
    int shift;
    __device__ std::uint32_t Digit(std::uint32_t k) const { return (k >> shift) & ((1u << Bits) - 1); }
};

template <int Threads, int Items, int Bits> struct match_shape {
    using rank_t = cub::BlockRadixRankMatch<Threads, Bits, false>;
    struct storage {
        typename rank_t::TempStorage rank;
        std::uint32_t words[Threads * Items];
    };
};

template <int Threads, int Items, int Bits>
__global__ void __launch_bounds__(Threads, 1)
    match_sort(int* keys, std::uint32_t* start, const std::uint32_t* length, const std::uint32_t* count,
               const std::uint32_t* heads) {
    using shape = match_shape<Threads, Items, Bits>;
    using W = std::uint32_t;
    extern __shared__ __align__(16) unsigned char memory[];
    auto& smem = *reinterpret_cast<typename shape::storage*>(memory);
    __shared__ sv::detail::block_span<W, Threads> span;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const std::uint32_t base = std::uint32_t(warp) * Items * 32 + lane;  // warp-striped
    const std::uint32_t segments = *count;
    for (std::uint32_t b = blockIdx.x; b < segments; b += gridDim.x) {
        const std::uint32_t s = heads[b], len = length[s];
        W bits[Items];
        W lo = ~W(0), hi = 0;
#pragma unroll
        for (int k = 0; k < Items; ++k) {
            const std::uint32_t j = base + std::uint32_t(k) * 32;
            if (j < len) {
                bits[k] = sv::detail::radix_bits(keys[s + j]);
                sv::detail::block_span<W, Threads>::take(lo, hi, bits[k], bits[k]);
            }
        }
        span.fold(lo, hi);
#pragma unroll
        for (int k = 0; k < Items; ++k) {
            const std::uint32_t j = base + std::uint32_t(k) * 32;
            bits[k] = j < len ? W(bits[k] - lo) : W(hi - lo);
        }
        const int used = sv::detail::bits_of_span(W(hi - lo));
        for (int shift = 0; shift < used; shift += Bits) {
            int ranks[Items];
            typename shape::rank_t(smem.rank).RankKeys(bits, ranks, digit_at<Bits>{shift});
#pragma unroll
            for (int k = 0; k < Items; ++k) smem.words[ranks[k]] = bits[k];
            __syncthreads();
            if (shift + Bits < used) {
#pragma unroll
                for (int k = 0; k < Items; ++k) bits[k] = smem.words[base + std::uint32_t(k) * 32];
            }
            // the next pass's ranking passes barriers before it scatters again
        }
        for (std::uint32_t j = threadIdx.x; j < len; j += Threads) {
            keys[s + j] = sv::detail::from_radix_bits<int>(W(smem.words[j] + lo));
            start[s + j] = s + j;
        }
        __syncthreads();
    }
}

struct segments_t {
    std::vector<int> keys;
    std::vector<std::uint32_t> heads, length, offsets;  // length at each head; offsets for CUB
};

segments_t make_segments(int count) {
    std::mt19937_64 rng(23);
    segments_t g;
    std::uint32_t at = 0;
    for (int c = 0; c < count; ++c) {
        const std::uint32_t len = 8193 + std::uint32_t(rng() % 8192);
        g.heads.push_back(at);
        g.offsets.push_back(at);
        const int base = int((std::uint32_t(c) * 977u) % 1000u) << 21;  // 22 bits above a base, signed range
        for (std::uint32_t i = 0; i < len; ++i) g.keys.push_back(base - (1 << 30) + int(rng() % (1u << 22)));
        at += len;
    }
    g.offsets.push_back(at);
    g.length.assign(at, 0);
    for (int c = 0; c < count; ++c) g.length[g.heads[c]] = g.offsets[c + 1] - g.offsets[c];
    return g;
}

struct device_t {
    int *keys, *pristine;
    std::uint32_t *start, *length, *count, *heads, *offsets;
    std::size_t n;
};

template <class Launch> double time_form(const char* name, device_t& d, const segments_t& g, Launch launch) {
    cudaEvent_t a, b;
    check(cudaEventCreate(&a), "event");
    check(cudaEventCreate(&b), "event");
    std::vector<float> ms;
    for (int r = 0; r < 21; ++r) {
        check(cudaMemcpy(d.keys, d.pristine, d.n * sizeof(int), cudaMemcpyDeviceToDevice), "copy");
        check(cudaEventRecord(a), "record");
        launch();
        check(cudaEventRecord(b), "record");
        check(cudaEventSynchronize(b), "sync");
        check(cudaGetLastError(), name);
        float t = 0;
        check(cudaEventElapsedTime(&t, a, b), "elapsed");
        ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    std::vector<int> got(d.n);
    check(cudaMemcpy(got.data(), d.keys, d.n * sizeof(int), cudaMemcpyDeviceToHost), "read back");
    bool ok = true;
    for (std::size_t c = 0; c + 1 < g.offsets.size() && ok; ++c) {
        std::vector<int> want(g.keys.begin() + g.offsets[c], g.keys.begin() + g.offsets[c + 1]);
        std::sort(want.begin(), want.end());
        ok = std::equal(want.begin(), want.end(), got.begin() + g.offsets[c]);
    }
    std::printf("%-34s %9.3f ms  (min %.3f, max %.3f)  %s\n", name, ms[10], ms[0], ms[20], ok ? "sorted" : "WRONG");
    return ms[10];
}

template <int Threads, int Items, int Bits> void match_form(device_t& d, const segments_t& g, int sms) {
    using shape = match_shape<Threads, Items, Bits>;
    const int bytes = int(sizeof(typename shape::storage));
    check(cudaFuncSetAttribute(match_sort<Threads, Items, Bits>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
          "match shared memory");
    cudaFuncAttributes attr{};
    check(cudaFuncGetAttributes(&attr, match_sort<Threads, Items, Bits>), "attributes");
    const std::string name = "match " + std::to_string(Threads) + "x" + std::to_string(Items) + ", " +
                             std::to_string(Bits) + "-bit digits";
    std::printf("  (%s: %d registers, %zu bytes spilled, %d bytes shared)\n", name.c_str(), attr.numRegs,
                std::size_t(attr.localSizeBytes), bytes);
    time_form(name.c_str(), d, g, [&] {
        match_sort<Threads, Items, Bits><<<sms, Threads, bytes>>>(d.keys, d.start, d.length, d.count, d.heads);
    });
}

}  // namespace

int main(int argc, char** argv) {
    const int count = argc > 1 ? std::atoi(argv[1]) : 1024;
    const segments_t g = make_segments(count);
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, 0), "device");
    std::printf("%s, %d segments of 8193-16384 int32 keys spanning 22 bits, %zu keys\n", prop.name, count, g.keys.size());
    device_t d{};
    d.n = g.keys.size();
    check(cudaMalloc(&d.keys, d.n * 4), "malloc");
    check(cudaMalloc(&d.pristine, d.n * 4), "malloc");
    check(cudaMalloc(&d.start, d.n * 4), "malloc");
    check(cudaMalloc(&d.length, d.n * 4), "malloc");
    check(cudaMalloc(&d.count, 4), "malloc");
    check(cudaMalloc(&d.heads, g.heads.size() * 4), "malloc");
    check(cudaMalloc(&d.offsets, g.offsets.size() * 4), "malloc");
    check(cudaMemcpy(d.pristine, g.keys.data(), d.n * 4, cudaMemcpyHostToDevice), "upload");
    check(cudaMemcpy(d.length, g.length.data(), d.n * 4, cudaMemcpyHostToDevice), "upload");
    const std::uint32_t c = std::uint32_t(count);
    check(cudaMemcpy(d.count, &c, 4, cudaMemcpyHostToDevice), "upload");
    check(cudaMemcpy(d.heads, g.heads.data(), g.heads.size() * 4, cudaMemcpyHostToDevice), "upload");
    check(cudaMemcpy(d.offsets, g.offsets.data(), g.offsets.size() * 4, cudaMemcpyHostToDevice), "upload");
    const int sms = prop.multiProcessorCount;

    using large = sv::detail::block_sort_large<int>;
    const int bytes = int(sizeof(typename sv::detail::block_sort_of<int, large>::TempStorage));
    check(cudaFuncSetAttribute(sv::detail::block_sort_segments<int, large>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
          "library shared memory");
    time_form("library (CUB block sort, 4-bit)", d, g, [&] {
        sv::detail::block_sort_segments<int, large><<<sms, large::threads, bytes>>>(d.keys, d.start, d.length, d.count, d.heads);
    });
    match_form<1024, 16, 8>(d, g, sms);
    match_form<1024, 16, 7>(d, g, sms);
    match_form<1024, 16, 6>(d, g, sms);
    match_form<1024, 16, 5>(d, g, sms);
    match_form<512, 32, 8>(d, g, sms);

    void* temp = nullptr;
    std::size_t temp_bytes = 0;
    int* out = nullptr;
    check(cudaMalloc(&out, d.n * 4), "malloc");
    check(cub::DeviceSegmentedSort::SortKeys(temp, temp_bytes, d.keys, out, int(d.n), count, d.offsets, d.offsets + 1),
          "segmented sort size");
    check(cudaMalloc(&temp, temp_bytes), "malloc");
    time_form("cub::DeviceSegmentedSort::SortKeys", d, g, [&] {
        check(cub::DeviceSegmentedSort::SortKeys(temp, temp_bytes, d.pristine, d.keys, int(d.n), count, d.offsets,
                                                 d.offsets + 1),
              "segmented sort");
    });
    return 0;
}
