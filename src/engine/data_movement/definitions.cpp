// The definitions of TASSIGN, TLOAD, TPREFETCH, TSTORE, TSTORE_FP, TMOV, TMOV_FP, TEXTRACT, TEXTRACT_FP,
// TINSERT and TINSERT_FP.
#include <pto/engine/ops/data_movement.hpp>
#include <pto/runtime/memory.hpp>

#include <bit>
#include <optional>

#include "engine/data_movement/conv_window.hpp"
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
// TLOAD and TSTORE also move a convolution tile (no atomics, no ReLU, no quantization).
constexpr OperandSpec kConvDst[] = {{"dst", OperandKind::ConvTile}};
constexpr OperandSpec kConvSrc[] = {{"src", OperandKind::ConvTile}};
constexpr Form kTloadConvForms[] = {{kView, kTileDst}, {kView, kConvDst}};
// The quantizing forms out of an accumulator take a pre-quant scalar (TSTORE, TMOV) or a table (TMOV_FP);
// TMOV's form with a second tile is the ZZ exponent repack, whose tmp it is.
constexpr OperandSpec kSourceAndPreQuant[] = {{"src", OperandKind::Tile}, {"pre_quant_scalar", OperandKind::Scalar}};
constexpr OperandSpec kSourceAndTmp[] = {{"src", OperandKind::Tile}, {"tmp", OperandKind::Tile}};
constexpr OperandSpec kSourceAndTable[] = {{"src", OperandKind::Tile}, {"fp", OperandKind::Tile}};
constexpr Form kTstoreForms[] = {{kTileSrc, kViewDst}, {kSourceAndPreQuant, kViewDst}, {kConvSrc, kViewDst}};
constexpr Form kTstoreFpForms[] = {{kSourceAndTable, kViewDst}};
enum MoveForm : std::size_t { kPlainMove, kQuantizingMove, kZzRepack };
constexpr Form kTmovForms[] = {{kTileSrc, kTileDst}, {kSourceAndPreQuant, kTileDst}, {kSourceAndTmp, kTileDst}};
constexpr Form kTmovFpForms[] = {{kSourceAndTable, kTileDst}};

constexpr std::string_view kAtomicKeys[] = {"atomic", "atomicType", "atomic_type"};
constexpr AttributeValue kAtomicValues[] = {
    spelling("none", AtomicType::AtomicNone),      spelling("atomicnone", AtomicType::AtomicNone),
    spelling("atomic_none", AtomicType::AtomicNone), spelling("add", AtomicType::AtomicAdd),
    spelling("atomicadd", AtomicType::AtomicAdd),  spelling("atomic_add", AtomicType::AtomicAdd),
};

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
constexpr std::string_view kGrpAxisKeys[] = {"grp_axis", "grpAxis"};
enum TstoreAttribute : std::size_t { kAtomic, kStoreRelu };
constexpr AttributeSpec kTstoreAttributes[] = {{kAtomicKeys, kAtomicValues, int32_t(AtomicType::AtomicNone)},
                                               {kReluKeys, kReluValues, int32_t(ReluPreMode::NoRelu)}};
enum TmovAttribute : std::size_t { kRelu, kSplit, kGrpAxis };
constexpr AttributeSpec kTmovAttributes[] = {{kReluKeys, kReluValues, int32_t(ReluPreMode::NoRelu)},
                                             {kSplitKeys, kSplitValues, int32_t(AccToVecMode::SingleModeVec0)},
                                             {kGrpAxisKeys, {}, 1}};

constexpr AttributeSpec kTmovFpAttributes[] = {kTmovAttributes[kRelu], kTmovAttributes[kSplit]};

// The pre-quant scalar of a text call: an integer is the word the C++ uint64_t carries; a float is
// taken as the f32 scale itself.
AccQuantization scalar_quantization(const Call& c)
{
    if (c.verifying) return {};
    const ScalarValue& v = *c.sources[1].scalar;
    return {.scalar = v.is_float ? std::bit_cast<uint32_t>(float(v.f)) : uint64_t(v.i)};
}

void check_tmov_call(const profile::Profile& p, const Call& c, LegalitySink& sink)
{
    const auto relu = c.attribute<ReluPreMode>(kRelu);
    const auto mode = c.attribute<AccToVecMode>(kSplit);
    if (c.form == kZzRepack) return check_tmov_zz(p, c.dst(), c.src(0), c.src(1), c.attributes[kGrpAxis], sink);
    const AccQuantization quant = c.form == kQuantizingMove ? scalar_quantization(c) : AccQuantization{};
    check_tmov(p, c.dst(), c.src(0), relu, mode, sink, c.form == kQuantizingMove ? &quant : nullptr);
}

