// Vectorised loops of the element-wise operations over contiguous lines of elements (the rows of a
// row-major tile, the columns of a column-major one). They are compiled once per SIMD target and the
// best one for the running CPU is picked at run time (once per call), so the library runs on any x86-64.
#pragma once

#include <cstdint>
#include <span>

namespace pto::engine::elementwise {

// The operations with line loops; each names the functor of operations.hpp whose `kLines` it is, and
// the loops compute exactly what that functor's `apply` does (the tails of lines run `apply` itself).
enum class LineOp : uint8_t {
    // two operands
    Add, Sub, Mul, Div, Max, Min, And, Or, Xor, Shl, Shr, Prelu, SubRelu, Expand,
    // one operand
    Abs, Neg, Not, Relu,
    // three operands
    AddC, SubC, MulAdd, MulAddRelu,
};

// Line i of an operand starts `i * stride` elements after `data`. A scalar operand is one element
// standing at every position of a line, the loops hold it in a register: the same for every line
// (Lines::broadcast), or line i's own at `data[i * stride]` (Lines::per_line).
template <typename T>
struct Lines {
    T* data;
    int64_t stride;
    bool scalar = false;

    static Lines broadcast(T* value) { return {value, 0, true}; }
    static Lines per_line(T* values, int64_t stride) { return {values, stride, true}; }

    T* line(int64_t i) const { return data + i * stride; }
    T& at(int64_t i, int64_t j) const { return scalar ? *line(i) : line(i)[j]; }
};

struct LineShape {
    int64_t count;   // lines
    int64_t length;  // elements per line
};

// d = op(sources...), with as many sources as `op` has operands, over the lines of element type T, held
// as Format<T>::Storage (element_format.hpp; the bit patterns for half and bfloat16). A line of d may be
// the very same memory as the same line of a source. Lines that follow one another without a gap run as
// one long line. Defined for float, half, bfloat16_t and the 8-, 16-, 32- and 64-bit integers; `op` must
// be defined for T. The (op, T) pairs without a vector form (8- and 64-bit integer multiplies, 8-bit
// shifts, integer division) and sources with more than one scalar run `apply` element by element.
template <typename T, typename S>
void run_lines(LineOp op, Lines<S> d, std::span<const Lines<const S>> sources, LineShape shape);

}  // namespace pto::engine::elementwise
