// scanvec/primitives/split.hpp - the stable split (Blelloch's split) as a primitive.
//
//   sv::split(a, flags)   the elements whose flag is false, then those whose flag
//                         is true, each group in its original order
//
// The same split within segments: sv::segmented_split(a, f, heads)
// (segmented_scan.hpp) and sv::split(x, f) of an sv::nested (nested_permute.hpp); all
// three place elements by one formula (detail/split/destination.hpp). The book's
// program for it, written with enumerate and permute: sv::split_by_enumerate
// (algorithms/split.hpp). How it runs and what it measured: docs/design/split.md.
#pragma once

#include <scanvec/primitives/detail/common/one_device_only.hpp>
#include <scanvec/primitives/detail/split/dispatch.hpp>

SCANVEC_NAMESPACE_BEGIN

/// Stable split: elements whose flag is false first, then those whose flag is
/// true, each group in its original order. Flags: sv::vector<bool> or any
/// integral sequence (nonzero = true), a's length.
/// Model: O(n) work, 2 steps (a reduce counting the falses, then a scan fused
/// with the permute). Does not wait for the device: the count of falses stays
/// on it.
template <class A, class Flags> vector<value_t<A>> split(const A& a, const Flags& flags) {
    detail::expect_flags<Flags>();
    return detail::labelled({"split", {"A", "Flags"}, "Split", runtime::picture::split}, a.size(), [&] {
        detail::expect_same_length("split", a.size(), flags.size());
        return detail::split_flat(a, flags);
    }, a, flags);
}

// A sv::dist::vector given to these: one error that names sv::dist::<name> (detail/common/one_device_only.hpp).
SCANVEC_DETAIL_ONE_DEVICE_ONLY(split, dist::vector<T>)

SCANVEC_NAMESPACE_END
