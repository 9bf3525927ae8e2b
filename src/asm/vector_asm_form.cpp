// The PTO assembly form of the vector micro-instructions, `vabs %r, %a, %m`: the destination registers
// written first, most often without types. The parser reads it into the operation the SSA form
// `%r = pto.vabs %a, %m : ... -> ...` makes; this file says how many destinations an operation writes
// and gives the ones the text left untyped the type the typed form's own check accepts.
#include "asm/cube_form.hpp"
#include "asm/printer.hpp"
#include "asm/vector_form.hpp"

namespace pto::as {

namespace {

using enum VectorArg;

// The lane types a register may have, as PTO-AS writes them.
Type lane_type(engine::DType d)
{
    using engine::DType;
    switch (d) {
        case DType::F32: return Type::float_type(FloatKind::F32);
        case DType::F16: return Type::float_type(FloatKind::F16);
        case DType::BF16: return Type::float_type(FloatKind::BF16);
        case DType::U8: case DType::U16: case DType::U32: case DType::U64:
            return Type::integer(unsigned(engine::dtype_bits(d)), Signedness::Unsigned);
        default: return Type::integer(unsigned(engine::dtype_bits(d)));
    }
}

constexpr engine::DType kLaneTypes[] = {engine::DType::F32, engine::DType::F16, engine::DType::BF16, engine::DType::I8,
                                        engine::DType::I16, engine::DType::I32, engine::DType::I64, engine::DType::U8,
                                        engine::DType::U16, engine::DType::U32, engine::DType::U64};

// The register filled with elements of `element`'s type; none when it is no lane type.
Type register_of(const Type& element)
{
    const std::optional<engine::DType> d = element.element_dtype();
    if (!d || engine::dtype_bits(*d) < 8 || element.is<IndexType>()) return {};
    for (engine::DType lane : kLaneTypes)
        if (lane == *d) return VRegType{256 / (engine::dtype_bits(*d) / 8), std::make_shared<const Type>(element)};
    return {};
}

Type mask_of(int lane_bytes)
{
    const unsigned b = unsigned(std::min(lane_bytes, 4));
    return MaskType{b, "b" + std::to_string(b * 8)};
}

// Float, signed or unsigned: what a tie between accepted types is broken by.
int kind_of(const Type& t)
{
    const std::optional<engine::DType> d = t.element_dtype();
    if (!d) return -1;
    if (engine::dtype_is_float(*d)) return 0;
    return lane_type(*d).as<IntegerType>().signedness == Signedness::Unsigned ? 2 : 1;
}

class Inference {
public:
    explicit Inference(Operation& op) : op_(op), def_(*find_vector_op(op.name)) {}

    // Types every untyped result; on failure, the result it could not type and why.
    std::optional<std::size_t> run(std::string& why)
    {
        const std::vector<WrittenInput> inputs = op_.written_inputs();
        const bool pointer_form = !def_.pointer_form.empty() && inputs.size() == def_.pointer_form.size();
        operands_ = pointer_form ? def_.pointer_form : def_.operands;
        if (inputs.size() != operands_.size()) return std::nullopt;  // the verifier reports the count
        static constexpr VectorArg kAlignPointer[] = {Align, Pointer};
        const std::span<const VectorArg> results = pointer_form ? std::span<const VectorArg>(kAlignPointer) : def_.results;
        for (const WrittenInput& in : inputs) types_.push_back(in.type);
        for (std::size_t i = 0; i < op_.results.size() && i < results.size(); ++i) {
            Type& slot = op_.results[i]->type;
            if (!slot.is_none()) continue;
            if (def_.family == VectorFamily::Convert || def_.family == VectorFamily::Bitcast || def_.family == VectorFamily::MaskBitcast) {
                why = "the target type is what " + std::string(op_.mnemonic()) + " chooses, and nothing written states it";
                return i;
            }
            slot = infer(results[i], slot, why);
            if (slot.is_none()) return i;
        }
        return std::nullopt;
    }

private:
    // The first operand of kind `k` with a type.
    const Type* operand(VectorArg k, bool (*accept)(const Type&) = nullptr) const
    {
        for (std::size_t i = 0; i < operands_.size() && i < types_.size(); ++i)
            if (operands_[i] == k && !types_[i].is_none() && (!accept || accept(types_[i]))) return &types_[i];
        return nullptr;
    }

