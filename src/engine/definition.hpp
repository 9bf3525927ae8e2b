// The definition of a tile instruction: everything both front doors need to know about it, stated once.
// The PTO-AS op table, the verifier's structural and legality checks, the interpreter's lowering and the
// pipe table are all read from these; include/pto/isa/instructions.def lists the instructions.
//
//   forms       the ways to call it: sources and destinations, in the order the text writes them
//   attributes  its modes, with every spelling the text may use and the default
//   pipe        the hardware pipe that executes it, from its operands' locations
//   check       its operand rules on a profile, reading descriptors only (no data), into a sink
//   run         the engine entry point, on operands bound to memory
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include <pto/common/event.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/instructions.hpp>
#include <pto/engine/legality.hpp>
#include <pto/profile/profile.hpp>

namespace pto::engine {

// ConvTile: a convolution tile (pto::ConvTile in C++, `!pto.conv_tile_buf` in text).
enum class OperandKind : uint8_t { Tile, View, Scalar, TileOrScalar, ConvTile };

struct OperandSpec {
    const char* name;  // as diagnostics name the operand: "src0", "indices"
    OperandKind kind;
    bool optional = false;  // a trailing source that may be left out
};

struct Form {
    std::span<const OperandSpec> sources;
    std::span<const OperandSpec> destinations;
    std::string_view required_attribute = {};  // an attribute this form cannot do without
};

// One accepted spelling of an enum-like attribute value, in lower case.
struct AttributeValue {
    std::string_view spelling;
    int32_t value;
};

struct AttributeSpec {
    std::span<const std::string_view> keys;   // every key the text may use; the first is canonical
    std::span<const AttributeValue> values;   // empty: an integer attribute
    int32_t default_value = 0;
    int32_t min = INT32_MIN, max = INT32_MAX;  // an integer attribute's range
};

// A scalar operand: its value as the program computed it (an integer or a float), or unknown when the
// verifier checks a program without running it.
struct ScalarValue {
    int64_t i = 0;
    double f = 0;
    bool is_float = false;
    bool known = false;

    double as_double() const { return is_float ? f : double(i); }
};

// One operand of a call: a tile (mutable: TASSIGN binds it), a global view, a scalar or a convolution
// tile; an optional source left out has none of them.
struct CallOperand {
    TileDesc* tile = nullptr;
    const GlobalDesc* view = nullptr;
    const ScalarValue* scalar = nullptr;
    const ConvTileDesc* conv = nullptr;
};

// The operands of one execution (or one verification) of an instruction, in the order of its form.
struct Call {
    std::size_t form = 0;  // index into the definition's forms
    std::span<CallOperand> sources;
    std::span<CallOperand> destinations;
    std::span<const int32_t> attributes;  // one per AttributeSpec, in order
    bool verifying = false;               // descriptors come from types: no data, extents may be unknown

    const TileDesc& src(std::size_t i) const { return *sources[i].tile; }
    const TileDesc& dst(std::size_t i = 0) const { return *destinations[i].tile; }
    const TileDesc* optional_src(std::size_t i) const { return i < sources.size() ? sources[i].tile : nullptr; }
    template <typename E>
    E attribute(std::size_t i) const
    {
        return static_cast<E>(attributes[i]);
    }
};

// A spelling of an enum value.
template <typename E>
constexpr AttributeValue spelling(std::string_view text, E value)
{
    return {text, static_cast<int32_t>(value)};
}

// The spellings of a boolean attribute (a bool template argument in C++).
inline constexpr AttributeValue kBooleanValues[] = {{"false", 0}, {"true", 1}};

// The spellings of a RoundMode attribute (TCVT's rmode, SETTF32MODE's mode).
inline constexpr AttributeValue kRoundModeValues[] = {
    spelling("cast_none", RoundMode::CAST_NONE),   spelling("none", RoundMode::CAST_NONE),
    spelling("cast_rint", RoundMode::CAST_RINT),   spelling("rint", RoundMode::CAST_RINT),
    spelling("cast_round", RoundMode::CAST_ROUND), spelling("round", RoundMode::CAST_ROUND),
    spelling("cast_floor", RoundMode::CAST_FLOOR), spelling("floor", RoundMode::CAST_FLOOR),
    spelling("cast_ceil", RoundMode::CAST_CEIL),   spelling("ceil", RoundMode::CAST_CEIL),
    spelling("cast_trunc", RoundMode::CAST_TRUNC), spelling("trunc", RoundMode::CAST_TRUNC),
    spelling("cast_odd", RoundMode::CAST_ODD),     spelling("odd", RoundMode::CAST_ODD),
};

// The precision (algorithm) attribute of the instructions whose C++ form has a PrecisionType template
// argument (DivAlgorithm, ExpAlgorithm, ...): DEFAULT 0, HIGH_PRECISION 1.
inline constexpr std::string_view kPrecisionKeys[] = {"precision", "algorithm", "precisionType"};
inline constexpr AttributeValue kPrecisionValues[] = {{"default", 0}, {"high_precision", 1}, {"high", 1}};
inline constexpr AttributeSpec kPrecisionAttributes[] = {{kPrecisionKeys, kPrecisionValues, 0}};

// Operand lists many definitions share.
inline constexpr OperandSpec kTileDst[] = {{"dst", OperandKind::Tile}};
inline constexpr OperandSpec kTileSrc[] = {{"src", OperandKind::Tile}};

// Another name for an instruction that presets one attribute (`pto.mgather.row` is MGATHER with
// coalesce = row).
struct Alias {
    std::string_view mnemonic;
    std::size_t attribute;
    int32_t value;
};

struct InstrDef {
    Instr id;
    std::string_view mnemonic;
    std::span<const Form> forms;
    std::span<const AttributeSpec> attributes = {};
    std::span<const Alias> aliases = {};
    // The pipe, from the locations of the first tile source and the first tile destination.
    pipe_t (*pipe)(TileType src, TileType dst) = nullptr;
    void (*check)(const profile::Profile& profile, const Call& call, LegalitySink& sink) = nullptr;
    void (*run)(const Call& call) = nullptr;
};

// The definition of each instruction, written in its family's src/engine/<family>/ sources.
namespace definitions {
#define PTO_INSTRUCTION(NAME) extern const InstrDef NAME;
#include <pto/isa/instructions.def>
#undef PTO_INSTRUCTION
}  // namespace definitions

// A scalar operand's value as the bits of element type `dtype` (pto/engine/descriptor.hpp's ScalarBits):
// floats rounded to nearest even, integers truncated to the type's width.
ScalarBits encode_scalar(DType dtype, const ScalarValue& value);

// Every definition, indexed by Instr.
std::span<const InstrDef* const> instruction_definitions();
const InstrDef& definition_of(Instr instr);

// The pipe of an instruction whose operands live at `src` and `dst`.
pipe_t instruction_pipe(Instr instr, TileType src, TileType dst);

// Pipe rules shared by many definitions.
constexpr pipe_t vector_pipe(TileType, TileType) { return PIPE_V; }
constexpr pipe_t scalar_pipe(TileType, TileType) { return PIPE_S; }

}  // namespace pto::engine
