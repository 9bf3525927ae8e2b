// Legality rules of the vector micro-instructions (PTO-AS `pto.v*`, `pto.p*`), one constexpr predicate
// per rule, with its code in the comment above it. Every profile runs the whole vector surface (a5 on
// the device, cpu and a2a3 emulated, as the pages allow), so no rule here depends on the profile.
#pragma once

#include <string_view>

#include <cstdint>

#include <pto/engine/dtype.hpp>

namespace pto::rules {

// Rule LEGAL_VREG_SHAPE: a vector register holds 256 bytes of f32, f16, bf16 or 8- to 64-bit integer
// lanes: !pto.vreg<64xf32>, <128xf16>, <256xi8>, <32xi64>.
constexpr bool vreg_element_ok(engine::DType t)
{
    using enum engine::DType;
    return t == F32 || t == F16 || t == BF16 || t == I8 || t == I16 || t == I32 || t == I64 || t == U8 || t == U16 ||
           t == U32 || t == U64;
}
constexpr bool vreg_shape_ok(int64_t lanes, engine::DType t)
{
    return vreg_element_ok(t) && lanes * (engine::dtype_bits(t) / 8) == 256;
}

// Rule LEGAL_VECTOR_DTYPE (the lane types an operation is defined on): bitwise and shift operations
// take integer lanes; the elementary functions (vexp, vln, vsqrt, vrsqrt, vrec) float lanes; vdiv and
// the fused operations (vaddrelu, vsubrelu, vprelu, vmula, vaxpy) f32 and f16.
enum class VectorLanes : uint8_t { Any, Integer, Float, F32F16 };
constexpr bool vector_lanes_ok(VectorLanes rule, engine::DType t)
{
    switch (rule) {
        case VectorLanes::Integer: return !engine::dtype_is_float(t);
        case VectorLanes::Float: return engine::dtype_is_float(t);
        case VectorLanes::F32F16: return t == engine::DType::F32 || t == engine::DType::F16;
        default: return true;
    }
}

// Rule LEGAL_VECTOR_MASK_WIDTH: a mask governs lanes of its own width (b8, b16, b32 for 1-, 2- and
// 4-byte lanes; 8-byte lanes take a b32 mask, whose lane pairs must agree). At run time: RUN_MASK_WIDTH.
constexpr bool mask_width_ok(int mask_lane_bytes, int lane_bytes)
{
    return mask_lane_bytes == lane_bytes || (lane_bytes == 8 && mask_lane_bytes == 4);
}

// Rule RUN_VECTOR_ALIGN: a vector load or store addresses UB at a multiple of 32 bytes.
constexpr bool vector_address_aligned(int64_t byte_offset) { return byte_offset % 32 == 0; }

// Rule LEGAL_VCVT_PAIR: pto.vcvt converts the pairs of its page (float -> int, float -> float,
// int -> float, int -> int tables) and f16 <-> bf16 of the family overview.
constexpr bool vcvt_pair_ok(engine::DType from, engine::DType to)
{
    using enum engine::DType;
    constexpr engine::DType pairs[][2] = {
        {F32, I64}, {F32, I32}, {F32, I16}, {F16, I32}, {F16, I16}, {F16, I8}, {F16, U8}, {BF16, I32},
        {F32, F16}, {F32, BF16}, {F16, F32}, {BF16, F32}, {F16, BF16}, {BF16, F16},
        {U8, F16}, {I8, F16}, {I16, F16}, {I16, F32}, {I32, F32}, {U32, F32},
        {U8, U16}, {U8, U32}, {I8, I16}, {I8, I32}, {U16, U8}, {U16, U32}, {I16, U8}, {I16, U32}, {I16, I32},
        {U32, U8}, {U32, U16}, {U32, I16}, {I32, U8}, {I32, U16}, {I32, I16}, {I32, I64},
    };
    for (const auto& p : pairs)
        if (p[0] == from && p[1] == to) return true;
    return false;
}

// Rules LEGAL_VPACK_PAIR, LEGAL_VUNPACK_PAIR: vpack narrows integer lanes to half their width, the
// unpacks widen them to twice theirs.
constexpr bool lane_halving_ok(engine::DType wide, engine::DType narrow)
{
    return !engine::dtype_is_float(wide) && !engine::dtype_is_float(narrow) && engine::dtype_bits(wide) == 2 * engine::dtype_bits(narrow);
}

// Rule LEGAL_VPERM_INDEX: vperm's index register has an integer lane per data lane.
constexpr bool permute_index_ok(engine::DType data, engine::DType index)
{
    return !engine::dtype_is_float(index) && engine::dtype_bits(index) == engine::dtype_bits(data);
}

// Rule RUN_VECTOR_SLIDE_AMOUNT: vslide moves 0 to N lanes, vshift -N to N (N: the register's lanes).
constexpr bool slide_amount_ok(int64_t lanes, int64_t amount, bool shift) { return amount <= lanes && amount >= (shift ? -lanes : 0); }

// Rule RUN_BUF_ID: get_buf / rls_buf name one of the 32 buffer slots of the targets' global pool.
inline constexpr int64_t kBufferSlots = 32;
constexpr bool buffer_id_ok(int64_t id) { return id >= 0 && id < kBufferSlots; }

// Rule LEGAL_MEM_BAR_TYPE: the orderings pto.mem_bar has.
constexpr bool mem_bar_type_ok(std::string_view type) { return type == "VV_ALL" || type == "VST_VLD" || type == "VLD_VST"; }

// Rule LEGAL_PREDICATE_IMMEDIATE: pto.pldi / pto.psti encode their offset (in 8-byte units) in the
// instruction: 0 to 1023, a5's range (the pages give a2a3 0 to 255 and leave the CPU simulation's to
// the implementation; every profile runs the a5 surface).
inline constexpr int64_t kPredicateImmediateMax = 1023;
constexpr bool predicate_immediate_ok(int64_t slots) { return slots >= 0 && slots <= kPredicateImmediateMax; }

// Rule LEGAL_VSTU_MODE (the overview's Form A of pto.vstu, its mode an index operand): 1 for
// POST_UPDATE, 0 for NO_POST_UPDATE.
constexpr bool vstu_mode_ok(int64_t mode) { return mode == 0 || mode == 1; }

// ---- SFU and DSA operations ----

// Rule LEGAL_VECTOR_DTYPE (pto.vmull): the widening multiply takes 32-bit integer lanes.
constexpr bool widening_multiply_ok(engine::DType t) { return t == engine::DType::I32 || t == engine::DType::U32; }

// Rule LEGAL_VCONV_PAIR: pto.vaddreluconv converts as TADDRELUCONV (f32 -> f16, f16 -> i8, i16 -> i8,
// rules_elementwise.hpp); pto.vmulconv f16 -> i8, its page's one pair.
constexpr bool mul_conversion_pair_ok(engine::DType from, engine::DType to) { return from == engine::DType::F16 && to == engine::DType::I8; }

// Rule LEGAL_VECTOR_DTYPE (pto.vsort32, pto.vbitsort, pto.vmrgsort4): TSORT32's f16 and f32 values.
constexpr bool ub_sort_dtype_ok(engine::DType t) { return t == engine::DType::F32 || t == engine::DType::F16; }

// Rule LEGAL_VECTOR_DTYPE (pto.vtranspose): elements of 1, 2 or 4 bytes, TTRANS's kernel.
constexpr bool ub_transpose_dtype_ok(engine::DType t) { return engine::dtype_bits(t) <= 32 && engine::dtype_bits(t) >= 8; }

// Rule RUN_VECTOR_CONFIG: a control word with only its fields set, each in range.
// pto.vsort32: bits [7:0] the repeat count (groups of 32), 1 to 255.
constexpr bool vsort32_config_ok(int64_t config) { return config >= 1 && config <= 255; }
// pto.vbitsort: %repeat_times 1 to 255.
constexpr bool vbitsort_repeat_ok(int64_t repeat) { return repeat >= 1 && repeat <= 255; }
// pto.vmrgsort4: bit 0 exhausted suspension, bit 1 ascending order.
constexpr bool vmrgsort_config_ok(int64_t config) { return (config & ~int64_t{3}) == 0; }
// pto.vtranspose: bits [15:0] the rows, [31:16] the columns, both at least 1; bits [63:32] clear.
constexpr bool vtranspose_config_ok(int64_t config)
{
    return (config >> 32) == 0 && (config & 0xffff) != 0 && ((config >> 16) & 0xffff) != 0;
}

}  // namespace pto::rules
