// bench/sorts.cpp - split, and the sorts built on the primitives.
//
// split partitions keys on one bit, as each pass of a radix sort does; on CUDA
// against cub::DevicePartition::If and thrust::stable_partition, on the host a
// sequential two-pass loop. The sorts (split_radix_sort, the k-bit radix_sort,
// quicksort) against cub::DeviceRadixSort::SortKeys and thrust::sort, or
// std::sort on the host. The algorithms are guarded by __has_include, so the
// benchmark builds before they exist (and SCANVEC_BENCH_SKIP leaves one out);
// each reports its model steps (sv::trace), quicksort its rounds. The family
// quicksort: quicksort on ordered and repetitive int32 keys, normal floats and
// uint64 keys, against CUB's radix sort of the same keys.
#include "harness.hpp"

#include <scanvec/algorithms/split.hpp>
#include <scanvec/primitives/elementwise.hpp>

#include <cmath>

#if __has_include(<scanvec/algorithms/split_radix_sort.hpp>) && !defined(SCANVEC_BENCH_SKIP_SPLIT_RADIX_SORT)
#  include <scanvec/algorithms/split_radix_sort.hpp>
#  define BENCH_HAS_SPLIT_RADIX_SORT 1
#endif
#if __has_include(<scanvec/algorithms/radix_sort.hpp>) && !defined(SCANVEC_BENCH_SKIP_RADIX_SORT)
#  include <scanvec/algorithms/radix_sort.hpp>
#  define BENCH_HAS_RADIX_SORT 1
#endif
#if __has_include(<scanvec/algorithms/quicksort.hpp>) && !defined(SCANVEC_BENCH_SKIP_QUICKSORT)
#  include <scanvec/algorithms/quicksort.hpp>
#  define BENCH_HAS_QUICKSORT 1
#endif

#if defined(SCANVEC_BACKEND_CUDA)
#  include <cub/device/device_partition.cuh>
#  include <cub/device/device_radix_sort.cuh>
#  include <thrust/copy.h>
#  include <thrust/partition.h>
#  include <thrust/sort.h>
#endif

