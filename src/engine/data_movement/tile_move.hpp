// What TMOV, TEXTRACT and TINSERT share: moving a window of one tile's logical elements into a window of
// another (re-laid out for the destination; out of an accumulator converted, or quantized by the
// fixpipe), and the rules of that conversion.
#pragma once

#include <cstdint>

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>
#include <pto/engine/ops/data_movement.hpp>
#include <pto/profile/profile.hpp>
#include <pto/profile/rules_data_movement.hpp>

namespace pto::engine::data_movement {

// rows x cols elements from src at (src_row, src_col) to dst at (dst_row, dst_col).
struct MoveWindow {
    int64_t src_row = 0, src_col = 0, dst_row = 0, dst_col = 0, rows = 0, cols = 0;
};

// Moves the window: the bits of one element type; converted out of an accumulator (negatives clamped to
// zero first with NormalRelu); or, with `quant`, the fixpipe's quantization with the scale of each
// element's source column. Other type pairs (the cpu profile's TEXTRACT and TINSERT) convert element by
// element, rounding to nearest even, floats into integers truncated and saturated.
void move_window(const TileDesc& dst, const TileDesc& src, const MoveWindow& window, ReluPreMode relu,
                 const AccQuantization* quant);

// The rules of what a move does to the elements: the element types (LEGAL_TMOV_DTYPE, or with `quant`
// LEGAL_TMOV_LOCATION / LEGAL_TMOV_QUANT_DTYPE / LEGAL_FP_TABLE), the ReLU and split modes
// (LEGAL_TMOV_MODE) and the split of the accumulator's valid region (RUN_TMOV_SPLIT).
// `dtype_ok`: the element-type rule of the instruction (TMOV's, or the windows' wider one on cpu).
// `rule_set`: the instruction's element-type, quantizing-source and mode rules (TMOV's, or the windows'
// wider ones on cpu).
struct ConversionRules {
    bool (*dtype_ok)(const profile::Profile&, TileType, TileType, DType, DType) = rules::tmov_dtype_ok;
    bool (*quant_source_ok)(const profile::Profile&, TileType, DType, DType) = rules::tmov_quant_source_ok;
    bool (*mode_ok)(const profile::Profile&, TileType, TileType, ReluPreMode, AccToVecMode) = rules::tmov_mode_ok;
};
inline constexpr ConversionRules kWindowRules{rules::window_dtype_ok, rules::window_quantizes, rules::window_mode_ok};
void check_conversion(const profile::Profile& profile, const TileDesc& dst, const TileDesc& src, ReluPreMode relu,
                      AccToVecMode mode, LegalitySink& sink, const AccQuantization* quant,
                      const ConversionRules& rule_set = {});

// Where this core's half of the source starts under a split mode (`half_rows` x `half_cols` a half).
MoveWindow split_origin(AccToVecMode mode, int64_t half_rows, int64_t half_cols);

}  // namespace pto::engine::data_movement
