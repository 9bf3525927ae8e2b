// The fixpipe's quantization of accumulator elements.
#include "engine/data_movement/acc_quantize.hpp"

#include <pto/common/numeric.hpp>
#include <pto/engine/access.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/profile/rules_data_movement.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "engine/data_movement/operand_checks.hpp"
#include "engine/data_movement/stretch_kernels.hpp"
#include "engine/elementwise/element_format.hpp"

namespace pto::engine::data_movement {

float quant_scale(uint64_t word) { return std::bit_cast<float>(static_cast<uint32_t>(word)); }

uint64_t quant_word(const AccQuantization& quant, int64_t index)
{
    if (!quant.per_column) return quant.scalar;
    return reinterpret_cast<const uint64_t*>(quant.per_column->data)[quant.per_column->offset(0, index)];
}

void check_quant_table(const profile::Profile& profile, const TileDesc& table, int entries, LegalitySink& sink,
                       const char* entry)
{
    if (!rules::fp_table_ok(profile, table.loc, table.dtype)) {
        report_rule(sink, profile, "LEGAL_FP_TABLE", "fp", "the quantization table is a Scaling tile of 64-bit words",
                    profile.target == profile::Target::Cpu ? "a u64 tile" : "a u64 Scaling tile", std::string(dtype_name(table.dtype)) + " " + location_name(table.loc));
    }
    if (all_known(table.valid_cols, entries) && table.valid_cols < entries) {
        report(sink, "RUN_VALID_SHAPE", "fp", std::string("the quantization table needs a word for each ") + entry,
               "at least " + std::to_string(entries) + " columns", std::to_string(table.valid_cols));
    }
}

namespace {

// Element `index` of `src` (f32, or i32 read as f32) times `scale`; with NormalRelu a negative product
// becomes +0.
float quantized_value(const TileDesc& src, int64_t index, float scale, ReluPreMode relu)
{
    const std::byte* element = element_address(src, index);
    float x;
    if (src.dtype == DType::I32) {
        int32_t i;
        std::memcpy(&i, element, sizeof i);
        x = static_cast<float>(i);
    } else {
        std::memcpy(&x, element, sizeof x);
    }
    const float q = x * scale;
    return relu == ReluPreMode::NormalRelu && q < 0 ? 0.0f : q;
}

// i32 -> i16 by the word's shift (1 + bits 32..35), saturated, negatives 0 with NormalRelu.
int16_t shifted_value(const TileDesc& src, int64_t index, uint64_t word, ReluPreMode relu)
{
    int32_t x;
    std::memcpy(&x, element_address(src, index), sizeof x);
    const int shift = int((word >> 32) & 0xF) + 1;
    int32_t q = std::clamp<int32_t>(x >> shift, std::numeric_limits<int16_t>::min(), std::numeric_limits<int16_t>::max());
    if (relu == ReluPreMode::NormalRelu && q < 0) q = 0;
    return int16_t(q);
}

}  // namespace

void write_quantized(float q, DType out, std::byte* at, bool accumulate)
{
    if (out == DType::F32) {
        float sum = q;
        if (accumulate) {
            float held;
            std::memcpy(&held, at, sizeof held);
            sum = held + q;
        }
        std::memcpy(at, &sum, sizeof sum);
        return;
    }
    const bool saturate = std::isfinite(q) || !dtype_is_float(out);
    std::byte value[8];
    numeric::from_double(out, accumulate ? value : at, 0, q, numeric::effective_round_mode(out, RoundMode::CAST_NONE),
                         saturate ? SaturationMode::ON : SaturationMode::OFF);
    if (accumulate) {
        elementwise::visit_arithmetic_type(out, [&]<typename T>() {
            add_in_place<T>(at, load_element<T>(value));
            return true;
        });
    }
}

void write_quantized_element(const TileDesc& src, int64_t index, uint64_t word, ReluPreMode relu, DType out,
                             std::byte* at, bool accumulate)
{
    if (!rules::quant_shifts(src.dtype, out))
        return write_quantized(quantized_value(src, index, quant_scale(word), relu), out, at, accumulate);
    const int16_t q = shifted_value(src, index, word, relu);
    if (accumulate) return add_in_place<int16_t>(at, q);
    std::memcpy(at, &q, sizeof q);
}

}  // namespace pto::engine::data_movement
