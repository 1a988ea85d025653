// scanvec/primitives/detail/common/cuda/tile_state.hpp - the look-back status of a single-pass tile kernel (CUDA).
//
// A tile kernel that scans across tiles by decoupled look-back (split's and
// the three-way split's) needs one status word per tile, in memory from the
// runtime's cache, initialised on the stream before the kernel runs.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/memory.hpp>

#include <cub/agent/single_pass_scan_operators.cuh>

#include <string>

SCANVEC_NAMESPACE_BEGIN namespace detail {

template <class State> __global__ void tile_state_init(State tiles, int num_tiles) { tiles.InitializeStatus(num_tiles); }

/// The bytes of num_tiles status words; op names the primitive in errors.
template <class State> std::size_t tile_state_bytes(int num_tiles, const char* op) {
    std::size_t bytes = 0;
    const cudaError_t e = State::AllocationSize(num_tiles, bytes);
    if (e != cudaSuccess) backend::check(e, (std::string(op) + " (tile state)").c_str());
    return bytes;
}

/// The status words of num_tiles tiles over `bytes` (tile_state_bytes) at
/// memory, not initialised: a kernel that runs before the one that looks
/// back, with at least num_tiles threads in all, calls
/// tiles.InitializeStatus(num_tiles). No launch of its own.
template <class State> State tile_state_on(int num_tiles, void* memory, std::size_t bytes, const char* op) {
    State tiles;
    const cudaError_t e = tiles.Init(num_tiles, memory, bytes);
    if (e != cudaSuccess) backend::check(e, (std::string(op) + " (tile state)").c_str());
    return tiles;
}

/// cub::ScanTileState for num_tiles tiles, ready on stream s (initialised by
/// a launch of its own); op names the primitive in errors.
template <class State> struct tile_state {
    runtime::scratch memory;
    State tiles;

    tile_state(int num_tiles, stream_t s, const char* op)
        : memory(tile_state_bytes<State>(num_tiles, op)),
          tiles(tile_state_on<State>(num_tiles, memory.get(), memory.size(), op)) {
        tile_state_init<<<(num_tiles + 255) / 256, 256, 0, s>>>(tiles, num_tiles);
        const cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) backend::check(e, (std::string(op) + " (tile state)").c_str());
    }
};

}  SCANVEC_NAMESPACE_END  // detail

#endif
