// Fault injection: every allocation request that a call makes is made to fail
// in turn (sv::runtime::memory().fail_after(k), the backend's out-of-memory
// path). For each k from 0 to the number of requests the call makes (counted
// first from the cache's stats: cache_hits + backend_allocations), the call
// must
//   - throw sv::out_of_memory, or succeed with the right result when k is past
//     its last request;
//   - leave its inputs unchanged (compared through to_host());
//   - give every byte back to the cache (bytes_in_use as before the inputs
//     were made, once they are gone);
//   - leave the runtime and the very same inputs usable: the call repeated on
//     them gives the right result (a descriptor whose derived flags failed
//     half-way must derive them again).
// Every request counts, cache hits included (memory_cache::fail_after), so the
// failure points do not depend on what the cache holds. Inputs are made afresh
// for every k, so the requests of lazily derived state (a descriptor's head
// flags) are among those that fail.
//
// On the host every call runs on at least two OpenMP threads (four asked), so
// the parallel paths (the sorts' merges of their threads' tiles among them)
// run even on a machine of one or two cores.
//
// Run verbosely with SCANVEC_FAULTS_VERBOSE=1 (prints each call's request count).
#include "support.hpp"
#include <scanvec/scanvec.hpp>  // every program of the library

#if !SCANVEC_IS_CUDA
#  include <omp.h>
#endif

#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <tuple>

namespace tf {
struct rec {
    int key;
    float weight;
    std::int64_t tag;
    bool operator==(const rec& o) const { return key == o.key && weight == o.weight && tag == o.tag; }
};
SCANVEC_FIELDS(rec, key, weight, tag)
/// A commutative monoid on the struct: combining writes of it sort by target.
struct rec_sum {
    SCANVEC_HD rec operator()(const rec& a, const rec& b) const {
        return {a.key + b.key, a.weight + b.weight, a.tag + b.tag};
    }
};
struct key_mod {
    int m;
    SCANVEC_HD int operator()(int x) const { return ((x % m) + m) % m; }
};
struct is_odd {
    SCANVEC_HD bool operator()(int x) const { return (x & 1) != 0; }
};
}  // namespace tf
using tf::rec;
using index_t = sv::index_t;

