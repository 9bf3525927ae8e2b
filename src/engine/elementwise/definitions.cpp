// The entry points and definitions of the PTO_ELEMENTWISE rows of pto/isa/instructions.def: each row's
// functor (operations.hpp) over the kernel of its Kind (instruction.hpp).
#include <pto/engine/ops/elementwise.hpp>

#include <pto/profile/rules_elementwise.hpp>
#include <pto/runtime/diagnostic.hpp>

#include "engine/hold_back.hpp"
#include "engine/definition.hpp"
#include "engine/elementwise/instruction.hpp"
#include "engine/elementwise/operations.hpp"


namespace pto::engine {

using namespace elementwise;

namespace {

// The forms of each Kind: sources, in the order the text writes them, and one destination.
constexpr OperandSpec kUnarySources[] = {{"src", OperandKind::Tile}};
constexpr OperandSpec kBinarySources[] = {{"src0", OperandKind::Tile}, {"src1", OperandKind::Tile}};
constexpr OperandSpec kBinaryTmpSources[] = {
    {"src0", OperandKind::Tile}, {"src1", OperandKind::Tile}, {"tmp", OperandKind::Tile, true}};
constexpr OperandSpec kScalarSources[] = {{"src", OperandKind::Tile}, {"scalar", OperandKind::Scalar}};
constexpr OperandSpec kScalarTmpSources[] = {
    {"src", OperandKind::Tile}, {"scalar", OperandKind::Scalar}, {"tmp", OperandKind::Tile, true}};
constexpr OperandSpec kScalarFirstSources[] = {{"scalar", OperandKind::Scalar}, {"src", OperandKind::Tile}};
constexpr Form kUnaryForms[] = {{kUnarySources, kTileDst}};
constexpr Form kBinaryForms[] = {{kBinarySources, kTileDst}};
constexpr Form kBinaryTmpForms[] = {{kBinaryTmpSources, kTileDst}};
constexpr Form kScalarForms[] = {{kScalarSources, kTileDst}};
constexpr Form kScalarTmpForms[] = {{kScalarTmpSources, kTileDst}};
constexpr Form kScalarBothSidesForms[] = {{kScalarSources, kTileDst}, {kScalarFirstSources, kTileDst}};
constexpr OperandSpec kPowSources[] = {{"base", OperandKind::Tile}, {"exp", OperandKind::Tile}, {"tmp", OperandKind::Tile, true}};
constexpr OperandSpec kPowScalarSources[] = {
    {"base", OperandKind::Tile}, {"exp", OperandKind::Scalar}, {"tmp", OperandKind::Tile, true}};
constexpr OperandSpec kMathSources[] = {{"src", OperandKind::Tile}, {"tmp", OperandKind::Tile, true}};
constexpr Form kMathForms[] = {{kMathSources, kTileDst}};
constexpr Form kPowForms[] = {{kPowSources, kTileDst}};
constexpr Form kPowScalarForms[] = {{kPowScalarSources, kTileDst}};
constexpr OperandSpec kTernary3Sources[] = {{"src0", OperandKind::Tile}, {"src1", OperandKind::Tile}, {"src2", OperandKind::Tile}};
constexpr OperandSpec kTernaryScalarSources[] = {
    {"src0", OperandKind::Tile}, {"scalar", OperandKind::Scalar}, {"src1", OperandKind::Tile}};
constexpr OperandSpec kAxpySources[] = {{"src0", OperandKind::Tile}, {"scalar", OperandKind::Scalar}};
constexpr OperandSpec kExpandSources[] = {{"scalar", OperandKind::Scalar}};
constexpr Form kTernary3Forms[] = {{kTernary3Sources, kTileDst}};
constexpr Form kTernaryScalarForms[] = {{kTernaryScalarSources, kTileDst}};
constexpr Form kDstProductForms[] = {{kBinarySources, kTileDst}};
constexpr Form kDstScaledForms[] = {{kBinarySources, kTileDst}};
constexpr Form kAxpyForms[] = {{kAxpySources, kTileDst}};
constexpr Form kExpandForms[] = {{kExpandSources, kTileDst}};

// The operands of a call of a Scalar-kind instruction: the tile, the scalar in its element type, and
// which side of the operation the scalar is on (the second form of ScalarBothSides puts it first).
struct ScalarCall {
    const TileDesc& src;
    ScalarBits scalar;
    ScalarSide side;
};
ScalarCall scalar_call(const Call& c)
{
    const bool scalar_first = c.form == 1 && c.sources[0].scalar;
    const TileDesc& src = c.src(scalar_first ? 1 : 0);
    return {src, encode_scalar(src.dtype, *c.sources[scalar_first ? 0 : 1].scalar),
            scalar_first ? ScalarSide::Left : ScalarSide::Right};
}

// The rule a source's element type follows: dst's type, except for TAXPY's kind, which also widens an
// f16 source into an f32 dst.
constexpr auto source_dtype_rule(std::span<const Form> forms)
{
    return forms.data() == kAxpyForms ? rules::taxpy_source_dtype_ok : rules::elementwise_same_dtype;
}

// The checks of every element-wise instruction, on the tile sources of the form called (tmp tiles
// aside), named as the form names them.

template <bool (*DTypeOk)(const profile::Profile&, DType)>
void check_operands(const char* code, std::span<const Form> forms, const profile::Profile& p, const Call& c, LegalitySink& sink)
{
    const auto specs = forms[c.form].sources;
    std::size_t index[3] = {}, count = 0;
    for (std::size_t i = 0; i < c.sources.size() && count < 3; ++i)
        if (c.sources[i].tile && std::string_view(specs[i].name) != "tmp") index[count++] = i;
    // Slots past `count` are not read: check_elementwise_operands sees the first `count`.
    auto named_source = [&](std::size_t k) {
        return k < count ? NamedTile{c.src(index[k]), specs[index[k]].name} : NamedTile{c.dst(), "dst"};
    };
    const NamedTile named[] = {named_source(0), named_source(1), named_source(2)};
    check_elementwise_operands(p, {code, DTypeOk, source_dtype_rule(forms)}, c.dst(), std::span(named, count), sink);
}

}  // namespace

// Per Kind: the parameters of the entry point, how it runs its kernel, and how a Call reaches it.
#define PTO_DETAIL_PARAMS_Unary const TileDesc &dst, const TileDesc &src
#define PTO_DETAIL_ARGS_Unary dst, src
#define PTO_DETAIL_RUN_Unary(NAME, entry, Op) run_unary_instruction<Op, rules::entry##_dtype_ok>("LEGAL_" #NAME "_DTYPE", dst, src)
#define PTO_DETAIL_CALL_Unary(entry, ...) entry(c.dst(), c.src(0) __VA_ARGS__)
#define PTO_DETAIL_PARAMS_Binary const TileDesc &dst, const TileDesc &src0, const TileDesc &src1
#define PTO_DETAIL_ARGS_Binary dst, src0, src1
#define PTO_DETAIL_RUN_Binary(NAME, entry, Op) \
    run_binary_instruction<Op, rules::entry##_dtype_ok>("LEGAL_" #NAME "_DTYPE", dst, src0, src1)
#define PTO_DETAIL_CALL_Binary(entry, ...) entry(c.dst(), c.src(0), c.src(1) __VA_ARGS__)
#define PTO_DETAIL_PARAMS_Scalar const TileDesc &dst, const TileDesc &src, ScalarBits scalar, ScalarSide side
#define PTO_DETAIL_ARGS_Scalar dst, src, scalar, side
#define PTO_DETAIL_RUN_Scalar(NAME, entry, Op) \
    run_scalar_instruction<Op, rules::entry##_dtype_ok>("LEGAL_" #NAME "_DTYPE", dst, src, scalar, side)
#define PTO_DETAIL_CALL_Scalar(entry, ...)                           \
    const ScalarCall s = scalar_call(c);                             \
    entry(c.dst(), s.src, s.scalar, s.side __VA_ARGS__)
#define PTO_DETAIL_RUN_Math(NAME, entry, Op) \
    run_math_instruction<rules::entry##_dtype_ok>("LEGAL_" #NAME "_DTYPE", MathFn::Op, int(precision), dst, src)
#define PTO_DETAIL_RUN_Pow(NAME, entry, Op) \
    run_pow_instruction<rules::entry##_dtype_ok>("LEGAL_" #NAME "_DTYPE", int(precision), dst, src0, src1)
#define PTO_DETAIL_RUN_PowScalar(NAME, entry, Op) \
    run_pow_scalar_instruction<rules::entry##_dtype_ok>("LEGAL_" #NAME "_DTYPE", int(precision), dst, src, scalar)
#define PTO_DETAIL_PARAMS_Math PTO_DETAIL_PARAMS_Unary
#define PTO_DETAIL_ARGS_Math PTO_DETAIL_ARGS_Unary
#define PTO_DETAIL_CALL_Math PTO_DETAIL_CALL_Unary
#define PTO_DETAIL_PARAMS_Pow PTO_DETAIL_PARAMS_Binary
#define PTO_DETAIL_ARGS_Pow PTO_DETAIL_ARGS_Binary
#define PTO_DETAIL_CALL_Pow PTO_DETAIL_CALL_Binary
#define PTO_DETAIL_PARAMS_PowScalar const TileDesc &dst, const TileDesc &src, ScalarBits scalar, [[maybe_unused]] ScalarSide side /*always Right*/
#define PTO_DETAIL_ARGS_PowScalar PTO_DETAIL_ARGS_Scalar
#define PTO_DETAIL_CALL_PowScalar PTO_DETAIL_CALL_Scalar
#define PTO_DETAIL_PARAMS_Ternary3 const TileDesc &dst, const TileDesc &src0, const TileDesc &src1, const TileDesc &src2
#define PTO_DETAIL_ARGS_Ternary3 dst, src0, src1, src2
#define PTO_DETAIL_RUN_Ternary3(NAME, entry, Op)                                                             \
    run_ternary_instruction<Op, rules::entry##_dtype_ok>("LEGAL_" #NAME "_DTYPE", dst,                      \
                                                         {{src0, "src0"}, {src1, "src1"}, {src2, "src2"}},     \
                                                         Operand::tile(src0), Operand::tile(src1), Operand::tile(src2))
