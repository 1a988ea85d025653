// scanvec/algorithms/detail/device_rounds.hpp - the rounds of a graph
// program (random mate, Luby) in loops the device repeats, their live
// vertices and edges bounded vectors refitted while they are large.
//
// A step on a bounded vector is launched over its capacity (its room), the
// positions past the length only comparing themselves with it. A program
// whose edges shrink from round to round would pay its first round's size in
// every round: on the largest graphs that costs more than the host's waits it
// spares. So while a vector is large, each round is a loop of its own and the
// vectors are refitted to their lengths between rounds (one wait a round, not
// one per step); once all are small, the rest of the rounds run in one loop.
#pragma once

#include <scanvec/runtime/bounded.hpp>
#include <scanvec/runtime/loop.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <tuple>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// The capacity up to which the rounds run in one loop on the device: a
/// launch over it costs a few microseconds, about a wait.
inline constexpr std::size_t device_rounds_capacity = std::size_t(1) << 20;

/// Runs round(r, before) while some vector of `fit` (bounded vectors of the
/// state, whose lengths the rounds shrink) is not empty, in loops the device
/// repeats (sv::repeat_while over state): r is the round's number in its
/// loop (a device_value), before the rounds of earlier loops; round returns
/// its test, nonzero while a vector of fit is not empty. While one of them
/// can hold more than device_rounds_capacity elements, a loop makes one round
/// and the vectors are refitted to their lengths after it. Returns the
/// number of rounds (0 when fit is empty from the start). small_capacity:
/// the capacity for one loop (device_rounds_capacity but in the tests).
template <class... V, class... B, class Round>
std::size_t device_rounds(std::tuple<V&...> state, std::tuple<bounded<B>&...> fit, Round round,
                          std::size_t small_capacity = device_rounds_capacity) {
    std::size_t rounds = 0;
    while (std::apply([](const auto&... b) { return ((b.capacity() > 0) || ...); }, fit)) {
        const bool small = std::apply([&](const auto&... b) { return ((b.capacity() <= small_capacity) && ...); }, fit);
        const std::size_t before = rounds;
        rounds += repeat_while(state, [&](const device_value<std::uint64_t>& r) -> decltype(auto) { return round(r, before); },
                               small ? std::numeric_limits<std::size_t>::max() : 1);
        if (small) return rounds;
        std::apply([](auto&... b) { (b.shrink_to_fit(), ...); }, fit);
    }
    return rounds;
}

}  SCANVEC_NAMESPACE_END  // detail
