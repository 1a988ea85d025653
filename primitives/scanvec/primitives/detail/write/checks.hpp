// scanvec/primitives/detail/write/checks.hpp - what write and combining_write
// check: their arguments' types and lengths, and every target in range (one
// reduction to the first bad position, and a wait for its verdict, or its
// verdict stored for later: detail/common/deferred.hpp).
#pragma once

#include <scanvec/primitives/detail/common/deferred.hpp>
#include <scanvec/primitives/detail/common/live.hpp>
#include <scanvec/primitives/detail/scan/dispatch.hpp>
#include <scanvec/primitives/operators.hpp>
#include <scanvec/primitives/permute.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// k when idx[k] is outside [0, bound), else ~0: reduced with min, the first bad position.
template <class IdxIt> struct position_if_outside {
    IdxIt idx;
    index_t bound;
    SCANVEC_HD unsigned long long operator()(index_t k) const {
        return in_range(static_cast<long long>(idx[k]), bound) ? ~0ull : (unsigned long long)k;
    }
};

/// Throws index_error for the first idx[k] outside [0, bound), before anything is written.
template <class Idx> void expect_targets_in_range(const char* op, const Idx& idx, std::size_t bound) {
#if SCANVEC_CHECKS
    if (idx.empty()) return;
    auto bad = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                               position_if_outside<decltype(reader(idx))>{reader(idx), index_t(bound)});
    const auto first = reduce_n(bad, idx.size(), min<unsigned long long>{}, ~0ull, current_stream());
    if (first != ~0ull) throw_out_of_range(op, idx, first, bound);
#else
    (void)op; (void)idx; (void)bound;
#endif
}

/// The write's own check: as expect_targets_in_range, unless checks are
/// deferred (sv::deferred_checks, a loop body on the device): then nothing
/// here, and true: the write checks as it goes (write_into's deferred_op).
template <class Idx> bool checks_targets_later(const char* op, const Idx& idx, std::size_t bound) {
#if SCANVEC_CHECKS
    if (!idx.empty() && checks_deferred()) return true;
    expect_targets_in_range(op, idx, bound);
#else
    (void)op; (void)idx; (void)bound;
#endif
    return false;
}

/// A deferred check by its own pass: the first idx[k] outside [0, bound)
/// stored for the host's next wait (the forms that cannot check in their
/// own pass: a struct's write, a combining write by sorting).
/// With live (idx bounded), the positions below *live only.
template <class Idx>
void store_targets_outside(const char* op, const Idx& idx, std::size_t bound, const index_t* live = nullptr) {
    const position_if_outside<decltype(reader(idx))> outside{reader(idx), index_t(bound)};
    const stream_t s = current_stream();
    unsigned long long* first_bad = deferred_word();
    if (live) {
        auto bad = masked(thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), outside), live, ~0ull);
        reduce_into(bad, idx.size(), min<unsigned long long>{}, ~0ull, first_bad, s);
    } else {
        auto bad = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), outside);
        reduce_into(bad, idx.size(), min<unsigned long long>{}, ~0ull, first_bad, s);
    }
    store_failure(op, first_bad, idx, bound, s);
}

template <class Idx, class V> void expect_write_arguments(const char* op, const Idx& idx, const V& vals) {
    static_assert(std::is_integral_v<value_t<Idx>>, "sv::write / sv::combining_write: idx must hold integers");
    expect_same_length(op, idx.size(), vals.size());
}

template <class T, class V> constexpr void expect_written_values() {
    static_assert(std::is_convertible_v<value_t<V>, T>,
                  "sv::write / sv::combining_write: vals must convert to dst's elements");
}
template <class Op> constexpr void expect_commutative() {
    static_assert(is_commutative_v<Op>,
                  "sv::combining_write(dst, idx, vals, op): op must commute (sv::plus, sv::max, sv::min, "
                  "sv::logical_or, sv::bit_or, ... or sv::commutative_monoid(op, identity))");
}

} SCANVEC_NAMESPACE_END
