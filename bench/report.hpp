// bench/report.hpp - what the benchmark records, and how it is written out.
//
// Plain C++ (no scanvec, no CUDA): the data model of a run and the writers of
// bench.csv (one row per scanvec call and alternative), growth.csv (time per
// element of the scans and sorts), and bench.md (the targets first, then every row).
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace bench {

/// The median (and minimum) of the timed repetitions of one call, in ms.
struct stats {
    double median_ms = NAN;
    double min_ms = NAN;
    int reps = 0;
    bool valid() const { return reps > 0; }
};

/// Where and with what the run was made.
struct environment {
    std::string backend;   ///< "cuda" or "host"
    std::string device;    ///< GPU name, or the CPU model and thread count
    std::string driver;    ///< NVIDIA kernel driver (and the CUDA driver API version)
    std::string runtime;   ///< CUDA runtime version, or the compiler
    std::string cccl;      ///< Thrust/CUB version
    std::string date;      ///< UTC, ISO 8601
    std::string checks;    ///< SCANVEC_CHECKS of this build
    std::string memcpy;    ///< what the physical limit is measured with
    std::string timing;    ///< how a time is taken
    std::string sizes;     ///< the sizes of this run, in words
    std::size_t l2_bytes = 0;
};

/// One timed call at one size: a scanvec call, an alternative or a memcpy.
struct measurement {
    std::string family;  ///< map, scan, reduce, segmented_scan, permute, back_permute, split, sort, sort64, nested
    std::string input;   ///< what the input looks like
    std::string type;    ///< int32, float32, uint64 ...
    std::size_t n = 0;
    std::string impl;    ///< the call: "sv::scan", "cub::DeviceScan::ExclusiveSum", "memcpy" ...
    std::string role;    ///< "scanvec", "alternative" or "memcpy"
    stats t;
};

/// One line of the result table: a scanvec call next to one alternative and the memcpy.
struct row {
    std::string family, input, type;
    std::size_t n = 0;
    std::string impl;          ///< the scanvec call
    stats sv;                  ///< its time (invalid when it was wrong or failed)
    std::string alt, alt_short;
    stats alt_t;
    stats copy;                ///< device memcpy of copy_bytes
    std::size_t copy_bytes = 0;
    double bytes = 0;          ///< bytes a call must move at least (for GB/s); 0 for sorts
    bool keys = false;         ///< throughput as keys per second (sorts)
    std::string check;         ///< "ok", or what was wrong
    std::string note;          ///< e.g. the steps of an algorithm

    double ratio_alt() const { return sv.valid() && alt_t.valid() ? sv.median_ms / alt_t.median_ms : NAN; }
    double ratio_memcpy() const { return sv.valid() && copy.valid() ? sv.median_ms / copy.median_ms : NAN; }
    /// GB/s of the scanvec call (or Gkeys/s for sorts).
    double throughput() const {
        if (!sv.valid()) return NAN;
        return keys ? double(n) / sv.median_ms / 1e6 : bytes / sv.median_ms / 1e6;
    }
    double alt_throughput() const {
        if (!alt_t.valid()) return NAN;
        return keys ? double(n) / alt_t.median_ms / 1e6 : bytes / alt_t.median_ms / 1e6;
    }
};

/// "2^24" for powers of two, the number otherwise.
std::string size_label(std::size_t n);

void write_rows_csv(const std::string& path, const environment& env, const std::vector<row>& rows);
/// The cost-growth view: every timing of the int32 scans and sorts (and their memcpy), with the time per element.
void write_growth_csv(const std::string& path, const environment& env, const std::vector<measurement>& log);
/// The header, the targets, then every row (compact: printed last on the GPU machine).
std::string markdown(const environment& env, const std::vector<row>& rows);

}  // namespace bench
