// scanvec/runtime/detail/loop/dispatch.hpp - where sv::repeat_while runs: as
// one CUDA graph that the device repeats (runtime::device_loops()), else as
// a loop on the host.
#pragma once

#include <scanvec/runtime/detail/loop/host.hpp>
#include <scanvec/runtime/repeat_on_device.hpp>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <scanvec/runtime/detail/loop/cuda/repeat_while.hpp>
#endif

#include <cstddef>
#include <tuple>

SCANVEC_NAMESPACE_BEGIN namespace runtime::detail {

/// every: the calls per test on the device (the host tests every call).
template <class... V, class Body>
std::size_t repeat_while(const std::tuple<V&...>& state, Body& body, std::size_t every, std::size_t max_calls) {
    if (every == 0) throw error("sv::repeat_while: sv::test_every(0) (a loop tests after at least one call)");
    if (max_calls == 0) return 0;
#if defined(SCANVEC_BACKEND_CUDA)
    if (device_loops()) return repeat_while_on_device(state, body, every, max_calls);
#else
    (void)every;
#endif
    return repeat_while_on_host(state, body, max_calls);
}

}  SCANVEC_NAMESPACE_END  // runtime::detail
