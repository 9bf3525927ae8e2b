// How one tile-instruction operation of a program binds to its definition (src/engine/definition.hpp):
// the form its operands fit and the value of each attribute. The verifier reports what does not bind;
// the interpreter lowers what does, so a program is verified as it runs.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "asm/ir.hpp"
#include "asm/op_table.hpp"
#include "asm/type.hpp"

namespace pto::as {

// A reason an operation does not bind: a STRUCT_* code, what is wrong, what was expected, what was found.
struct BindingProblem {
    std::string_view code;
    std::string what, expected, actual;
};

struct InstructionBinding {
    std::size_t form = 0;
    std::vector<int32_t> attributes;  // one per AttributeSpec of the definition
};

// Binds `op` (an operation of tile instruction `info`) whose sources and destinations have the types
// `in` and `out`; nothing, with the problems, when it does not bind.
std::optional<InstructionBinding> bind_instruction(const Operation& op, const OpInfo& info, std::span<const Type> in,
                                                   std::span<const Type> out, std::vector<BindingProblem>& problems);

// An enum-like attribute's value in lower case (`#pto<coalesce row>` gives "row", `#pto.cmp<GT>` "gt", an
// integer its decimal digits).
std::string attribute_value_text(const Attribute& a);

// Whether a value of type `t` can stand where an operand of kind `k` is expected.
bool fits_operand_kind(const Type& t, engine::OperandKind k);

}  // namespace pto::as
