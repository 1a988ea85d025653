// scanvec/primitives/detail/tile_state.hpp - the look-back status of a single-pass tile kernel (CUDA).
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

/// cub::ScanTileState for num_tiles tiles, ready on stream s; op names the primitive in errors.
template <class State> struct tile_state {
    runtime::scratch memory;
    State tiles;

    tile_state(int num_tiles, stream_t s, const char* op) {
        const auto check = [op](cudaError_t e) {  // the message is built only on failure
            if (e != cudaSuccess) backend::check(e, (std::string(op) + " (tile state)").c_str());
        };
        std::size_t bytes = 0;
        check(State::AllocationSize(num_tiles, bytes));
        memory = runtime::scratch(bytes);
        check(tiles.Init(num_tiles, memory.get(), bytes));
        tile_state_init<<<(num_tiles + 255) / 256, 256, 0, s>>>(tiles, num_tiles);
        check(cudaGetLastError());
    }
};

}  SCANVEC_NAMESPACE_END  // detail

#endif
