// scanvec/primitives/detail/multisplit/cuda/passes.hpp - histogram and multisplit on CUDA, by CUB.
//
//   histogram_into(digits, r)         few bins: cub::DeviceHistogram::HistogramEven;
//                                     many: one atomic increment per digit
//   multisplit_into(a, digits, m, r)  one onesweep pass of cub::DeviceRadixSort on the digits
//                                     (on the keys' own bits for an sv::radix_digit_view)
//   multisplit_records(keys, in, out, bits, op)
//                                     plain records (one array) by 32-bit keys: the same sort,
//                                     the records as its values; the class starts read back
//
// Included by multisplit.hpp for the CUDA backend only; the host's counterpart
// is multisplit/host.hpp, with the same three entry points. Why these paths and
// how fast: docs/design/multisplit.md.
#pragma once

#if defined(SCANVEC_BACKEND_CUDA)

#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/detail/multisplit/policy.hpp>
#include <scanvec/primitives/detail/common/radix_digit_view.hpp>

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <thrust/for_each.h>
#include <thrust/binary_search.h>
#include <thrust/gather.h>
#include <thrust/transform.h>

#include <cstdint>
#include <type_traits>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// r[d[i]] += 1 for every i, by atomic increments (r zeroed); a digit outside
/// 0..m-1 is not counted but added to *outside.
template <class DIt> struct increment_bin {
    DIt d;
    index_t m;
    unsigned long long* counts;
    unsigned long long* outside;
    SCANVEC_HD void operator()(index_t i) const {
        const auto j = static_cast<long long>(d[i]);
        atomic_combine(j >= 0 && j < m ? counts + j : outside, 1ull, plus<unsigned long long>{});
    }
};

/// Every digit counted into r (zeroed) by one atomic increment each: no
/// per-block copies of the bins, so O(m) memory for any m.
template <class D> void count_by_atomics(const D& digits, vector<index_t>& r, unsigned long long* outside) {
    static_assert(sizeof(index_t) == sizeof(unsigned long long));
    auto* counts = reinterpret_cast<unsigned long long*>(r.data());
    thrust::for_each_n(policy(current_stream()), thrust::counting_iterator<index_t>(0), index_t(digits.size()),
                       increment_bin<decltype(reader(digits))>{reader(digits), index_t(r.size()), counts, outside});
    backend::check_launch("histogram (atomic counts)");
}

struct to_u32 {
    template <class D> SCANVEC_HD std::uint32_t operator()(const D& d) const { return std::uint32_t(d); }
};
struct to_index {
    SCANVEC_HD index_t operator()(unsigned long long c) const { return index_t(c); }
};
/// A digit as CUB's bin, or m (no bin) when outside 0..m-1.
struct bin_or_past {
    index_t m;
    template <class D> SCANVEC_HD std::uint32_t operator()(const D& d) const {
        const auto j = static_cast<long long>(d);
        return std::uint32_t(j >= 0 && j < m ? j : m);
    }
};

/// r[b] = the digits equal to b (r zeroed, m = r.size() bins, n > 0). Returns the
/// number of digits outside 0..m-1 with checks on, 0 with checks off.
template <class D> index_t histogram_into(const D& digits, vector<index_t>& r) {
    const index_t n = index_t(digits.size()), m = index_t(r.size());
    auto s = current_stream();
    if (m > histogram_policy::privatized_max_bins) {
        device_value<unsigned long long> tally(s);
        backend::fill_zero(tally.ptr(), sizeof(unsigned long long), s, "histogram (init)");
        count_by_atomics(digits, r, tally.ptr());
        return SCANVEC_CHECKS ? index_t(tally.get()) : 0;
    }
    runtime::scratch counts(std::size_t(m) * sizeof(unsigned long long));
    // out-of-range digits become m, past CUB's bins [0, m): missing from the total
    auto samples = thrust::make_transform_iterator(reader(digits), bin_or_past{m});
    cub_run("histogram (cub::DeviceHistogram::HistogramEven)", [&](void* t, std::size_t& b) {
        return cub::DeviceHistogram::HistogramEven(t, b, samples, counts.as<unsigned long long>(), int(m + 1),
                                                   std::uint32_t(0), std::uint32_t(m), n, s);
    });
    auto c = counts.as<unsigned long long>();
    thrust::transform(policy(s), c, c + m, r.data(), to_index{});
    backend::check_launch("histogram (copy)");
    return SCANVEC_CHECKS ? n - reduce_n(r.data(), r.size(), plus<index_t>{}, index_t(0), s) : 0;
}

/// Records of two fields ordered by field KeyField when keys is that field of
/// a: CUB sorts it with the other field as its values, straight into r's
/// fields (no positions, no gather). False when keys is not that field.
template <std::size_t KeyField, class K, class T>
bool sort_pair_records(const K* keys, int lo, int hi, const vector<T>& a, vector<T>& r, stream_t s) {
    using list = fields_of<T>;
    constexpr auto key = list::template member<KeyField>;
    constexpr auto other = list::template member<1 - KeyField>;
    if constexpr (!std::is_same_v<typename member_traits<key>::field_type, std::remove_cv_t<K>>) {
        return (void)keys, (void)lo, (void)hi, (void)a, (void)r, (void)s, false;
    } else {
        if (a.template field<key>().data() != keys) return false;
        cub_run("multisplit (cub::DeviceRadixSort)", [&](void* t, std::size_t& b) {
            return cub::DeviceRadixSort::SortPairs(t, b, keys, r.template field<key>().data(),
                                                   a.template field<other>().data(), r.template field<other>().data(),
                                                   a.size(), lo, hi, s);
        });
        return true;
    }
}

