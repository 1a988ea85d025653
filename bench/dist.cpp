// bench/dist.cpp - the distributed layer on 1..P ranks (one GPU each on CUDA).
//
//     mpirun -np P scanvec_dist_bench [--sizes 28,30] [--reps 5] [--csv file] [--only permute,sort]
//
// Times scan, reduce, segmented scan, permute and back_permute (an affine
// permutation: every rank sends to every rank), write (the same targets) and
// combining_write (+, random targets with repeats), split, the distributed
// sort and quicksort of int32 keys at
// each global size 2^k, every rank between two barriers, the median of the
// repetitions. Beside them, in the same run: the engine's own all-to-all of
// the same bytes (NCCL's grouped ncclSend/ncclRecv on NCCL builds, else
// MPI_Alltoall), and with one rank on CUDA the one-GPU references (CUB's scan,
// reduce and radix sort of the whole vector, and sv::scan and sv::radix_sort
// without the distributed layer). Rank 0 prints a table and
// appends CSV rows (bench/dist_report.py turns several runs into the scaling
// table). Strong scaling: the same sizes on several rank counts; weak: size
// 2^k on 1 rank against 2^(k+1) on 2, and so on.
#include "harness.hpp"

#include <scanvec/dist.hpp>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <cub/device/device_radix_sort.cuh>
#  include <cub/device/device_reduce.cuh>
#  include <cub/device/device_scan.cuh>
#endif

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace sv = scanvec;
namespace dist = sv::dist;

/// Destination of element i in an affine permutation of n: (a i + b) mod n, a
/// prime not dividing n (a bijection); consecutive elements go far apart.
struct affine_target {
    std::int64_t n, a, b;
    SCANVEC_HD std::int64_t operator()(std::int64_t i) const { return (a * i + b) % n; }
};

/// A target in 0..n-1 drawn at random for each position (repeats: a combining write's load).
struct random_target {
    std::int64_t n;
    std::uint64_t seed;
    SCANVEC_HD std::int64_t operator()(std::int64_t i) const { return std::int64_t(bench::mix64(std::uint64_t(i) + seed) % std::uint64_t(n)); }
};

struct odd_bit {
    SCANVEC_HD bool operator()(int k) const { return (k >> 7) & 1; }
};

struct options {
    std::vector<int> log_sizes{28, 30};
    int reps = 5;
    std::string csv;
    std::vector<std::string> only;  // the calls to time (empty: all)
    bool wants(const char* op) const { return only.empty() || std::find(only.begin(), only.end(), op) != only.end(); }
};

options parse(int argc, char** argv) {
    options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::runtime_error(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--sizes") {
            o.log_sizes.clear();
            std::stringstream ss(value());
            for (std::string part; std::getline(ss, part, ',');) o.log_sizes.push_back(std::stoi(part));
        } else if (arg == "--reps") o.reps = std::stoi(value());
        else if (arg == "--csv") o.csv = value();
        else if (arg == "--only") {
            std::stringstream ss(value());
            for (std::string part; std::getline(ss, part, ',');) o.only.push_back(part);
        } else throw std::runtime_error("unknown argument " + arg + " (--sizes 28,30 --reps 5 --csv file --only permute,sort)");
    }
    return o;
}

