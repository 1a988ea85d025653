// A control for compute-sanitizer (bench/sanitize.sh, SANITIZE_CONTROL): a
// kernel each of whose barriers the whole block reaches (a shared word, two
// __syncthreads, CUB's block radix sort) and a one-thread countdown, repeated
// by runtime::repeat_on_device: as a graph with a conditional while node by
// default, from the host with SCANVEC_HOST_ROUNDS=1. A tool that reports on
// this program in the graph and not from the host reports on itself, not on
// the kernels it runs; the same report on a scanvec kernel in the graph only
// is then read against this one.
#include <scanvec/scanvec.hpp>

#include <cub/block/block_radix_sort.cuh>

#include <cstdio>

namespace sv = scanvec;

namespace {

constexpr int threads = 256, items = 8, tile = threads * items;

__global__ void sort_tiles(unsigned* data, long long n) {
    using block_sort = cub::BlockRadixSort<unsigned, threads, items>;
    __shared__ typename block_sort::TempStorage scratch;
    __shared__ unsigned first;
    if (threadIdx.x == 0) first = data[static_cast<long long>(blockIdx.x) * tile];
    __syncthreads();
    unsigned keys[items];
    for (int i = 0; i < items; ++i) {
        const long long at = static_cast<long long>(blockIdx.x) * tile + threadIdx.x * items + i;
        keys[i] = at < n ? data[at] ^ first : 0xffffffffu;
    }
    block_sort(scratch).Sort(keys);
    __syncthreads();
    for (int i = 0; i < items; ++i) {
        const long long at = static_cast<long long>(blockIdx.x) * tile + threadIdx.x * items + i;
        if (at < n) data[at] = keys[i];
    }
}

__global__ void count_down(sv::index_t* left) { *left -= 1; }

}  // namespace

int main() {
    const int blocks = 400;
    const long long n = static_cast<long long>(blocks) * tile - 7;  // the last tile short
    sv::vector<unsigned> v = sv::map(SCANVEC_FN(sv::index_t i) { return static_cast<unsigned>(i * 2654435761u); },
                                     sv::lazy::index(n));
    sv::vector<sv::index_t> left = sv::distribute(sv::index_t(6), 1);
    const auto ran = sv::runtime::repeat_on_device(2, [&] {
        sort_tiles<<<blocks, threads, 0, sv::current_stream()>>>(v.data(), n);
        count_down<<<1, 1, 0, sv::current_stream()>>>(left.data());
        return left.data();
    });
    const cudaError_t status = cudaDeviceSynchronize();
    std::printf("sanitize_control: %s, %llu calls, %s\n", sv::runtime::device_loops() ? "graph" : "host rounds",
                static_cast<unsigned long long>(ran.calls), cudaGetErrorString(status));
    return status == cudaSuccess && ran.calls == 6 ? 0 : 1;
}
