// scanvec/algorithms/string_compare.hpp - many lexicographic comparisons at once.
//
// Comparing pairs of strings in the model: segment k of X is compared with
// segment k of Y. Every pair gets as many positions as its shorter string
// (an allocation by +-scan), each position compares one pair of characters,
// and a segmented reduce with "the first nonzero" (associative, not
// commutative) finds the first difference of every pair; pairs that agree on
// the whole shorter string are ordered by length:
//
//   procedure compare-strings(X, Y)
//       L      <- min(length(X), length(Y))             the common length of every pair
//       Segs   <- allocate(L)
//       I      <- index(Segs)
//       Xc     <- back-permute(X, distribute(start(X), Segs) + I)      aligned characters,
//       Yc     <- back-permute(Y, distribute(start(Y), Segs) + I)      one pair per position
//       D      <- sign(Xc - Yc)                          -1, 0 or 1
//       First  <- reduce(D, Segs, first-nonzero)         the first difference, 0 for none
//       R      <- if First != 0 then First else sign(length(X) - length(Y))
//
// r[k] < 0 when X's string k comes first in lexicographic order, 0 when the
// strings are equal, > 0 when Y's comes first (as std::string::compare, with
// the characters compared by operator<).
#pragma once

#include <scanvec/primitives/nested.hpp>

SCANVEC_NAMESPACE_BEGIN
namespace detail {

struct shorter {
    SCANVEC_HD index_t operator()(index_t a, index_t b) const { return a < b ? a : b; }
};
struct offset_plus {
    SCANVEC_HD index_t operator()(index_t start, index_t i) const { return start + i; }
};
template <class T> struct compare_chars {
    SCANVEC_HD int operator()(const T& x, const T& y) const { return x < y ? -1 : (y < x ? 1 : 0); }
};
struct first_nonzero {
    SCANVEC_HD int operator()(int a, int b) const { return a != 0 ? a : b; }
};
struct or_by_length {
    SCANVEC_HD int operator()(int first, index_t lx, index_t ly) const {
        return first != 0 ? first : (lx < ly ? -1 : (ly < lx ? 1 : 0));
    }
};

}  // namespace detail

/// r[k]: -1, 0 or 1 as segment k of x is before, equal to or after segment k of y
/// in lexicographic order (x and y hold the same number of strings).
template <class T> vector<int> compare_strings(const nested<T>& x, const nested<T>& y) {
    return detail::labelled("compare_strings", x.total() + y.total(), [&] {
        detail::expect_same_length("compare_strings (string counts)", x.count(), y.count());
        auto lx = length(x), ly = length(y);
        // L <- min(length(X), length(Y))
        auto common = lazy::map(detail::shorter{}, lx, ly);
        // Segs <- allocate(L);  I <- index(Segs)
        auto segs = allocate(common);
        auto i = index(segs);
        // Xc, Yc <- the aligned characters of every pair
        auto xi = map(detail::offset_plus{}, distribute(x.segments().starts(), segs), i);
        auto yi = map(detail::offset_plus{}, distribute(y.segments().starts(), segs), i);
        auto xc = lazy::back_permute(x.values(), xi);
        auto yc = lazy::back_permute(y.values(), yi);
        // D <- sign(Xc - Yc);  First <- reduce(D, Segs, first-nonzero)
        auto d = lazy::map(detail::compare_chars<T>{}, xc, yc);
        auto first = reduce(d, segs, monoid(detail::first_nonzero{}, 0));
        // R <- First, or the order of the lengths where the common part is equal
        return map(detail::or_by_length{}, first, lx, ly);
    });
}

SCANVEC_NAMESPACE_END
