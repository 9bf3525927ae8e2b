#include "asm/vector_form.hpp"

#include <pto/profile/rules_vector.hpp>

#include "asm/cube_form.hpp"
#include "asm/printer.hpp"

namespace pto::as {

namespace {

using engine::vector::BinaryOp;
using engine::vector::CarryOp;
using engine::vector::PredicateOp;
using engine::vector::ReduceOp;
using engine::vector::Rearrangement;
using engine::vector::ScalarOp;
using engine::vector::UnaryOp;
using enum VectorArg;

constexpr VectorArg kLoadOperands[] = {Pointer, Index};
constexpr VectorArg kStoreOperands[] = {VReg, Pointer, Index, Mask};
constexpr VectorArg kRemainderOperands[] = {Scalar};
constexpr VectorArg kRemainderResults[] = {Mask, Scalar};
constexpr VectorArg kBinaryOperands[] = {VReg, VReg, Mask};
constexpr VectorArg kUnaryOperands[] = {VReg, Mask};
constexpr VectorArg kVRegResult[] = {VReg};
constexpr VectorArg kMaskResult[] = {Mask};
constexpr VectorArg kVectorScalarOperands[] = {VReg, LaneScalar, Mask};
constexpr VectorArg kCarryOperands[] = {VReg, VReg, Mask, Mask};
constexpr VectorArg kIndexSelectOperands[] = {VReg, IndexVReg};
constexpr VectorArg kTwoMasks[] = {Mask, Mask};
constexpr VectorArg kThreeMasks[] = {Mask, Mask, Mask};
constexpr VectorArg kFourMasks[] = {Mask, Mask, Mask, Mask};
constexpr VectorArg kLaneScalarOperand[] = {LaneScalar};
constexpr VectorArg kLaneValueOperand[] = {LaneValue};
constexpr VectorArg kRegisterOperand[] = {VReg};
constexpr VectorArg kMaskOperand[] = {Mask};
constexpr VectorArg kScalarOperand[] = {Scalar};
constexpr VectorArg kRetypedResult[] = {Retyped};
constexpr VectorArg kTwoRegisters[] = {VReg, VReg};
constexpr VectorArg kSlideOperands[] = {VReg, VReg, Scalar};
constexpr VectorArg kShiftOperands[] = {VReg, Scalar};
constexpr VectorArg kPermuteOperands[] = {VReg, Retyped};
constexpr VectorArg kPackOperands[] = {VReg, VReg, Index};
constexpr VectorArg kUnpackOperands[] = {VReg, Index};
constexpr VectorArg kCarryResults[] = {VReg, Mask};
constexpr VectorArg kMultiplyAddOperands[] = {VReg, VReg, VReg, Mask};
constexpr VectorArg kAxpyOperands[] = {VReg, VReg, LaneScalar, Mask};
// SFU and DSA operations
constexpr VectorArg kUbConfigOperands[] = {Pointer, Pointer, Scalar};
constexpr VectorArg kBitSortOperands[] = {Pointer, Pointer, Pointer, Index};
constexpr VectorArg kMergeSortOperands[] = {Pointer, Pointer, Pointer, Pointer, Pointer, Scalar, Scalar};
constexpr VectorArg kFourScalars[] = {Scalar, Scalar, Scalar, Scalar};

constexpr VectorArg kPairLoadResults[] = {VReg, VReg};
constexpr VectorArg kPairStoreOperands[] = {VReg, VReg, Pointer, Index, Mask};
constexpr VectorArg kStridedStoreOperands[] = {VReg, Pointer, Index};
constexpr VectorArg kBlockLoadOperands[] = {Pointer, Scalar, Mask};
constexpr VectorArg kBlockStoreOperands[] = {VReg, Pointer, Scalar, Mask};
constexpr VectorArg kGatherOperands[] = {Pointer, IndexVReg, Index};
constexpr VectorArg kMaskedGatherOperands[] = {Pointer, IndexVReg, Mask};
constexpr VectorArg kBlockGatherOperands[] = {Pointer, Retyped, Index};
constexpr VectorArg kScatterOperands[] = {VReg, Pointer, IndexVReg, Index};
constexpr VectorArg kPointerOperand[] = {Pointer};
constexpr VectorArg kPointerSlotOperands[] = {Pointer, Scalar};
constexpr VectorArg kMaskPointerOperands[] = {Mask, Pointer};
constexpr VectorArg kMaskPointerSlotOperands[] = {Mask, Pointer, Scalar};
constexpr VectorArg kAlignResult[] = {Align};
constexpr VectorArg kAlignPointerResults[] = {Align, Pointer};
constexpr VectorArg kAlignIndexResults[] = {Align, Index};
constexpr VectorArg kPredicateStreamOperands[] = {Align, Mask, Pointer};
constexpr VectorArg kUnalignedLoadOperands[] = {Pointer, Align};
constexpr VectorArg kUnalignedLoadResults[] = {VReg, Align, Pointer};
constexpr VectorArg kVstuOperands[] = {Align, Index, VReg, Pointer};
constexpr VectorArg kVstusOperands[] = {Align, Scalar, VReg, Pointer};
constexpr VectorArg kVstuPointerOperands[] = {Align, Pointer, VReg, Pointer, Index};
constexpr VectorArg kVstusPointerOperands[] = {Align, Pointer, VReg, Pointer, Scalar};
constexpr VectorArg kVsturOperands[] = {Align, VReg, Pointer};
constexpr VectorArg kFlushIndexOperands[] = {Align, Pointer, Index};
constexpr VectorArg kFlushScalarOperands[] = {Align, Pointer, Scalar};
constexpr VectorArg kFlushOperands[] = {Align, Pointer};

constexpr VectorOpDef memory(std::string_view name, VectorFamily family, std::span<const VectorArg> operands, std::span<const VectorArg> results,
                             StreamUnit unit = StreamUnit::None, int optional_results = 0)
{
    return {.name = name, .family = family, .operands = operands, .results = results, .unit = unit, .optional_results = optional_results};
}

constexpr VectorOpDef pattern(std::string_view name, int lane_bytes) { return {name, VectorFamily::Pattern, {}, kMaskResult, {}, {}, lane_bytes}; }
constexpr VectorOpDef remainder(std::string_view name, int lane_bytes)
{
    return {name, VectorFamily::Remainder, kRemainderOperands, kRemainderResults, {}, {}, lane_bytes};
}
constexpr VectorOpDef binary(std::string_view name, BinaryOp op) { return {name, VectorFamily::Binary, kBinaryOperands, kVRegResult, op}; }
constexpr VectorOpDef unary(std::string_view name, UnaryOp op) { return {name, VectorFamily::Unary, kUnaryOperands, kVRegResult, {}, op}; }
constexpr VectorOpDef vector_scalar(std::string_view name, ScalarOp op)
{
    return {.name = name, .family = VectorFamily::VectorScalar, .operands = kVectorScalarOperands, .results = kVRegResult, .scalar = op};
}
constexpr VectorOpDef carry(std::string_view name, CarryOp op, std::span<const VectorArg> operands = kCarryOperands)
{
    return {.name = name, .family = VectorFamily::Carry, .operands = operands, .results = kCarryResults, .carry = op};
}
constexpr VectorOpDef reduction(std::string_view name, ReduceOp op)
{
    return {.name = name, .family = VectorFamily::Reduction, .operands = kUnaryOperands, .results = kVRegResult, .reduce = op};
}
constexpr VectorOpDef predicate_logic(std::string_view name, PredicateOp op, std::span<const VectorArg> operands)
{
    return {.name = name, .family = VectorFamily::PredicateLogic, .operands = operands, .results = kMaskResult, .predicate = op};
}
constexpr VectorOpDef predicate_interleave(std::string_view name, int lane_bytes, bool deinterleave)
{
    return {.name = name, .family = VectorFamily::PredicateInterleave, .operands = kTwoMasks, .results = kTwoMasks,
            .mask_lane_bytes = lane_bytes, .reverse = deinterleave};
}
constexpr VectorOpDef rearrange(std::string_view name, engine::vector::Rearrangement how, std::span<const VectorArg> operands,
                                std::span<const VectorArg> results)
{
    return {.name = name, .family = VectorFamily::Rearrange, .operands = operands, .results = results, .rearrange = how};
}
constexpr VectorOpDef fused(std::string_view name, engine::vector::FusedOp op)
{
    return {.name = name, .family = VectorFamily::Fused, .operands = kBinaryOperands, .results = kVRegResult, .fused = op};
}

constexpr VectorOpDef sfu(std::string_view name, VectorFamily family, std::span<const VectorArg> operands, std::span<const VectorArg> results = {})
{
    return {.name = name, .family = family, .operands = operands, .results = results};
}
constexpr VectorOpDef converting(std::string_view name, engine::vector::ConvertingOp op)
{
    return {.name = name, .family = VectorFamily::ConvertingFused, .operands = kBinaryOperands, .results = kRetypedResult, .converting = op};
}

constexpr VectorOpDef kDefinitions[] = {
    {"pto.vlds", VectorFamily::Load, kLoadOperands, kVRegResult},
    {"pto.vsts", VectorFamily::Store, kStoreOperands, {}},
    pattern("pto.pset_b8", 1), pattern("pto.pset_b16", 2), pattern("pto.pset_b32", 4),
    pattern("pto.pge_b8", 1), pattern("pto.pge_b16", 2), pattern("pto.pge_b32", 4),
    remainder("pto.plt_b8", 1), remainder("pto.plt_b16", 2), remainder("pto.plt_b32", 4),
    binary("pto.vadd", BinaryOp::Add), binary("pto.vsub", BinaryOp::Sub), binary("pto.vmul", BinaryOp::Mul),
    binary("pto.vdiv", BinaryOp::Div), binary("pto.vmax", BinaryOp::Max), binary("pto.vmin", BinaryOp::Min),
    binary("pto.vand", BinaryOp::And), binary("pto.vor", BinaryOp::Or), binary("pto.vxor", BinaryOp::Xor),
    binary("pto.vshl", BinaryOp::Shl), binary("pto.vshr", BinaryOp::Shr),
    unary("pto.vabs", UnaryOp::Abs), unary("pto.vneg", UnaryOp::Neg), unary("pto.vnot", UnaryOp::Not),
    unary("pto.vrelu", UnaryOp::Relu), unary("pto.vexp", UnaryOp::Exp), unary("pto.vln", UnaryOp::Ln),
    unary("pto.vsqrt", UnaryOp::Sqrt), unary("pto.vrsqrt", UnaryOp::Rsqrt), unary("pto.vrec", UnaryOp::Rec),
    unary("pto.vmov", UnaryOp::Mov),
    vector_scalar("pto.vadds", ScalarOp::Add), vector_scalar("pto.vsubs", ScalarOp::Sub), vector_scalar("pto.vmuls", ScalarOp::Mul),
    vector_scalar("pto.vmaxs", ScalarOp::Max), vector_scalar("pto.vmins", ScalarOp::Min), vector_scalar("pto.vands", ScalarOp::And),
    vector_scalar("pto.vors", ScalarOp::Or), vector_scalar("pto.vxors", ScalarOp::Xor), vector_scalar("pto.vshls", ScalarOp::Shl),
    vector_scalar("pto.vshrs", ScalarOp::Shr), vector_scalar("pto.vlrelu", ScalarOp::LeakyRelu),
    carry("pto.vaddcs", CarryOp::Add), carry("pto.vsubcs", CarryOp::Sub),
    reduction("pto.vcadd", ReduceOp::Sum), reduction("pto.vcmax", ReduceOp::Max), reduction("pto.vcmin", ReduceOp::Min),
    reduction("pto.vcgadd", ReduceOp::GroupSum), reduction("pto.vcgmax", ReduceOp::GroupMax), reduction("pto.vcgmin", ReduceOp::GroupMin),
    reduction("pto.vcpadd", ReduceOp::PrefixSum),
    {"pto.vcmp", VectorFamily::Compare, kBinaryOperands, kMaskResult},
    {"pto.vcmps", VectorFamily::CompareScalar, kVectorScalarOperands, kMaskResult},
    {"pto.vsel", VectorFamily::Select, kBinaryOperands, kVRegResult},
    {"pto.vselr", VectorFamily::IndexSelect, kIndexSelectOperands, kVRegResult},
    {"pto.vselrv2", VectorFamily::IndexSelect, kIndexSelectOperands, kVRegResult},
    predicate_logic("pto.pand", PredicateOp::And, kThreeMasks), predicate_logic("pto.por", PredicateOp::Or, kThreeMasks),
    predicate_logic("pto.pxor", PredicateOp::Xor, kThreeMasks), predicate_logic("pto.pnot", PredicateOp::Not, kTwoMasks),
    predicate_logic("pto.psel", PredicateOp::Select, kFourMasks),
    {.name = "pto.ppack", .family = VectorFamily::PredicatePack, .operands = kMaskResult, .results = kMaskResult},
    {.name = "pto.punpack", .family = VectorFamily::PredicatePack, .operands = kMaskResult, .results = kMaskResult, .reverse = true},
    predicate_interleave("pto.pintlv_b8", 1, false), predicate_interleave("pto.pintlv_b16", 2, false),
    predicate_interleave("pto.pintlv_b32", 4, false), predicate_interleave("pto.pdintlv_b8", 1, true),
    predicate_interleave("pto.pdintlv_b16", 2, true), predicate_interleave("pto.pdintlv_b32", 4, true),
    {"pto.vbr", VectorFamily::Broadcast, kLaneScalarOperand, kVRegResult},
    {"pto.vdup", VectorFamily::Duplicate, kLaneValueOperand, kVRegResult},
    {"pto.vcvt", VectorFamily::Convert, kUnaryOperands, kRetypedResult},
    {"pto.vtrc", VectorFamily::Truncate, kRegisterOperand, kVRegResult},
    {"pto.vci", VectorFamily::IndexSequence, kScalarOperand, kVRegResult},
    {"pto.vbitcast", VectorFamily::Bitcast, kRegisterOperand, kRetypedResult},
    {"pto.pbitcast", VectorFamily::MaskBitcast, kMaskOperand, kMaskResult},
    rearrange("pto.vintlv", Rearrangement::Interleave, kTwoRegisters, kTwoRegisters),
    rearrange("pto.vdintlv", Rearrangement::Deinterleave, kTwoRegisters, kTwoRegisters),
    rearrange("pto.vintlvv2", Rearrangement::InterleaveHalf, kTwoRegisters, kVRegResult),
    rearrange("pto.vdintlvv2", Rearrangement::DeinterleaveHalf, kTwoRegisters, kVRegResult),
    rearrange("pto.vslide", Rearrangement::Slide, kSlideOperands, kVRegResult),
    rearrange("pto.vshift", Rearrangement::Shift, kShiftOperands, kVRegResult),
    rearrange("pto.vperm", Rearrangement::Permute, kPermuteOperands, kVRegResult),
    rearrange("pto.vsqz", Rearrangement::Squeeze, kUnaryOperands, kVRegResult),
    rearrange("pto.vusqz", Rearrangement::Unsqueeze, kMaskOperand, kVRegResult),
    rearrange("pto.vpack", Rearrangement::Pack, kPackOperands, kRetypedResult),
    rearrange("pto.vsunpack", Rearrangement::SignedUnpack, kUnpackOperands, kRetypedResult),
    rearrange("pto.vzunpack", Rearrangement::ZeroUnpack, kUnpackOperands, kRetypedResult),
    fused("pto.vaddrelu", engine::vector::FusedOp::AddRelu), fused("pto.vsubrelu", engine::vector::FusedOp::SubRelu),
    fused("pto.vprelu", engine::vector::FusedOp::Prelu),
    carry("pto.vaddc", CarryOp::Add, kBinaryOperands), carry("pto.vsubc", CarryOp::Sub, kBinaryOperands),
    memory("pto.vldsx2", VectorFamily::PairLoad, kLoadOperands, kPairLoadResults),
    memory("pto.vstsx2", VectorFamily::PairStore, kPairStoreOperands, {}),
    memory("pto.vsld", VectorFamily::StridedLoad, kLoadOperands, kVRegResult),
    memory("pto.vsst", VectorFamily::StridedStore, kStridedStoreOperands, {}),
    memory("pto.vsldb", VectorFamily::BlockLoad, kBlockLoadOperands, kVRegResult),
    memory("pto.vsstb", VectorFamily::BlockStore, kBlockStoreOperands, {}),
    memory("pto.vgather2", VectorFamily::Gather, kGatherOperands, kVRegResult),
    {.name = "pto.vgather2_bc", .family = VectorFamily::Gather, .operands = kMaskedGatherOperands, .results = kVRegResult, .masked = true},
    memory("pto.vgatherb", VectorFamily::BlockGather, kBlockGatherOperands, kVRegResult),
    memory("pto.vscatter", VectorFamily::Scatter, kScatterOperands, {}),
    memory("pto.plds", VectorFamily::PredicateLoad, kPointerOperand, kMaskResult),
    memory("pto.pld", VectorFamily::PredicateLoad, kPointerSlotOperands, kMaskResult, StreamUnit::Slots),
    memory("pto.pldi", VectorFamily::PredicateLoad, kPointerSlotOperands, kMaskResult, StreamUnit::Immediate),
    memory("pto.psts", VectorFamily::PredicateStore, kMaskPointerOperands, {}),
    memory("pto.pst", VectorFamily::PredicateStore, kMaskPointerSlotOperands, {}, StreamUnit::Slots),
    memory("pto.psti", VectorFamily::PredicateStore, kMaskPointerSlotOperands, {}, StreamUnit::Immediate),
    memory("pto.pstu", VectorFamily::PredicateStream, kPredicateStreamOperands, kAlignPointerResults),
    memory("pto.init_align", VectorFamily::AlignInit, {}, kAlignResult),
    memory("pto.vldas", VectorFamily::LoadPrime, kPointerOperand, kAlignResult),
    memory("pto.vldus", VectorFamily::UnalignedLoad, kUnalignedLoadOperands, kUnalignedLoadResults, StreamUnit::None, 1),
    {.name = "pto.vstu", .family = VectorFamily::UnalignedStore, .operands = kVstuOperands, .results = kAlignIndexResults,
     .unit = StreamUnit::Elements, .pointer_form = kVstuPointerOperands},
    {.name = "pto.vstus", .family = VectorFamily::UnalignedStore, .operands = kVstusOperands, .results = kAlignPointerResults,
     .unit = StreamUnit::Count, .optional_results = 1, .pointer_form = kVstusPointerOperands},
    memory("pto.vstur", VectorFamily::UnalignedStore, kVsturOperands, kAlignResult),
    memory("pto.vsta", VectorFamily::StreamFlush, kFlushIndexOperands, {}, StreamUnit::Elements),
    memory("pto.vstas", VectorFamily::StreamFlush, kFlushScalarOperands, {}, StreamUnit::Bytes),
    memory("pto.vstar", VectorFamily::StreamFlush, kFlushOperands, {}),
    {"pto.vmula", VectorFamily::MultiplyAdd, kMultiplyAddOperands, kVRegResult},
    {"pto.vaxpy", VectorFamily::Axpy, kAxpyOperands, kVRegResult},
    {"pto.vexpdif", VectorFamily::ExpDifference, kTwoRegisters, kVRegResult},
    // SFU and DSA operations; pto.vmrgsort is the mnemonic of vmrgsort4's own page.
    unary("pto.vbcnt", UnaryOp::PopCount), unary("pto.vcls", UnaryOp::LeadingSign),
    sfu("pto.vmull", VectorFamily::WideningMultiply, kBinaryOperands, kTwoRegisters),
    converting("pto.vaddreluconv", engine::vector::ConvertingOp::AddRelu), converting("pto.vmulconv", engine::vector::ConvertingOp::Mul),
    sfu("pto.vsort32", VectorFamily::Sort32, kUbConfigOperands), sfu("pto.vbitsort", VectorFamily::BitSort, kBitSortOperands),
    sfu("pto.vmrgsort4", VectorFamily::MergeSort, kMergeSortOperands), sfu("pto.vmrgsort", VectorFamily::MergeSort, kMergeSortOperands),
    sfu("pto.get_vms4_sr", VectorFamily::MergeStatus, {}, kFourScalars),
    sfu("pto.vtranspose", VectorFamily::Transpose, kUbConfigOperands),
};

std::string_view arg_name(VectorArg a)
{
    switch (a) {
        case VReg: return "!pto.vreg<NxT>";
        case Retyped: return "!pto.vreg<MxT1>";
        case Mask: return "!pto.mask<...>";
        case Pointer: return "!pto.ptr<T, ub>";
        case Index: return "index";
        case Scalar: return "an integer";
        case LaneScalar: return "a scalar of the lane type";
        case IndexVReg: return "!pto.vreg<NxI> of integer indices";
        case LaneValue: return "a scalar of the lane type or !pto.vreg<NxT>";
        case Align: return "!pto.align";
    }
    return "";
}

bool has_kind(const Type& t, VectorArg a)
{
    switch (a) {
        case VReg: case Retyped: return t.is<VRegType>();
        case Mask: return t.is<MaskType>();
        case Pointer: return t.is<PtrType>();
        case Index: case Scalar: return t.is<IndexType>() || t.is<IntegerType>();
        case LaneScalar: return t.is<IntegerType>() || t.is<FloatType>();
        case IndexVReg: return t.is<VRegType>();
        case LaneValue: return t.is<IntegerType>() || t.is<FloatType>() || t.is<VRegType>();
        case Align: return t.is<AlignType>();
    }
    return false;
}

class Reader {
public:
    Reader(const Operation& op, std::vector<VectorProblem>& problems) : op_(op), problems_(problems) {}

