// scanvec/runtime/deferred_checks.hpp - checks whose verdicts the host does not wait for.
//
//   {
//       sv::deferred_checks scope;                  // on this thread, until the scope ends
//       d = sv::write(std::move(d), idx, vals);     // checked, queued: no wait
//       r = sv::back_permute(a, idx);               // the same
//       ...
//       auto host = d.to_host();                    // the next wait: a bad index above throws here
//   }
//
// A checked call reads its verdict on the host, so it waits for the device;
// in a program of many small steps those waits are the time. In a
// deferred_checks scope (and in a loop body the device repeats,
// sv::repeat_while) the index checks of write, combining_write and
// back_permute wait for nothing: each still finds its first bad position on
// the device, guards its effect there (an out-of-range index writes nothing,
// and a gather at one reads a value-initialised element), and stores the
// first failure of the thread (the call, the position, the index, the
// length) where the host reads it after its next wait. That wait (a result
// or a vector read on the host, sv::synchronize(), the end of a
// sv::repeat_while) throws the same sv::index_error the call would have
// thrown, naming the first failing call. The elements with good indices of
// the failing call, and the calls after it, have run; a program that never
// waits again does not see the error.
//
// The other checks (permute's, the lengths, the nested calls') are not
// deferred: outside a device loop they wait as before; inside one they are
// refused (sv::repeat_while says why). Nor are those of the distributed
// calls' local steps: a failure there must reach every rank at the call's
// next collective, not one rank at its next wait. Without checks (SCANVEC_CHECKS=0)
// nothing is checked either way. Scopes nest; the scope only counts, it
// never waits. docs/design/loops.md says how.
#pragma once

#include <scanvec/runtime/backend.hpp>

SCANVEC_NAMESPACE_BEGIN

/// While one lives on a thread, that thread's deferrable checks store their
/// verdict on the device and the host raises it at its next wait.
class deferred_checks {
public:
    deferred_checks() noexcept { ++::scanvec::detail::this_thread().deferring; }
    ~deferred_checks() { --::scanvec::detail::this_thread().deferring; }
    deferred_checks(const deferred_checks&) = delete;
    deferred_checks& operator=(const deferred_checks&) = delete;
};

SCANVEC_NAMESPACE_END
