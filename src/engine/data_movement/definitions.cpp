// The definitions of TASSIGN, TLOAD, TSTORE and TMOV.
#include <pto/engine/ops/data_movement.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/definition.hpp"

namespace pto::engine {

namespace {

// TASSIGN binds a tile to a byte offset of its memory. The text writes it `tassign %tile, %offset`
// (`ins(%offset) outs(%tile)`), or with both as sources.
constexpr OperandSpec kOffset[] = {{"offset", OperandKind::Scalar}};
constexpr OperandSpec kTileThenOffset[] = {{"tile", OperandKind::Tile}, {"offset", OperandKind::Scalar}};
constexpr OperandSpec kAssigned[] = {{"tile", OperandKind::Tile}};
constexpr Form kTassignForms[] = {{kOffset, kAssigned}, {kTileThenOffset, {}}};

void run_tassign(const Call& call)
{
    const bool tile_is_destination = call.form == 0;
    TileDesc& tile = tile_is_destination ? *call.destinations[0].tile : *call.sources[0].tile;
    const ScalarValue& offset = *call.sources[tile_is_destination ? 0 : 1].scalar;
    tile.data = runtime::tile_address(tile.loc, uint64_t(offset.i), uint64_t(tile.bytes()));
}

constexpr OperandSpec kView[] = {{"src", OperandKind::View}};
constexpr OperandSpec kViewDst[] = {{"dst", OperandKind::View}};
constexpr Form kTloadForms[] = {{kView, kTileDst}};
constexpr Form kTstoreForms[] = {{kTileSrc, kViewDst}};
constexpr Form kTmovForms[] = {{kTileSrc, kTileDst}};

constexpr std::string_view kAtomicKeys[] = {"atomic", "atomicType", "atomic_type"};
constexpr AttributeValue kAtomicValues[] = {
    spelling("none", AtomicType::AtomicNone),      spelling("atomicnone", AtomicType::AtomicNone),
    spelling("atomic_none", AtomicType::AtomicNone), spelling("add", AtomicType::AtomicAdd),
    spelling("atomicadd", AtomicType::AtomicAdd),  spelling("atomic_add", AtomicType::AtomicAdd),
};
constexpr AttributeSpec kTstoreAttributes[] = {{kAtomicKeys, kAtomicValues, int32_t(AtomicType::AtomicNone)}};

constexpr std::string_view kReluKeys[] = {"relu", "reluMode", "relu_mode"};
constexpr AttributeValue kReluValues[] = {
    spelling("norelu", ReluPreMode::NoRelu),         spelling("no_relu", ReluPreMode::NoRelu),
    spelling("none", ReluPreMode::NoRelu),           spelling("normalrelu", ReluPreMode::NormalRelu),
    spelling("normal_relu", ReluPreMode::NormalRelu), spelling("relu", ReluPreMode::NormalRelu),
};
constexpr std::string_view kSplitKeys[] = {"mode", "accToVecMode", "acc_to_vec_mode"};
constexpr AttributeValue kSplitValues[] = {
    spelling("singlemodevec0", AccToVecMode::SingleModeVec0), spelling("singlemodevec1", AccToVecMode::SingleModeVec1),
    spelling("dualmodesplitm", AccToVecMode::DualModeSplitM), spelling("dualmodesplitn", AccToVecMode::DualModeSplitN),
};
constexpr AttributeSpec kTmovAttributes[] = {{kReluKeys, kReluValues, int32_t(ReluPreMode::NoRelu)},
                                             {kSplitKeys, kSplitValues, int32_t(AccToVecMode::SingleModeVec0)}};

// TSTORE from an accumulator drains through the fixpipe; from Vec or Mat through MTE3.
constexpr pipe_t tstore_pipe(TileType src, TileType) { return src == TileType::Acc ? PIPE_FIX : PIPE_MTE3; }

constexpr pipe_t tmov_pipe(TileType src, TileType dst)
{
    if (src == TileType::Acc) return PIPE_FIX;
    if (src == TileType::Vec) return dst == TileType::Vec ? PIPE_V : PIPE_FIX;
    // Mat -> Scaling feeds the fixpipe; Mat -> Left/Right/Bias and the MX scale buffers beside L0A/L0B
    // go through MTE1.
    return dst == TileType::Scaling ? PIPE_FIX : PIPE_MTE1;
}

}  // namespace

constexpr InstrDef definitions::TASSIGN{
    .id = Instr::TASSIGN,
    .mnemonic = "TASSIGN",
    .forms = kTassignForms,
    .pipe = scalar_pipe,  // binds an address: scalar work, no data access
    .check = [](const profile::Profile&, const Call&, LegalitySink&) {},  // the tile's own rules cover it
    .run = run_tassign,
};

constexpr InstrDef definitions::TLOAD{
    .id = Instr::TLOAD,
    .mnemonic = "TLOAD",
    .forms = kTloadForms,
    .pipe = [](TileType, TileType) { return PIPE_MTE2; },
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) { check_tload(p, c.dst(), *c.sources[0].view, sink); },
    .run = [](const Call& c) { tload(c.dst(), *c.sources[0].view); },
};

constexpr InstrDef definitions::TSTORE{
    .id = Instr::TSTORE,
    .mnemonic = "TSTORE",
    .forms = kTstoreForms,
    .attributes = kTstoreAttributes,
    .pipe = tstore_pipe,
    .check =
        [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
            check_tstore(p, *c.destinations[0].view, c.src(0), c.attribute<AtomicType>(0), sink);
        },
    .run = [](const Call& c) { tstore(*c.destinations[0].view, c.src(0), c.attribute<AtomicType>(0)); },
};

constexpr InstrDef definitions::TMOV{
    .id = Instr::TMOV,
    .mnemonic = "TMOV",
    .forms = kTmovForms,
    .attributes = kTmovAttributes,
    .pipe = tmov_pipe,
    .check =
        [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
            check_tmov(p, c.dst(), c.src(0), c.attribute<ReluPreMode>(0), c.attribute<AccToVecMode>(1), sink);
        },
    .run = [](const Call& c) { tmov(c.dst(), c.src(0), c.attribute<ReluPreMode>(0), c.attribute<AccToVecMode>(1)); },
};

}  // namespace pto::engine
