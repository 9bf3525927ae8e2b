// The reading of the vector memory forms beyond pto.vlds / pto.vsts: the mode tokens of the paired,
// strided and predicate forms, the index registers of gathers and scatters, the lane types each takes,
// and the post-update mode of the unaligned stores. The common checks (kinds, register shape, UB
// pointers, mask widths) ran before.
#include <string>

#include <pto/profile/rules_vector.hpp>

#include "asm/printer.hpp"
#include "asm/vector_form.hpp"

namespace pto::as {

namespace {

namespace vec = engine::vector;

class MemoryReader {
public:
    MemoryReader(const Operation& op, VectorForm& form, std::vector<VectorProblem>& problems) : op_(op), form_(form), problems_(problems) {}

    void read()
    {
        switch (form_.def->family) {
            case VectorFamily::PairLoad: case VectorFamily::PairStore: return read_pair();
            case VectorFamily::StridedLoad: case VectorFamily::StridedStore: return read_stride();
            case VectorFamily::Gather: case VectorFamily::Scatter:
                if (form_.def->family == VectorFamily::Scatter && form_.lane_bytes == 8)
                    problem("LEGAL_VECTOR_DTYPE", "pto.vscatter stores b8, b16 and b32 elements", "8-, 16- or 32-bit lanes", "64-bit lanes");
                return check_index(form_.def->family == VectorFamily::Scatter ? 2 : 1, true);
            case VectorFamily::BlockGather: return check_index(1, false);
            case VectorFamily::PredicateLoad: case VectorFamily::PredicateStore: return read_predicate();
            case VectorFamily::UnalignedStore: return read_mode();
            default: return;
        }
    }

private:
    void problem(std::string code, std::string what, std::string expected, std::string actual)
    {
        problems_.push_back({std::move(code), std::move(what), std::move(expected), std::move(actual)});
    }
    // A token problem as the engine words it for both doors (nothing when the token reads).
    void report(std::optional<engine::vector::TokenProblem> p)
    {
        if (p) problem(std::move(p->code), std::move(p->what), std::move(p->expected), std::move(p->actual));
    }

    // The mode token: attribute `key`, else the first quoted word after the operands.
    std::string token(std::string_view key) const
    {
        if (const Attribute* a = op_.attribute(std::string(key))) return a->text();
        return op_.arguments.empty() ? std::string() : op_.arguments.front().text();
    }

    std::string lanes() const { return std::to_string(form_.lane_bytes * 8) + "-bit lanes"; }

    void read_pair()
    {
        const bool store = form_.def->family == VectorFamily::PairStore;
        const char* code = store ? "LEGAL_VSTS_DIST" : "LEGAL_VLDS_DIST";
        const std::string name = token("dist");
        const auto dist = vec::pair_dist_from_name(name, store);
        if (!dist)
            return problem(code, "unknown distribution mode", store ? "INTLV_B8, INTLV_B16 or INTLV_B32" : "DINTLV_B8, DINTLV_B16, DINTLV_B32 or BDINTLV",
                           name.empty() ? "none" : name);
        form_.pair = *dist;
        if (const std::string_view needs = vec::pair_dist_problem(*dist, form_.lane_bytes); !needs.empty())
            problem(code, "distribution mode " + name + " does not " + (store ? "store" : "fill") + " this register", std::string(needs), lanes());
    }

    void read_stride()
    {
        const std::string name = token("stride");
        const auto mode = vec::stride_from_name(name);
        if (!mode)
            return problem("LEGAL_VSLD_STRIDE", "unknown stride mode", "STRIDE_S3_B16, STRIDE_S4_B64, STRIDE_S8_B32 or STRIDE_S2_B64",
                           name.empty() ? "none" : name);
        form_.stride = *mode;
        if (mode->lane_bytes != form_.lane_bytes)
            problem("LEGAL_VSLD_STRIDE", "stride mode " + name + " moves elements of another width than the lanes",
                    std::to_string(mode->lane_bytes * 8) + "-bit lanes", lanes());
    }

