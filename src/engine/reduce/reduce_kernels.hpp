// The reduction loops of TROWSUM TROWMAX TROWMIN TROWPROD TCOLSUM TCOLMAX TCOLMIN TCOLPROD, compiled once per SIMD target
// (reduce_kernels.cpp); the best target the running CPU supports is picked at run time, and every target
// gives the same bits: the order of the float additions is fixed (pto/engine/ops/reduce.hpp) and a NaN
// result is the one canonical NaN.
#pragma once

#include <cstdint>

#include <pto/profile/rules_reduce.hpp>

#include "engine/elementwise/line_kernels.hpp"

namespace pto::engine::reduce {

using elementwise::Lines;
using elementwise::LineShape;
using rules::ReduceOp;

// Which way a reduction runs: along each line (a row reduction), or across the lines, position by
// position (a column reduction).
enum class Axis : uint8_t { AlongLines, AcrossLines };

// One reduction over the lines of a row-major source, held as elementwise::Format<T>::Storage. Along
// lines, result i (of shape.count) reduces line i; across, result j (of shape.length) reduces element j
// of every line. Result k is stored at out[k * out_stride].
template <typename S>
struct ReduceJob {
    Axis axis;
    ReduceOp op;
    Lines<const S> src;
    LineShape shape;  // at least one line of at least one element
    S* out;
    int64_t out_stride;
};

// Runs `job` for element type T (float, half, bfloat16_t or an 8- to 64-bit integer).
template <typename T, typename S>
void run_reduce(const ReduceJob<S>& job);

}  // namespace pto::engine::reduce