namespace {

sv::runtime::memory_cache& mem() { return sv::runtime::memory(); }

std::size_t requests_so_far() {
    const auto s = mem().stats();
    return s.cache_hits + s.backend_allocations;
}

bool verbose() {
    const char* v = std::getenv("SCANVEC_FAULTS_VERBOSE");
    return v && std::string(v) == "1";
}

/// Four OpenMP threads for the scope (host backend), whatever the machine has.
struct four_threads {
    int threads = 0;
    four_threads() {
#if !SCANVEC_IS_CUDA
        threads = omp_get_max_threads();
        omp_set_num_threads(4);
#endif
    }
    ~four_threads() {
#if !SCANVEC_IS_CUDA
        omp_set_num_threads(threads);
#endif
    }
};

/// Disarms the hook however the scope is left.
struct disarm {
    ~disarm() { mem().stop_failing(); }
};

struct coverage {
    std::size_t calls = 0, faults = 0;
};
coverage& totals() {
    static coverage c;
    return c;
}

/// The fault loop. make() builds fresh inputs (a tuple or struct);
/// snapshot(in) copies them to the host; call(in) runs the call under test;
/// check(in, r) checks its result (doctest assertions).
template <class Make, class Snapshot, class Call, class Check>
void inject_every_fault(const char* name, Make make, Snapshot snapshot, Call call, Check check) {
    CAPTURE(name);
    four_threads threads;
    {  // a first call makes what the thread keeps for its life (the checks' blocks on CUDA)
        auto in = make();
        auto r = call(in);
        check(in, r);
    }
    // count the requests of one full call on fresh inputs (lazy state included)
    std::size_t count = 0;
    {
        const std::size_t in_use = mem().stats().bytes_in_use;
        {
            auto in = make();
            const std::size_t before = requests_so_far();
            {
                auto r = call(in);
                count = requests_so_far() - before;
                check(in, r);
            }
        }
        REQUIRE(mem().stats().bytes_in_use == in_use);  // the call leaks nothing when nothing fails
    }
    REQUIRE(count > 0);
    if (verbose()) std::cerr << "faults: " << name << ": " << count << " allocation requests\n";
    std::size_t thrown = 0;
    for (std::size_t k = 0; k <= count; ++k) {
        CAPTURE(k);
        const std::size_t in_use = mem().stats().bytes_in_use;
        {
            auto in = make();
            const auto host_before = snapshot(in);
            bool threw = false;
            {
                disarm guard;
                mem().fail_after(k);
                try {
                    auto r = call(in);
                    mem().stop_failing();
                    check(in, r);
                } catch (const sv::out_of_memory& e) {
                    mem().stop_failing();
                    threw = true;
                    CHECK(e.requested_bytes > 0);
                }
            }
            if (k < count) CHECK_MESSAGE(threw, "request " << k << " of " << count << " failed and the call succeeded");
            else CHECK_MESSAGE(!threw, "the call made more than " << count << " requests this time");
            thrown += threw;
            CHECK(snapshot(in) == host_before);  // the inputs are unchanged
            if (threw) {                          // the runtime and the same inputs still work
                auto r = call(in);
                check(in, r);
            }
        }
        CHECK(mem().stats().bytes_in_use == in_use);  // nothing leaked
    }
    totals().calls++;
    totals().faults += thrown;
    // a fresh call afterwards
    {
        auto in = make();
        auto r = call(in);
        check(in, r);
    }
}

template <class T> std::vector<T> sorted(std::vector<T> v) {
    std::sort(v.begin(), v.end());
    return v;
}

std::vector<int> keys(std::size_t n, std::uint64_t seed, int lo = -1000000, int hi = 1000000) {
    return test::random_values<int>(n, seed, lo, hi);
}

std::vector<rec> records(std::size_t n, std::uint64_t seed) {
    auto k = keys(n, seed, -500, 500);
    std::vector<rec> r(n);
    for (std::size_t i = 0; i < n; ++i) r[i] = {k[i], float(i % 97), std::int64_t(i)};
    return r;
}

/// Random targets in [0, n) with many repeats.
std::vector<int> colliding(std::size_t m, std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    const std::size_t hot = std::max<std::size_t>(1, std::min(n, m / 3 + 1));
    std::vector<int> idx(m);
    for (auto& j : idx) j = int(rng() % hot) * int(n / hot);
    return idx;
}

/// Segment lengths summing to n, with empty segments.
std::vector<index_t> lengths(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<index_t> len;
    std::size_t left = n;
    while (left) {
        const std::size_t l = rng() % 4 == 0 ? 0 : std::min<std::size_t>(left, 1 + rng() % 300);
        len.push_back(index_t(l));
        left -= l;
    }
    len.push_back(0);
    return len;
}

template <class T> std::vector<std::vector<T>> nest_of(const std::vector<T>& flat, const std::vector<index_t>& len) {
    std::vector<std::vector<T>> r;
    std::size_t at = 0;
    for (auto l : len) {
        r.emplace_back(flat.begin() + at, flat.begin() + at + l);
        at += std::size_t(l);
    }
    return r;
}

template <class T> std::vector<T> stable_by_digit(const std::vector<T>& a, const std::vector<int>& d, int m) {
    std::vector<T> r;
    for (int b = 0; b < m; ++b)
        for (std::size_t i = 0; i < a.size(); ++i)
            if (d[i] == b) r.push_back(a[i]);
    return r;
}

const std::size_t n_sort = test::small_sizes_only() ? 1500 : 3000;

}  // namespace

TEST_CASE("out of memory inside the sorts: split_radix_sort and radix_sort and quicksort") {
    const auto h = keys(n_sort, 11);
    const auto want = sorted(h);
    auto make = [&] { return sv::vector<int>(h); };
    auto snap = [](const sv::vector<int>& a) { return a.to_host(); };
    auto check = [&](const sv::vector<int>&, const sv::vector<int>& r) { REQUIRE(r.to_host() == want); };
    inject_every_fault("split_radix_sort<int>", make, snap, [](const sv::vector<int>& a) { return sv::split_radix_sort(a); }, check);
    inject_every_fault("radix_sort<int> k = 8", make, snap, [](const sv::vector<int>& a) { return sv::radix_sort(a); }, check);
    inject_every_fault("radix_sort<int> k = 11", make, snap, [](const sv::vector<int>& a) { return sv::radix_sort(a, 11); }, check);
    inject_every_fault("quicksort<int>", make, snap, [](const sv::vector<int>& a) { return sv::quicksort(a); }, check);
    // few distinct keys: quicksort's equal-key path
    const auto few = keys(n_sort, 12, 0, 5);
    const auto few_sorted = sorted(few);
    inject_every_fault("quicksort<int> few distinct keys", [&] { return sv::vector<int>(few); }, snap,
                       [](const sv::vector<int>& a) { return sv::quicksort(a); },
                       [&](const sv::vector<int>&, const sv::vector<int>& r) { REQUIRE(r.to_host() == few_sorted); });
}

