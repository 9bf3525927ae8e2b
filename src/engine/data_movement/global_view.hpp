// The 2-D view a TLOAD or TSTORE has of a 5-D global tensor, and the checks that keep every global
// access inside the tensor and inside its allocation.
//
// A tensor of shape (s0, s1, s2, s3, s4) is seen as a matrix:
//   ND: rows = s0*s1*s2*s3, cols = s4        (row r splits into indices of dims 0..3, dim 3 fastest)
//   DN: rows = s3,          cols = s0*s1*s2*s4 (column c splits into indices of dims 0, 1, 2, 4)
//   NZ: rows = s2*s3,       cols = s0*s1*s4    (row r into dims 2, 3; column c into dims 0, 1, 4)
// and the MX scale layouts (TLOAD only; a matrix of M x groups on the A side, groups x N on the B side):
//   MX_A_ZZ: rows = s0*s1*s3 (dims 0, 1, 3), cols = s2*s4 (dims 2, 4)   16 x 2 boxes [.., M/16, K/2, 16, 2]
//   MX_B_NN: rows = s2*s4 (dims 2, 4), cols = s0*s1*s3 (dims 0, 1, 3)   2 x 16 boxes [.., N/16, K/2, 16, 2]
//   MX_A_ND: rows = s0*s1*s2 (dims 0, 1, 2), cols = s3*s4 (dims 3, 4)   [1, 1, M, K/2, 2]
//   MX_A_DN: rows = s0*s1*s3 (dims 0, 1, 3), cols = s2*s4 (dims 2, 4)   [1, 1, K/2, M, 2]
//   MX_B_ND: rows = s2*s4 (dims 2, 4), cols = s0*s1*s3 (dims 0, 1, 3)   [1, 1, K/2, N, 2]
//   MX_B_DN: rows = s3*s4 (dims 3, 4), cols = s0*s1*s2 (dims 0, 1, 2)   [1, 1, N, K/2, 2]
// (in each list the last dimension is the fastest; the ND/DN forms keep dims 0 and 1 of extent 1,
// LEGAL_GM_MX_SHAPE). ZZ's dimension 0 stacks further blocks of rows and NN's further columns, as
// the A5 load stitches them. The convolution layouts an accumulator is stored into (TSTORE only) are
// seen as pixels x channels (rules::acc_conv_dims):
//   NC1HWC0:  rows = N*H*W (dims 0, 2, 3), cols = C1*C0 (dims 1, 4)
//   NDC1HWC0: rows = N*H*W (dims 0, 3, 4), cols = D*C1*C0 (dims 1, 2, then the C0 of the element type,
//             consecutive elements after each W position: a sixth dimension of stride 1)
//   NHWC:     rows = N*H*W (dims 1, 2, 3), cols = C (dim 4)
//   NCHW:     rows = N*H*W (dims 1, 3, 4), cols = C (dim 2)
//   NCDHW:    rows = N*H*W (dims 0, 3, 4), cols = C (dim 1), at D index 0
#pragma once

#include <cstdint>

#include <pto/engine/descriptor.hpp>

#include "engine/data_movement/region_walk.hpp"

namespace pto::engine::data_movement {

class GlobalView {
public:
    // Requires a validated tensor (check_global_access).
    explicit GlobalView(const GlobalDesc& g);

    std::byte* base() const { return data_; }
    int64_t rows() const { return rows_; }
    int64_t cols() const { return cols_; }

    int64_t offset(int64_t r, int64_t c) const { return row_offset(r) + col_offset(c); }

