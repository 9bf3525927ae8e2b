// The definition of TCOLEXPAND.
#include <pto/engine/ops/col_expand.hpp>

#include "engine/definition.hpp"

namespace pto::engine {

namespace {

constexpr Form kTcolexpandForms[] = {{kTileSrc, kTileDst}};

}  // namespace

constexpr InstrDef definitions::TCOLEXPAND{
    .id = Instr::TCOLEXPAND,
    .mnemonic = "TCOLEXPAND",
    .forms = kTcolexpandForms,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) { check_tcolexpand(p, c.dst(), c.src(0), sink); },
    .run = [](const Call& c) { tcolexpand(c.dst(), c.src(0)); },
};

}  // namespace pto::engine
