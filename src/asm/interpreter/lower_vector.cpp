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
#include "asm/vector_form.hpp"

namespace pto::as::interp {

namespace {

namespace vec = engine::vector;

constexpr const char* kVectorUnits = "vector loads and stores address the unified buffer in 32-byte units";

const vec::Register& register_of(const Slot& s, const char* operand)
{
    if (!s.reg)
        runtime::fail({"RUN_BAD_OPERAND", "", operand, "the register holds no value", "a register an operation wrote", "none", ""});
    return *s.reg;
}

// The mask of slot `s` for lanes of `lane_bytes` bytes: RUN_MASK_WIDTH when it was made for others.
// A b32 mask read for 64-bit lanes is widened into a scratch register of the thread.
const vec::Register& mask_of(const Slot& s, int lane_bytes)
{
    const vec::Register& mask = register_of(s, "mask");
    if (!rules::mask_width_ok(mask.lane_bytes, lane_bytes))
        runtime::fail({"RUN_MASK_WIDTH", "", "mask", "the mask governs lanes of another width",
                       "a mask for " + std::to_string(lane_bytes * 8) + "-bit lanes",
                       "a mask for " + std::to_string(mask.lane_bytes * 8) + "-bit lanes", ""});
    if (mask.lane_bytes == lane_bytes) return mask;
    thread_local vec::Register wide;
    wide = vec::widen_mask(mask);
    return wide;
}

// The UB address `offset` elements past the pointer in `base`, checked for alignment and for a
// footprint of `bytes` inside the buffer.
std::byte* vector_address(Frame& f, const PointerInfo& p, const Slot& base, int64_t offset, int64_t bytes, const char* operand)
{
    const int64_t at = moved(base.i, offset, p.element_bytes());
    if (!rules::vector_address_aligned(at))
        runtime::fail({"RUN_POINTER_ALIGN", "", operand, kVectorUnits, "a multiple of " + std::to_string(vec::kAccessAlignment),
                       std::to_string(at), ""});
    return on_chip_address(f, *p.memory, at, bytes, operand);
}

}  // namespace

void Lowerer::lower_vector(const Operation& op, Body& body)
{
    std::vector<VectorProblem> problems;
    const VectorForm form = read_vector_form(op, problems);
    if (!problems.empty()) fail(op, problems[0].code, problems[0].what, problems[0].expected, problems[0].actual);
    const VectorOpDef& def = *form.def;
    const int lanes = form.lane_bytes;
    if (!lanes) fail(op, codes::kBadOperand, "a vector operation's register types must be stated", "!pto.vreg<NxT>", "none");
    std::vector<int> in, out;
    for (const Value* v : op.operands) in.push_back(slot(v));
    for (const auto& r : op.results) out.push_back(define(r.get()));
    auto add = [&](auto run) { body.steps.push_back({std::move(run), &op}); };
    const engine::DType dtype = form.dtype;

    switch (def.family) {
        case VectorFamily::Load: {
            const PointerInfo p = pointer_info(operand_type(op, 0));
            const vec::LoadDist dist = form.load;
            const int64_t bytes = vec::footprint_bytes(dist, lanes);
            return add([=, load = vec::load_kernel(dist), ptr = in[0], offset = in[1], d = out[0]](Frame& f) {
                const std::byte* src = vector_address(f, p, f.slots[ptr], f.slots[offset].i, bytes, "source");
                load(dist, lanes, src, writable_register(f.slots[d]));
            });
        }
        case VectorFamily::Store: {
            const PointerInfo p = pointer_info(operand_type(op, 1));
            const vec::StoreDist dist = form.store;
            const int64_t bytes = vec::footprint_bytes(dist, lanes);
            return add([=, value = in[0], ptr = in[1], offset = in[2], mask = in[3]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                const vec::Register& v = register_of(f.slots[value], "value");
                vec::store(dist, lanes, v, m, vector_address(f, p, f.slots[ptr], f.slots[offset].i, bytes, "destination"));
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
        case VectorFamily::Binary:
            return add([=, kernel = vec::binary_kernel(def.binary, dtype), a = in[0], b = in[1], mask = in[2], d = out[0]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                kernel(register_of(f.slots[a], "lhs"), register_of(f.slots[b], "rhs"), m, writable_register(f.slots[d]));
            });
        case VectorFamily::Unary:
            return add([=, op = def.unary, a = in[0], mask = in[1], d = out[0]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                vec::unary(op, dtype, register_of(f.slots[a], "input"), m, writable_register(f.slots[d]));
            });
    }
}

}  // namespace pto::as::interp