    // The offsets register: integer lanes; for the lane forms as many (so as wide) as the data's.
    void check_index(std::size_t operand, bool per_lane)
    {
        const Type t = op_.operand_type(operand);
        if (!t.is<VRegType>()) return;
        const std::optional<engine::DType> d = t.element_dtype();
        const bool integer = d && !engine::dtype_is_float(*d);
        if (!integer || (per_lane && form_.lane_bytes && engine::dtype_bits(*d) != form_.lane_bytes * 8))
            problem("LEGAL_VECTOR_INDEX_TYPE", per_lane ? "the offsets register has an integer lane per data lane" : "the offsets register has integer lanes",
                    per_lane ? "!pto.vreg<" + std::to_string(256 / std::max(form_.lane_bytes, 1)) + "xi" + std::to_string(form_.lane_bytes * 8) + ">"
                             : "!pto.vreg<NxiK>",
                    to_string(t));
    }

    void read_predicate()
    {
        const bool store = form_.def->family == VectorFamily::PredicateStore;
        const std::string name = token("dist");
        report(vec::read_predicate_dist(name, store, form_.predicate_dist));
        const Type mask = store ? op_.operand_type(0) : op_.results[0]->type;
        if (mask.is<MaskType>()) form_.lane_bytes = int(mask.as<MaskType>().lane_bytes);
        if (form_.def->unit == StreamUnit::Immediate) read_immediate(op_.written_inputs()[store ? 2 : 1]);
    }

    // pto.pldi / pto.psti's offset: an integer literal, or a value of arith.constant, in the encoding's range.
    void read_immediate(const WrittenInput& offset)
    {
        const Attribute* constant = constant_value(offset.value);
        if (offset.value && !(constant && constant->is(Attribute::Kind::Integer)))
            return problem("LEGAL_PREDICATE_IMMEDIATE", "the offset of an immediate form is a constant", "an integer literal or a value of arith.constant",
                           "a value computed at run time");
        report(vec::predicate_immediate_problem(constant ? constant->int_value() : offset.literal));
    }

    void read_mode()
    {
        const std::string name = token("mode");
        const bool vstu = form_.def->unit == StreamUnit::Elements;
        if (form_.pointer_state) {
            const Type base = op_.operand_type(1), dest = op_.operand_type(3);
            if (!base.is_none() && !dest.is_none() && !(base == dest))
                problem("STRUCT_OPERAND_KIND", "the stream's position and its destination point to one element type", to_string(dest), to_string(base));
            if (vstu) return read_mode_operand(name);
        }
        if (name.empty()) {
            if (vstu) problem("LEGAL_VSTU_MODE", "pto.vstu states its post-update mode", "\"POST_UPDATE\" or \"NO_POST_UPDATE\"", "none");
            return;
        }
        if (name != "POST_UPDATE" && name != "NO_POST_UPDATE")
            return problem("LEGAL_VSTU_MODE", "unknown post-update mode", "\"POST_UPDATE\" or \"NO_POST_UPDATE\"", name);
        form_.post_update = name == "POST_UPDATE";
    }

    // Form A of pto.vstu takes its post-update mode as an index operand: a constant, 1 for
    // POST_UPDATE, 0 for NO_POST_UPDATE (fixed before the run, as the offset form's token is), and no
    // mode token besides.
    void read_mode_operand(const std::string& token_written)
    {
        if (!token_written.empty())
            return problem("LEGAL_VSTU_MODE", "pto.vstu with two pointers takes its mode as its last operand", "no mode token", token_written);
        const Attribute* mode = constant_value(op_.operands[4]);
        if (!mode || !mode->is(Attribute::Kind::Integer) || !rules::vstu_mode_ok(mode->int_value()))
            return problem("LEGAL_VSTU_MODE", "the post-update mode operand is a constant",
                           "an arith.constant 1 (POST_UPDATE) or 0 (NO_POST_UPDATE)",
                           mode && mode->is(Attribute::Kind::Integer) ? std::to_string(mode->int_value()) : "a value computed at run time");
        form_.post_update = mode->int_value() == 1;
    }

    const Operation& op_;
    VectorForm& form_;
    std::vector<VectorProblem>& problems_;
};

}  // namespace

void read_memory_form(const Operation& op, VectorForm& form, std::vector<VectorProblem>& problems) { MemoryReader(op, form, problems).read(); }

}  // namespace pto::as
