// examples/interop.cu - scanvec inside a CUDA program that owns its data.
//
// A CUDA application keeps its arrays in thrust::device_vector (or its own
// cudaMalloc'd buffers) and runs its work on its own stream. Here it has
// ragged rows: row r holds counts[r] elements. To lay the rows out in one
// array it needs each row's offset, the exclusive +-scan of the counts, and
// then its own kernel writes every row at its offset.
//
//   sv::on scope(stream)              scanvec's work goes on the application's stream
//   sv::view_of(counts)               the application's memory as a scanvec input: no copy
//   sv::scan(..., sv::into(offsets))  the result written into the application's buffer
//
// Nothing is copied between scanvec and the application, and nothing waits:
// the kernel is queued on the same stream right after the scan. The program
// checks the layout on the host and prints what scanvec allocated (only the
// scan's temporary storage, back in its cache at the end).
#include <scanvec/scanvec.hpp>

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>

#include <cstdio>
#include <random>
#include <vector>

namespace sv = scanvec;

/// The application's own kernel: row r's elements (r, 0), (r, 1), ... at offsets[r].
__global__ void lay_out_rows(const int* counts, const long long* offsets, int rows, int2* out) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    for (int k = 0; k < counts[r]; ++k) out[offsets[r] + k] = make_int2(r, k);
}

static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

int main() try {
    const int rows = 100000;
    std::mt19937 gen(7);
    std::vector<int> h_counts(rows);
    for (int& c : h_counts) c = int(gen() % 9);  // 0..8 elements a row

    cudaStream_t stream;
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    thrust::device_vector<int> counts(h_counts.begin(), h_counts.end());
    thrust::device_vector<long long> offsets(rows);
    check(cudaDeviceSynchronize(), "upload");

    long long total = 0;
    for (int c : h_counts) total += c;
    thrust::device_vector<int2> laid_out(total);

    {
        sv::on scope(stream);
        // offsets = exclusive scan of the counts (as 64-bit), written into the application's buffer
        auto wide = sv::lazy::map(SCANVEC_FN(int c) { return (long long)c; }, sv::view_of(counts));
        sv::scan(wide, sv::into(offsets));
    }
    lay_out_rows<<<(rows + 255) / 256, 256, 0, stream>>>(thrust::raw_pointer_cast(counts.data()),
                                                           thrust::raw_pointer_cast(offsets.data()), rows,
                                                           thrust::raw_pointer_cast(laid_out.data()));
    check(cudaGetLastError(), "lay_out_rows");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");

    // check on the host: every row's elements in order, at the scan's offsets
    thrust::host_vector<int2> h(laid_out);
    std::size_t at = 0;
    for (int r = 0; r < rows; ++r)
        for (int k = 0; k < h_counts[r]; ++k, ++at)
            if (h[at].x != r || h[at].y != k) {
                std::printf("wrong element at %zu: (%d, %d), expected (%d, %d)\n", at, h[at].x, h[at].y, r, k);
                return 1;
            }
    const auto stats = sv::memory::stats();
    std::printf("%d rows, %lld elements laid out by one scan into the application's buffer and its own kernel\n", rows,
                total);
    std::printf("scanvec memory: %zu bytes in use, %zu cached (the scan's temporary storage), %zu allocations\n",
                stats.bytes_in_use, stats.bytes_cached, stats.backend_allocations);
    check(cudaStreamDestroy(stream), "cudaStreamDestroy");
    return stats.bytes_in_use == 0 ? 0 : 1;
} catch (const std::exception& e) {
    std::fprintf(stderr, "interop: %s\n", e.what());
    return 1;
}
