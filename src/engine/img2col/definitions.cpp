// The definitions of TIMG2COL, SETFMATRIX, SET_IMG2COL_PADDING and SET_IMG2COL_RPT. In C++ the img2col
// configuration travels with the ConvTile; in text it is the operation's attributes (one list, shared by
// the four: each reads the fields its C++ form reads from the tile), the pad value a scalar operand.
#include <pto/engine/ops/img2col.hpp>

#include "engine/definition.hpp"

namespace pto::engine {

namespace {

enum Img2colAttribute : std::size_t {
    kMode,
    kFmapH,
    kFmapW,
    kPadLeft,
    kPadRight,
    kPadTop,
    kPadBottom,
    kFilterH,
    kFilterW,
    kStrideH,
    kStrideW,
    kDilationH,
    kDilationW,
    kChannelSize,
    kRepeatStride,
    kRepeatTime,
    kRepeatMode,
    kDstStride,
    kDstMPosition,
    kTranspose,
};

constexpr AttributeValue kModeValues[] = {
    spelling("fmatrix_a_manual", SetFmatrixMode::FMATRIX_A_MANUAL), spelling("a_manual", SetFmatrixMode::FMATRIX_A_MANUAL),
    spelling("fmatrix_b_manual", SetFmatrixMode::FMATRIX_B_MANUAL), spelling("b_manual", SetFmatrixMode::FMATRIX_B_MANUAL),
    spelling("fmatrix_a_auto", SetFmatrixMode::FMATRIX_A_AUTO),     spelling("a_auto", SetFmatrixMode::FMATRIX_A_AUTO),
    spelling("fmatrix_b_auto", SetFmatrixMode::FMATRIX_B_AUTO),     spelling("b_auto", SetFmatrixMode::FMATRIX_B_AUTO),
};

// The keys: snake case first, then the C++ accessor's name.
constexpr std::string_view kModeKeys[] = {"mode", "fmatrixMode"};
constexpr std::string_view kFmapHKeys[] = {"fmap_h", "fmapH"};
constexpr std::string_view kFmapWKeys[] = {"fmap_w", "fmapW"};
constexpr std::string_view kPadLeftKeys[] = {"pad_left", "padLeft"};
constexpr std::string_view kPadRightKeys[] = {"pad_right", "padRight"};
constexpr std::string_view kPadTopKeys[] = {"pad_top", "padTop"};
constexpr std::string_view kPadBottomKeys[] = {"pad_bottom", "padBottom"};
constexpr std::string_view kFilterHKeys[] = {"filter_h", "filterH"};
constexpr std::string_view kFilterWKeys[] = {"filter_w", "filterW"};
constexpr std::string_view kStrideHKeys[] = {"stride_h", "strideH"};
constexpr std::string_view kStrideWKeys[] = {"stride_w", "strideW"};
constexpr std::string_view kDilationHKeys[] = {"dilation_h", "dilationH"};
constexpr std::string_view kDilationWKeys[] = {"dilation_w", "dilationW"};
constexpr std::string_view kChannelSizeKeys[] = {"channel_size", "channelSize"};
constexpr std::string_view kRepeatStrideKeys[] = {"repeat_stride", "repeatStride"};
constexpr std::string_view kRepeatTimeKeys[] = {"repeat_time", "repeatTime"};
constexpr std::string_view kRepeatModeKeys[] = {"repeat_mode", "repeatMode"};
constexpr std::string_view kDstStrideKeys[] = {"dst_stride", "dstStride"};
constexpr std::string_view kDstMPositionKeys[] = {"dst_m_position", "dstMposition"};
constexpr std::string_view kTransposeKeys[] = {"transpose"};

// The fields' ranges are the widths of the C++ setters' parameters; a feature-map extent of -1 (the
// default) is src's own H or W.
constexpr int32_t kU8 = 0xFF, kU16 = 0xFFFF;
constexpr AttributeSpec kImg2colAttributes[] = {
    {kModeKeys, kModeValues, int32_t(SetFmatrixMode::FMATRIX_A_MANUAL)},
    {kFmapHKeys, {}, -1, -1, kU16},
    {kFmapWKeys, {}, -1, -1, kU16},
    {kPadLeftKeys, {}, 0, 0, kU8},
    {kPadRightKeys, {}, 0, 0, kU8},
    {kPadTopKeys, {}, 0, 0, kU8},
    {kPadBottomKeys, {}, 0, 0, kU8},
    {kFilterHKeys, {}, 1, 0, kU16},
    {kFilterWKeys, {}, 1, 0, kU16},
    {kStrideHKeys, {}, 1, 0, kU8},
    {kStrideWKeys, {}, 1, 0, kU8},
    {kDilationHKeys, {}, 1, 0, kU8},
    {kDilationWKeys, {}, 1, 0, kU8},
    {kChannelSizeKeys, {}, 0, 0, kU16},
    {kRepeatStrideKeys, {}, 0, 0, kU16},
    {kRepeatTimeKeys, {}, 1, 0, kU8},
    {kRepeatModeKeys, {}, 0, 0, kU8},
    {kDstStrideKeys, {}, 0, 0, kU16},
    {kDstMPositionKeys, {}, 0, 0, kU16},
    {kTransposeKeys, kBooleanValues, 0},
};

// The assembler's spellings (`pto.tsetfmatrix`, ...): another name each, presetting the default mode.
constexpr Alias kSetFmatrixAliases[] = {{"TSETFMATRIX", kMode, int32_t(SetFmatrixMode::FMATRIX_A_MANUAL)}};
constexpr Alias kPaddingAliases[] = {{"TSET_IMG2COL_PADDING", kMode, int32_t(SetFmatrixMode::FMATRIX_A_MANUAL)}};
constexpr Alias kRepeatAliases[] = {{"TSET_IMG2COL_RPT", kMode, int32_t(SetFmatrixMode::FMATRIX_A_MANUAL)}};

constexpr OperandSpec kTimg2colSources[] = {{"src", OperandKind::ConvTile},
                                            {"posM", OperandKind::Scalar, true},
                                            {"posK", OperandKind::Scalar, true},
                                            {"padValue", OperandKind::Scalar, true}};
constexpr Form kTimg2colForms[] = {{kTimg2colSources, kTileDst}};
constexpr OperandSpec kConvSource[] = {{"src", OperandKind::ConvTile}};
constexpr Form kConfigForms[] = {{kConvSource, {}}};
constexpr OperandSpec kPaddingSources[] = {{"src", OperandKind::ConvTile}, {"padValue", OperandKind::Scalar, true}};
constexpr Form kPaddingForms[] = {{kPaddingSources, {}}};

// The feature map's height and width: dimensions 3 and 4 of NDC1HWC0, 2 and 3 of NC1HWC0.
int64_t map_extent(const ConvTileDesc& src, int from_end) { return src.dims >= 3 ? src.shape[src.dims - from_end] : 0; }

// The configuration a call states, as a ConvTile would carry it; the pad value is the scalar source
// `pad_at` (0 when it is left out, or unknown while verifying).
Img2colConfig config_of(const Call& c, std::size_t pad_at)
{
    const ConvTileDesc& src = *c.sources[0].conv;
    auto field = [&](std::size_t i) { return c.attributes[i]; };
    Img2colConfig k;
    k.fmatrix.fmap_h = uint16_t(field(kFmapH) < 0 ? map_extent(src, 3) : field(kFmapH));
    k.fmatrix.fmap_w = uint16_t(field(kFmapW) < 0 ? map_extent(src, 2) : field(kFmapW));
    k.fmatrix.pad[0] = uint8_t(field(kPadLeft));
    k.fmatrix.pad[1] = uint8_t(field(kPadRight));
    k.fmatrix.pad[2] = uint8_t(field(kPadTop));
    k.fmatrix.pad[3] = uint8_t(field(kPadBottom));
    k.filter_h = uint16_t(field(kFilterH));
    k.filter_w = uint16_t(field(kFilterW));
    k.stride_h = uint16_t(field(kStrideH));
    k.stride_w = uint16_t(field(kStrideW));
    k.dilation_h = uint16_t(field(kDilationH));
    k.dilation_w = uint16_t(field(kDilationW));
    k.channel_size = uint16_t(field(kChannelSize));
    k.repeat = {uint16_t(field(kRepeatStride)), uint16_t(field(kRepeatTime)), uint16_t(field(kRepeatMode)),
                uint16_t(field(kDstStride)), uint16_t(field(kDstMPosition))};
    k.transpose = field(kTranspose) != 0;
    const ScalarValue* pad = pad_at < c.sources.size() ? c.sources[pad_at].scalar : nullptr;
    if (pad && pad->known) k.pad_value_bits = padding_register_bits(encode_scalar(src.dtype, *pad), dtype_bits(src.dtype) / 8);
    return k;
}

uint16_t position(const Call& c, std::size_t i)
{
    const ScalarValue* v = i < c.sources.size() ? c.sources[i].scalar : nullptr;
    return v ? uint16_t(v->i) : 0;
}

SetFmatrixMode mode_of(const Call& c) { return c.attribute<SetFmatrixMode>(kMode); }

void no_rules(const profile::Profile&, const Call&, LegalitySink&) {}

}  // namespace

constexpr InstrDef definitions::TIMG2COL{
    .id = Instr::TIMG2COL,
    .mnemonic = "TIMG2COL",
    .forms = kTimg2colForms,
    .attributes = kImg2colAttributes,
    .pipe = [](TileType, TileType) { return PIPE_MTE1; },  // L1 to L0A
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) { check_timg2col(p, c.dst(), *c.sources[0].conv, sink); },
    .run = [](const Call& c) { timg2col(c.dst(), *c.sources[0].conv, config_of(c, 3), mode_of(c), position(c, 1), position(c, 2)); },
};

