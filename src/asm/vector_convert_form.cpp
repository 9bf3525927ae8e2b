// What a conversion operation says (pto.vcvt, pto.vtrc, pto.vci, pto.vbitcast, pto.pbitcast), read after
// the checks every vector operation shares (vector_form.cpp): the result's type, and the mode tokens.
// Tokens are accepted in both spellings the pages use: the op pages' `rnd = "R"`, `sat = "SAT"`,
// `part = "EVEN"`, and the family overview's `round_mode = "ROUND_R"`, `sat = "RS_ENABLE"`,
// `part = "PART_EVEN"`.
#include <pto/profile/rules_vector.hpp>

#include "asm/printer.hpp"
#include "asm/vector_form.hpp"

namespace pto::as {

namespace {

namespace vec = engine::vector;

std::string without_prefix(std::string word, std::string_view prefix)
{
    return word.rfind(prefix, 0) == 0 ? word.substr(prefix.size()) : word;
}

// The rounding of a `R`/`ROUND_R` token. A is TCVT's CAST_ROUND, to nearest with ties away from zero.
std::optional<RoundMode> round_from_name(const std::string& name)
{
    const std::string mode = without_prefix(name, "ROUND_");
    if (mode == "R") return RoundMode::CAST_RINT;
    if (mode == "A") return RoundMode::CAST_ROUND;
    if (mode == "F") return RoundMode::CAST_FLOOR;
    if (mode == "C") return RoundMode::CAST_CEIL;
    if (mode == "Z") return RoundMode::CAST_TRUNC;
    if (mode == "O") return RoundMode::CAST_ODD;
    return std::nullopt;
}
constexpr const char* kRoundNames = "R, A, F, C, Z or O (or ROUND_R ... ROUND_O)";

class ConversionReader {
public:
    ConversionReader(const Operation& op, VectorForm& form, std::vector<VectorProblem>& problems)
        : op_(op), form_(form), problems_(problems)
    {
    }

    void read()
    {
        switch (form_.def->family) {
            case VectorFamily::Convert: return read_convert();
            case VectorFamily::Truncate: return read_truncate();
            case VectorFamily::IndexSequence: return read_index_sequence();
            case VectorFamily::Bitcast: return read_bitcast();
            case VectorFamily::MaskBitcast: return read_mask_bitcast();
            default: return;
        }
    }

private:
    void problem(std::string code, std::string what, std::string expected, std::string actual)
    {
        problems_.push_back({std::move(code), std::move(what), std::move(expected), std::move(actual)});
    }

    // The text of attribute `name` (or `alias`); empty when absent.
    std::string attribute_text(std::string_view name, std::string_view alias = {}) const
    {
        const Attribute* a = op_.attribute(name);
        if (!a && !alias.empty()) a = op_.attribute(alias);
        return a ? a->text() : std::string();
    }

    // The result register's element type, checked to fill a register; nullopt after a problem.
    std::optional<engine::DType> result_dtype()
    {
        const Type& t = op_.results.at(0)->type;
        if (t.is_none()) return std::nullopt;
        const std::optional<engine::DType> dtype = t.element_dtype();
        if (!dtype || !rules::vreg_shape_ok(t.as<VRegType>().lanes, *dtype)) {
            problem("LEGAL_VREG_SHAPE", "a vector register holds 256 bytes of f32, f16, bf16 or integer lanes",
                    "!pto.vreg<64xf32>, <128xf16>, <256xi8> ...", to_string(t));
            return std::nullopt;
        }
        form_.result_lane_bytes = engine::dtype_bits(*dtype) / 8;
        return dtype;
    }

    std::string pair_text(engine::DType to) const
    {
        return std::string(engine::dtype_name(form_.dtype)) + " -> " + std::string(engine::dtype_name(to));
    }

