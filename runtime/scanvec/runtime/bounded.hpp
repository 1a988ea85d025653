// scanvec/runtime/bounded.hpp - sv::bounded<T>: a vector whose length lives on the device.
//
//   sv::bounded<int> f(capacity);                room for capacity elements, length 0
//   sv::bounded<int> g(v);                       v's elements, room and length v.size()
//   f = sv::pack(a, flags, sv::length_on_device)  a step whose result length depends on the data
//   f.length()                                   the length, a sv::device_value<sv::index_t>
//   f.size(), f.to_host(), f.to_vector()         read the length back (each waits)
//   f.shrink_to_fit()                            the capacity made the length (waits)
//
// A step whose result length depends on the data (a pack, the frontier of a
// search) must tell the host that length before the host can size the next
// step: a wait per step, and no loop the device repeats by itself
// (sv::repeat_while). A bounded vector avoids it. Its memory is allocated at a
// bound the host knows (its capacity: the input's length, or one the program
// gives), and its length is a number in device memory that the step which
// made it wrote there. The steps that take it (primitives/bounded.hpp) run
// over the capacity and act on the first length() elements only: their cost
// is a launch over the capacity, and the host never waits for the length.
// Elements past the length are never read by a step.
//
// Bounded vectors are values, like sv::vector: copies are deep, moves cheap.
// A bounded vector is not a sequence: the calls that take vectors and views
// do not take it, so that no step reads past its length by mistake; its
// room() is the vector of all capacity() elements (those past the length
// unspecified) for the program that reads its length first.
#pragma once

#include <scanvec/runtime/device_value.hpp>
#include <scanvec/runtime/sequence.hpp>

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

SCANVEC_NAMESPACE_BEGIN

/// A view whose length lives on the device: capacity() values read through
/// an iterator, of which the first length() are the view's elements (what
/// the lazy calls return when given a bounded vector). Like any view it
/// borrows the memory it reads; it shares the length with what it was made from.
template <class Iterator> class bounded_view {
public:
    using iterator = Iterator;
    using value_type = typename std::iterator_traits<Iterator>::value_type;

    bounded_view(Iterator first, std::size_t capacity, std::shared_ptr<device_value<index_t>> length)
        : first_(first), capacity_(capacity), length_(std::move(length)) {}
    std::size_t capacity() const { return capacity_; }
    const device_value<index_t>& length() const { return *length_; }
    const index_t* length_ptr() const { return length_->ptr(); }
    const std::shared_ptr<device_value<index_t>>& shared_length() const { return length_; }
    Iterator begin() const { return first_; }

private:
    Iterator first_;
    std::size_t capacity_;
    std::shared_ptr<device_value<index_t>> length_;
};

