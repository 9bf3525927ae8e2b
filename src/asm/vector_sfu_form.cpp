// What an SFU or DSA operation says (pto.vmull, pto.vaddreluconv, pto.vmulconv, the UB sorts, pto.vtranspose,
// pto.get_vms4_sr), read after the checks every vector operation shares (vector_form.cpp). The UB
// operations take their element type from their pointers, which the common checks keep in UB.
#include <pto/profile/rules_vector.hpp>

#include "asm/cube_form.hpp"
#include "asm/printer.hpp"
#include "asm/vector_form.hpp"

namespace pto::as {

namespace {

namespace vec = engine::vector;

std::string dtype_text(engine::DType t) { return std::string(engine::dtype_name(t)); }

class SfuReader {
public:
    SfuReader(const Operation& op, VectorForm& form, std::vector<VectorProblem>& problems) : op_(op), form_(form), problems_(problems) {}

    void read()
    {
        switch (form_.def->family) {
            case VectorFamily::WideningMultiply:
                return rule("LEGAL_VECTOR_DTYPE", vec::widening_multiply_problem(form_.dtype));
            case VectorFamily::ConvertingFused: return read_converting();
            case VectorFamily::Sort32: case VectorFamily::MergeSort: return read_pointers(op_.operands.size() == 3 ? 2 : 5, vec::ub_sort_problem);
            case VectorFamily::BitSort:
                read_pointers(2, vec::ub_sort_problem);
                return read_indices();
            case VectorFamily::Transpose: return read_pointers(2, vec::ub_transpose_problem);
            case VectorFamily::MergeStatus: return read_status();
            default: return;
        }
    }

private:
    void problem(std::string code, std::string what, std::string expected, std::string actual)
    {
        problems_.push_back({std::move(code), std::move(what), std::move(expected), std::move(actual)});
    }

    void rule(const char* code, std::string_view needs)
    {
        if (!needs.empty())
            problem(code, std::string(op_.mnemonic()) + " is not defined on " + dtype_text(form_.dtype) + " elements", std::string(needs),
                    dtype_text(form_.dtype));
    }

    // vaddreluconv, vmulconv: the result register's type makes the pair.
    void read_converting()
    {
        const Type& t = op_.results.at(0)->type;
        if (t.is_none() || !form_.lane_bytes) return;
        const std::optional<engine::DType> to = t.element_dtype();
        if (!to || !rules::vreg_shape_ok(t.as<VRegType>().lanes, *to))
            return problem("LEGAL_VREG_SHAPE", "a vector register holds 256 bytes of f32, f16, bf16 or integer lanes",
                           "!pto.vreg<64xf32>, <128xf16>, <256xi8> ...", to_string(t));
        form_.conversion.from = form_.dtype;
        form_.conversion.to = *to;
        form_.result_lane_bytes = engine::dtype_bits(*to) / 8;
        const std::string_view needs = vec::converting_problem(form_.def->converting, form_.dtype, *to);
        if (!needs.empty())
            problem("LEGAL_VCONV_PAIR", std::string(op_.mnemonic()) + " does not convert " + dtype_text(form_.dtype) + " -> " + dtype_text(*to),
                    std::string(needs), dtype_text(form_.dtype) + " -> " + dtype_text(*to));
    }

    // The first `count` operands are pointers to elements of one type, which the operation is defined on.
    void read_pointers(std::size_t count, std::string_view (*dtype_problem)(engine::DType))
    {
        const PointerInfo first = pointer_info(op_.operand_type(0));
        form_.dtype = first.dtype;
        form_.lane_bytes = first.element_bytes();
        for (std::size_t i = 1; i < count; ++i)
            if (const PointerInfo p = pointer_info(op_.operand_type(i)); p.dtype != first.dtype)
                problem("LEGAL_VECTOR_POINTER_TYPE", "operand " + std::to_string(i) + " points to elements of another type than the destination",
                        "!pto.ptr<" + dtype_text(first.dtype) + ", ub>", to_string(op_.operand_type(i)));
        rule("LEGAL_VECTOR_DTYPE", dtype_problem(form_.dtype));
    }

    // vbitsort's companion indices: 32-bit integers.
    void read_indices()
    {
        const PointerInfo p = pointer_info(op_.operand_type(2));
        if (engine::dtype_is_float(p.dtype) || engine::dtype_bits(p.dtype) != 32)
            problem("LEGAL_VECTOR_POINTER_TYPE", "the indices are 32-bit integers", "!pto.ptr<i32, ub>", to_string(op_.operand_type(2)));
    }

    // get_vms4_sr: four i16 counts.
    void read_status()
    {
        form_.dtype = engine::DType::U16;
        form_.lane_bytes = 2;
        for (std::size_t i = 0; i < op_.results.size(); ++i) {
            const Type& t = op_.results[i]->type;
            const auto* integer = t.dyn_cast<IntegerType>();
            if (!t.is_none() && (!integer || integer->width != 16))
                problem("LEGAL_VECTOR_SCALAR_TYPE", "result " + std::to_string(i) + " is a 16-bit count", "i16", to_string(t));
        }
    }

    const Operation& op_;
    VectorForm& form_;
    std::vector<VectorProblem>& problems_;
};

}  // namespace

void read_sfu_form(const Operation& op, VectorForm& form, std::vector<VectorProblem>& problems) { SfuReader(op, form, problems).read(); }

}  // namespace pto::as
