// scanvec/runtime/backend.hpp - raw memory, copies and error checks of the backend.
//
// The runtime's calls into the CUDA runtime: memory, copies, fills, waits,
// error checks and the device's shape. (A kernel's own launch attributes, such
// as its dynamic shared memory size, are set beside the kernel in detail/.) On
// the host backend the same functions use malloc/memcpy.
#pragma once

#include <scanvec/runtime/config.hpp>
#include <scanvec/runtime/error.hpp>
#include <scanvec/runtime/stream.hpp>

#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(SCANVEC_BACKEND_CUDA)
#  include <cuda_runtime.h>
#endif

SCANVEC_NAMESPACE_BEGIN

/// Where a vector lives: a device ordinal (-1 for host memory) and the stream
/// it belongs to (the one current when it was made, see stream.hpp).
struct place {
    int device = -1;
    stream_t stream = nullptr;
    friend bool operator==(const place& a, const place& b) {
        return a.device == b.device && a.stream == b.stream;
    }
    friend bool operator!=(const place& a, const place& b) { return !(a == b); }
};

namespace backend {

inline void raise_deferred();  // below: after a wait, a deferred check's failure

/// The most bytes an async_read holds, checked before it takes anything.
constexpr std::size_t async_read_capacity = 64;
inline std::size_t async_read_size(std::size_t bytes, const char* op) {
    if (bytes > async_read_capacity)
        throw error(std::string(op) + ": an asynchronous read holds at most 64 bytes, not " + std::to_string(bytes));
    return bytes;
}

#if defined(SCANVEC_BACKEND_CUDA)

[[noreturn]] inline void throw_cuda(cudaError_t e, const char* op) {
    std::string msg = std::string("scanvec: ") + op + " failed: " + cudaGetErrorName(e) + ": " +
                      cudaGetErrorString(e);
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver)
        msg += " (no usable CUDA device; build with the host preset to run without a GPU)";
    throw backend_error(msg);
}

/// Every CUDA call goes through here, so a failure names the operation.
inline void check(cudaError_t e, const char* op) {
    if (e != cudaSuccess) {
        (void)cudaGetLastError();  // clear non-sticky errors so the runtime stays usable
        throw_cuda(e, op);
    }
}

/// After a kernel launch: launch errors surface here, execution errors at the next sync.
inline void check_launch(const char* op) { check(cudaGetLastError(), op); }

inline place current_place() {
    int dev = 0;
    check(cudaGetDevice(&dev), "cudaGetDevice");
    return place{dev, current_stream()};
}

/// Raw device allocation; returns nullptr when the device is out of memory.
inline void* try_allocate(std::size_t bytes) {
    void* p = nullptr;
    cudaError_t e = cudaMalloc(&p, bytes);
    if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        return nullptr;
    }
    check(e, "cudaMalloc");
    return p;
}

inline void release(void* p) noexcept { (void)cudaFree(p); }

/// Throws when this thread captures a loop body: nothing runs while a body
/// is captured, so a wait there would wait for work that is not queued.
inline void expect_not_capturing(const char* op) {
    if (::scanvec::detail::this_thread().capture)
        throw error(std::string(op) + ": waits for the device (reads a result, a length or a check's verdict) "
                                      "inside a loop body that the device repeats (sv::repeat_while); such a "
                                      "body queues work and reads nothing back: use unchecked calls and "
                                      "results that stay on the device (sv::device_value)");
}

inline void synchronize(stream_t s, const char* op) {
    expect_not_capturing(op);
    check(cudaStreamSynchronize(s), op);
}

// Copies between host and device are queued on the current stream and waited
// for there (a plain cudaMemcpy would order them on the legacy default
// stream, which does not wait for work on non-blocking streams).
inline void copy_to_host(void* dst, const void* src, std::size_t bytes, const char* op) {
    if (!bytes) return;
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, current_stream()), op);
    synchronize(current_stream(), op);
    raise_deferred();
}
inline void copy_to_device(void* dst, const void* src, std::size_t bytes, const char* op) {
    if (!bytes) return;
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, current_stream()), op);
    synchronize(current_stream(), op);
}
inline void copy_on_device(void* dst, const void* src, std::size_t bytes, stream_t s, const char* op) {
    if (bytes) check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s), op);
}
inline void fill_bytes(void* dst, int byte, std::size_t bytes, stream_t s, const char* op) {
    if (bytes) check(cudaMemsetAsync(dst, byte, bytes, s), op);
}

