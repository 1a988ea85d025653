// scanvec/runtime/detail/loop/host.hpp - sv::repeat_while as a loop on the
// host: the host backend's form, and CUDA's without device loops
// (SCANVEC_HOST_ROUNDS=1). Each call's test is read (a wait on CUDA).
#pragma once

#include <scanvec/runtime/detail/loop/state.hpp>
#include <scanvec/runtime/device_value.hpp>
#include <scanvec/runtime/error.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace runtime::detail {

inline constexpr const char* repeat_while_op = "sv::repeat_while";

/// Throws length_error if the body changed the length of a state array.
inline void expect_lengths_kept(const std::vector<state_array>& arrays) {
    for (std::size_t k = 0; k < arrays.size(); ++k)
        if (arrays[k].size_now() != arrays[k].size_before)
            throw length_error(std::string(repeat_while_op) + ": the loop body changed the length of the state's array " +
                               std::to_string(k) + " from " + std::to_string(arrays[k].size_before) + " to " +
                               std::to_string(arrays[k].size_now()) + "; a loop keeps every length of its state");
}

/// The number of a loop's call as the body reads it (0 for the first).
using call_number_t = std::uint64_t;

/// Whether the body takes the number of its call.
template <class Body> inline constexpr bool takes_call_number_v =
    std::is_invocable_v<Body&, const device_value<call_number_t>&>;

/// body(call) where the body takes its call's number, else body().
template <class Body> decltype(auto) call_body(Body& body, const device_value<call_number_t>& call) {
    if constexpr (takes_call_number_v<Body>) return body(call);
    else return body();
}

template <class... V, class Body>
std::size_t repeat_while_on_host(const std::tuple<V&...>& state, Body& body, std::size_t max_calls) {
    const std::vector<state_array> arrays = arrays_of(state);
    const device_value<call_number_t> call;
    std::size_t calls = 0;
    for (;;) {
        if constexpr (takes_call_number_v<Body>) {
            const call_number_t number = calls;  // the previous call's test was read: its work is done
            backend::copy_to_device(call.ptr(), &number, sizeof(number), repeat_while_op);
        }
        decltype(auto) test = call_body(body, call);
        ++calls;
        expect_lengths_kept(arrays);
        using T = std::decay_t<decltype(*test.ptr())>;
        if (test.get() == T(0) || calls >= max_calls) return calls;
    }
}

}  SCANVEC_NAMESPACE_END  // runtime::detail