void run_tmov_call(const Call& c)
{
    const auto relu = c.attribute<ReluPreMode>(kRelu);
    const auto mode = c.attribute<AccToVecMode>(kSplit);
    switch (c.form) {
        case kPlainMove: return tmov(c.dst(), c.src(0), relu, mode);
        case kQuantizingMove: return tmov(c.dst(), c.src(0), scalar_quantization(c), relu, mode);
        default: return tmov_zz(c.dst(), c.src(0), c.src(1), c.attributes[kGrpAxis]);
    }
}

// TEXTRACT and TINSERT: TMOV's operands and attributes with the window's start (row, col) after them (0, 0
// when left out); TEXTRACT's two-destination form cuts two windows out of one source. TINSERT's
// insert_mode selects the split insertion (TInsertMode).
constexpr OperandSpec kSourceAt[] = {{"src", OperandKind::Tile}, {"row", OperandKind::Scalar}, {"col", OperandKind::Scalar}};
constexpr OperandSpec kSourceAndPreQuantAt[] = {{"src", OperandKind::Tile},
                                                {"pre_quant_scalar", OperandKind::Scalar},
                                                {"row", OperandKind::Scalar},
                                                {"col", OperandKind::Scalar}};
constexpr OperandSpec kSourceAndTableAt[] = {
    {"src", OperandKind::Tile}, {"fp", OperandKind::Tile}, {"row", OperandKind::Scalar}, {"col", OperandKind::Scalar}};
constexpr OperandSpec kSourceAtTwice[] = {{"src", OperandKind::Tile},  {"row0", OperandKind::Scalar},
                                          {"col0", OperandKind::Scalar}, {"row1", OperandKind::Scalar},
                                          {"col1", OperandKind::Scalar}};
constexpr OperandSpec kTwoTileDsts[] = {{"dst0", OperandKind::Tile}, {"dst1", OperandKind::Tile}};
// A convolution tile's window: its FRACTAL_Z weights into a Right tile.
constexpr OperandSpec kConvSourceAt[] = {{"src", OperandKind::ConvTile}, {"row", OperandKind::Scalar}, {"col", OperandKind::Scalar}};
enum WindowForm : std::size_t { kWholeWindow, kWindowAt, kQuantizedWindowAt, kTwoWindows };
constexpr Form kTextractForms[] = {{kTileSrc, kTileDst},
                                   {kSourceAt, kTileDst},
                                   {kSourceAndPreQuantAt, kTileDst},
                                   {kSourceAtTwice, kTwoTileDsts},
                                   {kConvSrc, kTileDst},
                                   {kConvSourceAt, kTileDst}};
constexpr Form kTinsertForms[] = {{kTileSrc, kTileDst}, {kSourceAt, kTileDst}, {kSourceAndPreQuantAt, kTileDst}};
constexpr Form kWindowFpForms[] = {{kSourceAndTableAt, kTileDst}};

constexpr std::string_view kInsertModeKeys[] = {"insert_mode", "insertMode"};
constexpr AttributeValue kInsertModeValues[] = {
    {"none", 0}, spelling("split2", TInsertMode::SPLIT2), spelling("split4", TInsertMode::SPLIT4)};
enum WindowAttribute : std::size_t { kWindowRelu, kWindowSplit, kInsertMode };
constexpr AttributeSpec kWindowAttributes[] = {kTmovAttributes[kRelu], kTmovAttributes[kSplit],
                                               {kInsertModeKeys, kInsertModeValues, 0}};

// The window start at sources[first] and [first + 1]; null while verifying with an unknown value.
std::optional<WindowStart> window_start(const Call& c, std::size_t first)
{
    if (first + 1 >= c.sources.size()) return WindowStart{};
    const ScalarValue &row = *c.sources[first].scalar, &col = *c.sources[first + 1].scalar;
    if (c.verifying && !(row.known && col.known)) return std::nullopt;
    return WindowStart{row.i, col.i};
}

// The parts of a TEXTRACT / TINSERT call (and their _FP forms) beyond the two tiles.
struct WindowCall {
    ReluPreMode relu;
    AccToVecMode mode;
    std::optional<WindowStart> start = std::nullopt;
    std::optional<AccQuantization> quant = std::nullopt;
    std::optional<TInsertMode> insert_mode = std::nullopt;
};

