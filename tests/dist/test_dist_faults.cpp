// A failure on one rank alone: the memory cache's fault injection
// (sv::runtime::memory().fail_after(k)) armed on one rank only, for every
// allocation request k that the call makes there. Every rank must throw (the
// failing rank its own sv::out_of_memory, the others an sv::error naming the
// failing rank), or every rank must succeed with the fault-free result; and
// the ranks must stay in step: a collective after the call gives the right
// answer. A call that did not agree would leave ranks waiting in different
// collectives, and the test would fail at its timeout.
#include "dist_support.hpp"

#include <cstdio>
#include <cstdlib>
#include <optional>

using namespace dtest;

namespace {

sv::runtime::memory_cache& mem() { return sv::runtime::memory(); }

std::size_t requests() {
    const auto s = mem().stats();
    return s.cache_hits + s.backend_allocations;
}

template <class T> bool same(const sv::dist::vector<T>& got, const sv::dist::vector<T>& want) {
    return got.offsets() == want.offsets() && gathered_equals(got, want.to_host(0));
}
template <class T> bool same(const T& got, const T& want) { return got == want; }

/// Runs call(prep()) once fault-free, then with the k-th request of the call
/// failing on rank `victim` for every k (prep() runs before the fault is armed).
template <class P, class F> void fails_on_one_rank(const char* what, int victim, P prep, F call_with) {
    auto call = [&] { return call_with(prep()); };
    const std::string call_name = what;
    CAPTURE(call_name);
    CAPTURE(victim);
    if (std::getenv("SCANVEC_FAULTS_VERBOSE") && root()) std::fprintf(stderr, "%s, victim %d\n", what, victim);
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
    for (int victim : {ranks() - 1, 0}) {
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
