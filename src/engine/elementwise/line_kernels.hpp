// Vectorised loops of the element-wise arithmetic over contiguous lines of elements (the rows of a
// row-major tile, the columns of a column-major one). They are compiled once per SIMD target and the
// best one for the running CPU is picked at run time, so the library runs on any x86-64.
#pragma once

#include <cstdint>

namespace pto::engine::elementwise {

enum class ArithOp : uint8_t { Add, Sub, Mul, Div };
// The operations whose integer result wraps (integer division has rules of its own, see divide.hpp).
enum class WrapOp : uint8_t { Add, Sub, Mul };

// Line i of an operand starts `i * stride` elements after `data`.
template <typename T>
struct Lines {
    T* data;
    int64_t stride;

    T* line(int64_t i) const { return data + i * stride; }
};

struct LineShape {
    int64_t count;   // lines
    int64_t length;  // elements per line
};

// d = a op b. A line of d may be the very same memory as the same line of a or b.
// IEEE single precision, every op.
void float_lines(ArithOp op, Lines<float> d, Lines<const float> a, Lines<const float> b, LineShape shape);

// half and bfloat16 as their bit patterns: widened exactly to float, computed, rounded once to nearest
// even, bit for bit as the conversions of pto/common/numeric.hpp round (for +, -, *, / of these formats
// that is the correctly rounded result).
void half_lines(ArithOp op, Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b, LineShape shape);
void bfloat16_lines(ArithOp op, Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b, LineShape shape);

// Unsigned integers, wrapping. They serve the signed types of the same width too: two's complement
// add, subtract and multiply give the same bits.
void uint_lines(WrapOp op, Lines<uint8_t> d, Lines<const uint8_t> a, Lines<const uint8_t> b, LineShape shape);
void uint_lines(WrapOp op, Lines<uint16_t> d, Lines<const uint16_t> a, Lines<const uint16_t> b, LineShape shape);
void uint_lines(WrapOp op, Lines<uint32_t> d, Lines<const uint32_t> a, Lines<const uint32_t> b, LineShape shape);
void uint_lines(WrapOp op, Lines<uint64_t> d, Lines<const uint64_t> a, Lines<const uint64_t> b, LineShape shape);

}  // namespace pto::engine::elementwise
