// scanvec/primitives/detail/segmented_scan/cuda/tiles.hpp - the segmented scan by head flags, tile by tile (CUDA).
//
// One pass: each tile loads its values and its head flags, each thread folds
// its items into one (any head, value) pair, a block scan of the pairs under
// the segmented operator (a head restarts the fold) with decoupled look-back
// across tiles gives each thread the fold before it, and each thread replays
// its items from there. The flags of a thread's items are one bit mask; read
// as whole words when they are a bool array. One launch for one tile, two
// otherwise (the look-back states are reset first). Shape and look-back
// delays: segmented_scan_shape (scan/policy.hpp); why and how fast:
// docs/design/scans-and-reductions.md.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/detail/scan/policy.hpp>
#include <scanvec/primitives/detail/common/cuda/tile_state.hpp>
#include <scanvec/runtime/backend.hpp>

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/util_type.cuh>

#include <cstddef>
#include <cstdint>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// The segmented operator on (any head, value) pairs: (h1, v1) + (h2, v2) =
/// (h1 | h2, h2 ? v2 : op(v1, v2)). Associative when op is; the order of op's
/// operands is kept.
template <class Op> struct segmented_pair_op {
    Op op;
    template <class Pair> __device__ Pair operator()(const Pair& a, const Pair& b) const {
        Pair r;
        r.key = a.key | b.key;
        r.value = b.key ? b.value : op(a.value, b.value);
        return r;
    }
};

/// The look-back's waits (cub::TilePrefixCallbackOp's delay constructor): one
/// before the first look at the tiles before, then one between polls of a
/// tile not yet published; none on small grids, where few tiles contend.
template <class Shape> struct segmented_look_back_delay {
    struct poll {
        __device__ void operator()() const {
            if (gridDim.x >= Shape::delay_min_tiles) __nanosleep(Shape::poll_ns);
            else __threadfence_block();
        }
    };
    __device__ explicit segmented_look_back_delay(unsigned) {
        if (gridDim.x >= Shape::delay_min_tiles) __nanosleep(Shape::first_ns);
    }
    __device__ poll operator()() const { return {}; }
};

/// (key, value) pairs and their tile status in one 16-byte word when T is a
/// primitive of at most 8 bytes; CUB's separate arrays, fenced, otherwise.
template <class T> using segmented_tile_state = cub::ReduceByKeyScanTileState<T, int>;

/// Four bytes, each 0 or 1 (a bool's representation), to four bits: byte k
/// lands on bit 21 + k of w * (1 + 2^7 + 2^14 + 2^21), and no terms overlap.
__device__ inline unsigned bits_of_flag_bytes(unsigned w) { return (w * 0x00204081u) >> 21 & 0xFu; }

/// The widest word (16, 8 or 4 bytes) that divides a thread's run of flags; 1 if none.
template <int Items> constexpr int flag_word_bytes = Items % 16 == 0 ? 16 : Items % 8 == 0 ? 8 : Items % 4 == 0 ? 4 : 1;

template <class It> constexpr bool is_bool_pointer = std::is_same_v<It, const bool*> || std::is_same_v<It, bool*>;

/// The flags of a thread's Items consecutive positions from p (aligned to
/// flag_word_bytes<Items>) as bits 0..Items-1, read as whole words.
template <int Items> __device__ unsigned load_flag_words(const bool* p) {
    constexpr int bytes = flag_word_bytes<Items>;
    unsigned bits = 0;
    if constexpr (bytes == 16) {
        const uint4* q = reinterpret_cast<const uint4*>(p);
#pragma unroll
        for (int k = 0; k < Items / 16; ++k) {
            const uint4 w = q[k];
            bits |= (bits_of_flag_bytes(w.x) | bits_of_flag_bytes(w.y) << 4 | bits_of_flag_bytes(w.z) << 8 |
                     bits_of_flag_bytes(w.w) << 12)
                    << (16 * k);
        }
    } else if constexpr (bytes == 8) {
        const uint2* q = reinterpret_cast<const uint2*>(p);
#pragma unroll
        for (int k = 0; k < Items / 8; ++k) {
            const uint2 w = q[k];
            bits |= (bits_of_flag_bytes(w.x) | bits_of_flag_bytes(w.y) << 4) << (8 * k);
        }
    } else {
        static_assert(bytes == 4, "flag words are 4, 8 or 16 bytes");
        const unsigned* q = reinterpret_cast<const unsigned*>(p);
#pragma unroll
        for (int k = 0; k < Items / 4; ++k) bits |= bits_of_flag_bytes(q[k]) << (4 * k);
    }
    return bits;
}

/// This thread's head flags as a bit mask; positions past the end (a partial
/// last tile) read as heads: never stored, and nothing after them is.
template <class Shape, class Heads>
__device__ unsigned load_heads(Heads heads, std::size_t base, int valid, bool words) {
    constexpr int items = Shape::items;
    const int first = int(threadIdx.x) * items;
    if constexpr (is_bool_pointer<Heads> && flag_word_bytes<items> > 1) {
        if (valid == Shape::size && words) return load_flag_words<items>(heads + base + first);
    }
    unsigned bits = 0;
#pragma unroll
    for (int k = 0; k < items; ++k)
        if (first + k >= valid || bool(heads[base + std::size_t(first + k)])) bits |= 1u << k;
    return bits;
}

