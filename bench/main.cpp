// bench/main.cpp - scanvec_bench: every primitive and algorithm against what a
// user would pick instead and against a memcpy of the same bytes, in one run.
//
//   scanvec_bench [--out DIR] [--quick] [--sizes 16,20,24] [--growth 10,12,...|none]
//                 [--nested 26] [--keys64 24] [--only scan,sort,...]
//
// Writes DIR/bench.csv (one row per scanvec call and alternative), bench.md
// (targets first, then every row) and growth.csv (time per element of the
// int32 scans and sorts, 2^10 up). Sizes are powers of two given by their
// exponents. Exits 1 when a result was wrong or a call failed.
#include "harness.hpp"

#include <thrust/version.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#if !defined(SCANVEC_BACKEND_CUDA)
#  include <omp.h>
#endif

namespace bench {
namespace {

std::vector<std::size_t> powers(int from, int to, int step = 1) {
    std::vector<std::size_t> v;
    for (int k = from; k <= to; k += step) v.push_back(std::size_t(1) << k);
    return v;
}

std::vector<std::size_t> parse_sizes(const std::string& text) {
    std::vector<std::size_t> v;
    if (text == "none") return v;
    std::stringstream ss(text);
    for (std::string item; std::getline(ss, item, ',');) {
        const unsigned long long k = std::stoull(item);
        v.push_back(k < 48 ? std::size_t(1) << k : std::size_t(k));  // an exponent, or a length
    }
    return v;
}

std::string range_label(const std::vector<std::size_t>& v) {
    if (v.empty()) return "none";
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? " " : "") + size_label(v[i]);
    return s;
}

[[noreturn]] void usage(int rc) {
    std::puts(
        "scanvec_bench [--out DIR] [--quick] [--sizes 16,20,24,28] [--growth 10,12,...|none]\n"
        "              [--nested 26] [--keys64 24] [--only FAMILY,...]\n"
        "families: map scan reduce histogram segmented_scan permute back_permute split sort sortkeys sort64 quicksort nested write programs streams calls growth\n"
        "sizes are exponents of two (or lengths, when 48 or more)");
    std::exit(rc);
}

options parse(int argc, char** argv) {
    options o;
    o.out = SCANVEC_BENCH_RESULTS "/" + std::string(sv::backend_name());
    std::string sizes, growth, nested, keys64;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage(2);
            return argv[++i];
        };
        if (a == "--out") o.out = value();
        else if (a == "--quick") o.quick = true;
        else if (a == "--sizes") sizes = value();
        else if (a == "--growth") growth = value();
        else if (a == "--nested") nested = value();
        else if (a == "--keys64") keys64 = value();
        else if (a == "--only") {
            std::stringstream ss(value());
            for (std::string f; std::getline(ss, f, ',');) o.only.insert(f);
        } else if (a == "--help" || a == "-h") usage(0);
        else usage(2);
    }
    const bool gpu = std::string(sv::backend_name()) == "cuda";
    if (o.quick) {  // a smoke run: seconds
        o.sizes = powers(12, 16, 4);
        o.growth_sizes = powers(10, 16, 2);
        o.keys64_sizes = {std::size_t(1) << 12};
        o.nested_n = std::size_t(1) << 16;
        o.quicksort_max = std::size_t(1) << 16;
    } else if (gpu) {
        o.sizes = powers(16, 28, 4);
        o.growth_sizes = powers(10, 28, 2);
        o.keys64_sizes = {std::size_t(1) << 24};
        o.nested_n = std::size_t(1) << 26;
        o.quicksort_max = std::size_t(1) << 28;  // every sort size: quicksort's rounds grow with n
    } else {
        o.sizes = powers(16, 24, 4);
        o.growth_sizes = powers(10, 24, 2);
        o.keys64_sizes = {std::size_t(1) << 20};
        o.nested_n = std::size_t(1) << 24;
        o.quicksort_max = std::size_t(1) << 20;
    }
    if (!sizes.empty()) o.sizes = parse_sizes(sizes);
    if (!growth.empty()) o.growth_sizes = parse_sizes(growth);
    if (!keys64.empty()) o.keys64_sizes = parse_sizes(keys64);
    if (!nested.empty()) {
        auto v = parse_sizes(nested);
        o.nested_n = v.empty() ? 0 : v.front();
    }
    return o;
}

