// scanvec/primitives/detail/pack/dispatch.hpp - the one place pack chooses
// its form: on CUDA a vector that fits one block is packed by one launch; every
// other pack is the generic scan and scatter, lazy flags computed once first.
#pragma once

#include <scanvec/primitives/detail/pack/generic.hpp>
#include <scanvec/primitives/elementwise.hpp>

#if defined(SCANVEC_BACKEND_CUDA)
#include <scanvec/primitives/detail/pack/cuda/one_block.hpp>
#endif

#include <type_traits>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// pack(a, flags) on stream s, for n = a.size() > 0.
template <class A, class Flags> vector<value_t<A>> pack_dispatch(const A& a, const Flags& flags, stream_t s) {
#if defined(SCANVEC_BACKEND_CUDA)
    if (pack_fits_one_block(a.size())) return pack_in_one_block(a, flags, s);  // one launch, one wait, no copy
#endif
    // the scan and the scatter both read the flags: lazy ones are evaluated once, first
    if constexpr (std::is_pointer_v<decltype(reader(flags))>) return pack_by_scan(a, flags, s);
    else return pack_by_scan(a, materialize(lazy::map(is_set{}, flags)), s);
}

} SCANVEC_NAMESPACE_END
