// scanvec/algorithms/spmv.hpp - sparse matrix times dense vector on segment descriptors.
//
// Blelloch's sparse matrix-vector multiply: the matrix is a nested vector, one
// segment per row holding the row's nonzero values and their column numbers
// (compressed rows). Every nonzero fetches the x it multiplies, and each row
// sums its products with a segmented +-reduce:
//
//   procedure spmv(Values, Columns, Rows, X)       Rows: the segment descriptor
//       Xs       <- back-permute(X, Columns)        the x of every nonzero's column
//       Products <- Values * Xs                     elementwise
//       Y        <- +-reduce(Products, Rows)        one sum per row (0 for an empty row)
//
// The descriptor (sv::segments) holds empty rows, which head flags cannot. The
// product is a lazy map, computed inside the segmented reduce: two passes over
// the nonzeros (the gather of x, checked for columns out of range, and the reduce).
// The same text runs on distributed vectors (values, columns and x as
// sv::dist::vector, rows as sv::dist::segments): there the lazy product is
// computed when made, one more pass.
#pragma once

#include <scanvec/algorithms/program_traits.hpp>
#include <scanvec/primitives/nested.hpp>

SCANVEC_NAMESPACE_BEGIN
namespace detail {

/// v * x, in the type of the matrix values.
template <class T> struct multiply_as {
    template <class X> SCANVEC_HD T operator()(const T& v, const X& x) const { return T(v * x); }
};

}  // namespace detail

/// y = A x for the sparse matrix A whose row k holds values[j] in column
/// columns[j] for the j in segment k of rows (a descriptor: sv::segments, or
/// sv::dist::segments with distributed vectors); x has one entry per column.
template <class Values, class Columns, class Rows, class X, std::enable_if_t<!is_sequence_v<Rows>, int> = 0>
auto spmv(const Values& values, const Columns& columns, const Rows& rows, const X& x) {
    static_assert(std::is_integral_v<detail::program_value_t<Columns>>, "sv::spmv: columns must hold integers");
    using T = detail::program_value_t<Values>;
    using lazy = detail::lazy_views_t<Values>;
    return detail::labelled("spmv", values.size(), [&] {
        detail::expect_same_length("spmv (values and columns)", values.size(), columns.size());
        detail::expect_same_length("spmv (values and rows)", values.size(), rows.total());
        // Xs <- back-permute(X, Columns)              (checked: columns out of range throw)
        auto xs = back_permute(x, columns);
        // Products <- Values * Xs                     (lazy: computed inside the reduce)
        auto products = lazy::map(detail::multiply_as<T>{}, values, xs);
        // Y <- +-reduce(Products, Rows)               one sum per row
        return reduce(products, rows, plus<T>{});
    });
}

/// The same with the rows given by their lengths (row k has row_lengths[k] nonzeros).
template <class Values, class Columns, class Lengths, class X,
          std::enable_if_t<is_sequence_v<Lengths>, int> = 0>
vector<value_t<Values>> spmv(const Values& values, const Columns& columns, const Lengths& row_lengths, const X& x) {
    return spmv(values, columns, segments::from_lengths(row_lengths), x);
}

/// The same with the matrix as a nested vector of values and columns of the same shape.
template <class T, class C, class X> vector<T> spmv(const nested<T>& values, const nested<C>& columns, const X& x) {
    detail::expect_same_length("spmv (values and columns)", values.total(), columns.total());
    return spmv(values.values(), columns.values(), values.segments(), x);
}

SCANVEC_NAMESPACE_END
