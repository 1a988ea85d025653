// scanvec/runtime/device_value.hpp - a scalar left where the kernels run.
//
// A reduce whose result only feeds the next step (split's count of falses)
// need not travel to the host and back: that trip makes the host wait for the
// GPU, then the GPU wait for the next launch. A device_value holds the scalar
// in the runtime's memory; the next step's functors read it through ptr()
// inside their own pass, and get() copies it to the host when the program
// must branch on it. Inside the pass, read it with read_only(ptr()).
// fetch() queues that copy now and returns a pending_value: a program that
// queues more work before it calls get() keeps the GPU busy while it waits.
#pragma once

#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/memory.hpp>

SCANVEC_NAMESPACE_BEGIN

/// *p in a kernel that does not write it, by the read-only load path: the
/// compiler may load it early and keep it, whatever the kernel's stores alias.
template <class T> SCANVEC_HD T read_only(const T* p) {
#if defined(__CUDA_ARCH__)
    return __ldg(p);
#else
    return *p;
#endif
}

/// A device value on its way to the host: the copy was queued when it was
/// made; get() waits for that copy only, not for the work queued after it.
template <class T> class pending_value {
public:
    pending_value(const T* src, stream_t s) : read_(src, sizeof(T), s, "device_value (fetch to host)") {}
    T get() const {
        T v;
        read_.wait_into(&v);
        return v;
    }

private:
    backend::async_read read_;
};

template <class T> class device_value {
public:
    explicit device_value(stream_t s = current_stream()) : mem_(sizeof(T)), stream_(s) {}
    /// Where kernels on this value's stream read (and the reduce wrote) it.
    T* ptr() const { return mem_.as<T>(); }
    /// The value on the host (waits for the work that computes it).
    T get() const {
        T v;
        backend::read_small(&v, ptr(), sizeof(T), stream_, "device_value (copy to host)");
        return v;
    }
    /// The copy to the host queued now, read later (pending_value::get()).
    pending_value<T> fetch() const { return pending_value<T>(ptr(), stream_); }
    stream_t stream() const { return stream_; }

private:
    runtime::scratch mem_;
    stream_t stream_;
};

SCANVEC_NAMESPACE_END
