// What a rearrangement operation says (pto.vintlv ... pto.vzunpack), read after the checks every vector
// operation shares (vector_form.cpp): the index register of vperm, the lane pairs of vpack and the
// unpacks, the half vintlvv2/vdintlvv2 return.
#include <pto/profile/rules_vector.hpp>

#include "asm/printer.hpp"
#include "asm/vector_form.hpp"

namespace pto::as {

namespace {

using engine::vector::Rearrangement;

bool is_integer(engine::DType t) { return !engine::dtype_is_float(t); }

class RearrangeReader {
public:
    RearrangeReader(const Operation& op, VectorForm& form, std::vector<VectorProblem>& problems)
        : op_(op), form_(form), problems_(problems)
    {
    }

    void read()
    {
        switch (form_.def->rearrange) {
            case Rearrangement::InterleaveHalf:
            case Rearrangement::DeinterleaveHalf: return read_half();
            case Rearrangement::Permute: return read_permute();
            case Rearrangement::Unsqueeze:
                if (!is_integer(form_.dtype))
                    problem("LEGAL_VECTOR_DTYPE", "pto.vusqz counts lanes into integer lanes", "integer lanes", dtype_text(form_.dtype));
                return;
            case Rearrangement::Pack: return read_width_change(true, "LEGAL_VPACK_PAIR", "integer lanes of half the source's width");
            case Rearrangement::SignedUnpack:
            case Rearrangement::ZeroUnpack: return read_width_change(false, "LEGAL_VUNPACK_PAIR", "integer lanes of twice the source's width");
            default: return;
        }
    }

private:
    void problem(std::string code, std::string what, std::string expected, std::string actual)
    {
        problems_.push_back({std::move(code), std::move(what), std::move(expected), std::move(actual)});
    }

    static std::string dtype_text(engine::DType t) { return std::string(engine::dtype_name(t)); }

    // The element type of the Retyped register at operand `i` (or the result when i < 0), if its shape
    // fills a register.
    std::optional<engine::DType> retyped(int i)
    {
        const Type& t = i < 0 ? op_.results.at(0)->type : op_.operand_type(std::size_t(i));
        if (!t.is<VRegType>()) return std::nullopt;
        const std::optional<engine::DType> dtype = t.element_dtype();
        if (!dtype || !rules::vreg_shape_ok(t.as<VRegType>().lanes, *dtype)) {
            problem("LEGAL_VREG_SHAPE", "a vector register holds 256 bytes of f32, f16, bf16 or integer lanes",
                    "!pto.vreg<64xf32>, <128xf16>, <256xi8> ...", to_string(t));
            return std::nullopt;
        }
        return dtype;
    }

    // vintlvv2 / vdintlvv2 "LOW" | "HIGH": which of vintlv's (vdintlv's) two results is returned.
    void read_half()
    {
        const std::string part = op_.arguments.empty() ? std::string() : op_.arguments.front().text();
        if (part == "HIGH") form_.high_half = true;
        else if (part != "LOW") problem("LEGAL_VINTLV_PART", "unknown half", "LOW or HIGH", part.empty() ? "none" : part);
    }

    void read_permute()
    {
        const std::optional<engine::DType> index = retyped(1);
        if (!index || !form_.lane_bytes) return;
        if (!rules::permute_index_ok(form_.dtype, *index))
            problem("LEGAL_VPERM_INDEX", "the index register has an integer lane for each source lane",
                    "integer lanes of " + std::to_string(form_.lane_bytes * 8) + " bits", dtype_text(*index));
    }

    // vpack (narrowing: the result's lanes are half as wide), the unpacks (twice as wide).
    void read_width_change(bool narrowing, const char* code, const char* needs)
    {
        const std::optional<engine::DType> to = retyped(-1);
        if (!to || !form_.lane_bytes) return;
        form_.result_lane_bytes = engine::dtype_bits(*to) / 8;
        if (!(narrowing ? rules::lane_halving_ok(form_.dtype, *to) : rules::lane_halving_ok(*to, form_.dtype)))
            problem(code, std::string(op_.mnemonic()) + " does not turn " + dtype_text(form_.dtype) + " lanes into " + dtype_text(*to), needs,
                    dtype_text(form_.dtype) + " -> " + dtype_text(*to));
        form_.conversion.from = form_.dtype;
        form_.conversion.to = *to;
    }

    const Operation& op_;
    VectorForm& form_;
    std::vector<VectorProblem>& problems_;
};

}  // namespace

void read_rearrange_form(const Operation& op, VectorForm& form, std::vector<VectorProblem>& problems)
{
    RearrangeReader(op, form, problems).read();
}

}  // namespace pto::as
