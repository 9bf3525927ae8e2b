// Engine entry points of TIMG2COL and the configuration instructions it reads (SETFMATRIX,
// SET_IMG2COL_PADDING, SET_IMG2COL_RPT), over the calling core's img2col registers
// (pto/runtime/registers.hpp): bank A for the FMATRIX_A_* modes, B for FMATRIX_B_*.
#pragma once

#include <cstdint>

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

// The padding register's bits for a pad value of `element_bytes` bytes whose bits are `bits`: an 8-bit
// value fills both bytes of the register, as SET_IMG2COL_PADDING loads it.
constexpr uint32_t padding_register_bits(uint64_t bits, int element_bytes)
{
    const auto value = uint32_t(bits);
    return element_bytes == 1 ? (value & 0xFF) | (value & 0xFF) << 8 : value;
}

// The manual modes load their bank's register from the tile's configuration; the automatic modes leave
// it to TIMG2COL, which loads all three itself.
void set_fmatrix(const Img2colConfig& config, SetFmatrixMode mode);
void set_img2col_padding(const Img2colConfig& config, SetFmatrixMode mode);
void set_img2col_repeat(const Img2colConfig& config, SetFmatrixMode mode);

// TIMG2COL: dst(r, c), over dst's valid region, is element k = pos_k + c of the im2col row m = pos_m + r
// of the feature map src, whose height, width and padding are the bank's FMATRIX register and whose
// pad value is its padding register:
//   m -> (n, d, oh, ow)   row-major over N x D x OH x OW, OH = (H + pad_top + pad_bottom -
//                         dilation_h * (filter_h - 1) - 1) / stride_h + 1 (OW alike)
//   k -> (c1, kh, kw, c0) row-major over C1 x filter_h x filter_w x C0
//   value: src(n, d, c1, oh * stride_h + kh * dilation_h - pad_top, ow * stride_w + kw * dilation_w -
//          pad_left, c0) inside the map, the pad value outside it (or past N or C1)
// Filter, stride and dilation come with the call (`config`). A register nothing loaded is
// RUN_IMG2COL_UNSET; a map the register and src's shape disagree on, RUN_IMG2COL_FMATRIX; what the
// model does not cover (transpose, several repeats) or a zero stride, dilation or filter,
// RUN_IMG2COL_CONFIG.
void timg2col(const TileDesc& dst, const ConvTileDesc& src, const Img2colConfig& config, SetFmatrixMode mode,
              uint16_t pos_m, uint16_t pos_k);

// Locations, layouts and element types on profile p (pto/profile/rules_img2col.hpp).
void check_timg2col(const profile::Profile& p, const TileDesc& dst, const ConvTileDesc& src, LegalitySink& sink);

}  // namespace pto::engine