WindowCall window_call(const Call& c)
{
    WindowCall w{.relu = c.attribute<ReluPreMode>(kWindowRelu), .mode = c.attribute<AccToVecMode>(kWindowSplit)};
    if (c.attributes.size() > kInsertMode && c.attributes[kInsertMode] != 0)
        w.insert_mode = c.attribute<TInsertMode>(kInsertMode);
    if (c.sources.size() > 1 && c.sources[1].tile) {
        w.quant = AccQuantization{.per_column = c.sources[1].tile};
        w.start = window_start(c, 2);
    } else if (c.form == kQuantizedWindowAt) {
        w.quant = scalar_quantization(c);
        w.start = window_start(c, 2);
    } else {
        w.start = window_start(c, 1);
    }
    return w;
}

const AccQuantization* quant_of(const WindowCall& w) { return w.quant ? &*w.quant : nullptr; }
const WindowStart* start_of(const std::optional<WindowStart>& s) { return s ? &*s : nullptr; }

void check_textract_call(const profile::Profile& p, const Call& c, LegalitySink& sink)
{
    const WindowCall w = window_call(c);
    if (const ConvTileDesc* weights = c.sources[0].conv) return check_textract(p, c.dst(), *weights, start_of(w.start), w.relu, w.mode, sink);
    check_textract(p, c.dst(), c.src(0), start_of(w.start), w.relu, w.mode, sink, quant_of(w));
    if (c.form == kTwoWindows)
        check_textract(p, c.dst(1), c.src(0), start_of(window_start(c, 3)), w.relu, w.mode, sink, quant_of(w));
}

void run_textract_call(const Call& c)
{
    const WindowCall w = window_call(c);
    if (const ConvTileDesc* weights = c.sources[0].conv) {
        // The C++ form has no ReLU or split mode: the text's attributes are checked before it runs.
        StopAtFirstFinding stop;
        check_textract_call(runtime::active_profile(), c, stop);
        return textract(c.dst(), *weights, *w.start);
    }
    textract(c.dst(), c.src(0), *w.start, w.relu, w.mode, quant_of(w));
    if (c.form == kTwoWindows) textract(c.dst(1), c.src(0), *window_start(c, 3), w.relu, w.mode, quant_of(w));
}

void check_tinsert_call(const profile::Profile& p, const Call& c, LegalitySink& sink)
{
    const WindowCall w = window_call(c);
    check_tinsert(p, c.dst(), c.src(0), start_of(w.start), w.relu, w.mode, sink, quant_of(w), w.insert_mode);
}

void run_tinsert_call(const Call& c)
{
    const WindowCall w = window_call(c);
    tinsert(c.dst(), c.src(0), *w.start, w.relu, w.mode, quant_of(w), w.insert_mode);
}

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

// A TSTORE or TSTORE_FP of a text call: its quantization, if any.
std::optional<AccQuantization> store_quantization(const Call& c)
{
    if (c.sources.size() < 2) return std::nullopt;
    if (c.sources[1].tile) return AccQuantization{.per_column = c.sources[1].tile};
    return scalar_quantization(c);
}

void check_tstore_call(const profile::Profile& p, const Call& c, LegalitySink& sink)
{
    if (const ConvTileDesc* conv = c.sources[0].conv) {
        check_conv_transfer(p, *conv, *c.destinations[0].view, false, sink);
        if (c.attribute<AtomicType>(kAtomic) != AtomicType::AtomicNone)
            report(sink, "LEGAL_TSTORE_ATOMIC", "dst", "a convolution tile store does not accumulate", "atomic none", "an atomic store");
        if (c.attribute<ReluPreMode>(kStoreRelu) != ReluPreMode::NoRelu)
            report(sink, "LEGAL_TSTORE_RELU", "src", "ReLU applies to an accumulator's store, not a convolution tile's", "no relu", "relu");
        return;
    }
    const std::optional<AccQuantization> quant = store_quantization(c);
    check_tstore(p, *c.destinations[0].view, c.src(0), c.attribute<AtomicType>(kAtomic), sink, quant ? &*quant : nullptr,
                 c.attribute<ReluPreMode>(kStoreRelu));
}

void run_tstore_call(const Call& c)
{
    const GlobalDesc& dst = *c.destinations[0].view;
    if (const ConvTileDesc* conv = c.sources[0].conv) {
        StopAtFirstFinding stop;
        check_tstore_call(runtime::active_profile(), c, stop);
        return tstore(dst, *conv);
    }
    const auto atomic = c.attribute<AtomicType>(kAtomic);
    const auto relu = c.attribute<ReluPreMode>(kStoreRelu);
    if (const std::optional<AccQuantization> quant = store_quantization(c)) return tstore(dst, c.src(0), *quant, relu, atomic);
    tstore(dst, c.src(0), atomic, relu);
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
    .forms = kTloadConvForms,
    .pipe = [](TileType, TileType) { return PIPE_MTE2; },
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
        if (const ConvTileDesc* conv = c.destinations[0].conv) return check_conv_transfer(p, *conv, *c.sources[0].view, true, sink);
        check_tload(p, c.dst(), *c.sources[0].view, sink);
    },
    .run = [](const Call& c) {
        if (const ConvTileDesc* conv = c.destinations[0].conv) return tload(*conv, *c.sources[0].view);
        tload(c.dst(), *c.sources[0].view);
    },
};

