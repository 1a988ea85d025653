// scanvec/primitives/rearrange.hpp - the model's other flat permutes and element operations.
//
//   sv::default_permute(a, idx, d, n)   r has n elements, d where nothing is written; r[idx[i]] = a[i]
//   sv::flag_permute(a, idx, f, n)      r has n value-initialised elements; r[idx[i]] = a[i] where f[i]
//   sv::flag_merge(f, a, b)             r[i] = f[i] ? the next element of b : the next element of a
//                                       (f.size() = a.size() + b.size(), b.size() true flags);
//                                       flag_merge(f, pack(x, not f), pack(x, f)) == x
//   sv::rank(a)                         r[i] = where a[i] goes in a stable ascending sort
//   sv::extract(a, i)                   a[i], read to the host
//   sv::replace(a, i, v)                a copy of a with r[i] = v
//   sv::append(a, b)                    a followed by b
//   sv::reverse(a)                      r[i] = a[n - 1 - i]
//   sv::rotate(a, k)                    r[(i + k) mod n] = a[i]  (k may be negative)
//
// Indices are checked (out of range, written twice) unless SCANVEC_CHECKS=0,
// as for sv::permute: sv::index_error names the first bad position.
#pragma once

#include <scanvec/primitives/detail/rearrange/placements.hpp>
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/detail/common/one_device_only.hpp>
#include <scanvec/primitives/detail/permute/placement.hpp>
#include <scanvec/primitives/detail/sort/dispatch.hpp>

#include <string>

SCANVEC_NAMESPACE_BEGIN

/// r of length n, d where nothing is written; r[idx[i]] = a[i] (idx in range, no repeats).
/// O(n) work, one step; checked (unless SCANVEC_CHECKS=0), it waits for the check's verdict.
template <class A, class Idx>
vector<value_t<A>> default_permute(const A& a, const Idx& idx, const value_t<A>& d, std::size_t n) {
    static_assert(std::is_integral_v<value_t<Idx>>, "sv::default_permute(a, idx, d, n): idx must hold integers");
    return detail::labelled({"default_permute", {"A", "Index"}, "Permuted"}, a.size(), [&] {
        detail::expect_same_length("default_permute", a.size(), idx.size());
        detail::check_indices("default_permute", idx, n, true);
        vector<value_t<A>> r(n, d);
        if (!a.empty()) {
            thrust::scatter(detail::policy(current_stream()), detail::reader(a), detail::reader(a) + a.size(),
                            detail::reader(idx), detail::writer(r));
            backend::check_launch("default_permute");
        }
        return r;
    });
}

/// r of length n (value-initialised); r[idx[i]] = a[i] for the i whose flag is true
/// (their idx in range, no repeats; the others' idx are not read). O(n) work,
/// one step; checked (unless SCANVEC_CHECKS=0), it waits for the check's verdict.
template <class A, class Idx, class Flags>
vector<value_t<A>> flag_permute(const A& a, const Idx& idx, const Flags& f, std::size_t n) {
    static_assert(std::is_integral_v<value_t<Idx>>, "sv::flag_permute(a, idx, f, n): idx must hold integers");
    detail::expect_flags<Flags>();
    return detail::labelled("flag_permute", a.size(), [&] {
        detail::expect_same_length("flag_permute", a.size(), idx.size());
        detail::expect_same_length("flag_permute", a.size(), f.size());
        const auto s = current_stream();
        using Place = detail::placement<decltype(detail::reader(idx)), decltype(detail::reader(f))>;
        [[maybe_unused]] const Place p{detail::reader(idx), detail::reader(f), nullptr, index_t(n)};
#if SCANVEC_CHECKS
        auto fault = detail::find_placement_fault(p, n, true, s,
                                                  [&](auto check) { detail::for_each_flat(a.size(), check, s); });
        if (fault) detail::throw_flat_placement("flag_permute", fault, idx, n);
#endif
        vector<value_t<A>> r(n);
        if (!a.empty()) {
            thrust::scatter_if(detail::policy(s), detail::reader(a), detail::reader(a) + a.size(), detail::reader(idx),
                               detail::map_iterator(detail::is_set{}, f), detail::writer(r));
            backend::check_launch("flag_permute");
        }
        return r;
    });
}

