// A register's lanes as typed values, for the vector kernels that work lane by lane (reductions,
// compares, predicate rearrangements): 256 bytes are few, and these kernels are not the hot loop.
#pragma once

#include <pto/engine/ops/vector.hpp>

#include <cstring>

namespace pto::engine::vector::lanes {

template <typename S>
S get(const Register& r, int lane)
{
    S v;
    std::memcpy(&v, r.bytes.data() + std::size_t(lane) * sizeof(S), sizeof(S));
    return v;
}

template <typename S>
void set(Register& r, int lane, S v)
{
    std::memcpy(r.bytes.data() + std::size_t(lane) * sizeof(S), &v, sizeof(S));
}

// A mask's lanes are all set or all clear, so a lane's first byte says it all.
inline bool active(const Register& mask, int lane, int lane_bytes) { return mask.bytes[std::size_t(lane * lane_bytes)] != std::byte{0}; }

inline void set_active(Register& mask, int lane, int lane_bytes, bool on)
{
    std::memset(mask.bytes.data() + std::size_t(lane * lane_bytes), on ? 0xff : 0x00, std::size_t(lane_bytes));
}

// The width a mask made for `lane_bytes`-byte lanes records: 8-byte lanes take a b32 mask whose lane
// pairs agree.
inline uint8_t mask_width(int lane_bytes) { return uint8_t(lane_bytes == 8 ? 4 : lane_bytes); }

// A mask a kernel wrote: its width, and whether every lane is set (which the kernels that take it read).
inline void finish_mask(Register& mask, uint8_t width)
{
    mask.lane_bytes = width;
    mask.all_active = true;
    for (std::byte b : mask.bytes) mask.all_active = mask.all_active && b == std::byte{0xff};
}

// A register of data, no mask.
inline void finish_data(Register& r)
{
    r.lane_bytes = 0;
    r.all_active = false;
}

inline bool is_float(DType t) { return t == DType::F32 || t == DType::F16 || t == DType::BF16; }

}  // namespace pto::engine::vector::lanes
