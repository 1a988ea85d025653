// A failure on one rank alone: the memory cache's fault injection
// (sv::runtime::memory().fail_after(k)) armed on one rank only, each rank in
// turn, for every allocation request k that the call makes there: every
// dist call, and the book's programs run on dist vectors. Every rank must
// throw (the failing rank its own sv::out_of_memory, the others an sv::error
// naming the failing rank), or every rank must succeed with the fault-free
// result; and the ranks must stay in step: a collective after the call gives
// the right answer. A call that did not agree would leave ranks waiting in
// different collectives: the watchdog turns that into a failure that names
// the call, the failing rank and k.
#include "dist_support.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <thread>

using namespace dtest;

namespace {

/// Ends the program (every rank: mpirun stops the others when one exits
/// early) when one step of a sweep has not finished within its limit,
/// saying which step hung.
class watchdog {
public:
    watchdog() : thread_([this] { watch(); }) {}
    watchdog(const watchdog&) = delete;
    watchdog& operator=(const watchdog&) = delete;
    ~watchdog() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    /// The step `what` must end within `limit` (disarm() or the next arm()).
    void arm(std::string what, std::chrono::seconds limit) {
        std::lock_guard<std::mutex> lock(mutex_);
        what_ = std::move(what);
        deadline_ = std::chrono::steady_clock::now() + limit;
        armed_ = true;
        wake_.notify_all();
    }
    void disarm() {
        std::lock_guard<std::mutex> lock(mutex_);
        armed_ = false;
    }

private:
    void watch() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!stop_) {
            if (!armed_) {
                wake_.wait(lock);
                continue;
            }
            if (wake_.wait_until(lock, deadline_) == std::cv_status::timeout && armed_ && !stop_ &&
                std::chrono::steady_clock::now() >= deadline_) {
                std::fprintf(stderr, "rank %d: HANG: %s did not finish in time; stopping every rank\n", rank(),
                             what_.c_str());
                std::fflush(stderr);
                std::_Exit(3);
            }
        }
    }
    std::mutex mutex_;
    std::condition_variable wake_;
    std::string what_;
    std::chrono::steady_clock::time_point deadline_{};
    bool armed_ = false, stop_ = false;
    std::thread thread_;
};

watchdog& dog() {
    static watchdog w;
    return w;
}

/// A step of a sweep takes milliseconds; this is minutes of slack under the
/// sanitizers with more ranks than cores.
constexpr std::chrono::seconds step_limit{120};

sv::runtime::memory_cache& mem() { return sv::runtime::memory(); }

std::size_t requests() {
    const auto s = mem().stats();
    return s.cache_hits + s.backend_allocations;
}

template <class T> bool same(const sv::dist::vector<T>& got, const sv::dist::vector<T>& want) {
    return got.offsets() == want.offsets() && gathered_equals(got, want.to_host(0));
}
template <class T> bool same(const T& got, const T& want) { return got == want; }

struct key_twice {
    SCANVEC_HD long long operator()(int x) const { return 2LL * x; }
};
struct sum_of {
    SCANVEC_HD int operator()(int x, int y) const { return x + y; }
};
struct mod_of {
    int m;
    template <class I> SCANVEC_HD int operator()(I x) const { return int(x % m); }
};

/// Runs call(prep()) once fault-free, then with the k-th request of the call
/// failing on rank `victim` for every k (prep() runs before the fault is armed).
template <class P, class F> void fails_on_one_rank(const char* what, int victim, P prep, F call_with) {
    auto call = [&] { return call_with(prep()); };
    const std::string call_name = what;
    CAPTURE(call_name);
    CAPTURE(victim);
    if (std::getenv("SCANVEC_FAULTS_VERBOSE") && root()) std::fprintf(stderr, "%s, victim %d\n", what, victim);
    dog().arm(call_name + " without faults", step_limit);
    const auto want = call();
    auto arg = prep();
    const std::size_t before = requests();
    (void)call_with(std::move(arg));
    const std::uint64_t made =
        sv::dist::detail::broadcast(comm(), std::uint64_t(requests() - before), victim, "test (MPI_Bcast)");
    const auto check_data = spread_out(random_values<long long>(37, 5), spread::random, 3);
    const long long check_sum = sv::dist::reduce(check_data);
    int agreed_failures = 0;
    for (std::uint64_t k = 0; k <= made; ++k) {
        CAPTURE(k);
        dog().arm(call_name + " with request " + std::to_string(k) + " failing on rank " + std::to_string(victim),
                  step_limit);
        auto input = prep();
        if (rank() == victim) mem().fail_after(std::size_t(k));
        std::optional<decltype(call())> got;
        bool threw = false, own = false, named = false;
        try {
            got.emplace(call_with(std::move(input)));
        } catch (const sv::out_of_memory& e) {
            threw = true;
            own = std::string(e.what()).find("injected") != std::string::npos;
        } catch (const sv::error& e) {
            threw = true;
            named = std::string(e.what()).find("rank " + std::to_string(victim) + " failed") != std::string::npos &&
                    std::string(e.what()).find("injected") != std::string::npos;
        }
        if (rank() == victim) mem().stop_failing();
        // Every rank threw, or none did
        const auto all = sv::dist::detail::allgather(comm(), int(threw), "test (MPI_Allgather)");
        const bool alike = std::count(all.begin(), all.end(), int(threw)) == ranks();
        CHECK(alike);
        if (!alike && std::getenv("SCANVEC_FAULTS_VERBOSE")) MESSAGE("rank " << rank() << " threw " << threw << " made " << made);
        if (threw) {
            ++agreed_failures;
            if (rank() == victim) CHECK(own);
            else CHECK(named);
        } else {
            CHECK(same(*got, want));
        }
        // The ranks are in step: a collective after it gives the right answer
        CHECK(sv::dist::reduce(check_data) == check_sum);
    }
    dog().disarm();
    CHECK((agreed_failures > 0 || made == 0));  // a victim with nothing to allocate cannot fail
}

