// Legality rules of the data-movement family (TLOAD, TSTORE, TMOV), one constexpr predicate per rule.
// The intrinsics check them in static_assert for PTO_TARGET; the engine checks the same predicates
// at run time for the active profile. Each predicate names the rule code it decides. The cpu
// profile accepts whatever any real target accepts, and what the public CPU simulation accepts
// besides (loads into Acc tiles, ND/DN tensors with any tile arrangement, Mat->Vec moves, Acc moves
// that keep f16/bf16); checked mode warns (WARN_CPU_ONLY) where only cpu accepts.
#pragma once

#include <cstdint>

#include <pto/common/constants.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>

namespace pto::rules {

using engine::DType;

// --- element types ---------------------------------------------------------------------------------

// The element types every target moves: the integers of 8..64 bits, half, bfloat16 and float.
constexpr bool is_base_movable(DType t)
{
    switch (t) {
        case DType::I8:
        case DType::U8:
        case DType::I16:
        case DType::U16:
        case DType::I32:
        case DType::U32:
        case DType::I64:
        case DType::U64:
        case DType::F16:
        case DType::BF16:
        case DType::F32: return true;
        default: return false;
    }
}

// The narrow float formats that only A5 stores from a Vec tile.
constexpr bool is_a5_narrow_float(DType t)
{
    return t == DType::F8E4M3 || t == DType::F8E5M2 || t == DType::HiF8 || t == DType::F4E2M1x2 || t == DType::F4E1M2x2;
}

// What A5 moves between memories: elements of 1, 2, 4 or 8 bytes and the packed fp4 types (every type
// but the packed int4).
constexpr bool is_a5_movable(DType t)
{
    return t != DType::I4;
}

// Rule LEGAL_TLOAD_DTYPE: A2/A3 loads the base types; A5 loads any 1-, 2-, 4- or 8-byte element and fp4;
// the cpu profile also int4, as the public CPU simulation's programs load it.
constexpr bool tload_dtype_ok(const profile::Profile& p, DType t)
{
    switch (p.target) {
        case profile::Target::A2A3: return is_base_movable(t);
        case profile::Target::A5: return is_a5_movable(t);
        case profile::Target::Cpu: break;
    }
    return true;
}

// Rule LEGAL_TLOAD_LOCATION: a load lands in a Vec or a Mat tile (on cpu also an Acc or a Bias tile, as
// the public CPU simulation's programs load them directly).
constexpr bool tload_location_ok(TileType loc)
{
    return loc == TileType::Vec || loc == TileType::Mat;
}
constexpr bool tload_location_ok(const profile::Profile& p, TileType loc)
{
    return tload_location_ok(loc) || (p.target == profile::Target::Cpu && (loc == TileType::Acc || loc == TileType::Bias));
}

// --- MX scale tensors ------------------------------------------------------------------------------

// The layouts of E8M0 scale tensors for TMATMUL_MX: the left operand's (MX_A_*: M x groups) and the
// right operand's (MX_B_*: groups x N).
constexpr bool is_mx_a_layout(Layout l)
{
    return l == Layout::MX_A_ND || l == Layout::MX_A_DN || l == Layout::MX_A_ZZ;
}
constexpr bool is_mx_b_layout(Layout l)
{
    return l == Layout::MX_B_ND || l == Layout::MX_B_DN || l == Layout::MX_B_NN;
}
constexpr bool is_mx_layout(Layout l)
{
    return is_mx_a_layout(l) || is_mx_b_layout(l);
}

// Rule LEGAL_TLOAD_LOCATION with the tensor's layout: as above; the cpu profile also loads an MX_A_*
// tensor straight into a ScaleLeft tile and an MX_B_* one into a ScaleRight tile (the public CPU
// simulation loads into any tile; the devices go through L1).
constexpr bool tload_location_ok(const profile::Profile& p, TileType loc, Layout global)
{
    if (tload_location_ok(p, loc)) return true;
    return p.target == profile::Target::Cpu && ((loc == TileType::ScaleLeft && is_mx_a_layout(global)) ||
                                                (loc == TileType::ScaleRight && is_mx_b_layout(global)));
}

// Rule LEGAL_GM_LAYOUT for an MX tensor (TLOAD only; a5 and cpu, a2a3 has no MX): A-side layouts load
// into a Zz tile, B-side ones into an Nn tile, both of 32-byte (16 x 2) fractals: a Mat tile, or on cpu
// the scale tile itself (ScaleLeft is Zz, ScaleRight Nn).
constexpr bool mx_load_layout_ok(const profile::Profile& p, TileType loc, Layout global, BLayout b, SLayout s,
                                 int fractal_bytes)
{
    if (p.target == profile::Target::A2A3 || !is_mx_layout(global)) return false;
    if (fractal_bytes != TileConfig::fractalMxSize) return false;
    const bool zz = b == BLayout::RowMajor && s == SLayout::RowMajor;
    const bool nn = b == BLayout::ColMajor && s == SLayout::ColMajor;
    const bool arrangement = is_mx_a_layout(global) ? zz : nn;
    const bool location = loc == TileType::Mat || (p.target == profile::Target::Cpu &&
                                                   (loc == TileType::ScaleLeft || loc == TileType::ScaleRight));
    return arrangement && location;
}

// Rule LEGAL_GM_MX_DTYPE: a5 loads MX scales as float8_e8m0_t on both sides; the cpu profile moves any
// one-byte element, as the public CPU simulation does.
constexpr bool mx_load_dtype_ok(const profile::Profile& p, DType tile, DType global)
{
    if (p.target == profile::Target::Cpu) return dtype_bits(tile) == 8 && dtype_bits(global) == 8;
    return tile == DType::F8E8M0 && global == DType::F8E8M0;
}

// Rule LEGAL_GM_MX_SHAPE: an MX_A_ZZ or MX_B_NN tensor is made of 16 x 2 boxes (dimensions 3 and 4 of
// extent 16 and 2); an MX_*_ND or MX_*_DN tensor is 3-D (dimensions 0 and 1 of extent 1) with pairs of
// groups innermost (dimension 4 of extent 2). DYNAMIC counts as unknown here and is checked at run time.
constexpr bool mx_global_shape_ok(Layout global, int64_t dim0, int64_t dim1, int64_t dim3, int64_t dim4)
{
    auto is = [](int64_t d, int64_t v) { return d == v || d == DYNAMIC; };
    if (global == Layout::MX_A_ZZ || global == Layout::MX_B_NN) return is(dim3, MX_ROW_LEN) && is(dim4, MX_COL_LEN);
    if (is_mx_layout(global)) return is(dim0, 1) && is(dim1, 1) && is(dim4, MX_COL_LEN);
    return true;
}

// Rule LEGAL_TLOAD_PAD: A5 pads 64-bit integer tiles only with Null or Zero.
constexpr bool tload_pad_ok(const profile::Profile& p, DType t, PadValue pad)
{
    if (p.target != profile::Target::A5) return true;
    if (t != DType::I64 && t != DType::U64) return true;
    return pad == PadValue::Null || pad == PadValue::Zero;
}

// Rule LEGAL_TSTORE_LOCATION: A2/A3 stores from Vec, Mat and Acc tiles; A5 from Vec and Acc.
constexpr bool tstore_location_ok(const profile::Profile& p, TileType loc)
{
    const bool a5 = loc == TileType::Vec || loc == TileType::Acc;
    const bool a2a3 = a5 || loc == TileType::Mat;
    return p.target == profile::Target::A5 ? a5 : a2a3;
}

// Rule LEGAL_TSTORE_DTYPE: element types a Vec or Mat tile stores (A5 adds its narrow floats; the cpu
// profile every type it loads, as the public CPU simulation stores them: int4 and float8_e8m0 too).
constexpr bool tstore_dtype_ok(const profile::Profile& p, DType t)
{
    if (p.target == profile::Target::A2A3) return is_base_movable(t);
    if (p.target == profile::Target::Cpu) return tload_dtype_ok(p, t);
    return is_base_movable(t) || is_a5_narrow_float(t);
}

// Rule LEGAL_TSTORE_LOCATION (the quantizing forms, with a pre-quant scalar or a table): every real target
// quantizes only what leaves an accumulator; the cpu profile quantizes out of any tile it stores from,
// as the public CPU simulation does.
constexpr bool tstore_quant_source_ok(const profile::Profile& p, TileType loc)
{
    return loc == TileType::Acc || (p.target == profile::Target::Cpu && tstore_location_ok(p, loc));
}

// Rule LEGAL_TSTORE_RELU: a ReLU pre-mode applies to stores from an accumulator; the cpu profile also
// takes it on a quantizing store from any tile (the ReLU of the quantized value, as out of an accumulator).
constexpr bool tstore_relu_ok(const profile::Profile& p, TileType loc, ReluPreMode relu, bool quantized)
{
    return relu == ReluPreMode::NoRelu || loc == TileType::Acc || (quantized && p.target == profile::Target::Cpu);
}

// Which source element a quantizing store's table word scales: the column's word out of an accumulator
// (an output channel) and out of a row-major tile; the row's word out of a column-major Vec or Mat tile
// (cpu profile), as the public CPU simulation reads its table along the tile's minor axis.
constexpr bool tstore_table_per_row(TileType loc, BLayout b)
{
    return loc != TileType::Acc && b == BLayout::ColMajor;
}

// --- convolution tiles (ConvTile) ---------------------------------------------------------------

// The layouts of convolution operands (NC1HWC0 ... FRACTAL_Z_3D).
constexpr bool is_conv_layout(Layout l)
{
    return l >= Layout::NC1HWC0 && l <= Layout::FRACTAL_Z_3D;
}

// Rules LEGAL_TLOAD_LOCATION / LEGAL_TSTORE_LOCATION for a ConvTile: it lives in a Vec or a Mat tile
// buffer, and a store needs the target to store from that location (no Mat on a5).
constexpr bool conv_tile_location_ok(const profile::Profile& p, TileType loc, bool load)
{
    const bool conv_buffer = loc == TileType::Vec || loc == TileType::Mat;
    return conv_buffer && (load || tstore_location_ok(p, loc));
}

// Rule LEGAL_GM_LAYOUT for a ConvTile: the tensor has the tile's convolution layout.
constexpr bool conv_layout_ok(Layout tile, Layout global)
{
    return is_conv_layout(tile) && tile == global;
}

// Rule LEGAL_GM_ELEMENT_SIZE: a Vec or Mat tile and its global tensor have elements of one size
// (the bits are moved unchanged).
constexpr bool element_size_match(DType tile, DType global)
{
    return dtype_bits(tile) == dtype_bits(global);
}

// Rule LEGAL_ACC_OUTPUT_DTYPE: what an accumulator turns into on its way out (TSTORE to global
// memory, TMOV to Mat or Vec) without quantisation: float stays float or rounds to half / bfloat16,
// int32 stays int32.
constexpr bool acc_output_dtype_ok(DType acc, DType out)
{
    if (acc == DType::F32) return out == DType::F32 || out == DType::F16 || out == DType::BF16;
    if (acc == DType::I32) return out == DType::I32;
    return false;
}

// The quantizing pair that shifts instead of scaling (the cpu profile's i32 -> i16, the public CPU
// simulation's SHIFTS322S16 mode).
constexpr bool quant_shifts(DType src, DType out) { return src == DType::I32 && out == DType::I16; }

// Rule LEGAL_TSTORE_QUANT_DTYPE: what an accumulator turns into through a quantizing store (TSTORE
// with a pre-quant scalar). A2/A3: f32 -> i8/u8, i32 -> i8/u8/f16; A5 also f32 -> f16/bf16/hif8/e4m3/f32
// and i32 -> bf16; the cpu profile also i32 -> i16 (quant_shifts).
constexpr bool acc_quant_output_dtype_ok(const profile::Profile& p, DType acc, DType out)
{
    const bool byte = out == DType::I8 || out == DType::U8;
    const bool a5 = p.target != profile::Target::A2A3;
    if (acc == DType::F32) {
        return byte || (a5 && (out == DType::F16 || out == DType::BF16 || out == DType::HiF8 ||
                               out == DType::F8E4M3 || out == DType::F32));
    }
    if (acc == DType::I32)
        return byte || out == DType::F16 || (a5 && out == DType::BF16) ||
               (p.target == profile::Target::Cpu && quant_shifts(acc, out));
    return false;
}

// Rule LEGAL_TSTORE_ATOMIC: atomic accumulation into global memory of float or int32 on A2/A3, of
// int32 on A5. The cpu profile also adds into tensors of the other whole integer types and of f16 and
// bf16, as the CPU simulation does (in the tensor's type: integers wrap, floats round once).
constexpr bool tstore_atomic_ok(const profile::Profile& p, AtomicType atomic, DType global)
{
    if (atomic == AtomicType::AtomicNone) return true;
    if (atomic != AtomicType::AtomicAdd) return false;
    if (global == DType::I32) return true;
    if (global == DType::F32) return p.target != profile::Target::A5;
    const bool cpu_sum = global == DType::F16 || global == DType::BF16 || global == DType::I8 || global == DType::U8 ||
                         global == DType::I16 || global == DType::U16 || global == DType::U32 ||
                         global == DType::I64 || global == DType::U64;
    return cpu_sum && p.target == profile::Target::Cpu;
}

// --- accumulators into convolution layouts ------------------------------------------------------------
// An accumulator of a convolution is a matrix of output pixels (rows) by output channels (columns). The
// fixpipe stores it into a2a3's NC1HWC0 and NDC1HWC0 tensors and a5's NHWC, NCHW and NCDHW ones; the
// 5-D tensor's dimensions, outermost first, are NC1HWC0 (N, C1, H, W, C0), NDC1HWC0 (N, D, C1, H, W)
// with C0 elements after each W position (the C0 of its type, below), NHWC (1, N, H, W, C), NCHW
// (1, N, C, H, W) and NCDHW (N, C, D, H, W).

constexpr bool is_acc_conv_layout(Layout l)
{
    return l == Layout::NC1HWC0 || l == Layout::NDC1HWC0 || l == Layout::NHWC || l == Layout::NCHW ||
           l == Layout::NCDHW;
}

// Rule LEGAL_GM_LAYOUT (a store from an Acc tile): a2a3 stores into NC1HWC0 and NDC1HWC0, a5 into NHWC,
// NCHW and NCDHW, the cpu profile into all five.
constexpr bool acc_conv_layout_ok(const profile::Profile& p, Layout global)
{
    const bool a2a3 = global == Layout::NC1HWC0 || global == Layout::NDC1HWC0;
    const bool a5 = global == Layout::NHWC || global == Layout::NCHW || global == Layout::NCDHW;
    switch (p.target) {
        case profile::Target::A2A3: return a2a3;
        case profile::Target::A5: return a5;
        default: return a2a3 || a5;
    }
}

// The channels of one C0 block of a `out` tensor: 32 bytes of elements, except 16 int32s (the fixpipe's
// int32 block is 64 bytes). NDC1HWC0 always has this C0; NC1HWC0 names its own (dimension 4), which
// for float may also be 16 (8 is the fixpipe's channel split).
constexpr int64_t acc_conv_c0(DType out)
{
    return out == DType::I32 ? 16 : 256 / dtype_bits(out);
}

// The dimensions of the tensor that hold an accumulator's rows (pixels) and columns (channels), outermost
// first; dimension 5 stands for NDC1HWC0's C0, one element apart after the fifth.
struct AccConvDims {
    int rows[3];
    int row_count;
    int cols[3];
    int col_count;
};

constexpr AccConvDims acc_conv_dims(Layout l)
{
    switch (l) {
        case Layout::NC1HWC0: return {{0, 2, 3}, 3, {1, 4}, 2};      // (n, h, w) x (c1, c0)
        case Layout::NDC1HWC0: return {{0, 3, 4}, 3, {1, 2, 5}, 3};  // (n, h, w) x (d, c1, c0)
        case Layout::NHWC: return {{1, 2, 3}, 3, {4}, 1};            // (n, h, w) x c
        case Layout::NCHW: return {{1, 3, 4}, 3, {2}, 1};            // (n, h, w) x c
        default: return {{0, 3, 4}, 3, {1}, 1};                      // NCDHW: (n, h, w) x c, at d = 0
    }
}

// Rule LEGAL_GM_CONV_SHAPE: an NC1HWC0 tensor's C0 (dimension 4) is its type's (acc_conv_c0; f32 also
// 8 or 16); the dimensions the store does not address have extent 1 (NHWC's and NCHW's dimension 0, NCDHW's
// D: the store writes one depth slice). DYNAMIC counts as unknown here and is checked at run time.
constexpr bool acc_conv_shape_ok(Layout global, DType out, const int64_t (&shape)[5])
{
    auto is = [](int64_t d, int64_t v) { return d == v || d == DYNAMIC; };
    switch (global) {
        case Layout::NC1HWC0:
            return is(shape[4], acc_conv_c0(out)) || (out == DType::F32 && is(shape[4], 16));
        case Layout::NHWC:
        case Layout::NCHW: return is(shape[0], 1);
        case Layout::NCDHW: return is(shape[2], 1);
        default: return true;
    }
}

// The accumulator's view of a convolution tensor: its rows (pixels) and columns (channels); DYNAMIC when
// an extent it reads is unknown, INT64_MAX when the product overflows.
constexpr int64_t acc_conv_extent(Layout global, DType out, const int64_t (&shape)[5], bool rows)
{
    const AccConvDims dims = acc_conv_dims(global);
    int64_t extent = 1;
    for (int i = 0; i < (rows ? dims.row_count : dims.col_count); ++i) {
        const int d = rows ? dims.rows[i] : dims.cols[i];
        const int64_t e = d == 5 ? acc_conv_c0(out) : shape[d];
        if (e == DYNAMIC) return DYNAMIC;
        if (__builtin_mul_overflow(extent, e, &extent)) return INT64_MAX;
    }
    return extent;
}

// Rule RUN_GLOBAL_SHAPE (an accumulator into a convolution tensor): the valid region is the whole view,
// ValidRow == the pixels and ValidCol == the channels, as the devices assert (NC1HWC0: N*H*W x C1*C0,
// NDC1HWC0: N*H*W x D*C1*C0, NHWC and NCHW: N*H*W x C, NCDHW: N*H*W x C). Unknown extents pass.
constexpr bool acc_conv_extent_ok(Layout global, DType out, const int64_t (&shape)[5], int valid_rows,
                                  int valid_cols)
{
    const int64_t rows = acc_conv_extent(global, out, shape, true);
    const int64_t cols = acc_conv_extent(global, out, shape, false);
    return (rows == DYNAMIC || valid_rows == DYNAMIC || rows == valid_rows) &&
           (cols == DYNAMIC || valid_cols == DYNAMIC || cols == valid_cols);
}

// Rule LEGAL_TSTORE_ACC_SHAPE: an accumulator store moves 1..4095 columns, and at most 8192 rows
// into an ND tensor or 65535 rows (whole 16-column groups) into an NZ tensor or a convolution layout.
constexpr bool acc_store_shape_ok(Layout global, int rows, int cols)
{
    if (cols < 1 || cols > 4095 || rows < 1) return false;
    if (global == Layout::NZ || is_acc_conv_layout(global)) return rows <= 65535 && cols % 16 == 0;
    return rows <= 8192;
}

// --- layouts between a tile and a global tensor -------------------------------------------------------

// The arrangement of a tile, as the layout pairs name it.
enum class TileArrangement { ND, DN, NZ, ZN, ZZ, NN };

constexpr TileArrangement arrangement_of(BLayout b, SLayout s)
{
    if (s == SLayout::NoneBox) return b == BLayout::RowMajor ? TileArrangement::ND : TileArrangement::DN;
    if (s == SLayout::RowMajor) return b == BLayout::ColMajor ? TileArrangement::NZ : TileArrangement::ZZ;
    return b == BLayout::RowMajor ? TileArrangement::ZN : TileArrangement::NN;
}

// Rule LEGAL_GM_LAYOUT: the (global layout, tile arrangement) pairs a transfer supports. Every
// location moves ND<->ND, DN<->DN and NZ<->NZ; Mat tiles also convert ND<->NZ and DN<->ZN; an unboxed
// tile of one row or one column is a vector, both ND and DN; 64-bit elements move only ND<->ND and
// DN<->DN. An accumulator (always fractal) goes to an ND or an NZ tensor.
constexpr bool gm_layout_ok(TileType loc, Layout global, BLayout b, SLayout s, int rows, int cols, DType t)
{
    const TileArrangement a = arrangement_of(b, s);
    if (loc == TileType::Acc) return global == Layout::ND || global == Layout::NZ;
    const bool vector = s == SLayout::NoneBox && (rows == 1 || cols == 1);
    const bool plain = (global == Layout::ND && a == TileArrangement::ND) ||
                       (global == Layout::DN && a == TileArrangement::DN) ||
                       (vector && (global == Layout::ND || global == Layout::DN));
    if (dtype_bits(t) == 64) return plain;
    if (plain || (global == Layout::NZ && a == TileArrangement::NZ)) return true;
    return loc == TileType::Mat &&
           ((global == Layout::ND && a == TileArrangement::NZ) || (global == Layout::DN && a == TileArrangement::ZN));
}

// Rule LEGAL_GM_LAYOUT on a profile: A5 also loads an ND vector into a one-row Zz Mat tile (the
// left scales of an MX GEMV); the cpu profile also moves an ND or DN tensor to and from any tile
// arrangement, folding the tensor as the tile's major order reads it (see gm_fold_layout).
constexpr bool gm_layout_ok(const profile::Profile& p, TileType loc, Layout global, BLayout b, SLayout s, int rows,
                            int cols, DType t)
{
    const bool mx_vector = p.target == profile::Target::A5 && loc == TileType::Mat && global == Layout::ND &&
                           rows == 1 && arrangement_of(b, s) == TileArrangement::ZZ;
    return gm_layout_ok(loc, global, b, s, rows, cols, t) || mx_vector ||
           (p.target == profile::Target::Cpu && (global == Layout::ND || global == Layout::DN));
}

// Rule LEGAL_GM_LAYOUT for a store: a transfer's pairs, and from an Acc tile also the target's
// convolution layouts (acc_conv_layout_ok).
constexpr bool gm_store_layout_ok(const profile::Profile& p, TileType loc, Layout global, BLayout b, SLayout s,
                                  int rows, int cols, DType t)
{
    return gm_layout_ok(p, loc, global, b, s, rows, cols, t) || (loc == TileType::Acc && acc_conv_layout_ok(p, global));
}

// The layout by which a transfer folds its tensor into rows and columns: the tensor's own, except
// for an ND or DN tensor paired with a tile no real target pairs it with, which folds as the tile's
// major order reads it (row-major: ND, column-major: DN).
constexpr Layout gm_fold_layout(TileType loc, Layout global, BLayout b, SLayout s, int rows, int cols, DType t)
{
    if (gm_layout_ok(loc, global, b, s, rows, cols, t) || (global != Layout::ND && global != Layout::DN))
        return global;
    return b == BLayout::RowMajor ? Layout::ND : Layout::DN;
}

// Rule LEGAL_GM_FRACTAL: the ND->NZ and DN->ZN conversions take a 2-D tensor (outer dimensions 0..2
// of extent 1; DYNAMIC counts as unknown here and is checked at run time) and 512-byte fractals.
constexpr bool gm_fractal_conversion_ok(Layout global, BLayout b, SLayout s, int fractal_bytes, int64_t dim0,
                                        int64_t dim1, int64_t dim2)
{
    const TileArrangement a = arrangement_of(b, s);
    const bool converts =
        (global == Layout::ND && a == TileArrangement::NZ) || (global == Layout::DN && a == TileArrangement::ZN);
    if (!converts) return true;
    auto unit = [](int64_t d) { return d == 1 || d == DYNAMIC; };
    return fractal_bytes == TileConfig::fractalABSize && unit(dim0) && unit(dim1) && unit(dim2);
}

// Rule LEGAL_TLOAD_STATIC_SHAPE: on A5 a row-major ND->ND load whose shapes are all known at compile
// time moves the whole tensor: ValidCol == shape[4] and ValidRow == shape[0]*shape[1]*shape[2]*shape[3].
constexpr bool tload_static_shape_ok(const profile::Profile& p, Layout global, BLayout b, SLayout s, int valid_rows,
                                     int valid_cols, const int64_t (&shape)[5])
{
    if (p.target != profile::Target::A5 || global != Layout::ND || arrangement_of(b, s) != TileArrangement::ND)
        return true;
    if (valid_rows == DYNAMIC || valid_cols == DYNAMIC) return true;
    for (int d = 0; d < 5; ++d) {
        if (shape[d] == DYNAMIC) return true;
    }
    return valid_cols == shape[4] && valid_rows == shape[0] * shape[1] * shape[2] * shape[3];
}

// Rule RUN_EMPTY_TRANSFER: A2/A3 transfers at least one row and one column.
constexpr bool transfer_extent_ok(const profile::Profile& p, int valid_rows, int valid_cols)
{
    return p.target != profile::Target::A2A3 || (valid_rows > 0 && valid_cols > 0);
}

// --- TMOV ------------------------------------------------------------------------------------------

// Rule LEGAL_TMOV_LOCATION: the (source, destination) locations TMOV connects.
// A2/A3: Mat->Left/Right/Bias/Scaling, Vec->Vec, Acc->Mat.
// A5:    Mat->Left/Right/Bias/Scaling/ScaleLeft/ScaleRight, Vec->Vec/Mat, Acc->Vec/Mat.
// cpu:   both, and Mat->Vec and Vec->Left/Right, which the CPU simulation moves element by element.
constexpr bool tmov_location_ok(const profile::Profile& p, TileType src, TileType dst)
{
    const bool from_mat_common = src == TileType::Mat && (dst == TileType::Left || dst == TileType::Right ||
                                                          dst == TileType::Bias || dst == TileType::Scaling);
    const bool a2a3 = from_mat_common || (src == TileType::Vec && dst == TileType::Vec) ||
                      (src == TileType::Acc && dst == TileType::Mat);
    const bool a5 = from_mat_common ||
                    (src == TileType::Mat && (dst == TileType::ScaleLeft || dst == TileType::ScaleRight)) ||
                    (src == TileType::Vec && (dst == TileType::Vec || dst == TileType::Mat)) ||
                    (src == TileType::Acc && (dst == TileType::Vec || dst == TileType::Mat));
    switch (p.target) {
        case profile::Target::A2A3: return a2a3;
        case profile::Target::A5: return a5;
        default:
            return a2a3 || a5 || (src == TileType::Mat && dst == TileType::Vec) ||
                   (src == TileType::Vec && (dst == TileType::Left || dst == TileType::Right));
    }
}

namespace detail {
// Element types the A5 cube takes from L1 into L0A / L0B.
constexpr bool a5_cube_operand(DType t)
{
    return t == DType::I8 || t == DType::HiF8 || t == DType::F8E5M2 || t == DType::F8E4M3 || t == DType::F16 ||
           t == DType::BF16 || t == DType::F32 || t == DType::F4E2M1x2 || t == DType::F4E1M2x2;
}

constexpr bool tmov_dtype_a2a3(TileType src_loc, TileType dst_loc, DType src, DType dst)
{
    if (src_loc == TileType::Acc) return acc_output_dtype_ok(src, dst);
    if (dst_loc == TileType::Bias)
        return (src == DType::I32 && dst == DType::I32) || (src == DType::F32 && dst == DType::F32) ||
               (src == DType::F16 && dst == DType::F32);
    if (dst_loc == TileType::Scaling) return src == DType::U64 && dst == DType::U64;
    return src == dst && is_base_movable(src);
}

constexpr bool tmov_dtype_a5(TileType src_loc, TileType dst_loc, DType src, DType dst)
{
    if (src_loc == TileType::Acc) return acc_output_dtype_ok(src, dst);
    if (dst_loc == TileType::Bias)
        return (src == DType::I32 && dst == DType::I32) || (src == DType::F32 && dst == DType::F32) ||
               (src == DType::F16 && dst == DType::F32) || (src == DType::BF16 && dst == DType::F32);
    if (src != dst) return false;
    if (dst_loc == TileType::ScaleLeft || dst_loc == TileType::ScaleRight) return src == DType::F8E8M0;
    if (dst_loc == TileType::Left || dst_loc == TileType::Right) return a5_cube_operand(src);
    return is_a5_movable(src);
}
}  // namespace detail

// Rule LEGAL_TMOV_DTYPE: the (source, destination) element types of each TMOV path. A plain move keeps
// the type; Mat->Bias widens half (and on A5 bfloat16) to float; Acc converts as LEGAL_ACC_OUTPUT_DTYPE.
constexpr bool tmov_dtype_ok(const profile::Profile& p, TileType src_loc, TileType dst_loc, DType src, DType dst)
{
    switch (p.target) {
        case profile::Target::A2A3: return detail::tmov_dtype_a2a3(src_loc, dst_loc, src, dst);
        case profile::Target::A5: return detail::tmov_dtype_a5(src_loc, dst_loc, src, dst);
        default:
            return detail::tmov_dtype_a2a3(src_loc, dst_loc, src, dst) ||
                   detail::tmov_dtype_a5(src_loc, dst_loc, src, dst) ||
                   (src_loc == TileType::Acc && src == dst && (src == DType::F16 || src == DType::BF16)) ||
                   (src_loc == TileType::Mat && dst_loc == TileType::Vec && src == dst);
    }
}

// Rule LEGAL_TMOV_SHAPE: on A2/A3 source and destination have the same capacity (Rows and Cols).
constexpr bool tmov_shape_ok(const profile::Profile& p, int src_rows, int src_cols, int dst_rows, int dst_cols)
{
    return p.target != profile::Target::A2A3 || (src_rows == dst_rows && src_cols == dst_cols);
}

// Rule LEGAL_TMOV_TABLE_ROW: a move into the bias table or the fixpipe buffer takes one source row
// whose bytes are a multiple of `align` (64 for bias, 128 for scaling): counted on the source row on
// A2/A3, on the destination row on A5, which also bounds it by the 4 KiB of the buffer.
constexpr bool tmov_table_row_ok(const profile::Profile& p, int src_rows, int src_cols, int src_bits, int dst_cols,
                                 int dst_bits, int align)
{
    const int64_t src_bytes = int64_t(src_cols) * src_bits / 8;
    const int64_t dst_bytes = int64_t(dst_cols) * dst_bits / 8;
    const bool a2a3 = src_bytes % align == 0;
    const bool a5 = dst_bytes % align == 0 && dst_bytes <= 4096;
    if (src_rows != 1) return false;
    switch (p.target) {
        case profile::Target::A2A3: return a2a3;
        case profile::Target::A5: return a5;
        default: return a2a3 || a5;
    }
}

constexpr int tmov_table_alignment(TileType dst)
{
    return dst == TileType::Scaling ? 128 : 64;
}

// Rule LEGAL_TMOV_LAYOUT: on A5 the cube reads L1 tiles into L0A / L0B from an Nz, a Zn or a row-major
// (outer) arrangement only.
constexpr bool tmov_source_layout_ok(const profile::Profile& p, TileType src_loc, TileType dst_loc, BLayout b,
                                     SLayout s)
{
    if (p.target != profile::Target::A5 || src_loc != TileType::Mat) return true;
    if (dst_loc != TileType::Left && dst_loc != TileType::Right) return true;
    return b == BLayout::RowMajor || s == SLayout::RowMajor;
}

// Rule LEGAL_TMOV_MODE (the accumulator-to-vector form of the intrinsic): only for Acc->Vec moves.
constexpr bool is_acc_to_vec(TileType src_loc, TileType dst_loc)
{
    return src_loc == TileType::Acc && dst_loc == TileType::Vec;
}

// Rule LEGAL_TMOV_MODE: a ReLU pre-mode applies to moves out of an accumulator, and the dual
// (split) accumulator-to-vector modes to Acc->Vec moves only.
constexpr bool tmov_mode_ok(const profile::Profile&, TileType src_loc, TileType dst_loc, ReluPreMode relu,
                            AccToVecMode mode)
{
    if (relu != ReluPreMode::NoRelu && src_loc != TileType::Acc) return false;
    const bool dual = mode == AccToVecMode::DualModeSplitM || mode == AccToVecMode::DualModeSplitN;
    return !dual || is_acc_to_vec(src_loc, dst_loc);
}

// Rule RUN_TMOV_SPLIT: the dual accumulator-to-vector modes hand each of the two vector cores one half
// of the valid rows (DualModeSplitM) or columns (DualModeSplitN), so that count is even; A5, the one
// target with Acc->Vec, also needs a multiple of 32 columns before a column split into 32-bit outputs.
constexpr bool tmov_split_ok(AccToVecMode mode, int dst_bits, int valid_rows, int valid_cols)
{
    if (mode == AccToVecMode::DualModeSplitM) return valid_rows % 2 == 0;
    if (mode != AccToVecMode::DualModeSplitN) return true;
    return valid_cols % 2 == 0 && (dst_bits != 32 || valid_cols % 32 == 0);
}

// Rule LEGAL_TMOV_LOCATION (quantizing forms): the pre-quant scalar and the fp table quantize what
// leaves an accumulator; the output types are those of the quantizing TSTORE (LEGAL_TMOV_QUANT_DTYPE,
// acc_quant_output_dtype_ok). (The element types do not matter to TMOV's rule; TEXTRACT's and TINSERT's,
// window_quantizes, reads them.)
constexpr bool tmov_quant_source_ok(const profile::Profile&, TileType src_loc, DType, DType)
{
    return src_loc == TileType::Acc;
}

// Rule LEGAL_FP_TABLE: the vector-quantization table of TMOV_FP and TSTORE_FP is a Scaling tile of
// 64-bit words. The cpu profile reads the words from a u64 tile in any memory, as the CPU simulation does.
constexpr bool fp_table_ok(const profile::Profile& p, TileType loc, DType dtype)
{
    return dtype == DType::U64 && (loc == TileType::Scaling || p.target == profile::Target::Cpu);
}

// Rule LEGAL_TMOV_ZZ: the exponent repack into ZZ order (TMOV with tmp) exists on A5 and in the CPU
// simulation, from a Vec tile of E8M0 bytes into a Vec or Mat tile of the same type, grouped along
// axis 1 (ND) or 0 (DN).
constexpr bool tmov_zz_form_ok(const profile::Profile& p) { return p.target != profile::Target::A2A3; }
constexpr bool tmov_zz_operands_ok(TileType src_loc, TileType dst_loc, DType src, DType dst, int grp_axis)
{
    const bool exponent = src == DType::U8 || src == DType::F8E8M0;
    return src_loc == TileType::Vec && (dst_loc == TileType::Vec || dst_loc == TileType::Mat) && exponent &&
           dst == src && (grp_axis == 0 || grp_axis == 1);
}

// Rule RUN_VALID_SHAPE (ZZ repack): whole blocks of 16 rows x 2 groups. ND exponents are rows x groups;
// DN exponents are row groups x columns, and their columns are the blocks' rows.
constexpr bool tmov_zz_extent_ok(int grp_axis, int valid_rows, int valid_cols)
{
    const int rows = grp_axis == 1 ? valid_rows : valid_cols, groups = grp_axis == 1 ? valid_cols : valid_rows;
    return rows % 16 == 0 && groups % 2 == 0;
}

// --- TEXTRACT / TINSERT ---------------------------------------------------------------------------
// A window of TMOV: the element types follow LEGAL_TMOV_DTYPE and the modes LEGAL_TMOV_MODE.

// The cpu profile takes the CPU simulation's TEXTRACT and TINSERT: a window between any two tiles,
// converting between any two element types of one value per element (TMOV's conversions where TMOV has
// them, else as a C++ conversion of the value would: floats into integers truncated, here saturating).

// Rule LEGAL_TEXTRACT_LOCATION: the (source, destination) locations TEXTRACT connects.
// A2/A3: Mat->Left/Right, Acc->Mat, Vec->Vec. A5 adds Mat->ScaleLeft/ScaleRight, Acc->Vec, Vec->Mat.
constexpr bool textract_location_ok(const profile::Profile& p, TileType src, TileType dst)
{
    if (p.target == profile::Target::Cpu) return true;
    const bool both = (src == TileType::Mat && (dst == TileType::Left || dst == TileType::Right)) ||
                      (src == TileType::Acc && dst == TileType::Mat) || (src == TileType::Vec && dst == TileType::Vec);
    const bool a5 = (src == TileType::Mat && (dst == TileType::ScaleLeft || dst == TileType::ScaleRight)) ||
                    (src == TileType::Acc && dst == TileType::Vec) || (src == TileType::Vec && dst == TileType::Mat);
    return both || (p.target != profile::Target::A2A3 && a5);
}

// Rule LEGAL_TINSERT_LOCATION: A2/A3: Acc->Mat, Vec->Vec; A5 adds Acc->Vec and Vec->Mat.
constexpr bool tinsert_location_ok(const profile::Profile& p, TileType src, TileType dst)
{
    if (p.target == profile::Target::Cpu) return true;
    const bool both = (src == TileType::Acc && dst == TileType::Mat) || (src == TileType::Vec && dst == TileType::Vec);
    const bool a5 = (src == TileType::Acc && dst == TileType::Vec) || (src == TileType::Vec && dst == TileType::Mat);
    return both || (p.target != profile::Target::A2A3 && a5);
}

// Rule LEGAL_TMOV_DTYPE (TEXTRACT, TINSERT): TMOV's element-type pairs; on the cpu profile any pair of
// whole-byte types (the 4-bit fp4 and int4 types only to themselves).
constexpr bool window_dtype_ok(const profile::Profile& p, TileType src_loc, TileType dst_loc, DType src, DType dst)
{
    const auto whole_byte = [](DType t) { return dtype_bits(t) >= 8; };
    if (p.target == profile::Target::Cpu && (src == dst || (whole_byte(src) && whole_byte(dst)))) return true;
    return tmov_dtype_ok(p, src_loc, dst_loc, src, dst);
}

// Rule LEGAL_TMOV_LOCATION (the quantizing TEXTRACT and TINSERT forms, with a pre-quant scalar or a
// table): every real target quantizes only out of an accumulator. The cpu profile quantizes a window out
// of any tile whose element types are a quantizing pair of two types (acc_quant_output_dtype_ok: an f32
// or i32 source), as out of an accumulator, as the CPU simulation does.
constexpr bool window_quantizes(const profile::Profile& p, TileType src_loc, DType src, DType dst)
{
    return src_loc == TileType::Acc ||
           (p.target == profile::Target::Cpu && src != dst && acc_quant_output_dtype_ok(p, src, dst));
}

// Rule LEGAL_TMOV_MODE (TEXTRACT, TINSERT): TMOV's; the cpu profile also clamps negatives to zero in a
// window out of any tile, as the CPU simulation does.
constexpr bool window_mode_ok(const profile::Profile& p, TileType src_loc, TileType dst_loc, ReluPreMode relu,
                              AccToVecMode mode)
{
    const ReluPreMode checked = p.target == profile::Target::Cpu ? ReluPreMode::NoRelu : relu;
    return tmov_mode_ok(p, src_loc, dst_loc, checked, mode);
}

// The other windows of a quantizing form on the cpu profile (a non-accumulator source of a pair that does
// not quantize) ignore the scalar or table and move as the plain form does (the CPU simulation's contract).
constexpr bool window_quant_ignored(const profile::Profile& p, TileType src_loc, DType src, DType dst)
{
    return p.target == profile::Target::Cpu && !window_quantizes(p, src_loc, src, dst);
}

// Rule LEGAL_TINSERT_MODE: the split insertion modes (TInsertMode) move an Nz Vec tile into a Mat tile
// of its element type, on A5 (and in the CPU simulation).
constexpr bool tinsert_split_mode_ok(const profile::Profile& p, TileType src_loc, TileType dst_loc, BLayout src_b,
                                     SLayout src_s)
{
    return p.target != profile::Target::A2A3 && src_loc == TileType::Vec && dst_loc == TileType::Mat &&
           src_b == BLayout::ColMajor && src_s == SLayout::RowMajor;
}

namespace detail {
constexpr bool is_nz(BLayout b, SLayout s) { return b == BLayout::ColMajor && s == SLayout::RowMajor; }
constexpr bool is_zn(BLayout b, SLayout s) { return b == BLayout::RowMajor && s == SLayout::ColMajor; }
}  // namespace detail

// Rule LEGAL_TEXTRACT_LAYOUT (a2a3, a5): the cube loads Left/Right windows from Nz or Zn L1 tiles, the MX
// scales from Zz (ScaleLeft) or Nn (ScaleRight) ones; a Vec->Vec window keeps its arrangement (ND or Nz
// on both sides). The CPU simulation moves logical elements between any layouts.
constexpr bool textract_layout_ok(const profile::Profile& p, TileType src_loc, TileType dst_loc, BLayout src_b,
                                  SLayout src_s, BLayout dst_b, SLayout dst_s)
{
    if (p.target == profile::Target::Cpu) return true;
    if (src_loc == TileType::Mat && (dst_loc == TileType::Left || dst_loc == TileType::Right))
        return detail::is_nz(src_b, src_s) || detail::is_zn(src_b, src_s);
    if (dst_loc == TileType::ScaleLeft) return src_b == BLayout::RowMajor && src_s == SLayout::RowMajor;
    if (dst_loc == TileType::ScaleRight) return src_b == BLayout::ColMajor && src_s == SLayout::ColMajor;
    if (src_loc == TileType::Vec && dst_loc == TileType::Vec) return src_b == dst_b && src_s == dst_s;
    return true;
}

// Rule LEGAL_TINSERT_LAYOUT (a2a3, a5): a Vec->Vec window keeps its arrangement; a Vec->Mat one lands in
// an Nz Mat tile.
constexpr bool tinsert_layout_ok(const profile::Profile& p, TileType src_loc, TileType dst_loc, BLayout src_b,
                                 SLayout src_s, BLayout dst_b, SLayout dst_s)
{
    if (p.target == profile::Target::Cpu) return true;
    if (src_loc == TileType::Vec && dst_loc == TileType::Vec) return src_b == dst_b && src_s == dst_s;
    if (src_loc == TileType::Vec && dst_loc == TileType::Mat) return detail::is_nz(dst_b, dst_s);
    return true;
}

// The tile side of a window start rule: its location, arrangement, fractal box and element width.
struct WindowTile {
    TileType loc;
    BLayout blayout;
    SLayout slayout;
    int box_rows, box_cols;  // 0 when unboxed
    int element_bits;
};

namespace detail {
// An unboxed row-major Vec window on A2/A3 starts on a 32-byte block of its row.
constexpr bool nd_start_ok(const profile::Profile& p, const WindowTile& t, int64_t col)
{
    return p.target != profile::Target::A2A3 || t.loc != TileType::Vec || t.blayout != BLayout::RowMajor ||
           col * t.element_bits % 256 == 0;
}
}  // namespace detail

// Rule RUN_TEXTRACT_ALIGN (a2a3, a5): the cube and the vector copies read whole fractal boxes, so a
// window of a boxed source starts on a box; an accumulator is read element by element by the fixpipe.
constexpr bool textract_start_ok(const profile::Profile& p, const WindowTile& src, int64_t row, int64_t col)
{
    if (p.target == profile::Target::Cpu || src.loc == TileType::Acc) return true;
    if (src.box_rows == 0) return detail::nd_start_ok(p, src, col);
    return row % src.box_rows == 0 && col % src.box_cols == 0;
}

// Rule RUN_TINSERT_ALIGN (a2a3, a5): writes land on whole box lines: in an Nz destination (row-major
// boxes inside) the window starts on a box column, in a Zn one on a box row.
constexpr bool tinsert_start_ok(const profile::Profile& p, const WindowTile& dst, int64_t row, int64_t col)
{
    if (p.target == profile::Target::Cpu) return true;
    if (dst.box_rows == 0) return detail::nd_start_ok(p, dst, col);
    return dst.slayout == SLayout::RowMajor ? col % dst.box_cols == 0 : row % dst.box_rows == 0;
}

}  // namespace pto::rules
