// The per-stretch kernels of the data-movement family, templates on the element types. A stretch
// pair (see region_walk.hpp) gives the first element and the step of each side; the kernel moves n
// elements. Storage is accessed through memcpy, so a global pointer needs no particular alignment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "engine/data_movement/region_walk.hpp"

namespace pto::engine::data_movement {

template <typename T>
inline T load_element(const std::byte* p)
{
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

template <typename T>
inline void store_element(std::byte* p, T v)
{
    std::memcpy(p, &v, sizeof(T));
}

// Moves the bits of n elements of `Unit` bytes unchanged: one memcpy when both sides are contiguous.
template <typename Unit>
struct CopyBits {
    static void run(std::byte* dst, const Stretch& d, const std::byte* src, const Stretch& s, int64_t n)
    {
        std::byte* out = dst + d.offset * int64_t(sizeof(Unit));
        const std::byte* in = src + s.offset * int64_t(sizeof(Unit));
        if (d.step == 1 && s.step == 1) {
            if (out != in) std::memcpy(out, in, static_cast<std::size_t>(n) * sizeof(Unit));  // TMOV(t, t)
            return;
        }
        const int64_t out_step = d.step * int64_t(sizeof(Unit)), in_step = s.step * int64_t(sizeof(Unit));
        for (int64_t k = 0; k < n; ++k)
            store_element<Unit>(out + k * out_step, load_element<Unit>(in + k * in_step));
    }
};

// One element of type S as type D: negatives clamped to zero first under Relu, then converted (the
// numeric types round to nearest, ties to even).
template <typename S, typename D, bool Relu>
inline D convert_element(S v)
{
    if constexpr (Relu) {
        if (v < S(0)) v = S(0);
    }
    if constexpr (std::is_same_v<S, D>) {
        return v;
    } else if constexpr (std::is_arithmetic_v<S> && std::is_arithmetic_v<D>) {
        return static_cast<D>(v);
    } else {
        return static_cast<D>(static_cast<float>(v));  // through float: exact for every widening used here
    }
}

// Converts n elements from S to D.
template <typename S, typename D, bool Relu>
struct ConvertElements {
    static void run(std::byte* dst, const Stretch& d, const std::byte* src, const Stretch& s, int64_t n)
    {
        std::byte* out = dst + d.offset * int64_t(sizeof(D));
        const std::byte* in = src + s.offset * int64_t(sizeof(S));
        const int64_t out_step = d.step * int64_t(sizeof(D)), in_step = s.step * int64_t(sizeof(S));
        for (int64_t k = 0; k < n; ++k)
            store_element<D>(out + k * out_step, convert_element<S, D, Relu>(load_element<S>(in + k * in_step)));
    }
};

// Adds n converted elements to what the destination holds (atomic accumulation into global memory:
// float adds round once in float; int32 adds wrap around).
template <typename S, typename D, bool Relu>
struct AccumulateElements {
    static_assert(std::is_same_v<D, float> || std::is_same_v<D, int32_t>, "accumulation is float or int32");

    static void run(std::byte* dst, const Stretch& d, const std::byte* src, const Stretch& s, int64_t n)
    {
        std::byte* out = dst + d.offset * int64_t(sizeof(D));
        const std::byte* in = src + s.offset * int64_t(sizeof(S));
        const int64_t out_step = d.step * int64_t(sizeof(D)), in_step = s.step * int64_t(sizeof(S));
        for (int64_t k = 0; k < n; ++k) {
            std::byte* p = out + k * out_step;
            const D add = convert_element<S, D, Relu>(load_element<S>(in + k * in_step));
            const D held = load_element<D>(p);
            if constexpr (std::is_same_v<D, float>) {
                store_element<D>(p, held + add);
            } else {
                store_element<D>(p, static_cast<D>(static_cast<uint32_t>(held) + static_cast<uint32_t>(add)));
            }
        }
    }
};

// Runs Kernel over the region of `dst` and `src`, walking the destination's contiguous axis.
template <typename Kernel, typename Dst, typename Src>
void move_region(const Dst& dst, const Src& src, int64_t rows, int64_t cols, Axis axis)
{
    std::byte* const out = dst.base();
    const std::byte* const in = src.base();
    walk_region(dst, src, rows, cols, axis,
                [out, in](const Stretch& d, const Stretch& s, int64_t n) { Kernel::run(out, d, in, s, n); });
}

}  // namespace pto::engine::data_movement