std::string utc_now() {
    std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

/// The first line of `path` that contains `key`, or "".
std::string line_with(const char* path, const std::string& key) {
    std::ifstream f(path);
    for (std::string line; std::getline(f, line);)
        if (line.find(key) != std::string::npos) return line;
    return "";
}

std::string version(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

environment describe(const options& o) {
    environment e;
    e.backend = sv::backend_name();
    e.date = utc_now();
    e.checks = std::to_string(SCANVEC_CHECKS);
    e.cccl = "CCCL " + std::to_string(THRUST_MAJOR_VERSION) + "." + std::to_string(THRUST_MINOR_VERSION) + "." +
             std::to_string(THRUST_SUBMINOR_VERSION);
#if defined(SCANVEC_BACKEND_CUDA)
    int dev = 0, drv = 0, rt = 0;
    cuda_check(cudaGetDevice(&dev), "cudaGetDevice");
    cudaDeviceProp p{};
    cuda_check(cudaGetDeviceProperties(&p, dev), "cudaGetDeviceProperties");
    cuda_check(cudaDriverGetVersion(&drv), "cudaDriverGetVersion");
    cuda_check(cudaRuntimeGetVersion(&rt), "cudaRuntimeGetVersion");
    e.device = std::string(p.name) + ", " + std::to_string(p.totalGlobalMem >> 30) + " GiB, " +
               std::to_string(p.multiProcessorCount) + " SMs, L2 " + std::to_string(p.l2CacheSize >> 20) + " MiB";
    e.l2_bytes = std::size_t(p.l2CacheSize);
    std::string kernel = line_with("/proc/driver/nvidia/version", "Kernel Module");
    if (auto at = kernel.find("Kernel Module"); at != std::string::npos) {
        // "... Kernel Module [for x86_64]  580.159.04  Release Build ...": the first number
        std::stringstream ss(kernel.substr(at + 13));
        std::string word;
        kernel.clear();
        while (ss >> word)
            if (std::isdigit(static_cast<unsigned char>(word[0]))) { kernel = word; break; }
    }
    e.driver = (kernel.empty() ? std::string("") : kernel + ", ") + "CUDA driver API " + version(drv);
    e.runtime = "CUDA runtime " + version(rt);
    e.memcpy = "cudaMemcpyAsync device to device of the operand's bytes";
    e.timing = "CUDA events per call, L2 flushed and device synchronised before each, median of 5-50 calls after 3";
#else
    std::string cpu = line_with("/proc/cpuinfo", "model name");
    if (auto at = cpu.find(':'); at != std::string::npos) cpu = cpu.substr(at + 2);
    e.device = (cpu.empty() ? std::string("CPU") : cpu) + ", " + std::to_string(omp_get_max_threads()) + " OpenMP threads";
    e.driver = "none";
    e.runtime = std::string("g++ ") + __VERSION__;
    e.memcpy = "std::memcpy (one thread) of the operand's bytes";
    e.timing = "steady_clock per call, median of 3-30 calls after 2";
#endif
    e.sizes = "table " + range_label(o.sizes) + "; growth " + range_label(o.growth_sizes) + "; nested " +
              (o.nested_n ? size_label(o.nested_n) : "none") + "; 64-bit keys " + range_label(o.keys64_sizes) +
              "; quicksort up to " + size_label(o.quicksort_max) + "; programs " + range_label(program_sizes(o));
    return e;
}

void save(const suite& s) {
    std::filesystem::create_directories(s.opt.out);
    write_rows_csv(s.opt.out + "/bench.csv", s.env, s.rows);
    write_growth_csv(s.opt.out + "/growth.csv", s.env, s.log);
    std::ofstream(s.opt.out + "/bench.md") << markdown(s.env, s.rows);
}

/// Runs one family at one size; a failure (say, out of memory) is reported and the run goes on.
int run(const char* family, std::size_t n, const std::function<void()>& body) {
    int failed = 0;
    try {
        body();
    } catch (const std::exception& e) {
        std::printf("  !! %s n=%zu failed: %s\n", family, n, e.what());
        failed = 1;
    }
    try { sync(); } catch (...) { failed = 1; }
    sv::runtime::memory().trim();  // the next configuration starts with the device memory free
    return failed;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) try {
    using namespace bench;
    options opt = parse(argc, argv);
    suite s(opt, describe(opt));
    std::printf("scanvec_bench: %s backend on %s\n  %s\n  %s\n  output: %s\n", s.env.backend.c_str(),
                s.env.device.c_str(), s.env.driver.c_str(), s.env.sizes.c_str(), opt.out.c_str());

    using family_fn = void (*)(suite&, std::size_t);
    const std::pair<const char*, family_fn> table[] = {
        {"map", bench_map},
        {"scan", [](suite& x, std::size_t n) { bench_scan(x, n, false); }},
        {"reduce", bench_reduce},
        {"histogram", bench_histogram},
        {"segmented_scan", bench_segmented_scan},
        {"permute", bench_permute},
        {"back_permute", bench_back_permute},
        {"split", bench_split},
        {"sort", bench_sort},
        {"sortkeys", bench_sort_keys},
    };
    int failures = 0;
    for (auto& [name, fn] : table) {
        if (!opt.wants(name)) continue;
        for (std::size_t n : opt.sizes) failures += run(name, n, [&, fn = fn] { fn(s, n); });
        save(s);
    }
    if (opt.wants("sort64")) {
        for (std::size_t n : opt.keys64_sizes) failures += run("sort64", n, [&] { bench_sort64(s, n); });
        save(s);
    }
    if (opt.wants("quicksort")) {  // at the 64-bit keys' sizes: the uint64 row is one of them
        for (std::size_t n : opt.keys64_sizes) failures += run("quicksort", n, [&] { bench_quicksort_inputs(s, n); });
        save(s);
    }
    if (opt.wants("nested") && opt.nested_n) {
        failures += run("nested", opt.nested_n, [&] { bench_nested(s, opt.nested_n); });
        save(s);
    }
    if (opt.wants("write")) {  // the table's sizes up to 2^24
        for (std::size_t n : opt.sizes)
            if (n <= (std::size_t(1) << 24)) failures += run("write", n, [&] { bench_write(s, n); });
        save(s);
    }
    if (opt.wants("programs")) {
        for (std::size_t n : program_sizes(opt)) failures += run("programs", n, [&] { bench_programs(s, n); });
        save(s);
    }
    if (opt.wants("streams")) {  // small programs, where a second stream has room on the GPU
        for (std::size_t n : {std::size_t(1) << 16, std::size_t(1) << 20})
            failures += run("streams", n, [&] { bench_streams(s, n); });
        save(s);
    }
    if (opt.wants("calls")) {  // many small calls: a BFS over a path, the host cost of one call
        failures += run("calls", 20000, [&] { bench_calls(s); });
        save(s);
    }
    // The cost-growth view: the int32 scan and sorts at every growth size (time per element in growth.csv).
    s.emit_rows = false;
    for (std::size_t n : opt.growth_sizes) {
        if ((opt.wants("scan") || opt.wants("growth")) && !s.measured("scan", n))
            failures += run("scan", n, [&] { bench_scan(s, n, true); });
        if ((opt.wants("sort") || opt.wants("growth")) && !s.measured("sort", n))
            failures += run("sort", n, [&] { bench_sort(s, n); });
    }
    save(s);

    for (auto& r : s.rows) failures += r.check != "ok";
    const std::string md = markdown(s.env, s.rows);
    std::printf("\n%s\nwritten: %s/{bench.md,bench.csv,growth.csv}%s\n", md.c_str(), opt.out.c_str(),
                failures ? "; SOME RESULTS WERE WRONG OR FAILED" : "");
    return failures ? 1 : 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "scanvec_bench: %s\n", e.what());
    return 2;
}
