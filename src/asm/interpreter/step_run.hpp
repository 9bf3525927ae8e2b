// The code of a lowered step: a closure called with the frame, as std::function<void(Frame&)> would
// hold it, except that the closure lives in the step itself when it fits (a vector operation's captures
// its slot indices, kernel and general form), so that running a step follows no pointer to its closure.
// Larger closures live on the heap. Move-only: a program's steps are built once and never copied.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace pto::as::interp {

struct Frame;

class StepRun {
public:
    template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, StepRun>>>
    StepRun(F&& fn)  // implicit, as std::function's: lowering passes lambdas
    {
        using Fn = std::decay_t<F>;
        if constexpr (sizeof(Fn) <= kInlineBytes && alignof(Fn) <= kInlineAlign && std::is_nothrow_move_constructible_v<Fn>) {
            ::new (static_cast<void*>(storage_)) Fn(std::forward<F>(fn));
            invoke_ = [](void* closure, Frame& f) { (*static_cast<Fn*>(closure))(f); };
            relocate_ = [](void* to, void* from) {
                if (to) ::new (to) Fn(std::move(*static_cast<Fn*>(from)));
                static_cast<Fn*>(from)->~Fn();
            };
        } else {
            ::new (static_cast<void*>(storage_)) Fn*(new Fn(std::forward<F>(fn)));
            invoke_ = [](void* closure, Frame& f) { (**static_cast<Fn**>(closure))(f); };
            relocate_ = [](void* to, void* from) {
                Fn* held = *static_cast<Fn**>(from);
                if (to) ::new (to) Fn*(held);
                else delete held;
            };
        }
    }
    StepRun(StepRun&& other) noexcept { take(other); }
    StepRun& operator=(StepRun&& other) noexcept
    {
        if (this != &other) {
            reset();
            take(other);
        }
        return *this;
    }
    StepRun(const StepRun&) = delete;
    StepRun& operator=(const StepRun&) = delete;
    ~StepRun() { reset(); }

    void operator()(Frame& f) const { invoke_(storage_, f); }

private:
    static constexpr std::size_t kInlineBytes = 160;
    static constexpr std::size_t kInlineAlign = 16;

    // Moves the closure of `other` here (relocate_ with a destination) and leaves `other` empty.
    void take(StepRun& other)
    {
        if (other.relocate_) other.relocate_(storage_, other.storage_);
        invoke_ = std::exchange(other.invoke_, nullptr);
        relocate_ = std::exchange(other.relocate_, nullptr);
    }
    // Destroys the closure (relocate_ with no destination).
    void reset()
    {
        if (relocate_) relocate_(nullptr, storage_);
        invoke_ = nullptr;
        relocate_ = nullptr;
    }

    void (*invoke_)(void* closure, Frame& f) = nullptr;
    void (*relocate_)(void* to, void* from) = nullptr;
    alignas(kInlineAlign) mutable std::byte storage_[kInlineBytes];
};

}  // namespace pto::as::interp