/// The median over reps of the slowest rank's time for f (barriers around
/// each repetition; one warm-up first).
template <class F> double median_ms(const options& o, F&& f) {
    std::vector<double> times;
    for (int r = -1; r < o.reps; ++r) {
        bench::sync();
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        f();
        bench::sync();
        MPI_Barrier(MPI_COMM_WORLD);
        if (r >= 0) times.push_back((MPI_Wtime() - t0) * 1e3);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

struct row {
    std::string op, engine;
    int ranks;
    std::size_t n;
    double ms;
};

/// The engine's own all-to-all of `bytes_per_rank` bytes from every rank (an
/// even share to each peer): what the element exchanges are bounded by.
double raw_all_to_all_ms(const options& o, const dist::communicator& comm, std::size_t bytes_per_rank) {
    const int p = comm.size();
    const std::size_t share = bytes_per_rank / std::size_t(p);
    sv::vector<unsigned char> send(share * std::size_t(p), sv::no_init), recv(share * std::size_t(p), sv::no_init);
#if defined(SCANVEC_HAVE_NCCL)
    if (comm.uses_nccl())
        return median_ms(o, [&] {
            ncclGroupStart();
            for (int r = 0; r < p; ++r) {
                ncclSend(send.data() + share * std::size_t(r), share, ncclChar, r, comm.nccl(), nullptr);
                ncclRecv(recv.data() + share * std::size_t(r), share, ncclChar, r, comm.nccl(), nullptr);
            }
            if (ncclGroupEnd() != ncclSuccess) throw std::runtime_error("raw all-to-all: ncclGroupEnd failed");
        });
#endif
    if (share > std::size_t(INT_MAX)) return -1;  // past MPI's int counts: not measured
    std::vector<unsigned char> hs(send.size()), hr(recv.size());
    return median_ms(o, [&] {
        // As the MPI engine does on CUDA builds: staged through host memory.
        sv::backend::copy_to_host(hs.data(), send.data(), hs.size(), "raw all-to-all");
        MPI_Alltoall(hs.data(), int(share), MPI_BYTE, hr.data(), int(share), MPI_BYTE, comm.mpi());
        sv::backend::copy_to_device(recv.data(), hr.data(), hr.size(), "raw all-to-all");
    });
}

/// Where a rank's time goes in the all-to-all bound calls: the one-device
/// steps they take, each on this rank's block (rows "step:...", the slowest
/// rank): the sort's local radix sort and merge, split's and permute's local
/// calls. The exchanges themselves are the all_to_all_raw row.
void local_steps(const options& o, const dist::communicator& comm, std::size_t n, std::vector<row>& rows) {
    const int p = comm.size();
    const std::size_t m = n / std::size_t(p);
    const std::string engine = comm.uses_nccl() ? "nccl" : "mpi";
    const auto at = [&](const char* op, double ms) { rows.push_back({op, engine, p, n, ms}); };
    const auto keys = bench::tabulate<int>(m, bench::random_key<int>{std::uint64_t(comm.rank()) + 7});
    const auto flags = sv::map(odd_bit{}, keys);
    const auto target = bench::tabulate<std::int64_t>(m, affine_target{std::int64_t(m), 1000003, 12345});
    // thrust::device's temporaries come from cudaMalloc, not from scanvec's
    // cache, which the calls before have filled: give the cache back first
    sv::memory::trim();
    {
        // the distributed sort's merge: two sorted halves of the block into one
        auto halves = sv::vector<int>(m, sv::no_init);
        const std::size_t h = m / 2;
        thrust::copy(thrust::device, keys.data(), keys.data() + m, halves.data());
        thrust::sort(thrust::device, halves.data(), halves.data() + h);
        thrust::sort(thrust::device, halves.data() + h, halves.data() + m);
        at("step:merge_2_runs", median_ms(o, [&] {
            auto r = sv::detail::merge_sorted_runs(halves, {0, sv::index_t(h), sv::index_t(m)});
        }));
    }
    at("step:radix_sort", median_ms(o, [&] { auto r = sv::radix_sort(keys); }));
    at("step:split", median_ms(o, [&] { auto r = sv::split(keys, flags); }));
    at("step:permute", median_ms(o, [&] { auto r = sv::permute(keys, target); }));
}

/// Where a distributed call's time goes on the slowest rank: each phase's
/// median over the repetitions, one run each with a dist::phase_log (which
/// waits for the device at every phase's end), rows prefix + phase.
template <class Call>
void phases(const options& o, const dist::communicator& comm, const std::string& prefix, Call&& call, std::size_t n,
            std::vector<row>& rows) {
    std::vector<std::string> names;
    std::vector<std::vector<double>> times;
    for (int r = -1; r < o.reps; ++r) {
        bench::sync();
        MPI_Barrier(MPI_COMM_WORLD);
        dist::phase_log log;
        call();
        log.mark("release of the temporaries");
        if (r < 0) continue;
        if (names.empty())
            for (const auto& ph : log.phases()) names.push_back(ph.first), times.emplace_back();
        for (std::size_t k = 0; k < names.size() && k < log.phases().size(); ++k) times[k].push_back(log.phases()[k].second);
    }
    const std::string engine = comm.uses_nccl() ? "nccl" : "mpi";
    for (std::size_t k = 0; k < names.size(); ++k) {
        std::sort(times[k].begin(), times[k].end());
        double mine = times[k][times[k].size() / 2], slowest = 0;
        MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        rows.push_back({prefix + names[k], engine, comm.size(), n, slowest});
    }
}

#if defined(SCANVEC_BACKEND_CUDA)
/// One GPU doing the whole vector with CUB: the references speed-ups are taken against.
void cub_references(const options& o, std::size_t n, std::vector<row>& rows) {
    const auto keys = bench::tabulate<int>(n, bench::random_key<int>{1});
    const auto small = bench::tabulate<int>(n, bench::small_value<int>{2});
    sv::vector<int> out(n, sv::no_init), one(1, sv::no_init);
    const std::int64_t m = std::int64_t(n);
    bench::cub_call scan([&](void* t, std::size_t& b) { return cub::DeviceScan::ExclusiveSum(t, b, small.data(), out.data(), m); });
    bench::cub_call reduce([&](void* t, std::size_t& b) { return cub::DeviceReduce::Sum(t, b, small.data(), one.data(), m); });
    bench::cub_call sort([&](void* t, std::size_t& b) { return cub::DeviceRadixSort::SortKeys(t, b, keys.data(), out.data(), m); });
    rows.push_back({"scan", "cub", 1, n, median_ms(o, [&] { scan(); })});
    rows.push_back({"reduce", "cub", 1, n, median_ms(o, [&] { reduce(); })});
    rows.push_back({"sort", "cub", 1, n, median_ms(o, [&] { sort(); })});
    // the same calls on one device without the distributed layer (issue 22: the layer on one rank adds no copies)
    rows.push_back({"scan", "one-device", 1, n, median_ms(o, [&] { auto r = sv::scan(small); })});
    rows.push_back({"sort", "one-device", 1, n, median_ms(o, [&] { auto r = sv::radix_sort(keys); })});
}
#endif

constexpr std::size_t quicksort_max = std::size_t(1) << 30;

void run_size(const options& o, const dist::communicator& comm, std::size_t n, std::vector<row>& rows) {
    const std::string engine = comm.uses_nccl() ? "nccl" : "mpi";
    const int p = comm.size();
    const auto at = [&](const char* op, double ms) { rows.push_back({op, engine, p, n, ms}); };
    {
        const auto idx = dist::index(n, comm);
        const auto small = dist::map(bench::small_value<int>{2}, idx);
        if (o.wants("scan")) at("scan", median_ms(o, [&] { auto r = dist::scan(small); }));
        if (o.wants("reduce")) at("reduce", median_ms(o, [&] { volatile int r = dist::reduce(small); (void)r; }));
        if (o.wants("segmented_scan")) {
            const auto heads = dist::map(bench::random_head{3, 1000}, idx);
            at("segmented_scan", median_ms(o, [&] { auto r = dist::segmented_scan(small, heads); }));
        }
        const auto keys = dist::map(bench::random_key<int>{1}, idx);
        if (o.wants("permute")) {
            const auto target = dist::map(affine_target{std::int64_t(n), 1000003, 12345}, idx);
            at("permute", median_ms(o, [&] { auto r = dist::permute(keys, target); }));
            if (p > 1) phases(o, comm, "permute-phase:", [&] { auto r = dist::permute(keys, target); }, n, rows);
        }
        if (o.wants("back_permute")) {
            const auto source = dist::map(affine_target{std::int64_t(n), 1000003, 12345}, idx);
            at("back_permute", median_ms(o, [&] { auto r = dist::back_permute(keys, source); }));
            if (p > 1) phases(o, comm, "back_permute-phase:", [&] { auto r = dist::back_permute(keys, source); }, n, rows);
        }
        if (o.wants("write") || o.wants("combining_write")) {
            // dst moved in and taken back: the calls write in place, nothing copied
            auto dst = dist::map(bench::small_value<int>{4}, idx);
            if (o.wants("write")) {
                const auto target = dist::map(affine_target{std::int64_t(n), 1000003, 12345}, idx);
                at("write", median_ms(o, [&] { dst = dist::write(std::move(dst), target, keys); }));
            }
            if (o.wants("combining_write")) {
                const auto target = dist::map(random_target{std::int64_t(n), 5}, idx);
                at("combining_write", median_ms(o, [&] { dst = dist::combining_write(std::move(dst), target, small, sv::plus<int>{}); }));
            }
        }
        if (o.wants("split")) {
            const auto flags = dist::map(odd_bit{}, keys);
            at("split", median_ms(o, [&] { auto r = dist::split(keys, flags); }));
            if (p > 1) phases(o, comm, "split-phase:", [&] { auto r = dist::split(keys, flags); }, n, rows);
        }
        if (o.wants("sort")) {
            at("sort", median_ms(o, [&] { auto r = dist::radix_sort(keys); }));
            if (p > 1) phases(o, comm, "phase:", [&] { auto r = dist::radix_sort(keys); }, n, rows);
        }
        // quicksort by processor teams; one rank: the one-device quicksort. Up to
        // 2^30: one GPU's quicksort of 2^31 keys takes seconds a call.
        if (o.wants("quicksort") && n <= quicksort_max) at("quicksort", median_ms(o, [&] { auto r = dist::quicksort(keys); }));
    }
    if (p > 1 && o.only.empty()) local_steps(o, comm, n, rows);
    const double raw = raw_all_to_all_ms(o, comm, n / std::size_t(p) * sizeof(int));
    if (raw >= 0) at("all_to_all_raw", raw);
#if defined(SCANVEC_BACKEND_CUDA)
    if (p == 1 && o.only.empty()) cub_references(o, n, rows);
#endif
}

}  // namespace

int main(int argc, char** argv) {
    dist::environment env(argc, argv);
    int status = 0;
    try {
        const options o = parse(argc, argv);
        const auto& comm = dist::world();
#if defined(SCANVEC_HAVE_NCCL)
        int nccl_version = 0;
        ncclGetVersion(&nccl_version);
        if (comm.rank() == 0)
            std::printf("NCCL %d (runtime), engine %s\n", nccl_version, comm.uses_nccl() ? "nccl" : "mpi");
#endif
        std::vector<row> rows;
        for (int k : o.log_sizes) run_size(o, comm, std::size_t(1) << k, rows);
        if (comm.rank() == 0) {
            std::printf("%-16s %-6s %5s %12s %10s %12s\n", "op", "engine", "ranks", "n", "ms", "Gelem/s");
            for (const row& r : rows)
                std::printf("%-16s %-6s %5d %12zu %10.3f %12.2f\n", r.op.c_str(), r.engine.c_str(), r.ranks, r.n, r.ms,
                            double(r.n) / r.ms * 1e-6);
            if (!o.csv.empty()) {
                std::ifstream existing(o.csv);
                const bool fresh = !existing.good() || existing.peek() == std::ifstream::traits_type::eof();
                std::ofstream csv(o.csv, std::ios::app);
                if (fresh) csv << "op,engine,ranks,n,median_ms\n";
                for (const row& r : rows) csv << r.op << ',' << r.engine << ',' << r.ranks << ',' << r.n << ',' << r.ms << '\n';
            }
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scanvec_dist_bench: %s\n", e.what());
        status = 1;
    }
    return status;
}
