// The element-wise tile-tile instructions: one operation functor each, over the one binary kernel
// (binary_kernel.hpp); their entry points and definitions come from their rows in
// pto/isa/instructions.def.
#include <pto/engine/ops/elementwise.hpp>

#include <pto/profile/rules_elementwise.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/definition.hpp"
#include "engine/elementwise/binary_kernel.hpp"
#include "engine/elementwise/operations.hpp"

namespace pto::engine {

using namespace elementwise;

namespace {

// The operands and attributes every binary row shares.
constexpr OperandSpec kBinarySources[] = {{"src0", OperandKind::Tile}, {"src1", OperandKind::Tile}};
constexpr Form kBinaryForms[] = {{kBinarySources, kTileDst}};

constexpr std::string_view kPrecisionKeys[] = {"precision", "algorithm", "precisionType"};
constexpr AttributeValue kPrecisionValues[] = {{"default", 0}, {"high_precision", 1}, {"high", 1}};
constexpr AttributeSpec kPrecisionAttributes[] = {{kPrecisionKeys, kPrecisionValues, 0}};

}  // namespace

// Per row: the entry point (the instruction's scope, its rules, the kernel of its functor), and its
// definition.
#define PTO_DETAIL_BINARY_DEFINE_ENTRY_Plain(NAME, entry, Op, Precision)                              \
    void entry(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)                \
    {                                                                                          \
        runtime::InstructionScope scope(#NAME);                                                \
        run_binary_instruction<Op, rules::entry##_dtype_ok>("LEGAL_" #NAME "_DTYPE", dst, src0, src1); \
    }
// Both precisions yield the correctly rounded IEEE result here: the device's DEFAULT algorithms trade
// accuracy for speed in undocumented ways that a simulator cannot reproduce.
#define PTO_DETAIL_BINARY_DEFINE_ENTRY_WithPrecision(NAME, entry, Op, Precision)                      \
    void entry(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1, Precision)     \
    {                                                                                          \
        runtime::InstructionScope scope(#NAME);                                                \
        run_binary_instruction<Op, rules::entry##_dtype_ok>("LEGAL_" #NAME "_DTYPE", dst, src0, src1); \
    }
#define PTO_DETAIL_BINARY_RUN_Plain(entry, Precision) [](const Call& c) { entry(c.dst(), c.src(0), c.src(1)); }
#define PTO_DETAIL_BINARY_RUN_WithPrecision(entry, Precision) \
    [](const Call& c) { entry(c.dst(), c.src(0), c.src(1), c.attribute<Precision>(0)); }
#define PTO_DETAIL_BINARY_ATTRIBUTES_Plain std::span<const AttributeSpec>{}
#define PTO_DETAIL_BINARY_ATTRIBUTES_WithPrecision kPrecisionAttributes

#define PTO_ELEMENTWISE_BINARY(NAME, entry, Op, Shape, Precision, A2A3_DTYPES, A5_DTYPES)                   \
    PTO_DETAIL_BINARY_DEFINE_ENTRY_##Shape(NAME, entry, Op, Precision)                                            \
    constexpr InstrDef definitions::NAME{                                                                  \
        .id = Instr::NAME,                                                                                 \
        .mnemonic = #NAME,                                                                                 \
        .forms = kBinaryForms,                                                                             \
        .attributes = PTO_DETAIL_BINARY_ATTRIBUTES_##Shape,                                                \
        .pipe = vector_pipe,                                                                               \
        .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {                        \
            check_binary_operands(p, {"LEGAL_" #NAME "_DTYPE", rules::entry##_dtype_ok}, c.dst(), c.src(0), \
                                  c.src(1), sink);                                                         \
        },                                                                                                 \
        .run = PTO_DETAIL_BINARY_RUN_##Shape(entry, Precision),                                            \
    };
#include <pto/isa/instructions.def>
#undef PTO_ELEMENTWISE_BINARY
#undef PTO_DETAIL_BINARY_DEFINE_ENTRY_Plain
#undef PTO_DETAIL_BINARY_DEFINE_ENTRY_WithPrecision
#undef PTO_DETAIL_BINARY_RUN_Plain
#undef PTO_DETAIL_BINARY_RUN_WithPrecision
#undef PTO_DETAIL_BINARY_ATTRIBUTES_Plain
#undef PTO_DETAIL_BINARY_ATTRIBUTES_WithPrecision

}  // namespace pto::engine
