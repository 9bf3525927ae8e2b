#include "asm/syncall_form.hpp"

#include <pto/engine/dtype.hpp>

#include "asm/cube_form.hpp"
#include "asm/printer.hpp"

namespace pto::as {

std::optional<SyncallForm> read_syncall(const Operation& op, std::vector<SyncallProblem>& problems)
{
    const std::size_t before = problems.size();
    SyncallForm form;
    if (const Attribute* a = op.attribute("core_type")) {
        const std::string v = a->enum_value();
        if (v == "AIVOnly") form.core_type = SyncCoreType::AIVOnly;
        else if (v == "AICOnly") form.core_type = SyncCoreType::AICOnly;
        else if (v == "Mix") form.core_type = SyncCoreType::Mix;
        else
            problems.push_back({"STRUCT_ATTRIBUTE_VALUE", "attribute core_type: the participant set", "AIVOnly, AICOnly or Mix",
                                v.empty() ? "another kind of value" : v});
    }
    if (const Attribute* a = op.attribute("mode")) {
        const std::string v = a->enum_value();
        if (v == "Soft") form.soft = true;
        else if (v != "Hard")
            problems.push_back({"STRUCT_ATTRIBUTE_VALUE", "attribute mode", "Hard or Soft", v.empty() ? "another kind of value" : v});
    }
    if (form.soft && op.operands.empty())
        problems.push_back({"STRUCT_OPERAND_COUNT", "a soft SYNCALL counts arrivals in a workspace",
                            "(%workspace : !pto.ptr<i32>[, %used_cores : i32])", "no operands"});
    if (!op.results.empty()) problems.push_back({"STRUCT_RESULT_COUNT", "SYNCALL defines nothing", "no results", std::to_string(op.results.size())});
    if (!op.operands.empty()) {
        const Type ws = op.operand_type(0);
        const auto element = ws.element_dtype();
        const auto* ptr = ws.dyn_cast<PtrType>();
        const bool global = ptr && !(ptr->space && memory_of(*ptr->space));
        if (!ws.is_none() && (!global || !element || engine::dtype_bits(*element) != 32))
            problems.push_back(
                {"STRUCT_OPERAND_KIND", "the workspace holds 32-bit arrival counters in global memory", "!pto.ptr<i32>", to_string(ws)});
    }
    if (op.operands.size() == 2) {
        const Type used = op.operand_type(1);
        if (!used.is_none() && !(used.is<IntegerType>() || used.is<IndexType>()))
            problems.push_back({"STRUCT_OPERAND_KIND", "the number of participating cores is an integer", "i32", to_string(used)});
    }
    if (problems.size() != before) return std::nullopt;
    return form;
}

}  // namespace pto::as
