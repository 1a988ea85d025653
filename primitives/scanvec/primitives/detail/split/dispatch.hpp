// scanvec/primitives/detail/split/dispatch.hpp - the one place that chooses how a flat split runs.
//
// sv::split counts its falses on the device, then moves the elements in one
// pass, chosen here:
//   CUDA, up to split_policy::max_tile_elements   a count of falses per tile,
//       then the tile kernel (split/cuda/tiles.hpp); one launch for one tile
//   otherwise                                      a reduce, then the generic path:
//       the destination is a lazy scan of the false flags consumed by the
//       scatter (lazy_scan.hpp)
//   host                                           a count and a placement per block
//       (split/host.hpp)
// Both read the count of falses on the device: the host never waits.
#pragma once

#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/detail/split/destination.hpp>
#include <scanvec/primitives/detail/split/policy.hpp>
#include <scanvec/primitives/lazy_scan.hpp>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <scanvec/primitives/detail/split/cuda/tiles.hpp>
#else
#  include <scanvec/primitives/detail/split/host.hpp>
#endif

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// r[destination] = a[i] for every i, the destination that of the flat split:
/// I-down = enumerate(not(Flags)), a lazy scan fused with the scatter (one pass,
/// the index never stored), and F + i - I-down for the trues (F = *falses).
template <class A, class Flags, class T>
void split_by_scan(const A& a, const Flags& flags, const index_t* falses, vector<T>& r) {
    auto down = lazy::scan(lazy::map(flag_not_to_count{}, flags));
    auto index = lazy::map(split_in_one_segment{falses}, flags, down, lazy::index(a.size()));
    index.run(scatter_to<decltype(reader(a)), decltype(writer(r))>{reader(a), writer(r)}, current_stream());
}

/// The flat split: two steps of the model, a reduce (the falses, kept on the
/// device) and the scan fused with the permute (traced as "permute"). On the
/// host the same two steps by blocks (split/host.hpp).
template <class A, class Flags> vector<value_t<A>> split_flat(const A& a, const Flags& flags) {
#if !defined(SCANVEC_BACKEND_CUDA)
    return split_by_blocks(a, flags);
#else
    using T = value_t<A>;
    const std::size_t n = a.size();
    if (split_by_tiles_fits(n)) {  // two launches (one for one tile), a scan of the counts past 1024 tiles
        // the falses of every tile (F and the falses before each tile)
        const auto counts = labelled({"reduce", {"A"}, "Reduce"}, n, [&] {
            return count_split_tiles<T>(reader(a), reader(flags), n, current_stream());
        }, flags);
        // permute(A, if Flags then F + i - I-down else I-down)
        return labelled({"permute", {"A", "Index"}, "Permuted", runtime::picture::scatter}, n, [&] {
            vector<T> r(n, no_init);
            split_by_tiles<T>(reader(a), reader(flags), n, counts, writer(r), current_stream());
            return r;
        }, a);
    }
    // F <- the number of falses
    const auto falses = reduce_to_device(lazy::map(flag_not_to_count{}, flags));
    // permute(A, if Flags then F + i - I-down else I-down), I-down = enumerate(not(Flags))
    return labelled({"permute", {"A", "Index"}, "Permuted", runtime::picture::scatter}, a.size(), [&] {
        vector<value_t<A>> r(a.size(), no_init);
        split_by_scan(a, flags, falses.ptr(), r);
        return r;
    }, a);
#endif
}

}  SCANVEC_NAMESPACE_END  // detail
