// The element-wise instructions whose result has another element type than their sources: TADDRELUCONV,
// TSUBRELUCONV (relu(src0 +- src1) converted) and TADDDEQRELU (relu(half(scale * (src0 + src1))) from
// int32 sources). Their entry points, operand check and definitions.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/elementwise.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/profile/rules_elementwise.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <cmath>
#include <cstdint>
#include <string>

#include "engine/hold_back.hpp"
#include "engine/definition.hpp"
#include "engine/source_staging.hpp"

namespace pto::engine {

namespace {

// relu by the element-wise rule: NaN and -0 give +0.
double relu(double v) { return v > 0 ? v : 0.0; }

// dst(r, c) = result(src0 value, src1 value), each source value read exactly as a double and the result
// stored into dst's element type rounded to nearest even with `sat`.
template <typename Result>
void convert_each(const TileDesc& dst, const TileDesc& src0_tile, const TileDesc& src1_tile, SaturationMode sat,
                  Result result)
{
    require_written(src0_tile, "src0");
    require_written(src1_tile, "src1");
    const TileDesc src0 = readable_source(src0_tile, dst, 0), src1 = readable_source(src1_tile, dst, 1);
    for (int r = 0; r < dst.valid_rows; ++r)
        for (int c = 0; c < dst.valid_cols; ++c) {
            const double a = numeric::to_double(src0.dtype, src0.data, std::size_t(src0.offset(r, c)));
            const double b = numeric::to_double(src1.dtype, src1.data, std::size_t(src1.offset(r, c)));
            numeric::from_double(dst.dtype, dst.data, std::size_t(dst.offset(r, c)), result(a, b), RoundMode::CAST_RINT, sat);
        }
    mark_written(dst);
}

// The sum or difference in the source type's arithmetic: float for f32 (rounded) and f16 (exact in
// float, so one rounding at the conversion), exact for int16.
double combine(DType source, double a, double b, bool subtract)
{
    const double exact = subtract ? a - b : a + b;
    return source == DType::F32 ? double(subtract ? float(a) - float(b) : float(a) + float(b)) : exact;
}

// The rules every instruction of this file shares: Vec tiles, the profile's layouts, dst's valid shape.
void check_locations_and_shapes(const profile::Profile& p, const TileDesc& dst, const TileDesc& src0, const TileDesc& src1,
                                LegalitySink& sink)
{
    const std::pair<const TileDesc*, const char*> operands[] = {{&dst, "dst"}, {&src0, "src0"}, {&src1, "src1"}};
    for (const auto& [t, name] : operands) {
        if (!rules::elementwise_location_ok(t->loc))
            report(sink, "LEGAL_ELEMWISE_LOCATION", name, "element-wise instructions take tiles in UB only", "a Vec tile (UB)",
                   std::string(profile::location_name(t->loc)));
        if (!rules::elementwise_layout_ok(p, t->blayout, t->slayout))
            report(sink, "LEGAL_ELEMWISE_LAYOUT", name, "tile layout is not supported on the " + std::string(p.name) + " profile",
                   "row-major, unboxed", "another layout");
        if (t != &dst && all_known(t->valid_rows, t->valid_cols, dst.valid_rows, dst.valid_cols) &&
            (t->valid_rows != dst.valid_rows || t->valid_cols != dst.valid_cols))
            report(sink, "RUN_VALID_SHAPE", name, "valid shape differs from dst's", extent_text(dst.valid_rows, dst.valid_cols),
                   extent_text(t->valid_rows, t->valid_cols));
    }
}

void check_relu_conversion(const profile::Profile& p, const char* code, const TileDesc& dst, const TileDesc& src0,
                           const TileDesc& src1, LegalitySink& sink)
{
    if (!rules::relu_conversion_pair_ok(dst.dtype, src0.dtype) || src1.dtype != src0.dtype)
        report(sink, code, "dst", "the converting add/sub takes f32 -> f16, f16 -> i8 or i16 -> i8 with one source type",
               "f32 -> f16, f16 -> i8, i16 -> i8",
               std::string(dtype_name(src0.dtype)) + ", " + std::string(dtype_name(src1.dtype)) + " -> " +
                   std::string(dtype_name(dst.dtype)));
    check_locations_and_shapes(p, dst, src0, src1, sink);
}

}  // namespace

void taddreluconv(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    PTO_HOLD_BACK("TADDRELUCONV", taddreluconv, dst, src0, src1);
    runtime::InstructionScope scope("TADDRELUCONV");
    StopAtFirstFinding stop;
    check_relu_conversion(runtime::active_profile(), "LEGAL_TADDRELUCONV_DTYPE", dst, src0, src1, stop);
    convert_each(dst, src0, src1, SaturationMode::ON,
                 [t = src0.dtype](double a, double b) { return relu(combine(t, a, b, false)); });
}

void tsubreluconv(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    PTO_HOLD_BACK("TSUBRELUCONV", tsubreluconv, dst, src0, src1);
    runtime::InstructionScope scope("TSUBRELUCONV");
    StopAtFirstFinding stop;
    check_relu_conversion(runtime::active_profile(), "LEGAL_TSUBRELUCONV_DTYPE", dst, src0, src1, stop);
    convert_each(dst, src0, src1, SaturationMode::ON,
                 [t = src0.dtype](double a, double b) { return relu(combine(t, a, b, true)); });
}

namespace {

void check_tadddeqrelu(const profile::Profile& p, const TileDesc& dst, const TileDesc& src0, const TileDesc& src1,
                       LegalitySink& sink)
{
    if (!rules::tadddeqrelu_dtype_ok(dst.dtype, src0.dtype, src1.dtype))
        report(sink, "LEGAL_TADDDEQRELU_DTYPE", "dst", "TADDDEQRELU turns two int32 tiles into f16", "i32, i32 -> f16",
               std::string(dtype_name(src0.dtype)) + ", " + std::string(dtype_name(src1.dtype)) + " -> " +
                   std::string(dtype_name(dst.dtype)));
    check_locations_and_shapes(p, dst, src0, src1, sink);
}

}  // namespace

void tadddeqrelu(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1, float scale)
{
    PTO_HOLD_BACK("TADDDEQRELU", tadddeqrelu, dst, src0, src1, scale);
    runtime::InstructionScope scope("TADDDEQRELU");
    StopAtFirstFinding stop;
    check_tadddeqrelu(runtime::active_profile(), dst, src0, src1, stop);
    // The int32 sum wraps, converts to float (nearest even), is scaled in float, rounded to half (IEEE:
    // overflow is infinity), and the ReLU applies to the half.
    convert_each(dst, src0, src1, SaturationMode::OFF, [scale](double a, double b) {
        const auto sum = int32_t(uint32_t(int64_t(a)) + uint32_t(int64_t(b)));
        return relu(double(half(scale * float(sum))));
    });
}

namespace {

constexpr OperandSpec kTwoSources[] = {{"src0", OperandKind::Tile}, {"src1", OperandKind::Tile}};
constexpr Form kReluConvForms[] = {{kTwoSources, kTileDst}};
constexpr OperandSpec kDeqSources[] = {
    {"src0", OperandKind::Tile}, {"src1", OperandKind::Tile}, {"scale", OperandKind::Scalar}, {"tmp", OperandKind::Tile, true}};
constexpr Form kDeqForms[] = {{kDeqSources, kTileDst}};

}  // namespace

constexpr InstrDef definitions::TADDRELUCONV{
    .id = Instr::TADDRELUCONV,
    .mnemonic = "TADDRELUCONV",
    .forms = kReluConvForms,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c,
                LegalitySink& sink) { check_relu_conversion(p, "LEGAL_TADDRELUCONV_DTYPE", c.dst(), c.src(0), c.src(1), sink); },
    .run = [](const Call& c) { taddreluconv(c.dst(), c.src(0), c.src(1)); },
};

constexpr InstrDef definitions::TSUBRELUCONV{
    .id = Instr::TSUBRELUCONV,
    .mnemonic = "TSUBRELUCONV",
    .forms = kReluConvForms,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c,
                LegalitySink& sink) { check_relu_conversion(p, "LEGAL_TSUBRELUCONV_DTYPE", c.dst(), c.src(0), c.src(1), sink); },
    .run = [](const Call& c) { tsubreluconv(c.dst(), c.src(0), c.src(1)); },
};

constexpr InstrDef definitions::TADDDEQRELU{
    .id = Instr::TADDDEQRELU,
    .mnemonic = "TADDDEQRELU",
    .forms = kDeqForms,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c,
                LegalitySink& sink) { check_tadddeqrelu(p, c.dst(), c.src(0), c.src(1), sink); },
    .run = [](const Call& c) { tadddeqrelu(c.dst(), c.src(0), c.src(1), float(c.sources[2].scalar->as_double())); },
};

}  // namespace pto::engine
