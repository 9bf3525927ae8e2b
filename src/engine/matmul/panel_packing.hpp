// The vectorised steps of building TMATMUL's panels: 16-bit float inputs widened into f32 words, and the
// Right tile's Zn boxes transposed into the kernel's strips, widened on the way. Compiled for each SIMD
// target, picked at run time; the words are those the scalar conversions give (pto/common/numeric.hpp),
// on every target.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pto::engine::matmul {

// How a box's elements become 32-bit words: as they are (f32, i32, or words widened before), or f16 /
// bf16 widened exactly into f32.
enum class Element : uint8_t { Word, Half, Bfloat };

// n contiguous f16 or bf16 elements (not Word) into f32 words.
void widen_halves(Element from, const std::byte* in, uint32_t* out, int64_t n);

// One Zn box, 16 columns of `rows` elements each (column-major; rows a multiple of 4), into its place in
// a strip: row r's 16 words at out + 16 r.
void pack_zn_box(Element from, const std::byte* in, int rows, uint32_t* out);

}  // namespace pto::engine::matmul