    void read_convert()
    {
        const std::optional<engine::DType> to = result_dtype();
        if (!to || !form_.lane_bytes) return;
        vec::Conversion& c = form_.conversion;
        c.from = form_.dtype;
        c.to = *to;
        const std::string_view needs = vec::conversion_problem(c.from, c.to);
        if (!needs.empty()) return problem("LEGAL_VCVT_PAIR", "pto.vcvt does not convert " + pair_text(c.to), std::string(needs), pair_text(c.to));

        // Rounding: R when absent.
        if (const std::string name = attribute_text("rnd", "round_mode"); !name.empty()) {
            const std::optional<RoundMode> round = round_from_name(name);
            if (!round) return problem("LEGAL_VCVT_ROUND", "unknown rounding mode", kRoundNames, name);
            c.round = *round;
        }
        // Saturation: off when absent.
        if (const std::string name = attribute_text("sat"); !name.empty()) {
            if (name == "SAT" || name == "RS_ENABLE") c.sat = SaturationMode::ON;
            else if (name == "NOSAT" || name == "RS_DISABLE") c.sat = SaturationMode::OFF;
            else return problem("LEGAL_VCVT_SAT", "unknown saturation mode", "SAT or NOSAT (or RS_ENABLE, RS_DISABLE)", name);
        }
        // Part: only where the width changes; EVEN when absent there.
        const int ratio = vec::conversion_ratio(c.from, c.to);
        if (const std::string name = attribute_text("part"); !name.empty()) {
            const std::string part = without_prefix(name, "PART_");
            const int index = part == "EVEN" || part == "P0" ? 0 : part == "ODD" || part == "P1" ? 1 : part == "P2" ? 2 : part == "P3" ? 3 : -1;
            if (index < 0) return problem("LEGAL_VCVT_PART", "unknown part", "EVEN or ODD (P0 to P3 for 4:1 pairs)", name);
            if (ratio == 1)
                return problem("LEGAL_VCVT_PART", "a part places the lanes of a conversion that changes the lane width",
                               "no part for " + pair_text(c.to), name);
            if (index >= ratio) return problem("LEGAL_VCVT_PART", "the pair has " + std::to_string(ratio) + " parts", "EVEN or ODD", name);
            c.part = index;
        }
    }

    void read_truncate()
    {
        const std::string_view needs = vec::truncate_problem(form_.dtype);
        if (!needs.empty())
            return problem("LEGAL_VECTOR_DTYPE", "pto.vtrc is not defined on " + std::string(engine::dtype_name(form_.dtype)) + " lanes",
                           std::string(needs), std::string(engine::dtype_name(form_.dtype)));
        std::string name = op_.arguments.empty() ? attribute_text("rnd", "round_mode") : op_.arguments.front().text();
        const std::optional<RoundMode> round = round_from_name(name);
        if (!round) return problem("LEGAL_VTRC_ROUND", name.empty() ? "pto.vtrc names its rounding mode" : "unknown rounding mode", kRoundNames,
                                   name.empty() ? "none" : name);
        form_.conversion.round = *round;
    }

    void read_index_sequence()
    {
        const std::string_view needs = vec::index_sequence_problem(form_.dtype);
        if (!needs.empty())
            return problem("LEGAL_VECTOR_DTYPE", "pto.vci is not defined on " + std::string(engine::dtype_name(form_.dtype)) + " lanes",
                           std::string(needs), std::string(engine::dtype_name(form_.dtype)));
        // The start is an integer of the lane width (index: any, wrapped).
        const Type& start = op_.operand_type(0);
        if (const auto* i = start.dyn_cast<IntegerType>(); i && int(i->width) != form_.lane_bytes * 8)
            return problem("LEGAL_VCI_INDEX", "the start index has the lanes' width",
                           "i" + std::to_string(form_.lane_bytes * 8) + " (or index)", to_string(start));
        const std::string order = op_.arguments.empty() ? attribute_text("order") : op_.arguments.front().text();
        if (order == "DESC") form_.descending = true;
        else if (!order.empty() && order != "ASC") return problem("LEGAL_VCI_ORDER", "unknown order", "ASC or DESC", order);
    }

    void read_bitcast() { result_dtype(); }

    void read_mask_bitcast()
    {
        const Type from_type = op_.operand_type(0), to_type = op_.results.at(0)->type;
        if (!from_type.is<MaskType>() || !to_type.is<MaskType>()) return;
        const MaskType& from = from_type.as<MaskType>();
        const MaskType& to = to_type.as<MaskType>();
        if (!from.lane_bytes || !to.lane_bytes)
            return problem("LEGAL_VECTOR_MASK_WIDTH", "pto.pbitcast states both widths", "!pto.mask<b8|b16|b32>",
                           "!pto.mask<" + (from.lane_bytes ? to.spelling : from.spelling) + ">");
        form_.lane_bytes = int(from.lane_bytes);
        form_.result_lane_bytes = int(to.lane_bytes);
    }

    const Operation& op_;
    VectorForm& form_;
    std::vector<VectorProblem>& problems_;
};

}  // namespace

void read_conversion_form(const Operation& op, VectorForm& form, std::vector<VectorProblem>& problems)
{
    ConversionReader(op, form, problems).read();
}

}  // namespace pto::as
