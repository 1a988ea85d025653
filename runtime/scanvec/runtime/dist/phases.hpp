// scanvec/runtime/dist/phases.hpp - where a distributed call's time goes.
//
//     sv::dist::phase_log log;              // on this thread, while it lives:
//     auto r = sv::dist::radix_sort(keys);  // the calls that mark their phases
//     for (auto& [name, ms] : log.phases()) ...  // record each one's time
//
// A call marks the end of each of its phases (the local sort, the exchange,
// ...). While a phase_log is alive on the calling thread, a mark waits for
// the device and records the wall time since the previous mark (or since the
// log began): this rank's time, device work included. With no log alive a
// mark costs one branch; the waits change what overlaps, so a logged run is
// for finding the large costs, not for the total (time that separately). A
// device error that a mark's wait finds throws on that rank alone: a logged
// run is a measurement, not a program's normal run.
#pragma once

#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/config.hpp>
#include <scanvec/runtime/stream.hpp>

#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace dist {

class phase_log {
public:
    phase_log() : previous_(current()), last_(MPI_Wtime()) { current() = this; }
    phase_log(const phase_log&) = delete;
    phase_log& operator=(const phase_log&) = delete;
    ~phase_log() { current() = previous_; }

    /// (phase, milliseconds) in the order the phases ended.
    const std::vector<std::pair<std::string, double>>& phases() const { return phases_; }
    /// Starts the clock again and forgets the phases recorded so far.
    void restart() {
        backend::synchronize(current_stream(), "dist::phase_log");
        phases_.clear();
        last_ = MPI_Wtime();
    }

    /// The log alive on this thread (null when none).
    static phase_log*& current() {
        thread_local phase_log* log = nullptr;
        return log;
    }
    void mark(const char* phase) {
        backend::synchronize(current_stream(), phase);
        const double now = MPI_Wtime();
        phases_.emplace_back(phase, (now - last_) * 1e3);
        last_ = now;
    }

private:
    phase_log* previous_;
    double last_;
    std::vector<std::pair<std::string, double>> phases_;
};

namespace detail {
/// The end of a phase of a distributed call (see phase_log).
inline void phase_done(const char* phase) {
    if (phase_log* log = phase_log::current()) log->mark(phase);
}
}  // namespace detail

}  SCANVEC_NAMESPACE_END  // dist
