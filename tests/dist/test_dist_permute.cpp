// Distributed permute, back_permute, pack and split on every layout and size,
// against sequential loops and the one-device primitives over the host data;
// bad indices on one rank only raise sv::index_error on every rank.
#include "dist_support.hpp"

using namespace dtest;

template <class E, class F> std::string message_of(F&& f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return "(nothing thrown)";
}

TEST_CASE("dist permute and back_permute") {
    for (spread s : spreads) {
        for (std::size_t n : sizes) {
            CAPTURE(name(s));
            CAPTURE(n);
            const auto a = random_values<int>(n, 1000 + n);
            const auto idx = random_permutation(n, 1100 + n);
            std::vector<int> scattered(n), gathered(n);
            for (std::size_t i = 0; i < n; ++i) scattered[std::size_t(idx[i])] = a[i];
            for (std::size_t i = 0; i < n; ++i) gathered[i] = a[std::size_t(idx[i])];
            auto da = spread_out(a, s, n);
            auto di = spread_out(idx, spread::random, n + 1);  // other blocks than a's
            auto p = sv::dist::permute(da, di);
            CHECK(p.offsets() == da.offsets());
            CHECK(gathered_equals(p, scattered));
            CHECK(gathered_equals(sv::dist::permute(da, di, sv::unchecked), scattered));
            auto b = sv::dist::back_permute(da, di);
            CHECK(b.offsets() == di.offsets());
            CHECK(gathered_equals(b, gathered));
        }
    }
}

// Blocks past the L2 (on CUDA): the records are grouped by owner and by the
// window of their place, and each receiver scatters them window by window
// across the senders' runs (a permute), reads its block at them (a
// back_permute's requests) or writes them with the one-device call (writes).
TEST_CASE("dist permute, back_permute and writes of blocks past the L2") {
#if defined(SCANVEC_BACKEND_CUDA)
    const std::size_t n = (std::size_t(1) << 26) + 5, n_wide = (std::size_t(1) << 25) + 7;
#else  // the host groups by rank alone: the size only has to pass several of its tiles
    const std::size_t n = (std::size_t(1) << 18) + 3, n_wide = (std::size_t(1) << 17) + 7;
#endif
    const auto idx = random_permutation(n, 2100);
    {
        const auto a = random_values<int>(n, 2200, -1000000000, 1000000000);
        std::vector<int> scattered(n), gathered(n);
        for (std::size_t i = 0; i < n; ++i) scattered[std::size_t(idx[i])] = a[i];
        for (std::size_t i = 0; i < n; ++i) gathered[i] = a[std::size_t(idx[i])];
        // targets with repeats for the combining write: sums by target
        std::vector<sv::index_t> many(n);
        std::vector<long long> sums(n, 0), a64(a.begin(), a.end());
        for (std::size_t i = 0; i < n; ++i) {
            many[i] = sv::index_t((std::size_t(idx[i]) * 7) % n);
            sums[std::size_t(many[i])] += a[i];
        }
        for (spread s : {spread::even, spread::random}) {
            CAPTURE(name(s));
            auto da = spread_out(a, s, n);
            auto di = spread_out(idx, s, n);
            CHECK(gathered_equals(sv::dist::permute(da, di), scattered));
            CHECK(gathered_equals(sv::dist::permute(da, di, sv::unchecked), scattered));
            CHECK(gathered_equals(sv::dist::back_permute(da, spread_out(idx, spread::random, n + 1)), gathered));
            CHECK(gathered_equals(sv::dist::write(spread_out(std::vector<int>(n, -1), s, n + 2), di, da), scattered));
            CHECK(gathered_equals(sv::dist::combining_write(spread_out(std::vector<long long>(n, 0), s, n + 3),
                                                            spread_out(many, spread::random, n + 4),
                                                            spread_out(a64, spread::even), sv::plus<long long>{}),
                                  sums));
        }
        auto da = spread_out(a, spread::even);
        auto bad = idx;
        bad[n - 9] = sv::index_t(n);
        CHECK_THROWS_WITH_AS(sv::dist::permute(da, spread_out(bad, spread::random, n)),
                             ("dist::permute: index idx[" + std::to_string(n - 9) + "] = " + std::to_string(n) +
                              " is out of range for length " + std::to_string(n)).c_str(),
                             sv::index_error);
        bad = idx;
        bad[n / 3] = bad[n / 2];
        const std::string said = message_of<sv::index_error>([&] { sv::dist::permute(da, spread_out(bad, spread::even)); });
        CHECK(said.rfind("dist::permute: index " + std::to_string(bad[n / 2]) + " repeats in idx", 0) == 0);
    }
    {  // records of 16 bytes, with 32-bit indices
        const auto a = random_values<double>(n_wide, 2300);
        const auto wide = random_permutation(n_wide, 2400);
        std::vector<int> idx32(wide.begin(), wide.end());
        std::vector<double> scattered(n_wide);
        for (std::size_t i = 0; i < n_wide; ++i) scattered[std::size_t(idx32[i])] = a[i];
        std::vector<double> gathered(n_wide);
        for (std::size_t i = 0; i < n_wide; ++i) gathered[i] = a[std::size_t(idx32[i])];
        const auto da = spread_out(a, spread::every_other);
        CHECK(gathered_equals(sv::dist::permute(da, spread_out(idx32, spread::even)), scattered));
        CHECK(gathered_equals(sv::dist::back_permute(da, spread_out(idx32, spread::random, n_wide)), gathered));
    }
}

