// scanvec/runtime/memory.hpp - the runtime's cache of backend memory.
//
// The 2009 library paid for a device allocation on every primitive call. Here
// every vector and every temporary is carved from one process-wide cache:
// freed blocks are kept in size bins and handed out again, so a program that
// calls primitives in a loop reaches a steady state with no backend
// allocations at all. Blocks are reused in stream order: each free block
// remembers the stream it was freed on; a request from that stream takes it
// at once, a request from another stream is first ordered after that work
// (an event, no host wait). So reuse never races with a kernel.
//
// Poisoning: when on (by default in builds without NDEBUG, the debug presets),
// every block returned to the cache is filled with poison_byte, so a lazy view
// or raw pointer that outlived its vector reads 0xDBDB... instead of plausible
// old values. set_poisoning() changes it at run time.
//
// Fault injection (tests only): fail_after(k) makes the k-th allocation
// request from now fail as the backend's out-of-memory does (the cache is
// trimmed, then sv::out_of_memory is thrown), so a test can check that every
// primitive's failure path leaks nothing and leaves its inputs alone. See
// fail_after() below; off, it costs one compare inside the locked section.
//
// At exit the process-wide cache gives its free blocks back (release_at_exit):
// a leak checker (compute-sanitizer --leak-check full, LeakSanitizer) run on
// an application would otherwise report every block scanvec keeps as its leak.
//
// The public face (sv::memory, at the end): where the memory comes from (a
// pair of functions, e.g. an application's pool), trim(), a limit on what the
// cache keeps, and the statistics. How it runs: docs/design/memory.md.
#pragma once

#include <scanvec/runtime/backend.hpp>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

