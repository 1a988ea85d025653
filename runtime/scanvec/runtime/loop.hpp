// scanvec/runtime/loop.hpp - a loop of whole-vector steps that the device repeats by itself.
//
//   sv::vector<sv::index_t> p = ...;                     // the loop's state
//   sv::repeat_while(std::tie(p), [&] {                  // repeat
//       p = sv::back_permute(p, p, sv::unchecked);       //     P <- P[P]
//       return sv::reduce_to_device(                     // while some P[i] != P[P[i]]
//           sv::lazy::map(moved{}, p, sv::lazy::back_permute(p, p)), sv::logical_or{});
//   });
//
// A program of many small steps pays the host for each of them: a launch,
// and a wait wherever it reads a number back to decide whether to go on.
// repeat_while runs such a loop on the device: on CUDA the body's calls are
// made once, captured into a CUDA graph with a conditional while node, and
// the device runs them again and again, deciding from the test each call
// leaves in device memory whether to go on; the host launches the graph and
// waits once, at the end. On the host backend (and with SCANVEC_HOST_ROUNDS=1)
// it is a plain loop. The same text runs on both.
//
// Contract:
// - body() returns a sv::device_value<T> (T arithmetic or bool), the test, or
//   a reference to one the state holds (a bounded vector's length()): the
//   loop repeats while the test a call leaves is nonzero, and at least once
//   (repeat ... while). The body takes no arguments, or the number of its
//   call (0 for the first) as a const sv::device_value<std::uint64_t>&, which
//   the loop advances on the device after each call: what a round's random
//   numbers are keyed by (sv::lazy::random(n, seed, round)).
// - state names every vector the body assigns, as std::tie(a, b, ...) (or
//   one vector): the body may give each a new value of the same length
//   (a = f(a, b), or a write into a vector moved in); other vectors it only
//   reads. A sv::bounded vector in the state keeps its capacity and may
//   change its length (runtime/bounded.hpp: a frontier that grows and
//   shrinks); a sv::device_value in the state is a number the body updates.
//   It may make and drop temporaries freely (their memory is the loop's,
//   reused from call to call, given back after it).
// - On CUDA the body is called once, while it is captured, so it must queue
//   work and wait for nothing: no result read on the host (sv::reduce, a
//   size read back), no upload from the host, no other loop (loops do not
//   nest). The checks of write, combining_write and back_permute are
//   deferred there (runtime/deferred_checks.hpp: their error is thrown when
//   the loop ends); other checked calls wait for their verdict, so use their
//   unchecked forms inside the body, after checking the inputs once before
//   the loop. Host-side values the body computes are computed once. On the
//   host backend the body is called once a call, as written.
// - max_calls bounds the calls (a loop whose test never turns 0 stops there).
// - sv::test_every(k) (k >= 1; 1 when not given): on CUDA the device makes the
//   calls in groups of k and reads the test after each group's last, which
//   spares the graph's loop k - 1 of its turns (a turn costs the device more
//   than a small step; docs/design/loops.md has the figures). The calls of the last group after the one
//   whose test was 0 (and after max_calls) run too, so a body given k > 1
//   must change nothing once its test is 0 (an empty frontier, a fixpoint).
//   The calls counted, and the call numbers, are the same as with k = 1. The
//   host backend reads every call's test.
//
// Returns the number of calls made. Waits for the device once (the count).
//
// Cost: the body's work once per call, plus on CUDA per call one launch
// that reads the test and copies back every state array the body replaced (a
// write into a vector moved in replaces nothing); per repeat_while, one
// capture and one graph update (a few tens of microseconds of host time).
//
// Errors: sv::index_error from a deferred check in the body, when the loop
// ends (the first failing call's; the loop stops after the call that failed); sv::length_error if the body changes the
// length of a state vector;
// sv::error (on CUDA) if the body waits for the device, starts another loop,
// exchanges state vectors, or assigns a vector made before the loop that the
// state does not name. When the body throws, the exception propagates; on
// CUDA, where the body is captured before anything runs, the state then
// holds its values from before the loop, on the host those after the last
// call that finished. docs/design/loops.md says how the loop is built.
#pragma once

#include <scanvec/runtime/bounded.hpp>
#include <scanvec/runtime/detail/loop/dispatch.hpp>
#include <scanvec/runtime/device_value.hpp>
#include <scanvec/runtime/vector.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>

SCANVEC_NAMESPACE_BEGIN

/// How many calls of a loop the device makes between two reads of the test
/// (sv::repeat_while(state, body, sv::test_every(k))).
struct test_every {
    constexpr explicit test_every(std::size_t k) : calls(k) {}
    std::size_t calls;
};

namespace detail {
template <class R> struct is_device_value : std::false_type {};
template <class T> struct is_device_value<device_value<T>> : std::true_type {};
}  // namespace detail

/// Repeats body() while the device_value it returns is nonzero (at least
/// once, at most max_calls times), on the device where the backend has one;
/// state: the vectors the body assigns (the contract above). Returns the
/// number of calls. Waits once.
template <class... V, class Body>
std::size_t repeat_while(std::tuple<V&...> state, Body body, test_every every,
                         std::size_t max_calls = std::numeric_limits<std::size_t>::max()) {
    static_assert(detail::is_device_value<std::decay_t<decltype(runtime::detail::call_body(
                      body, std::declval<const device_value<std::uint64_t>&>()))>>::value,
                  "sv::repeat_while(state, body): body() must return its test as a sv::device_value "
                  "(e.g. sv::reduce_to_device(flags, sv::logical_or{}))");
    return runtime::detail::repeat_while(state, body, every.calls, max_calls);
}

/// The same, the test read after every call.
template <class... V, class Body>
std::size_t repeat_while(std::tuple<V&...> state, Body body,
                         std::size_t max_calls = std::numeric_limits<std::size_t>::max()) {
    return repeat_while(state, std::move(body), test_every(1), max_calls);
}

/// repeat_while(std::tie(state), body, ...): a loop whose state is one vector.
template <class T, bool Soa, class Body>
std::size_t repeat_while(vector<T, Soa>& state, Body body, std::size_t max_calls = std::numeric_limits<std::size_t>::max()) {
    return repeat_while(std::tie(state), std::move(body), max_calls);
}
template <class T, bool Soa, class Body>
std::size_t repeat_while(vector<T, Soa>& state, Body body, test_every every,
                         std::size_t max_calls = std::numeric_limits<std::size_t>::max()) {
    return repeat_while(std::tie(state), std::move(body), every, max_calls);
}

SCANVEC_NAMESPACE_END
