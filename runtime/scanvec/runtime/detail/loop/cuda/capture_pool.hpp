// scanvec/runtime/detail/loop/cuda/capture_pool.hpp - the memory of a loop
// body while it is captured (CUDA).
//
// A captured body runs nothing: its allocations and frees happen on the host
// as the calls are made, and the device replays the captured kernels, with
// the addresses they were given, call after call. So while a body is captured
// every block it asks for or gives back passes through this pool:
// - a block the body takes is drawn from the cache once, with no ordering
//   queued (allocate_for_capture: one freed on the launch stream, or a new
//   one), and is the pool's;
// - a block it frees is kept by the pool: one the pool drew may be handed out
//   again later in the same capture (the replayed calls do the same in the
//   same order); one that was in use before the loop (the state a step
//   replaced) is never handed out, so it keeps the value the next call reads;
// - when the loop has run, the pool gives every block it keeps back to the
//   cache in the launch stream's order (after the graph's last call).
// Blocks the body drew and still holds at the end (the new state) stay with
// their vectors. runtime/loop.hpp's contract says what a body may do;
// docs/design/loops.md says why.
#pragma once

#include <scanvec/runtime/memory.hpp>
#include <scanvec/runtime/stream.hpp>

#include <cstddef>
#include <map>
#include <utility>

SCANVEC_NAMESPACE_BEGIN namespace runtime::detail {

class capture_pool final : public ::scanvec::detail::capture_memory {
public:
    /// Routes this thread's requests here until stop() (or destruction).
    explicit capture_pool(stream_t launch) : launch_(launch), before_(::scanvec::detail::this_thread().capture) {
        ::scanvec::detail::this_thread().capture = this;
    }
    capture_pool(const capture_pool&) = delete;
    capture_pool& operator=(const capture_pool&) = delete;
    ~capture_pool() {
        stop();
        give_back();
    }

    /// The thread's requests go to the cache again.
    void stop() noexcept {
        if (!routing_) return;
        ::scanvec::detail::this_thread().capture = before_;
        routing_ = false;
    }

    void* allocate(std::size_t bytes) override {
        const std::size_t bin = memory_cache::bin_size(bytes);
        if (auto [first, last] = reusable_.equal_range(bin); first != last) {  // the latest one freed
            const auto it = std::prev(last);
            void* p = it->second;
            reusable_.erase(it);
            return p;
        }
        // the map's node first: inserting it back allocates nothing, so a block drawn is never lost
        auto room = drawn_.extract(drawn_.emplace(nullptr, bin).first);
        void* p = memory().allocate_for_capture(bytes, launch_);
        room.key() = p;
        drawn_.insert(std::move(room));
        return p;
    }

    void deallocate(void* p, std::size_t bytes) noexcept override {
        const std::size_t bin = memory_cache::bin_size(bytes);
        try {
            if (drawn_.count(p)) reusable_.emplace(bin, p);
            else outside_.emplace(p, bin);
        } catch (...) {  // no room to keep it: held by no one, so lost, but never reused early
        }
    }

    /// Whether the body gave back p, a block in use before the loop.
    bool freed_from_before(const void* p) const { return outside_.count(const_cast<void*>(p)) != 0; }
    /// Blocks in use before the loop that the body gave back: address and size.
    const std::map<void*, std::size_t>& freed_before() const { return outside_; }

    /// Every block the pool keeps, back to the cache in the launch stream's
    /// order (after the work queued there so far).
    void give_back() noexcept {
        on scope(launch_);
        for (const auto& [bin, p] : reusable_) memory().deallocate(p, bin, launch_);
        for (const auto& [p, bin] : outside_) memory().deallocate(p, bin, launch_);
        reusable_.clear();
        outside_.clear();
    }

private:
    stream_t launch_;
    ::scanvec::detail::capture_memory* before_;
    bool routing_ = true;
    std::map<void*, std::size_t> drawn_;           ///< every block drawn from the cache in this capture, and its bin
    std::multimap<std::size_t, void*> reusable_;   ///< drawn blocks the body gave back, by bin
    std::map<void*, std::size_t> outside_;         ///< blocks from before the loop the body gave back
};

}  SCANVEC_NAMESPACE_END  // runtime::detail