/// r <- the elements of a, stably ordered by bits lo..hi-1 of keys (CUB's radix sort, one
/// onesweep pass for hi - lo <= 8). keys == reader(a) sorts the keys themselves.
template <class K, class A, class R>
void sort_by_key_bits(const K* keys, int lo, int hi, const A& a, R& r, stream_t s) {
    using T = value_t<A>;
    const std::size_t n = a.size();
    const char* op = "multisplit (cub::DeviceRadixSort)";
    if constexpr (is_described_v<T> && std::is_same_v<A, vector<T>>) {
        if constexpr (fields_of<T>::size == 2) {  // {key, value} records: one SortPairs pass
            if (sort_pair_records<0>(keys, lo, hi, a, r, s) || sort_pair_records<1>(keys, lo, hi, a, r, s)) return;
        }
    }
    if constexpr (std::is_same_v<std::remove_cv_t<K>, T> && std::is_same_v<A, vector<T>>) {
        if (reader(a) == keys) {  // the keys are the elements: sort them alone
            cub_run(op, [&](void* t, std::size_t& b) {
                return cub::DeviceRadixSort::SortKeys(t, b, keys, r.data(), n, lo, hi, s);
            });
            return;
        }
    }
    runtime::scratch keys_out(n * sizeof(K));
    if constexpr (std::is_arithmetic_v<T>) {  // the elements ride along as values
        vector<T> values_copy;
        const T* values = nullptr;
        if constexpr (std::is_pointer_v<decltype(reader(a))>) values = reader(a);
        else { values_copy = materialize(a); values = values_copy.data(); }
        cub_run(op, [&](void* t, std::size_t& b) {
            return cub::DeviceRadixSort::SortPairs(t, b, keys, keys_out.as<std::remove_cv_t<K>>(), values, r.data(),
                                                   n, lo, hi, s);
        });
    } else {  // structs: sort positions, then gather every field once
        vector<index_t> from = materialize(lazy::index(n)), order(n, no_init);
        cub_run(op, [&](void* t, std::size_t& b) {
            return cub::DeviceRadixSort::SortPairs(t, b, keys, keys_out.as<std::remove_cv_t<K>>(), from.data(),
                                                   order.data(), n, lo, hi, s);
        });
        thrust::gather(policy(s), order.begin(), order.end(), reader(a), writer(r));
        backend::check_launch("multisplit (gather)");
    }
}

/// r <- the stable m-way split of a by digits (same length, n > 0, digits in
/// 0..m-1). Radix digits that fill the m classes, over keys in a flat array,
/// are read by CUB from the keys' bits: no digit array. Other digits are
/// stored once as 32-bit keys (onesweep ranks keys of at least 4 bytes).
template <class A, class D, class T> void multisplit_into(const A& a, const D& digits, index_t m, vector<T>& r) {
    auto s = current_stream();
    if constexpr (is_radix_digit_view<D>::value) {
        if constexpr (std::is_pointer_v<decltype(digits.keys())>) {
            if (radix_digits_fill(digits, m)) {
                sort_by_key_bits(digits.keys(), digits.lo(), digits.lo() + digits.bits(), a, r, s);
                return;
            }
        }
    }
    vector<std::uint32_t> keys = map(to_u32{}, digits);
    sort_by_key_bits(static_cast<const std::uint32_t*>(keys.data()), 0, bits_for(m), a, r, s);
}

/// out <- the n = keys.size() records of `in` (one array of any trivially
/// copyable P), stably ordered by their keys, all below 2^bits (bits >= 1):
/// CUB's radix sort with the records as its values. Returns where each class
/// begins, 2^bits + 1 entries (the last: n), found in the sorted keys.
template <class P>
std::vector<index_t> multisplit_records(const vector<std::uint32_t>& keys, const P* in, P* out, int bits, const char* op) {
    const std::size_t n = keys.size();
    const std::uint32_t m = std::uint32_t(1) << bits;
    if (n == 0) return std::vector<index_t>(std::size_t(m) + 1, 0);
    auto s = current_stream();
    runtime::scratch sorted(n * sizeof(std::uint32_t));
    const std::uint32_t* k = sorted.as<std::uint32_t>();
    cub_run(op, [&](void* t, std::size_t& b) {
        return cub::DeviceRadixSort::SortPairs(t, b, keys.data(), sorted.as<std::uint32_t>(), in, out, n, 0, bits, s);
    });
    vector<index_t> starts(std::size_t(m) + 1, no_init);
    thrust::lower_bound(policy(s), k, k + n, thrust::counting_iterator<std::uint32_t>(0),
                        thrust::counting_iterator<std::uint32_t>(m + 1), starts.data());
    backend::check_launch(op);
    return starts.to_host();
}

}  SCANVEC_NAMESPACE_END  // detail

#endif