// The receiver's side alone (no communication): records from several
// senders, each run grouped by the window of its places as the senders group
// them, written window by window across the runs. On CUDA the distributed
// permute takes this path for blocks past the L2; here it runs on every
// backend, with empty runs and empty windows.
TEST_CASE("records grouped by window are scattered window by window") {
    namespace d = sv::dist::detail;
    for (std::size_t m : {std::size_t(1), std::size_t(5), std::size_t(1000), std::size_t(70001)}) {
        for (int senders : {1, 3, 4}) {
            CAPTURE(m);
            CAPTURE(senders);
            d::addressing how;
            how.rank_bits = 2;
            how.window_bits = 3;
            how.shift = std::max(0, sv::detail::bits_for(sv::index_t(m)) - how.window_bits);
            // each place to a random sender (the last one gets none), each run stably grouped by window
            const auto places = random_permutation(m, 2500 + m);
            std::mt19937_64 rng(2600 + m);
            std::vector<std::vector<d::addressed<long long>>> runs(static_cast<std::size_t>(senders));
            for (sv::index_t t : places) {
                const int to = senders == 1 ? 0 : int(rng() % std::uint64_t(senders - 1));
                runs[std::size_t(to)].push_back({std::uint32_t(t), 7 * t + 1});
            }
            d::routed_records<long long> got;
            got.how = how;
            std::vector<d::addressed<long long>> all;
            for (auto& run : runs) {
                std::stable_sort(run.begin(), run.end(), [&](const auto& x, const auto& y) {
                    return (x.place >> how.shift) < (y.place >> how.shift);
                });
                all.insert(all.end(), run.begin(), run.end());
                got.run_starts.push_back(got.run_starts.back() + sv::index_t(run.size()));
            }
            got.records = sv::runtime::scratch(all.size() * sizeof(all[0]));
            sv::backend::copy_to_device(got.records.get(), all.data(), all.size() * sizeof(all[0]), "test records");
            sv::vector<long long> r(m, -1);
            d::scatter_records(got, r);
            std::vector<long long> want(m);
            for (std::size_t t = 0; t < m; ++t) want[t] = 7 * (long long)t + 1;
            CHECK(r.to_host() == want);
        }
    }
}

// The back_permute's last step alone: replies in many runs (one per owner
// and window of the requests), each holding its positions in order, written
// window by window of the result across the runs; tiles of the scatter that
// span several segments, empty runs, and window bits 0 (one plain scatter).
TEST_CASE("items in runs of ordered places are scattered window by window") {
    namespace d = sv::dist::detail;
    for (std::size_t m : {std::size_t(1), std::size_t(700), std::size_t(70001)}) {
        for (int runs : {1, 7, 300}) {
            for (int bits : {0, 2, 7}) {
                CAPTURE(m);
                CAPTURE(runs);
                CAPTURE(bits);
                // each place to a random run (every third run empty), then each run in order
                std::mt19937_64 rng(2700 + m + std::size_t(runs));
                std::vector<std::vector<std::uint32_t>> by_run(static_cast<std::size_t>(runs));
                for (std::size_t t = 0; t < m; ++t) {
                    int to = int(rng() % std::uint64_t(runs));
                    if (runs > 1 && to % 3 == 2) to = 0;
                    by_run[std::size_t(to)].push_back(std::uint32_t(t));
                }
                std::vector<std::uint32_t> places;
                std::vector<sv::index_t> run_starts{0};
                for (const auto& run : by_run) {
                    places.insert(places.end(), run.begin(), run.end());
                    run_starts.push_back(sv::index_t(places.size()));
                }
                std::vector<long long> values(m);
                for (std::size_t k = 0; k < m; ++k) values[k] = 5 * (long long)places[k] - 3;
                const sv::vector<std::uint32_t> dp(places);
                const sv::vector<long long> dv(values);
                sv::vector<long long> r(m, -1);
                const int shift = std::max(0, sv::detail::bits_for(sv::index_t(m)) - bits);
                d::scatter_by_windows(dp.data(), sv::detail::reader(dv), run_starts, bits, shift, sv::detail::writer(r),
                                      "test scatter");
                std::vector<long long> want(m);
                for (std::size_t t = 0; t < m; ++t) want[t] = 5 * (long long)t - 3;
                CHECK(r.to_host() == want);
            }
        }
    }
}

