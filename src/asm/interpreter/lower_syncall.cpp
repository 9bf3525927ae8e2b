// SYNCALL in text (asm/syncall_form.hpp): the hard form is runtime::syncall, the soft one
// runtime::syncall_soft on the workspace's first int32, as the C++ SYNCALL calls them.
#include <pto/runtime/syncall.hpp>

#include "asm/interpreter/frame.hpp"
#include "asm/interpreter/lowering.hpp"
#include "asm/interpreter/pointer_access.hpp"
#include "asm/syncall_form.hpp"

namespace pto::as::interp {

void Lowerer::lower_syncall(const Operation& op, Body& body)
{
    std::vector<SyncallProblem> problems;
    const std::optional<SyncallForm> form = read_syncall(op, problems);
    if (!form) fail(op, problems.front().code, problems.front().what, problems.front().expected, problems.front().actual);
    const SyncCoreType type = form->core_type;
    if (!form->soft) {
        body.steps.push_back({[type](Frame&) { runtime::syncall(type); }, &op});
        return;
    }
    const int workspace = slot(op.operands[0]);
    const int used = op.operands.size() == 2 ? slot(op.operands[1]) : -1;
    const PointerInfo pointer = pointer_info(operand_type(op, 0));
    body.steps.push_back({[=](Frame& f) {
                              // A null workspace is the runtime's RUN_SYNCALL_WORKSPACE; any other must hold the counter.
                              const Slot& ws = f.slots[std::size_t(workspace)];
                              auto* counter = reinterpret_cast<int32_t*>(ws.view.data ? address(pointer, ws, sizeof(int32_t), "workspace") : nullptr);
                              runtime::syncall_soft(type, counter, used >= 0 ? int32_t(f.slots[std::size_t(used)].i) : 0);
                          },
                          &op});
}

}  // namespace pto::as::interp