template <std::size_t N> struct small_bytes {
    unsigned char b[N];
};
template <std::size_t N> __global__ void store_small_bytes(unsigned char* dst, small_bytes<N> v) {
    for (std::size_t i = threadIdx.x; i < N; i += blockDim.x) dst[i] = v.b[i];
}
/// *dst <- value, queued on s: the value travels as a kernel's argument, so
/// the host goes on at once (a copy from pageable memory may wait for the
/// stream) and may reuse value. For the set-up words of the library's own
/// arrays, read by kernels on the same stream.
template <class T> void write_small(T* dst, const T& value, stream_t s, const char* op) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 64, "write_small: a few bytes of plain data");
    small_bytes<sizeof(T)> v;
    std::memcpy(v.b, &value, sizeof(T));
    store_small_bytes<sizeof(T)><<<1, 32, 0, s>>>(reinterpret_cast<unsigned char*>(dst), v);
    check_launch(op);
}
/// Waits for all work on the current device (every stream).
inline void synchronize_device(const char* op) {
    expect_not_capturing(op);
    check(cudaDeviceSynchronize(), op);
}

/// Events order one stream after another without the host waiting.
using event_t = cudaEvent_t;
inline event_t make_event(const char* op) {
    event_t e = nullptr;
    check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), op);
    return e;
}
inline void destroy_event(event_t e) noexcept { (void)cudaEventDestroy(e); }
/// Marks the work queued on s so far.
inline void record(event_t e, stream_t s, const char* op) { check(cudaEventRecord(e, s), op); }
/// Work queued on s from now on waits for the work e marked.
inline void wait_for(stream_t s, event_t e, const char* op) { check(cudaStreamWaitEvent(s, e, 0), op); }
/// The host waits for the work e marked.
inline void wait_host(event_t e, const char* op) {
    expect_not_capturing(op);
    check(cudaEventSynchronize(e), op);
}
/// Whether the work before e has finished (never waits; an error reads as not yet).
inline bool event_done(event_t e) noexcept {
    const cudaError_t r = cudaEventQuery(e);
    if (r != cudaSuccess) (void)cudaGetLastError();
    return r == cudaSuccess;
}
/// Work queued on `later` from now on waits for the work queued on `earlier` so far.
inline void order_after(stream_t later, stream_t earlier, const char* op) {
    if (later == earlier) return;
    event_t& e = ::scanvec::detail::this_thread().order_event;
    if (!e) e = make_event(op);
    record(e, earlier, op);
    wait_for(later, e, op);
}

/// This thread's second stream on the current device, for work that runs
/// beside the current stream's (the distributed sort merges while NCCL
/// exchanges): made once per device and thread, non-blocking (it waits for
/// the default stream only where order_after says so).
inline stream_t side_stream(const char* op) {
    auto& streams = ::scanvec::detail::this_thread().side_streams;
    int dev = 0;
    check(cudaGetDevice(&dev), op);
    if (std::size_t(dev) >= streams.size()) streams.resize(std::size_t(dev) + 1, nullptr);
    if (!streams[std::size_t(dev)]) check(cudaStreamCreateWithFlags(&streams[std::size_t(dev)], cudaStreamNonBlocking), op);
    return streams[std::size_t(dev)];
}

/// Checks that p is memory this backend's kernels may read and write: device
/// memory of the current device, managed memory, or pinned host memory
/// (cudaMallocHost / cudaHostRegister, read across the bus). Plain host memory
/// and another device's memory throw sv::error naming `what`.
inline void check_user_memory(const void* p, const std::string& what) {
    cudaPointerAttributes a{};
    const cudaError_t e = cudaPointerGetAttributes(&a, p);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        throw error(what + ": CUDA does not know this pointer (" + cudaGetErrorString(e) + ")");
    }
    if (a.type == cudaMemoryTypeUnregistered)
        throw error(what + " points to host memory; the CUDA backend needs device memory (cudaMalloc, "
                           "thrust::device_vector), managed memory or pinned host memory");
    int current = 0;
    check(cudaGetDevice(&current), "cudaGetDevice");
    if (a.type == cudaMemoryTypeDevice && a.device != current)
        throw error(what + " points to memory of device " + std::to_string(a.device) + ", but this thread's device is " +
                    std::to_string(current));
}

/// An attribute of the current device, asked once per device, attribute and thread.
template <cudaDeviceAttr Attr> int device_attribute(const char* op) {
    thread_local int device = -1, value = 0;
    int current = 0;
    backend::check(cudaGetDevice(&current), op);
    if (current != device) {
        backend::check(cudaDeviceGetAttribute(&value, Attr, current), op);
        device = current;
    }
    return value;
}
/// The current device's multiprocessor count.
inline int multiprocessor_count(const char* op) { return device_attribute<cudaDevAttrMultiProcessorCount>(op); }
/// The current device's L2 cache, in bytes.
inline std::size_t l2_cache_bytes(const char* op) { return std::size_t(device_attribute<cudaDevAttrL2CacheSize>(op)); }
/// The number of devices this process sees.
inline int device_count(const char* op) {
    int count = 0;
    check(cudaGetDeviceCount(&count), op);
    return count;
}
/// Makes device d this thread's current device.
inline void set_device(int d, const char* op) { check(cudaSetDevice(d), op); }

