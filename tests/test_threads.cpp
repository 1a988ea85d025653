// Primitives called from several host threads at once, each on its own vectors,
// share the memory cache safely and give the same answers as when run alone.
#include "support.hpp"
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/segmented_scan.hpp>
#include <scanvec/primitives/split.hpp>

#include <atomic>
#include <thread>

namespace {

sv::index_t program(const std::vector<int>& h, const std::vector<bool>& f) {
    sv::vector<int> a(h);
    sv::vector<bool> flags(f);
    auto s = sv::scan(a);
    auto seg = sv::segmented_inclusive_scan(s, flags, sv::max<int>{});
    auto sp = sv::split(seg, flags);
    auto doubled = sv::map(SCANVEC_FN(int x) { return sv::index_t(x) * 2; }, sp);
    return sv::reduce(doubled) + sv::count(flags);
}

}  // namespace

TEST_CASE("primitives run concurrently from several host threads") {
    const int threads = 4, rounds = 10;
    std::vector<std::vector<int>> inputs;
    std::vector<std::vector<bool>> flags;
    std::vector<sv::index_t> expect;
    for (int t = 0; t < threads; ++t) {
        inputs.push_back(test::random_values<int>(50000 + 1000 * t, 200 + t, 0, 9));
        flags.push_back(test::random_flags(inputs.back().size(), test::flag_pattern::sparse, 300 + t));
        expect.push_back(program(inputs.back(), flags.back()));
    }
    std::atomic<int> wrong{0}, failed{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            try {
                for (int r = 0; r < rounds; ++r)
                    if (program(inputs[t], flags[t]) != expect[t]) wrong++;
            } catch (...) {
                failed++;
            }
        });
    }
    for (auto& th : pool) th.join();
    CHECK(wrong == 0);
    CHECK(failed == 0);
}

TEST_CASE("the memory cache is consistent after concurrent use") {
    auto& mem = sv::runtime::memory();
    std::vector<std::thread> pool;
    for (int t = 0; t < 4; ++t)
        pool.emplace_back([] {
            for (int r = 0; r < 200; ++r) {
                sv::runtime::scratch a(1000 + r), b(1 << (r % 20));
                (void)a;
                (void)b;
            }
        });
    for (auto& th : pool) th.join();
    const auto st = mem.stats();
    sv::runtime::scratch probe(1234);
    CHECK(mem.stats().bytes_in_use == st.bytes_in_use + sv::runtime::memory_cache::bin_size(1234));
}

TEST_CASE("what a thread keeps between calls goes back to the cache when the thread ends") {
    // The thread's context (runtime/detail/thread_context.hpp): on CUDA the checks
    // keep blocks from the memory cache between calls (their state, stamps and
    // tables); they count as in use while the thread lives, and return when it ends.
    auto& mem = sv::runtime::memory();
    const std::size_t n = 70001;  // past one block of the checks' kernels
    std::vector<int> reversed(n), values(n);
    for (std::size_t i = 0; i < n; ++i) {
        reversed[i] = int(n - 1 - i);
        values[i] = int(3 * i + 1);
    }
    sv::synchronize();
    const std::size_t before = mem.stats().bytes_in_use;
    std::atomic<int> wrong{0}, failed{0};
    std::thread worker([&] {
        try {
            sv::vector<int> a(values), idx(reversed);
            const auto p = sv::permute(a, idx).to_host();  // checked: the indices form a permutation
            const auto g = sv::back_permute(a, idx).to_host();
            for (std::size_t i = 0; i < n; ++i) {
                wrong += p[n - 1 - i] != values[i];
                wrong += g[i] != values[n - 1 - i];
            }
        } catch (...) {
            failed++;
        }
    });
    worker.join();
    CHECK(failed == 0);
    CHECK(wrong == 0);
    CHECK(mem.stats().bytes_in_use == before);
}
