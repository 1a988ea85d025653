// The runtime's memory cache: primitives in a loop reach a steady state with
// no new backend allocations.
#include "support.hpp"
#include <scanvec/primitives/segmented_scan.hpp>
#include <scanvec/primitives/split.hpp>

#include <cstring>

// One iteration of a program that calls several primitives.
static int step(const sv::vector<int>& a, const sv::vector<bool>& f) {
    auto s = sv::scan(a);
    auto m = sv::map(SCANVEC_FN(int x) { return x * 2; }, s);
    auto seg = sv::segmented_scan(m, f);
    auto p = sv::split(seg, f);
    return sv::reduce(p);
}

TEST_CASE("repeated primitive calls stop allocating backend memory") {
    auto& mem = sv::runtime::memory();
    sv::vector<int> va(test::random_values<int>(100003, 7));
    sv::vector<bool> vf(test::random_flags(100003, test::flag_pattern::dense, 8));
    auto step = [&] { return ::step(va, vf); };
    const int first = step();
    step();  // warm: every bin the loop needs is now cached
    const auto before = mem.stats();
    for (int i = 0; i < 20; ++i) REQUIRE(step() == first);
    const auto after = mem.stats();
    CHECK(after.backend_allocations == before.backend_allocations);
    CHECK(after.cache_hits > before.cache_hits);
    CHECK(after.bytes_in_use == before.bytes_in_use);
}

TEST_CASE("bins round up by at most an eighth") {
    using c = sv::runtime::memory_cache;
    CHECK(c::bin_size(0) == 256);
    CHECK(c::bin_size(1) == 256);
    CHECK(c::bin_size(4096) == 4096);
    for (std::size_t b : {5000ul, 65537ul, 1000003ul, (1ul << 31) + 5}) {
        CHECK(c::bin_size(b) >= b);
        CHECK(c::bin_size(b) <= b + b / 8 + 1);
    }
}

TEST_CASE("trim returns cached blocks to the backend and the cache stays usable") {
    auto& mem = sv::runtime::memory();
    { sv::vector<double> tmp(12345); }
    CHECK(mem.stats().bytes_cached > 0);
    const auto frees = mem.stats().backend_frees;
    mem.trim();
    CHECK(mem.stats().bytes_cached == 0);
    CHECK(mem.stats().backend_frees > frees);
    sv::vector<double> again(12345, 1.0);
    CHECK(sv::reduce(again) == 12345.0);
}

TEST_CASE("an impossible allocation throws out_of_memory naming the size, and the runtime recovers") {
    const std::size_t huge = std::size_t(1) << 50;  // 1 PiB
    try {
        sv::vector<char> v(huge, sv::no_init);
        FAIL("allocation of 1 PiB succeeded");
    } catch (const sv::out_of_memory& e) {
        CHECK(e.requested_bytes == huge);
        CHECK(std::string(e.what()).find(std::to_string(huge)) != std::string::npos);
    }
    sv::vector<int> ok = {1, 2, 3};
    CHECK(sv::reduce(ok) == 6);
}

TEST_CASE("memory returned to the cache is poisoned: a view that outlived its vector reads 0xDB bytes") {
    auto& cache = sv::runtime::memory();
#if defined(NDEBUG)
    CHECK_FALSE(cache.poisoning());  // release builds pay nothing
#else
    CHECK(cache.poisoning());  // on by default in the debug presets
#endif
    const bool was = cache.poisoning();
    cache.set_poisoning(true);
    const std::size_t n = 1000;
    const int* stale = nullptr;
    {
        sv::vector<int> v(n, 7);
        stale = v.data();
    }  // v's memory goes back to the cache, poisoned
    auto outlived = sv::view<const int*>(stale, n);
    int poison;
    std::memset(&poison, sv::runtime::poison_byte, sizeof poison);
    auto seen = sv::materialize(outlived).to_host();
    for (std::size_t i = 0; i < n; ++i) REQUIRE(seen[i] == poison);
    cache.set_poisoning(false);
    {
        sv::vector<int> w(n, 7);
        stale = w.data();
    }
    auto kept = sv::materialize(sv::view<const int*>(stale, n)).to_host();  // without poisoning the old values stay
    CHECK(std::count(kept.begin(), kept.end(), 7) > 0);
    cache.set_poisoning(was);
}