    // The type the operands suggest for a result of kind `k` (none when they suggest nothing).
    Type natural(VectorArg k) const
    {
        const auto is_register = [](const Type& t) { return t.is<VRegType>(); };
        const auto is_scalar = [](const Type& t) { return t.is_scalar(); };
        switch (k) {
            case VReg:
                if (const Type* t = operand(VReg, is_register)) return *t;
                if (const Type* t = operand(LaneValue, is_register)) return *t;
                if (const Type* t = operand(Pointer)) return t->is<PtrType>() && t->as<PtrType>().element ? register_of(*t->as<PtrType>().element) : Type{};
                for (VectorArg scalar : {LaneScalar, LaneValue, Scalar})
                    if (const Type* t = operand(scalar, is_scalar)) return register_of(*t);
                return {};
            case Mask:
                if (def_.mask_lane_bytes) return mask_of(def_.mask_lane_bytes);
                if (const Type* t = operand(VReg, is_register)) return mask_of(vreg_lane_bytes(*t).value_or(4));
                if (const Type* t = operand(Mask)) return *t;
                if (operand(Pointer)) return MaskType{0, "G"};  // a predicate load: the pages leave its width open
                return {};
            case Scalar:
                if (def_.family == VectorFamily::MergeStatus) return Type::integer(16);
                if (const Type* t = operand(Scalar)) return *t;
                return {};
            case Index:
                if (const Type* t = operand(Index)) return *t;
                return Type::index();
            case Pointer:
                if (const Type* t = operand(Pointer)) return *t;
                return {};
            case Align: return AlignType{};
            default: return {};
        }
    }

    // Whether the operation, its result typed `t`, passes the typed form's check as well as untyped.
    bool accepted(Type& slot, const Type& t)
    {
        slot = t;
        std::vector<VectorProblem> problems;
        read_vector_form(op_, problems);
        slot = Type{};
        return problems.size() <= baseline_;
    }

    Type infer(VectorArg k, Type& slot, std::string& why)
    {
        std::vector<VectorProblem> problems;
        read_vector_form(op_, problems);
        baseline_ = problems.size();
        const Type suggested = natural(k);
        if (!suggested.is_none() && accepted(slot, suggested)) return suggested;
        if (!suggested.is_none() && k == VReg) {
            // A register the operands do not type (vlds UNPK_B16 from f16: 32-bit lanes of which kind?).
            why = "the type the operands suggest, " + to_string(suggested) + ", does not fit";
            return {};
        }
        // Otherwise every type of the result's kind the check accepts; of several, the one of the
        // suggestion's kind (or the source register's: float, signed, unsigned), if it is alone.
        std::vector<Type> candidates;
        if (k == Mask) {
            for (int b : {1, 2, 4}) candidates.push_back(mask_of(b));
        } else if (k == VReg || k == Retyped) {
            for (engine::DType d : kLaneTypes) candidates.push_back(register_of(lane_type(d)));
        }
        std::vector<Type> fits;
        for (const Type& c : candidates)
            if (accepted(slot, c)) fits.push_back(c);
        const Type* source = operand(VReg);
        const int kind = !suggested.is_none() ? kind_of(suggested) : source ? kind_of(*source) : -1;
        if (fits.size() > 1 && kind >= 0) std::erase_if(fits, [&](const Type& t) { return kind_of(t) != kind; });
        if (fits.size() == 1) return fits.front();
        if (fits.empty()) {
            why = "no type of its kind makes the operation legal";
        } else {
            why = "its operands allow " + std::to_string(fits.size()) + " types (";
            for (std::size_t i = 0; i < fits.size(); ++i) why += (i ? ", " : "") + to_string(fits[i]);
            why += ")";
        }
        return {};
    }

    Operation& op_;
    const VectorOpDef& def_;
    std::span<const VectorArg> operands_;
    std::vector<Type> types_;
    std::size_t baseline_ = 0;
};

}  // namespace

std::size_t vector_destination_count(std::string_view op_name)
{
    const VectorOpDef* def = find_vector_op(op_name);
    return def ? def->results.size() : 0;
}

std::optional<std::size_t> infer_vector_result_types(Operation& op, std::string& why)
{
    if (!find_vector_op(op.name)) return std::nullopt;
    return Inference(op).run(why);
}

}  // namespace pto::as
