#include "engine/data_movement/global_view.hpp"

#include <pto/profile/rules_data_movement.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <algorithm>
#include <string>

#include "engine/data_movement/operand_checks.hpp"
#include "runtime/order_checker.hpp"

namespace pto::engine::data_movement {

namespace {

// Dimensions that make up the view's rows and its columns, outermost first.
struct ViewDims {
    int row_dims[4];
    int row_count;
    int col_dims[4];
    int col_count;
};

ViewDims dims_of(Layout layout)
{
    if (rules::is_acc_conv_layout(layout)) {
        const rules::AccConvDims conv = rules::acc_conv_dims(layout);
        ViewDims v{{}, conv.row_count, {}, conv.col_count};
        std::copy(conv.rows, conv.rows + conv.row_count, v.row_dims);
        std::copy(conv.cols, conv.cols + conv.col_count, v.col_dims);
        return v;
    }
    switch (layout) {
        case Layout::DN: return {{3}, 1, {0, 1, 2, 4}, 4};
        case Layout::NZ: return {{2, 3}, 2, {0, 1, 4}, 3};
        case Layout::MX_A_ZZ:
        case Layout::MX_A_DN: return {{0, 1, 3}, 3, {2, 4}, 2};
        case Layout::MX_B_NN:
        case Layout::MX_B_ND: return {{2, 4}, 2, {0, 1, 3}, 3};
        case Layout::MX_A_ND: return {{0, 1, 2}, 3, {3, 4}, 2};
        case Layout::MX_B_DN: return {{3, 4}, 2, {0, 1, 2}, 3};
        default: return {{0, 1, 2, 3}, 4, {4}, 1};
    }
}

// The tensor's five extents and a sixth, NDC1HWC0's C0 (1 for the other layouts).
void extents_of(const GlobalDesc& g, int64_t (&shape)[6])
{
    std::copy(g.shape, g.shape + 5, shape);
    shape[5] = g.layout == Layout::NDC1HWC0 ? rules::acc_conv_c0(g.dtype) : 1;
}

// Product of the extents of `dims`; false when it does not fit in 63 bits.
bool extent_product(const int64_t (&shape)[6], const int* dims, int count, int64_t& out)
{
    out = 1;
    for (int i = 0; i < count; ++i) {
        if (__builtin_mul_overflow(out, shape[dims[i]], &out)) return false;
    }
    return true;
}

// The largest index the first `n` flattened positions reach in each of `dims` (the last one fastest).
void spread_max_index(int64_t n, const int64_t (&shape)[6], const int* dims, int count, int64_t (&max_index)[6])
{
    int64_t blocks = n;
    for (int i = count - 1; i >= 0; --i) {
        const int64_t extent = shape[dims[i]];
        max_index[dims[i]] = std::min(extent, blocks) - 1;
        blocks = (blocks + extent - 1) / extent;
    }
}

std::string region_text(int64_t rows, int64_t cols)
{
    return std::to_string(rows) + " x " + std::to_string(cols);
}

}  // namespace

GlobalView::GlobalView(const GlobalDesc& g) : data_(g.data), layout_(g.layout)
{
    extents_of(g, shape_);
    std::copy(g.stride, g.stride + 5, stride_);
    stride_[5] = 1;
    const ViewDims dims = dims_of(layout_);
    extent_product(shape_, dims.row_dims, dims.row_count, rows_);
    extent_product(shape_, dims.col_dims, dims.col_count, cols_);
    if (rules::is_mx_layout(layout_) || rules::is_acc_conv_layout(layout_)) {
        generic_ = true;
        row_count_ = dims.row_count;
        col_count_ = dims.col_count;
        std::copy(dims.row_dims, dims.row_dims + row_count_, row_dims_);
        std::copy(dims.col_dims, dims.col_dims + col_count_, col_dims_);
        return;
    }
    // An ND tensor whose dimensions 0..3 nest without gaps has rows one stride apart.
    if (layout_ == Layout::ND) {
        bool nested = true;
        int64_t step = shape_[3] * stride_[3];  // what a step of the next outer dimension must span
        for (int d = 2; d >= 0; --d) {
            nested = nested && (shape_[d] == 1 || stride_[d] == step);
            step *= shape_[d];
        }
        if (nested) row_stride_ = stride_[3];
    }
}

// Position `i` along the dimensions `dims` (the last fastest) as an element offset.
static int64_t spread_offset(int64_t i, const int64_t (&shape)[6], const int64_t (&stride)[6], const int* dims,
                             int count)
{
    int64_t offset = 0;
    for (int k = count - 1; k > 0; --k) {
        offset += (i % shape[dims[k]]) * stride[dims[k]];
        i /= shape[dims[k]];
    }
    return offset + i * stride[dims[0]];
}

int64_t GlobalView::row_offset(int64_t r) const
{
    if (generic_) return spread_offset(r, shape_, stride_, row_dims_, row_count_);
    if (row_stride_ >= 0) return r * row_stride_;
    switch (layout_) {
        case Layout::DN: return r * stride_[3];
        case Layout::NZ: return (r / shape_[3]) * stride_[2] + (r % shape_[3]) * stride_[3];
        default: {
            int64_t offset = (r % shape_[3]) * stride_[3];
            r /= shape_[3];
            offset += (r % shape_[2]) * stride_[2];
            r /= shape_[2];
            return offset + (r % shape_[1]) * stride_[1] + (r / shape_[1]) * stride_[0];
        }
    }
}

int64_t GlobalView::col_offset(int64_t c) const
{
    if (generic_) return spread_offset(c, shape_, stride_, col_dims_, col_count_);
    if (layout_ == Layout::ND) return c * stride_[4];
    int64_t offset = (c % shape_[4]) * stride_[4];
    c /= shape_[4];
    if (layout_ == Layout::DN) {
        offset += (c % shape_[2]) * stride_[2];
        c /= shape_[2];
    }
    return offset + (c % shape_[1]) * stride_[1] + (c / shape_[1]) * stride_[0];
}

GlobalDesc folded_for(const GlobalDesc& g, const TileDesc& tile)
{
    GlobalDesc folded = g;
    folded.layout =
        rules::gm_fold_layout(tile.loc, g.layout, tile.blayout, tile.slayout, tile.rows, tile.cols, tile.dtype);
    return folded;
}

void check_global_dims(const GlobalDesc& g, const char* operand)
{
    for (int d = 0; d < 5; ++d) {
        if (g.shape[d] < 1) {
            runtime::fail({"RUN_GLOBAL_SHAPE", "", operand,
                           "dimension " + std::to_string(d) + " of the global tensor's shape " + dims_text(g.shape) +
                               " is empty",
                           "every dimension >= 1", std::to_string(g.shape[d]), ""});
        }
        if (g.stride[d] < 0) {
            runtime::fail(
                {"RUN_GLOBAL_STRIDE", "", operand,
                 "stride " + std::to_string(d) + " of the global tensor " + dims_text(g.stride) + " is negative",
                 "strides >= 0", std::to_string(g.stride[d]), ""});
        }
    }
}

void check_global_reach(const GlobalDesc& g, const int64_t (&max_index)[5], int64_t inner_elements,
                        const char* operand)
{
    if (!g.data) {
        runtime::fail({"RUN_NULL_POINTER", "", operand, "the global tensor's pointer is null", "a global address",
                       "nullptr", ""});
    }
    int64_t farthest = inner_elements - 1;  // element offset of the farthest element touched
    for (int d = 0; d < 5; ++d) {
        int64_t term = 0;
        if (__builtin_mul_overflow(max_index[d], g.stride[d], &term) ||
            __builtin_add_overflow(farthest, term, &farthest)) {
            runtime::fail({"RUN_GLOBAL_STRIDE", "", operand,
                           "the strides " + dims_text(g.stride) + " reach past any addressable byte", "", "", ""});
        }
    }
    const int64_t end = ((farthest + 1) * dtype_bits(g.dtype) + 7) / 8;  // one past the farthest byte touched
    const int64_t available = runtime::global_bytes_after(g.data);
    if (available >= 0 && end > available) {
        runtime::fail({"RUN_GLOBAL_OOB", "", operand,
                       "the transfer's farthest byte is at offset " + std::to_string(end - 1) +
                           " from the tensor's pointer, past the end of its allocation (" + std::to_string(available) +
                           " bytes from the pointer)",
                       "byte offsets < " + std::to_string(available), std::to_string(end - 1), ""});
    }
}

void check_global_access(const GlobalDesc& g, int64_t rows, int64_t cols, const char* operand)
{
    check_global_dims(g, operand);
    const ViewDims dims = dims_of(g.layout);
    int64_t shape[6];
    extents_of(g, shape);
    int64_t view_rows = 0, view_cols = 0;
    if (!extent_product(shape, dims.row_dims, dims.row_count, view_rows) ||
        !extent_product(shape, dims.col_dims, dims.col_count, view_cols)) {
        runtime::fail({"RUN_GLOBAL_SHAPE", "", operand,
                       "the global tensor's shape " + dims_text(g.shape) + " overflows 64-bit extents",
                       "a representable shape", dims_text(g.shape), ""});
    }
    if (rows > view_rows || cols > view_cols) {
        runtime::fail({"RUN_GLOBAL_SHAPE", "", operand,
                       "the tile's valid region (" + region_text(rows, cols) + ") exceeds the " +
                           layout_name(g.layout) + " view (" + region_text(view_rows, view_cols) +
                           ") of the global tensor of shape " + dims_text(g.shape),
                       "at most " + region_text(view_rows, view_cols), region_text(rows, cols), ""});
    }
    if (rows == 0 || cols == 0) return;

    int64_t max_index[6] = {0, 0, 0, 0, 0, 0};
    spread_max_index(rows, shape, dims.row_dims, dims.row_count, max_index);
    spread_max_index(cols, shape, dims.col_dims, dims.col_count, max_index);
    int64_t outer[5];
    std::copy(max_index, max_index + 5, outer);
    check_global_reach(g, outer, max_index[5] + 1, operand);
}

// Runs of consecutive elements along the view's contiguous axis (each element alone when it has none).
void note_global_region(const GlobalView& view, int64_t rows, int64_t cols, int bits, bool write, bool atomic)
{
    if (!runtime::order::checking() || rows <= 0 || cols <= 0) return;
    const bool along_cols = view.stretch(0, 0, Axis::Cols, cols).step == 1 || view.stretch(0, 0, Axis::Rows, rows).step != 1;
    const int64_t lines = along_cols ? rows : cols, length = along_cols ? cols : rows;
    for (int64_t i = 0; i < lines; ++i)
        for (int64_t j = 0; j < length;) {
            const Stretch s = along_cols ? view.stretch(i, j, Axis::Cols, length - j) : view.stretch(j, i, Axis::Rows, length - j);
            const int64_t count = s.step == 1 ? s.length : 1;
            const int64_t first = s.offset * bits / 8, last = ((s.offset + count) * bits + 7) / 8;
            runtime::order::note_global_access(view.base() + first, std::size_t(last - first), 0, 1, write, atomic);
            j += count;
        }
}

}  // namespace pto::engine::data_movement