constexpr InstrDef definitions::SETFMATRIX{
    .id = Instr::SETFMATRIX,
    .mnemonic = "SETFMATRIX",
    .forms = kConfigForms,
    .attributes = kImg2colAttributes,
    .aliases = kSetFmatrixAliases,
    .pipe = scalar_pipe,
    .check = no_rules,
    .run = [](const Call& c) { set_fmatrix(config_of(c, 1), mode_of(c)); },
};

constexpr InstrDef definitions::SET_IMG2COL_PADDING{
    .id = Instr::SET_IMG2COL_PADDING,
    .mnemonic = "SET_IMG2COL_PADDING",
    .forms = kPaddingForms,
    .attributes = kImg2colAttributes,
    .aliases = kPaddingAliases,
    .pipe = scalar_pipe,
    .check = no_rules,
    .run = [](const Call& c) { set_img2col_padding(config_of(c, 1), mode_of(c)); },
};

constexpr InstrDef definitions::SET_IMG2COL_RPT{
    .id = Instr::SET_IMG2COL_RPT,
    .mnemonic = "SET_IMG2COL_RPT",
    .forms = kConfigForms,
    .attributes = kImg2colAttributes,
    .aliases = kRepeatAliases,
    .pipe = scalar_pipe,
    .check = no_rules,
    .run = [](const Call& c) { set_img2col_repeat(config_of(c, 1), mode_of(c)); },
};

}  // namespace pto::engine