#define PTO_DETAIL_CALL_Ternary3(entry, ...) entry(c.dst(), c.src(0), c.src(1), c.src(2))
#define PTO_DETAIL_PARAMS_TernaryScalar const TileDesc &dst, const TileDesc &src0, ScalarBits scalar, const TileDesc &src1
#define PTO_DETAIL_ARGS_TernaryScalar dst, src0, scalar, src1
#define PTO_DETAIL_RUN_TernaryScalar(NAME, entry, Op)                                                               \
    run_ternary_instruction<Op, rules::entry##_dtype_ok>("LEGAL_" #NAME "_DTYPE", dst, {{src0, "src0"}, {src1, "src1"}}, \
                                                         Operand::tile(src0), Operand::scalar(scalar), Operand::tile(src1))
#define PTO_DETAIL_CALL_TernaryScalar(entry, ...) \
    entry(c.dst(), c.src(0), encode_scalar(c.src(0).dtype, *c.sources[1].scalar), c.src(2))
#define PTO_DETAIL_PARAMS_DstProduct PTO_DETAIL_PARAMS_Binary
#define PTO_DETAIL_ARGS_DstProduct PTO_DETAIL_ARGS_Binary
#define PTO_DETAIL_RUN_DstProduct(NAME, entry, Op)                                                                   \
    run_ternary_instruction<Op, rules::entry##_dtype_ok>("LEGAL_" #NAME "_DTYPE", dst, {{src0, "src0"}, {src1, "src1"}}, \
                                                         Operand::tile(src0), Operand::tile(src1), Operand::destination())
