// scanvec/runtime/buffer.hpp - one typed array in backend memory (move-only RAII).
#pragma once

#include <scanvec/runtime/memory.hpp>

#include <algorithm>
#include <utility>

SCANVEC_NAMESPACE_BEGIN namespace detail {

template <class T> class buffer {
    static_assert(std::is_trivially_copyable_v<T>, "scanvec buffers hold trivially copyable elements");

public:
    buffer() : where_(backend::current_place()) {}
    explicit buffer(std::size_t n) : where_(backend::current_place()) { reserve_exact(n); size_ = n; }
    buffer(buffer&& o) noexcept : ptr_(o.ptr_), size_(o.size_), capacity_(o.capacity_), where_(o.where_) {
        o.ptr_ = nullptr; o.size_ = o.capacity_ = 0;
    }
    buffer& operator=(buffer&& o) noexcept {
        if (this != &o) {
            release();
            ptr_ = o.ptr_; size_ = o.size_; capacity_ = o.capacity_; where_ = o.where_;
            o.ptr_ = nullptr; o.size_ = o.capacity_ = 0;
        }
        return *this;
    }
    buffer(const buffer& o) : where_(backend::current_place()) {
        reserve_exact(o.size_);
        size_ = o.size_;
        backend::copy_on_device(ptr_, o.ptr_, bytes(size_), current_stream(), "vector copy (device to device)");
    }
    buffer& operator=(const buffer& o) {
        if (this != &o) { buffer tmp(o); *this = std::move(tmp); }
        return *this;
    }
    ~buffer() { release(); }

    T* data() const { return ptr_; }
    std::size_t size() const { return size_; }
    const place& where() const { return where_; }

    /// Keeps the first min(n, size) elements; new elements are zero bytes.
    void resize(std::size_t n) {
        if (n > capacity_) {
            buffer bigger;
            bigger.where_ = where_;
            bigger.reserve_exact(std::max(n, capacity_ + capacity_ / 2));
            backend::copy_on_device(bigger.ptr_, ptr_, bytes(size_), current_stream(), "vector resize (copy)");
            std::swap(ptr_, bigger.ptr_);
            std::swap(capacity_, bigger.capacity_);
        }
        if (n > size_) backend::fill_zero(ptr_ + size_, bytes(n - size_), current_stream(), "vector resize (fill)");
        size_ = n;
    }

private:
    static std::size_t bytes(std::size_t n) { return n * sizeof(T); }
    void reserve_exact(std::size_t n) {
        if (n) ptr_ = static_cast<T*>(runtime::memory().allocate(bytes(n)));
        capacity_ = n;
    }
    void release() noexcept {
        if (ptr_) runtime::memory().deallocate(ptr_, bytes(capacity_), where_.stream);
        ptr_ = nullptr;
    }

    T* ptr_ = nullptr;
    std::size_t size_ = 0, capacity_ = 0;
    place where_;
};

}  SCANVEC_NAMESPACE_END  // detail
