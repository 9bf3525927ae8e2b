// Legality rules of TIMG2COL (and the configuration instructions it reads), one constexpr predicate per
// rule, with its code in the comment above it.
#pragma once

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>

namespace pto::rules {

// Rule LEGAL_TIMG2COL_LOCATION: a feature map in L1 (Mat) into the cube's left operand (Left).
constexpr bool timg2col_location_ok(TileType src, TileType dst) { return src == TileType::Mat && dst == TileType::Left; }

// Rule LEGAL_TIMG2COL_LAYOUT: the feature map is NC1HWC0 or NDC1HWC0; the left operand is Zz (row-major
// boxes) on a2a3 and Nz (column-major boxes) on a5, row-major inside; the cpu profile takes either.
constexpr bool timg2col_layout_ok(const profile::Profile& p, Layout src, BLayout dst_b, SLayout dst_s)
{
    if (src != Layout::NC1HWC0 && src != Layout::NDC1HWC0) return false;
    if (dst_s != SLayout::RowMajor) return false;
    switch (p.target) {
        case profile::Target::A2A3: return dst_b == BLayout::RowMajor;
        case profile::Target::A5: return dst_b == BLayout::ColMajor;
        default: return true;
    }
}

// Rule LEGAL_TIMG2COL_DTYPE: one element type for both tiles; a2a3 moves int8, half, bfloat16 and
// float, a5 (and cpu) also uint8, the 16-bit and the 32-bit integers.
constexpr bool timg2col_dtype_ok(const profile::Profile& p, engine::DType src, engine::DType dst)
{
    using enum engine::DType;
    if (src != dst) return false;
    const bool common = src == I8 || src == F16 || src == BF16 || src == F32;
    const bool a5_only = src == U8 || src == I16 || src == U16 || src == I32 || src == U32;
    return common || (a5_only && p.target != profile::Target::A2A3);
}

}  // namespace pto::rules
