// The runtime's memory cache: primitives in a loop reach a steady state with
// no new backend allocations.
#include "support.hpp"
#include <scanvec/primitives/segmented_scan.hpp>
#include <scanvec/primitives/split.hpp>
#include <scanvec/runtime/device_value.hpp>
#include <scanvec/runtime/policy.hpp>
#include <scanvec/runtime/repeat_on_device.hpp>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

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

namespace {
/// A source of memory that counts what it hands out and takes back, over the backend's own.
struct counting_source {
    std::size_t allocations = 0, frees = 0, bytes_out = 0;
    static void* allocate(std::size_t bytes, void* self) {
        auto* c = static_cast<counting_source*>(self);
        void* p = sv::runtime::backend_resource().allocate(bytes, nullptr);
        if (p) c->allocations++, c->bytes_out += bytes;
        return p;
    }
    static void deallocate(void* p, std::size_t bytes, void* self) {
        auto* c = static_cast<counting_source*>(self);
        c->frees++;
        c->bytes_out -= bytes;
        sv::runtime::backend_resource().deallocate(p, bytes, nullptr);
    }
    sv::runtime::memory_resource resource() { return {&allocate, &deallocate, this}; }
};
}  // namespace

TEST_CASE("a cache draws its blocks from the resource it is given, and gives every one back") {
    counting_source source;
    {
        sv::runtime::memory_cache cache;
        cache.set_resource(source.resource());
        void* a = cache.allocate(1000);
        void* b = cache.allocate(100000);
        CHECK(source.allocations == 2);
        CHECK(source.bytes_out == cache.stats().bytes_in_use);
        // blocks in use: the source cannot change under them
        CHECK_THROWS_AS(cache.set_resource(sv::runtime::backend_resource()), sv::error);
        cache.deallocate(a, 1000);
        void* again = cache.allocate(1000);  // from the cache, not the source
        CHECK(again == a);
        CHECK(source.allocations == 2);
        cache.deallocate(again, 1000);
        cache.deallocate(b, 100000);
        CHECK(source.frees == 0);  // cached
        cache.trim();
        CHECK(source.frees == 2);
        CHECK(source.bytes_out == 0);
        void* c = cache.allocate(64);
        cache.deallocate(c, 64);
    }  // the cache's destructor gives the last block back
    CHECK(source.allocations == 3);
    CHECK(source.frees == 3);
    CHECK(source.bytes_out == 0);
    sv::runtime::memory_resource half;
    half.allocate = source.resource().allocate;
    CHECK_THROWS_AS(sv::runtime::memory_cache().set_resource(half), sv::error);
}

TEST_CASE("the cache limit: blocks past it go straight back, and lowering it trims") {
    counting_source source;
    sv::runtime::memory_cache cache;
    cache.set_resource(source.resource());
    void* small = cache.allocate(4096);
    void* big = cache.allocate(1 << 20);
    cache.set_cache_limit(8192);
    CHECK(cache.cache_limit() == 8192);
    cache.deallocate(big, 1 << 20);  // over the limit: given back at once
    CHECK(source.frees == 1);
    cache.deallocate(small, 4096);  // fits: kept
    CHECK(source.frees == 1);
    CHECK(cache.stats().bytes_cached == 4096);
    cache.set_cache_limit(0);  // lowering trims to fit
    CHECK(cache.stats().bytes_cached == 0);
    CHECK(source.frees == 2);
    CHECK(source.bytes_out == 0);
}

