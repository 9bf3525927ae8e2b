// The fixpipe's writeback of an accumulator (pto.mte_l0c_gm, pto.mte_l0c_l1, pto.mte_l0c_ub):
// quantization, ReLU and clip, the conversion to the destination type under its saturation mode, and
// the destination layout.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/cube.hpp>
#include <pto/numeric/convert.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "engine/data_movement/acc_quantize.hpp"
#include "engine/global_atomics.hpp"
#include "engine/saturation.hpp"
#include "runtime/order_checker.hpp"

namespace pto::engine::cube {

namespace {

// Element offset of result (r, c) in the destination layout.
int64_t destination_offset(const Fixpipe& w, int64_t r, int64_t c)
{
    switch (w.layout) {
        case FixpipeLayout::ND: return r * w.dst_stride + c;
        case FixpipeLayout::DN: return c * w.dst_stride + r;
        case FixpipeLayout::Nz: break;
    }
    return ((c / w.box_columns) * w.dst_stride + r) * w.box_columns + c % w.box_columns;
}

float table_value(const std::byte* table, DType t, int64_t column)
{
    return float(numeric::to_double(t, table, std::size_t(column)));
}

double accumulator_value(const TileDesc& acc, int64_t r, int64_t c)
{
    const int64_t at = acc.offset(r, c) * 4;
    if (acc.dtype == DType::I32) {
        int32_t v;
        std::memcpy(&v, acc.data + at, sizeof v);
        return double(v);
    }
    float v;
    std::memcpy(&v, acc.data + at, sizeof v);
    return double(v);
}

// q converted into the destination type at `at` under the writeback's saturation mode.
void write_converted(const Fixpipe& w, double q, std::byte* at)
{
    const DType t = w.dst_dtype;
    switch (w.saturation) {
        case FixpipeSaturation::Default:
        case FixpipeSaturation::PreserveNan:
            // Integers straight from the double, so that i32 accumulators past 2^24 stay exact.
            if (!dtype_is_float(t)) return numeric::from_double(t, at, 0, std::isnan(q) ? 0.0 : q, RoundMode::CAST_RINT, SaturationMode::ON);
            return data_movement::write_quantized(float(q), t, at);
        case FixpipeSaturation::Saturate:
            // Integer destinations take NaN as 0 and infinities saturated by the conversion itself.
            numeric::from_double(t, at, 0, dtype_is_float(t) ? saturated(q, t) : (std::isnan(q) ? 0.0 : q), RoundMode::CAST_RINT,
                                 SaturationMode::ON);
            return;
        case FixpipeSaturation::None: numeric::from_double(t, at, 0, q, RoundMode::CAST_RINT, SaturationMode::OFF); return;
    }
}

// Combines q with what the destination holds (atomic add, max or min) in the destination type.
double combined(const Fixpipe& w, double q, const std::byte* at)
{
    const double held = numeric::to_double(w.dst_dtype, at, 0);
    switch (w.atomic) {
        case FixpipeAtomic::Add: return held + q;
        case FixpipeAtomic::Max: return std::max(held, q);
        case FixpipeAtomic::Min: return std::min(held, q);
        case FixpipeAtomic::None: break;
    }
    return q;
}

}  // namespace

int64_t fixpipe_extent(const Fixpipe& w)
{
    if (w.m <= 0 || w.n <= 0) return 0;
    const int64_t last = std::max(destination_offset(w, w.m - 1, w.n - 1), destination_offset(w, w.m - 1, 0));
    return (std::max(last, destination_offset(w, 0, w.n - 1)) + 1) * dtype_bits(w.dst_dtype) / 8;
}

void fixpipe(const Fixpipe& w)
{
    const TileDesc& acc = *w.src;
    // Row by row: nz2dn's loop0 stride skips the accumulator rows between those read.
    for (int64_t r = 0; r < w.m; ++r) require_written(acc, Window{int(w.src_row + r * w.src_row_step), int(w.src_col), 1, int(w.n)}, "src");
    const int64_t bytes = dtype_bits(w.dst_dtype) / 8;
    std::unique_lock<std::mutex> atomics;
    if (w.atomic != FixpipeAtomic::None) atomics = lock_global_atomics();
    for (int64_t c = 0; c < w.n; ++c) {
        const float scale = w.scale_table ? table_value(w.scale_table, w.scale_dtype, c) : w.scale;
        const float slope = w.slope_table ? table_value(w.slope_table, w.slope_dtype, c) : w.slope;
        for (int64_t r = 0; r < w.m; ++r) {
            // The quantized product is an f32, as in the quantizing TSTORE and TMOV.
            const double x = accumulator_value(acc, w.src_row + r * w.src_row_step, w.src_col + c);
            double q = w.has_scale ? double(float(x) * scale) : x;
            if (q < 0 && w.relu == FixpipeRelu::Normal) q = 0.0;
            if (q < 0 && (w.relu == FixpipeRelu::Scalar || w.relu == FixpipeRelu::Vector)) q = double(float(q) * slope);
            if (w.has_clip && q > w.clip) q = w.clip;
            std::byte* at = w.dst + destination_offset(w, r, c) * bytes;
            write_converted(w, w.atomic != FixpipeAtomic::None ? combined(w, q, at) : q, at);
            // An atomic accumulation into global memory races with no other core's (ORDER_CROSS_CORE_RACE).
            if (w.atomic != FixpipeAtomic::None) runtime::order::note_global_access(at, std::size_t(bytes), 0, 1, true, true);
            else runtime::mark_written(at, std::size_t(bytes));
        }
    }
}

}  // namespace pto::engine::cube
