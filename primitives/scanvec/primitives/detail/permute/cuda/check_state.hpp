// scanvec/primitives/detail/permute/cuda/check_state.hpp - device state that the checks leave as they found it (CUDA).
//
// Four pieces: check_state (a kernel's partials and counters, cleared by the
// kernel that reads them last), stamp_state (a word per index, marked with the
// call's epoch, so never cleared between calls), power_table_state (the power
// sums' tables, written once) and failure_flag (a word of the pinned result
// buffer that a kernel sets on any failure).
//
// A check's state must start cleared: its counter of finished blocks at 0.
// Clearing it before every call is a launch of
// its own, which for a small vector costs as much as the check. So each host
// thread keeps one block of state per device, cleared once when it is made;
// the kernel that reads the state last clears it again, and the host marks it
// clean only once it has read that kernel's verdict. A call that is left by an
// exception before that leaves the block marked dirty, and the next call
// clears it first.
//
// The blocks come from the memory cache and stay with the thread (its
// context's kept blocks, runtime/detail/thread_context.hpp) until it ends:
// check_state_policy::bytes per thread and device, the stamps, the tables.
#pragma once

#include <scanvec/primitives/detail/permute/power_sums.hpp>
#include <scanvec/runtime/backend.hpp>
#include <scanvec/runtime/memory.hpp>
#include <scanvec/runtime/stream.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>

