// scanvec/primitives/enumerate_pack.hpp - enumerate and pack, written on scan and permute.
//
//   sv::enumerate(flags)   r[i] = number of true flags before i
//   sv::count(flags)       number of true flags
//   sv::pack(a, flags)     the a[i] whose flag is true, in order
//
// Flags are sv::vector<bool> or any integral sequence, read as nonzero = true.
#pragma once

#include <scanvec/primitives/detail/common/one_device_only.hpp>
#include <scanvec/primitives/detail/pack/dispatch.hpp>

#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/scan.hpp>

#include <type_traits>

SCANVEC_NAMESPACE_BEGIN
namespace detail {

template <class Flags> void expect_flags() {
    static_assert(std::is_integral_v<value_t<Flags>>, "flags must be sv::vector<bool> or hold integers");
}

}  // namespace detail

/// r[i] = number of true flags before position i.
/// O(n) work, one step; queued (no wait).
template <class Flags> vector<index_t> enumerate(const Flags& flags) {
    detail::expect_flags<Flags>();
    return detail::labelled({"enumerate", {"Flags"}, "Enumerate"}, flags.size(),
                            [&] { return scan(lazy::map(detail::flag_to_count{}, flags)); }, flags);
}

/// The number of true flags. O(n) work, one step; waits for the device.
template <class Flags> index_t count(const Flags& flags) {
    detail::expect_flags<Flags>();
    return reduce(lazy::map(detail::flag_to_count{}, flags));
}

/// The elements of a whose flag is true, in their order. O(n) work, two steps
/// (a scan, a permute); waits for the device once (the result's length).
/// Flags given lazily (sv::lazy::map(...)) are computed once per element.
template <class A, class Flags> vector<value_t<A>> pack(const A& a, const Flags& flags) {
    detail::expect_flags<Flags>();
    return detail::labelled({"pack", {"A", "Flags"}, "Packed"}, a.size(), [&] {
        detail::expect_same_length("pack", a.size(), flags.size());
        if (a.size() == 0) return vector<value_t<A>>();
        return detail::pack_dispatch(a, flags, current_stream());
    }, a, flags);
}

// A sv::dist::vector given to these: one error that names sv::dist::<name> (detail/common/one_device_only.hpp).
SCANVEC_DETAIL_ONE_DEVICE_ONLY(enumerate, dist::vector<index_t>)
SCANVEC_DETAIL_ONE_DEVICE_ONLY(count, index_t)
SCANVEC_DETAIL_ONE_DEVICE_ONLY(pack, dist::vector<T>)

SCANVEC_NAMESPACE_END