/// Merges a and b by the flags: false takes the next element of a, true the next of b.
/// O(n) work, two steps (a scan, a permute); queued.
template <class Flags, class A, class B> vector<value_t<A>> flag_merge(const Flags& f, const A& a, const B& b) {
    detail::expect_flags<Flags>();
    static_assert(std::is_same_v<value_t<A>, value_t<B>>, "sv::flag_merge(f, a, b): a and b must hold the same type");
    return detail::labelled("flag_merge", f.size(), [&] {
        detail::expect_same_length("flag_merge", f.size(), a.size() + b.size());
        auto down = detail::count_false_before(f);
        const index_t falses = down[f.size()];
        if (std::size_t(falses) != a.size())
            throw length_error("flag_merge: f has " + std::to_string(falses) + " false flags for a of length " +
                               std::to_string(a.size()));
        return detail::merge_by_flags<value_t<A>>(f, down, a, b);
    });
}

/// r[i] = the position of a[i] in a stable ascending sort of a. O(n log n) work
/// (a sort); queued.
template <class A> vector<index_t> rank(const A& a) {
    return detail::labelled("rank", a.size(), [&] {
        auto order = detail::sorted_order(a);
        // r[order[j]] = j
        vector<index_t> r(a.size(), no_init);
        if (!a.empty()) {
            thrust::scatter(detail::policy(current_stream()), thrust::counting_iterator<index_t>(0),
                            thrust::counting_iterator<index_t>(index_t(a.size())), order.begin(), r.begin());
            backend::check_launch("rank");
        }
        return r;
    });
}

/// a[i], read to the host: waits for the device.
template <class A> value_t<A> extract(const A& a, index_t i) {
    if (i < 0 || std::size_t(i) >= a.size())
        throw index_error("extract: index " + std::to_string(i) + " is out of range for length " +
                          std::to_string(a.size()));
    return detail::element_at(a, std::size_t(i));
}

/// A copy of a with element i set to v. O(n) work, one step; queued (no wait).
template <class A> vector<value_t<A>> replace(const A& a, index_t i, const value_t<A>& v) {
    return detail::labelled("replace", a.size(), [&] {
        if (i < 0 || std::size_t(i) >= a.size())
            throw index_error("replace: index " + std::to_string(i) + " is out of range for length " +
                              std::to_string(a.size()));
        vector<value_t<A>> r = materialize(a);
        thrust::fill_n(detail::policy(current_stream()), detail::writer(r) + i, 1, v);
        backend::check_launch("replace");
        return r;
    });
}

/// a followed by b. O(n) work, one step; queued (no wait).
template <class A, class B> vector<value_t<A>> append(const A& a, const B& b) {
    static_assert(std::is_same_v<value_t<A>, value_t<B>>, "sv::append(a, b): a and b must hold the same type");
    return detail::labelled("append", a.size() + b.size(), [&] {
        vector<value_t<A>> r(a.size() + b.size(), no_init);
        auto s = current_stream();
        if (!a.empty()) thrust::copy_n(detail::policy(s), detail::reader(a), a.size(), detail::writer(r));
        if (!b.empty()) thrust::copy_n(detail::policy(s), detail::reader(b), b.size(), detail::writer(r) + a.size());
        backend::check_launch("append");
        return r;
    });
}

/// r[i] = a[n - 1 - i]. O(n) work, one step; queued (no wait).
template <class A> vector<value_t<A>> reverse(const A& a) {
    return detail::labelled("reverse", a.size(), [&] {
        vector<value_t<A>> r(a.size(), no_init);
        if (!a.empty()) {
            thrust::copy_n(detail::policy(current_stream()), detail::reversed(detail::reader(a), a.size()),
                           a.size(), detail::writer(r));
            backend::check_launch("reverse");
        }
        return r;
    });
}

/// r[(i + k) mod n] = a[i]: rotated right by k (left for negative k). O(n) work, one step; queued (no wait).
template <class A> vector<value_t<A>> rotate(const A& a, index_t k) {
    return detail::labelled("rotate", a.size(), [&] {
        const index_t n = index_t(a.size());
        vector<value_t<A>> r(a.size(), no_init);
        if (n) {
            const index_t s = ((k % n) + n) % n;  // r[s..n) = a[0..n-s), r[0..s) = a[n-s..n)
            auto st = current_stream();
            thrust::copy_n(detail::policy(st), detail::reader(a), n - s, detail::writer(r) + s);
            if (s) thrust::copy_n(detail::policy(st), detail::reader(a) + (n - s), s, detail::writer(r));
            backend::check_launch("rotate");
        }
        return r;
    });
}

/// sv::extract given a sv::dist::vector: one error that names sv::dist::extract
/// (detail/common/one_device_only.hpp; written out to take i as sv::dist::extract does).
template <class T, class... R> auto extract(const dist::vector<T>&, index_t, const R&...) {
    static_assert(detail::one_device_guard_called<T>, SCANVEC_DETAIL_ONE_DEVICE_MESSAGE(extract));
    return detail::never_returned<T, T>();
}

SCANVEC_NAMESPACE_END
