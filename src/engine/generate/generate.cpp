// TCI and TTRI: operand checks, the tiles they write and their definitions.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/generate.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/profile/rules_generate.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <cstring>
#include <string>

#include "engine/hold_back.hpp"
#include "engine/definition.hpp"

namespace pto::engine {

namespace {

void check_placement(const profile::Profile& p, const char* name, const TileDesc& dst, LegalitySink& sink)
{
    if (!rules::generate_location_ok(dst.loc))
        report(sink, (std::string("LEGAL_") + name + "_LOCATION").c_str(), "dst", std::string(name) + " writes a Vec tile",
               "a Vec tile", std::string(profile::location_name(dst.loc)));
    if (!rules::generate_layout_ok(p, dst.blayout, dst.slayout))
        report(sink, (std::string("LEGAL_") + name + "_LAYOUT").c_str(), "dst", "dst is row-major and unboxed on a2a3 and a5",
               "row-major", "another layout");
}

}  // namespace

void check_tci(const profile::Profile& p, const TileDesc& dst, const TileDesc* tmp, LegalitySink& sink)
{
    check_placement(p, "TCI", dst, sink);
    if (!rules::tci_dtype_ok(dst.dtype))
        report(sink, "LEGAL_TCI_DTYPE", "dst", "TCI writes 16- or 32-bit integers", "i16, u16, i32 or u32",
               std::string(dtype_name(dst.dtype)));
    if (tmp && !rules::tci_tmp_ok(p, dst.dtype, tmp->dtype, tmp->bytes()))
        report(sink, "LEGAL_TCI_TMP", "tmp", "on a2a3 tmp is 4-byte elements, 768 bytes for 32-bit sequences, 1792 for 16-bit",
               dtype_bits(dst.dtype) == 32 ? "at least 768 bytes of 4-byte elements" : "at least 1792 bytes of 4-byte elements",
               std::to_string(tmp->bytes()) + " bytes of " + std::string(dtype_name(tmp->dtype)));
}

void tci(const TileDesc& dst, int64_t start, bool descending, const TileDesc* tmp)
{
    PTO_HOLD_BACK("TCI", tci, dst, start, descending, tmp);
    runtime::InstructionScope scope("TCI");
    StopAtFirstFinding stop;
    check_tci(runtime::active_profile(), dst, tmp, stop);
    const uint64_t bits = dtype_bits(dst.dtype) == 32 ? 0xFFFFFFFFu : 0xFFFFu;
    for (int k = 0; k < dst.valid_cols; ++k) {
        const uint64_t value = (uint64_t(start) + (descending ? -uint64_t(k) : uint64_t(k))) & bits;  // wraps
        std::memcpy(element_address(dst, dst.offset(0, k)), &value, size_t(dtype_bits(dst.dtype) / 8));
    }
    if (dst.valid_rows > 0) mark_written(dst, 1, dst.valid_cols);
}

void check_ttri(const profile::Profile& p, const TileDesc& dst, int upper, LegalitySink& sink)
{
    check_placement(p, "TTRI", dst, sink);
    if (!rules::ttri_mode_ok(upper))
        report(sink, "LEGAL_TTRI_MODE", "dst", "isUpperOrLower is 0 (lower) or 1 (upper)", "0 or 1", std::to_string(upper));
}

void ttri(const TileDesc& dst, int64_t diagonal, int upper)
{
    PTO_HOLD_BACK("TTRI", ttri, dst, diagonal, upper);
    runtime::InstructionScope scope("TTRI");
    StopAtFirstFinding stop;
    check_ttri(runtime::active_profile(), dst, upper, stop);
    for (int i = 0; i < dst.valid_rows; ++i)
        for (int j = 0; j < dst.valid_cols; ++j) {
            const bool one = upper ? j >= i + diagonal : j <= i + diagonal;
            numeric::from_double(dst.dtype, dst.data, size_t(dst.offset(i, j)), one ? 1.0 : 0.0, RoundMode::CAST_RINT,
                                 SaturationMode::OFF);
        }
    mark_written(dst);
}

// ---- definitions --------------------------------------------------------------------------------------

namespace {

constexpr OperandSpec kStartAndTmp[] = {{"start", OperandKind::Scalar}, {"tmp", OperandKind::Tile, true}};
constexpr Form kTciForms[] = {{kStartAndTmp, kTileDst}};
constexpr std::string_view kDescendingKeys[] = {"descending"};
constexpr AttributeSpec kTciAttributes[] = {{kDescendingKeys, kBooleanValues, 0}};

constexpr OperandSpec kDiagonal[] = {{"diagonal", OperandKind::Scalar}};
constexpr Form kTtriForms[] = {{kDiagonal, kTileDst}};
constexpr std::string_view kUpperKeys[] = {"isUpperOrLower", "upper", "is_upper_or_lower"};
constexpr AttributeSpec kTtriAttributes[] = {{kUpperKeys, {}, 0}};

int64_t scalar_of(const Call& c) { return c.verifying ? 0 : c.sources[0].scalar->i; }

}  // namespace

constexpr InstrDef definitions::TCI{
    .id = Instr::TCI,
    .mnemonic = "TCI",
    .forms = kTciForms,
    .attributes = kTciAttributes,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) { check_tci(p, c.dst(), c.optional_src(1), sink); },
    .run = [](const Call& c) { tci(c.dst(), scalar_of(c), c.attributes[0] != 0, c.optional_src(1)); },
};

constexpr InstrDef definitions::TTRI{
    .id = Instr::TTRI,
    .mnemonic = "TTRI",
    .forms = kTtriForms,
    .attributes = kTtriAttributes,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) { check_ttri(p, c.dst(), c.attributes[0], sink); },
    .run = [](const Call& c) { ttri(c.dst(), scalar_of(c), c.attributes[0]); },
};

}  // namespace pto::engine