    VectorForm read()
    {
        form_.def = find_vector_op(op_.name);
        if (!form_.def) return form_;
        const VectorOpDef& def = *form_.def;
        // Operands and the integer literals among them (pto.pldi / pto.psti's offset), as written.
        const std::vector<WrittenInput> inputs = op_.written_inputs();
        form_.pointer_state = !def.pointer_form.empty() && inputs.size() == def.pointer_form.size();
        const std::span<const VectorArg> operands = form_.pointer_state ? def.pointer_form : def.operands;
        const std::span<const VectorArg> results = form_.pointer_state ? std::span<const VectorArg>(kAlignPointerResults) : def.results;
        if (inputs.size() != operands.size())
            return problem("STRUCT_OPERAND_COUNT", "wrong number of operands",
                           std::to_string(def.operands.size()) + (def.pointer_form.empty() ? "" : " or " + std::to_string(def.pointer_form.size())),
                           std::to_string(inputs.size())), form_;
        const std::size_t fewest = results.size() - std::size_t(def.optional_results);
        if (op_.results.size() > results.size() || op_.results.size() < fewest)
            return problem("STRUCT_RESULT_COUNT", "wrong number of results",
                           fewest == results.size() ? std::to_string(fewest) : std::to_string(fewest) + " or " + std::to_string(results.size()),
                           std::to_string(op_.results.size())), form_;
        std::vector<Type> types;
        for (const WrittenInput& in : inputs) types.push_back(in.type);
        for (const auto& r : op_.results) types.push_back(r->type);
        std::vector<VectorArg> kinds(operands.begin(), operands.end());
        kinds.insert(kinds.end(), results.begin(), results.begin() + std::ptrdiff_t(op_.results.size()));
        const Type* vreg = nullptr;
        for (std::size_t i = 0; i < types.size(); ++i) {
            if (types[i].is_none()) continue;
            if (!has_kind(types[i], kinds[i])) {
                const bool result = i >= inputs.size();
                const std::size_t n = result ? i - inputs.size() : i;
                problem("STRUCT_OPERAND_KIND", std::string(result ? "result " : "operand ") + std::to_string(n) + " has the wrong kind",
                        std::string(arg_name(kinds[i])), to_string(types[i]));
                continue;
            }
            if (kinds[i] == VReg && !vreg) vreg = &types[i];
            if (kinds[i] == VReg && vreg && !(types[i] == *vreg))
                problem("STRUCT_OPERAND_KIND", "the registers of one operation have one type", to_string(*vreg), to_string(types[i]));
            if (kinds[i] == Pointer) read_pointer(types[i]);
        }
        if (vreg) read_register(*vreg);
        for (std::size_t i = 0; i < types.size(); ++i)
            if (kinds[i] == Mask && types[i].is<MaskType>()) check_mask(types[i].as<MaskType>());
        switch (def.family) {
            case VectorFamily::Load: read_load(); break;
            case VectorFamily::Store: read_store(); break;
            case VectorFamily::Pattern: read_pattern(); break;
            case VectorFamily::Remainder: form_.lane_bytes = def.mask_lane_bytes; break;
            case VectorFamily::Binary:
                if (vreg) rule("LEGAL_VECTOR_DTYPE", engine::vector::binary_problem(def.binary, form_.dtype));
                break;
            case VectorFamily::Unary:
                if (vreg) rule("LEGAL_VECTOR_DTYPE", engine::vector::unary_problem(def.unary, form_.dtype));
                break;
            case VectorFamily::VectorScalar:
                if (vreg) rule("LEGAL_VECTOR_DTYPE", engine::vector::scalar_problem(def.scalar, form_.dtype));
                check_lane_scalar(types[1]);
                break;
            case VectorFamily::Carry:
                if (vreg) rule("LEGAL_VECTOR_DTYPE", engine::vector::carry_problem(form_.dtype));
                break;
            case VectorFamily::Reduction:
                if (vreg) rule("LEGAL_VECTOR_DTYPE", engine::vector::reduce_problem(def.reduce, form_.dtype));
                break;
            case VectorFamily::Compare: read_compare_mode(); break;
            case VectorFamily::CompareScalar:
                read_compare_mode();
                check_lane_scalar(types[1]);
                break;
            case VectorFamily::Select: break;
            case VectorFamily::IndexSelect: check_index_register(types[1]); break;
            case VectorFamily::PredicateLogic: read_mask_widths(types); break;
            case VectorFamily::PredicatePack: read_pack(types[0], types[1]); break;
            case VectorFamily::PredicateInterleave: form_.lane_bytes = def.mask_lane_bytes; break;
            case VectorFamily::Broadcast:
                if (vreg && form_.lane_bytes == 8)
                    problem("LEGAL_VECTOR_DTYPE", "pto.vbr has b8, b16 and b32 forms", "8-, 16- or 32-bit lanes", to_string(*vreg));
                check_lane_scalar(types[0]);
                break;
            case VectorFamily::Duplicate: read_duplicate(types[0], vreg); break;
            case VectorFamily::Convert: case VectorFamily::Truncate: case VectorFamily::IndexSequence:
            case VectorFamily::Bitcast: case VectorFamily::MaskBitcast:
                if (problems_.empty()) read_conversion_form(op_, form_, problems_);
                break;
            case VectorFamily::Rearrange:
                if (problems_.empty()) read_rearrange_form(op_, form_, problems_);
                break;
            case VectorFamily::Fused: case VectorFamily::MultiplyAdd: case VectorFamily::ExpDifference:
                if (vreg) rule("LEGAL_VECTOR_DTYPE", engine::vector::fused_problem(def.fused, form_.dtype));
                break;
            case VectorFamily::Axpy:
                if (vreg) rule("LEGAL_VECTOR_DTYPE", engine::vector::fused_problem(def.fused, form_.dtype));
                check_lane_scalar(types[2]);
                break;
            case VectorFamily::PairLoad: case VectorFamily::PairStore: case VectorFamily::StridedLoad:
            case VectorFamily::StridedStore: case VectorFamily::BlockLoad: case VectorFamily::BlockStore:
            case VectorFamily::Gather: case VectorFamily::BlockGather: case VectorFamily::Scatter:
            case VectorFamily::PredicateLoad: case VectorFamily::PredicateStore: case VectorFamily::PredicateStream:
            case VectorFamily::AlignInit: case VectorFamily::LoadPrime: case VectorFamily::UnalignedLoad:
            case VectorFamily::UnalignedStore: case VectorFamily::StreamFlush:
                if (problems_.empty()) read_memory_form(op_, form_, problems_);
                break;
            case VectorFamily::WideningMultiply: case VectorFamily::ConvertingFused: case VectorFamily::Sort32:
            case VectorFamily::BitSort: case VectorFamily::MergeSort: case VectorFamily::MergeStatus: case VectorFamily::Transpose:
                if (problems_.empty()) read_sfu_form(op_, form_, problems_);
                break;
        }
        return form_;
    }

private:
    void problem(std::string code, std::string what, std::string expected, std::string actual)
    {
        problems_.push_back({std::move(code), std::move(what), std::move(expected), std::move(actual)});
    }
    // A token problem as the engine words it for both doors (nothing when the token reads).
    void report(std::optional<engine::vector::TokenProblem> p)
    {
        if (p) problem(std::move(p->code), std::move(p->what), std::move(p->expected), std::move(p->actual));
    }

