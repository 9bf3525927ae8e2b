// pto::TileShape2D and pto::BaseShape2D: the public library's helpers that describe a 2-D matrix of
// `rows` x `cols` elements of T as the five-dimensional Shape (TileShape2D) and Stride (BaseShape2D) of a
// GlobalTensor stored in `Layout_` (BaseShape2D is a Stride despite its name). Either extent may be
// DYNAMIC; the (rows, cols) constructor then gives it at run time. Defined for ND, DN, NZ, the MX scale
// layouts (MX_A_ZZ, MX_A_ND, MX_A_DN, MX_B_NN, MX_B_ND, MX_B_DN) and HIF4_A_ZZ / HIF4_B_NN; another
// layout has no definition.
//
// For a scale matrix (E8M0 group exponents: M x groups on the A side, groups x N on the B side) the MX
// shapes and strides place element (r, c) of a rows x cols matrix at:
//   MX_A_ZZ  (r / 16) * 16 * cols + (c / 2) * 32 + (r % 16) * 2 + c % 2   16 x 2 boxes, row-major inside,
//                                                                          along a row of boxes first
//   MX_A_ND  r * cols + c                                                  row-major
//   MX_A_DN  (c / 2) * 2 * rows + r * 2 + c % 2                            column pairs, rows x 2 each
//   MX_B_NN  (c / 16) * 16 * rows + (r / 2) * 32 + (c % 16) * 2 + r % 2   2 x 16 boxes, column-major
//                                                                          inside, down a column first
//   MX_B_ND  (r / 2) * 2 * cols + c * 2 + r % 2                            row pairs, cols x 2 each
//   MX_B_DN  c * rows + r                                                  column-major
// TLOAD's reading of these tensors is in src/engine/data_movement/global_view.hpp.
#pragma once

#include <cstdint>

#include <pto/common/constants.hpp>
#include <pto/common/global_tensor.hpp>
#include <pto/common/type.hpp>