TEST_CASE("out of memory inside the sorts of described structs by a key field") {
    const auto h = records(n_sort / 2, 13);
    auto want = h;
    std::stable_sort(want.begin(), want.end(), [](const rec& a, const rec& b) { return a.key < b.key; });
    auto make = [&] { return sv::vector<rec>(h); };
    auto snap = [](const sv::vector<rec>& a) { return a.to_host(); };
    auto check = [&](const sv::vector<rec>&, const sv::vector<rec>& r) { REQUIRE(r.to_host() == want); };
    inject_every_fault("split_radix_sort(records by key)", make, snap,
                       [](const sv::vector<rec>& a) { return sv::split_radix_sort(a, &rec::key); }, check);
    inject_every_fault("radix_sort(records by key)", make, snap,
                       [](const sv::vector<rec>& a) { return sv::radix_sort(a, &rec::key, 8); }, check);
}

TEST_CASE("out of memory inside nested operations: scan and reduce and rank of nested vectors") {
    const std::size_t n = 4000;
    const auto h = keys(n, 21, -1000, 1000);
    const auto len = lengths(n, 22);
    const auto hx = nest_of(h, len);
    auto make = [&] { return sv::nested<int>(sv::vector<int>(h), sv::segments::from_lengths(sv::vector<index_t>(len))); };
    auto snap = [](const sv::nested<int>& x) { return std::make_pair(x.to_host(), x.lengths().to_host()); };
    {
        std::vector<std::vector<int>> want = hx;
        for (auto& s : want) {
            int acc = 0;
            for (auto& v : s) { const int x = v; v = acc; acc += x; }
        }
        inject_every_fault("scan(nested<int>)", make, snap, [](const sv::nested<int>& x) { return sv::scan(x); },
                           [&](const sv::nested<int>&, const sv::nested<int>& r) { REQUIRE(r.to_host() == want); });
    }
    {
        std::vector<int> want;
        for (auto& s : hx) {
            int acc = std::numeric_limits<int>::lowest();
            for (int v : s) acc = std::max(acc, v);
            want.push_back(acc);
        }
        inject_every_fault("reduce(nested<int>, max)", make, snap,
                           [](const sv::nested<int>& x) { return sv::reduce(x, sv::max<int>{}); },
                           [&](const sv::nested<int>&, const sv::vector<int>& r) { REQUIRE(r.to_host() == want); });
    }
    {
        std::vector<std::vector<index_t>> want;
        for (auto& s : hx) {
            std::vector<index_t> order(s.size()), rank(s.size());
            for (std::size_t i = 0; i < s.size(); ++i) order[i] = index_t(i);
            std::stable_sort(order.begin(), order.end(), [&](index_t a, index_t b) { return s[a] < s[b]; });
            for (std::size_t j = 0; j < s.size(); ++j) rank[order[j]] = index_t(j);
            want.push_back(rank);
        }
        inject_every_fault("rank(nested<int>)", make, snap, [](const sv::nested<int>& x) { return sv::rank(x); },
                           [&](const sv::nested<int>&, const sv::nested<index_t>& r) { REQUIRE(r.to_host() == want); });
    }
    {  // one segment: rank's flat path
        std::vector<index_t> order(n), rank(n);
        for (std::size_t i = 0; i < n; ++i) order[i] = index_t(i);
        std::stable_sort(order.begin(), order.end(), [&](index_t a, index_t b) { return h[a] < h[b]; });
        for (std::size_t j = 0; j < n; ++j) rank[order[j]] = index_t(j);
        inject_every_fault("rank(nested<int>) of one segment",
                           [&] { return sv::nested<int>(sv::vector<int>(h), sv::segments::single(n)); }, snap,
                           [](const sv::nested<int>& x) { return sv::rank(x); },
                           [&](const sv::nested<int>&, const sv::nested<index_t>& r) {
                               REQUIRE(r.to_host() == std::vector<std::vector<index_t>>{rank});
                           });
    }
}

