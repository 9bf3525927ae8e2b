// The fixpipe's quantization of accumulator elements.
#include "engine/data_movement/acc_quantize.hpp"

#include <pto/common/numeric.hpp>
#include <pto/engine/access.hpp>
#include <pto/numeric/convert.hpp>

#include <bit>
#include <cmath>
#include <cstring>

namespace pto::engine::data_movement {

float quant_scale(uint64_t word) { return std::bit_cast<float>(static_cast<uint32_t>(word)); }

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
    numeric::from_double(out, at, 0, q, numeric::effective_round_mode(out, RoundMode::CAST_NONE),
                         saturate ? SaturationMode::ON : SaturationMode::OFF);
}

}  // namespace pto::engine::data_movement