    // A rule the engine states as "what it needs" (empty: kept).
    void rule(std::string code, std::string_view needs)
    {
        if (!needs.empty())
            problem(std::move(code), std::string(op_.mnemonic()) + " is not defined on " +
                                         std::string(engine::dtype_name(form_.dtype)) + " lanes",
                    std::string(needs), std::string(engine::dtype_name(form_.dtype)));
    }

    void read_register(const Type& t)
    {
        const VRegType& r = t.as<VRegType>();
        const std::optional<engine::DType> dtype = t.element_dtype();
        if (!dtype || !rules::vreg_shape_ok(r.lanes, *dtype)) {
            problem("LEGAL_VREG_SHAPE", "a vector register holds 256 bytes of f32, f16, bf16 or integer lanes",
                    "!pto.vreg<64xf32>, <128xf16>, <256xi8> ...", to_string(t));
            return;
        }
        form_.dtype = *dtype;
        form_.lane_bytes = engine::dtype_bits(*dtype) / 8;
    }

    void read_pointer(const Type& t)
    {
        const PointerInfo p = pointer_info(t);
        form_.pointer_element_bytes = p.element_bytes();
        if (p.memory != pto::TileType::Vec)
            problem("LEGAL_VECTOR_SPACE", "vector loads and stores address the unified buffer", "!pto.ptr<T, ub>", to_string(t));
    }