TEST_CASE("out of memory inside write and combining_write of described structs") {
    const std::size_t n = 3000, m = 5000;
    const auto dst = records(n, 31);
    const auto idx = colliding(m, n, 32);
    auto vals = records(m, 33);
    for (std::size_t k = 0; k < m; ++k) vals[k].tag = std::int64_t(k) + 1000000;  // names its writer
    struct in_t {
        sv::vector<rec> dst;
        sv::vector<int> idx;
        sv::vector<rec> vals;
    };
    auto make = [&] { return in_t{sv::vector<rec>(dst), sv::vector<int>(idx), sv::vector<rec>(vals)}; };
    auto snap = [](const in_t& in) { return std::make_tuple(in.dst.to_host(), in.idx.to_host(), in.vals.to_host()); };
    std::map<int, std::set<std::int64_t>> sent;
    for (std::size_t k = 0; k < m; ++k) sent[idx[k]].insert(vals[k].tag);
    inject_every_fault("write(records)", make, snap, [](const in_t& in) { return sv::write(in.dst, in.idx, in.vals); },
                       [&](const in_t&, const sv::vector<rec>& r) {
                           auto got = r.to_host();
                           REQUIRE(got.size() == n);
                           for (std::size_t j = 0; j < n; ++j) {
                               auto it = sent.find(int(j));
                               if (it == sent.end()) REQUIRE(got[j] == dst[j]);
                               else {
                                   REQUIRE(it->second.count(got[j].tag) == 1);
                                   const rec& from = vals[std::size_t(got[j].tag - 1000000)];
                                   REQUIRE(got[j] == from);  // written whole
                               }
                           }
                       });
    auto want = dst;
    for (std::size_t k = 0; k < m; ++k) want[idx[k]] = tf::rec_sum{}(want[idx[k]], vals[k]);
    {
        inject_every_fault("combining_write(records, commutative monoid)", make, snap,
                           [](const in_t& in) {
                               return sv::combining_write(in.dst, in.idx, in.vals,
                                                          sv::commutative_monoid(tf::rec_sum{}, rec{0, 0.0f, 0}));
                           },
                           [&](const in_t&, const sv::vector<rec>& r) { REQUIRE(r.to_host() == want); });
    }
    // a flat combining write (atomics), for comparison
    const auto hv = keys(m, 34, -100, 100);
    auto flat_want = keys(n, 35, -100, 100);
    const auto flat_dst = flat_want;
    for (std::size_t k = 0; k < m; ++k) flat_want[idx[k]] += hv[k];
    inject_every_fault("combining_write(int, plus)",
                       [&] { return std::make_tuple(sv::vector<int>(flat_dst), sv::vector<int>(idx), sv::vector<int>(hv)); },
                       [](const auto& in) {
                           return std::make_tuple(std::get<0>(in).to_host(), std::get<1>(in).to_host(),
                                                  std::get<2>(in).to_host());
                       },
                       [](const auto& in) {
                           return sv::combining_write(std::get<0>(in), std::get<1>(in), std::get<2>(in), sv::plus<int>{});
                       },
                       [&](const auto&, const sv::vector<int>& r) { REQUIRE(r.to_host() == flat_want); });
}

