// scanvec/runtime/detail/loop/cuda/graph.hpp - a loop's CUDA graph: a
// conditional while node whose body is captured anew by each loop, kept per
// call site and updated in place (CUDA).
//
// What the loops of runtime/repeat_on_device.hpp (quicksort's rounds) and of
// sv::repeat_while (runtime/loop.hpp) share: the device's tally, the stream
// that captures, the graph, and the call site's slot that keeps it between
// loops; and repeat_on_device's tally kernel (sv::repeat_while's tally ends
// its calls' launch, end_call.hpp).
#pragma once

#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/stream.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <memory>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace runtime::detail {

/// The device's tally (zeroed by each run); done: sv::repeat_while's loop has
/// seen a call whose test was 0 (calls after it count nothing).
struct repeat_counts {
    unsigned long long calls, nonzero, done;
};

/// After each call: the tally, and after a period's last call the loop's
/// condition: go on while the test is nonzero, fewer than `limit` calls ran,
/// and no deferred check has stored a failure (`failure`, the thread's record,
/// when not null: the loop ends with the call that failed, and its error is
/// raised at the host's wait).
template <class Test>
__global__ void repeat_tally_call(const Test* test, repeat_counts* counts, cudaGraphConditionalHandle loop, bool last,
                                  unsigned long long limit, const ::scanvec::detail::deferred_failure* failure) {
    const bool go = *test != Test(0);
    counts->calls += 1;
    counts->nonzero += go ? 1 : 0;
    const bool failed = failure && *static_cast<const char* const volatile*>(&failure->op);
    if (last) cudaGraphSetConditional(loop, go && !failed && counts->calls < limit ? 1u : 0u);
}

/// This thread's stream for captures: capture needs a stream other than the
/// legacy default one; made once, kept to the thread's end.
inline stream_t capture_stream(const char* op) {
    cudaStream_t& s = ::scanvec::detail::this_thread().capture_stream;
    if (!s) backend::check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), op);
    return s;
}

/// A loop's graph: a conditional while node whose body graph is captured
/// anew by each prepare_repeat, and the executable graph, instantiated once
/// and then updated in place (the node and its condition stay the same, as
/// an update requires).
class repeat_graph {
public:
    repeat_graph(const repeat_graph&) = delete;
    repeat_graph& operator=(const repeat_graph&) = delete;
    explicit repeat_graph(const char* op) {
        backend::check(cudaGetDevice(&device_), op);
        backend::check(cudaGraphCreate(&graph_, 0), op);
        backend::check(cudaGraphConditionalHandleCreate(&condition_, graph_, 1, cudaGraphCondAssignDefault), op);
        cudaGraphNodeParams params{};
        params.type = cudaGraphNodeTypeConditional;
        params.conditional.handle = condition_;
        params.conditional.type = cudaGraphCondTypeWhile;
        params.conditional.size = 1;
        cudaGraphNode_t node;
        backend::check(cudaGraphAddNode(&node, graph_, nullptr, nullptr, 0, &params), op);
        body_ = params.conditional.phGraph_out[0];
    }
    ~repeat_graph() {
        if (exec_) (void)cudaGraphExecDestroy(exec_);
        if (graph_) (void)cudaGraphDestroy(graph_);
    }
    int device() const { return device_; }
    cudaGraphConditionalHandle condition() const { return condition_; }
    /// The loop's body, emptied of the calls captured before.
    cudaGraph_t empty_body(const char* op) {
        std::size_t count = 0;
        backend::check(cudaGraphGetNodes(body_, nullptr, &count), op);
        if (count == 0) return body_;
        std::vector<cudaGraphNode_t> nodes(count);
        backend::check(cudaGraphGetNodes(body_, nodes.data(), &count), op);
        for (std::size_t k = 0; k < count; ++k) backend::check(cudaGraphDestroyNode(nodes[k]), op);
        return body_;
    }
    /// Makes the executable graph that of the body as captured now: the kept
    /// one updated where its nodes pair with the new body's (the same launches
    /// in the same order), else a new one.
    void make_executable(const char* op) {
        if (exec_) {
            cudaGraphExecUpdateResultInfo info{};
            if (cudaGraphExecUpdate(exec_, graph_, &info) == cudaSuccess) return;
            (void)cudaGetLastError();  // a refused update is not the program's error
            (void)cudaGraphExecDestroy(exec_);
            exec_ = nullptr;
        }
        backend::check(cudaGraphInstantiate(&exec_, graph_, 0), op);
    }
    /// The executable graph (null before make_executable).
    cudaGraphExec_t executable() const { return exec_; }

private:
    int device_ = -1;
    cudaGraph_t graph_ = nullptr;
    cudaGraph_t body_ = nullptr;  ///< owned by graph_'s node
    cudaGraphConditionalHandle condition_{};
    cudaGraphExec_t exec_ = nullptr;
};

/// Where a call site keeps its graph between calls on one thread (one per
/// type of body): empty while a loop holds it. Owned by the thread (a loop
/// that outlives it finds it gone).
struct repeat_site {
    std::unique_ptr<repeat_graph> kept;
};
template <class Body> const std::shared_ptr<repeat_site>& site_of() {
    thread_local const std::shared_ptr<repeat_site> site = std::make_shared<repeat_site>();
    return site;
}

}  SCANVEC_NAMESPACE_END  // runtime::detail