    void check_mask(const MaskType& m)
    {
        const int lanes = form_.def->mask_lane_bytes ? form_.def->mask_lane_bytes : form_.lane_bytes;
        if (m.lane_bytes && lanes && !rules::mask_width_ok(int(m.lane_bytes), lanes))
            problem("LEGAL_VECTOR_MASK_WIDTH", "the mask governs lanes of another width",
                    "a mask for " + std::to_string(lanes * 8) + "-bit lanes", "!pto.mask<" + m.spelling + ">");
    }

    std::string dist_text()
    {
        const Attribute* dist = op_.attribute("dist");
        if (!dist && !op_.arguments.empty()) dist = &op_.arguments.front();
        return dist ? dist->text() : std::string();
    }

    void read_load()
    {
        report(engine::vector::read_load_dist(dist_text(), form_.lane_bytes, form_.load));
    }

    void read_store()
    {
        report(engine::vector::read_store_dist(dist_text(), form_.lane_bytes, form_.store));
    }

    void read_pattern()
    {
        form_.lane_bytes = form_.def->mask_lane_bytes;
        const std::string name = op_.arguments.empty() ? std::string() : op_.arguments.front().text();
        report(engine::vector::read_pattern(name, form_.lane_bytes, form_.pattern));
    }

    // A token written after the operands (`%a, %b, %seed, "lt"`), or as attribute `name`.
    std::string token(std::string_view name) const
    {
        if (const Attribute* a = op_.attribute(std::string(name))) return a->text();
        return op_.arguments.empty() ? std::string() : op_.arguments.front().text();
    }

