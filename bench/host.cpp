// bench/host.cpp - scanvec_host_bench: the host backend against ParlayLib and sequential loops.
//
//   scanvec_host_bench [--out DIR] [--n 24] [--quick]
//
// The host backend's goals (issue 23) are ratios on one machine, the same
// number of threads for both libraries (OMP_NUM_THREADS, PARLAY_NUM_THREADS):
// split, the radix sort and quicksort against ParlayLib's stable split,
// parlay::integer_sort and parlay::sort; checked permute against a sequential
// loop; the nested scan of power-law segments against the flat scan. Scan and
// pack are shown beside ParlayLib's for information. ParlayLib is optional:
// configured with -DSCANVEC_PARLAYLIB_DIR=<its source tree> the parlay rows
// are built (SCANVEC_BENCH_PARLAY); without it they are absent and the goals
// that need them read "not run". Timing as scanvec_bench (bench/harness.hpp):
// wall time per call, median of 7 after warm-ups, each result checked once.
// Writes DIR/parlay.md (goals, then every row) and DIR/parlay.csv.
#include "harness.hpp"
#include "rows.hpp"

#include <scanvec/algorithms/quicksort.hpp>
#include <scanvec/algorithms/radix_sort.hpp>
#include <scanvec/primitives/enumerate_pack.hpp>
#include <scanvec/primitives/nested.hpp>
#include <scanvec/primitives/permute.hpp>
#include <scanvec/primitives/scan.hpp>
#include <scanvec/primitives/split.hpp>

#include <thrust/version.h>

#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <omp.h>

#if defined(SCANVEC_BENCH_PARLAY)
#  include <parlay/delayed.h>
#  include <parlay/primitives.h>
#  include <parlay/sequence.h>
#endif

