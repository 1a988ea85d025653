// scanvec/primitives/detail/pack/dispatch.hpp - the one place pack chooses
// its form: on CUDA a vector that fits one block is packed by one launch; every
// other pack is the generic scan and scatter, lazy flags computed once first.
// A pack whose count stays on the device (pack_to) past one block is CUB's
// select on CUDA (nothing to read back, so its one pass serves).
#pragma once

#include <scanvec/primitives/detail/pack/generic.hpp>
#include <scanvec/primitives/elementwise.hpp>

#if defined(SCANVEC_BACKEND_CUDA)
#include <scanvec/primitives/detail/pack/cuda/one_block.hpp>
#include <scanvec/primitives/detail/pack/cuda/select.hpp>
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

/// Queues pack(a, flags) into r (room for n = a.size() > 0 elements) and the
/// count's store at *count in device memory: no wait (a bounded result).
template <class A, class Flags, class R> void pack_to(const A& a, const Flags& flags, R& r, index_t* count, stream_t s) {
#if defined(SCANVEC_BACKEND_CUDA)
    if (pack_fits_one_block(a.size())) return pack_to_in_one_block(a, flags, r, count, s);
    pack_to_by_select(a, flags, r, count, s);  // one pass: the flags read once
#else
    if constexpr (std::is_pointer_v<decltype(reader(flags))>) {
        pack_scatter_to(a, flags, pack_positions(flags, a.size(), s), r, count, s);
    } else {
        const auto set = materialize(lazy::map(is_set{}, flags));
        pack_scatter_to(a, set, pack_positions(set, a.size(), s), r, count, s);
    }
#endif
}

} SCANVEC_NAMESPACE_END