#define PTO_DETAIL_CALL_DstProduct PTO_DETAIL_CALL_Binary
#define PTO_DETAIL_PARAMS_DstScaled PTO_DETAIL_PARAMS_Binary
#define PTO_DETAIL_ARGS_DstScaled PTO_DETAIL_ARGS_Binary
#define PTO_DETAIL_RUN_DstScaled(NAME, entry, Op)                                                                    \
    run_ternary_instruction<Op, rules::entry##_dtype_ok>("LEGAL_" #NAME "_DTYPE", dst, {{src0, "src0"}, {src1, "src1"}}, \
                                                         Operand::tile(src0), Operand::destination(), Operand::tile(src1))
#define PTO_DETAIL_CALL_DstScaled PTO_DETAIL_CALL_Binary
#define PTO_DETAIL_PARAMS_Axpy const TileDesc &dst, const TileDesc &src0, ScalarBits scalar
#define PTO_DETAIL_ARGS_Axpy dst, src0, scalar
#define PTO_DETAIL_RUN_Axpy(NAME, entry, Op) run_axpy_instruction<Op, rules::entry##_dtype_ok>("LEGAL_" #NAME "_DTYPE", dst, src0, scalar)
#define PTO_DETAIL_CALL_Axpy(entry, ...) entry(c.dst(), c.src(0), encode_scalar(c.src(0).dtype, *c.sources[1].scalar))
#define PTO_DETAIL_PARAMS_Expand const TileDesc &dst, ScalarBits scalar
#define PTO_DETAIL_ARGS_Expand dst, scalar
#define PTO_DETAIL_RUN_Expand(NAME, entry, Op)                                               \
    run_instruction<rules::entry##_dtype_ok>("LEGAL_" #NAME "_DTYPE", dst, {}, [&]<typename T>() { \
        ScalarKernel<Op, T>::run(dst, dst, scalar, ScalarSide::Right);                       \
    })
