// Lowering of a module into its executable form: slots, blocks, functions, and the helpers every
// family of operations shares.
#include <algorithm>
#include <cctype>

#include <pto/engine/legality.hpp>
#include <pto/runtime/launch.hpp>

#include "asm/interpreter/lowering.hpp"
#include "asm/operand_descriptors.hpp"
#include "runtime/order_checker.hpp"

namespace pto::as::interp {

std::string location_of(const Module& module, const Operation& op) { return format_location(module.filename, op.loc); }

void Lowerer::fail(const Operation& op, std::string_view code, std::string what, std::string expected,
                   std::string actual) const
{
    Diagnostic d;
    d.code = code;
    d.instruction = is_tile_instruction(op.name) ? isa_mnemonic(op.name) : op.name;
    d.message = std::move(what);
    d.expected = std::move(expected);
    d.actual = std::move(actual);
    d.location = location_of(module_, op);
    throw SimError(std::move(d));
}

int Lowerer::slot(const Value* v) const
{
    const auto it = slots_.find(v);
    return it == slots_.end() ? -1 : it->second;
}

int Lowerer::define(const Value* v)
{
    const int s = next_slot_++;
    slots_[v] = s;
    return s;
}

Type Lowerer::operand_type(const Operation& op, std::size_t i) const { return op.operand_type(i); }

Type Lowerer::result_type(const Operation& op, std::size_t i) const
{
    return i < op.results.size() ? op.results[i]->type : Type{};
}

std::vector<GroupItem> Lowerer::group(const Operation& op, std::string_view keyword) const
{
    std::vector<GroupItem> out;
    for (const GroupEntry& entry : op.group(keyword))
        out.push_back(entry.value ? GroupItem{slot(entry.value), 0} : GroupItem{-1, entry.literal});
    return out;
}

engine::TileDesc Lowerer::tile_prototype(const Operation& op, const Type& type) const
{
    if (!type.is<TileType>()) fail(op, codes::kBadOperand, "operand is not a tile", "a !pto.tile_buf or !pto.tile type", "another type");
    auto d = tile_descriptor(type);
    if (!d) fail(op, codes::kBadOperand, "tile element type has no engine equivalent");
    // A valid extent given at run time starts as the capacity until set_validshape or alloc_tile says.
    if (!engine::known(d->valid_rows)) d->valid_rows = d->rows;
    if (!engine::known(d->valid_cols)) d->valid_cols = d->cols;
    return *d;
}

Body* Lowerer::lower_block(const Block& block)
{
    program_.bodies.push_back(std::make_unique<Body>());
    Body* body = program_.bodies.back().get();
    for (const auto& arg : block.arguments) body->arguments.push_back(define(arg.get()));
    for (const auto& owned : block.operations) {
        const Operation& op = *owned;
        const bool last = &owned == &block.operations.back();
        if (op.name == "scf.yield" || op.name == "func.return" || op.name == "scf.condition") {
            if (!last) fail(op, codes::kUnsupportedOp, "a terminator must end its block");
            std::size_t first = 0;
            if (op.name == "scf.condition") {
                body->condition = slot(op.operands.at(0));
                first = 1;
            }
            for (std::size_t i = first; i < op.operands.size(); ++i) body->terminator.push_back(slot(op.operands[i]));
            continue;
        }
        const OpInfo* info = find_op(op.name);
        if (!info) fail(op, codes::kUnsupportedOp, "the interpreter cannot run this operation", "a supported operation", op.name);
        for (const Value* v : op.operands)
            if (slot(v) < 0) fail(op, codes::kBadOperand, "operand used before its definition", {}, v->reference());
        const std::size_t first_step = body->steps.size();
        switch (info->cls) {
            case OpClass::Arith: lower_arith(op, *body); break;
            case OpClass::Control: lower_control(op, *body); break;
            case OpClass::View: lower_view(op, *body); break;
            case OpClass::Query: lower_query(op, *body); break;
            case OpClass::Sync: lower_sync(op, *body); break;
            case OpClass::Section: {
                // A vector scope runs its region in place (a strict one first passes its operands to its
                // block's arguments); a section only on the cores of its kind.
                const auto skipped = op.name == "pto.section.cube"     ? runtime::CoreKind::Vector
                                     : op.name == "pto.section.vector" ? runtime::CoreKind::Cube
                                                                       : runtime::CoreKind::Unified;
                for (const auto& region : op.regions)
                    for (const auto& b : region->blocks) {
                        const Body* inner = lower_block(*b);
                        std::vector<int> from;
                        for (const Value* v : op.operands) from.push_back(slot(v));
                        if (from.size() != inner->arguments.size())
                            fail(op, codes::kBadOperand, "the scope's operands are its block's arguments",
                                 std::to_string(inner->arguments.size()), std::to_string(from.size()));
                        body->steps.push_back({[inner, from, skipped](Frame& f) {
                                                   if (skipped != runtime::CoreKind::Unified && runtime::core_kind() == skipped) return;
                                                   for (std::size_t i = 0; i < from.size(); ++i) f.slots[inner->arguments[i]] = f.slots[from[i]];
                                                   run_body(*inner, f);
                                               },
                                               &op});
                    }
                break;
            }
            case OpClass::Tile: lower_tile(op, *info, *body); break;
            case OpClass::Pointer: lower_pointer(op, *body); break;
            case OpClass::Cube: lower_cube(op, *body); break;
            case OpClass::Vector: lower_vector(op, *body); break;
            case OpClass::Pipe: lower_pipe(op, *body); break;
        }
        for (std::size_t i = first_step; i < body->steps.size(); ++i) {
            if (info->cls == OpClass::Pointer || info->cls == OpClass::Vector) body->steps[i].settles = true;
            if (info->pipe) body->steps[i].pipe = int8_t(*info->pipe);
        }
    }
    return body;
}

void Lowerer::lower_function(CompiledFunction& fn)
{
    slots_.clear();
    next_slot_ = 0;
    sites_ = 0;
    frontend_pipe_ = -1;
    const Block* entry = fn.source->entry_block();
    if (!entry) {
        program_.bodies.push_back(std::make_unique<Body>());
        fn.body = program_.bodies.back().get();
    } else {
        fn.body = lower_block(*entry);
    }
    // A kernel function of one kind runs its body as a section of that kind: on the cores of its kind
    // only (a core of a plain launch plays both).
    if (const std::optional<KernelKind> kind = kernel_kind(*fn.source)) {
        const Body* inner = fn.body;
        const runtime::CoreKind skipped = *kind == KernelKind::Cube ? runtime::CoreKind::Vector : runtime::CoreKind::Cube;
        program_.bodies.push_back(std::make_unique<Body>());
        Body* outer = program_.bodies.back().get();
        outer->arguments = inner->arguments;
        outer->terminator = inner->terminator;
        outer->steps.push_back({[inner, skipped](Frame& f) {
                                    if (runtime::core_kind() != skipped) run_body(*inner, f);
                                },
                                nullptr});
        fn.body = outer;
    }
    fn.slot_count = next_slot_;
    fn.storage_sites = sites_;
}

const CompiledFunction* Program::find(std::string_view name) const
{
    for (const auto& f : functions)
        if (f->source->name == name) return f.get();
    return nullptr;
}

std::unique_ptr<Program> lower(const Module& module)
{
    auto program = std::make_unique<Program>();
    program->module = &module;
    // Every function exists before any body is lowered, so calls resolve whatever the order.
    for (const auto& f : module.functions) {
        program->functions.push_back(std::make_unique<CompiledFunction>());
        program->functions.back()->source = f.get();
    }
    // The front-end pipes are lowered as the assembler resolves them, which a broken rule prevents.
    const FrontendPipes frontend = analyze_frontend_pipes(module);
    if (!frontend.problems.empty()) {
        const FrontendProblem& p = frontend.problems.front();
        throw SimError({std::string(p.code), p.op ? p.op->name : "", "", p.what, p.expected, p.actual, format_location(module.filename, p.loc)});
    }
    Lowerer lowerer(*program, module);
    lowerer.frontend_ = &frontend;
    for (const auto& f : program->functions) lowerer.lower_function(*f);
    lowerer.frontend_ = nullptr;
    return program;
}

namespace {

// Calls a run may nest: far above any kernel's, and far below what the host's stack holds, so that a
// recursion that does not end is a diagnostic rather than a crash.
constexpr int kMaxCallDepth = 200;
thread_local int t_call_depth = 0;

}  // namespace

void run_on_pipe(const Step& step, Frame& frame)
{
    runtime::order::MicroInstruction on_pipe(step.op->name.c_str(), pipe_t(step.pipe));
    step.run(frame);
}

std::vector<Slot> call(const Program& program, const CompiledFunction& fn, const std::vector<Slot>& args)
{
    struct Depth {
        Depth() { ++t_call_depth; }
        ~Depth() { --t_call_depth; }
    } depth;
    if (t_call_depth > kMaxCallDepth)
        throw SimError({"RUN_CALL_DEPTH", "func.call", "", "calls nest deeper than the model runs",
                        "at most " + std::to_string(kMaxCallDepth) + " nested calls", "@" + fn.source->name + " at depth " + std::to_string(t_call_depth), ""});
    Frame frame;
    frame.plain_order = !runtime::checked() && runtime::schedule() == runtime::Schedule::Program;
    frame.slots.resize(std::size_t(fn.slot_count));
    frame.storage.resize(std::size_t(fn.storage_sites));
    const Body& body = *fn.body;
    for (std::size_t i = 0; i < body.arguments.size() && i < args.size(); ++i) frame.slots[body.arguments[i]] = args[i];
    // The synchronisation check names instructions by where the program wrote them.
    struct SiteContext {
        const Frame* frame;
        const Program* program;
    } site_context{&frame, &program};
    const runtime::order::SourceSites sites{
        &site_context,
        [](const void* c) -> const void* {
            const Step* step = static_cast<const SiteContext*>(c)->frame->current;
            return step ? step->op : nullptr;
        },
        [](const void* c, const void* op) {
            return location_of(*static_cast<const SiteContext*>(c)->program->module, *static_cast<const Operation*>(op));
        }};
    runtime::order::SourceSiteScope site_scope(&sites);
    try {
        run_body(body, frame);
    } catch (SimError& e) {
        // The engine knows the instruction, not where the program wrote it: add the location.
        if (e.diagnostic().location.empty() && frame.current && frame.current->op) {
            Diagnostic d = e.diagnostic();
            d.location = location_of(*program.module, *frame.current->op);
            throw SimError(std::move(d));
        }
        throw;
    }
    std::vector<Slot> results;
    for (int s : body.terminator) results.push_back(frame.slots[s]);
    return results;
}

}  // namespace pto::as::interp