namespace bench {
namespace {

struct low_bit {
    template <class K> SCANVEC_HD bool operator()(const K& k) const { return (k & 1) != 0; }
};

/// Copies src into dst (an in-place alternative's input, restored before each call; not timed).
template <class K> void restore(sv::vector<K>& dst, const sv::vector<K>& src) {
    std::memcpy(dst.data(), src.data(), src.size() * sizeof(K));
}

template <class T> std::string same_as(const sv::vector<T>& got, const T* want, std::size_t n) {
    if (got.size() != n) return "length " + std::to_string(got.size()) + ", want " + std::to_string(n);
    for (std::size_t i = 0; i < n; ++i)
        if (!(got[i] == want[i])) return "at " + std::to_string(i) + ": " + show(got[i]) + ", want " + show(want[i]);
    return "";
}

#if defined(SCANVEC_BENCH_PARLAY)
template <class T> parlay::sequence<T> to_parlay(const sv::vector<T>& v) {
    return parlay::sequence<T>(v.data(), v.data() + v.size());
}
#endif

/// Power-law segment lengths summing to n, as scanvec_bench's nested rows:
/// Pareto P(L >= x) = x^-1.1, at most 2^20 (mean about 10).
std::vector<sv::index_t> power_law_lengths(std::size_t n) {
    std::vector<sv::index_t> len;
    std::mt19937_64 gen(5);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const double cap = double(std::min<std::size_t>(n, std::size_t(1) << 20));
    for (std::size_t total = 0; total < n;) {
        const double x = std::min(cap, std::floor(std::pow(1.0 - u(gen), -1.0 / 1.1)));
        const std::size_t l = std::min(n - total, std::size_t(x));
        len.push_back(sv::index_t(l));
        total += l;
    }
    return len;
}

void host_scan_pack(suite& s, std::size_t n) {
    const auto a = small_values<int>(n);
    sv::vector<int> ref(n, sv::no_init);
    {
        config c(s, "scan", "values 0..7", "int32", n);
        c.bytes(2.0 * n * sizeof(int), n * sizeof(int));
        c.alternative("sequential loop", "loop", [&] {
            int sum = 0;
            for (std::size_t i = 0; i < n; ++i) ref.data()[i] = sum, sum += a.data()[i];
        });
#if defined(SCANVEC_BENCH_PARLAY)
        const auto pa = to_parlay(a);
        c.alternative("parlay::scan", "parlay", [&] { auto r = parlay::scan(pa); });
#endif
        c.scanvec_call("sv::scan", [&](std::string&) { return same(sv::scan(a), ref); }, [&] { auto r = sv::scan(a); });
        c.finish();
    }
    {
        const auto flags = sv::lazy::map(low_bit{}, a);
        std::vector<int> want;
        for (std::size_t i = 0; i < n; ++i)
            if (a[i] & 1) want.push_back(a[i]);
        config c(s, "pack", "values 0..7 on bit 0", "int32", n);
        c.bytes(1.5 * n * sizeof(int), n * sizeof(int));
#if defined(SCANVEC_BENCH_PARLAY)
        const auto pa = to_parlay(a);
        const auto pf = parlay::delayed_tabulate(n, [&](std::size_t i) { return (pa[i] & 1) != 0; });
        c.alternative("parlay::pack", "parlay", [&] { auto r = parlay::pack(pa, pf); });
#endif
        c.scanvec_call("sv::pack", [&](std::string&) { return same_as(sv::pack(a, flags), want.data(), want.size()); },
                       [&] { auto r = sv::pack(a, flags); });
        c.finish();
    }
}

void host_split(suite& s, std::size_t n) {
    const auto keys = random_keys<int>(n);
    const auto flags = sv::lazy::map(low_bit{}, keys);
    sv::vector<int> ref(n, sv::no_init);
    config c(s, "split", "random keys on bit 0", "int32", n);
    c.bytes(2.0 * n * sizeof(int), n * sizeof(int));
    c.alternative("sequential loop (count, then place)", "loop", [&] {
        const int* in = keys.data();
        int* o = ref.data();
        std::size_t falses = 0;
        for (std::size_t i = 0; i < n; ++i) falses += !(in[i] & 1);
        std::size_t down = 0, up = falses;
        for (std::size_t i = 0; i < n; ++i) ((in[i] & 1) ? o[up++] : o[down++]) = in[i];
    });
#if defined(SCANVEC_BENCH_PARLAY)
    const auto pk = to_parlay(keys);
    const auto pf = parlay::delayed_tabulate(n, [&](std::size_t i) { return (pk[i] & 1) != 0; });
    c.alternative("parlay::internal::split_two (stable, one pass after a count)", "parlay",
                  [&] { auto r = parlay::internal::split_two(pk, pf); });
#endif
    c.scanvec_call("sv::split", [&](std::string&) { return same(sv::split(keys, flags), ref); },
                   [&] { auto r = sv::split(keys, flags); });
    c.finish();
}

template <class K> void host_sorts(suite& s, std::size_t n, bool radix, bool quick) {
    const auto keys = random_keys<K>(n);
    sv::vector<K> work(n, sv::no_init);
    config c(s, "sort", "random keys", type_name<K>(), n);
    c.keys(n * sizeof(K));
    c.alternative("std::sort (one thread)", "std::sort", [&] { std::sort(work.data(), work.data() + n); },
                  [&] { restore(work, keys); });
#if defined(SCANVEC_BENCH_PARLAY)
    const auto pk = to_parlay(keys);
    if constexpr (std::is_unsigned_v<K>)
        if (radix) c.alternative("parlay::integer_sort", "parlay integer_sort", [&] { auto r = parlay::integer_sort(pk); });
    if (quick) c.alternative("parlay::sort", "parlay sort", [&] { auto r = parlay::sort(pk); });
#endif
    if (radix)
        c.scanvec_call("sv::radix_sort",
                       [&](std::string& note) {
                           sv::trace t;
                           auto r = sv::radix_sort(keys);
                           note = steps_note(t);
                           return same(r, work);
                       },
                       [&] { auto r = sv::radix_sort(keys); });
    if (quick)
        c.scanvec_call("sv::quicksort",
                       [&](std::string& note) {
                           int rounds = 0;
                           auto r = sv::quicksort(keys, &rounds);
                           note = "rounds " + std::to_string(rounds);
                           return same(r, work);
                       },
                       [&] { auto r = sv::quicksort(keys); });
    c.finish();
}

void host_permute(suite& s, std::size_t n) {
    const auto a = small_values<int>(n);
    const auto idx = random_permutation(n);
    sv::vector<int> ref(n, sv::no_init);
    config c(s, "permute", "random permutation", "int32", n);
    c.bytes(3.0 * n * sizeof(int), n * sizeof(int));
    c.alternative("sequential loop", "loop", [&] { scatter_loop(a, idx, ref); });
#if defined(SCANVEC_BENCH_PARLAY)
    const auto pa = to_parlay(a);
    const auto pi = to_parlay(idx);
    parlay::sequence<int> out(n);
    c.alternative("parlay::parallel_for scatter (unchecked)", "parlay scatter",
                  [&] { parlay::parallel_for(0, n, [&](std::size_t i) { out[pi[i]] = pa[i]; }); });
#endif
    permute_rows(c, a, idx, ref);
    c.finish();
}

void host_nested(suite& s, std::size_t n) {
    const auto a = small_values<int>(n);
    const auto len = power_law_lengths(n);
    std::vector<int> want(n);
    scan_by_lengths(len, a.data(), want.data());
    const sv::segments segs = sv::segments::from_lengths(len);
    config c(s, "nested", "power-law", "int32", n);
    c.bytes(2.0 * n * sizeof(int), n * sizeof(int));
    c.alternative("sv::scan (flat, the same elements)", "flat sv::scan", [&] { auto r = sv::scan(a); });
    sv::vector<int> out(n, sv::no_init);
    c.alternative("sequential loop", "loop", [&] { scan_by_lengths(len, a.data(), out.data()); });
    c.scanvec_call("sv::scan(a, segments)", [&](std::string&) { return same_as(sv::scan(a, segs), want.data(), n); },
                   [&] { auto r = sv::scan(a, segs); });
    c.finish();
}

// ---- the report ----------------------------------------------------------------

struct goal {
    const char* label;
    const char* family;
    const char* impl;
    const char* versus;  // the alternative's short name
    double at_most;      // 0: for information
};

const goal goals[] = {
    {"scan / parlay::scan", "scan", "sv::scan", "parlay", 0},
    {"pack / parlay::pack", "pack", "sv::pack", "parlay", 0},
    {"split / parlay split_two", "split", "sv::split", "parlay", 1.2},
    {"radix_sort / parlay::integer_sort", "sort", "sv::radix_sort", "parlay integer_sort", 1.5},
    {"quicksort / parlay::sort", "sort", "sv::quicksort", "parlay sort", 3},
    {"checked permute / loop", "permute", "sv::permute", "loop", 1.5},
    {"nested power-law scan / flat scan", "nested", "sv::scan(a, segments)", "flat sv::scan", 2},
    {"split / loop", "split", "sv::split", "loop", 0},
    {"radix_sort / std::sort", "sort", "sv::radix_sort", "std::sort", 0},
    {"quicksort / std::sort", "sort", "sv::quicksort", "std::sort", 0},
    {"permute unchecked / loop", "permute", "sv::permute unchecked", "loop", 0},
};

std::string fixed(double v, int digits) {
    if (std::isnan(v)) return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string report(const suite& s, bool parlay) {
    std::ostringstream md;
    md << "## scanvec host backend against ParlayLib and sequential loops\n\n";
    md << "- device: " << s.env.device << "; ParlayLib: " << (parlay ? "PARLAY_NUM_THREADS threads" : "not built")
       << "\n";
    md << "- compiler: " << s.env.runtime << "; " << s.env.cccl << "; SCANVEC_CHECKS=" << s.env.checks << "\n";
    md << "- date: " << s.env.date << "; " << s.env.sizes << "\n";
    md << "- timing: " << s.env.timing << "\n\n";
    md << "### Goals (issue 23: scanvec time / the other's time, at most)\n\n";
    md << "| ratio | n | scanvec ms | other ms | ratio | goal | |\n|---|---|---|---|---|---|---|\n";
    for (const goal& g : goals) {
        const row* hit = nullptr;
        for (auto& r : s.rows)
            if (r.family == g.family && r.impl == g.impl && r.alt_short == g.versus) hit = &r;
        if (!hit) {
            md << "| " << g.label << " | | | | not run | " << (g.at_most > 0 ? fixed(g.at_most, 1) : "") << " | |\n";
            continue;
        }
        const double v = hit->ratio_alt();
        const std::string verdict = hit->check != "ok" ? "WRONG" : g.at_most <= 0 ? "-" : v <= g.at_most ? "ok" : "MISS";
        md << "| " << g.label << " | " << size_label(hit->n) << " | " << fixed(hit->sv.median_ms, 2) << " | "
           << fixed(hit->alt_t.median_ms, 2) << " | " << fixed(v, 2) << " | "
           << (g.at_most > 0 ? fixed(g.at_most, 1) : "") << " | " << verdict
           << (hit->note.empty() ? "" : " (" + hit->note + ")") << " |\n";
    }
    md << "\n### All rows (ms: median)\n\n| op | input | type | n | scanvec ms | vs | alt ms | ratio | check |\n"
          "|---|---|---|---|---|---|---|---|---|\n";
    for (auto& r : s.rows)
        md << "| " << r.impl << " | " << r.input << " | " << r.type << " | " << size_label(r.n) << " | "
           << fixed(r.sv.median_ms, 3) << " | " << r.alt << " | " << fixed(r.alt_t.median_ms, 3) << " | "
           << fixed(r.ratio_alt(), 2) << " | " << r.check << " |\n";
    return md.str();
}

std::string utc_now() {
    std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) try {
    using namespace bench;
    options o;
    o.out = SCANVEC_BENCH_RESULTS "/host";
    int log2n = 24;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--out" && i + 1 < argc) o.out = argv[++i];
        else if (a == "--n" && i + 1 < argc) log2n = std::stoi(argv[++i]);
        else if (a == "--quick") o.quick = true, log2n = 16;
        else if (a == "--only" && i + 1 < argc) {
            std::stringstream ss(argv[++i]);
            for (std::string f; std::getline(ss, f, ',');) o.only.insert(f);
        } else {
            std::puts("scanvec_host_bench [--out DIR] [--n LOG2] [--quick] [--only scan,split,sort,permute,nested]");
            return a == "--help" || a == "-h" ? 0 : 2;
        }
    }
    const std::size_t n = std::size_t(1) << log2n;
#if defined(SCANVEC_BENCH_PARLAY)
    const bool parlay = true;
    const std::string parlay_threads = std::to_string(parlay::num_workers());
#else
    const bool parlay = false;
    const std::string parlay_threads = "-";
#endif
    environment e;
    e.backend = "host";
    e.date = utc_now();
    e.checks = std::to_string(SCANVEC_CHECKS);
    e.cccl = "CCCL " + std::to_string(THRUST_MAJOR_VERSION) + "." + std::to_string(THRUST_MINOR_VERSION) + "." +
             std::to_string(THRUST_SUBMINOR_VERSION);
    std::string cpu = "CPU";
    {
        std::ifstream f("/proc/cpuinfo");
        for (std::string line; std::getline(f, line);)
            if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
                cpu = line.substr(line.find(':') + 2);
                break;
            }
    }
    e.device = cpu + ", " + std::to_string(omp_get_max_threads()) + " OpenMP threads, ParlayLib workers " + parlay_threads;
    e.runtime = std::string("g++ ") + __VERSION__;
    e.timing = "steady_clock per call, median of 3-7 calls after 2 warm-ups";
    e.sizes = "n = " + size_label(n) + " (int32 keys, uint32 for the radix sort)";
    suite s(o, e);
    std::printf("scanvec_host_bench: %s, n = %s\n", e.device.c_str(), size_label(n).c_str());
    if (o.wants("scan")) host_scan_pack(s, n);
    if (o.wants("split")) host_split(s, n);
    if (o.wants("sort")) {
        host_sorts<std::uint32_t>(s, n, true, false);
        host_sorts<int>(s, n, false, true);
    }
    if (o.wants("permute")) host_permute(s, n);
    if (o.wants("nested")) host_nested(s, n);
    std::filesystem::create_directories(o.out);
    write_rows_csv(o.out + "/parlay.csv", s.env, s.rows);
    const std::string md = report(s, parlay);
    std::ofstream(o.out + "/parlay.md") << md;
    std::printf("\n%s\nwritten: %s/parlay.{md,csv}\n", md.c_str(), o.out.c_str());
    int failures = 0;
    for (auto& r : s.rows) failures += r.check != "ok";
    return failures ? 1 : 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "scanvec_host_bench: %s\n", e.what());
    return 2;
}