TEST_CASE("release_at_exit: the free blocks go back, those in use stay with their vectors, the cache stays usable") {
    // what the process-wide cache does at exit (an atexit handler), on a cache of its own
    sv::runtime::memory_cache cache;  // the backend's own source, as the process-wide cache's
    void* held = cache.allocate(1000);  // in use at exit: a vector with static storage duration, say
    cache.deallocate(cache.allocate(100000), 100000);
    cache.deallocate(cache.allocate(300), 300, sv::current_stream());
    const auto before = cache.stats();
    CHECK(before.bytes_cached > 0);
    cache.release_at_exit();
    CHECK(cache.stats().bytes_cached == 0);
    CHECK(cache.stats().backend_frees == before.backend_frees + 2);
    CHECK(cache.stats().bytes_in_use == before.bytes_in_use);  // not freed under its vector
    cache.deallocate(held, 1000);  // the vector goes after the handler: its block straight back, once
    CHECK(cache.stats().backend_frees == before.backend_frees + 3);
    CHECK(cache.stats().bytes_in_use == 0);
    CHECK(cache.stats().bytes_cached == 0);
    void* late = cache.allocate(5000);  // work after the handler (a later destructor's) still gets memory
    REQUIRE(late != nullptr);
    sv::backend::fill_bytes(late, 1, 5000, sv::current_stream(), "test (write the late block)");
    cache.deallocate(late, 5000);
    CHECK(cache.stats().bytes_cached == 0);
    CHECK(cache.stats().backend_frees == before.backend_frees + 4);
    cache.release_at_exit();  // again: nothing left to give
    CHECK(cache.stats().backend_frees == before.backend_frees + 4);
}

TEST_CASE("release_at_exit leaves an application's source alone: its pool may be gone at exit") {
    counting_source source;
    sv::runtime::memory_cache cache;
    cache.set_resource(source.resource());
    cache.deallocate(cache.allocate(1000), 1000);
    cache.release_at_exit();
    CHECK(source.frees == 0);
    CHECK(cache.stats().bytes_cached > 0);
    cache.trim();  // the application's own call, while its pool lives
    CHECK(source.frees == 1);
    cache.set_resource(sv::runtime::backend_resource());  // the backend's again: released at exit
    cache.deallocate(cache.allocate(1000), 1000);
    cache.release_at_exit();
    CHECK(cache.stats().bytes_cached == 0);
}

TEST_CASE("sv::memory: the process-wide cache's controls") {
    sv::vector<int> alive(1000, 1);  // scanvec memory in use
    CHECK_THROWS_AS(sv::memory::set_resource(sv::runtime::backend_resource()), sv::error);
    sv::memory::trim();
    CHECK(sv::memory::stats().bytes_cached == 0);
    CHECK(sv::memory::stats().bytes_in_use >= 1000 * sizeof(int));
    sv::memory::set_cache_limit(0);
    { sv::vector<int> gone(5000, 2); }
    CHECK(sv::memory::stats().bytes_cached == 0);  // nothing kept
    sv::memory::set_cache_limit(~std::size_t(0));
    { sv::vector<int> kept(5000, 2); }
    CHECK(sv::memory::stats().bytes_cached > 0);
    CHECK(sv::reduce(alive) == 1000);
}

TEST_CASE("sv::memory::set_resource after checked calls: the blocks the checks keep are no vector's") {
    // on CUDA a checked permute keeps blocks from the cache for the thread's
    // next checks; set_resource gives this thread's back before it asks that
    // no memory be in use, and the next check makes them again
    {
        const sv::vector<int> a(test::random_values<int>(70001, 3));
        const sv::vector<sv::index_t> perm(test::random_permutation(70001, 4));
        CHECK(sv::permute(a, perm).size() == 70001);
        CHECK(sv::back_permute(a, perm).size() == 70001);
    }
    CHECK_NOTHROW(sv::memory::set_resource(sv::runtime::backend_resource()));
    const sv::vector<int> a(test::random_values<int>(1000, 5));
    const sv::vector<sv::index_t> perm(test::random_permutation(1000, 6));
    CHECK(sv::permute(sv::permute(a, perm), perm).size() == 1000);
}

// One call of a countdown: word[to] <- word[from] - 1, and the test whether
// it is still above 0 (one thread; nothing allocated).
struct count_down {
    long long* word;
    sv::index_t* test;
    int from, to;
    SCANVEC_HD void operator()(int) const {
        word[to] = word[from] - 1;
        *test = word[to] > 0 ? 1 : 0;
    }
};

