// The fixpipe's quantization of accumulator elements, shared by the quantizing TSTORE and TMOV forms:
// q = f32(x) * scale, ReLU'd, then rounded into the output type; i32 -> i16 (cpu profile) shifts instead.
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

// The pre-quant word for table index `index` (a source column, or a row where the table runs along the
// rows): the scalar itself, or the table's word at that index.
uint64_t quant_word(const AccQuantization& quant, int64_t index);

// The rules of a table for `entries` source columns (or rows: `entry` names which): a Scaling tile of
// 64-bit words (LEGAL_FP_TABLE) with a word per entry (RUN_VALID_SHAPE).
void check_quant_table(const profile::Profile& profile, const TileDesc& table, int entries, LegalitySink& sink,
                       const char* entry = "source column");

// Element `index` of `src` quantized by `word` into `out` at `at` (added to what `at` holds when
// `accumulate`): f32(x) times the word's scale, negatives +0 with NormalRelu, then write_quantized; an
// i32 -> i16 pair (rules::quant_shifts) instead shifts x right arithmetically by 1 + the word's bits
// 32..35 and saturates to i16, as the public CPU simulation's SHIFTS322S16 mode.
void write_quantized_element(const TileDesc& src, int64_t index, uint64_t word, ReluPreMode relu, DType out,
                             std::byte* at, bool accumulate = false);

// q rounded to nearest even into `out` at `at`, a finite q saturating to the type's range (8-bit
// integers: NaN -> 0; floats keep infinities and NaN where the type has them); when `accumulate`, that
// value (q itself for f32) is added to what `at` holds, in the output's type (add_in_place).
void write_quantized(float q, DType out, std::byte* at, bool accumulate = false);

}  // namespace pto::engine::data_movement
