#include "asm/interpreter/vector_slots.hpp"

namespace pto::as::interp {

vec::Register& fresh_register(Slot& s)
{
    s.reg = vec::Register{};
    s.holds_register = true;
    return s.reg;
}

void missing_register(const char* operand)
{
    runtime::fail({"RUN_BAD_OPERAND", "", operand, "the register holds no value", "a register an operation wrote", "none", ""});
}

}  // namespace pto::as::interp
