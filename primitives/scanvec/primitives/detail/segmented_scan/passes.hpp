// scanvec/primitives/detail/segmented_scan/passes.hpp - the segmented scans'
// passes: head flags read as the model reads them, backward passes by
// reversal, the into-forms.
#pragma once

#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/detail/common/one_device_only.hpp>
#include <scanvec/primitives/detail/split/destination.hpp>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// Right to left, scan position j is element n-1-j, and it heads a segment
/// when the element after it does (flags[n-j]); position 0 always heads one
/// (flags[n] would lie past the end).
template <class FIt> struct backward_heads {
    FIt f;
    index_t n;
    SCANVEC_HD bool operator()(index_t j) const { return j > 0 && bool(f[n - j]); }
};

/// Writes the segmented scan of a into r (a vector, or an output's target).
template <bool Backward, bool Exclusive, class A, class Flags, class R, class Op>
void segmented_into(const A& a, const Flags& flags, R& r, Op op) {
    using T = value_t<A>;
    const std::size_t n = a.size();
    if (n == 0) return;
    T id{};
    if constexpr (Exclusive) id = detail::identity_of<T>(op);
    if constexpr (Backward) {
        const auto heads = thrust::make_transform_iterator(
            thrust::counting_iterator<index_t>(0), backward_heads<decltype(reader(flags))>{reader(flags), index_t(n)});
        scan_by_segment_n<!Exclusive>(reversed(reader(a), n), n, heads, reversed_writer(r), flipped<Op>{op}, id,
                                      current_stream());
    } else {
        scan_by_segment_n<!Exclusive>(reader(a), n, reader(flags), writer(r), op, id, current_stream());
    }
}

template <bool Backward, bool Exclusive, class A, class Flags, class Op>
vector<value_t<A>> segmented_pass(const char* name, const A& a, const Flags& flags, Op op) {
    expect_flags<Flags>();
    return labelled({name, {"A", "Heads"}, "Scan"}, a.size(), [&] {
        expect_same_length(name, a.size(), flags.size());
        vector<value_t<A>> r(a.size(), no_init);
        segmented_into<Backward, Exclusive>(a, flags, r, op);
        return r;
    }, a, flags);
}

template <bool Backward, bool Exclusive, class A, class Flags, class Op, class S>
S segmented_pass(const char* name, const A& a, const Flags& flags, Op op, output<S> out) {
    expect_flags<Flags>();
    return labelled({name, {"A", "Heads"}, "Scan"}, a.size(), [&] {
        expect_same_length(name, a.size(), flags.size());
        check_output<value_t<A>>(name, out, a.size());
        segmented_into<Backward, Exclusive>(a, flags, out.target, op);
        return out.target;
    }, a, flags);
}

/// Head flags as the model reads them: position 0 always starts a segment.
template <class FIt> struct is_segment_head {
    FIt f;
    SCANVEC_HD bool operator()(index_t i) const { return i == 0 || f[i]; }
};
template <class Flags> auto heads_of(const Flags& flags) {
    return view(thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                is_segment_head<decltype(reader(flags))>{reader(flags)}),
                flags.size());
}

struct keep_right {
    template <class T> SCANVEC_HD T operator()(const T&, const T& b) const { return b; }
};

/// Last position of each segment: i == n-1 or flags[i+1].
template <class FIt> struct is_segment_end {
    FIt f;
    index_t n;
    SCANVEC_HD bool operator()(index_t i) const { return i == n - 1 || f[i + 1]; }
};

}  SCANVEC_NAMESPACE_END  // detail
