// scanvec/runtime/label.hpp - every primitive runs under a label.
//
// The label (name, input and output lengths) is the hook for tracing and the
// work/depth counters, and it is where Thrust/CUDA failures are turned into
// scanvec errors that name the primitive.
#pragma once

#include <scanvec/runtime/error.hpp>

#include <thrust/system_error.h>

#include <new>
#include <string>

namespace scanvec::runtime {

/// Receives one call per primitive when installed (see sv::trace).
struct observer {
    virtual ~observer() = default;
    virtual void primitive(const char* name, std::size_t in, std::size_t out) = 0;
};

inline observer*& current_observer() {
    thread_local observer* o = nullptr;
    return o;
}

}  // namespace scanvec::runtime

namespace scanvec::detail {

/// Runs one primitive: reports it to the observer and names it in any backend failure.
template <class F> auto labelled(const char* name, std::size_t in, F&& body) {
    try {
        auto result = body();
        if (auto* o = runtime::current_observer()) o->primitive(name, in, std::size_t(result.size()));
        return result;
    } catch (const error&) {
        throw;
    } catch (const thrust::system_error& e) {
        throw backend_error(std::string("scanvec::") + name + " (length " + std::to_string(in) + "): " + e.what());
    } catch (const std::bad_alloc&) {
        throw out_of_memory(std::string("scanvec::") + name + " (length " + std::to_string(in) + "): out of memory", 0);
    }
}

/// For primitives whose result is a scalar.
template <class F> auto labelled_scalar(const char* name, std::size_t in, F&& body) {
    struct one { decltype(body()) v; std::size_t size() const { return 1; } };
    return labelled(name, in, [&] { return one{body()}; }).v;
}

}  // namespace scanvec::detail