template <class F> void fails_on_one_rank(const char* what, int victim, F call) {
    fails_on_one_rank(what, victim, [] { return 0; }, [&](int) { return call(); });
}

}  // namespace

TEST_CASE("dist calls agree when one rank alone runs out of memory") {
    const std::size_t n = 1001;
    const auto a = random_values<int>(n, 200);
    const auto m = random_affine(n, 201);
    const auto f = random_flags(n, 0.05, 202);
    const auto perm = random_permutation(n, 203);
    std::vector<mat2> mats(n);
    for (std::size_t i = 0; i < n; ++i) mats[i] = {std::uint32_t(i), 1, 2, std::uint32_t(3 * i)};
    std::vector<int> digits(n);
    for (std::size_t i = 0; i < n; ++i) digits[i] = int((i * 2654435761u) % 7);
    std::vector<int> len(60);
    for (std::size_t k = 0; k < len.size(); ++k) len[k] = int(k % 3 == 0 ? 0 : (k * 7) % 31);
    sv::index_t total = 0;
    for (int l : len) total += l;
    const auto dl = spread_out(len, spread::random, 204);
    const auto desc = sv::dist::segments::from_lengths(dl);
    const auto ds = spread_out(random_values<long long>(std::size_t(total), 205), spread::even);
    for (int victim = 0; victim < ranks(); ++victim) {
        const auto da = spread_out(a, spread::random, 206);
        const auto dm = spread_out(m, spread::every_other, 207);
        const auto df = spread_out(f, spread::even);
        const auto di = spread_out(perm, spread::every_other, 208);  // other blocks than da's: moved first
        const auto dp = spread_out(perm, spread::random, 206);       // da's blocks
        const auto dd = spread_out(digits, spread::even);            // other blocks than dm's: moved first
        const auto dmat = spread_out(mats, spread::random, 209);
        const auto op = sv::monoid(affine_then{}, affine_identity);
        fails_on_one_rank("scan", victim, [&] { return sv::dist::scan(da); });
        fails_on_one_rank("inclusive_scan (non-commutative)", victim, [&] { return sv::dist::inclusive_scan(dm, op); });
        fails_on_one_rank("backward_scan", victim, [&] { return sv::dist::backward_scan(dm, op); });
        fails_on_one_rank("reduce", victim, [&] { return sv::dist::reduce(dm, op); });
        fails_on_one_rank("segmented_scan", victim, [&] { return sv::dist::segmented_scan(dm, df, op); });
        fails_on_one_rank("segmented_backward_inclusive_scan", victim,
                          [&] { return sv::dist::segmented_backward_inclusive_scan(da, df); });
        fails_on_one_rank("segmented_reduce", victim, [&] { return sv::dist::segmented_reduce(dm, df, op); });
        fails_on_one_rank("scan by a descriptor", victim, [&] { return sv::dist::backward_scan(ds, desc); });
        fails_on_one_rank("permute", victim, [&] { return sv::dist::permute(da, dp); });
        fails_on_one_rank("permute (idx on other blocks)", victim, [&] { return sv::dist::permute(da, di); });
        fails_on_one_rank("permute (unchecked)", victim, [&] { return sv::dist::permute(da, dp, sv::unchecked); });
        fails_on_one_rank("back_permute", victim, [&] { return sv::dist::back_permute(dm, di); });
        fails_on_one_rank("write", victim, [&] { return sv::dist::distribute(0, n, comm()); },
                          [&](sv::dist::vector<int> dst) { return sv::dist::write(std::move(dst), dp, da); });
        fails_on_one_rank("rebalance", victim, [&] { return sv::dist::rebalance(da); });
        fails_on_one_rank("radix_sort", victim, [&] { return sv::dist::radix_sort(da); });
        fails_on_one_rank("quicksort (processor teams)", victim, [&] { return sv::dist::quicksort(da); });
        fails_on_one_rank("pack", victim, [&] { return sv::dist::pack(da, df); });
        fails_on_one_rank("split", victim, [&] { return sv::dist::split(da, df); });
        fails_on_one_rank("multisplit", victim, [&] { return sv::dist::multisplit(dm, dd, 7); });
        for (sv::index_t i : {sv::index_t(0), sv::index_t(n / 2), sv::index_t(n - 1)})  // owners: first, middle, last
            fails_on_one_rank("extract (a struct: its read allocates on the owner)", victim,
                              [&] { return sv::dist::extract(dmat, i); });
        fails_on_one_rank("segments::from_lengths", victim,
                          [&] { return sv::dist::segments::from_lengths(dl).total(); });
        // The local calls: each agrees on its verdict before it returns
        fails_on_one_rank("map", victim, [&] { return sv::dist::map(key_twice{}, da); });
        fails_on_one_rank("map (b on other blocks)", victim, [&] { return sv::dist::map(sum_of{}, da, dd); });
        fails_on_one_rank("index", victim, [&] { return sv::dist::index(n, comm()); });
        fails_on_one_rank("distribute (a struct)", victim, [&] { return sv::dist::distribute(mats[3], n, comm()); });
        fails_on_one_rank("copy", victim, [&] { return sv::dist::vector<mat2>(dmat); });
        fails_on_one_rank("to_host", victim, [&] { return da.to_host(ranks() - 1); });
        fails_on_one_rank("gather", victim, [&] { return dm.gather(0).size(); });
        fails_on_one_rank("scatter", victim, [&] { return sv::dist::vector<int>::scatter(a, ranks() - 1); });
        // The other calls of the layer
        fails_on_one_rank("backward_inclusive_scan", victim, [&] { return sv::dist::backward_inclusive_scan(da); });
        fails_on_one_rank("enumerate", victim, [&] { return sv::dist::enumerate(df); });
        fails_on_one_rank("count", victim, [&] { return sv::dist::count(df); });
        fails_on_one_rank("segmented_inclusive_scan", victim,
                          [&] { return sv::dist::segmented_inclusive_scan(dmat, df, sv::monoid(mat2_product{}, mat2{1, 0, 0, 1})); });
        fails_on_one_rank("back_permute (a struct)", victim, [&] { return sv::dist::back_permute(dmat, di); });
        fails_on_one_rank("redistribute", victim, [&] {
            std::vector<sv::index_t> sizes(std::size_t(ranks()), 0);
            sizes[0] = sv::index_t(n);
            return sv::dist::redistribute(dm, sizes);
        });
        fails_on_one_rank("combining_write (max)", victim, [&] { return sv::dist::distribute(0, n / 3, comm()); },
                          [&](sv::dist::vector<int> dst) {
                              return sv::dist::combining_write(std::move(dst), sv::dist::map(mod_of{int(n / 3)}, di), da,
                                                               sv::max<int>{});
                          });
        fails_on_one_rank("reduce by segments, some empty", victim, [&] { return sv::dist::reduce(ds, desc); });
        fails_on_one_rank("inclusive_scan by segments", victim, [&] { return sv::dist::inclusive_scan(ds, desc); });
    }
}