/// This thread's pinned buffer for small results (result_buffer_bytes): a
/// cudaMemcpyAsync lands in it, and kernels may store into it directly
/// (unified addressing maps it), which saves the copy. Read it after a wait
/// on the stream; the thread queues nothing else that writes it meanwhile.
using ::scanvec::detail::result_buffer_bytes;
inline void* result_buffer() {
    void*& p = ::scanvec::detail::this_thread().result_buffer;
    if (!p) check(cudaMallocHost(&p, result_buffer_bytes), "cudaMallocHost (result buffer)");
    return p;
}

/// This thread's record of the first failure of a deferred check (pinned:
/// kernels store into it; thread_context.hpp).
inline ::scanvec::detail::deferred_failure* deferred_record() {
    auto*& p = ::scanvec::detail::this_thread().deferred;
    if (!p) {
        void* q = nullptr;
        check(cudaMallocHost(&q, sizeof(*p)), "cudaMallocHost (deferred checks' record)");
        p = static_cast<::scanvec::detail::deferred_failure*>(q);
        *p = {};
    }
    return p;
}

/// Copies a small device value to the host through this thread's pinned
/// buffer (a pageable copy costs several microseconds more) and waits for it
/// (why a copy and not a kernel's store: docs/design/small-calls.md).
inline void read_small(void* dst, const void* src, std::size_t bytes, stream_t s, const char* op) {
    if (bytes > result_buffer_bytes) {
        check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s), op);
        synchronize(s, op);
        raise_deferred();
        return;
    }
    if (bytes == 0) return;
    void* buf = result_buffer();
    check(cudaMemcpyAsync(buf, src, bytes, cudaMemcpyDeviceToHost, s), op);
    synchronize(s, op);
    std::memcpy(dst, buf, bytes);
    raise_deferred();
}

/// A small device-to-host copy queued on a stream now and waited for later
/// (wait_into): the host reads a result while the GPU goes on with the work
/// queued after it. Each read holds a pinned slot and an event, taken from
/// this thread's pool and given back when it is destroyed (after its copy).
class async_read {
public:
    static constexpr std::size_t capacity = async_read_capacity;
    async_read(const void* src, std::size_t bytes, stream_t s, const char* op)
        : bytes_(async_read_size(bytes, op)), slot_(take()), op_(op) {
        check(cudaMemcpyAsync(slot_.host, src, bytes, cudaMemcpyDeviceToHost, s), op);
        check(cudaEventRecord(slot_.done, s), op);
    }
    async_read(async_read&& o) noexcept : bytes_(o.bytes_), slot_(std::exchange(o.slot_, slot{})), op_(o.op_) {}
    async_read& operator=(async_read&& o) noexcept {
        std::swap(slot_, o.slot_);
        std::swap(bytes_, o.bytes_);
        std::swap(op_, o.op_);
        return *this;
    }
    async_read(const async_read&) = delete;
    async_read& operator=(const async_read&) = delete;
    ~async_read() {
        if (!slot_.host) return;
        (void)cudaEventSynchronize(slot_.done);  // the slot is reused only once its copy has landed
        give_back(slot_);
    }
    /// Waits for the copy (not for the work queued after it) and stores the bytes at dst.
    void wait_into(void* dst) const {
        expect_not_capturing(op_);
        check(cudaEventSynchronize(slot_.done), op_);
        std::memcpy(dst, slot_.host, bytes_);
        raise_deferred();
    }

private:
    using slot = ::scanvec::detail::pinned_slot;
    /// A slot of this thread's (its context's free_reads), or a new one.
    static slot take() {
        auto& free = ::scanvec::detail::this_thread().free_reads;
        if (free.empty()) {
            slot s;
            check(cudaMallocHost(&s.host, capacity), "cudaMallocHost (asynchronous read)");
            const cudaError_t e = cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming);
            if (e != cudaSuccess) (void)cudaFreeHost(s.host);
            check(e, "cudaEventCreate (asynchronous read)");
            return s;
        }
        slot s = free.back();
        free.pop_back();
        return s;
    }
    static void give_back(slot s) { ::scanvec::detail::this_thread().free_reads.push_back(s); }
    std::size_t bytes_;
    slot slot_;
    const char* op_;
};

