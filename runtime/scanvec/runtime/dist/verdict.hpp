// scanvec/runtime/dist/verdict.hpp - failures on one rank, raised on every rank.
//
// Agreement on local failures: a step that runs on one rank alone (a local
// primitive, an allocation) may throw there while the other ranks go on to
// the next collective. A call runs such steps under a local_failure, which
// keeps the exception instead of throwing it; the next collective carries
// whether this rank failed (a flag beside a gathered value, a negative count,
// or a word of an all-reduce), and when any rank did, every rank throws once
// the collective is done: the failing rank its own exception, the others an
// sv::error naming the failing rank and its message (one MPI_Bcast, taken
// only then). The ranks stay in step for the next call.
//
// So every distributed call returns on every rank or throws on every rank.
// Two rules keep it so, and the library checks the second: every local step
// runs under the call's local_failure (a call of local steps only is one
// local_call), and a call does not return while the verdict of a local step
// is still unshared (in builds with assertions, a local_failure destroyed so
// stops the program with a message: a forgotten agreement shows in every
// test run, not only when memory runs out on one rank).
#pragma once

#include <scanvec/runtime/dist/communicator.hpp>
#include <scanvec/runtime/error.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <utility>

SCANVEC_NAMESPACE_BEGIN namespace dist::detail {

/// This rank's first failure in the local steps of a distributed call, kept
/// until the next collective carries it to the other ranks.
class local_failure {
public:
    local_failure() = default;
    local_failure(const local_failure&) = delete;
    local_failure& operator=(const local_failure&) = delete;
#if !defined(NDEBUG)
    ~local_failure() {
        if (unshared_ && std::uncaught_exceptions() == unwinding_) {
            std::fputs("scanvec: internal error: a distributed call returned before a collective carried the "
                       "verdict of its local steps (a failure on one rank would leave the others waiting)\n",
                       stderr);
            std::abort();
        }
    }
#endif

    /// Runs f() unless a step failed already; an exception from it is kept,
    /// not thrown. True when f() ran to the end. Its verdict is unshared
    /// until a collective carries it.
    template <class F> bool run(F&& f) noexcept {
        unshared_ = true;
        if (error_) return false;
        // a check deferred past the collective would fail on one rank alone, later:
        // the local steps check as they go (sv::deferred_checks does not reach them)
        int& deferring = ::scanvec::detail::this_thread().deferring;
        struct restore {
            int& count;
            int before;
            ~restore() { count = before; }
        } keep_deferring{deferring, deferring};
        deferring = 0;
        try {
            f();
            return true;
        } catch (const std::exception& e) {
            keep(std::current_exception(), e.what());
        } catch (...) {
            keep(std::current_exception(), "unknown exception");
        }
        return false;
    }
    bool failed() const noexcept { return bool(error_); }
    const std::string& what() const noexcept { return what_; }
    [[noreturn]] void rethrow() const { std::rethrow_exception(error_); }
    /// A collective has carried the verdict to every rank.
    void shared() const noexcept { unshared_ = false; }

private:
    void keep(std::exception_ptr e, const char* what) noexcept {
        error_ = std::move(e);
        try {
            what_ = what;
        } catch (...) {
        }
    }
    std::exception_ptr error_;
    std::string what_;
    mutable bool unshared_ = false;
#if !defined(NDEBUG)
    int unwinding_ = std::uncaught_exceptions();
#endif
};

/// Once a collective has told every rank that `failing` (the lowest failing
/// rank) failed: its message goes to every rank (MPI_Bcast), and every rank
/// throws (a failing rank its own exception; the others sv::error naming
/// the rank, as MPI_COMM_WORLD numbers it, and its message).
[[noreturn]] inline void throw_agreed(const communicator& comm, const local_failure& mine, int failing, const char* op) {
    mine.shared();
    constexpr int len = 512;
    char text[len] = {};
    if (comm.rank() == failing) std::strncpy(text, mine.what().c_str(), len - 1);
    const int rc = MPI_Bcast(text, len, MPI_CHAR, failing, comm.mpi());
    if (mine.failed()) mine.rethrow();
    mpi_check(rc, op);
    text[len - 1] = 0;
    throw error(std::string(op) + ": rank " + std::to_string(comm.world_rank(failing)) + " failed: " + text);
}

/// The agreed verdict: throws on every rank when any rank failed (failing:
/// the lowest failing rank, or comm.size() when none did).
inline void expect_no_failure(const communicator& comm, const local_failure& mine, int failing, const char* op) {
    mine.shared();
    if (failing < comm.size()) throw_agreed(comm, mine, failing, op);
}

/// One MPI_Allreduce of the verdict alone: for a local step with no collective after it to carry its verdict.
inline void agree(const communicator& comm, const local_failure& mine, const char* op) {
    int v = mine.failed() ? comm.rank() : comm.size(), lowest = 0;
    mpi_check(MPI_Allreduce(&v, &lowest, 1, MPI_INT, MPI_MIN, comm.mpi()), op);
    expect_no_failure(comm, mine, lowest, op);
}

/// A call whose steps are all local (a map, a vector made on a known
/// layout): f() runs under a verdict that one MPI_Allreduce shares, so that
/// it returns f()'s result on every rank or throws on every rank. No
/// communication on a communicator of one rank.
template <class F> auto local_call(const communicator& comm, const char* op, F&& f) {
    if (comm.size() == 1) return f();
    local_failure mine;
    std::optional<decltype(f())> r;
    mine.run([&] { r.emplace(f()); });
    agree(comm, mine, op);
    return std::move(*r);
}

}  SCANVEC_NAMESPACE_END  // dist::detail
