// The fixpipe configuration of TPUSH<Pipe, TileProd, TConfig> (FixpipeParams) and the element type its
// conversion gives the consumer (FixpipeConsDType). Names, values and defaults as in PTO Tile Lib.
#pragma once

#include <cstdint>
#include <type_traits>

#include <pto/common/numeric.hpp>
#include <pto/common/type.hpp>
#include <pto/cpu/common.hpp>

namespace pto {

typedef enum { NOCLIP_RELU = 0, CLIP_RELU = 1 } ClipReluMode_t;

// How the accumulator's Nz fractals leave the fixpipe: as Nz fractals, row-major rows, or columns.
enum class LayoutMode_t : uint8_t {
    NZ2NZ = 0,
    NZ2ND = 1,
    NZ2DN = 2,
};

enum class DequantType {
    SCALAR = 0,
    TENSOR = 1,
};

template <LayoutMode_t layoutMode = LayoutMode_t::NZ2ND, QuantMode_t quantMode = QuantMode_t::NoQuant,
          ReluPreMode reluMode = ReluPreMode::NoRelu, STPhase phase = STPhase::Unspecified, uint8_t subBlockId = 0,
          AtomicType atomicT = AtomicType::AtomicNone, ClipReluMode_t clipReluMode = ClipReluMode_t::NOCLIP_RELU,
          bool isChannelSplit = false>
struct FixpipeParams {
    FixpipeParams() = default;
    static constexpr LayoutMode_t LayoutMode = layoutMode;
    static constexpr QuantMode_t QuantPre = quantMode;
    static constexpr ReluPreMode ReluMode = reluMode;
    static constexpr STPhase Phase = phase;
    static constexpr uint8_t SubBlockId = subBlockId;
    static constexpr AtomicType AtomicT = atomicT;
    static constexpr ClipReluMode_t ClipReluMode = clipReluMode;
    static constexpr bool IsChannelSplit = isChannelSplit;
};

// The consumer's element type after quantization mode quantPre of a SrcType accumulator: the 8-bit
// modes give int8_t (SET_QUANT_SCALAR<uint8_t> makes the bytes unsigned), modes without a named
// output keep SrcType.
template <QuantMode_t quantPre, typename SrcType>
struct FixpipeConsDType {
    static constexpr bool isHalf = quantPre == QuantMode_t::F322F16 || quantPre == QuantMode_t::QF322F16_PRE ||
                                   quantPre == QuantMode_t::VQF322F16_PRE || quantPre == QuantMode_t::DEQF16 ||
                                   quantPre == QuantMode_t::VDEQF16;
    static constexpr bool isBfloat16 = quantPre == QuantMode_t::F322BF16 || quantPre == QuantMode_t::QF322BF16_PRE ||
                                       quantPre == QuantMode_t::QS322BF16_PRE || quantPre == QuantMode_t::VQS322BF16_PRE;
    static constexpr bool isInt8 = quantPre == QuantMode_t::QF322B8_PRE || quantPre == QuantMode_t::REQ8 ||
                                   quantPre == QuantMode_t::VQF322B8_PRE || quantPre == QuantMode_t::VREQ8;
    static constexpr bool isHif8 = quantPre == QuantMode_t::QF322HIF8_PRE || quantPre == QuantMode_t::VQF322HIF8_PRE;
    static constexpr bool isFp8 = quantPre == QuantMode_t::QF322FP8_PRE || quantPre == QuantMode_t::VQF322FP8_PRE;

    using type = std::conditional_t<
        isHalf, half,
        std::conditional_t<
            isBfloat16, bfloat16_t,
            std::conditional_t<isInt8, int8_t,
                               std::conditional_t<isHif8, hifloat8_t, std::conditional_t<isFp8, float8_e4m3_t, SrcType>>>>>;
};

template <QuantMode_t quantPre, typename SrcType>
using FixpipeConsDType_t = typename FixpipeConsDType<quantPre, SrcType>::type;

}  // namespace pto
