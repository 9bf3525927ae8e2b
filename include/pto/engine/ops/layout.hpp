// Engine entry points of the layout instructions (TTRANS, TRESHAPE, TFILLPAD, TCONCAT, TINTERLEAVE,
// TDEINTERLEAVE, TPACK) and of the views (TSUBVIEW, TALIAS), with their operand checks.
#pragma once

#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

// TTRANS: dst(i, j) = src(j, i) over dst's valid region, the bits of each element as they are; src's valid
// region covers the transposed domain (RUN_VALID_SHAPE). dst may overlap src (even be src, square).
// tmp is checked as a Vec tile and not touched.
void ttrans(const TileDesc& dst, const TileDesc& src, const TileDesc* tmp);
void check_ttrans(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, const TileDesc* tmp, LegalitySink& sink);

// TRESHAPE: dst holds src's bytes, read as its own type and shape: the whole buffer is copied (nothing
// when both are one buffer). Checked mode: src's valid region must have been written, and dst's valid
// region counts as written.
void treshape(const TileDesc& dst, const TileDesc& src);
void check_treshape(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, LegalitySink& sink);

// TFILLPAD (mode Normal, InPlace, Expand): every element of dst's capacity is src(i, j) inside src's
// valid region and `pad` (dst's pad value, never Null) outside it (Expand: dst's capacity may exceed
// src's). dst may be src.
void tfillpad(const TileDesc& dst, const TileDesc& src, TFillPadMode mode, PadValue pad);
void check_tfillpad(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, TFillPadMode mode, PadValue pad,
                    LegalitySink& sink);

// TCONCAT's length tiles: column 0 of row r holds a length in units of the length type's size (an i32
// length of 12 is 3 elements), as the targets divide it (src0's and src1's lengths; dst: their sum,
// written in the same units).
struct ConcatLengths {
    const TileDesc* dst = nullptr;  // may be null
    const TileDesc* src0 = nullptr;
    const TileDesc* src1 = nullptr;
};

// TCONCAT: row r of dst (r < dst's valid rows, which src0 and src1 share) is the first n0 elements of
// src0's row r followed by the first n1 of src1's: n0, n1 are the valid columns (dst's valid columns are
// their sum), or with `lengths` the row's lengths, n0 cut to dst's valid columns and n1 to what remains
// (as the targets do; RUN_TCONCAT_LENGTH when a source row is shorter). dst's elements after them are
// left as they were.
void tconcat(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1, const ConcatLengths* lengths);
void check_tconcat(const profile::Profile& p, const TileDesc& dst, const TileDesc& src0, const TileDesc& src1,
                   const ConcatLengths* lengths, LegalitySink& sink);

// TINTERLEAVE: per row, the stream src0(0) src1(0) src0(1) src1(1) ... of 2 x C elements (C: the valid
// columns every tile shares, even) is cut in two: its first C elements are dst0's row, the rest dst1's.
void tinterleave(const TileDesc& dst0, const TileDesc& dst1, const TileDesc& src0, const TileDesc& src1);
void check_tinterleave(const profile::Profile& p, const TileDesc& dst0, const TileDesc& dst1, const TileDesc& src0,
                       const TileDesc& src1, LegalitySink& sink);

// TDEINTERLEAVE: per row, the stream src0's row then src1's (2 x C elements, C shared and even), or the
// one source's row (2 x C elements, C = dst's valid columns): dst0 gets its even positions, dst1 its odd.
void tdeinterleave(const TileDesc& dst0, const TileDesc& dst1, const TileDesc& src0, const TileDesc* src1);
void check_tdeinterleave(const profile::Profile& p, const TileDesc& dst0, const TileDesc& dst1, const TileDesc& src0,
                         const TileDesc* src1, LegalitySink& sink);

// TPACK: dst(r, c) = src(r, c) in dst's element type over the valid region both share: integers keep
// their low bytes (two's complement), floats round to nearest even (overflow to infinity).
void tpack(const TileDesc& dst, const TileDesc& src);
void check_tpack(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, LegalitySink& sink);

// TSUBVIEW: dst views src's bytes from position (row, col) on, with src's capacity, layout and pitch, so
// that dst(i, j) is src(row + i, col + j). Returns the byte offset of that position after the checks
// (LEGAL_TSUBVIEW_TILE, RUN_SUBVIEW_RANGE, RUN_SUBVIEW_ALIGN).
int64_t subview_byte_offset(const TileDesc& dst, const TileDesc& src, int64_t row, int64_t col);
void check_tsubview(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, int64_t row, int64_t col,
                    LegalitySink& sink);

// TALIAS: dst views src's first bytes as its own type and shape; checks that it may (one memory, dst's
// capacity within src's).
void require_talias(const TileDesc& dst, const TileDesc& src);
void check_talias(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, LegalitySink& sink);

// TTRANS of convolution tiles: the format changes NCHW <-> NC1HWC0, GNCHW <-> GNC1HWC0, NC1HWC0 and
// GNC1HWC0 -> FRACTAL_Z ([(G) C1 H W, N1, N0 = 16, C0]) and NCDHW -> FRACTAL_Z_3D ([D C1 H W, N1, 16,
// C0]), C0 the tiles' innermost extent (32 bytes of elements, or 4), C1 = ceil(C / C0), N1 = ceil(N / 16).
// Padding channels and batch rows are zeros. LEGAL_TTRANS_FORMAT for another pair, RUN_TTRANS_SHAPE for
// shapes that do not correspond.
void ttrans_conv(const ConvTileDesc& dst, const ConvTileDesc& src);
void check_ttrans_conv(const profile::Profile& p, const ConvTileDesc& dst, const ConvTileDesc& src, LegalitySink& sink);

}  // namespace pto::engine
