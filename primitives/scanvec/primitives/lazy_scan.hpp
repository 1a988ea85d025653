// scanvec/primitives/lazy_scan.hpp - a scan consumed inside the permute that uses it.
//
//   sv::lazy::scan(a, op)         the exclusive scan of a, not yet computed
//   sv::lazy::enumerate(flags)    the same for enumerate
//   sv::lazy::map(f, s, b, ...)   with s a lazy scan: f applied as the scan is written
//   sv::permute(a, idx, sv::unchecked), idx a lazy scan:
//                                 ONE pass: the scan's output is the scatter
//
// An index computed with a scan and used only to permute (Blelloch's split,
// pack, radix sort) need not be stored: the look-back scan hands each
// element's prefix straight to the scatter, saving a write and a read of n
// indices. A lazy scan is sequential, not random access: primitives other than
// permute (and materialize) take it only after to_vector().
#pragma once

#include <scanvec/primitives/enumerate_pack.hpp>

#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdint>
#include <limits>

SCANVEC_NAMESPACE_BEGIN
namespace detail {

/// Value at i of a plain lazy scan: the prefix itself.
struct prefix_only {
    template <class S> SCANVEC_HD S operator()(const S& s, index_t) const { return s; }
};

/// Hands sink(i, post(prefix_i, i)) for each scan output (kernel-visible, so
/// not nested); the prefix is widened to Wide first (see narrow_counts).
template <class Post, class Sink, class Wide> struct post_then {
    Post post;
    Sink sink;
    template <class S> SCANVEC_HD void operator()(index_t i, const S& prefix) const { sink(i, post(Wide(prefix), i)); }
};

/// A scan of 0/1 counts made from flags (enumerate, split) sums to at most n,
/// so below 2^31 elements it runs in 32 bits: half the carry through CUB's
/// look-back and CUB's tuned policy for int (measured: docs/design/split.md).
template <class It> struct counts_flags : std::false_type {};
template <class F, class X, class R, class V>
struct counts_flags<thrust::transform_iterator<F, X, R, V>>
    : std::bool_constant<std::is_same_v<F, flag_to_count> || std::is_same_v<F, flag_not_to_count>> {};

struct to_int32 {
    SCANVEC_HD std::int32_t operator()(index_t c) const { return static_cast<std::int32_t>(c); }
};

}  // namespace detail

/// An exclusive scan of `in` (length n) whose value at i is post(prefix_i, i).
template <class In, class Op, class T, class Post> class scan_view {
public:
    using value_type = std::decay_t<std::invoke_result_t<Post, T, index_t>>;
    scan_view(In in, std::size_t n, Op op, T init, Post post) : in_(in), n_(n), op_(op), init_(init), post_(post) {}
    std::size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }

    /// Runs the scan, handing (i, prefix_i) to sink(i, prefix) for every i: one pass.
    template <class Sink> void run(Sink sink, stream_t s = nullptr) const {
        auto out = thrust::make_tabulate_output_iterator(detail::post_then<Post, Sink, T>{post_, sink});
        if constexpr (detail::counts_flags<In>::value && std::is_same_v<Op, plus<index_t>>) {
            if (n_ <= std::size_t(std::numeric_limits<std::int32_t>::max()) && init_ == 0) {
                auto narrow = thrust::make_transform_iterator(in_, detail::to_int32{});
                detail::exclusive_scan_n(narrow, n_, out, plus<std::int32_t>{}, std::int32_t(0), s);
                return;
            }
        }
        detail::exclusive_scan_n(in_, n_, out, op_, init_, s);
    }
    /// Returns a copy with post replaced by f(post(prefix, i), i)-style composition.
    template <class Post2> auto with(Post2 p) const { return scan_view<In, Op, T, Post2>(in_, n_, op_, init_, p); }
    const Post& post() const { return post_; }

    vector<value_type> to_vector() const;
    std::vector<value_type> to_host() const { return to_vector().to_host(); }

private:
    In in_;
    std::size_t n_;
    Op op_;
    T init_;
    Post post_;
};

template <class X> struct is_scan_view : std::false_type {};
template <class In, class Op, class T, class Post> struct is_scan_view<scan_view<In, Op, T, Post>> : std::true_type {};
template <class X> inline constexpr bool is_scan_view_v = is_scan_view<std::decay_t<X>>::value;

