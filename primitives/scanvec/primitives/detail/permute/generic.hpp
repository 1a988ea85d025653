// scanvec/primitives/detail/permute/generic.hpp - the checked permute on
// both backends (the host's form): the parity bitmap checked while the
// scatter moves, or past the caches the fingerprint of idx first.
#pragma once

#include <scanvec/primitives/detail/permute/checks.hpp>
#include <scanvec/primitives/detail/permute/fingerprint.hpp>
#include <scanvec/runtime/memory.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <string>
#include <utility>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// On the host with more threads than bitmaps of their own: up to this many
/// elements permute checks inside its scatter with a shared bitmap; past it the
/// bitmap falls out of the caches and idx is checked by its fingerprint first
/// (docs/design/permutes.md). CUDA checks in one launch at any size.
inline constexpr std::size_t fused_permute_check_max = std::size_t(1) << 25;

/// permute's check: the parity bitmap, the first out-of-range position, and
/// the verdict, read back once.
template <class Idx> class permutation_check {
public:
    permutation_check(const Idx& idx, std::size_t n)
        : idx_(idx), n_(n), words_((n + 31) / 32), s_(current_stream()),
          state_(2 * sizeof(unsigned long long) + words_ * sizeof(unsigned)) {
        backend::fill_bytes(result(), 0xff, sizeof(unsigned long long), s_, "permute (index check init)");
        backend::fill_zero(parity(), words_ * sizeof(unsigned), s_, "permute (index check init)");
    }
    flip_target<decltype(reader(std::declval<const Idx&>()))> flipper() const {
        return {reader(idx_), index_t(n_), parity(), result()};
    }
    stream_t stream() const { return s_; }
    /// Throws index_error for the first out-of-range index, else for the first repeat.
    void verdict() const {
        backend::check_launch("permute");
        auto unfilled = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                        word_unfilled{parity(), index_t(n_)});
        reduce_into(unfilled, words_, plus<unsigned long long>{}, 0ull, result() + 1, s_);
        unsigned long long bad[2];
        backend::read_small(bad, result(), sizeof(bad), s_, "permute (index check result)");
        if (bad[0] != ~0ull) throw_out_of_range("permute", idx_, bad[0], n_);
        if (bad[1] != 0) {  // a target missed: find and name the first repeat exactly
            check_indices("permute", idx_, n_, true);
            throw index_error("permute: idx is not a permutation");  // (check_indices has thrown)
        }
    }

private:
    // state: [0] first out-of-range position (~0: none), [1] parity words with a clear bit, then the bits
    unsigned long long* result() const { return state_.as<unsigned long long>(); }
    unsigned* parity() const { return reinterpret_cast<unsigned*>(result() + 2); }
    const Idx& idx_;
    std::size_t n_, words_;
    stream_t s_;
    runtime::scratch state_;
};

/// The fingerprint of the n indices read through it (one reduce, waits for it).
template <class It> permutation_fingerprint fingerprint_of(It it, std::size_t n) {
    const auto& x = fingerprint_points();
    auto factors = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                   fingerprint_factors<It>{it, index_t(n), {x[0], x[1]}});
    return reduce_n(factors, n, fingerprint_product{}, fingerprint_product::identity(), current_stream());
}

/// Throws index_error unless idx (length n) is a permutation of 0..n-1: the
/// first out-of-range position, else the first repeat. One pass over idx and
/// one value read back; the exact search for a repeat runs only on failure.
template <class Idx> void expect_permutation(const char* op, const Idx& idx, std::size_t n) {
    if (n == 0) return;
    const auto f = fingerprint_of(reader(idx), n);
    if (f.first_bad != ~0ull) throw_out_of_range(op, idx, f.first_bad, n);
    if (!f.permutation()) {
        check_indices(op, idx, n, true);  // names the first repeat
        throw index_error(std::string(op) + ": idx is not a permutation");  // (check_indices has thrown)
    }
}

} SCANVEC_NAMESPACE_END
