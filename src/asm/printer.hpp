// Prints PTO-AS IR back to text, either as written or with every tile instruction rewritten into
// one spelling.
#pragma once

#include <string>

#include "asm/attribute.hpp"
#include "asm/ir.hpp"
#include "asm/type.hpp"

namespace pto::as {

enum class Form : uint8_t {
    Preserve,  // each operation as it was written
    Asm,       // tile instructions in PTO assembly: `tadd %d, %a, %b : (...)`, `%d = tgather %s, %i : ...`
    SSA,       // tile instructions as `%d = pto.tadd %a, %b : (...) -> ...`
    DPS,       // tile instructions as `pto.tadd ins(%a, %b : ...) outs(%d : ...)`
    Generic,   // every operation, function and module in MLIR's generic form: `"pto.tadd"(%a, %b, %d) ...`
};

// Text that parses back to a module equal to `module` (Form::Preserve) or equivalent to it
// (the other forms). Non-instruction operations keep their standard MLIR syntax in the custom
// forms; an instruction whose operands cannot be expressed in the requested form keeps its own
// spelling, and so does, in Form::Generic, an operation whose keyword operands or positional
// attributes have no generic equivalent (see generic_form.hpp).
std::string print(const Module& module, Form form = Form::Preserve);

std::string to_string(const Type& type);
std::string to_string(const Attribute& attribute);

}  // namespace pto::as
