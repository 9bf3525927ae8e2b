// The definition of TSORT32.
#include <pto/engine/ops/sort.hpp>

#include "engine/definition.hpp"

namespace pto::engine {

namespace {

constexpr OperandSpec kSortSources[] = {
    {"src", OperandKind::Tile}, {"idx", OperandKind::Tile}, {"tmp", OperandKind::Tile, true}};
constexpr Form kTsort32Forms[] = {{kSortSources, kTileDst}};

}  // namespace

constexpr InstrDef definitions::TSORT32{
    .id = Instr::TSORT32,
    .mnemonic = "TSORT32",
    .forms = kTsort32Forms,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c,
                LegalitySink& sink) { check_tsort32(p, c.dst(), c.src(0), c.src(1), c.optional_src(2), sink); },
    .run = [](const Call& c) { tsort32(c.dst(), c.src(0), c.src(1), c.optional_src(2)); },
};

}  // namespace pto::engine
