// scanvec/runtime/label.hpp - every primitive runs under a label.
//
// The label (name, lengths, and optionally the inputs) is the hook for tracing
// and the work/depth counters (sv::trace), and it is where Thrust/CUDA
// failures become scanvec errors that name the primitive. With no observer
// installed, a label costs one branch.
#pragma once

#include <scanvec/runtime/error.hpp>
#include <scanvec/runtime/print.hpp>

#include <thrust/system_error.h>

#include <new>
#include <string>

SCANVEC_NAMESPACE_BEGIN namespace runtime {

/// One finished primitive call.
struct call_record {
    const char* name;
    std::size_t in;   ///< input length
    std::size_t out;  ///< output length (1 for a scalar)
    int level;        ///< nesting: 0 for a call made by the program itself
    bool leaf;        ///< made no primitive calls of its own: one step of the model
};

/// Receives every primitive call made on this thread while installed (see sv::trace).
struct observer {
    virtual ~observer() = default;
    /// values holds the inputs and the output as table rows when wants_values() said so.
    virtual void primitive(const call_record& call, const table* values) = 0;
    virtual bool wants_values(std::size_t /*n*/) const { return false; }
};

struct observer_state {
    observer* current = nullptr;
    int level = 0;
    bool made_call = false;  // the running call has called a primitive itself
};
inline observer_state& observation() {
    thread_local observer_state s;
    return s;
}

}  SCANVEC_NAMESPACE_END  // runtime

SCANVEC_NAMESPACE_BEGIN namespace detail {

template <class X> void add_row(table& t, const char* name, const X& x) {
    if constexpr (is_sequence_v<X>) {
        if constexpr (std::is_arithmetic_v<value_t<X>>) t.row(name, x);
    }
}

template <class R, class = void> struct has_size : std::false_type {};
template <class R> struct has_size<R, std::void_t<decltype(std::declval<const R&>().size())>> : std::true_type {};

template <class R> std::size_t result_size(const R& r) {
    if constexpr (has_size<R>::value) return std::size_t(r.size());
    else return 1;  // a scalar result
}

template <class F> auto translate_errors(const char* name, std::size_t in, F&& body) {
    try {
        return body();
    } catch (const error&) {
        throw;
    } catch (const thrust::system_error& e) {
        throw backend_error(std::string("scanvec::") + name + " (length " + std::to_string(in) + "): " + e.what());
    } catch (const std::bad_alloc&) {
        throw out_of_memory(std::string("scanvec::") + name + " (length " + std::to_string(in) + "): out of memory", 0);
    }
}

/// Runs one primitive: names it in any backend failure and, when an observer
/// is installed, reports it (with the inputs given, for traced tables).
template <class F, class... Inputs>
auto labelled(const char* name, std::size_t in, F&& body, const Inputs&... inputs) {
    auto& obs = runtime::observation();
    if (!obs.current) return translate_errors(name, in, body);

    obs.made_call = false;
    ++obs.level;
    struct restore {
        runtime::observer_state& s;
        ~restore() { --s.level; s.made_call = true; }
    } guard{obs};
    auto result = translate_errors(name, in, body);
    const runtime::call_record call{name, in, result_size(result), obs.level - 1, !obs.made_call};
    if (obs.current->wants_values(std::max(call.in, call.out))) {
        table t;
        const char* names[] = {"a", "b", "c", "d", "e", "f"};
        std::size_t k = 0;
        ((add_row(t, names[std::min<std::size_t>(k++, 5)], inputs)), ...);
        (void)names, (void)k;  // unused when there are no inputs
        add_row(t, "result", result);
        obs.current->primitive(call, &t);
    } else {
        obs.current->primitive(call, nullptr);
    }
    return result;
}

/// For primitives whose result is a scalar.
template <class F, class... Inputs>
auto labelled_scalar(const char* name, std::size_t in, F&& body, const Inputs&... inputs) {
    return labelled(name, in, body, inputs...);
}

}  SCANVEC_NAMESPACE_END  // detail
