// The executable form of a module: each function lowered once into flat step lists whose operands are
// pre-resolved slot indices and whose tile descriptors are pre-built, so running an operation looks
// up no name and re-reads no type.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <pto/runtime/memory.hpp>
#include <pto/runtime/schedule.hpp>

#include "asm/interpreter/frame.hpp"
#include "asm/interpreter/step_run.hpp"
#include "asm/ir.hpp"

namespace pto::as::interp {

struct Step {
    StepRun run;
    const Operation* op = nullptr;
    // A micro-instruction or pointer access, which touches memory itself: in the adversarial schedule
    // the tile instructions held back run first.
    bool settles = false;
    // A micro-instruction's pipe (OpInfo::pipe; -1: none): in checked mode its accesses are judged as
    // that pipe's by the synchronisation check.
    int8_t pipe = -1;
};

// A block lowered: its steps, then the slots its terminator passes on (yield, condition, return).
struct Body {
    std::vector<Step> steps;
    std::vector<int> arguments;   // slots of the block's arguments
    std::vector<int> terminator;  // slots the terminator passes to its parent
    int condition = -1;           // scf.condition's flag slot
};

struct CompiledFunction {
    const Function* source = nullptr;
    Body* body = nullptr;
    int slot_count = 0;
    int storage_sites = 0;
};

class Program {
public:
    const Module* module = nullptr;
    std::vector<std::unique_ptr<CompiledFunction>> functions;
    std::vector<std::unique_ptr<Body>> bodies;  // owns every lowered block

    const CompiledFunction* find(std::string_view name) const;
};

// A micro-instruction's step in checked mode: run as an instruction of its pipe.
void run_on_pipe(const Step& step, Frame& frame);

// Two loops rather than one test of plain_order per step: the plain loop is every vector loop's hot
// path, and the test inside it measured about 4 % of vector_micro_bench.
inline void run_body(const Body& body, Frame& frame)
{
    if (frame.plain_order) [[likely]] {
        for (const Step& step : body.steps) {
            frame.current = &step;
            step.run(frame);
        }
        return;
    }
    for (const Step& step : body.steps) {
        frame.current = &step;
        if (step.settles) runtime::settle_held_back_work();
        if (step.pipe >= 0 && runtime::checked()) [[unlikely]] {
            run_on_pipe(step, frame);
            continue;
        }
        step.run(frame);
    }
}

// Lowers every function of `module`. Throws SimError (STRUCT_* / RUN_UNSUPPORTED_OP) with the
// operation's location for anything it cannot execute; run the verifier first for a full report.
std::unique_ptr<Program> lower(const Module& module);

// Runs a compiled function on a fresh frame whose argument slots are `args`; returns its results.
std::vector<Slot> call(const Program& program, const CompiledFunction& fn, const std::vector<Slot>& args);

}  // namespace pto::as::interp
