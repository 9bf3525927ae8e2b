// SETTF32MODE and SETHF32MODE: the cube's float-32 multiply modes, kept in the calling core's registers.
// TMATMUL reads the TF32 one (input_transform.cpp).
#include <pto/engine/ops/matmul.hpp>
#include <pto/profile/rules_matmul.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>
#include <pto/runtime/registers.hpp>

#include "engine/definition.hpp"

namespace pto::engine {

namespace {

void check_tf32_mode(const profile::Profile& p, RoundMode mode, LegalitySink& sink)
{
    if (!rules::tf32_mode_ok(p, mode))
        report(sink, "LEGAL_SETTF32MODE_MODE", "mode", "a5 rounds to TF32 to nearest: CAST_ROUND (ties away) or CAST_RINT (ties to even)",
               "CAST_ROUND or CAST_RINT", std::to_string(int(mode)));
}

enum ModeAttribute : std::size_t { kEnable, kMode };
constexpr std::string_view kEnableKeys[] = {"enable", "isEnable"};
constexpr std::string_view kModeKeys[] = {"mode", "tf32TransMode", "hf32TransMode"};
constexpr AttributeSpec kModeAttributes[] = {
    {kEnableKeys, kBooleanValues, 1},
    {kModeKeys, kRoundModeValues, int32_t(RoundMode::CAST_ROUND)},
};
constexpr Form kNoOperands[] = {{{}, {}}};

}  // namespace

void settf32mode(bool enable, RoundMode mode)
{
    runtime::InstructionScope scope("SETTF32MODE");
    StopAtFirstFinding stop;
    check_tf32_mode(runtime::active_profile(), mode, stop);
    runtime::core_registers().tf32 = {enable, mode};
}

void sethf32mode(bool enable, RoundMode mode)
{
    runtime::InstructionScope scope("SETHF32MODE");
    runtime::core_registers().hf32 = {enable, mode};
}

constexpr InstrDef definitions::SETTF32MODE{
    .id = Instr::SETTF32MODE,
    .mnemonic = "SETTF32MODE",
    .forms = kNoOperands,
    .attributes = kModeAttributes,
    .pipe = scalar_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) { check_tf32_mode(p, c.attribute<RoundMode>(kMode), sink); },
    .run = [](const Call& c) { settf32mode(c.attributes[kEnable] != 0, c.attribute<RoundMode>(kMode)); },
};

constexpr InstrDef definitions::SETHF32MODE{
    .id = Instr::SETHF32MODE,
    .mnemonic = "SETHF32MODE",
    .forms = kNoOperands,
    .attributes = kModeAttributes,
    .pipe = scalar_pipe,
    .check = [](const profile::Profile&, const Call&, LegalitySink&) {},
    .run = [](const Call& c) { sethf32mode(c.attributes[kEnable] != 0, c.attribute<RoundMode>(kMode)); },
};

}  // namespace pto::engine