TEST_CASE("repeat_on_device: the device repeats a period of calls until a period's last test is 0") {
    // on CUDA the calls of a period are captured once into a graph's loop; on
    // the host (or with SCANVEC_HOST_ROUNDS=1) they run in a loop. A period of 2 alternates between two words,
    // as quicksort's state alternates between two sets of buffers.
    for (long long from : {1, 2, 6, 7, 40}) {
        for (int period : {1, 2}) {
            CAPTURE(from);
            CAPTURE(period);
            sv::vector<long long> word(std::vector<long long>{from, from});
            sv::device_value<sv::index_t> test;
            int to = period == 1 ? 0 : 1;
            const auto stats = sv::runtime::memory().stats();
            const auto ran = sv::runtime::repeat_on_device(period, [&] {
                const count_down step{word.data(), test.ptr(), period == 1 ? 0 : 1 - to, to};
                thrust::for_each_n(sv::detail::policy(), thrust::counting_iterator<int>(0), 1, step);
                if (period == 2) to = 1 - to;
                return test.ptr();
            });
            // the calls go on to the end of the period in which the countdown reached 0
            const long long calls = (from + period - 1) / period * period;
            CHECK(ran.calls == std::uint64_t(calls));
            CHECK(ran.nonzero == std::uint64_t(from - 1));
            CHECK(word.to_host()[0] == from - calls);  // a period of 2 ends writing word[0], as it began reading it
            CHECK(sv::runtime::memory().stats().bytes_in_use == stats.bytes_in_use);
        }
    }
    // a loop prepared is not run until run(): on CUDA its calls were captured, not launched
    {
        sv::vector<long long> word(std::vector<long long>{5, 5});
        sv::device_value<sv::index_t> test;
        int calls = 0;
        auto loop = sv::runtime::prepare_repeat(1, [&] {
            ++calls;
            thrust::for_each_n(sv::detail::policy(), thrust::counting_iterator<int>(0), 1,
                               count_down{word.data(), test.ptr(), 0, 0});
            return static_cast<const sv::index_t*>(test.ptr());
        });
        CHECK(word.to_host() == std::vector<long long>{5, 5});
        const auto ran = loop.run();
        CHECK(ran.calls == 5);
        CHECK(ran.nonzero == 4);
        CHECK(word.to_host() == std::vector<long long>{0, 5});
        CHECK(calls == (sv::runtime::device_loops() ? 1 : 5));  // captured once, or called by run()
    }
    // a site's graph is kept and updated from call to call: two loops of one
    // site prepared before either runs (the second makes a graph of its own),
    // then the site's graph again with other words and another period
    {
        sv::vector<long long> first(std::vector<long long>{3, 3}), second(std::vector<long long>{6, 6});
        sv::device_value<sv::index_t> test_a, test_b;
        struct counting {
            long long* word;
            sv::index_t* test;
            const sv::index_t* operator()() const {
                thrust::for_each_n(sv::detail::policy(), thrust::counting_iterator<int>(0), 1, count_down{word, test, 0, 0});
                return test;
            }
        };
        auto a = sv::runtime::prepare_repeat(1, counting{first.data(), test_a.ptr()});
        auto b = sv::runtime::prepare_repeat(1, counting{second.data(), test_b.ptr()});
        CHECK(b.run().calls == 6);
        CHECK(a.run().calls == 3);
        CHECK(first.to_host() == std::vector<long long>{0, 3});
        CHECK(second.to_host() == std::vector<long long>{0, 6});
        sv::vector<long long> third(std::vector<long long>{4, 4});
        CHECK(sv::runtime::repeat_on_device(2, counting{third.data(), test_a.ptr()}).calls == 4);
        CHECK(sv::runtime::repeat_on_device(1, counting{first.data() + 1, test_b.ptr()}).calls == 3);
        CHECK(third.to_host() == std::vector<long long>{0, 4});
        CHECK(first.to_host() == std::vector<long long>{0, 0});
    }
    CHECK_THROWS_WITH_AS(sv::runtime::repeat_on_device(0, [] { return static_cast<const sv::index_t*>(nullptr); }),
                         doctest::Contains("period 0"), sv::error);
}