SCANVEC_NAMESPACE_BEGIN namespace detail {

struct check_state_policy {
    /// Per-block partial results a check may store (one slot of `slot_bytes`
    /// per block of its kernel): the kernels launch at most this many blocks.
    static constexpr std::size_t max_blocks = 2048;
    static constexpr std::size_t slot_bytes = 48;
    /// The header: the finished-block counter (a line of its own).
    static constexpr std::size_t header_bytes = 64;
    static constexpr std::size_t bytes = header_bytes + max_blocks * slot_bytes;
};

/// The kept blocks of this thread tagged `kind` (any object's address).
template <class F> kept_block* find_kept(const void* kind, int device, F&& usable) {
    for (auto& b : this_thread().kept)
        if (b.kind == kind && b.device == device && usable(b)) return &b;
    return nullptr;
}
/// A new kept block of `bytes` from the memory cache, tagged `kind`, for the current device.
inline kept_block& keep_block(const void* kind, int device, std::size_t bytes) {
    void* p = runtime::memory().allocate(bytes);
    auto& kept = this_thread().kept;
    try {
        kept.push_back({});
    } catch (...) {
        runtime::memory().deallocate(p, bytes);
        throw;
    }
    auto& b = kept.back();
    b.kind = kind;
    b.device = device;
    b.p = p;
    b.bytes = bytes;
    b.release = [](void* q, std::size_t n) { runtime::memory().deallocate(q, n, stream_t{}); };
    return b;
}
/// The current device's ordinal.
inline int current_device(const char* op) {
    int device = 0;
    backend::check(cudaGetDevice(&device), op);
    return device;
}
inline constexpr char check_state_kind = 0, stamps_kind = 0, power_tables_kind = 0;

/// This thread's state block on the current device, held for one check.
class check_state {
public:
    check_state() : s_(current_stream()) {
        const int device = current_device("check state (cudaGetDevice)");
        block_ = find_kept(&check_state_kind, device, [](const kept_block& b) { return !b.busy; });
        if (!block_) block_ = &keep_block(&check_state_kind, device, check_state_policy::bytes);  // not clean yet
        block_->busy = true;
        if (!block_->clean)
            backend::check(cudaMemsetAsync(block_->p, 0, check_state_policy::header_bytes, s_), "check state (clear)");
        block_->clean = false;  // until the verdict has been read
    }
    check_state(const check_state&) = delete;
    check_state& operator=(const check_state&) = delete;
    ~check_state() { block_->busy = false; }

    /// Blocks of the kernel that have finished (the last one reads the rest). Clean: 0.
    unsigned* blocks_done() const { return static_cast<unsigned*>(block_->p); }
    /// Where the last block stores what it found: this thread's pinned result
    /// buffer, which the host reads after the wait (no copy queued).
    unsigned long long* verdict() const { return static_cast<unsigned long long*>(backend::result_buffer()); }
    /// Room for the kernel's per-block partial results.
    void* partials() const { return static_cast<char*>(block_->p) + check_state_policy::header_bytes; }
    stream_t stream() const { return s_; }

    /// Waits for the kernel and reads the verdict's first Words words; the
    /// kernel has left the state clean.
    template <std::size_t Words> void read_verdict(unsigned long long (&out)[Words], const char* op) const {
        static_assert(sizeof(out) <= backend::result_buffer_bytes);
        backend::synchronize(s_, op);
        std::memcpy(out, verdict(), sizeof(out));
        block_->clean = true;
    }

private:
    kept_block* block_ = nullptr;
    stream_t s_;
};

/// A word of this thread's pinned result buffer that a kernel sets (to any
/// nonzero value) when it finds bad input: cleared by the host before the
/// launch, read after one wait. No copy is queued and nothing needs clearing
/// on the device. The caller's kernels store into it only on failure.
class failure_flag {
public:
    failure_flag() : p_(static_cast<unsigned*>(backend::result_buffer())) { *p_ = 0; }
    unsigned* device() const { return p_; }
    /// Waits for the stream, then reports whether a kernel raised the flag.
    bool raised(stream_t s, const char* op) const {
        backend::synchronize(s, op);
        return *static_cast<volatile unsigned*>(p_) != 0;
    }

private:
    unsigned* p_;
};

/// This thread's stamps on the current device: one 32-bit word per index, for
/// a check that marks each index it meets (atomicExch of the call's epoch: an
/// index met twice finds the epoch already there). Every call takes a new
/// epoch, so the marks of earlier calls never count and no launch clears them;
/// the words are zeroed only when they are made, grown, or the epoch wraps.
/// Kept for the thread's life: 4 bytes an index, for the largest n
/// asked (the caller bounds it).
class stamp_state {
public:
    stamp_state(std::size_t n, stream_t s) {
        const int device = current_device("stamps (cudaGetDevice)");
        words_ = find_kept(&stamps_kind, device, [](const kept_block&) { return true; });
        if (!words_ || words_->bytes < n * sizeof(unsigned)) {  // none yet, or too small: a larger one
            std::size_t capacity = std::size_t(1) << 12;
            while (capacity < n) capacity *= 2;
            if (words_) {
                words_->release(words_->p, words_->bytes);
                words_->p = nullptr;
                words_->bytes = 0;
                words_->p = runtime::memory().allocate(capacity * sizeof(unsigned));
                words_->bytes = capacity * sizeof(unsigned);
            } else {
                words_ = &keep_block(&stamps_kind, device, capacity * sizeof(unsigned));
            }
            words_->epoch = 0;
        }
        if (words_->epoch == 0u || words_->epoch == ~0u) {  // new, or about to wrap: no stale epoch may match
            backend::check(cudaMemsetAsync(words_->p, 0, words_->bytes, s), "stamps (clear)");
            words_->epoch = 0;
        }
        ++words_->epoch;
    }
    unsigned* words() const { return static_cast<unsigned*>(words_->p); }
    unsigned epoch() const { return words_->epoch; }

private:
    kept_block* words_ = nullptr;
};

/// This thread's copy of the power sums' tables on the current device
/// (detail/permute/power_sums.hpp): 32 KB, copied once when made, read only after.
inline power_tables power_table_state() {
    const int device = current_device("power tables (cudaGetDevice)");
    if (const kept_block* t = find_kept(&power_tables_kind, device, [](const kept_block&) { return true; }))
        return {static_cast<std::uint64_t*>(t->p)};
    const auto& words = power_table_words();
    kept_block& t = keep_block(&power_tables_kind, device, sizeof(words));
    t.kind = nullptr;  // found only once its tables are there
    const stream_t s = current_stream();  // the block is ready there; the copy waited for, once
    backend::check(cudaMemcpyAsync(t.p, words.data(), sizeof(words), cudaMemcpyHostToDevice, s), "power tables (copy)");
    backend::synchronize(s, "power tables (copy)");
    t.kind = &power_tables_kind;
    return {static_cast<std::uint64_t*>(t.p)};
}

}  SCANVEC_NAMESPACE_END  // detail
