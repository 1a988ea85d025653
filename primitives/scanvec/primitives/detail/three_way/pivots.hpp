// scanvec/primitives/detail/three_way/pivots.hpp - quicksort's pivot
// chooser: the ninther of a short segment, the median of 256 samples of a
// long one, drawn by a hash of (start, round) so that sorted, reversed and
// random input all split near the middle without randomness in the input.
#pragma once

#include <scanvec/runtime/config.hpp>

#include <cstdint>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

SCANVEC_HD inline std::uint64_t mix64(std::uint64_t x) {  // splitmix64's finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/// The pivot of the segment of len keys from start. A segment shorter than
/// 2^14 keys takes the ninther of nine positions hashed from (start, round),
/// one in each ninth of the segment; a longer one the median of 256 keys, one
/// hashed position in each 256th. Both split sorted, reversed and random input
/// near the middle and need no randomness in the input. The median lands
/// near the middle more surely than a ninther, which saves the last rounds,
/// whose few long segments every pass waits for; there are few such
/// segments to pay for its 256 reads. Called by one thread; the CUDA tile
/// passes choose a long segment's pivot with a warp instead (is_wide,
/// narrow, wide_sample: the same median, docs/design/quicksort.md).
struct ninther {
    std::uint64_t round;
    static constexpr std::uint64_t wide = std::uint64_t(1) << 14;
    static constexpr int wide_samples = 256;
    template <class Keys, class Pos> SCANVEC_HD auto operator()(const Keys& keys, Pos start, Pos len) const {
        using T = std::decay_t<decltype(keys[start])>;
        if (!is_wide(len)) return narrow(keys, start, len);
        T x[wide_samples];
        for (int k = 0; k < wide_samples; ++k) x[k] = wide_sample(keys, start, len, k);
        sort_samples(x);
        return x[wide_samples / 2];
    }
    template <class Pos> SCANVEC_HD static bool is_wide(Pos len) { return std::uint64_t(len) >= wide; }
    /// The ninther of a segment shorter than `wide`.
    template <class Keys, class Pos> SCANVEC_HD auto narrow(const Keys& keys, Pos start, Pos len) const {
        using T = std::decay_t<decltype(keys[start])>;
        T x[9];
        load_nine(keys, start, len, mix64(std::uint64_t(start) * 0x9e3779b97f4a7c15ull + round), x);
        return ninth_of(x);
    }
    /// Sample k (0..255) of a long segment: the key at start + floor(len * (k
    /// + r / 128) / 256), r from 7 bits of a hash of (start, round, k). Exact
    /// while len * 2^15 < 2^64.
    template <class Keys, class Pos> SCANVEC_HD auto wide_sample(const Keys& keys, Pos start, Pos len, int k) const {
        const std::uint64_t h = mix64(std::uint64_t(start) * 0x9e3779b97f4a7c15ull + round + std::uint64_t(k));
        const std::uint64_t step = std::uint64_t(k) * 128 + (h & 127);
        return keys[start + Pos(std::uint64_t(len) * step / (std::uint64_t(wide_samples) * 128))];
    }
    /// The samples in ascending order (a bitonic network: the same
    /// comparisons whatever the keys, so it ends whatever operator< does).
    template <class T> SCANVEC_HD static void sort_samples(T (&x)[wide_samples]) {
        for (int k = 2; k <= wide_samples; k <<= 1)
            for (int j = k >> 1; j > 0; j >>= 1)
                for (int i = 0; i < wide_samples; ++i) {
                    const int l = i ^ j;
                    if (l <= i) continue;
                    const bool up = (i & k) == 0;
                    if (up ? x[l] < x[i] : x[i] < x[l]) {
                        const T t = x[i];
                        x[i] = x[l];
                        x[l] = t;
                    }
                }
    }
    /// x <- the keys at one position in each ninth of the segment, drawn by the
    /// hash h: start + floor(len * (k + r / 128) / 9), r from 7 bits of h. In
    /// integers over a divisor known at compile time, no division at run time
    /// (docs/design/quicksort.md). Exact while len * 9 * 128 < 2^64.
    template <class T, class Keys, class Pos>
    SCANVEC_HD static void load_nine(const Keys& keys, Pos start, Pos len, std::uint64_t h, T (&x)[9]) {
        constexpr std::uint64_t steps = 9 * 128;  // 128 steps in each ninth
        SCANVEC_UNROLL
        for (int k = 0; k < 9; ++k) {
            const std::uint64_t step = std::uint64_t(k) * 128 + ((h >> (7 * k)) & 127);  // < steps
            x[k] = keys[start + Pos(std::uint64_t(len) * step / steps)];
        }
    }
    template <class T> SCANVEC_HD static T ninth_of(const T (&x)[9]) {
        return median(median(x[0], x[3], x[6]), median(x[1], x[4], x[7]), median(x[2], x[5], x[8]));
    }
    template <class T> SCANVEC_HD static T median(const T& a, const T& b, const T& c) {
        if (a < b) return b < c ? b : (a < c ? c : a);
        return a < c ? a : (b < c ? c : b);
    }
};

}  SCANVEC_NAMESPACE_END  // detail
