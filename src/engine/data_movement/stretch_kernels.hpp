// The per-stretch kernels of the data-movement family, templates on the element types. A stretch
// pair (see region_walk.hpp) gives the first element and the step of each side; the kernel moves n
// elements. Storage is accessed through memcpy, so a global pointer needs no particular alignment.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <pto/engine/dtype_of.hpp>
#include <pto/numeric/convert.hpp>

#include "engine/data_movement/region_walk.hpp"
#include "engine/layout/transpose_kernel.hpp"
#include "engine/tile_element.hpp"

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
template <typename Unit_>
struct CopyBits {
    using Unit = Unit_;

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

// Moves n 4-bit elements unchanged (two to a byte, the even one in the low nibble): whole bytes where
// both sides run contiguously from the same nibble, element by element elsewhere.
struct CopyNibbles {
    static void run(std::byte* dst, const Stretch& d, const std::byte* src, const Stretch& s, int64_t n)
    {
        int64_t k = 0;
        if (d.step == 1 && s.step == 1 && d.offset % 2 == s.offset % 2) {
            if (d.offset % 2 != 0 && n > 0) copy_element(dst, d.offset, src, s.offset, 4), k = 1;
            const int64_t bytes = (n - k) / 2;
            std::memmove(dst + (d.offset + k) / 2, src + (s.offset + k) / 2, static_cast<std::size_t>(bytes));
            k += 2 * bytes;
        }
        for (; k < n; ++k) copy_element(dst, d.offset + k * d.step, src, s.offset + k * s.step, 4);
    }
};

// Calls fn.template operator()<Kernel>() with the kernel that moves elements of `bits` (4, 8, 16, 32
// or 64) unchanged: the bit-copying moves of TLOAD, TSTORE and TMOV.
template <typename Fn>
void with_copy_kernel(int bits, Fn&& fn)
{
    switch (bits) {
        case 4: return fn.template operator()<CopyNibbles>();
        case 8: return fn.template operator()<CopyBits<uint8_t>>();
        case 16: return fn.template operator()<CopyBits<uint16_t>>();
        case 32: return fn.template operator()<CopyBits<uint32_t>>();
        default: return fn.template operator()<CopyBits<uint64_t>>();
    }
}

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

// Adds `add` to the D that `p` holds, in D: integers wrap around, f32 adds round once in float, f16 and
// bf16 adds are made exactly (in double) and rounded once to D, ties to even.
template <typename D>
inline void add_in_place(std::byte* p, D add)
{
    const D held = load_element<D>(p);
    if constexpr (std::is_integral_v<D>) {
        using U = std::make_unsigned_t<D>;
        store_element<D>(p, static_cast<D>(static_cast<U>(static_cast<U>(held) + static_cast<U>(add))));
    } else if constexpr (std::is_same_v<D, float>) {
        store_element<D>(p, held + add);
    } else {
        numeric::from_double(dtype_of<D>, p, 0, static_cast<double>(static_cast<float>(held)) + static_cast<float>(add),
                             RoundMode::CAST_RINT, SaturationMode::OFF);
    }
}

// Adds n converted elements to what the destination holds (atomic accumulation into global memory,
// add_in_place).
template <typename S, typename D, bool Relu>
struct AccumulateElements {
    static void run(std::byte* dst, const Stretch& d, const std::byte* src, const Stretch& s, int64_t n)
    {
        std::byte* out = dst + d.offset * int64_t(sizeof(D));
        const std::byte* in = src + s.offset * int64_t(sizeof(S));
        const int64_t out_step = d.step * int64_t(sizeof(D)), in_step = s.step * int64_t(sizeof(S));
        for (int64_t k = 0; k < n; ++k)
            add_in_place<D>(out + k * out_step, convert_element<S, D, Relu>(load_element<S>(in + k * in_step)));
    }
};

template <typename Kernel>
inline constexpr bool is_copy_bits = false;
template <typename Unit>
inline constexpr bool is_copy_bits<CopyBits<Unit>> = true;

// Copies the bits of a rows x cols region between two panel layouts a destination line (a panel row or
// column) at a time: a memcpy per line when both sides run the same way (one for the whole region when
// the lines are adjacent on both), a strided gather when they cross (Nz into Zn). False when the panels
// of the two sides do not line up.
template <typename Unit>
bool copy_panels(std::byte* out, const Panels& d, const std::byte* in, const Panels& s, int64_t rows, int64_t cols)
{
    constexpr int64_t size = sizeof(Unit);
    const int64_t lines = d.row_major ? rows : cols, length = d.row_major ? cols : rows;
    const bool same_way = d.row_major == s.row_major;
    const int64_t chunk = same_way ? std::min(d.width, s.width) : d.width;
    auto lines_up = [&](int64_t width) { return width >= length || width % chunk == 0; };
    if (same_way && !(lines_up(d.width) && lines_up(s.width))) return false;
    for (int64_t a0 = 0; a0 < length; a0 += chunk) {
        const int64_t n = std::min(chunk, length - a0);
        if (same_way) {
            std::byte* o = out + d.at(0, a0) * size;
            const std::byte* i = in + s.at(0, a0) * size;
            if (o == i) continue;  // TMOV(t, t)
            if (d.pitch == n && s.pitch == n) {
                std::memcpy(o, i, static_cast<std::size_t>(lines * n * size));
                continue;
            }
            for (int64_t line = 0; line < lines; ++line)
                std::memcpy(o + line * d.pitch * size, i + line * s.pitch * size, static_cast<std::size_t>(n * size));
            continue;
        }
        // Crossing: destination lines line0.. are source positions line0.. of source lines a0.., a
        // transpose as far as the source's panel reaches.
        for (int64_t line0 = 0; line0 < lines;) {
            const int64_t count = std::min(lines - line0, s.width - line0 % s.width);
            std::byte* o = out + d.at(line0, a0) * size;
            const std::byte* i = in + s.at(a0, line0) * size;
            if constexpr (size <= 4) {
                layout::transpose_rows(int(size), {i, s.pitch, o, d.pitch, int(n), int(count)});
            } else {
                for (int64_t l = 0; l < count; ++l)
                    for (int64_t k = 0; k < n; ++k)
                        store_element<Unit>(o + (l * d.pitch + k) * size, load_element<Unit>(i + (k * s.pitch + l) * size));
            }
            line0 += count;
        }
    }
    return true;
}

// Runs Kernel over the region of `dst` and `src`, walking the destination's contiguous axis.
template <typename Kernel, typename Dst, typename Src>
void move_region(const Dst& dst, const Src& src, int64_t rows, int64_t cols, Axis axis)
{
    if constexpr (is_copy_bits<Kernel>) {
        Panels d{}, s{};
        if (dst.panels(rows, cols, d) && src.panels(rows, cols, s) &&
            copy_panels<typename Kernel::Unit>(dst.base(), d, src.base(), s, rows, cols))
            return;
    }
    std::byte* const out = dst.base();
    const std::byte* const in = src.base();
    walk_region(dst, src, rows, cols, axis,
                [out, in](const Stretch& d, const Stretch& s, int64_t n) { Kernel::run(out, d, in, s, n); });
}

}  // namespace pto::engine::data_movement
