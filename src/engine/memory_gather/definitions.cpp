// The definitions of MGATHER and MSCATTER.
#include <pto/engine/ops/memory_gather.hpp>

#include "engine/definition.hpp"

namespace pto::engine {

namespace {

enum MgatherForm : std::size_t { kUbIndexForm, kL1Form };
enum MgatherAttribute : std::size_t { kGatherCoalesce, kGatherOob, kGatherExec };
enum MscatterAttribute : std::size_t { kScatterCoalesce, kScatterAtomic, kScatterOob, kScatterConflict };

// MGATHER: (table, UB index tile) -> UB tile, or (table, GM index[, GM scratch]) -> L1 tile.
constexpr OperandSpec kUbIndexSources[] = {{"table", OperandKind::View}, {"idx", OperandKind::Tile}};
constexpr OperandSpec kL1Sources[] = {
    {"table", OperandKind::View}, {"idx", OperandKind::View}, {"scratch", OperandKind::View, true}};
constexpr Form kMgatherForms[] = {{kUbIndexSources, kTileDst}, {kL1Sources, kTileDst}};

constexpr OperandSpec kScatterSources[] = {{"src", OperandKind::Tile}, {"idx", OperandKind::Tile}};
constexpr OperandSpec kTable[] = {{"table", OperandKind::View}};
constexpr Form kMscatterForms[] = {{kScatterSources, kTable}};

constexpr std::string_view kCoalesceKeys[] = {"coalesce"};
constexpr AttributeValue kCoalesceValues[] = {spelling("row", Coalesce::Row), spelling("elem", Coalesce::Elem)};
constexpr AttributeSpec kCoalesce{kCoalesceKeys, kCoalesceValues, int32_t(Coalesce::Row)};

constexpr std::string_view kGatherOobKeys[] = {"oob", "gatherOOB", "gather_oob"};
constexpr AttributeValue kGatherOobValues[] = {
    spelling("undefined", GatherOOB::Undefined), spelling("clamp", GatherOOB::Clamp),
    spelling("wrap", GatherOOB::Wrap), spelling("zero", GatherOOB::Zero)};
constexpr std::string_view kExecKeys[] = {"exec"};
constexpr AttributeValue kExecValues[] = {spelling("scalar", GatherExec::Scalar), spelling("simt", GatherExec::Simt)};
constexpr AttributeSpec kMgatherAttributes[] = {
    kCoalesce,
    {kGatherOobKeys, kGatherOobValues, int32_t(GatherOOB::Undefined)},
    {kExecKeys, kExecValues, int32_t(GatherExec::Scalar)},
};

constexpr std::string_view kAtomicKeys[] = {"atomic", "atomicOp", "atomic_op"};
constexpr AttributeValue kAtomicValues[] = {
    spelling("none", ScatterAtomicOp::None), spelling("add", ScatterAtomicOp::Add),
    spelling("max", ScatterAtomicOp::Max), spelling("min", ScatterAtomicOp::Min)};
constexpr std::string_view kScatterOobKeys[] = {"oob", "scatterOOB", "scatter_oob"};
constexpr AttributeValue kScatterOobValues[] = {
    spelling("undefined", ScatterOOB::Undefined), spelling("skip", ScatterOOB::Skip),
    spelling("clamp", ScatterOOB::Clamp), spelling("wrap", ScatterOOB::Wrap)};
constexpr std::string_view kConflictKeys[] = {"conflict"};
constexpr AttributeValue kConflictValues[] = {spelling("last", ScatterConflict::Last),
                                              spelling("default", ScatterConflict::Default)};
constexpr AttributeSpec kMscatterAttributes[] = {
    kCoalesce,
    {kAtomicKeys, kAtomicValues, int32_t(ScatterAtomicOp::None)},
    {kScatterOobKeys, kScatterOobValues, int32_t(ScatterOOB::Undefined)},
    {kConflictKeys, kConflictValues, int32_t(ScatterConflict::Last)},
};

// `pto.mgather.row` / `pto.mgather.elem` (and MSCATTER's) preset the coalescing mode.
constexpr Alias kMgatherAliases[] = {{"MGATHER_ROW", kGatherCoalesce, int32_t(Coalesce::Row)},
                                     {"MGATHER_ELEM", kGatherCoalesce, int32_t(Coalesce::Elem)}};
constexpr Alias kMscatterAliases[] = {{"MSCATTER_ROW", kScatterCoalesce, int32_t(Coalesce::Row)},
                                      {"MSCATTER_ELEM", kScatterCoalesce, int32_t(Coalesce::Elem)}};

const GlobalDesc* optional_view(const Call& c, std::size_t i) { return i < c.sources.size() ? c.sources[i].view : nullptr; }

void check_mgather_forms(const profile::Profile& p, const Call& c, LegalitySink& sink)
{
    const auto coalesce = c.attribute<Coalesce>(kGatherCoalesce);
    if (c.form == kUbIndexForm) return check_mgather(p, c.dst(), *c.sources[0].view, c.src(1), coalesce, sink);
    check_mgather_l1(p, c.dst(), *c.sources[0].view, *c.sources[1].view, optional_view(c, 2), coalesce,
                     c.attribute<GatherExec>(kGatherExec), sink);
}

void run_mgather(const Call& c)
{
    const auto coalesce = c.attribute<Coalesce>(kGatherCoalesce);
    const auto oob = c.attribute<GatherOOB>(kGatherOob);
    if (c.form == kUbIndexForm) return mgather(c.dst(), *c.sources[0].view, c.src(1), coalesce, oob);
    if (const GlobalDesc* scratch = optional_view(c, 2))
        return mgather_l1(c.dst(), *c.sources[0].view, *c.sources[1].view, *scratch, coalesce, oob,
                          c.attribute<GatherExec>(kGatherExec));
    mgather_l1(c.dst(), *c.sources[0].view, *c.sources[1].view, coalesce, oob);
}

}  // namespace

// MGATHER and MSCATTER run on V: the MGATHER page has callers treat it as a vector-pipe producer and
// consumer (its own internal flags are its business).
constexpr InstrDef definitions::MGATHER{
    .id = Instr::MGATHER,
    .mnemonic = "MGATHER",
    .forms = kMgatherForms,
    .attributes = kMgatherAttributes,
    .aliases = kMgatherAliases,
    .pipe = vector_pipe,
    .check = check_mgather_forms,
    .run = run_mgather,
};

constexpr InstrDef definitions::MSCATTER{
    .id = Instr::MSCATTER,
    .mnemonic = "MSCATTER",
    .forms = kMscatterForms,
    .attributes = kMscatterAttributes,
    .aliases = kMscatterAliases,
    .pipe = vector_pipe,
    .check =
        [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
            check_mscatter(p, *c.destinations[0].view, c.src(0), c.src(1), c.attribute<Coalesce>(kScatterCoalesce),
                           c.attribute<ScatterAtomicOp>(kScatterAtomic), sink);
        },
    .run =
        [](const Call& c) {
            mscatter(*c.destinations[0].view, c.src(0), c.src(1), c.attribute<Coalesce>(kScatterCoalesce),
                     c.attribute<ScatterAtomicOp>(kScatterAtomic), c.attribute<ScatterOOB>(kScatterOob),
                     c.attribute<ScatterConflict>(kScatterConflict));
        },
};

}  // namespace pto::engine