template <class T> struct segmented_tile_storage {
    using shape = segmented_scan_shape<T>;
    using pair = cub::KeyValuePair<int, T>;
    using load = cub::BlockLoad<T, shape::threads, shape::items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using store = cub::BlockStore<T, shape::threads, shape::items, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    using scan = cub::BlockScan<pair, shape::threads, cub::BLOCK_SCAN_WARP_SCANS>;
    template <class Op>
    using look_back = cub::TilePrefixCallbackOp<pair, segmented_pair_op<Op>, segmented_tile_state<T>,
                                                segmented_look_back_delay<shape>>;
    template <class Op> struct type {
        union {
            typename load::TempStorage load;
            typename store::TempStorage store;
        } io;
        typename scan::TempStorage scan;
        typename look_back<Op>::TempStorage prefix;
    };
};

/// One tile a block (the look-back relies on blocks starting in tile order).
/// Inclusive: out[i] = in[h] op ... op in[i]; exclusive: out[i] = init op
/// in[h] op ... op in[i-1], init at every head (h: the head of i's segment;
/// position 0 always heads one).
template <bool Inclusive, class T, class In, class Heads, class Out, class Op>
__global__ void __launch_bounds__(segmented_scan_shape<T>::threads)
    segmented_scan_tiles(In in, Heads heads, Out out, Op op, T init, std::size_t n, segmented_tile_state<T> tiles) {
    using shape = segmented_scan_shape<T>;
    using storage = segmented_tile_storage<T>;
    using pair = typename storage::pair;
    constexpr int items = shape::items;
    __shared__ cub::Uninitialized<typename storage::template type<Op>> raw;
    auto& smem = raw.Alias();

    const int tile = int(blockIdx.x);
    const std::size_t base = std::size_t(tile) * shape::size;
    const int valid = n - base < std::size_t(shape::size) ? int(n - base) : shape::size;
    const auto in_tile = in + static_cast<std::ptrdiff_t>(base);
    const auto out_tile = out + static_cast<std::ptrdiff_t>(base);

    T v[items];
    if (valid == shape::size) typename storage::load(smem.io.load).Load(in_tile, v);
    else typename storage::load(smem.io.load).Load(in_tile, v, valid, T(in_tile[0]));  // padding: never stored
    bool words = false;  // whole words need the flags' start aligned (tile and thread offsets are multiples)
    if constexpr (is_bool_pointer<Heads>)
        words = reinterpret_cast<std::uintptr_t>(heads) % flag_word_bytes<items> == 0;
    unsigned head_bits = load_heads<shape>(heads, base, valid, words);
    if (tile == 0 && threadIdx.x == 0) head_bits |= 1u;

    // my pair: whether any of my items heads a segment, the fold of my items from my last head
    pair mine;
    mine.key = head_bits != 0;
    mine.value = v[0];
#pragma unroll
    for (int k = 1; k < items; ++k) mine.value = (head_bits >> k & 1u) ? v[k] : op(mine.value, v[k]);

    // the pair before me: the block scan, with the tiles before by look-back
    // (the scan's barrier also parts the load's and the store's use of smem.io)
    const segmented_pair_op<Op> pair_op{op};
    pair before;
    if (tile == 0) {
        pair total;
        typename storage::scan(smem.scan).ExclusiveScan(mine, before, pair_op, total);
        if (threadIdx.x == 0) {
            if (gridDim.x > 1) tiles.SetInclusive(0, total);
            before = mine;  // nothing is before; my first item heads a segment, so this is never read
        }
    } else {
        typename storage::template look_back<Op> prefix(tiles, smem.prefix, pair_op, tile);
        typename storage::scan(smem.scan).ExclusiveScan(mine, before, pair_op, prefix);
    }

    // A shuffle of the mask to itself, opaque to ptxas, makes the replay's
    // predicates afresh: ptxas 13.0 (sm_90) kept those made above alive across
    // the block scan and read a clobbered one (docs/design/scans-and-reductions.md).
    head_bits = __shfl_sync(0xffffffffu, head_bits, int(threadIdx.x) & 31);

    // replay my items from the fold before me (unused where my first item heads a segment)
    if constexpr (Inclusive) {
        T run = before.value;
#pragma unroll
        for (int k = 0; k < items; ++k) {
            run = (head_bits >> k & 1u) ? v[k] : op(run, v[k]);
            v[k] = run;
        }
    } else {
        T run = op(init, before.value);
#pragma unroll
        for (int k = 0; k < items; ++k) {
            const T e = (head_bits >> k & 1u) ? init : run;
            run = op(e, v[k]);
            v[k] = e;
        }
    }
    if (valid == shape::size) typename storage::store(smem.io.store).Store(out_tile, v);
    else typename storage::store(smem.io.store).Store(out_tile, v, valid);
}

/// out[0..n) <- the segmented scan of in[0..n), restarting where heads[j] is
/// set (j >= 1; position 0 always starts a segment): inclusive, or exclusive
/// from init (op's identity) at every head. n > 0, T within segmented_scan_shape<T>::fits.
template <bool Inclusive, class T, class In, class Heads, class Out, class Op>
void segmented_scan_by_tiles(In in, std::size_t n, Heads heads, Out out, Op op, T init, stream_t s) {
    using shape = segmented_scan_shape<T>;
    const std::size_t num_tiles = (n + shape::size - 1) / shape::size;
    const char* name = Inclusive ? "segmented inclusive scan (tiles)" : "segmented scan (tiles)";
    if (num_tiles == 1) {  // one tile never looks back: no states
        segmented_scan_tiles<Inclusive, T><<<1, shape::threads, 0, s>>>(in, heads, out, op, init, n,
                                                                         segmented_tile_state<T>{});
    } else {
        const tile_state<segmented_tile_state<T>> status(int(num_tiles), s, name);
        segmented_scan_tiles<Inclusive, T><<<unsigned(num_tiles), shape::threads, 0, s>>>(in, heads, out, op, init,
                                                                                          n, status.tiles);
    }
    backend::check_launch(name);
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
