// scanvec/runtime/error.hpp - everything scanvec throws derives from sv::error.
#pragma once

#include <scanvec/runtime/config.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>

SCANVEC_NAMESPACE_BEGIN

/// Base of every scanvec exception.
struct error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Two vectors that must have equal lengths do not; the message names both.
struct length_error : error {
    using error::error;
};

/// An index out of range, or repeated where a permutation is required.
struct index_error : error {
    using error::error;
};

/// A failed backend (CUDA) call; the message names the operation and CUDA's text.
struct backend_error : error {
    using error::error;
};

/// A device allocation that could not be satisfied even after the cache was emptied.
struct out_of_memory : backend_error {
    out_of_memory(const std::string& what, std::size_t requested)
        : backend_error(what), requested_bytes(requested) {}
    std::size_t requested_bytes;
};

namespace detail {

[[noreturn]] inline void throw_length(const char* op, std::size_t a, std::size_t b) {
    throw length_error(std::string(op) + ": lengths differ (" + std::to_string(a) + " and " +
                       std::to_string(b) + ")");
}

inline void expect_same_length(const char* op, std::size_t a, std::size_t b) {
    if (a != b) throw_length(op, a, b);
}

}  // namespace detail
SCANVEC_NAMESPACE_END