    // A scalar operand has the registers' lane type: the same float type, or an integer of the width.
    void check_lane_scalar(const Type& t)
    {
        if (t.is_none() || !form_.lane_bytes || !has_kind(t, LaneScalar)) return;
        const std::optional<engine::DType> d = t.element_dtype();
        const bool lane_float = engine::dtype_is_float(form_.dtype);
        const bool ok = d && (lane_float ? *d == form_.dtype : !engine::dtype_is_float(*d) && engine::dtype_bits(*d) == engine::dtype_bits(form_.dtype));
        if (!ok)
            problem("LEGAL_VECTOR_SCALAR_TYPE", "the scalar has the registers' lane type",
                    std::string(engine::dtype_name(form_.dtype)) + (lane_float ? "" : " or another integer of its width"), to_string(t));
    }

    void read_compare_mode()
    {
        const std::string name = token("cmp_mode");
        const auto mode = engine::vector::compare_mode_from_name(name);
        if (!mode) return problem("LEGAL_VCMP_MODE", "unknown compare mode", "eq, ne, lt, le, gt or ge", name.empty() ? "none" : name);
        form_.compare = *mode;
    }

    // vselr's indices: integer lanes of the registers' width, as many.
    void check_index_register(const Type& t)
    {
        if (!form_.lane_bytes || !t.is<VRegType>()) return;
        const std::optional<engine::DType> d = t.element_dtype();
        if (!d || engine::dtype_is_float(*d) || engine::dtype_bits(*d) != form_.lane_bytes * 8 || t.as<VRegType>().lanes * form_.lane_bytes != 256)
            problem("LEGAL_VECTOR_INDEX_TYPE", "the index register has integer lanes of the source's width",
                    "!pto.vreg<" + std::to_string(256 / form_.lane_bytes) + "xi" + std::to_string(form_.lane_bytes * 8) + ">", to_string(t));
    }