TEST_CASE("dist back_permute with another length and repeated indices") {
    for (std::size_t n : sizes) {
        for (std::size_t m : {std::size_t(0), std::size_t(1), std::size_t(6), std::size_t(2 * n + 1)}) {
            CAPTURE(n);
            CAPTURE(m);
            if (n == 0 && m > 0) continue;
            const auto a = random_values<float>(n, 1200 + n);
            const auto idx = random_values<int>(m, 1300 + m, 0, (long long)n - 1);
            std::vector<float> want(m);
            for (std::size_t i = 0; i < m; ++i) want[i] = a[std::size_t(idx[i])];
            auto b = sv::dist::back_permute(spread_out(a, spread::last_rank), spread_out(idx, spread::random, m));
            CHECK(gathered_equals(b, want));
        }
    }
}

TEST_CASE("dist permute of described structs") {
    for (spread s : spreads) {
        for (std::size_t n : sizes) {
            CAPTURE(name(s));
            CAPTURE(n);
            std::vector<particle> a(n);
            for (std::size_t i = 0; i < n; ++i) a[i] = {double(i) * 1.5, float(n - i), std::int16_t(i & 0x7fff)};
            const auto idx = random_permutation(n, 1400 + n);
            std::vector<particle> scattered(n), gathered(n);
            for (std::size_t i = 0; i < n; ++i) scattered[std::size_t(idx[i])] = a[i];
            for (std::size_t i = 0; i < n; ++i) gathered[i] = a[std::size_t(idx[i])];
            auto da = spread_out(a, s, n);
            auto di = spread_out(idx, s, n);
            CHECK(gathered_equals(sv::dist::permute(da, di), scattered));
            CHECK(gathered_equals(sv::dist::back_permute(da, di), gathered));
        }
    }
}

TEST_CASE("dist pack keeps elements on their ranks") {
    for (spread s : spreads) {
        for (std::size_t n : sizes) {
            for (double p : {0.0, 0.3, 1.0}) {
                CAPTURE(name(s));
                CAPTURE(n);
                CAPTURE(p);
                const auto a = random_values<int>(n, 1500 + n);
                const auto f = random_flags(n, p, 1600 + n);
                auto da = spread_out(a, s, n);
                auto r = sv::dist::pack(da, spread_out(f, s, n));
                std::vector<int> want;
                for (std::size_t i = 0; i < n; ++i)
                    if (f[i]) want.push_back(a[i]);
                CHECK(gathered_equals(r, want));
                CHECK(layout_consistent(r));
                // each rank keeps its own flagged elements
                const auto mine_a = my_block(a, block_sizes(n, ranks(), s, n));
                const auto mine_f = my_block(f, block_sizes(n, ranks(), s, n));
                CHECK(r.local().to_host() == sv::pack(sv::vector<int>(mine_a), sv::vector<bool>(mine_f)).to_host());
            }
        }
    }
}

TEST_CASE("dist split is stable") {
    for (spread s : spreads) {
        for (std::size_t n : sizes) {
            for (double p : {0.0, 0.5, 1.0}) {
                CAPTURE(name(s));
                CAPTURE(n);
                CAPTURE(p);
                const auto a = random_values<int>(n, 1700 + n, 0, 7);  // many equal keys
                const auto f = random_flags(n, p, 1800 + n);
                auto r = sv::dist::split(spread_out(a, s, n), spread_out(f, spread::even));
                const auto want = sv::split(sv::vector<int>(a), sv::vector<bool>(f)).to_host();  // the one-device split
                CHECK(gathered_equals(r, want));
                std::vector<particle> ps(n);
                for (std::size_t i = 0; i < n; ++i) ps[i] = {double(a[i]), float(i), std::int16_t(i % 77)};
                auto rp = sv::dist::split(spread_out(ps, s, n), spread_out(f, s, n));
                CHECK(gathered_equals(rp, sv::split(sv::vector<particle>(ps), sv::vector<bool>(f)).to_host()));
            }
        }
    }
}

