// scanvec/runtime/label.hpp - every primitive runs under a label.
//
// The label (name, lengths, and optionally the inputs) is the hook for tracing
// and the work/depth counters (sv::trace), and it is where Thrust/CUDA
// failures become scanvec errors that name the primitive. With no observer
// installed, a label costs one branch. A traced call's vectors are named by
// their role in the model: the names the primitive gives with its label
// (detail::call_name), or the caller's (sv::trace_roles).
#pragma once

#include <scanvec/runtime/error.hpp>
#include <scanvec/runtime/print.hpp>

#include <thrust/system_error.h>

#include <algorithm>
#include <initializer_list>
#include <new>
#include <string>

SCANVEC_NAMESPACE_BEGIN namespace runtime {

/// How a trace pictures a call's rows beyond the rows themselves, as its
/// primitive declares with its label: scatter (an arrow from each position i
/// to Index[i] of the result row), gather (an arrow to each position j of the
/// result from Index[j] of the first row), split (the Index row the flags
/// give, inserted before the result, then as scatter).
enum class picture { rows, scatter, gather, split };

/// One finished primitive call.
struct call_record {
    const char* name;
    std::size_t in;   ///< input length
    std::size_t out;  ///< output length (1 for a scalar)
    int level;        ///< nesting: 0 for a call made by the program itself
    bool leaf;        ///< made no primitive calls of its own: one step of the model
    picture draw = picture::rows;
};

/// Receives every primitive call made on this thread while installed (see sv::trace).
/// For each call: enter() when it starts, then the calls it makes, then
/// primitive() when it ends, or unwind() when it ends by an exception.
struct observer {
    virtual ~observer() = default;
    virtual void enter(const char* /*name*/, std::size_t /*in*/) {}
    /// values holds the inputs and the output as table rows when wants_values() said so.
    virtual void primitive(const call_record& call, const table* values) = 0;
    virtual void unwind() {}
    virtual bool wants_values(std::size_t /*n*/) const { return false; }
    /// A program's own picture of the running call, in the model's terms (rows
    /// named by role): a quicksort round shows its pivots, flags and new positions.
    /// permute_into: the row the "Index" row scatters into (an arrow from each
    /// position i of the rows above to Index[i] of that row), or -1 for none.
    virtual void model_view(const table& /*rows*/, int /*permute_into*/) {}
};

// roles and observer_state: detail/thread_context.hpp (a thread's trace state lives in its context).
inline observer_state& observation() { return ::scanvec::detail::this_thread().observation; }

}  SCANVEC_NAMESPACE_END  // runtime

SCANVEC_NAMESPACE_BEGIN

/// Names the vectors of the next primitive call this thread makes (while it
/// lives), for a trace's rows: its inputs in order, then its result. Without
/// a trace alive it does nothing.
///     { sv::trace_roles r({"Keys", "Odd"}, "Evens-First"); auto s = sv::split(k, odd); }
class trace_roles {
public:
    explicit trace_roles(std::initializer_list<const char*> inputs, const char* result = nullptr) {
        auto& obs = runtime::observation();
        if (!obs.current) return;
        runtime::roles r;
        std::size_t k = 0;
        for (const char* x : inputs)
            if (k < 6) r.in[k++] = x;
        r.out = result;
        obs.next_roles = r;
        obs.has_roles = true;
    }
    trace_roles(const trace_roles&) = delete;
    trace_roles& operator=(const trace_roles&) = delete;
    ~trace_roles() { runtime::observation().has_roles = false; }
};

SCANVEC_NAMESPACE_END

SCANVEC_NAMESPACE_BEGIN namespace detail {

template <class X> void add_row(table& t, const char* name, const X& x) {
    if constexpr (is_sequence_v<X>) {
        if constexpr (std::is_arithmetic_v<value_t<X>>) t.row(name, x);
    } else if constexpr (std::is_arithmetic_v<X>) {
        t.row_cells(name, {table::cell(x)});  // a scalar result: one cell
    }
}

template <class R, class = void> struct has_size : std::false_type {};
template <class R> struct has_size<R, std::void_t<decltype(std::declval<const R&>().size())>> : std::true_type {};

template <class R, class = void> struct has_capacity : std::false_type {};
template <class R> struct has_capacity<R, std::void_t<decltype(std::declval<const R&>().capacity())>> : std::true_type {};

template <class R> std::size_t result_size(const R& r) {
    if constexpr (has_capacity<R>::value) return std::size_t(r.capacity());  // a length on the device is not read
    else if constexpr (has_size<R>::value) return std::size_t(r.size());
    else return 1;  // a scalar result
}

/// A call's label: its name and, for a trace's rows, the model's names of its
/// vectors (its inputs in order, then its result), given where the primitive
/// is written: labelled({"pack", {"A", "Flags"}, "Packed"}, ...), and how a
/// trace pictures them (runtime::picture). A name alone gives rows A, B, ...
/// and Result.
struct call_name {
    const char* name;
    runtime::roles roles{};
    runtime::picture draw = runtime::picture::rows;
    call_name(const char* n) : name(n) {}  // NOLINT: a name alone is a label
    call_name(const char* n, std::initializer_list<const char*> inputs, const char* result,
              runtime::picture d = runtime::picture::rows)
        : name(n), draw(d) {
        std::size_t k = 0;
        for (const char* x : inputs)
            if (k < 6) roles.in[k++] = x;
        roles.out = result;
    }
};

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
auto labelled(const call_name& label, std::size_t in, F&& body, const Inputs&... inputs) {
    const char* name = label.name;
    auto& obs = runtime::observation();
    if (!obs.current) return translate_errors(name, in, body);

    // the call's role names: given by the caller (sv::trace_roles), else the primitive's own
    const bool given = obs.has_roles;
    const runtime::roles caller_roles = obs.next_roles;
    obs.has_roles = false;
    obs.current->enter(name, in);
    obs.made_call = false;
    ++obs.level;
    struct restore {
        runtime::observer_state& s;
        bool reported = false;
        ~restore() {
            --s.level;
            s.made_call = true;
            if (!reported && s.current) s.current->unwind();
        }
    } guard{obs};
    auto result = translate_errors(name, in, body);
    const runtime::call_record call{name, in, result_size(result), obs.level - 1, !obs.made_call, label.draw};
    guard.reported = true;
    // a loop body being captured (sv::repeat_while) cannot read values back: its calls are traced without them
    if (!::scanvec::detail::this_thread().capture && obs.current->wants_values(std::max(call.in, call.out))) {
        const runtime::roles roles = given ? caller_roles : label.roles;
        table t;
        const char* fallback[] = {"A", "B", "C", "D", "E", "F"};
        std::size_t k = 0;
        auto role = [&] {
            const std::size_t i = std::min<std::size_t>(k++, 5);
            return roles.in[i] ? roles.in[i] : fallback[i];
        };
        (add_row(t, role(), inputs), ...);
        (void)role;  // unused when there are no inputs
        add_row(t, roles.out ? roles.out : "Result", result);
        obs.current->primitive(call, &t);
    } else {
        obs.current->primitive(call, nullptr);
    }
    return result;
}

/// For primitives whose result is a scalar.
template <class F, class... Inputs>
auto labelled_scalar(const call_name& label, std::size_t in, F&& body, const Inputs&... inputs) {
    return labelled(label, in, body, inputs...);
}

}  SCANVEC_NAMESPACE_END  // detail