SCANVEC_NAMESPACE_BEGIN namespace runtime {

struct memory_stats {
    std::size_t backend_allocations = 0;  ///< calls that reached the source (cudaMalloc / malloc, or the resource set)
    std::size_t backend_frees = 0;        ///< blocks given back to the source (trim, OOM retry, over the cache limit)
    std::size_t cache_hits = 0;           ///< requests served from the cache
    std::size_t bytes_in_use = 0;         ///< handed out and not yet returned
    std::size_t bytes_cached = 0;         ///< held by the cache, free for reuse
};

/// Where the cache's blocks come from: allocate(bytes, context) returns a block
/// of at least `bytes` bytes in the backend's memory (device memory on CUDA),
/// or nullptr when it has none; deallocate(p, bytes, context) takes it back
/// (bytes as asked). Both are called with the cache's lock held, from any
/// thread that uses scanvec; the work that used a block has finished before
/// it is given back.
struct memory_resource {
    void* (*allocate)(std::size_t bytes, void* context) = nullptr;
    void (*deallocate)(void* p, std::size_t bytes, void* context) = nullptr;
    void* context = nullptr;
};

/// The backend's own allocator: cudaMalloc / cudaFree, or malloc / free on the host.
inline memory_resource backend_resource() {
    memory_resource r;
    r.allocate = [](std::size_t bytes, void*) { return backend::try_allocate(bytes); };
    r.deallocate = [](void* p, std::size_t, void*) { backend::release(p); };
    return r;
}

/// The byte that fills memory returned to the cache while poisoning is on.
inline constexpr unsigned char poison_byte = 0xDB;

class memory_cache;
inline memory_cache& memory();

class memory_cache {
public:
    memory_cache() = default;
    /// The process-wide cache (memory()): releases its blocks at exit.
    struct process_wide_t {};
    explicit memory_cache(process_wide_t) : process_wide_(true) {}
    memory_cache(const memory_cache&) = delete;
    memory_cache& operator=(const memory_cache&) = delete;
    ~memory_cache() {
        std::lock_guard<std::mutex> lock(mutex_);
        trim_locked();
        destroy_spare_events_locked();
    }

    /// Rounds a request up to its bin: 256-byte multiples below 4 KiB, then
    /// steps of 1/8 of a power of two (at most 12.5% slack).
    static std::size_t bin_size(std::size_t bytes) {
        if (bytes <= 4096) return bytes == 0 ? 256 : (bytes + 255) / 256 * 256;
        std::size_t p = 1;
        while ((p << 1) <= bytes) p <<= 1;
        std::size_t step = p / 8;
        return (bytes + step - 1) / step * step;
    }

    /// A block of at least `bytes` bytes, ready for work queued on the
    /// current stream. (While this thread captures a loop body, the process-
    /// wide cache leaves the request to the loop's pool.)
    void* allocate(std::size_t bytes) {
        if (process_wide_)
            if (auto* pool = ::scanvec::detail::this_thread().capture) return pool->allocate(bytes);
        const std::size_t size = bin_size(bytes);
        const stream_t s = current_stream();
        std::lock_guard<std::mutex> lock(mutex_);
        injected_failure_locked(bytes);
        if (auto it = take_locked(size, s); it != free_.end()) {
            ready_on_locked(it->second, s);
            return from_cache_locked(it, size);
        }
        void* p = resource_.allocate(size, resource_.context);
        if (!p) {  // give the cache back to the source and try once more
            trim_locked();
            p = resource_.allocate(size, resource_.context);
        }
        if (!p) throw out_of_memory(out_of_memory_message(bytes), bytes);
        return from_source_locked(p, size);
    }

    /// Takes a block back. `owner` is the stream the block was allocated on;
    /// the block is free once the work queued there and on the current stream
    /// (where a vector made elsewhere may have been used last) is done.
    void deallocate(void* p, std::size_t bytes, stream_t owner = current_stream()) noexcept {
        if (!p) return;
        if (process_wide_)
            if (auto* pool = ::scanvec::detail::this_thread().capture) return pool->deallocate(p, bytes);
        const stream_t s = current_stream();
        free_block b{p, s, nullptr};
        try {
            backend::order_after(s, owner, "memory cache (order a returned block)");
            if (poisoning()) backend::fill_bytes(p, poison_byte, bytes, s, "memory cache (poison a returned block)");
        } catch (...) {  // a stream gone or a failed fill: wait for the whole device instead
            try {
                backend::synchronize_device("memory cache (return a block)");
            } catch (...) {
            }
        }
        const std::size_t size = bin_size(bytes);
        std::lock_guard<std::mutex> lock(mutex_);
        stats_.bytes_in_use -= size;
        if (stats_.bytes_cached + size > cache_limit_) {  // over the limit: straight back to the source
            release_locked(b, size);
            return;
        }
        if (s != stream_t{}) {  // a user's stream may be destroyed before reuse: mark its work now
            try {
                b.done = event_locked();
                backend::record(b.done, s, "memory cache (mark a returned block)");
            } catch (...) {
                release_locked(b, size);
                return;
            }
        }
        free_.emplace(size, b);
        stats_.bytes_cached += size;
    }

    /// For a loop body being captured (runtime/detail/loop/cuda/capture_pool.hpp):
    /// a block that the captured work, launched later on `launch`, may use with
    /// no ordering: one freed on that stream (whose earlier work the launch
    /// follows) or whose work has finished, else a new one from the source. Queues nothing (the capture
    /// would take it in); no trimming (that waits). A request as any other
    /// for the statistics and fail_after.
    void* allocate_for_capture(std::size_t bytes, stream_t launch) {
        const std::size_t size = bin_size(bytes);
        std::lock_guard<std::mutex> lock(mutex_);
        injected_failure_locked(bytes, false);
        auto [first, last] = free_.equal_range(size);
        for (auto it = first; it != last; ++it) {
            free_block& b = it->second;
            if (b.done ? !backend::event_done(b.done) : b.stream != launch) continue;  // its work may still run
            if (b.done) events_.push_back(std::exchange(b.done, nullptr));
            return from_cache_locked(it, size);
        }
        void* p = resource_.allocate(size, resource_.context);
        if (!p) throw out_of_memory(out_of_memory_message(bytes), bytes);
        return from_source_locked(p, size);
    }

    /// Draws new blocks from r from now on (cached blocks go back to the old
    /// source first). Throws sv::error while scanvec memory is in use (blocks
    /// must go back to the source they came from): set it before the first
    /// vector is made, or when every vector is gone.
    void set_resource(const memory_resource& r) {
        if (!r.allocate || !r.deallocate) throw error("scanvec::memory::set_resource: both functions are needed");
        // the blocks this thread's checks keep between calls are the cache's, not a vector's: given back
        // first (other threads' stay, and count as in use)
        if (process_wide_) ::scanvec::detail::this_thread().release_kept();
        std::lock_guard<std::mutex> lock(mutex_);
        if (stats_.bytes_in_use != 0)
            throw error("scanvec::memory::set_resource: " + std::to_string(stats_.bytes_in_use) +
                        " bytes of scanvec memory are in use (by vectors, or kept by the checks of other threads "
                        "until they end); set the resource before any vector exists");
        trim_locked();
        resource_ = r;
        const memory_resource own = backend_resource();
        backend_source_ = r.allocate == own.allocate && r.deallocate == own.deallocate;
    }

    /// Keeps at most `bytes` of free blocks; blocks returned past it go back to
    /// the source at once (trims now to fit). No limit by default.
    void set_cache_limit(std::size_t bytes) noexcept {
        std::lock_guard<std::mutex> lock(mutex_);
        cache_limit_ = bytes;
        while (stats_.bytes_cached > cache_limit_ && !free_.empty()) {
            auto largest = std::prev(free_.end());
            stats_.bytes_cached -= largest->first;
            release_locked(largest->second, largest->first);
            free_.erase(largest);
        }
    }
    std::size_t cache_limit() const noexcept {
        std::lock_guard<std::mutex> lock(mutex_);
        return cache_limit_;
    }

    /// Returns every cached (free) block to the backend.
    void trim() noexcept {
        std::lock_guard<std::mutex> lock(mutex_);
        trim_locked();
    }

    /// What the process-wide cache does at exit (registered with std::atexit
    /// by its first allocation from the source): gives every free block and
    /// pooled event back, and from then on sends each returned block straight
    /// back (a cache limit of 0), so that a vector that outlives the exit
    /// handlers frees its block when it goes; blocks in use stay with their
    /// vectors, freed once, by them. Failures are ignored (the backend may be
    /// shutting down). With a resource set by the application (set_resource)
    /// the free blocks stay cached: its pool may be gone by then (trim() gives
    /// them back while it lives). The cache stays usable.
    void release_at_exit() noexcept {
        std::lock_guard<std::mutex> lock(mutex_);
        if (backend_source_) {
            trim_locked();
            cache_limit_ = 0;
        }
        destroy_spare_events_locked();
    }

    /// Test hook (fault injection): the k-th allocation request from now
    /// (k = 0: the next one) fails as if the backend were out of memory: the
    /// cache is trimmed and sv::out_of_memory is thrown, naming the requested
    /// size, exactly where a real failure throws. Every request counts, cache
    /// hits included (a failing request does not look in the cache), so a
    /// call's failure points do not depend on what the cache holds: the
    /// requests a call makes are the growth of cache_hits + backend_allocations
    /// across it, and fail_after(0) .. fail_after(that - 1) reach each of them.
    /// One request fails; the ones after it succeed again. A new fail_after()
    /// replaces a pending one; stop_failing() cancels it. Process-wide (every
    /// thread's requests count). Off, it costs one compare under the lock.
    void fail_after(std::size_t k) noexcept {
        std::lock_guard<std::mutex> lock(mutex_);
        fail_countdown_ = k == no_failure ? no_failure - 1 : k;
    }
    /// Cancels a pending fail_after().
    void stop_failing() noexcept {
        std::lock_guard<std::mutex> lock(mutex_);
        fail_countdown_ = no_failure;
    }

    /// Whether returned blocks are filled with poison_byte (see above).
    bool poisoning() const noexcept { return poison_.load(std::memory_order_relaxed); }
    void set_poisoning(bool on) noexcept { poison_.store(on, std::memory_order_relaxed); }

    memory_stats stats() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return stats_;
    }

private:
    static constexpr std::size_t no_failure = ~std::size_t(0);

    /// Fault injection (fail_after): throws for the request it counts down to.
    /// (trim: as the backend's out-of-memory path does; not while capturing, where it cannot wait)
    void injected_failure_locked(std::size_t bytes, bool trim = true) {
        if (fail_countdown_ == no_failure) return;  // off: rarely otherwise
        if (fail_countdown_ == 0) {
            fail_countdown_ = no_failure;
            if (trim) trim_locked();
            throw out_of_memory(out_of_memory_message(bytes) + " [injected by memory_cache::fail_after]", bytes);
        }
        --fail_countdown_;
    }

    std::string out_of_memory_message(std::size_t bytes) const {
        return "scanvec: out of device memory allocating " + std::to_string(bytes) + " bytes (" +
               std::to_string(stats_.bytes_in_use) + " bytes in use by scanvec)";
    }

    /// A free block: where it is, the stream it was freed on, and (for a
    /// stream other than the default) an event marking the work queued before.
    struct free_block {
        void* p;
        stream_t stream;
        backend::event_t done;
    };
    using free_map = std::multimap<std::size_t, free_block>;

    /// A free block of the bin `size`, one freed on stream s if there is one.
    typename free_map::iterator take_locked(std::size_t size, stream_t s) {
        auto [first, last] = free_.equal_range(size);
        for (auto it = first; it != last; ++it)
            if (it->second.stream == s) return it;
        return first == last ? free_.end() : first;
    }

    /// Orders work queued on s from now on after the work that used b last.
    void ready_on_locked(free_block& b, stream_t s) {
        // (a block from a user's stream waits for its event even on "the same"
        // stream: a stream destroyed and made again may have the same handle)
        if (b.done) {
            backend::wait_for(s, b.done, "memory cache (reuse a block)");
            events_.push_back(std::exchange(b.done, nullptr));
        } else if (b.stream != s) {
            backend::order_after(s, b.stream, "memory cache (reuse a block across streams)");
        }
    }

    /// A free block of the bin `size`, counted and handed out.
    void* from_cache_locked(free_map::iterator it, std::size_t size) {
        void* p = it->second.p;
        free_.erase(it);
        stats_.cache_hits++;
        stats_.bytes_cached -= size;
        stats_.bytes_in_use += size;
        return p;
    }

    /// A block new from the source, counted and handed out.
    void* from_source_locked(void* p, std::size_t size) {
        stats_.backend_allocations++;
        stats_.bytes_in_use += size;
        if (process_wide_ && !exit_release_registered_) {
            // Registered after the source's first block, so after the CUDA
            // runtime set up its own teardown at exit: exit handlers run in
            // the reverse order, so this one frees while the runtime still can.
            exit_release_registered_ = true;
            (void)std::atexit(release_process_cache_at_exit);
        }
        return p;
    }

    /// An event for a returned block, from the pool.
    backend::event_t event_locked() {
        if (events_.empty()) return backend::make_event("memory cache (event for a returned block)");
        backend::event_t e = events_.back();
        events_.pop_back();
        return e;
    }

    /// A block back to its source, once the device has finished with it (a
    /// block freed by a vector may still be read by work queued before).
    void release_locked(free_block& b, std::size_t size) noexcept {
        try {
            if (b.done) backend::wait_host(b.done, "memory cache (give a block back)");
            else backend::synchronize(b.stream, "memory cache (give a block back)");
        } catch (...) {  // an earlier kernel's error: it surfaces at the caller's next wait
        }
        if (b.done) events_.push_back(std::exchange(b.done, nullptr));
        resource_.deallocate(b.p, size, resource_.context);
        stats_.backend_frees++;
    }

    void trim_locked() noexcept {
        for (auto& [size, b] : free_) {
            release_locked(b, size);
            stats_.bytes_cached -= size;
        }
        free_.clear();
    }

    /// Destroys the pooled events (those of cached blocks stay with them).
    void destroy_spare_events_locked() noexcept {
        for (backend::event_t e : events_) backend::destroy_event(e);
        events_.clear();
    }

    static void release_process_cache_at_exit() { memory().release_at_exit(); }

    mutable std::mutex mutex_;
    free_map free_;
    std::vector<backend::event_t> events_;  // pooled, for blocks returned on a user's stream
    memory_stats stats_;
    std::size_t fail_countdown_ = no_failure;  // requests left before the injected failure (fail_after)
    memory_resource resource_ = backend_resource();
    bool backend_source_ = true;  // resource_ is the backend's own allocator
    bool process_wide_ = false;
    bool exit_release_registered_ = false;
    std::size_t cache_limit_ = ~std::size_t(0);
#if defined(NDEBUG)
    std::atomic<bool> poison_{false};
#else
    std::atomic<bool> poison_{true};
#endif
};