// Over NCCL a message whose start on its rank is not a 16-byte boundary goes
// through an aligned temporary (exchange_nccl.hpp); here every message is
// staged (the smallest staged size lowered to one byte), and odd sizes and
// random blocks put most message starts off those boundaries, on both sides.
TEST_CASE("dist exchanges of messages that start off 16-byte boundaries") {
#if defined(SCANVEC_HAVE_NCCL)
    auto& smallest = sv::dist::detail::nccl_engine::stage_min_bytes();
    const std::size_t saved = smallest, staged_before = sv::dist::detail::nccl_engine::staged_messages();
    smallest = 1;
#endif
    for (std::size_t n : {std::size_t(1001), std::size_t(65539)}) {
        CAPTURE(n);
        const auto a = random_values<int>(n, 3100 + n);
        const auto idx = random_permutation(n, 3200 + n);
        const auto f = random_flags(n, 0.3, 3300 + n);
        std::vector<int> scattered(n), gathered(n);
        for (std::size_t i = 0; i < n; ++i) scattered[std::size_t(idx[i])] = a[i];
        for (std::size_t i = 0; i < n; ++i) gathered[i] = a[std::size_t(idx[i])];
        auto da = spread_out(a, spread::random, n);
        auto di = spread_out(idx, spread::random, n + 7);
        CHECK(gathered_equals(sv::dist::permute(da, di), scattered));
        CHECK(gathered_equals(sv::dist::back_permute(da, di), gathered));
        CHECK(gathered_equals(sv::dist::split(da, spread_out(f, spread::random, n + 9)),
                              sv::split(sv::vector<int>(a), sv::vector<bool>(f)).to_host()));
        std::vector<int> sorted = a;
        std::sort(sorted.begin(), sorted.end());
        CHECK(gathered_equals(sv::dist::radix_sort(da), sorted));
    }
#if defined(SCANVEC_HAVE_NCCL)
    smallest = saved;
    if (comm().uses_nccl() && ranks() > 1) CHECK(sv::dist::detail::nccl_engine::staged_messages() > staged_before);
#endif
}

// Bad input on one rank only: every rank throws the same error and nobody is
// left waiting; the next collective call meets on every rank.
TEST_CASE("dist permute with a bad index on one rank throws on every rank") {
    const std::size_t n = 23;
    const auto a = random_values<int>(n, 1900);
    for (spread s : spreads) {
        CAPTURE(name(s));
        auto da = spread_out(a, s);
        auto idx = random_permutation(n, 2000);
        auto out_of_range = idx;
        out_of_range[17] = 40;
        CHECK_THROWS_WITH_AS(sv::dist::permute(da, spread_out(out_of_range, s)),
                             "dist::permute: index idx[17] = 40 is out of range for length 23", sv::index_error);
        out_of_range[17] = -3;
        out_of_range[5] = 23;
        CHECK_THROWS_WITH_AS(sv::dist::permute(da, spread_out(out_of_range, spread::last_rank)),
                             "dist::permute: index idx[5] = 23 is out of range for length 23", sv::index_error);
        auto repeated = idx;
        const sv::index_t lost = repeated[3];
        repeated[3] = repeated[20];
        // one rank names only the value (more ranks cannot name both positions without another exchange)
        const std::string said = message_of<sv::index_error>([&] { sv::dist::permute(da, spread_out(repeated, s)); });
        CHECK(said.rfind("dist::permute: index " + std::to_string(repeated[20]) + " repeats in idx", 0) == 0);
        (void)lost;
        CHECK_THROWS_WITH_AS(sv::dist::back_permute(da, spread_out(std::vector<int>{0, 1, 2, 99, 4}, spread::last_rank)),
                             "dist::back_permute: index idx[3] = 99 is out of range for length 23", sv::index_error);
        CHECK(sv::dist::reduce(da) == std::accumulate(a.begin(), a.end(), 0));
    }
}