#define PTO_DETAIL_CALL_Expand(entry, ...) entry(c.dst(), encode_scalar(c.dst().dtype, *c.sources[0].scalar))
#define PTO_DETAIL_PARAMS_BinaryTmp PTO_DETAIL_PARAMS_Binary
#define PTO_DETAIL_ARGS_BinaryTmp PTO_DETAIL_ARGS_Binary
#define PTO_DETAIL_RUN_BinaryTmp PTO_DETAIL_RUN_Binary
#define PTO_DETAIL_CALL_BinaryTmp PTO_DETAIL_CALL_Binary
#define PTO_DETAIL_PARAMS_ScalarTmp PTO_DETAIL_PARAMS_Scalar
#define PTO_DETAIL_ARGS_ScalarTmp PTO_DETAIL_ARGS_Scalar
#define PTO_DETAIL_RUN_ScalarTmp PTO_DETAIL_RUN_Scalar
#define PTO_DETAIL_CALL_ScalarTmp PTO_DETAIL_CALL_Scalar
#define PTO_DETAIL_PARAMS_ScalarBothSides PTO_DETAIL_PARAMS_Scalar
#define PTO_DETAIL_ARGS_ScalarBothSides PTO_DETAIL_ARGS_Scalar
#define PTO_DETAIL_RUN_ScalarBothSides PTO_DETAIL_RUN_Scalar
#define PTO_DETAIL_CALL_ScalarBothSides PTO_DETAIL_CALL_Scalar