/// The process-wide cache. The object is never destroyed (vectors with
/// static storage duration may return blocks after any destructor of its
/// would have run); its free blocks go back at exit (release_at_exit).
inline memory_cache& memory() {
    static memory_cache* cache = new memory_cache(memory_cache::process_wide_t{});
    return *cache;
}

/// Thrust-compatible allocator over the cache, for temporaries inside Thrust calls.
/// (Thrust allocates and frees them within one call, on one stream.)
struct cached_allocator {
    using value_type = char;
    char* allocate(std::ptrdiff_t n) { return static_cast<char*>(memory().allocate(std::size_t(n))); }
    void deallocate(char* p, std::size_t n) noexcept { memory().deallocate(p, n, current_stream()); }
};

/// RAII temporary storage from the cache (move-only).
class scratch {
public:
    scratch() = default;
    explicit scratch(std::size_t bytes)
        : bytes_(bytes), ptr_(bytes ? memory().allocate(bytes) : nullptr), owner_(current_stream()) {}
    scratch(scratch&& o) noexcept : bytes_(o.bytes_), ptr_(o.ptr_), owner_(o.owner_) { o.ptr_ = nullptr; o.bytes_ = 0; }
    scratch& operator=(scratch&& o) noexcept {
        if (this != &o) {
            reset();
            bytes_ = o.bytes_; ptr_ = o.ptr_; owner_ = o.owner_;
            o.ptr_ = nullptr; o.bytes_ = 0;
        }
        return *this;
    }
    ~scratch() { reset(); }
    void* get() const { return ptr_; }
    std::size_t size() const { return bytes_; }
    template <class T> T* as() const { return static_cast<T*>(ptr_); }

private:
    void reset() noexcept {
        if (ptr_) memory().deallocate(ptr_, bytes_, owner_);
        ptr_ = nullptr;
        bytes_ = 0;
    }
    std::size_t bytes_ = 0;
    void* ptr_ = nullptr;
    stream_t owner_ = nullptr;
};

}  SCANVEC_NAMESPACE_END  // runtime

SCANVEC_NAMESPACE_BEGIN namespace memory {

/// Where scanvec's memory comes from (see runtime::memory_resource): an
/// application's pool, say. Set it before the first vector exists (sv::error
/// otherwise). memory::set_resource(runtime::backend_resource()) restores the default.
inline void set_resource(const runtime::memory_resource& r) { runtime::memory().set_resource(r); }

/// Gives every cached (free) block back to its source; blocks in use stay.
inline void trim() noexcept { runtime::memory().trim(); }

/// Keeps at most `bytes` of free blocks in the cache (none: 0; no limit by default).
inline void set_cache_limit(std::size_t bytes) noexcept { runtime::memory().set_cache_limit(bytes); }

/// What the cache has done and holds: blocks asked of the source and given
/// back, requests served from the cache, bytes in use and bytes cached.
inline runtime::memory_stats stats() { return runtime::memory().stats(); }

}  SCANVEC_NAMESPACE_END  // memory