    Stretch stretch(int64_t r, int64_t c, Axis axis, int64_t remaining) const
    {
        const int64_t at = offset(r, c);
        if (generic_) {
            const bool cols = axis == Axis::Cols;
            const int* dims = cols ? col_dims_ : row_dims_;
            const int count = cols ? col_count_ : row_count_;
            const int fast = dims[count - 1];
            if (count == 1) return {at, stride_[fast], remaining};
            const int64_t index = cols ? c : r;
            return {at, stride_[fast], std::min(remaining, shape_[fast] - index % shape_[fast])};
        }
        if (axis == Axis::Cols) {
            if (layout_ == Layout::ND) return {at, stride_[4], remaining};
            return {at, stride_[4], std::min(remaining, shape_[4] - c % shape_[4])};
        }
        if (layout_ == Layout::DN) return {at, stride_[3], remaining};
        return {at, stride_[3], std::min(remaining, shape_[3] - r % shape_[3])};
    }

    // A rows x cols region from (0, 0) as one panel, when its lines are one stride apart (within the
    // innermost two dimensions, or an ND tensor whose rows all are) with unit stride along its contiguous
    // axis (see Panels).
    bool panels(int64_t rows, int64_t cols, Panels& out) const
    {
        if (generic_) return false;
        if (layout_ == Layout::ND && stride_[4] == 1 && (rows <= shape_[3] || row_stride_ >= 0)) {
            out = {true, 0, cols, 0, stride_[3]};
            return true;
        }
        if (layout_ == Layout::DN && stride_[3] == 1 && cols <= shape_[4]) {
            out = {false, 0, rows, 0, stride_[4]};
            return true;
        }
        return false;
    }

private:
    int64_t row_offset(int64_t r) const;
    int64_t col_offset(int64_t c) const;

    std::byte* data_;
    Layout layout_;
    int64_t shape_[6];  // the sixth: NDC1HWC0's C0 (extent 1 in the other layouts), stride 1
    int64_t stride_[6];
    int64_t rows_ = 0;
    int64_t cols_ = 0;
    int64_t row_stride_ = -1;  // the rows' common stride when they have one, else -1
    // The MX and convolution layouts walk their row and column dimensions from these lists (outermost first).
    bool generic_ = false;
    int row_dims_[4] = {};
    int row_count_ = 0;
    int col_dims_[4] = {};
    int col_count_ = 0;
};

// Tells the synchronisation check (checked mode) that a transfer read or wrote the rows x cols region
// of `view`, whose elements are `bits` wide; `atomic` for an atomic add.
void note_global_region(const GlobalView& view, int64_t rows, int64_t cols, int bits, bool write, bool atomic = false);

// `g` as a transfer with `tile` folds it (rules::gm_fold_layout): its own layout, except for an ND or DN
// tensor paired (on the cpu profile only) with a tile arrangement no real target pairs it with.
GlobalDesc folded_for(const GlobalDesc& g, const TileDesc& tile);

// Validates `g` for a transfer of rows x cols elements (the tile's valid region) and fails with
//   RUN_GLOBAL_SHAPE  a dimension below 1, or the region larger than the tensor's 2-D view,
//   RUN_GLOBAL_STRIDE a negative stride,
//   RUN_NULL_POINTER  a null tensor pointer,
//   RUN_GLOBAL_OOB    the farthest byte touched past the end of the registered allocation holding the
//                     pointer (tensors outside any registered allocation are checked against their shape only).
// `operand` names the tensor in diagnostics.
void check_global_access(const GlobalDesc& g, int64_t rows, int64_t cols, const char* operand);

// The parts of check_global_access for transfers that address the tensor another way:
// every dimension >= 1 (RUN_GLOBAL_SHAPE), no negative stride (RUN_GLOBAL_STRIDE);
void check_global_dims(const GlobalDesc& g, const char* operand);
// a pointer (RUN_NULL_POINTER), and the farthest element touched (index max_index[d] in each dimension
// d, then `inner_elements` consecutive elements) inside the allocation (RUN_GLOBAL_OOB).
void check_global_reach(const GlobalDesc& g, const int64_t (&max_index)[5], int64_t inner_elements,
                        const char* operand);

}  // namespace pto::engine::data_movement