    // Predicate logic: every mask of the operation has one width; it is the operation's when stated.
    void read_mask_widths(const std::vector<Type>& types)
    {
        for (const Type& t : types) {
            if (!t.is<MaskType>() || !t.as<MaskType>().lane_bytes) continue;
            const int w = int(t.as<MaskType>().lane_bytes);
            if (!form_.lane_bytes) form_.lane_bytes = w;
            else if (w != form_.lane_bytes)
                problem("LEGAL_VECTOR_MASK_WIDTH", "the masks of a predicate operation have one width",
                        "!pto.mask<b" + std::to_string(form_.lane_bytes * 8) + ">", to_string(t));
        }
    }

    // ppack halves the lane width (b32 -> b16 -> b8), punpack doubles it; the part is LOWER or HIGHER.
    void read_pack(const Type& source, const Type& result)
    {
        const std::string name = token("part");
        report(engine::vector::read_predicate_part(name, form_.part));
        const int from = source.is<MaskType>() ? int(source.as<MaskType>().lane_bytes) : 0;
        const int to = result.is<MaskType>() ? int(result.as<MaskType>().lane_bytes) : 0;
        form_.lane_bytes = from;
        const bool unpack = form_.def->reverse;
        const std::string expected = unpack ? "a result mask of twice the source's width (b8 -> b16 -> b32)"
                                            : "a result mask of half the source's width (b32 -> b16 -> b8)";
        if ((from == (unpack ? 4 : 1)) || (from && to && to * (unpack ? 1 : 2) != from * (unpack ? 2 : 1)))
            problem("LEGAL_PREDICATE_PACK_WIDTH", "the masks' widths are not in the pack ratio", expected, to_string(source) + " -> " + to_string(result));
    }

