// scanvec/primitives/detail/pack/cuda/select.hpp - the pack whose count stays
// on the device, past one block (CUDA): CUB's select, one pass over the flags
// that moves the flagged elements and stores their count where it is kept.
#pragma once

#include <scanvec/primitives/detail/scan/dispatch.hpp>

#include <cub/device/device_select.cuh>

SCANVEC_NAMESPACE_BEGIN namespace detail {

/// Queues the pack of a (n = a.size()) into r and the count's store at *count.
template <class A, class Flags, class R> void pack_to_by_select(const A& a, const Flags& flags, R& r, index_t* count, stream_t s) {
    const std::size_t n = a.size();
    cub_run_by_count("pack (cub::DeviceSelect::Flagged)", n, [&](void* t, std::size_t& b) {
        return with_count(n, [&](auto items) {
            return cub::DeviceSelect::Flagged(t, b, reader(a), reader(flags), writer(r), count, items, s);
        });
    });
}

} SCANVEC_NAMESPACE_END