/// A vector whose length lives on the device (see the top of this file).
template <class T> class bounded {
public:
    using value_type = T;

    /// No room, length 0.
    bounded() : bounded(0) {}
    /// Room for capacity elements; length 0. Queues the length's store.
    explicit bounded(std::size_t capacity) : room_(capacity, no_init), length_(fresh_length()) {
        backend::fill_zero(length_->ptr(), sizeof(index_t), current_stream(), "sv::bounded(capacity)");
    }
    /// v's elements: capacity and length v.size() (the length uploaded from the host).
    explicit bounded(vector<T> v) : room_(std::move(v)), length_(fresh_length()) {
        const index_t n = index_t(room_.size());
        backend::copy_to_device(length_->ptr(), &n, sizeof(n), "sv::bounded(vector) (length to device)");
    }
    /// v's elements in room for capacity >= v.size() elements.
    bounded(const vector<T>& v, std::size_t capacity) : bounded(capacity) {
        if (v.size() > capacity)
            throw length_error("sv::bounded(v, capacity): v has " + std::to_string(v.size()) +
                               " elements, more than the capacity " + std::to_string(capacity));
        const index_t n = index_t(v.size());
        if (n) copy_n(detail::reader(v), v.size(), detail::writer(room_));
        backend::copy_to_device(length_->ptr(), &n, sizeof(n), "sv::bounded(v, capacity) (length to device)");
    }
    /// Room and a length a step wrote (the library's own constructor): the
    /// length is shared with the bounded vectors the same step made, so that
    /// they may be combined element by element.
    bounded(vector<T> room, std::shared_ptr<device_value<index_t>> length)
        : room_(std::move(room)), length_(std::move(length)) {}

    bounded(const bounded& o) : room_(o.room_), length_(fresh_length()) {
        backend::copy_on_device(length_->ptr(), o.length_ptr(), sizeof(index_t), current_stream(), "sv::bounded (copy)");
    }
    bounded& operator=(const bounded& o) {
        if (this != &o) *this = bounded(o);
        return *this;
    }
    bounded(bounded&&) noexcept = default;
    bounded& operator=(bounded&&) noexcept = default;

    /// The room: how many elements the vector can hold.
    std::size_t capacity() const { return room_.size(); }
    /// The length, in device memory: a step's functors may read it, and a
    /// loop body may return it as its test (the loop goes on while it is nonzero).
    const device_value<index_t>& length() const { return *length_; }
    const index_t* length_ptr() const { return length_->ptr(); }
    /// The length on the host (waits for the step that wrote it).
    std::size_t size() const { return std::size_t(length_->get()); }
    bool empty() const { return size() == 0; }

    /// Makes the capacity the length, which it reads (waits); the room keeps
    /// its block, no copy. A step on a bounded vector costs its capacity, so a
    /// program whose vector shrank refits it between loops.
    void shrink_to_fit() { room_.resize(size()); }

    /// The first size() elements, as a vector (waits for the length).
    vector<T> to_vector() const {
        const std::size_t n = size();
        vector<T> r(n, no_init);
        if (n) copy_n(detail::reader(room_), n, detail::writer(r));
        return r;
    }
    /// The first size() elements, on the host (waits).
    std::vector<T> to_host() const { return to_vector().to_host(); }

    /// All capacity() elements (those past the length unspecified).
    const vector<T>& room() const { return room_; }
    vector<T>& room() { return room_; }
    /// The elements as a view (a bounded_view over the room).
    auto view() const { return bounded_view<decltype(detail::reader(room_))>(detail::reader(room_), capacity(), length_); }
    /// One field of a struct's elements, as a view of the same length (no copy).
    template <auto Member> auto field() const {
        const auto& f = room_.template field<Member>();
        return bounded_view<decltype(detail::reader(f))>(detail::reader(f), capacity(), length_);
    }
    /// One field's array of a struct's elements moved out as a bounded vector
    /// of the same length (no copy; the other fields are left unusable).
    template <auto Member> auto take_field() && {
        using F = std::decay_t<decltype(room_.template field<Member>())>;
        return bounded<typename F::value_type>(std::move(room_.template field<Member>()), length_);
    }
    /// Shares the length (for the steps that make a bounded vector of the same length).
    const std::shared_ptr<device_value<index_t>>& shared_length() const { return length_; }

    /// The length replaced by one in a block of its own (a loop's state remade after a failure).
    void remake_length() { length_ = fresh_length(); }

private:
    static std::shared_ptr<device_value<index_t>> fresh_length() {
        return std::make_shared<device_value<index_t>>(current_stream());
    }
    template <class In, class Out> static void copy_n(In in, std::size_t n, Out out) {
        thrust::copy_n(detail::policy(current_stream()), in, n, out);
        backend::check_launch("sv::bounded (copy)");
    }

    vector<T> room_;
    std::shared_ptr<device_value<index_t>> length_;
};

namespace detail {
template <class X> struct bounded_traits : std::false_type {};
template <class T> struct bounded_traits<bounded<T>> : std::true_type {};
template <class It> struct bounded_traits<bounded_view<It>> : std::true_type {};
}  // namespace detail

/// Whether X is a bounded vector or view (a sequence whose length is on the device).
template <class X> inline constexpr bool is_bounded_v = detail::bounded_traits<std::decay_t<X>>::value;

SCANVEC_NAMESPACE_END