    void read_duplicate(const Type& input, const Type* vreg)
    {
        const std::string name = token("position");
        if (!name.empty()) {
            const auto position = engine::vector::dup_position_from_name(name);
            if (!position) problem("LEGAL_VDUP_POSITION", "unknown position", "\"LOWEST\" or \"HIGHEST\"", name);
            else form_.position = *position;
        }
        if (input.is<VRegType>()) {
            if (vreg && !(input == *vreg))
                problem("STRUCT_OPERAND_KIND", "the registers of one operation have one type", to_string(*vreg), to_string(input));
        } else {
            check_lane_scalar(input);
        }
    }

    const Operation& op_;
    std::vector<VectorProblem>& problems_;
    VectorForm form_;
};

}  // namespace

std::span<const VectorOpDef> vector_op_definitions() { return kDefinitions; }

const VectorOpDef* find_vector_op(std::string_view name)
{
    for (const VectorOpDef& d : kDefinitions)
        if (d.name == name) return &d;
    return nullptr;
}

VectorForm read_vector_form(const Operation& op, std::vector<VectorProblem>& problems) { return Reader(op, problems).read(); }

std::optional<int> vreg_lane_bytes(const Type& t)
{
    if (const auto* m = t.dyn_cast<MaskType>()) return int(m->lane_bytes);
    if (!t.is<VRegType>()) return std::nullopt;
    const auto dtype = t.element_dtype();
    if (!dtype) return std::nullopt;
    return engine::dtype_bits(*dtype) / 8;
}

}  // namespace pto::as
