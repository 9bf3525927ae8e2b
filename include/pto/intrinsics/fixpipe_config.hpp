// SET_QUANT_SCALAR and SET_QUANT_VECTOR: the fixpipe's quantization configuration, written to the
// calling core's configuration registers (NPUMemoryModel::GetREGBase()), which the fixpipe of
// TPUSH<Pipe, TileProd, TConfig> reads. The quantizing TSTORE, TMOV, TEXTRACT and TINSERT forms take
// their scale as an operand instead.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/cpu/NPUMemoryModel.hpp>

namespace pto {

inline constexpr uint32_t QUANT_SCALAR_REG_OFFSET = 0;
inline constexpr uint32_t QUANT_VECTOR_REG_OFFSET = 1;

// SET_QUANT_SCALAR<OutType>(scale): register QUANT_SCALAR_REG_OFFSET holds the f32 bits of the scale; for an
// 8-bit output, bit 46 says whether it is signed (int8_t) or not (uint8_t).
template <typename OutType, typename... WaitEvents>
PTO_INST RecordEvent SET_QUANT_SCALAR(float preQuantScalar, WaitEvents&... events)
{
    WaitAllEvents(events...);
    uint64_t config = std::bit_cast<uint32_t>(preQuantScalar);
    if constexpr (sizeof(OutType) == 1) config |= uint64_t(std::is_same_v<OutType, int8_t>) << 46;
    NPUMemoryModel::Instance().WriteRegister(QUANT_SCALAR_REG_OFFSET, config);
    return {};
}

// SET_QUANT_VECTOR(fp): register QUANT_VECTOR_REG_OFFSET holds the on-chip address of the Scaling tile of
// per-column scales.
template <typename FpTileData, typename... WaitEvents>
PTO_INST RecordEvent SET_QUANT_VECTOR(FpTileData& fpTile, WaitEvents&... events)
{
    static_assert(is_tile_data_v<FpTileData> && FpTileData::Loc == TileType::Scaling,
                  "LEGAL_FP_TABLE: SET_QUANT_VECTOR takes the Scaling tile of the per-column scales");
    WaitAllEvents(events...);
    NPUMemoryModel::Instance().WriteRegister(QUANT_VECTOR_REG_OFFSET, NPUMemoryModel::Instance().GetNPUAddr(fpTile.data()));
    return {};
}

}  // namespace pto