constexpr InstrDef definitions::TPREFETCH{
    .id = Instr::TPREFETCH,
    .mnemonic = "TPREFETCH",
    .forms = kTloadForms,
    .pipe = [](TileType, TileType) { return PIPE_MTE2; },
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) { check_tload(p, c.dst(), *c.sources[0].view, sink); },
    .run = [](const Call& c) { tprefetch(c.dst(), *c.sources[0].view); },
};

constexpr InstrDef definitions::TSTORE{
    .id = Instr::TSTORE,
    .mnemonic = "TSTORE",
    .forms = kTstoreForms,
    .attributes = kTstoreAttributes,
    .pipe = tstore_pipe,
    .check = check_tstore_call,
    .run = run_tstore_call,
};

// TSTORE_FP (pto.tstore.fp): TSTORE out of an accumulator, quantized per column by the table fp.
constexpr InstrDef definitions::TSTORE_FP{
    .id = Instr::TSTORE_FP,
    .mnemonic = "TSTORE_FP",
    .forms = kTstoreFpForms,
    .attributes = kTstoreAttributes,
    .pipe = tstore_pipe,
    .check = check_tstore_call,
    .run = run_tstore_call,
};

constexpr InstrDef definitions::TMOV{
    .id = Instr::TMOV,
    .mnemonic = "TMOV",
    .forms = kTmovForms,
    .attributes = kTmovAttributes,
    .pipe = tmov_pipe,
    .check = check_tmov_call,
    .run = run_tmov_call,
};

// TMOV_FP (pto.tmov.fp): TMOV out of an accumulator, quantized per column by the table fp.
constexpr InstrDef definitions::TMOV_FP{
    .id = Instr::TMOV_FP,
    .mnemonic = "TMOV_FP",
    .forms = kTmovFpForms,
    .attributes = kTmovFpAttributes,
    .pipe = tmov_pipe,
    .check =
        [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
            const AccQuantization quant{.per_column = &c.src(1)};
            check_tmov(p, c.dst(), c.src(0), c.attribute<ReluPreMode>(kRelu), c.attribute<AccToVecMode>(kSplit), sink,
                       &quant);
        },
    .run =
        [](const Call& c) {
            tmov(c.dst(), c.src(0), AccQuantization{.per_column = &c.src(1)}, c.attribute<ReluPreMode>(kRelu),
                 c.attribute<AccToVecMode>(kSplit));
        },
};

constexpr InstrDef definitions::TEXTRACT{
    .id = Instr::TEXTRACT,
    .mnemonic = "TEXTRACT",
    .forms = kTextractForms,
    .attributes = std::span(kWindowAttributes).first(2),
    .pipe = tmov_pipe,
    .check = check_textract_call,
    .run = run_textract_call,
};

// TEXTRACT_FP (pto.textract_fp): TEXTRACT out of an accumulator, quantized per source column by fp.
constexpr InstrDef definitions::TEXTRACT_FP{
    .id = Instr::TEXTRACT_FP,
    .mnemonic = "TEXTRACT_FP",
    .forms = kWindowFpForms,
    .attributes = std::span(kWindowAttributes).first(2),
    .pipe = tmov_pipe,
    .check = check_textract_call,
    .run = run_textract_call,
};

constexpr InstrDef definitions::TINSERT{
    .id = Instr::TINSERT,
    .mnemonic = "TINSERT",
    .forms = kTinsertForms,
    .attributes = kWindowAttributes,
    .pipe = tmov_pipe,
    .check = check_tinsert_call,
    .run = run_tinsert_call,
};

// TINSERT_FP (pto.tinsert_fp): TINSERT out of an accumulator, quantized per source column by fp.
constexpr InstrDef definitions::TINSERT_FP{
    .id = Instr::TINSERT_FP,
    .mnemonic = "TINSERT_FP",
    .forms = kWindowFpForms,
    .attributes = std::span(kWindowAttributes).first(2),
    .pipe = tmov_pipe,
    .check = check_tinsert_call,
    .run = run_tinsert_call,
};

}  // namespace pto::engine
