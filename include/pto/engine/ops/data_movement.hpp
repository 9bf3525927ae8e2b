// Engine entry points of the data-movement family: TLOAD, TSTORE, TMOV and its windows TEXTRACT and
// TINSERT. Each validates its operands for the active profile (LEGAL_* / RUN_* diagnostics), does the
// checked-mode bookkeeping and moves the data. The C++ intrinsics and the PTO-AS interpreter both call these.
#pragma once

#include <optional>

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

// TLOAD: the valid region of `dst` receives the top-left valid_rows x valid_cols of the 2-D view of
// `src`; the rest of `dst` is filled with its pad value (left as it was for PadValue::Null).
//
// The 2-D view of a 5-D tensor of shape (s0, s1, s2, s3, s4):
//   ND: rows = s0*s1*s2*s3 (the outer dimensions stack row blocks), cols = s4
//   DN: rows = s3, cols = s0*s1*s2*s4 (the outer dimensions stack column blocks)
//   NZ: rows = s2*s3, cols = s0*s1*s4 (dimensions 0-1 walk the column blocks, 2 the row blocks)
void tload(const TileDesc& dst, const GlobalDesc& src);

// TPREFETCH: on the devices a hint that warms dst with src's data; the page defines the CPU simulation as
// a blocking load, and so it is here: TLOAD's semantics and rules, under its own name.
void tprefetch(const TileDesc& dst, const GlobalDesc& src);
// TPREFETCH from a tile, which the public CPU simulation's programs do: a plain TMOV of one element type.
void tprefetch(const TileDesc& dst, const TileDesc& src);

// TSTORE: the valid region of `src` goes to the top-left of the 2-D view of `dst`. An accumulator
// tile is converted to the tensor's element type (rules::acc_output_dtype_ok), negatives becoming
// zero first with NormalRelu (accumulators only). AtomicAdd adds to what global memory holds instead
// of overwriting it.
void tstore(const GlobalDesc& dst, const TileDesc& src, AtomicType atomic = AtomicType::AtomicNone,
            ReluPreMode relu = ReluPreMode::NoRelu);

// The fixpipe's quantization of an accumulator on its way out (TSTORE and TMOV with a pre-quant
// scalar, TSTORE_FP and TMOV_FP with a table): element x of source column k becomes
// q = f32(x) * scale(k), the scale being the f32 whose bits are the low 32 bits of the pre-quant
// scalar, or of `per_column`(0, k) (a Scaling tile of 64-bit words); with NormalRelu a negative q
// becomes +0; q is then rounded to nearest even into the output type, a finite q saturating to that
// type's range (8-bit integers: NaN -> 0; floats keep infinities and NaN where the type has them).
struct AccQuantization {
    uint64_t scalar = 0;
    const TileDesc* per_column = nullptr;
};

// TSTORE with a quantization; AtomicAdd adds q to an f32 tensor.
void tstore(const GlobalDesc& dst, const TileDesc& src, const AccQuantization& quant, ReluPreMode relu,
            AtomicType atomic = AtomicType::AtomicNone);

// TLOAD / TSTORE of a convolution tile: its dense array moves element by element from / to the
// global tensor of the same layout. Tile dimension d (d < 5) is the tensor's dimension d; a sixth tile
// dimension (the C0 of NDC1HWC0) lies contiguous after the tensor's fifth; the tensor's dimensions
// past a tile of fewer than five have extent 1. The transfer is the tile's whole shape.
void tload(const ConvTileDesc& dst, const GlobalDesc& src);
void tstore(const GlobalDesc& dst, const ConvTileDesc& src);

// TMOV: the valid region of `dst` receives the same logical elements of `src`, re-laid out for the
// destination's layout; moves out of an accumulator convert (and with NormalRelu clamp negatives to
// zero first); Mat->Bias widens half / bfloat16 to float. For Acc->Vec the dual modes move the half
// of the source (rows for DualModeSplitM, columns for DualModeSplitN) that belongs to this core's
// vector sub-block.
void tmov(const TileDesc& dst, const TileDesc& src, ReluPreMode relu = ReluPreMode::NoRelu,
          AccToVecMode mode = AccToVecMode::SingleModeVec0);

// TMOV out of an accumulator, quantized by the fixpipe: the source element that dst(r, c) receives (as
// the plain TMOV places it, split modes included) goes through the quantizing TSTORE's rule, with the
// scale of its source column.
void tmov(const TileDesc& dst, const TileDesc& src, const AccQuantization& quant, ReluPreMode relu,
          AccToVecMode mode = AccToVecMode::SingleModeVec0);

// Where TEXTRACT's window starts in its source, or TINSERT's in its destination.
struct WindowStart {
    int64_t row = 0, col = 0;
};