#else  // host backend

inline void check_launch(const char*) {}
inline place current_place() { return place{-1, current_stream()}; }

inline void* try_allocate(std::size_t bytes) {
    // 256-byte alignment, as cudaMalloc gives, so vectorised loops see the same layout.
    std::size_t rounded = (bytes + 255) / 256 * 256;
    return std::aligned_alloc(256, rounded);
}
inline void release(void* p) noexcept { std::free(p); }

inline void copy_to_host(void* dst, const void* src, std::size_t bytes, const char*) {
    if (bytes) std::memcpy(dst, src, bytes);
    raise_deferred();
}
inline void copy_to_device(void* dst, const void* src, std::size_t bytes, const char*) {
    if (bytes) std::memcpy(dst, src, bytes);
}
inline void copy_on_device(void* dst, const void* src, std::size_t bytes, stream_t, const char*) {
    if (bytes) std::memcpy(dst, src, bytes);
}
inline void fill_bytes(void* dst, int byte, std::size_t bytes, stream_t, const char*) {
    if (bytes) std::memset(dst, byte, bytes);
}
template <class T> void write_small(T* dst, const T& value, stream_t, const char*) {
    static_assert(std::is_trivially_copyable_v<T>, "write_small: plain data");
    std::memcpy(dst, &value, sizeof(T));
}
inline void synchronize(stream_t, const char*) {}
inline void synchronize_device(const char*) {}
/// The host backend has no devices to choose between.
inline int device_count(const char*) { return 0; }
inline void set_device(int, const char*) {}
/// Host memory is all one kind: nothing to check.
inline void check_user_memory(const void*, const std::string&) {}

// The host backend runs every call to its end before it returns: nothing to order.
using event_t = void*;
inline event_t make_event(const char*) { return nullptr; }
inline void destroy_event(event_t) noexcept {}
inline void record(event_t, stream_t, const char*) {}
inline void wait_for(stream_t, event_t, const char*) {}
inline void wait_host(event_t, const char*) {}
inline bool event_done(event_t) noexcept { return true; }
inline void order_after(stream_t, stream_t, const char*) {}
inline stream_t side_stream(const char*) { return nullptr; }

inline ::scanvec::detail::deferred_failure* deferred_record() { return ::scanvec::detail::this_thread().deferred; }
inline void read_small(void* dst, const void* src, std::size_t bytes, stream_t, const char*) {
    if (bytes) std::memcpy(dst, src, bytes);
    raise_deferred();
}

using ::scanvec::detail::result_buffer_bytes;
/// This thread's buffer for small results that work stores directly (see the CUDA backend's).
inline void* result_buffer() { return ::scanvec::detail::this_thread().result_buffer; }

/// On the host backend the value is there already: copied when the read is made.
class async_read {
public:
    static constexpr std::size_t capacity = async_read_capacity;
    async_read(const void* src, std::size_t bytes, stream_t, const char* op) : bytes_(async_read_size(bytes, op)) {
        if (bytes) std::memcpy(bytes_held_, src, bytes);
    }
    void wait_into(void* dst) const {
        if (bytes_) std::memcpy(dst, bytes_held_, bytes_);
        raise_deferred();
    }

private:
    std::size_t bytes_;
    alignas(16) unsigned char bytes_held_[capacity];
};

#endif

inline void fill_zero(void* dst, std::size_t bytes, stream_t s, const char* op) { fill_bytes(dst, 0, bytes, s, op); }

/// After a wait: throws the index_error of the first failure a deferred check
/// recorded since the last one (sv::deferred_checks), and forgets it.
inline void raise_deferred() {
    auto* record = ::scanvec::detail::this_thread().deferred;
    if (!record || !static_cast<volatile ::scanvec::detail::deferred_failure*>(record)->op) return;
    const ::scanvec::detail::deferred_failure f = *record;
    record->op = nullptr;
    if (f.kind == 1)
        throw length_error(std::string(f.op) + ": the result has " + std::to_string(f.value) +
                           " elements, more than its capacity " + std::to_string(f.bound));
    throw index_error(std::string(f.op) + ": index idx[" + std::to_string(f.position) + "] = " +
                      std::to_string(f.value) + " is out of range for length " + std::to_string(f.bound));
}

}  // namespace backend

/// Waits until the work this thread queued on its current stream has finished
/// (and reports an error a kernel raised there, or a deferred check's failure).
inline void synchronize() {
    backend::synchronize(current_stream(), "sv::synchronize");
    backend::raise_deferred();
}
SCANVEC_NAMESPACE_END
