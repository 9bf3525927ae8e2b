// The definitions of TROWSUM TROWMAX TROWMIN TROWPROD TCOLSUM TCOLMAX TCOLMIN TCOLPROD and TROWARGMAX
// TROWARGMIN TCOLARGMAX TCOLARGMIN.
#include <pto/engine/ops/reduce.hpp>

#include "engine/definition.hpp"

namespace pto::engine {

namespace {

// `tmp` is accepted where the C++ form has it (the text may leave it out), and never touched.
constexpr OperandSpec kSourceAndTmp[] = {{"src", OperandKind::Tile}, {"tmp", OperandKind::Tile, true}};
constexpr Form kWithTmpForms[] = {{kSourceAndTmp, kTileDst}};
constexpr Form kSourceForms[] = {{kTileSrc, kTileDst}};

constexpr std::string_view kBinaryKeys[] = {"isBinary", "is_binary"};
constexpr AttributeSpec kTcolsumAttributes[] = {{kBinaryKeys, kBooleanValues, 0}};

template <ReduceOp kOp>
constexpr auto kRowCheck = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
    check_row_reduce(p, kOp, c.dst(), c.src(0), sink);
};

template <ReduceOp kOp>
constexpr auto kColCheck = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
    check_col_reduce(p, kOp, c.dst(), c.src(0), c.optional_src(1), kOp == ReduceOp::Sum && c.attributes[0] != 0, sink);
};

// The searches write the indices, or the values and the indices (in the C++ order: dstVal, dstIdx).
constexpr OperandSpec kIndex[] = {{"dst_idx", OperandKind::Tile}};
constexpr OperandSpec kValueAndIndex[] = {{"dst_val", OperandKind::Tile}, {"dst_idx", OperandKind::Tile}};
constexpr Form kArgForms[] = {{kSourceAndTmp, kIndex}, {kSourceAndTmp, kValueAndIndex}};

const TileDesc* value_of(const Call& c) { return c.form == 1 ? &c.dst(0) : nullptr; }
const TileDesc& index_of(const Call& c) { return c.dst(c.form == 1 ? 1 : 0); }

template <ReduceOp kOp, bool kRows>
constexpr InstrDef arg_reduction(Instr id, std::string_view mnemonic)
{
    return {.id = id,
            .mnemonic = mnemonic,
            .forms = kArgForms,
            .pipe = vector_pipe,
            .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
                check_arg_reduce(p, kOp, kRows, index_of(c), value_of(c), c.src(0), c.optional_src(1), sink);
            },
            .run = [](const Call& c) { targ_reduce(kOp, kRows, index_of(c), value_of(c), c.src(0), c.optional_src(1)); }};
}

}  // namespace

constexpr InstrDef definitions::TROWARGMAX = arg_reduction<ReduceOp::Max, true>(Instr::TROWARGMAX, "TROWARGMAX");
constexpr InstrDef definitions::TROWARGMIN = arg_reduction<ReduceOp::Min, true>(Instr::TROWARGMIN, "TROWARGMIN");
constexpr InstrDef definitions::TCOLARGMAX = arg_reduction<ReduceOp::Max, false>(Instr::TCOLARGMAX, "TCOLARGMAX");
constexpr InstrDef definitions::TCOLARGMIN = arg_reduction<ReduceOp::Min, false>(Instr::TCOLARGMIN, "TCOLARGMIN");

constexpr InstrDef definitions::TROWSUM{
    .id = Instr::TROWSUM,
    .mnemonic = "TROWSUM",
    .forms = kWithTmpForms,
    .pipe = vector_pipe,
    .check = kRowCheck<ReduceOp::Sum>,
    .run = [](const Call& c) { trowsum(c.dst(), c.src(0), c.optional_src(1)); },
};

constexpr InstrDef definitions::TROWMAX{
    .id = Instr::TROWMAX,
    .mnemonic = "TROWMAX",
    .forms = kWithTmpForms,
    .pipe = vector_pipe,
    .check = kRowCheck<ReduceOp::Max>,
    .run = [](const Call& c) { trowmax(c.dst(), c.src(0), c.optional_src(1)); },
};

constexpr InstrDef definitions::TROWMIN{
    .id = Instr::TROWMIN,
    .mnemonic = "TROWMIN",
    .forms = kWithTmpForms,
    .pipe = vector_pipe,
    .check = kRowCheck<ReduceOp::Min>,
    .run = [](const Call& c) { trowmin(c.dst(), c.src(0), c.optional_src(1)); },
};

constexpr InstrDef definitions::TROWPROD{
    .id = Instr::TROWPROD,
    .mnemonic = "TROWPROD",
    .forms = kWithTmpForms,
    .pipe = vector_pipe,
    .check = kRowCheck<ReduceOp::Prod>,
    .run = [](const Call& c) { trowprod(c.dst(), c.src(0), c.optional_src(1)); },
};

constexpr InstrDef definitions::TCOLSUM{
    .id = Instr::TCOLSUM,
    .mnemonic = "TCOLSUM",
    .forms = kWithTmpForms,
    .attributes = kTcolsumAttributes,
    .pipe = vector_pipe,
    .check = kColCheck<ReduceOp::Sum>,
    .run = [](const Call& c) { tcolsum(c.dst(), c.src(0), c.optional_src(1), c.attributes[0] != 0); },
};

constexpr InstrDef definitions::TCOLMAX{
    .id = Instr::TCOLMAX,
    .mnemonic = "TCOLMAX",
    .forms = kSourceForms,
    .pipe = vector_pipe,
    .check = kColCheck<ReduceOp::Max>,
    .run = [](const Call& c) { tcolmax(c.dst(), c.src(0)); },
};

constexpr InstrDef definitions::TCOLMIN{
    .id = Instr::TCOLMIN,
    .mnemonic = "TCOLMIN",
    .forms = kSourceForms,
    .pipe = vector_pipe,
    .check = kColCheck<ReduceOp::Min>,
    .run = [](const Call& c) { tcolmin(c.dst(), c.src(0)); },
};

constexpr InstrDef definitions::TCOLPROD{
    .id = Instr::TCOLPROD,
    .mnemonic = "TCOLPROD",
    .forms = kSourceForms,
    .pipe = vector_pipe,
    .check = kColCheck<ReduceOp::Prod>,
    .run = [](const Call& c) { tcolprod(c.dst(), c.src(0)); },
};

}  // namespace pto::engine