TEST_CASE("dist: the reduce by segments with empty segments agrees when one rank alone runs out of memory") {
    // lengths {3, 0, 4, 2, 0, 5}: the segmented reduce, then the identity
    // distributed over the segments and the non-empty segments' sums written
    // into it; the failure injected in each request of each rank in turn.
    const auto lengths = spread_out(std::vector<int>{3, 0, 4, 2, 0, 5}, spread::even);
    const auto desc = sv::dist::segments::from_lengths(lengths);
    const auto values = random_values<long long>(14, 220);
    for (int victim = 0; victim < ranks(); ++victim)
        for (spread s : spreads) {
            CAPTURE(name(s));
            const auto dv = spread_out(values, s, 221);
            fails_on_one_rank("reduce by segments {3,0,4,2,0,5}", victim, [&] { return sv::dist::reduce(dv, desc); });
        }
}

TEST_CASE("dist: a memory resource that refuses one request on one rank") {
    // The same agreement when the request fails at the resource itself (a
    // user's sv::memory::set_resource), not through the cache's injection.
    // The cache keeps no free block, so every request reaches the resource;
    // a refused request is asked again once (after the cache's trim), so
    // the resource refuses both.
    struct refusing {
        static std::atomic<int>& grants() {  // requests granted before two are refused; -1: grant all
            static std::atomic<int> n{-1};
            return n;
        }
        static std::atomic<int>& refusals() {
            static std::atomic<int> n{0};
            return n;
        }
        static void* allocate(std::size_t bytes, void*) {
            if (refusals() > 0) {
                --refusals();
                return nullptr;
            }
            if (grants() == 0) {
                grants() = -1;
                refusals() = 1;
                return nullptr;
            }
            if (grants() > 0) --grants();
            return sv::runtime::backend_resource().allocate(bytes, nullptr);
        }
        static void deallocate(void* p, std::size_t bytes, void*) {
            sv::runtime::backend_resource().deallocate(p, bytes, nullptr);
        }
    };
    const std::size_t limit = mem().cache_limit();
    sv::runtime::memory_resource r;
    r.allocate = &refusing::allocate;
    r.deallocate = &refusing::deallocate;
    sv::memory::set_resource(r);  // no scanvec memory is in use between test cases
    mem().set_cache_limit(0);
    {
        const auto lengths = spread_out(std::vector<int>{3, 0, 4, 2, 0, 5}, spread::even);
        const auto desc = sv::dist::segments::from_lengths(lengths);
        const auto dv = spread_out(random_values<long long>(14, 222), spread::random, 223);
        const auto want = sv::dist::reduce(dv, desc).to_host();
        int agreed_failures = 0;
        for (int victim = 0; victim < ranks(); ++victim)
            for (int k = 0; k < 12; ++k) {
                CAPTURE(victim);
                CAPTURE(k);
                dog().arm("reduce by segments with a refusing resource on rank " + std::to_string(victim), step_limit);
                if (rank() == victim) refusing::grants() = k;
                bool threw = false;
                std::optional<std::vector<long long>> got;
                try {
                    got.emplace(sv::dist::reduce(dv, desc).to_host());
                } catch (const sv::error&) {
                    threw = true;
                }
                refusing::grants() = -1;
                refusing::refusals() = 0;
                const auto all = sv::dist::detail::allgather(comm(), int(threw), "test (MPI_Allgather)");
                CHECK(std::count(all.begin(), all.end(), int(threw)) == ranks());
                if (threw) ++agreed_failures;
                else CHECK(*got == want);
            }
        dog().disarm();
        CHECK(agreed_failures > 0);
    }
    sv::memory::set_resource(sv::runtime::backend_resource());
    mem().set_cache_limit(limit);
}