// TEXTRACT: TMOV of a window: dst's valid region receives src's elements from `start` on
// (dst(i, j) = src(row + i, col + j)), converted, ReLU'd or quantized out of an accumulator as TMOV does
// them (a table's scale is that of the source column); under a split mode this core's half, from `start`.
// The window lies in src's valid region (RUN_TEXTRACT_RANGE) and, on a boxed source other than an
// accumulator, starts on a fractal box (RUN_TEXTRACT_ALIGN, a2a3/a5).
void textract(const TileDesc& dst, const TileDesc& src, WindowStart start, ReluPreMode relu = ReluPreMode::NoRelu,
              AccToVecMode mode = AccToVecMode::SingleModeVec0, const AccQuantization* quant = nullptr);

// TEXTRACT of a convolution tile: its FRACTAL_Z / FRACTAL_Z_3D weights ([C1HW, N/16, 16, C0], or
// [C1, H, W, N, C0] and deeper) are the Zn matrix of K = C1HW * C0 rows and N columns they lay out; dst, a
// Right tile of their type, receives the window of that matrix at `start`.
void textract(const TileDesc& dst, const ConvTileDesc& src, WindowStart start);

// TINSERT: src's valid region (under a split mode this core's half of it) lands in dst from `start` on
// (dst(row + i, col + j) = src(i, j)), as TEXTRACT converts it; the rest of dst keeps its bytes. The
// window lies in dst's valid region (RUN_TINSERT_RANGE) and starts on a box line of a boxed
// destination (RUN_TINSERT_ALIGN, a2a3/a5). `split_mode`: the TInsertMode form (Nz Vec -> Mat, a5).
void tinsert(const TileDesc& dst, const TileDesc& src, WindowStart start, ReluPreMode relu = ReluPreMode::NoRelu,
             AccToVecMode mode = AccToVecMode::SingleModeVec0, const AccQuantization* quant = nullptr,
             std::optional<TInsertMode> split_mode = std::nullopt);

// TMOV's exponent repack for the cube's MX scales (the 3-operand form): the E8M0 exponents of src's
// valid region, grouped along rows (grp_axis 1: src is rows x groups) or down columns (grp_axis 0: src
// is row groups x columns, taken transposed), go to dst's storage from its first byte in ZZ order,
// blocks of 16 rows x 2 groups, row-major inside a block, blocks along the rows first. tmp is not
// touched.
void tmov_zz(const TileDesc& dst, const TileDesc& src, const TileDesc& tmp, int grp_axis);

// The operand rules of each on profile `p`, read from the descriptors alone (kUnknownExtent valid
// extents and view dimensions skip the rules that read them). Every broken rule goes to `sink`.
void check_tload(const profile::Profile& p, const TileDesc& dst, const GlobalDesc& src, LegalitySink& sink);
// `quant`: the rules of the quantizing forms (an Acc source, on cpu any tile; LEGAL_TSTORE_QUANT_DTYPE;
// the table); a ReLU pre-mode needs an Acc source or, on cpu, a quantizing store (LEGAL_TSTORE_RELU).
void check_tstore(const profile::Profile& p, const GlobalDesc& dst, const TileDesc& src, AtomicType atomic,
                  LegalitySink& sink, const AccQuantization* quant = nullptr, ReluPreMode relu = ReluPreMode::NoRelu);
// The rules of a convolution-tile transfer (`load`: TLOAD, else TSTORE).
void check_conv_transfer(const profile::Profile& p, const ConvTileDesc& tile, const GlobalDesc& global, bool load,
                         LegalitySink& sink);
// `quant`: the rules of the quantizing forms (an Acc source, LEGAL_TMOV_QUANT_DTYPE, the fp table).
void check_tmov(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, ReluPreMode relu,
                AccToVecMode mode, LegalitySink& sink, const AccQuantization* quant = nullptr);
// `start`: null when the verifier does not know it (the rules that read it are skipped).
void check_textract(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const WindowStart* start,
                    ReluPreMode relu, AccToVecMode mode, LegalitySink& sink, const AccQuantization* quant = nullptr);
void check_tinsert(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const WindowStart* start,
                   ReluPreMode relu, AccToVecMode mode, LegalitySink& sink, const AccQuantization* quant = nullptr,
                   std::optional<TInsertMode> split_mode = std::nullopt);
void check_tmov_zz(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc& tmp,
                   int grp_axis, LegalitySink& sink);

// TPREFETCH_ASYNC: checks that a global tensor may be prefetched into L2 (a packed, contiguous range,
// RUN_PREFETCH_LAYOUT; inside its allocation, RUN_GLOBAL_OOB) and returns the nonzero handle of the
// prefetch. No data moves: L2 is not modelled, and the prefetch is complete when it returns.
uint64_t tprefetch_async(const GlobalDesc& src);

}  // namespace pto::engine
