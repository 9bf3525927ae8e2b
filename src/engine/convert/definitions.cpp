// The definition of TCVT.
#include <pto/engine/ops/convert.hpp>
#include <pto/numeric/convert.hpp>

#include "engine/definition.hpp"

namespace pto::engine {

namespace {

enum TcvtAttribute : std::size_t { kRoundMode, kSaturation };

// `tmp` is accepted as the C++ form has it, and not touched.
constexpr OperandSpec kTcvtSources[] = {{"src", OperandKind::Tile}, {"tmp", OperandKind::Tile, true}};
constexpr Form kTcvtForms[] = {{kTcvtSources, kTileDst}};

constexpr std::string_view kRoundKeys[] = {"rmode", "roundMode", "round_mode"};
// Without `sat`, the pair's documented default (numeric::default_saturation).
constexpr int32_t kPairDefault = -1;
constexpr std::string_view kSaturationKeys[] = {"sat", "satMode", "sat_mode", "saturation"};
constexpr AttributeValue kSaturationValues[] = {spelling("on", SaturationMode::ON), spelling("off", SaturationMode::OFF)};
constexpr AttributeSpec kTcvtAttributes[] = {
    {kRoundKeys, kRoundModeValues, int32_t(RoundMode::CAST_RINT)},
    {kSaturationKeys, kSaturationValues, kPairDefault},
};

SaturationMode saturation_of(const Call& c)
{
    const int32_t sat = c.attributes[kSaturation];
    return sat == kPairDefault ? numeric::default_saturation(c.dst().dtype, c.src(0).dtype) : SaturationMode(sat);
}

}  // namespace

constexpr InstrDef definitions::TCVT{
    .id = Instr::TCVT,
    .mnemonic = "TCVT",
    .forms = kTcvtForms,
    .attributes = kTcvtAttributes,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) { check_tcvt(p, c.dst(), c.src(0), sink); },
    .run = [](const Call& c) { tcvt(c.dst(), c.src(0), c.attribute<RoundMode>(kRoundMode), saturation_of(c)); },
};

}  // namespace pto::engine
