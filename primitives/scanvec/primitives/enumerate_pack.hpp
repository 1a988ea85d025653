// scanvec/primitives/enumerate_pack.hpp - enumerate and pack, written on scan and permute.
//
//   sv::enumerate(flags)   r[i] = number of true flags before i
//   sv::count(flags)       number of true flags
//   sv::pack(a, flags)     the a[i] whose flag is true, in order
//
// Flags are sv::vector<bool> or any integral sequence, read as nonzero = true.
#pragma once

#include <scanvec/primitives/detail/scan_policy.hpp>

#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/scan.hpp>

#include <thrust/for_each.h>
#include <thrust/scatter.h>

SCANVEC_NAMESPACE_BEGIN
namespace detail {

/// out[index[i]] = in[i] where flag[i] is set; position 0 also stores the
/// count (index[n]) at *count when count is given (pinned memory the host reads after a wait).
template <class In, class F, class Out> struct pack_scatter {
    In in;
    F flag;
    const index_t* index;
    Out out;
    index_t n;
    index_t* count;
    SCANVEC_HD void operator()(index_t i) const {
        if (flag[i]) out[index[i]] = in[i];
        if (i == 0 && count) *count = index[n];
    }
};

struct flag_to_count {
    template <class F> SCANVEC_HD index_t operator()(const F& f) const { return f ? 1 : 0; }
};
struct flag_not_to_count {
    template <class F> SCANVEC_HD index_t operator()(const F& f) const { return f ? 0 : 1; }
};
struct is_set {
    template <class F> SCANVEC_HD bool operator()(const F& f) const { return f ? true : false; }
};

template <class Flags> void expect_flags() {
    static_assert(std::is_integral_v<value_t<Flags>>, "flags must be sv::vector<bool> or hold integers");
}

}  // namespace detail

/// r[i] = number of true flags before position i.
/// O(n) work, one step; queued (no wait).
template <class Flags> vector<index_t> enumerate(const Flags& flags) {
    detail::expect_flags<Flags>();
    return detail::labelled("enumerate", flags.size(),
                            [&] { return scan(lazy::map(detail::flag_to_count{}, flags)); }, flags);
}

/// The number of true flags. O(n) work, one step; waits for the device.
template <class Flags> index_t count(const Flags& flags) {
    detail::expect_flags<Flags>();
    return reduce(lazy::map(detail::flag_to_count{}, flags));
}

/// The elements of a whose flag is true, in their order. O(n) work, two steps
/// (a scan, a permute); waits for the device once (the result's length).
template <class A, class Flags> vector<value_t<A>> pack(const A& a, const Flags& flags) {
    detail::expect_flags<Flags>();
    return detail::labelled("pack", a.size(), [&] {
        detail::expect_same_length("pack", a.size(), flags.size());
        const std::size_t n = a.size();
        const stream_t s = current_stream();
        // Index = enumerate(Flags), with the count at Index[n]
        vector<index_t> index(n + 1, no_init);
        detail::exclusive_scan_with_total_n(detail::reader(lazy::map(detail::flag_to_count{}, flags)), n,
                                            index.data(), plus<index_t>{}, index_t(0), s);
        // permute the flagged elements to Index
        auto scatter = [&](vector<value_t<A>>& r, index_t* count) {
            if (n == 0) return;
            auto in = detail::reader(a);
            auto f = detail::reader(flags);
            thrust::for_each_n(detail::policy(s), thrust::counting_iterator<index_t>(0), index_t(n),
                               detail::pack_scatter<decltype(in), decltype(f), decltype(detail::writer(r))>{
                                   in, f, index.data(), detail::writer(r), index_t(n), count});
            backend::check_launch("pack");
        };
        if (n <= detail::pack_policy::scatter_before_count_max) {
            // one pass moves the elements and stores the count in pinned memory: one wait, no copy
            auto* count = static_cast<index_t*>(backend::result_buffer());
            vector<value_t<A>> r(n, no_init);
            scatter(r, count);
            backend::synchronize(s, "pack (count)");
            r.resize(n ? std::size_t(*count) : 0);
            return r;
        }
        vector<value_t<A>> r(std::size_t(index[n]), no_init);
        scatter(r, nullptr);
        return r;
    }, a, flags);
}

SCANVEC_NAMESPACE_END