namespace bench {
namespace {

/// The split flag: bit `bit` of the key.
struct bit_set {
    int bit;
    template <class K> SCANVEC_HD bool operator()(const K& k) const { return (k >> bit) & 1; }
};
/// Its negation: what CUB and Thrust select to put the false flags first, as split does.
struct bit_clear {
    int bit;
    template <class K> SCANVEC_HD bool operator()(const K& k) const { return !((k >> bit) & 1); }
};

/// Copies src into dst (an in-place alternative's input, restored before each call; not timed).
template <class K> void restore(sv::vector<K>& dst, const sv::vector<K>& src) {
#if defined(SCANVEC_BACKEND_CUDA)
    cuda_check(cudaMemcpyAsync(dst.data(), src.data(), src.size() * sizeof(K), cudaMemcpyDeviceToDevice, 0),
               "cudaMemcpyAsync");
#else
    std::memcpy(dst.data(), src.data(), src.size() * sizeof(K));
#endif
}

/// Checks a scanvec sort once, with its model steps as the row's note.
template <class K, class Sort> std::string check_sort(Sort sort, const sv::vector<K>& keys,
                                                      const sv::vector<K>& want, std::string& note) {
    sv::trace t;
    auto r = sort(keys);
    note = steps_note(t);
    return same(r, want);
}

/// The reference sort of keys into want, timed as the configuration's
/// alternative: CUB's radix sort (SortKeys), or std::sort on the host.
template <class K> void sort_reference(config& c, const sv::vector<K>& keys, sv::vector<K>& want) {
    const std::size_t n = keys.size();
#if defined(SCANVEC_BACKEND_CUDA)
    cub_call radix([&](void* t, std::size_t& b) {
        return cub::DeviceRadixSort::SortKeys(t, b, keys.data(), want.data(), int(n));
    });
    c.alternative("cub::DeviceRadixSort::SortKeys", "cub radix sort", [&] { radix(); });
#else
    c.alternative("std::sort", "std::sort", [&] { std::sort(want.data(), want.data() + n); },
                  [&] { restore(want, keys); });
#endif
}

#if defined(BENCH_HAS_QUICKSORT)
/// Whether sv::quicksort reports its rounds: sv::quicksort(a, &rounds).
template <class V, class = void> struct has_rounds : std::false_type {};
template <class V>
struct has_rounds<V, std::void_t<decltype(sv::quicksort(std::declval<const V&>(), std::declval<int*>()))>>
    : std::true_type {};

/// The sv::quicksort row of a configuration, its rounds and model steps as the note.
template <class K> void quicksort_call(config& c, const sv::vector<K>& keys, const sv::vector<K>& want) {
    c.scanvec_call("sv::quicksort",
                   [&](std::string& note) {
                       int rounds = -1;
                       auto sort = [&](const auto& k) {
                           if constexpr (has_rounds<sv::vector<K>>::value) return sv::quicksort(k, &rounds);
                           else return sv::quicksort(k);
                       };
                       std::string wrong = check_sort<K>(sort, keys, want, note);
                       if (rounds >= 0) note = "rounds " + std::to_string(rounds) + "; " + note;
                       return wrong;
                   },
                   [&] { auto r = sv::quicksort(keys); });
}

/// Issue 23's harder inputs for quicksort (int32 unless named): ordered,
/// repetitive, and keys of other types.
struct sorted_key {
    SCANVEC_HD int operator()(std::int64_t i) const { return int(i); }
};
struct reversed_key {
    std::int64_t n;
    SCANVEC_HD int operator()(std::int64_t i) const { return int(n - 1 - i); }
};
struct organ_pipe_key {  // rising to the middle, then falling
    std::int64_t n;
    SCANVEC_HD int operator()(std::int64_t i) const { return int(i < n / 2 ? i : n - 1 - i); }
};
struct equal_key {
    SCANVEC_HD int operator()(std::int64_t) const { return 7; }
};
struct few_distinct_key {  // 16 values
    std::uint64_t seed;
    SCANVEC_HD int operator()(std::int64_t i) const { return int(mix64(std::uint64_t(i) + seed) & 15); }
};
struct normal_float {  // standard normal, by Box and Muller from 24 + 24 random bits
    std::uint64_t seed;
    SCANVEC_HD float operator()(std::int64_t i) const {
        const std::uint64_t r = mix64(std::uint64_t(i) * 2 + 1 + seed);
        const double u1 = (double(r >> 40) + 0.5) * (1.0 / 16777216.0);  // in (0, 1): its log is finite
        const double u2 = double(r & 0xffffff) * (1.0 / 16777216.0);
        return float(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
    }
};

/// quicksort of the keys against CUB's radix sort of the same keys (std::sort on the host).
template <class K> void quicksort_of(suite& s, const char* input, const sv::vector<K>& keys) {
    const std::size_t n = keys.size();
    config c(s, "quicksort", input, type_name<K>(), n);
    c.keys(n * sizeof(K));
    sv::vector<K> want(n, sv::no_init);
    sort_reference(c, keys, want);
    quicksort_call(c, keys, want);
    c.finish();
}
#endif

template <class K> void sorts_of(suite& s, const char* family, std::size_t n, bool with_quicksort) {
    const auto keys = random_keys<K>(n);
    sv::vector<K> work(n, sv::no_init);  // the in-place alternative sorts here
    config c(s, family, "random keys", type_name<K>(), n);
    c.keys(n * sizeof(K));
#if defined(SCANVEC_BACKEND_CUDA)
    sv::vector<K> out(n, sv::no_init);
    cub_call radix([&](void* t, std::size_t& b) {
        return cub::DeviceRadixSort::SortKeys(t, b, keys.data(), out.data(), int(n));
    });
    c.alternative("cub::DeviceRadixSort::SortKeys", "cub radix sort", [&] { radix(); });
    c.alternative("thrust::sort", "thrust::sort", [&] { thrust::sort(thrust::device, work.begin(), work.end()); },
                  [&] { restore(work, keys); });
#else
    c.alternative("std::sort", "std::sort", [&] { std::sort(work.data(), work.data() + n); },
                  [&] { restore(work, keys); });
#endif
#if defined(SCANVEC_BACKEND_CUDA)
    const sv::vector<K>& want = out;  // the reference: CUB's sorted keys
#else
    const sv::vector<K>& want = work;  // the reference: std::sort's
#endif
    (void)want;  // (unused when no algorithm is built)
#if defined(BENCH_HAS_SPLIT_RADIX_SORT)
    c.scanvec_call("sv::split_radix_sort",
                   [&](std::string& note) {
                       return check_sort<K>([](const auto& k) { return sv::split_radix_sort(k); }, keys, want, note);
                   },
                   [&] { auto r = sv::split_radix_sort(keys); });
#endif
#if defined(BENCH_HAS_RADIX_SORT)
    c.scanvec_call("sv::radix_sort",
                   [&](std::string& note) {
                       return check_sort<K>([](const auto& k) { return sv::radix_sort(k); }, keys, want, note);
                   },
                   [&] { auto r = sv::radix_sort(keys); });
#endif
#if defined(BENCH_HAS_QUICKSORT)
    if (with_quicksort) quicksort_call(c, keys, want);
#else
    (void)with_quicksort;
#endif
    c.finish();
}

#if defined(BENCH_HAS_RADIX_SORT)
/// Signed floating-point keys spread over many magnitudes.
template <class F> struct random_float {
    std::uint64_t seed;
    SCANVEC_HD F operator()(std::int64_t i) const {
        const std::uint64_t r = mix64(std::uint64_t(i) * 2 + 1 + seed);
        return F(std::int64_t(r)) * F(1e-9) / F(1 + (r & 1023));
    }
};

template <class F> void float_sort_of(suite& s, std::size_t n) {
    const auto keys = tabulate<F>(n, random_float<F>{2});
    config c(s, "sortkeys", "random signed keys", type_name<F>(), n);
    c.keys(n * sizeof(F));
    sv::vector<F> want(n, sv::no_init);
    sort_reference(c, keys, want);
    c.scanvec_call("sv::radix_sort",
                   [&](std::string& note) {
                       return check_sort<F>([](const auto& k) { return sv::radix_sort(k); }, keys, want, note);
                   },
                   [&] { auto r = sv::radix_sort(keys); });
    c.finish();
}

/// {key, value} records of two uint32 fields, sorted by the key.
struct key_value {
    std::uint32_t key;
    std::uint32_t value;
};
SCANVEC_FIELDS(key_value, key, value)

void records_of(suite& s, std::size_t n) {
    sv::vector<key_value> records(n, sv::no_init);
    records.field<&key_value::key>() = random_keys<std::uint32_t>(n);
    records.field<&key_value::value>() = tabulate<std::uint32_t>(n, SCANVEC_FN(std::int64_t i) { return std::uint32_t(i); });
    sv::vector<std::uint32_t> want_keys(n, sv::no_init), want_values(n, sv::no_init);
    config c(s, "sortkeys", "{key, value} records by the key", "uint32+uint32", n);
    c.keys(2 * n * sizeof(std::uint32_t));
#if defined(SCANVEC_BACKEND_CUDA)
    const auto& keys = records.field<&key_value::key>();
    const auto& values = records.field<&key_value::value>();
    cub_call radix([&](void* t, std::size_t& b) {
        return cub::DeviceRadixSort::SortPairs(t, b, keys.data(), want_keys.data(), values.data(), want_values.data(),
                                               int(n));
    });
    c.alternative("cub::DeviceRadixSort::SortPairs", "cub radix sort (pairs)", [&] { radix(); });
#else
    c.alternative("std::stable_sort (host CPU)", "std::stable_sort", [&] {
        std::vector<key_value> h = records.to_host();
        std::stable_sort(h.begin(), h.end(), [](const key_value& a, const key_value& b) { return a.key < b.key; });
        for (std::size_t i = 0; i < n; ++i) want_keys.data()[i] = h[i].key, want_values.data()[i] = h[i].value;
    });
#endif
    c.scanvec_call("sv::radix_sort(records, &key_value::key)",
                   [&](std::string&) {
                       auto r = sv::radix_sort(records, &key_value::key);
                       std::string wrong = same(r.field<&key_value::key>(), want_keys);
                       return wrong.empty() ? same(r.field<&key_value::value>(), want_values) : wrong;
                   },
                   [&] { auto r = sv::radix_sort(records, &key_value::key); });
    c.finish();
}
#endif

}  // namespace

void bench_split(suite& s, std::size_t n) {
    const auto keys = random_keys<int>(n);
    const auto flags = sv::lazy::map(bit_set{0}, keys);  // computed inside split's own passes
    sv::vector<int> ref(n, sv::no_init);
    config c(s, "split", "random keys on bit 0", "int32", n);
    c.bytes(2.0 * n * sizeof(int), n * sizeof(int));
#if defined(SCANVEC_BACKEND_CUDA)
    sv::vector<int> out(n, sv::no_init);
    sv::runtime::scratch selected(sizeof(int));
    cub_call partition([&](void* t, std::size_t& b) {
        return cub::DevicePartition::If(t, b, keys.data(), out.data(), selected.as<int>(), int(n), bit_clear{0});
    });
    c.alternative("cub::DevicePartition::If", "cub partition", [&] { partition(); });
    c.alternative("thrust::stable_partition", "thrust stable_partition",
                  [&] { thrust::stable_partition(thrust::device, ref.begin(), ref.end(), bit_clear{0}); },
                  [&] { restore(ref, keys); });
#else
    c.alternative("sequential loop (count, then place)", "loop", [&] {
        const int* in = keys.data();
        int* o = ref.data();
        std::size_t falses = 0;
        for (std::size_t i = 0; i < n; ++i) falses += !((in[i] >> 0) & 1);
        std::size_t down = 0, up = falses;
        for (std::size_t i = 0; i < n; ++i) ((in[i] & 1) ? o[up++] : o[down++]) = in[i];
    });
#endif
    c.scanvec_call("sv::split", [&](std::string&) { return same(sv::split(keys, flags), ref); },
                   [&] { auto r = sv::split(keys, flags); });
    c.finish();
}

void bench_sort(suite& s, std::size_t n) {
    sorts_of<int>(s, "sort", n, n <= s.opt.quicksort_max);
}

void bench_sort64(suite& s, std::size_t n) { sorts_of<std::uint64_t>(s, "sort64", n, false); }

void bench_sort_keys(suite& s, std::size_t n) {
#if defined(BENCH_HAS_RADIX_SORT)
    float_sort_of<float>(s, n);
    float_sort_of<double>(s, n);
    records_of(s, n);
#else
    (void)s, (void)n;
#endif
}

void bench_quicksort_inputs(suite& s, std::size_t n) {
#if defined(BENCH_HAS_QUICKSORT)
    const auto m = std::int64_t(n);
    quicksort_of(s, "sorted", tabulate<int>(n, sorted_key{}));
    quicksort_of(s, "reversed", tabulate<int>(n, reversed_key{m}));
    quicksort_of(s, "organ pipe", tabulate<int>(n, organ_pipe_key{m}));
    quicksort_of(s, "all equal", tabulate<int>(n, equal_key{}));
    quicksort_of(s, "16 distinct", tabulate<int>(n, few_distinct_key{5}));
    quicksort_of(s, "normal", tabulate<float>(n, normal_float{6}));
    quicksort_of(s, "random keys", random_keys<std::uint64_t>(n));
#else
    (void)s, (void)n;
#endif
}

}  // namespace bench
