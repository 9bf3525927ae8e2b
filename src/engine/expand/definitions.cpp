// The definitions of TROWEXPAND and the broadcast binary instructions.
#include <pto/engine/ops/expand.hpp>

#include "engine/definition.hpp"

namespace pto::engine {

namespace {

constexpr OperandSpec kRowSources[] = {{"src0", OperandKind::Tile}, {"src1", OperandKind::Tile}, {"tmp", OperandKind::Tile, true}};
constexpr OperandSpec kColSources[] = {{"src0", OperandKind::Tile}, {"src1", OperandKind::Tile}};
constexpr Form kRowForms[] = {{kRowSources, kTileDst}};
constexpr Form kColForms[] = {{kColSources, kTileDst}};
constexpr Form kTrowexpandForms[] = {{kTileSrc, kTileDst}};

template <ExpandAxis Axis, ExpandOp Op>
constexpr auto kCheck = [](const profile::Profile& p, const Call& c, LegalitySink& sink) {
    check_broadcast_binary(p, Axis, Op, c.dst(), c.src(0), c.src(1), c.optional_src(2), sink);
};
template <ExpandAxis Axis, ExpandOp Op>
constexpr auto kRun = [](const Call& c) { broadcast_binary(Axis, Op, c.dst(), c.src(0), c.src(1), c.optional_src(2)); };

}  // namespace

// The DIV forms take the precision attribute of TDIV; every precision gives the correctly rounded
// quotient here.
#define PTO_BROADCAST_BINARY(NAME, AXIS, OP, ATTRIBUTES)                                                    \
    constexpr InstrDef definitions::NAME{                                                                  \
        .id = Instr::NAME,                                                                                 \
        .mnemonic = #NAME,                                                                                 \
        .forms = AXIS == ExpandAxis::Row ? std::span<const Form>(kRowForms) : std::span<const Form>(kColForms), \
        .attributes = ATTRIBUTES,                                                                          \
        .pipe = vector_pipe,                                                                               \
        .check = kCheck<AXIS, OP>,                                                                         \
        .run = kRun<AXIS, OP>,                                                                             \
    };
#define PTO_NO_ATTRIBUTES std::span<const AttributeSpec>{}
PTO_BROADCAST_BINARY(TROWEXPANDADD, ExpandAxis::Row, ExpandOp::Add, PTO_NO_ATTRIBUTES)
PTO_BROADCAST_BINARY(TROWEXPANDSUB, ExpandAxis::Row, ExpandOp::Sub, PTO_NO_ATTRIBUTES)
PTO_BROADCAST_BINARY(TROWEXPANDMUL, ExpandAxis::Row, ExpandOp::Mul, PTO_NO_ATTRIBUTES)
PTO_BROADCAST_BINARY(TROWEXPANDDIV, ExpandAxis::Row, ExpandOp::Div, kPrecisionAttributes)
PTO_BROADCAST_BINARY(TROWEXPANDMAX, ExpandAxis::Row, ExpandOp::Max, PTO_NO_ATTRIBUTES)
PTO_BROADCAST_BINARY(TROWEXPANDMIN, ExpandAxis::Row, ExpandOp::Min, PTO_NO_ATTRIBUTES)
PTO_BROADCAST_BINARY(TROWEXPANDEXPDIF, ExpandAxis::Row, ExpandOp::ExpDif, PTO_NO_ATTRIBUTES)
PTO_BROADCAST_BINARY(TCOLEXPANDADD, ExpandAxis::Col, ExpandOp::Add, PTO_NO_ATTRIBUTES)
PTO_BROADCAST_BINARY(TCOLEXPANDSUB, ExpandAxis::Col, ExpandOp::Sub, PTO_NO_ATTRIBUTES)
PTO_BROADCAST_BINARY(TCOLEXPANDMUL, ExpandAxis::Col, ExpandOp::Mul, PTO_NO_ATTRIBUTES)
PTO_BROADCAST_BINARY(TCOLEXPANDDIV, ExpandAxis::Col, ExpandOp::Div, kPrecisionAttributes)
PTO_BROADCAST_BINARY(TCOLEXPANDMAX, ExpandAxis::Col, ExpandOp::Max, PTO_NO_ATTRIBUTES)
PTO_BROADCAST_BINARY(TCOLEXPANDMIN, ExpandAxis::Col, ExpandOp::Min, PTO_NO_ATTRIBUTES)
PTO_BROADCAST_BINARY(TCOLEXPANDEXPDIF, ExpandAxis::Col, ExpandOp::ExpDif, PTO_NO_ATTRIBUTES)
#undef PTO_NO_ATTRIBUTES
#undef PTO_BROADCAST_BINARY

constexpr InstrDef definitions::TROWEXPAND{
    .id = Instr::TROWEXPAND,
    .mnemonic = "TROWEXPAND",
    .forms = kTrowexpandForms,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) { check_trowexpand(p, c.dst(), c.src(0), sink); },
    .run = [](const Call& c) { trowexpand(c.dst(), c.src(0)); },
};

}  // namespace pto::engine
