// Lowering of structured control flow (scf.for, scf.if, scf.while) and of func.call.
#include "asm/interpreter/lowering.hpp"

namespace pto::as::interp {

namespace {

// Copies slots src[i] -> dst[i] as a parallel assignment: in order, unless a destination is also a
// later source (a yield that permutes its carried values), which goes through copies held aside.
void pass(Frame& f, const std::vector<int>& src, const std::vector<int>& dst, std::size_t dst_first = 0)
{
    const std::size_t n = src.size();
    bool overwrites_a_source = false;
    for (std::size_t i = 0; i < n && !overwrites_a_source; ++i)
        for (std::size_t j = i + 1; j < n; ++j) overwrites_a_source |= dst[dst_first + i] == src[j];
    if (!overwrites_a_source) {
        for (std::size_t i = 0; i < n; ++i) f.slots[dst[dst_first + i]] = f.slots[src[i]];
        return;
    }
    std::vector<Slot> held(n);
    for (std::size_t i = 0; i < n; ++i) held[i] = f.slots[src[i]];
    for (std::size_t i = 0; i < n; ++i) f.slots[dst[dst_first + i]] = held[i];
}

}  // namespace

void Lowerer::lower_control(const Operation& op, Body& body)
{
    std::vector<int> operands;
    for (const Value* v : op.operands) operands.push_back(slot(v));
    auto region_block = [&](std::size_t r) -> const Block* {
        if (r >= op.regions.size() || op.regions[r]->blocks.empty()) return nullptr;
        if (op.regions[r]->blocks.size() != 1) fail(op, codes::kUnsupportedOp, "regions of more than one block are not supported");
        return op.regions[r]->blocks.front().get();
    };
    auto add = [&](StepRun fn) { body.steps.push_back({std::move(fn), &op}); };

    if (op.name == "scf.for") {
        const Block* block = region_block(0);
        if (!block || operands.size() < 3) fail(op, codes::kBadOperand, "scf.for needs bounds, a step and a body");
        const Body* loop = lower_block(*block);
        if (loop->arguments.size() != operands.size() - 2 || loop->terminator.size() != operands.size() - 3)
            fail(op, codes::kBadOperand, "scf.for body arguments and yield must match its iter_args",
                 std::to_string(operands.size() - 3) + " carried values", std::to_string(loop->terminator.size()));
        std::vector<int> results;
        for (const auto& r : op.results) results.push_back(define(r.get()));
        const int lb = operands[0], ub = operands[1], st = operands[2];
        const std::vector<int> inits(operands.begin() + 3, operands.end());
        const Operation* where = &op;
        const Module* module = &module_;
        return add([=](Frame& f) {
            const int64_t lo = f.slots[lb].i, hi = f.slots[ub].i, step = f.slots[st].i;
            if (step <= 0)
                throw SimError({"RUN_LOOP_STEP", "scf.for", "step", "loop step must be positive", "> 0",
                                std::to_string(step), location_of(*module, *where)});
            if (!inits.empty()) pass(f, inits, loop->arguments, 1);
            const int iv = loop->arguments[0];
            for (int64_t i = lo; i < hi; i += step) {
                f.slots[iv].i = i;
                run_body(*loop, f);
                if (!inits.empty()) pass(f, loop->terminator, loop->arguments, 1);
            }
            for (std::size_t k = 0; k < results.size(); ++k) f.slots[results[k]] = f.slots[loop->arguments[k + 1]];
        });
    }

    if (op.name == "scf.if") {
        const Block* then_block = region_block(0);
        const Block* else_block = region_block(1);
        if (!then_block) fail(op, codes::kBadOperand, "scf.if needs a then region");
        const Body* then_body = lower_block(*then_block);
        const Body* else_body = else_block ? lower_block(*else_block) : nullptr;
        std::vector<int> results;
        for (const auto& r : op.results) results.push_back(define(r.get()));
        if (!results.empty() && (!else_body || then_body->terminator.size() != results.size() ||
                                 else_body->terminator.size() != results.size()))
            fail(op, codes::kBadOperand, "scf.if with results needs both branches to yield them");
        const int cond = operands.at(0);
        return add([=](Frame& f) {
            const Body* taken = f.slots[cond].i ? then_body : else_body;
            if (!taken) return;
            run_body(*taken, f);
            if (!results.empty()) pass(f, taken->terminator, results);
        });
    }

    if (op.name == "scf.while") {
        const Block* before_block = region_block(0);
        const Block* after_block = region_block(1);
        if (!before_block || !after_block) fail(op, codes::kBadOperand, "scf.while needs a before and an after region");
        const Body* before = lower_block(*before_block);
        const Body* after = lower_block(*after_block);
        if (before->condition < 0) fail(op, codes::kBadOperand, "scf.while's before region must end in scf.condition");
        std::vector<int> results;
        for (const auto& r : op.results) results.push_back(define(r.get()));
        return add([=](Frame& f) {
            if (!operands.empty()) pass(f, operands, before->arguments);
            for (;;) {
                run_body(*before, f);
                if (!f.slots[before->condition].i) {
                    if (!results.empty()) pass(f, before->terminator, results);
                    return;
                }
                if (!after->arguments.empty()) pass(f, before->terminator, after->arguments);
                run_body(*after, f);
                if (!before->arguments.empty()) pass(f, after->terminator, before->arguments);
            }
        });
    }

    if (op.name == "func.call") {
        const Attribute* callee_attr = op.attribute("callee");
        const std::string callee_name = callee_attr ? callee_attr->text() : std::string{};
        const CompiledFunction* callee = program_.find(callee_name);
        if (!callee) fail(op, codes::kUnknownCallee, "call of an unknown function", "a function of this module", "@" + callee_name);
        std::vector<int> results;
        for (const auto& r : op.results) results.push_back(define(r.get()));
        const Program* program = &program_;
        return add([=](Frame& f) {
            std::vector<Slot> args;
            args.reserve(operands.size());
            for (int s : operands) args.push_back(f.slots[s]);
            const std::vector<Slot> out = call(*program, *callee, args);
            for (std::size_t k = 0; k < results.size() && k < out.size(); ++k) f.slots[results[k]] = out[k];
        });
    }

    fail(op, codes::kUnsupportedOp, "the interpreter cannot run this operation", "a supported operation", op.name);
}

}  // namespace pto::as::interp