namespace pto {

namespace shape2d {

// a / b and a * b, DYNAMIC when an operand is.
constexpr int64_t div(int64_t a, int64_t b)
{
    return a == DYNAMIC ? DYNAMIC : a / b;
}
constexpr int64_t mul(int64_t a, int64_t b)
{
    return (a == DYNAMIC || b == DYNAMIC) ? DYNAMIC : a * b;
}
// a is a multiple of b (or not known yet).
constexpr bool multiple(int64_t a, int64_t b)
{
    return a == DYNAMIC || a % b == 0;
}

// Elements of T in a 32-byte fractal row.
template <typename T>
inline constexpr int64_t c0 = C0_SIZE_BYTE / sizeof(T);

}  // namespace shape2d

template <typename T, int64_t rows = DYNAMIC, int64_t cols = DYNAMIC, Layout Layout_ = Layout::ND>
struct TileShape2D;

template <typename T, int64_t rows = DYNAMIC, int64_t cols = DYNAMIC, Layout Layout_ = Layout::ND>
struct BaseShape2D;

// The constructors every specialization has: the static extents; (rows, cols) at run time, from which
// the five extents follow as the expressions E0..E4 of `r` and `c` compute them; all five directly.
#define PTO_SHAPE2D_CONSTRUCTORS(NAME, E0, E1, E2, E3, E4)                                   \
    NAME() = default;                                                                         \
    NAME(int64_t r, int64_t c) : Parent((E0), (E1), (E2), (E3), (E4)) {}                      \
    NAME(int64_t e0, int64_t e1, int64_t e2, int64_t e3, int64_t e4) : Parent(e0, e1, e2, e3, e4) {}

// --- plain and NZ --------------------------------------------------------------------------------

template <typename T, int64_t rows, int64_t cols>
struct TileShape2D<T, rows, cols, Layout::ND> : Shape<1, 1, 1, rows, cols> {
    using Parent = Shape<1, 1, 1, rows, cols>;
    PTO_SHAPE2D_CONSTRUCTORS(TileShape2D, 1, 1, 1, r, c)
};

template <typename T, int64_t rows, int64_t cols>
struct TileShape2D<T, rows, cols, Layout::DN> : Shape<1, 1, 1, rows, cols> {
    using Parent = Shape<1, 1, 1, rows, cols>;
    PTO_SHAPE2D_CONSTRUCTORS(TileShape2D, 1, 1, 1, r, c)
};

// NZ: [1, cols / C0, rows / 16, 16, C0], C0 the elements of a 32-byte fractal row.
template <typename T, int64_t rows, int64_t cols>
struct TileShape2D<T, rows, cols, Layout::NZ>
    : Shape<1, shape2d::div(cols, shape2d::c0<T>), shape2d::div(rows, FRACTAL_NZ_ROW), FRACTAL_NZ_ROW,
            shape2d::c0<T>> {
    static constexpr int C0Size = shape2d::c0<T>;
    using Parent = Shape<1, shape2d::div(cols, C0Size), shape2d::div(rows, FRACTAL_NZ_ROW), FRACTAL_NZ_ROW, C0Size>;
    static_assert(shape2d::multiple(rows, FRACTAL_NZ_ROW), "TileShape2D<NZ>: rows must be a multiple of 16");
    static_assert(shape2d::multiple(cols, C0Size), "TileShape2D<NZ>: cols must be a multiple of 32 bytes of T");
    PTO_SHAPE2D_CONSTRUCTORS(TileShape2D, 1, c / C0Size, r / FRACTAL_NZ_ROW, FRACTAL_NZ_ROW, C0Size)
};

template <typename T, int64_t rows, int64_t cols>
struct BaseShape2D<T, rows, cols, Layout::ND>
    : Stride<shape2d::mul(rows, cols), shape2d::mul(rows, cols), shape2d::mul(rows, cols), cols, 1> {
    using Parent = Stride<shape2d::mul(rows, cols), shape2d::mul(rows, cols), shape2d::mul(rows, cols), cols, 1>;
    PTO_SHAPE2D_CONSTRUCTORS(BaseShape2D, r * c, r * c, r * c, c, 1)
};

template <typename T, int64_t rows, int64_t cols>
struct BaseShape2D<T, rows, cols, Layout::DN>
    : Stride<shape2d::mul(rows, cols), shape2d::mul(rows, cols), shape2d::mul(rows, cols), 1, rows> {
    using Parent = Stride<shape2d::mul(rows, cols), shape2d::mul(rows, cols), shape2d::mul(rows, cols), 1, rows>;
    PTO_SHAPE2D_CONSTRUCTORS(BaseShape2D, r * c, r * c, r * c, 1, r)
};

template <typename T, int64_t rows, int64_t cols>
struct BaseShape2D<T, rows, cols, Layout::NZ>
    : Stride<shape2d::mul(rows, cols), shape2d::mul(rows, shape2d::c0<T>), FRACTAL_NZ_ROW * shape2d::c0<T>,
             shape2d::c0<T>, 1> {
    static constexpr int C0Size = shape2d::c0<T>;
    static constexpr int FractalNZSize = FRACTAL_NZ_ROW * C0Size;
    using Parent = Stride<shape2d::mul(rows, cols), shape2d::mul(rows, C0Size), FractalNZSize, C0Size, 1>;
    static_assert(shape2d::multiple(rows, FRACTAL_NZ_ROW), "BaseShape2D<NZ>: rows must be a multiple of 16");
    static_assert(shape2d::multiple(cols, C0Size), "BaseShape2D<NZ>: cols must be a multiple of 32 bytes of T");
    PTO_SHAPE2D_CONSTRUCTORS(BaseShape2D, r * c, r * C0Size, FractalNZSize, C0Size, 1)
};

// --- MX scale layouts (A side: rows = M, cols = groups; B side: rows = groups, cols = N) ----------

template <typename T, int64_t rows, int64_t cols>
struct TileShape2D<T, rows, cols, Layout::MX_A_ZZ>
    : Shape<1, shape2d::div(rows, MX_ROW_LEN), shape2d::div(cols, MX_COL_LEN), MX_ROW_LEN, MX_COL_LEN> {
    static constexpr int C0Size = MX_COL_LEN;
    using Parent = Shape<1, shape2d::div(rows, MX_ROW_LEN), shape2d::div(cols, MX_COL_LEN), MX_ROW_LEN, MX_COL_LEN>;
    static_assert(shape2d::multiple(cols, MX_COL_LEN), "TileShape2D<MX_A_ZZ>: cols (groups) must be even");
    PTO_SHAPE2D_CONSTRUCTORS(TileShape2D, 1, r / MX_ROW_LEN, c / MX_COL_LEN, MX_ROW_LEN, MX_COL_LEN)
};

template <typename T, int64_t rows, int64_t cols>
struct BaseShape2D<T, rows, cols, Layout::MX_A_ZZ>
    : Stride<shape2d::mul(rows, cols), shape2d::mul(cols, MX_ROW_LEN), MX_BLOCK_SIZE, MX_COL_LEN, 1> {
    using Parent = Stride<shape2d::mul(rows, cols), shape2d::mul(cols, MX_ROW_LEN), MX_BLOCK_SIZE, MX_COL_LEN, 1>;
    PTO_SHAPE2D_CONSTRUCTORS(BaseShape2D, r * c, c * MX_ROW_LEN, MX_BLOCK_SIZE, MX_COL_LEN, 1)
};

template <typename T, int64_t rows, int64_t cols>
struct TileShape2D<T, rows, cols, Layout::MX_A_ND>
    : Shape<1, 1, rows, shape2d::div(cols, MX_COL_LEN), MX_COL_LEN> {
    static constexpr int C0Size = MX_COL_LEN;
    using Parent = Shape<1, 1, rows, shape2d::div(cols, MX_COL_LEN), MX_COL_LEN>;
    static_assert(shape2d::multiple(cols, MX_COL_LEN), "TileShape2D<MX_A_ND>: cols (groups) must be even");
    PTO_SHAPE2D_CONSTRUCTORS(TileShape2D, 1, 1, r, c / MX_COL_LEN, MX_COL_LEN)
};

template <typename T, int64_t rows, int64_t cols>
struct BaseShape2D<T, rows, cols, Layout::MX_A_ND>
    : Stride<shape2d::mul(rows, cols), shape2d::mul(rows, cols), cols, MX_COL_LEN, 1> {
    using Parent = Stride<shape2d::mul(rows, cols), shape2d::mul(rows, cols), cols, MX_COL_LEN, 1>;
    PTO_SHAPE2D_CONSTRUCTORS(BaseShape2D, r * c, r * c, c, MX_COL_LEN, 1)
};

template <typename T, int64_t rows, int64_t cols>
struct TileShape2D<T, rows, cols, Layout::MX_A_DN>
    : Shape<1, 1, shape2d::div(cols, MX_COL_LEN), rows, MX_COL_LEN> {
    static constexpr int C0Size = MX_COL_LEN;
    using Parent = Shape<1, 1, shape2d::div(cols, MX_COL_LEN), rows, MX_COL_LEN>;
    static_assert(shape2d::multiple(cols, MX_COL_LEN), "TileShape2D<MX_A_DN>: cols (groups) must be even");
    PTO_SHAPE2D_CONSTRUCTORS(TileShape2D, 1, 1, c / MX_COL_LEN, r, MX_COL_LEN)
};

template <typename T, int64_t rows, int64_t cols>
struct BaseShape2D<T, rows, cols, Layout::MX_A_DN>
    : Stride<shape2d::mul(rows, cols), shape2d::mul(rows, cols), shape2d::mul(rows, MX_COL_LEN), MX_COL_LEN, 1> {
    using Parent =
        Stride<shape2d::mul(rows, cols), shape2d::mul(rows, cols), shape2d::mul(rows, MX_COL_LEN), MX_COL_LEN, 1>;
    PTO_SHAPE2D_CONSTRUCTORS(BaseShape2D, r * c, r * c, r * MX_COL_LEN, MX_COL_LEN, 1)
};

template <typename T, int64_t rows, int64_t cols>
struct TileShape2D<T, rows, cols, Layout::MX_B_NN>
    : Shape<1, shape2d::div(cols, MX_ROW_LEN), shape2d::div(rows, MX_COL_LEN), MX_ROW_LEN, MX_COL_LEN> {
    static constexpr int C0Size = MX_COL_LEN;
    using Parent = Shape<1, shape2d::div(cols, MX_ROW_LEN), shape2d::div(rows, MX_COL_LEN), MX_ROW_LEN, MX_COL_LEN>;
    static_assert(shape2d::multiple(rows, MX_COL_LEN), "TileShape2D<MX_B_NN>: rows (groups) must be even");
    PTO_SHAPE2D_CONSTRUCTORS(TileShape2D, 1, c / MX_ROW_LEN, r / MX_COL_LEN, MX_ROW_LEN, MX_COL_LEN)
};

template <typename T, int64_t rows, int64_t cols>
struct BaseShape2D<T, rows, cols, Layout::MX_B_NN>
    : Stride<shape2d::mul(rows, cols), shape2d::mul(rows, MX_ROW_LEN), MX_BLOCK_SIZE, MX_COL_LEN, 1> {
    using Parent = Stride<shape2d::mul(rows, cols), shape2d::mul(rows, MX_ROW_LEN), MX_BLOCK_SIZE, MX_COL_LEN, 1>;
    PTO_SHAPE2D_CONSTRUCTORS(BaseShape2D, r * c, r * MX_ROW_LEN, MX_BLOCK_SIZE, MX_COL_LEN, 1)
};

template <typename T, int64_t rows, int64_t cols>
struct TileShape2D<T, rows, cols, Layout::MX_B_ND>
    : Shape<1, 1, shape2d::div(rows, MX_COL_LEN), cols, MX_COL_LEN> {
    static constexpr int C0Size = MX_COL_LEN;
    using Parent = Shape<1, 1, shape2d::div(rows, MX_COL_LEN), cols, MX_COL_LEN>;
    static_assert(shape2d::multiple(rows, MX_COL_LEN), "TileShape2D<MX_B_ND>: rows (groups) must be even");
    PTO_SHAPE2D_CONSTRUCTORS(TileShape2D, 1, 1, r / MX_COL_LEN, c, MX_COL_LEN)
};

template <typename T, int64_t rows, int64_t cols>
struct BaseShape2D<T, rows, cols, Layout::MX_B_ND>
    : Stride<shape2d::mul(rows, cols), shape2d::mul(rows, cols), shape2d::mul(cols, MX_COL_LEN), MX_COL_LEN, 1> {
    using Parent =
        Stride<shape2d::mul(rows, cols), shape2d::mul(rows, cols), shape2d::mul(cols, MX_COL_LEN), MX_COL_LEN, 1>;
    PTO_SHAPE2D_CONSTRUCTORS(BaseShape2D, r * c, r * c, c * MX_COL_LEN, MX_COL_LEN, 1)
};

template <typename T, int64_t rows, int64_t cols>
struct TileShape2D<T, rows, cols, Layout::MX_B_DN>
    : Shape<1, 1, cols, shape2d::div(rows, MX_COL_LEN), MX_COL_LEN> {
    static constexpr int C0Size = MX_COL_LEN;
    using Parent = Shape<1, 1, cols, shape2d::div(rows, MX_COL_LEN), MX_COL_LEN>;
    static_assert(shape2d::multiple(rows, MX_COL_LEN), "TileShape2D<MX_B_DN>: rows (groups) must be even");
    PTO_SHAPE2D_CONSTRUCTORS(TileShape2D, 1, 1, c, r / MX_COL_LEN, MX_COL_LEN)
};

template <typename T, int64_t rows, int64_t cols>
struct BaseShape2D<T, rows, cols, Layout::MX_B_DN>
    : Stride<shape2d::mul(rows, cols), shape2d::mul(rows, cols), rows, MX_COL_LEN, 1> {
    using Parent = Stride<shape2d::mul(rows, cols), shape2d::mul(rows, cols), rows, MX_COL_LEN, 1>;
    PTO_SHAPE2D_CONSTRUCTORS(BaseShape2D, r * c, r * c, r, MX_COL_LEN, 1)
};

// --- HIF4 (an A6 format; shapes only: no ptosim instruction reads these layouts) ------------------

template <typename T, int64_t rows, int64_t cols>
struct TileShape2D<T, rows, cols, Layout::HIF4_A_ZZ>
    : Shape<1, shape2d::div(rows, HIF4_ROW_LEN), cols, HIF4_ROW_LEN, HIF4_COL_LEN> {
    using Parent = Shape<1, shape2d::div(rows, HIF4_ROW_LEN), cols, HIF4_ROW_LEN, HIF4_COL_LEN>;
    PTO_SHAPE2D_CONSTRUCTORS(TileShape2D, 1, r / HIF4_ROW_LEN, c, HIF4_ROW_LEN, HIF4_COL_LEN)
};

template <typename T, int64_t rows, int64_t cols>
struct BaseShape2D<T, rows, cols, Layout::HIF4_A_ZZ>
    : Stride<shape2d::mul(rows, cols), shape2d::mul(cols, HIF4_ROW_LEN), HIF4_BLOCK_SIZE, HIF4_COL_LEN, 1> {
    using Parent = Stride<shape2d::mul(rows, cols), shape2d::mul(cols, HIF4_ROW_LEN), HIF4_BLOCK_SIZE, HIF4_COL_LEN, 1>;
    PTO_SHAPE2D_CONSTRUCTORS(BaseShape2D, r * c, c * HIF4_ROW_LEN, HIF4_BLOCK_SIZE, HIF4_COL_LEN, 1)
};

template <typename T, int64_t rows, int64_t cols>
struct TileShape2D<T, rows, cols, Layout::HIF4_B_NN>
    : Shape<1, shape2d::div(cols, HIF4_ROW_LEN), rows, HIF4_ROW_LEN, HIF4_COL_LEN> {
    using Parent = Shape<1, shape2d::div(cols, HIF4_ROW_LEN), rows, HIF4_ROW_LEN, HIF4_COL_LEN>;
    PTO_SHAPE2D_CONSTRUCTORS(TileShape2D, 1, c / HIF4_ROW_LEN, r, HIF4_ROW_LEN, HIF4_COL_LEN)
};

template <typename T, int64_t rows, int64_t cols>
struct BaseShape2D<T, rows, cols, Layout::HIF4_B_NN>
    : Stride<shape2d::mul(rows, cols), shape2d::mul(rows, HIF4_ROW_LEN), HIF4_BLOCK_SIZE, HIF4_COL_LEN, 1> {
    using Parent = Stride<shape2d::mul(rows, cols), shape2d::mul(rows, HIF4_ROW_LEN), HIF4_BLOCK_SIZE, HIF4_COL_LEN, 1>;
    PTO_SHAPE2D_CONSTRUCTORS(BaseShape2D, r * c, r * HIF4_ROW_LEN, HIF4_BLOCK_SIZE, HIF4_COL_LEN, 1)
};

#undef PTO_SHAPE2D_CONSTRUCTORS

}  // namespace pto
