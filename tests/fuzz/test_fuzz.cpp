// Differential fuzzing of whole vector-model programs.
//
// Each program is 3 to 20 random primitive calls over a small pool of live
// vectors (int, int64, float holding integers so that sums are exact, bool
// flags, a described struct (2x2 matrices mod 2^32), affine maps packed in a
// uint64) of sizes 0, 1, odd, 2^k - 1, 2^k, 2^k + 1 up to ~70000, with
// operators commutative or not. Every step runs through scanvec and through
// a plain sequential interpreter (std::vector and loops), and every result is
// compared before the next step uses it; at the end of a program every live
// input is compared again (a primitive must not change its inputs). Operands
// that a step needs at a given length (flags, indices, a second vector) are
// made by extra steps when the pool has none; those count as steps.
//
// The files (one executable; they compile in parallel, nvcc's build of them
// taking about as long as its slowest file): program.hpp declares the element
// types, the operators, the reference's pieces and the program class; each
// steps_*.cpp defines a family of steps and instantiates it for the six element
// types (map: generators, maps, flags; scans; segmented; nested; permutes: pack,
// split, permutes, writes; multisplit: multisplit, histogram; sorts); this
// file draws the steps and holds the test case.
//
// Environment:
//   SCANVEC_FUZZ_PROGRAMS=N  programs to run (default 1500; 1000 under SCANVEC_TEST_SMALL=1)
//   SCANVEC_FUZZ_SEED=S      seed of the first program (default 20261201); program i has seed S + i
//   SCANVEC_FUZZ_VERBOSE=1   print every step before it runs (for a crash: the last line is the culprit)
//   SCANVEC_FUZZ_DUMP=path   write a digest: one line "<seed> <step> <kind> <64-bit hash>" per step
//
// A mismatch prints the seed, the whole program, the step that differed and
// where; replay it with
//   SCANVEC_FUZZ_SEED=<seed> SCANVEC_FUZZ_PROGRAMS=1 SCANVEC_FUZZ_VERBOSE=1 ./tests/test_fuzz
//
// Comparing the backends: the programs depend on the seed only (each step's
// choices read the reference's values, never scanvec's), so the CUDA and host
// builds run the same programs and their digests must be identical. Integer
// and bool results are hashed by value, floats by their value printed with 9
// significant digits (-0 as 0), and sv::write's unspecified winners are
// canonicalised (an unwritten position hashes its value, a written one only a
// mark, once its value was checked to be among those sent there). Both runs
// need the same SCANVEC_FUZZ_PROGRAMS, SCANVEC_FUZZ_SEED and SCANVEC_TEST_SMALL
// (it changes the sizes). On the GPU machine, from the repository root,
//
//   bench/gpu.sh fuzz
//
// builds the cuda and host presets' test_fuzz side by side, runs
// FUZZ_PROGRAMS (default 100000) programs from FUZZ_SEED in shards of
// consecutive seeds (the host build in one-thread processes, the CUDA build in
// a few processes sharing the GPU), checks that every shard reports "0 failed"
// and passes, joins each side's digests in seed order and diffs them, in
// $OUT/fuzz.md; bench/fuzz-diff.sh does the running and lists its settings
// (shard counts, a time limit per shard). Without a GPU,
// FUZZ_CUDA_BIN=build/host/tests/test_fuzz bench/fuzz-diff.sh runs it with the
// host build on both sides. The first line that differs names the seed and
// the step to replay on each side.
//
// The same diff between OMP_NUM_THREADS=1 and the default compares the host
// backend with itself across thread counts.
#include "program.hpp"

namespace fuzz {

bool program::run() {
    const int calls = 3 + int(rng_() % 18);
    n_ = draw_size();
    try {
        for (int c = 0; c < calls; ++c) {
            const auto t0 = std::chrono::steady_clock::now();
            random_step();
            // the step's operands are as they were (a primitive must not write its inputs)
            for (auto& e : touched_) std::visit([&](auto& s) { expect_unchanged(e->name, s); }, e->v);
            touched_.clear();
            totals_.seconds[kind_] += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        }
        for (auto& e : pool_) std::visit([&](auto& s) { expect_unchanged(e->name, s); }, e->v);
    } catch (const mismatch& m) {
        return report(m.what());
    } catch (const std::exception& e) {
        return report(std::string("unexpected exception: ") + e.what());
    }
    return true;
}

void program::random_step() {
    const u64 r = below(100);
    if (r < 5) with_type([&](auto t) { generate<typename decltype(t)::type>(draw_size()); });
    else if (r < 19) map_step();
    else if (r < 33) with_type([&](auto t) { scan_step<typename decltype(t)::type>(); });
    else if (r < 45) with_type([&](auto t) { segmented_step<typename decltype(t)::type>(); });
    else if (r < 51) with_type([&](auto t) { nested_step<typename decltype(t)::type>(); });
    else if (r < 56) flag_step();
    else if (r < 65) with_type([&](auto t) { pack_split_step<typename decltype(t)::type>(); });
    else if (r < 74) with_type([&](auto t) { permute_step<typename decltype(t)::type>(); });
    else if (r < 83) with_type([&](auto t) { write_step<typename decltype(t)::type>(); });
    else if (r < 90) with_type([&](auto t) { multisplit_step<typename decltype(t)::type>(); });
    else sort_step();
}

}  // namespace fuzz

namespace {

std::uint64_t env_or(const char* name, std::uint64_t fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

}  // namespace

using fuzz::u64;

TEST_CASE("differential fuzzing: random vector-model programs against a sequential interpreter") {
    const bool small = test::small_sizes_only();
    const u64 programs = env_or("SCANVEC_FUZZ_PROGRAMS", small ? 1000 : 1500);
    const u64 base = env_or("SCANVEC_FUZZ_SEED", 20261201);
    const char* dump_path = std::getenv("SCANVEC_FUZZ_DUMP");
    const char* v = std::getenv("SCANVEC_FUZZ_VERBOSE");
    const bool verbose = v && std::string(v) == "1";
    std::unique_ptr<std::ofstream> dump;
    if (dump_path && *dump_path) {
        dump = std::make_unique<std::ofstream>(dump_path);
        REQUIRE_MESSAGE(dump->good(), "cannot write SCANVEC_FUZZ_DUMP=" << dump_path);
        *dump << "# scanvec fuzz digest: seeds " << base << ".." << base + programs - 1
              << (small ? " (SCANVEC_TEST_SMALL=1)" : "") << "\n";
    }
    fuzz::totals t;
    const auto t0 = std::chrono::steady_clock::now();
    for (u64 p = 0; p < programs; ++p) {
        fuzz::program prog(base + p, dump.get(), verbose, t);
        prog.run();
        t.programs++;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::ostringstream kinds;
    for (auto& [k, c] : t.kinds) kinds << " " << k << " " << c << ";";
    std::vector<std::pair<double, std::string>> slow;
    for (auto& [k, sec] : t.seconds) slow.emplace_back(sec, k);
    std::sort(slow.rbegin(), slow.rend());
    kinds << " slowest:";
    for (std::size_t i = 0; i < slow.size() && i < 6; ++i) kinds << " " << slow[i].second << " " << slow[i].first << " s;";
    MESSAGE("fuzz: " << t.programs << " programs (seeds " << base << ".." << base + programs - 1 << "), " << t.steps
                     << " steps, " << t.failures << " failed, " << seconds << " s; steps by kind:" << kinds.str());
    CHECK(t.failures == 0);
}
