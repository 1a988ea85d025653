// scanvec/primitives/detail/scan_policy.hpp - the tuning of the scans on the host.
//
// Every constant that decides how the host backend's scans run
// (detail/scan_omp.hpp), with the reason for it. What they measured:
// docs/design/scans-and-reductions.md.
#pragma once

#include <scanvec/runtime/config.hpp>

SCANVEC_NAMESPACE_BEGIN namespace detail {

struct host_scan_policy {
    /// Below this many elements a scan runs as one loop on the calling thread:
    /// starting the team and its barrier (a few microseconds) costs more than
    /// the second thread saves on 2^14 elements, and the values stay in the
    /// caller's cache.
    static constexpr index_t min_parallel = index_t(1) << 14;
};

}  SCANVEC_NAMESPACE_END  // detail