// Per Mode. Every precision gives the correctly rounded result of these operations here: the device's
// DEFAULT algorithms trade accuracy for speed in undocumented ways that a simulator cannot reproduce.
#define PTO_DETAIL_ENTRY_Plain(NAME, entry, Op, Kind, Precision) \
    void entry(PTO_DETAIL_PARAMS_##Kind)                          \
    {                                                             \
        PTO_HOLD_BACK(#NAME, entry, PTO_DETAIL_ARGS_##Kind);      \
        runtime::InstructionScope scope(#NAME);                   \
        PTO_DETAIL_RUN_##Kind(NAME, entry, Op);                   \
    }
#define PTO_DETAIL_ENTRY_Precise(NAME, entry, Op, Kind, Precision) \
    void entry(PTO_DETAIL_PARAMS_##Kind, [[maybe_unused]] Precision precision) \
    {                                                               \
        PTO_HOLD_BACK(#NAME, entry, PTO_DETAIL_ARGS_##Kind, precision); \
        runtime::InstructionScope scope(#NAME);                     \
        PTO_DETAIL_RUN_##Kind(NAME, entry, Op);                     \
    }
#define PTO_DETAIL_RUNNER_Plain(entry, Kind, Precision) [](const Call& c) { PTO_DETAIL_CALL_##Kind(entry); }
#define PTO_DETAIL_RUNNER_Precise(entry, Kind, Precision) \
    [](const Call& c) { PTO_DETAIL_CALL_##Kind(entry, , c.attribute<Precision>(0)); }
#define PTO_DETAIL_ATTRIBUTES_Plain std::span<const AttributeSpec>{}
#define PTO_DETAIL_ATTRIBUTES_Precise kPrecisionAttributes

#define PTO_ELEMENTWISE(NAME, entry, Op, Kind, Mode, Precision, A2A3_DTYPES, A5_DTYPES, CPU_DTYPES)                          \
    PTO_DETAIL_ENTRY_##Mode(NAME, entry, Op, Kind, Precision)                                                    \
    constexpr InstrDef definitions::NAME{                                                                        \
        .id = Instr::NAME,                                                                                       \
        .mnemonic = #NAME,                                                                                       \
        .forms = k##Kind##Forms,                                                                                 \
        .attributes = PTO_DETAIL_ATTRIBUTES_##Mode,                                                              \
        .pipe = vector_pipe,                                                                                     \
        .check = [](const profile::Profile& p, const Call& c,                                                    \
                    LegalitySink& sink) { check_operands<rules::entry##_dtype_ok>("LEGAL_" #NAME "_DTYPE", k##Kind##Forms, p, c, sink); }, \
        .run = PTO_DETAIL_RUNNER_##Mode(entry, Kind, Precision),                                                 \
    };
#include <pto/isa/instructions.def>
#undef PTO_ELEMENTWISE
#undef PTO_DETAIL_PARAMS_Unary
#undef PTO_DETAIL_RUN_Unary
#undef PTO_DETAIL_CALL_Unary
#undef PTO_DETAIL_PARAMS_Binary
#undef PTO_DETAIL_RUN_Binary
#undef PTO_DETAIL_CALL_Binary
#undef PTO_DETAIL_PARAMS_Scalar
#undef PTO_DETAIL_RUN_Scalar
#undef PTO_DETAIL_CALL_Scalar
#undef PTO_DETAIL_PARAMS_BinaryTmp
#undef PTO_DETAIL_RUN_BinaryTmp
#undef PTO_DETAIL_CALL_BinaryTmp
#undef PTO_DETAIL_PARAMS_ScalarTmp
#undef PTO_DETAIL_RUN_ScalarTmp
#undef PTO_DETAIL_CALL_ScalarTmp
#undef PTO_DETAIL_PARAMS_ScalarBothSides
#undef PTO_DETAIL_RUN_ScalarBothSides
#undef PTO_DETAIL_CALL_ScalarBothSides
#undef PTO_DETAIL_ENTRY_Plain
#undef PTO_DETAIL_ENTRY_Precise
#undef PTO_DETAIL_RUNNER_Plain
#undef PTO_DETAIL_RUNNER_Precise
#undef PTO_DETAIL_ATTRIBUTES_Plain
#undef PTO_DETAIL_ATTRIBUTES_Precise

}  // namespace pto::engine
