// The vector micro-instructions (`pto.vlds`, `pto.vadd`, `pto.pset_b32`, ...): one definition per
// operation (its family, its operands and results, what it computes), and what an operation says, read
// once: the verifier reports the problems found on the way, the interpreter runs what was read.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <pto/engine/ops/vector.hpp>
#include <pto/engine/ops/vector_memory.hpp>

#include "asm/ir.hpp"

namespace pto::as {

// How the interpreter runs an operation of the family, and which of the definition's fields it reads.
enum class VectorFamily : uint8_t {
    Load,       // pto.vlds %ptr[%offset] {dist}
    Store,      // pto.vsts %value, %ptr[%offset], %mask {dist}
    Pattern,    // pto.pset_b*, pto.pge_b* "PAT_*"
    Remainder,  // pto.plt_b* %count -> mask, count - lanes
    Binary,     // pto.vadd %a, %b, %mask
    Unary,      // pto.vabs %a, %mask
    VectorScalar,         // pto.vadds %a, %scalar, %mask
    Carry,                // pto.vaddcs %a, %b, %carry_in, %mask -> register, carry mask
    Reduction,            // pto.vcadd %a, %mask
    Compare,              // pto.vcmp %a, %b, %seed, "lt" -> mask
    CompareScalar,        // pto.vcmps %a, %scalar, %seed, "lt" -> mask
    Select,               // pto.vsel %a, %b, %mask
    IndexSelect,          // pto.vselr %src, %index
    PredicateLogic,       // pto.pand %a, %b, %mask; pto.pnot %a, %mask; pto.psel %a, %b, %sel, %mask
    PredicatePack,        // pto.ppack / pto.punpack %mask, "LOWER" | "HIGHER"
    PredicateInterleave,  // pto.pintlv_b* / pto.pdintlv_b* %a, %b -> low, high
    Broadcast,            // pto.vbr %scalar
    Duplicate,            // pto.vdup %scalar_or_register {position = "LOWEST" | "HIGHEST"}
    Convert,              // pto.vcvt %a, %mask {rnd, sat, part} -> another register type
    Truncate,             // pto.vtrc %a, "ROUND_*"
    IndexSequence,        // pto.vci %start {order}
    Bitcast,              // pto.vbitcast %a -> another register type
    MaskBitcast,          // pto.pbitcast %m -> a mask of another width
    Rearrange,            // pto.vintlv ... pto.vzunpack: lanes moved (def.rearrange says how)
    Fused,        // pto.vaddrelu %a, %b, %mask (def.fused says which)
    MultiplyAdd,  // pto.vmula %add, %a, %b, %mask
    Axpy,         // pto.vaxpy %x, %y, %alpha, %mask
    ExpDifference,  // pto.vexpdif %a, %max
    // SFU and DSA operations (vector_sfu_form.cpp reads them)
    WideningMultiply,  // pto.vmull %a, %b, %mask -> low, high
    ConvertingFused,   // pto.vaddreluconv / pto.vmulconv %a, %b, %mask -> another register type
    Sort32,            // pto.vsort32 %dest, %src, %config
    BitSort,           // pto.vbitsort %dest, %src, %indices, %repeat_times
    MergeSort,         // pto.vmrgsort4 %dest, %src0, %src1, %src2, %src3, %count, %config
    MergeStatus,       // pto.get_vms4_sr -> four i16 counts
    Transpose,         // pto.vtranspose %dest, %src, %config
    // The other memory forms (vector_memory_form.cpp reads them):
    PairLoad,      // pto.vldsx2 %ptr[%offset], "DINTLV_B32" -> low, high
    PairStore,     // pto.vstsx2 %low, %high, %ptr[%offset], "INTLV_B32", %mask
    StridedLoad,   // pto.vsld %ptr[%offset], "STRIDE_S8_B32"
    StridedStore,  // pto.vsst %value, %ptr[%offset], "STRIDE_S8_B32"
    BlockLoad,     // pto.vsldb %ptr, %control, %mask
    BlockStore,    // pto.vsstb %value, %ptr, %control, %mask
    Gather,        // pto.vgather2 %ptr, %offsets, %active_lanes; pto.vgather2_bc %ptr, %offsets, %mask
    BlockGather,   // pto.vgatherb %ptr, %byte_offsets, %active_blocks
    Scatter,       // pto.vscatter %value, %ptr, %offsets, %active_lanes
    PredicateLoad,   // pto.plds %ptr; pto.pld / pto.pldi %ptr, %slot, "DIST"
    PredicateStore,  // pto.psts %mask, %ptr; pto.pst / pto.psti %mask, %ptr, %slot, "DIST"
    PredicateStream, // pto.pstu %align, %mask, %ptr -> align, ptr
    AlignInit,       // pto.init_align
    LoadPrime,       // pto.vldas %ptr
    UnalignedLoad,   // pto.vldus %ptr, %align -> register, align[, ptr]
    UnalignedStore,  // pto.vstu %align, %offset, %value, %ptr, "MODE"; pto.vstus, pto.vstur (def.unit says which);
                     // Form A: pto.vstu %align, %base, %value, %dest, %mode; pto.vstus %align, %base, %value, %dest, %count
    StreamFlush,     // pto.vsta %align, %ptr[%offset]; pto.vstas %align, %ptr, %bytes; pto.vstar %align, %ptr
};

// How a memory form of the families above takes its offset or count.
enum class StreamUnit : uint8_t {
    None,      // no offset operand (vstar, vstur, plds, psts)
    Elements,  // elements of the pointer's type (vsta, vstu)
    Bytes,     // bytes (vstas)
    Count,     // vstus: the elements of the pointer's type the stream advances by
    Slots,     // pld, pst: 8-byte units in a register
    Immediate, // pldi, psti: 8-byte units in a constant
};

// An operand or result of a vector operation.
// VReg registers of one operation have one type. LaneScalar: a scalar of the registers' lane type;
// IndexVReg: a register of integer lanes of the registers' width (and count); LaneValue: a LaneScalar
// or a register of the result's type; Retyped: a register with its own type (conversions).
enum class VectorArg : uint8_t { VReg, Mask, Pointer, Index, Scalar, LaneScalar, IndexVReg, LaneValue, Retyped, Align };

struct VectorOpDef {
    std::string_view name;  // "pto.vadd"
    VectorFamily family;
    std::span<const VectorArg> operands;
    std::span<const VectorArg> results;
    engine::vector::BinaryOp binary = {};
    engine::vector::UnaryOp unary = {};
    int mask_lane_bytes = 0;  // Pattern, Remainder, PredicateInterleave: the width of the `_b8/_b16/_b32` suffix
    engine::vector::ScalarOp scalar = {};
    engine::vector::CarryOp carry = {};
    engine::vector::ReduceOp reduce = {};
    engine::vector::PredicateOp predicate = {};
    bool reverse = false;  // PredicatePack: punpack; PredicateInterleave: pdintlv
    engine::vector::Rearrangement rearrange = {};
    engine::vector::FusedOp fused = {};
    StreamUnit unit = StreamUnit::None;  // the memory forms' offset operand
    int optional_results = 0;            // trailing results the text may leave out (vldus's base, vstus's)
    bool masked = false;                 // Gather: vgather2_bc (a mask, not a lane count)
    engine::vector::ConvertingOp converting = {};  // ConvertingFused
    // UnalignedStore: the operands of the overview's Form A (the stream's position a pointer, updated;
    // its results an align state and that pointer), when the operation has one.
    std::span<const VectorArg> pointer_form = {};
};

std::span<const VectorOpDef> vector_op_definitions();
const VectorOpDef* find_vector_op(std::string_view name);

// What one vector operation says.
struct VectorForm {
    const VectorOpDef* def = nullptr;
    int lane_bytes = 0;                     // the lanes of its registers (Load: the result's)
    engine::DType dtype = engine::DType::U8;  // their element type
    engine::vector::LoadDist load = engine::vector::LoadDist::NORM;
    engine::vector::StoreDist store = engine::vector::StoreDist::NORM;
    engine::vector::PatternToken pattern{};
    int pointer_element_bytes = 1;          // Load, Store: the unit of the offset
    engine::vector::CompareMode compare = {};
    engine::vector::PredicatePart part = {};
    engine::vector::DupPosition position = {};
    engine::vector::Conversion conversion{};  // Convert (Truncate: its round)
    int result_lane_bytes = 0;              // Convert, Bitcast, MaskBitcast: the result's lanes
    bool descending = false;                // IndexSequence
    bool high_half = false;                 // Rearrange (vintlvv2, vdintlvv2): the half returned
    engine::vector::PairDist pair{};           // PairLoad, PairStore
    engine::vector::StrideMode stride{};       // StridedLoad, StridedStore
    engine::vector::PredicateDist predicate_dist{};  // PredicateLoad, PredicateStore
    bool post_update = true;                // UnalignedStore: POST_UPDATE (the default) or NO_POST_UPDATE
    bool pointer_state = false;             // UnalignedStore: written in Form A (VectorOpDef::pointer_form)
};

struct VectorProblem {
    std::string code, what, expected, actual;
};

// Reads `op` (a vector operation of the op table); every problem found goes to `problems`.
VectorForm read_vector_form(const Operation& op, std::vector<VectorProblem>& problems);

// The conversion families' own reading (vector_convert_form.cpp), after the common checks.
void read_conversion_form(const Operation& op, VectorForm& form, std::vector<VectorProblem>& problems);

// The rearrangement family's own reading (vector_rearrange_form.cpp), after the common checks.
void read_rearrange_form(const Operation& op, VectorForm& form, std::vector<VectorProblem>& problems);

// Whether a family is one of the memory forms after pto.vsts (lowered by lower_vector_memory.cpp).
constexpr bool is_memory_family(VectorFamily f) { return f >= VectorFamily::PairLoad && f <= VectorFamily::StreamFlush; }

// The other memory forms' own reading (vector_memory_form.cpp), after the common checks.
void read_memory_form(const Operation& op, VectorForm& form, std::vector<VectorProblem>& problems);
// The SFU and DSA families' own reading (vector_sfu_form.cpp), after the common checks.
void read_sfu_form(const Operation& op, VectorForm& form, std::vector<VectorProblem>& problems);

// The PTO assembly form (`vabs %r, %a, %m`, vector_asm_form.cpp): an operation writes every result of its
// definition first, as destination registers; 0 for an operation that is no vector micro-instruction.
std::size_t vector_destination_count(std::string_view op_name);
// Types each untyped result of `op` (a vector micro-instruction) as the typed form's check accepts: the
// type its operands suggest (the first register's, a register of the pointer's or the scalar's element
// type, a mask of the registers' lane width, ...), else the one type of its kind the check accepts
// (of several, the one of the source register's kind). Returns the first result it could not type,
// with `why`; nullopt when every result is typed, or when the operand count is wrong (left to the
// verifier's STRUCT_OPERAND_COUNT; the results stay untyped).
std::optional<std::size_t> infer_vector_result_types(Operation& op, std::string& why);

// The lane width of a register type, or of a mask type (0 when it left the width open).
std::optional<int> vreg_lane_bytes(const Type& t);

}  // namespace pto::as
