// scanvec/primitives/detail/scan/passes.hpp - the scans' passes: forward and
// backward, inclusive and exclusive, into a new vector or the caller's.
#pragma once

#include <scanvec/primitives/detail/common/one_device_only.hpp>
#include <scanvec/primitives/detail/scan/dispatch.hpp>
#include <scanvec/primitives/operators.hpp>
#include <scanvec/runtime/interop.hpp>
#include <scanvec/runtime/sequence.hpp>

#include <thrust/iterator/reverse_iterator.h>

SCANVEC_NAMESPACE_BEGIN namespace detail {

template <class It> auto reversed(It first, std::size_t n) { return thrust::make_reverse_iterator(first + n); }

/// An iterator writing element n-1-i at position i (into a vector or output of length n).
template <class T> auto reversed_writer(vector<T>& v) { return reversed(writer(v), v.size()); }
template <class T> auto reversed_writer(const view<T*>& v) { return reversed(writer(v), v.size()); }
template <class T> auto reversed_writer(vector<T, true>& v) {
    return thrust::make_transform_output_iterator(reversed(v.begin(), v.size()),
                                                  typename soa_codec<fields_of<T>>::encode{});
}
template <class T, class... F> auto reversed_writer(const fields_view<T, F...>& v) {
    return thrust::make_transform_output_iterator(reversed(v.zip(), v.size()),
                                                  typename soa_codec<fields_of<T>>::encode{});
}

/// Writes the scan of a into r (a vector, or an output's target): inclusive or
/// exclusive, left to right or right to left (reversed iterators and the
/// flipped operator keep a[i] op a[i+1] order). An exclusive scan starts from
/// `start` (the identity, or a carry that comes before a[0], after a[n-1]
/// going backward: a value, or on CUDA a cub::FutureValue read from device
/// memory when the scan runs); inclusive ones ignore it.
template <bool Inclusive, bool Backward, class A, class R, class Op, class Start>
void scan_into(const A& a, R& r, Op op, const Start& start) {
    auto s = current_stream();
    const std::size_t n = a.size();
    auto run = [&](auto in, auto out, auto o) {
        if constexpr (Inclusive) inclusive_scan_n(in, n, out, o, s);
        else exclusive_scan_n(in, n, out, o, start, s);
    };
    if constexpr (Backward) run(reversed(reader(a), n), reversed_writer(r), flipped<Op>{op});
    else run(reader(a), writer(r), op);
}

template <bool Inclusive, bool Backward, class A, class Op, class Start>
vector<value_t<A>> scan_pass(const char* name, const A& a, Op op, const Start& start) {
    return labelled({name, {"A"}, "Scan"}, a.size(), [&] {
        vector<value_t<A>> r(a.size(), no_init);
        scan_into<Inclusive, Backward>(a, r, op, start);
        return r;
    }, a);
}
template <bool Inclusive, bool Backward, class A, class Op> vector<value_t<A>> scan_pass(const char* name, const A& a, Op op) {
    return scan_pass<Inclusive, Backward>(name, a, op, value_t<A>(identity_of<value_t<A>>(op)));
}

/// The same pass written into the caller's memory.
template <bool Inclusive, bool Backward, class A, class Op, class S>
S scan_pass(const char* name, const A& a, Op op, output<S> out) {
    check_output<value_t<A>>(name, out, a.size());
    return labelled({name, {"A"}, "Scan"}, a.size(), [&] {
        scan_into<Inclusive, Backward>(a, out.target, op, identity_of<value_t<A>>(op));
        return out.target;
    }, a);
}

}  SCANVEC_NAMESPACE_END  // detail
