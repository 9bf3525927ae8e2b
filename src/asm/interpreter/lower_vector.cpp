// Lowering of the vector micro-instructions (vector_form.hpp): each operation becomes one step that
// calls one compiled kernel of pto/engine/ops/vector.hpp on whole registers. Loads and stores check
// their footprint against the unified buffer, and their address's alignment, before any byte moves.
#include <pto/engine/ops/vector.hpp>
#include <pto/profile/rules_vector.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <algorithm>
#include <string>

#include "asm/interpreter/lowering.hpp"
#include "asm/interpreter/pointer_access.hpp"
#include "asm/interpreter/scalar.hpp"
#include "asm/interpreter/vector_slots.hpp"
#include "asm/vector_form.hpp"

namespace pto::as::interp {

namespace {

namespace vec = engine::vector;

// The scalar of slot `s` in the encoding of `dtype` lanes.
uint64_t lane_bits(engine::DType dtype, const Slot& s)
{
    return engine::dtype_is_float(dtype) ? vec::float_lane_bits(dtype, s.f) : uint64_t(s.i);
}

// A scalar operand that picks one of `count` modes (vpack, the unpacks): RUN_VECTOR_PART otherwise.
int part_of(const Slot& s, int count, const char* what)
{
    if (s.i < 0 || s.i >= count)
        runtime::fail({"RUN_VECTOR_PART", "", "part", std::string("the part selects ") + what, "0 to " + std::to_string(count - 1),
                       std::to_string(s.i), ""});
    return int(s.i);
}

void lower_rearrange(const VectorForm& form, const std::vector<int>& in, const std::vector<int>& out, const auto& add)
{
    using enum vec::Rearrangement;
    const int lanes = form.lane_bytes;
    switch (const vec::Rearrangement how = form.def->rearrange) {
        case Interleave: case Deinterleave:
            return add([=, a = in[0], b = in[1], low = out[0], high = out[1]](Frame& f) {
                const vec::Register &x = register_of(f.slots[a], "lhs"), &y = register_of(f.slots[b], "rhs");
                vec::Register lo, hi;
                (how == Interleave ? vec::interleave : vec::deinterleave)(lanes, x, y, lo, hi);
                writable_register(f.slots[low]) = lo;
                writable_register(f.slots[high]) = hi;
            });
        case InterleaveHalf: case DeinterleaveHalf:
            return add([=, high_half = form.high_half, a = in[0], b = in[1], d = out[0]](Frame& f) {
                vec::Register lo, hi;
                (how == InterleaveHalf ? vec::interleave : vec::deinterleave)(lanes, register_of(f.slots[a], "lhs"), register_of(f.slots[b], "rhs"), lo, hi);
                writable_register(f.slots[d]) = high_half ? hi : lo;
            });
        case Slide: case Shift:
            return add([=, src0 = in[0], src1 = how == Slide ? in[1] : -1, amount = in.back(), d = out[0]](Frame& f) {
                const int64_t n = f.slots[amount].i;
                if (!rules::slide_amount_ok(vec::kRegisterBytes / lanes, n, how == Shift)) {
                    const std::string count = std::to_string(vec::kRegisterBytes / lanes);
                    runtime::fail({"RUN_VECTOR_SLIDE_AMOUNT", "", "amount", "the amount is a lane count of the register",
                                   (how == Shift ? "-" + count : "0") + " to " + count, std::to_string(n), ""});
                }
                const vec::Register* second = src1 < 0 ? nullptr : &register_of(f.slots[src1], "src1");
                vec::slide(lanes, register_of(f.slots[src0], "src0"), second, n, writable_register(f.slots[d]));
            });
        case Permute:
            return add([=, a = in[0], index = in[1], d = out[0]](Frame& f) {
                vec::permute(lanes, register_of(f.slots[a], "src"), register_of(f.slots[index], "index"), writable_register(f.slots[d]));
            });
        case Squeeze:
            return add([=, a = in[0], mask = in[1], d = out[0]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                vec::squeeze(lanes, register_of(f.slots[a], "src"), m, writable_register(f.slots[d]));
            });
        case Unsqueeze:
            return add([=, mask = in[0], d = out[0]](Frame& f) {
                vec::unsqueeze(lanes, mask_of(f.slots[mask], lanes), writable_register(f.slots[d]));
            });
        case Pack:
            return add([=, c = form.conversion, a = in[0], b = in[1], part = in[2], d = out[0]](Frame& f) {
                const bool saturate = part_of(f.slots[part], 2, "truncation (0) or saturation (1)") == 1;
                vec::pack(c.from, c.to, saturate, register_of(f.slots[a], "src0"), register_of(f.slots[b], "src1"), writable_register(f.slots[d]));
            });
        case SignedUnpack: case ZeroUnpack:
            return add([=, a = in[0], part = in[1], d = out[0]](Frame& f) {
                const int half = part_of(f.slots[part], 2, "the lower (0) or upper (1) half");
                vec::unpack(lanes, how == SignedUnpack, half, register_of(f.slots[a], "src"), writable_register(f.slots[d]));
            });
    }
}

}  // namespace

void Lowerer::lower_vector(const Operation& op, Body& body)
{
    std::vector<VectorProblem> problems;
    const VectorForm form = read_vector_form(op, problems);
    if (!problems.empty()) fail(op, problems[0].code, problems[0].what, problems[0].expected, problems[0].actual);
    const VectorOpDef& def = *form.def;
    const int lanes = form.lane_bytes;
    if (is_memory_family(def.family)) return lower_vector_memory(op, form, body);
    const bool masks_only = def.family == VectorFamily::PredicateLogic || def.family == VectorFamily::PredicatePack;
    if (!lanes && !masks_only) fail(op, codes::kBadOperand, "a vector operation's register types must be stated", "!pto.vreg<NxT>", "none");
    std::vector<int> in, out;
    for (const Value* v : op.operands) in.push_back(slot(v));
    for (const auto& r : op.results) out.push_back(define(r.get()));
    auto add = [&](auto run) { body.steps.push_back({std::move(run), &op}); };
    const engine::DType dtype = form.dtype;

    switch (def.family) {
        // Loads, stores and the binary operations, the body of most vector loops, keep their common
        // case inline and hand anything unusual to their general form (run_general).
        case VectorFamily::Load: {
            const VectorPointer p = vector_pointer(pointer_info(operand_type(op, 0)));
            const vec::LoadDist dist = form.load;
            const int64_t bytes = vec::footprint_bytes(dist, lanes);
            const vec::LoadKernel load = vec::load_kernel(dist);
            auto general = [=, ptr = in[0], offset = in[1], d = out[0]](Frame& f) {
                const std::byte* src = vector_address(f, p, f.slots[ptr], f.slots[offset].i, bytes, "source");
                load(dist, lanes, src, writable_register(f.slots[d]));
            };
            return add([=, ptr = in[0], offset = in[1], d = out[0]](Frame& f) {
                const std::byte* src = known_vector_address(f, p, f.slots[ptr], f.slots[offset].i, bytes);
                Slot& dst = f.slots[d];
                if (!src || !dst.holds_register) [[unlikely]]
                    return run_general(general, f);
                load(dist, lanes, src, dst.reg);
            });
        }
        case VectorFamily::Store: {
            const VectorPointer p = vector_pointer(pointer_info(operand_type(op, 1)));
            const vec::StoreDist dist = form.store;
            const int64_t bytes = vec::footprint_bytes(dist, lanes);
            const vec::StoreKernel store = vec::store_kernel(dist);
            auto general = [=, value = in[0], ptr = in[1], offset = in[2], mask = in[3]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                const vec::Register& v = register_of(f.slots[value], "value");
                store(dist, lanes, v, m, vector_address(f, p, f.slots[ptr], f.slots[offset].i, bytes, "destination"));
            };
            return add([=, value = in[0], ptr = in[1], offset = in[2], mask = in[3]](Frame& f) {
                const vec::Register* m = own_width_mask(f.slots[mask], lanes);
                const Slot& v = f.slots[value];
                std::byte* dst = known_vector_address(f, p, f.slots[ptr], f.slots[offset].i, bytes);
                if (!m || !v.holds_register || !dst) [[unlikely]]
                    return run_general(general, f);
                store(dist, lanes, v.reg, *m, dst);
            });
        }
        case VectorFamily::Pattern:
            return add([token = form.pattern, lanes, d = out[0]](Frame& f) { vec::pattern_mask(token, lanes, writable_register(f.slots[d])); });
        case VectorFamily::Remainder: {
            // plt: the first `count` lanes, and the count left for the next vector (never below zero).
            const ScalarKind kind = scalar_kind(result_type(op, 1));
            const int64_t per_vector = vec::kRegisterBytes / lanes;
            return add([=, count = in[0], mask = out[0], rest = out[1]](Frame& f) {
                const int64_t n = f.slots[count].i;
                vec::prefix_mask(n, lanes, writable_register(f.slots[mask]));
                f.slots[rest].i = kind.wrap(std::max<int64_t>(n - per_vector, 0));
            });
        }
        case VectorFamily::Binary: {
            const vec::BinaryKernel kernel = vec::binary_kernel(def.binary, dtype);
            auto general = [=, a = in[0], b = in[1], mask = in[2], d = out[0]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                kernel(register_of(f.slots[a], "lhs"), register_of(f.slots[b], "rhs"), m, writable_register(f.slots[d]));
            };
            return add([=, a = in[0], b = in[1], mask = in[2], d = out[0]](Frame& f) {
                const vec::Register* m = own_width_mask(f.slots[mask], lanes);
                const Slot &x = f.slots[a], &y = f.slots[b];
                Slot& dst = f.slots[d];
                if (!m || !x.holds_register || !y.holds_register || !dst.holds_register) [[unlikely]]
                    return run_general(general, f);
                kernel(x.reg, y.reg, *m, dst.reg);
            });
        }
        case VectorFamily::Unary:
            return add([=, op = def.unary, a = in[0], mask = in[1], d = out[0]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                vec::unary(op, dtype, register_of(f.slots[a], "input"), m, writable_register(f.slots[d]));
            });
        case VectorFamily::VectorScalar:
            return add([=, op = def.scalar, a = in[0], scalar = in[1], mask = in[2], d = out[0]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                vec::binary_scalar(op, dtype, register_of(f.slots[a], "input"), lane_bits(dtype, f.slots[scalar]), m,
                                   writable_register(f.slots[d]));
            });
        case VectorFamily::Carry:
            // vaddcs/vsubcs chain a carry in; vaddc/vsubc start from none.
            return add([=, op = def.carry, a = in[0], b = in[1], carry_in = in.size() == 4 ? in[2] : -1, mask = in.back(), d = out[0],
                        carry_out = out[1]](Frame& f) {
                // A copy: the next widening reuses the scratch.
                const vec::Register c = carry_in < 0 ? vec::Register{} : mask_of(f.slots[carry_in], lanes);
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                vec::carry_chain(op, lanes, register_of(f.slots[a], "lhs"), register_of(f.slots[b], "rhs"), c, m,
                                 writable_register(f.slots[d]), writable_register(f.slots[carry_out]));
            });
        case VectorFamily::Reduction:
            return add([=, op = def.reduce, a = in[0], mask = in[1], d = out[0]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                vec::reduce(op, dtype, register_of(f.slots[a], "input"), m, writable_register(f.slots[d]));
            });
        case VectorFamily::Compare:
            return add([=, mode = form.compare, a = in[0], b = in[1], seed = in[2], d = out[0]](Frame& f) {
                const vec::Register& s = mask_of(f.slots[seed], lanes);
                vec::compare(mode, dtype, register_of(f.slots[a], "lhs"), register_of(f.slots[b], "rhs"), s, writable_register(f.slots[d]));
            });
        case VectorFamily::CompareScalar:
            return add([=, mode = form.compare, a = in[0], scalar = in[1], seed = in[2], d = out[0]](Frame& f) {
                const vec::Register& s = mask_of(f.slots[seed], lanes);
                vec::compare_scalar(mode, dtype, register_of(f.slots[a], "input"), lane_bits(dtype, f.slots[scalar]), s,
                                    writable_register(f.slots[d]));
            });
        case VectorFamily::Select:
            return add([=, a = in[0], b = in[1], mask = in[2], d = out[0]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                vec::select(lanes, register_of(f.slots[a], "lhs"), register_of(f.slots[b], "rhs"), m, writable_register(f.slots[d]));
            });
        case VectorFamily::IndexSelect:
            return add([=, src = in[0], index = in[1], d = out[0]](Frame& f) {
                vec::select_by_index(lanes, register_of(f.slots[src], "source"), register_of(f.slots[index], "index"), writable_register(f.slots[d]));
            });
        case VectorFamily::PredicateLogic:
            // The last operand is the masking predicate, which the pages say leaves the result alone;
            // it is read (a mask of the operation's width) all the same.
            return add([=, op = def.predicate, sources = in, d = out[0]](Frame& f) {
                const vec::Register& a = any_mask_of(f.slots[sources[0]], lanes);
                for (std::size_t k = 1; k < sources.size(); ++k) any_mask_of(f.slots[sources[k]], a.lane_bytes);
                const vec::Register& b = sources.size() > 2 ? f.slots[sources[1]].reg : a;
                const vec::Register& sel = sources.size() > 3 ? f.slots[sources[2]].reg : a;
                vec::predicate_logic(op, a, b, sel, writable_register(f.slots[d]));
            });
        case VectorFamily::PredicatePack:
            return add([=, unpack = def.reverse, part = form.part, src = in[0], d = out[0]](Frame& f) {
                vec::predicate_repack(unpack, part, any_mask_of(f.slots[src], lanes), writable_register(f.slots[d]));
            });
        case VectorFamily::PredicateInterleave:
            return add([=, deinterleave = def.reverse, a = in[0], b = in[1], low = out[0], high = out[1]](Frame& f) {
                // A copy: reading a width-less image (!pto.mask<G>) at these lanes reuses the thread's scratch.
                const vec::Register x = mask_of(f.slots[a], lanes);
                const vec::Register& y = mask_of(f.slots[b], lanes);
                vec::Register lo, hi;
                if (deinterleave) vec::predicate_deinterleave(lanes, x, y, lo, hi);
                else vec::predicate_interleave(lanes, x, y, lo, hi);
                writable_register(f.slots[low]) = lo;
                writable_register(f.slots[high]) = hi;
            });
        case VectorFamily::Broadcast:
            return add([=, scalar = in[0], d = out[0]](Frame& f) { vec::broadcast(lanes, lane_bits(dtype, f.slots[scalar]), writable_register(f.slots[d])); });
        case VectorFamily::Duplicate: {
            if (operand_type(op, 0).is<VRegType>())
                return add([=, position = form.position, src = in[0], d = out[0]](Frame& f) {
                    vec::duplicate_lane(position, lanes, register_of(f.slots[src], "input"), writable_register(f.slots[d]));
                });
            return add([=, scalar = in[0], d = out[0]](Frame& f) { vec::broadcast(lanes, lane_bits(dtype, f.slots[scalar]), writable_register(f.slots[d])); });
        }
        case VectorFamily::Convert:
            return add([=, c = form.conversion, a = in[0], mask = in[1], d = out[0]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                vec::convert(c, register_of(f.slots[a], "input"), m, writable_register(f.slots[d]));
            });
        case VectorFamily::Truncate:
            return add([=, round = form.conversion.round, a = in[0], d = out[0]](Frame& f) {
                vec::truncate(round, dtype, register_of(f.slots[a], "input"), writable_register(f.slots[d]));
            });
        case VectorFamily::IndexSequence:
            return add([=, descending = form.descending, start = in[0], d = out[0]](Frame& f) {
                vec::index_sequence(dtype, f.slots[start].i, descending, writable_register(f.slots[d]));
            });
        case VectorFamily::Bitcast:
            return add([a = in[0], d = out[0]](Frame& f) {
                const vec::Register& from = register_of(f.slots[a], "input");
                vec::Register& to = writable_register(f.slots[d]);
                to.bytes = from.bytes;
                to.lane_bytes = 0;
            });
        case VectorFamily::Rearrange: return lower_rearrange(form, in, out, add);
        case VectorFamily::Fused:
            return add([=, op = def.fused, a = in[0], b = in[1], mask = in[2], d = out[0]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                vec::fused(op, dtype, register_of(f.slots[a], "lhs"), register_of(f.slots[b], "rhs"), m, writable_register(f.slots[d]));
            });
        case VectorFamily::MultiplyAdd:
            return add([=, addend = in[0], a = in[1], b = in[2], mask = in[3], d = out[0]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                vec::multiply_add(dtype, register_of(f.slots[addend], "add"), register_of(f.slots[a], "lhs"), register_of(f.slots[b], "rhs"), m,
                                  writable_register(f.slots[d]));
            });
        case VectorFamily::Axpy:
            return add([=, x = in[0], y = in[1], alpha = in[2], mask = in[3], d = out[0]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                vec::axpy(dtype, f.slots[alpha].f, register_of(f.slots[x], "x"), register_of(f.slots[y], "y"), m, writable_register(f.slots[d]));
            });
        case VectorFamily::ExpDifference:
            return add([=, a = in[0], max = in[1], d = out[0]](Frame& f) {
                vec::exp_difference(dtype, register_of(f.slots[a], "input"), register_of(f.slots[max], "max"), writable_register(f.slots[d]));
            });
        case VectorFamily::MaskBitcast:
            return add([width = form.result_lane_bytes, a = in[0], d = out[0]](Frame& f) {
                vec::mask_bitcast(register_of(f.slots[a], "input"), width, writable_register(f.slots[d]));
            });
        // SFU and DSA operations
        case VectorFamily::WideningMultiply:
            return add([=, a = in[0], b = in[1], mask = in[2], low = out[0], high = out[1]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                vec::Register lo, hi;
                vec::widening_multiply(dtype, register_of(f.slots[a], "lhs"), register_of(f.slots[b], "rhs"), m, lo, hi);
                writable_register(f.slots[low]) = lo;
                writable_register(f.slots[high]) = hi;
            });
        case VectorFamily::ConvertingFused:
            return add([=, op = def.converting, c = form.conversion, a = in[0], b = in[1], mask = in[2], d = out[0]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                vec::converting(op, c.from, c.to, register_of(f.slots[a], "lhs"), register_of(f.slots[b], "rhs"), m, writable_register(f.slots[d]));
            });
        case VectorFamily::Sort32: case VectorFamily::BitSort: case VectorFamily::MergeSort: case VectorFamily::MergeStatus:
        case VectorFamily::Transpose: return lower_vector_ub(op, form, in, out, body);
        default: return;  // the memory forms, lowered above by lower_vector_memory
    }
}

}  // namespace pto::as::interp