TEST_CASE("out of memory inside multisplit and histogram") {
    const std::size_t n = test::small_sizes_only() ? 20000 : 70000;  // several host tiles
    const auto h = keys(n, 41);
    for (int m : {3, 256, (1 << 17) + 3}) {
        CAPTURE(m);
        std::vector<int> d(n);
        for (std::size_t i = 0; i < n; ++i) d[i] = tf::key_mod{m}(h[i]);
        const auto want = stable_by_digit(h, d, m);
        std::vector<index_t> counts(std::size_t(m), 0);
        for (int x : d) counts[std::size_t(x)]++;
        auto make = [&] { return std::make_pair(sv::vector<int>(h), sv::vector<int>(d)); };
        auto snap = [](const std::pair<sv::vector<int>, sv::vector<int>>& in) {
            return std::make_pair(in.first.to_host(), in.second.to_host());
        };
        using in_t = std::pair<sv::vector<int>, sv::vector<int>>;
        const std::string tag = std::to_string(m);
        inject_every_fault(("multisplit<int> m = " + tag).c_str(), make, snap,
                           [m](const in_t& in) { return sv::multisplit(in.first, in.second, m); },
                           [&](const in_t&, const sv::vector<int>& r) { REQUIRE(r.to_host() == want); });
        inject_every_fault(("multisplit<int> lazy digits m = " + tag).c_str(), make, snap,
                           [m](const in_t& in) { return sv::multisplit(in.first, sv::lazy::map(tf::key_mod{m}, in.first), m); },
                           [&](const in_t&, const sv::vector<int>& r) { REQUIRE(r.to_host() == want); });
        inject_every_fault(("histogram m = " + tag).c_str(), make, snap,
                           [m](const in_t& in) { return sv::histogram(in.second, m); },
                           [&](const in_t&, const sv::vector<index_t>& r) { REQUIRE(r.to_host() == counts); });
    }
    // structs move whole
    const auto hr = records(n, 42);
    std::vector<int> d(n);
    for (std::size_t i = 0; i < n; ++i) d[i] = tf::key_mod{7}(hr[i].key);
    const auto want = stable_by_digit(hr, d, 7);
    using in_t = std::pair<sv::vector<rec>, sv::vector<int>>;
    inject_every_fault("multisplit<rec> m = 7", [&] { return in_t(sv::vector<rec>(hr), sv::vector<int>(d)); },
                       [](const in_t& in) { return std::make_pair(in.first.to_host(), in.second.to_host()); },
                       [](const in_t& in) { return sv::multisplit(in.first, in.second, 7); },
                       [&](const in_t&, const sv::vector<rec>& r) { REQUIRE(r.to_host() == want); });
}

TEST_CASE("out of memory inside the flat primitives: split and pack and permute and segmented ones") {
    const std::size_t n = test::small_sizes_only() ? 20000 : 70000;  // several host tiles
    const auto h = keys(n, 51, -1000, 1000);
    const auto hf = test::random_flags(n, test::flag_pattern::dense, 52);
    std::vector<long long> perm(n);
    for (std::size_t i = 0; i < n; ++i) perm[i] = (long long)i;
    std::shuffle(perm.begin(), perm.end(), std::mt19937_64(53));
    struct in_t {
        sv::vector<int> a;
        sv::vector<bool> f;
        sv::vector<long long> perm;
    };
    auto make = [&] { return in_t{sv::vector<int>(h), sv::vector<bool>(hf), sv::vector<long long>(perm)}; };
    auto snap = [](const in_t& in) { return std::make_tuple(in.a.to_host(), in.f.to_host(), in.perm.to_host()); };
    auto expect = [](std::vector<int> want) {
        return [want](const in_t&, const sv::vector<int>& r) { REQUIRE(r.to_host() == want); };
    };
    std::vector<int> split_want, pack_want, perm_want(n), seg_scan(n), seg_split;
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 0; i < n; ++i)
            if (hf[i] == bool(pass)) split_want.push_back(h[i]);
    for (std::size_t i = 0; i < n; ++i) if (hf[i]) pack_want.push_back(h[i]);
    for (std::size_t i = 0; i < n; ++i) perm_want[std::size_t(perm[i])] = h[i];
    int acc = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (i == 0 || hf[i]) acc = 0;
        seg_scan[i] = acc;
        acc += h[i];
    }
    for (std::size_t s = 0, i = 1; i <= n; ++i)
        if (i == n || hf[i]) {
            for (int pass = 0; pass < 2; ++pass)
                for (std::size_t k = s; k < i; ++k)
                    if (tf::is_odd{}(h[k]) == bool(pass)) seg_split.push_back(h[k]);
            s = i;
        }
    inject_every_fault("split<int>", make, snap, [](const in_t& in) { return sv::split(in.a, in.f); }, expect(split_want));
    inject_every_fault("pack<int>", make, snap, [](const in_t& in) { return sv::pack(in.a, in.f); }, expect(pack_want));
    inject_every_fault("permute<int> checked", make, snap, [](const in_t& in) { return sv::permute(in.a, in.perm); },
                       expect(perm_want));
    inject_every_fault("segmented_scan<int>", make, snap, [](const in_t& in) { return sv::segmented_scan(in.a, in.f); },
                       expect(seg_scan));
    inject_every_fault("segmented_split<int>", make, snap,
                       [](const in_t& in) { return sv::segmented_split(in.a, sv::lazy::map(tf::is_odd{}, in.a), in.f); },
                       expect(seg_split));
    MESSAGE("fault injection: " << totals().calls << " calls, " << totals().faults
                                << " injected out-of-memory failures so far");
}