TEST_CASE("the book's programs on dist vectors agree when one rank alone runs out of memory") {
    const std::size_t n = 203;
    const auto keys = random_values<std::int16_t>(n, 230, -1000, 1000);
    const auto alt = random_values<double>(n, 231, 0, 50);
    const auto f = random_flags(n, 0.4, 232);
    for (int victim = 0; victim < ranks(); ++victim) {
        const auto dk = spread_out(keys, spread::random, 233);
        const auto dalt = spread_out(alt, spread::every_other, 234);
        const auto df = spread_out(f, spread::even);
        fails_on_one_rank("split_radix_sort", victim, [&] { return sv::split_radix_sort(dk); });
        fails_on_one_rank("radix_sort (4 bits a pass)", victim, [&] { return sv::radix_sort(dk, 4); });
        fails_on_one_rank("split_by_enumerate", victim, [&] { return sv::split_by_enumerate(dk, df); });
        fails_on_one_rank("line_of_sight", victim, [&] { return sv::line_of_sight(dalt, 3.0); });
    }
}

TEST_CASE("dist: a local length error on one rank only is agreed") {
    // A rank's own input is wrong (here: a local one-device call on mismatched blocks),
    // seen on that rank alone: the verdict makes every rank throw, and they stay in step.
    const auto a = spread_out(random_values<int>(100, 210), spread::even);
    const auto check_sum = sv::dist::reduce(a);
    for (int victim = 0; victim < ranks(); ++victim) {
        CAPTURE(victim);
        sv::dist::detail::local_failure failed;
        failed.run([&] {
            if (rank() == victim) throw sv::length_error("local step: lengths 3 and 4 differ");
        });
        bool threw = false;
        std::string msg;
        try {
            (void)sv::dist::detail::allgather(comm(), 1, failed, "test (MPI_Allgather)");
        } catch (const sv::error& e) {
            threw = true;
            msg = e.what();
        }
        CHECK(threw);
        CHECK(msg.find("lengths 3 and 4 differ") != std::string::npos);
        if (rank() != victim) CHECK(msg.find("rank " + std::to_string(victim) + " failed") != std::string::npos);
        CHECK(sv::dist::reduce(a) == check_sum);
    }
}
