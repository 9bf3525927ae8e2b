// The fixpipe's quantization of accumulator elements, shared by the quantizing TSTORE and TMOV forms:
// q = f32(x) * scale, ReLU'd, then rounded into the output type.
#pragma once

#include <cstddef>
#include <cstdint>

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>
#include <pto/engine/ops/data_movement.hpp>
#include <pto/profile/profile.hpp>

namespace pto::engine::data_movement {

// The f32 scale of a pre-quant word (the scalar, or one element of a table): its low 32 bits.
float quant_scale(uint64_t word);

// The scale of source column `column`: the pre-quant scalar's, or the table's word for that column.
float column_scale(const AccQuantization& quant, int64_t column);

// The rules of a per-column table for `columns` source columns: a Scaling tile of 64-bit words
// (LEGAL_FP_TABLE) with a word per column (RUN_VALID_SHAPE).
void check_quant_table(const profile::Profile& profile, const TileDesc& table, int columns, LegalitySink& sink);

// Accumulator element `index` of `src` (f32, or i32 read as f32) times `scale`; with NormalRelu a
// negative product becomes +0.
float quantized_value(const TileDesc& src, int64_t index, float scale, ReluPreMode relu);

// q rounded to nearest even into `out` at `at`, a finite q saturating to the type's range (8-bit
// integers: NaN -> 0; floats keep infinities and NaN where the type has them); when `accumulate`, that
// value (q itself for f32) is added to what `at` holds, in the output's type (add_in_place).
void write_quantized(float q, DType out, std::byte* at, bool accumulate = false);

}  // namespace pto::engine::data_movement