namespace detail {

/// Writes out[i] = v (materialising a lazy scan).
template <class Out> struct store_at {
    Out out;
    template <class V> SCANVEC_HD void operator()(index_t i, const V& v) const { out[i] = v; }
};

/// Writes out[idx] = a[i] (a permute whose index is a lazy scan).
template <class In, class Out> struct scatter_to {
    In a;
    Out out;
    template <class V> SCANVEC_HD void operator()(index_t i, const V& idx) const { out[idx] = a[i]; }
};

/// f(x0(i), ..., xk(i)) where the argument at ScanPos is the scan's value and
/// the others are read from random-access iterators.
template <class F, class Post, class Others, std::size_t ScanPos, std::size_t N> struct map_over_scan {
    F f;
    Post post;
    Others others;  // thrust::tuple of iterators; the slot at ScanPos is unused
    template <class S> SCANVEC_HD auto operator()(const S& s, index_t i) const {
        return call(s, i, std::make_index_sequence<N>{});
    }
    template <class S, std::size_t... K> SCANVEC_HD auto call(const S& s, index_t i, std::index_sequence<K...>) const {
        return f(pick<K>(s, i)...);
    }
    template <std::size_t K, class S> SCANVEC_HD auto pick(const S& s, index_t i) const {
        if constexpr (K == ScanPos) {
            return post(s, i);
        } else {
            using It = std::decay_t<decltype(thrust::get<K>(others))>;
            return typename std::iterator_traits<It>::value_type(thrust::get<K>(others)[i]);
        }
    }
};

template <class X> auto reader_or_placeholder(const X& x) {
    if constexpr (is_scan_view_v<X>) return thrust::counting_iterator<index_t>(0);
    else return reader(x);
}

template <class... X> constexpr std::size_t scan_position() {
    constexpr bool is_scan[] = {is_scan_view_v<X>...};
    for (std::size_t k = 0; k < sizeof...(X); ++k)
        if (is_scan[k]) return k;
    return sizeof...(X);
}

template <std::size_t K, class First, class... Rest> const auto& nth(const First& first, const Rest&... rest) {
    if constexpr (K == 0) return first;
    else return nth<K - 1>(rest...);
}

}  // namespace detail

namespace lazy {

/// The exclusive scan of a, computed when a permute (or materialize) consumes it.
template <class A, class Op = plus<value_t<A>>> auto scan(const A& a, Op op = {}) {
    using T = value_t<A>;
    return scan_view<decltype(detail::reader(a)), Op, T, detail::prefix_only>(detail::reader(a), a.size(), op,
                                                                            detail::identity_of<T>(op), {});
}

/// enumerate(flags), computed when consumed.
template <class Flags> auto enumerate(const Flags& flags) {
    return lazy::scan(lazy::map(detail::flag_to_count{}, flags));
}

/// f over a lazy scan and random-access sequences: applied as the scan is written.
template <class F, class A, class... B, std::enable_if_t<(is_scan_view_v<A> || ... || is_scan_view_v<B>), int> = 0>
auto map(F f, const A& a, const B&... b) {
    constexpr std::size_t pos = detail::scan_position<A, B...>();
    static_assert(((is_scan_view_v<A> ? 1 : 0) + ... + (is_scan_view_v<B> ? 1 : 0)) == 1,
                  "sv::lazy::map: at most one argument may be a lazy scan");
    detail::common_length("map", a, b...);
    const auto& s = detail::nth<pos>(a, b...);
    auto others = thrust::make_tuple(detail::reader_or_placeholder(a), detail::reader_or_placeholder(b)...);
    using Post = std::decay_t<decltype(s.post())>;
    return s.with(detail::map_over_scan<F, Post, decltype(others), pos, 1 + sizeof...(B)>{f, s.post(), others});
}

}  // namespace lazy

template <class In, class Op, class T, class Post>
vector<typename scan_view<In, Op, T, Post>::value_type> scan_view<In, Op, T, Post>::to_vector() const {
    return detail::labelled({"scan", {"A"}, "Scan"}, n_, [&] {
        vector<value_type> r(n_, no_init);
        run(detail::store_at<decltype(detail::writer(r))>{detail::writer(r)});
        return r;
    });
}

/// r[idx[i]] = a[i] with idx a lazy scan: the scan and the scatter in one pass.
/// The caller guarantees idx is a permutation (hence sv::unchecked).
/// Model: O(n) work, 1 step. Does not wait for the device.
template <class A, class In, class Op, class T, class Post>
vector<value_t<A>> permute(const A& a, const scan_view<In, Op, T, Post>& idx, unchecked_t) {
    return detail::labelled({"permute", {"A", "Index"}, "Permuted", runtime::picture::scatter}, a.size(), [&] {
        detail::expect_same_length("permute", a.size(), idx.size());
        vector<value_t<A>> r(a.size(), no_init);
        using Sink = detail::scatter_to<decltype(detail::reader(a)), decltype(detail::writer(r))>;
        idx.run(Sink{detail::reader(a), detail::writer(r)}, current_stream());
        return r;
    }, a);
}

SCANVEC_NAMESPACE_END
