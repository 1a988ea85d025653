// Randomized differential test: each round draws a primitive, an operator, a
// size (0 and 1 included) and a flag density, runs it on scanvec and on a
// sequential reference, and compares. Every round prints its seed on failure;
// reproduce one with
//     SCANVEC_SEED=<seed> SCANVEC_ROUNDS=1 ./tests/test_property
// SCANVEC_ROUNDS sets the number of rounds (default 300).
#include "support.hpp"
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/segmented_scan.hpp>
#include <scanvec/primitives/split.hpp>

#include <cstdlib>
#include <functional>
#include <iostream>

namespace {

using ref_op = std::function<long long(long long, long long)>;

struct op_case {
    const char* name;
    ref_op ref;
    long long id;
};

const op_case ops[] = {
    {"plus", [](long long a, long long b) { return a + b; }, 0},
    {"max", [](long long a, long long b) { return std::max(a, b); }, std::numeric_limits<long long>::lowest()},
    {"min", [](long long a, long long b) { return std::min(a, b); }, std::numeric_limits<long long>::max()},
    {"bit_xor", [](long long a, long long b) { return a ^ b; }, 0},
};

template <class F> auto with_op(int which, F&& f) {
    switch (which) {
        case 0: return f(sv::plus<long long>{});
        case 1: return f(sv::max<long long>{});
        case 2: return f(sv::min<long long>{});
        default: return f(sv::bit_xor<long long>{});
    }
}

const char* primitives[] = {"scan", "inclusive_scan", "reduce", "segmented_scan", "segmented_inclusive_scan",
                            "segmented_reduce", "backward_scan", "enumerate", "pack", "split",
                            "permute", "back_permute", "segmented_split"};

std::vector<long long> sequential_reference(int prim, const op_case& op, const std::vector<long long>& a,
                                 const std::vector<bool>& f, const std::vector<long long>& perm) {
    const std::size_t n = a.size();
    std::vector<long long> r;
    auto head = [&](std::size_t i) { return i == 0 || f[i]; };
    switch (prim) {
        case 0: { long long acc = op.id; for (auto x : a) { r.push_back(acc); acc = op.ref(acc, x); } break; }
        case 1: { long long acc = op.id; for (auto x : a) { acc = op.ref(acc, x); r.push_back(acc); } break; }
        case 2: { long long acc = op.id; for (auto x : a) acc = op.ref(acc, x); r.push_back(acc); break; }
        case 3: { long long acc = op.id; for (std::size_t i = 0; i < n; ++i) { if (head(i)) acc = op.id; r.push_back(acc); acc = op.ref(acc, a[i]); } break; }
        case 4: { long long acc = op.id; for (std::size_t i = 0; i < n; ++i) { if (head(i)) acc = op.id; acc = op.ref(acc, a[i]); r.push_back(acc); } break; }
        case 5: { long long acc = op.id; for (std::size_t i = 0; i < n; ++i) { if (head(i)) acc = op.id; acc = op.ref(acc, a[i]); if (i + 1 == n || head(i + 1)) r.push_back(acc); } break; }
        case 6: { r.resize(n); long long acc = op.id; for (std::size_t k = n; k-- > 0;) { r[k] = acc; acc = op.ref(a[k], acc); } break; }
        case 7: { long long c = 0; for (std::size_t i = 0; i < n; ++i) { r.push_back(c); c += f[i]; } break; }
        case 8: { for (std::size_t i = 0; i < n; ++i) if (f[i]) r.push_back(a[i]); break; }
        case 9: { for (int pass = 0; pass < 2; ++pass) for (std::size_t i = 0; i < n; ++i) if (f[i] == bool(pass)) r.push_back(a[i]); break; }
        case 10: { r.resize(n); for (std::size_t i = 0; i < n; ++i) r[perm[i]] = a[i]; break; }
        case 11: { for (std::size_t i = 0; i < n; ++i) r.push_back(a[perm[i]]); break; }
        default: {  // segmented split on the parity of a, segments by f
            std::size_t s = 0;
            for (std::size_t i = 1; i <= n; ++i)
                if (i == n || head(i)) {
                    for (int pass = 0; pass < 2; ++pass)
                        for (std::size_t k = s; k < i; ++k) if ((a[k] & 1) == pass) r.push_back(a[k]);
                    s = i;
                }
        }
    }
    return r;
}

struct is_odd {  // a functor: nvcc allows no device lambda inside the generic lambda below
    SCANVEC_HD bool operator()(long long x) const { return (x & 1) == 1; }
};

std::vector<long long> run(int prim, int op_index, const sv::vector<long long>& a, const sv::vector<bool>& f,
                           const sv::vector<long long>& perm) {
    return with_op(op_index, [&](auto op) -> std::vector<long long> {
        switch (prim) {
            case 0: return sv::scan(a, op).to_host();
            case 1: return sv::inclusive_scan(a, op).to_host();
            case 2: return {sv::reduce(a, op)};
            case 3: return sv::segmented_scan(a, f, op).to_host();
            case 4: return sv::segmented_inclusive_scan(a, f, op).to_host();
            case 5: return sv::segmented_reduce(a, f, op).to_host();
            case 6: return sv::backward_scan(a, op).to_host();
            case 7: return sv::enumerate(f).to_host<long long>();
            case 8: return sv::pack(a, f).to_host();
            case 9: return sv::split(a, f).to_host();
            case 10: return sv::permute(a, perm).to_host();
            case 11: return sv::back_permute(a, perm).to_host();
            default: {
                auto odd = sv::lazy::map(is_odd{}, a);
                return sv::segmented_split(a, odd, f).to_host();
            }
        }
    });
}

std::uint64_t env_or(const char* name, std::uint64_t fallback) {
    const char* v = std::getenv(name);
    return v ? std::strtoull(v, nullptr, 10) : fallback;
}

}  // namespace

TEST_CASE("randomized differential rounds against sequential references") {
    const std::uint64_t rounds = env_or("SCANVEC_ROUNDS", 300);
    const std::uint64_t base = env_or("SCANVEC_SEED", 20261122);
    const std::size_t nprims = sizeof(primitives) / sizeof(primitives[0]);
    int failures = 0;
    for (std::uint64_t r = 0; r < rounds; ++r) {
        const std::uint64_t seed = base + r;
        std::mt19937_64 rng(seed);
        const int prim = int(rng() % nprims);
        const int op = int(rng() % 4);
        const std::size_t sizes[] = {0, 1, 2, 7, 33, 1000, 4099, 70001};
        const std::size_t n = sizes[rng() % 8] + (rng() % 2 ? rng() % 17 : 0);
        const double density = std::array<double, 4>{0.0, 0.01, 0.5, 1.0}[rng() % 4];
        std::vector<long long> h(n);
        std::vector<bool> f(n);
        std::vector<long long> perm(n);
        std::bernoulli_distribution flag(density);
        for (std::size_t i = 0; i < n; ++i) { h[i] = (long long)(rng() % 2001) - 1000; f[i] = flag(rng); perm[i] = i; }
        std::shuffle(perm.begin(), perm.end(), rng);
        auto got = run(prim, op, sv::vector<long long>(h), sv::vector<bool>(f), sv::vector<long long>(perm));
        auto want = sequential_reference(prim, ops[op], h, f, perm);
        if (got != want) {
            ++failures;
            std::cerr << "property: FAILED seed " << seed << " (" << primitives[prim] << ", op " << ops[op].name
                      << ", n " << n << ", density " << density << "); reproduce with SCANVEC_SEED=" << seed
                      << " SCANVEC_ROUNDS=1\n";
        }
    }
    CHECK(failures == 0);
}
