#include "asm/interpreter/interpreter.hpp"

#include <algorithm>

#include <pto/runtime/launch.hpp>
#include <pto/runtime/memory.hpp>

#include "asm/interpreter/program.hpp"
#include "asm/interpreter/scalar.hpp"
#include "asm/op_table.hpp"
#include "asm/pipe_frontend.hpp"

namespace pto::as {

namespace {

Diagnostic argument_error(std::string_view code, const Module& m, SourceLocation loc, std::string what,
                          std::string expected, std::string actual)
{
    Diagnostic d;
    d.code = code;
    d.message = std::move(what);
    d.expected = std::move(expected);
    d.actual = std::move(actual);
    d.location = format_location(m.filename, loc);
    return d;
}

// Registers the host arrays for the duration of a run, so global accesses are bounds-checked.
class GlobalRegistration {
public:
    void add(const void* base, std::size_t bytes, const char* name)
    {
        runtime::register_global(base, bytes, name);
        bases_.push_back(base);
    }
    ~GlobalRegistration()
    {
        for (const void* b : bases_) runtime::unregister_global(b);
    }

private:
    std::vector<const void*> bases_;
};

// What every core of a launch runs: each function on its arguments, in order (a kernel function of
// one kind only on the cores of its kind); the results are the first one's.
struct LaunchContext {
    const interp::Program* program;
    std::vector<const interp::CompiledFunction*> functions;
    std::vector<std::vector<interp::Slot>> args;
    std::vector<interp::Slot> results;
};

}  // namespace

Interpreter::Interpreter(const Module& module) : module_(module)
{
    try {
        program_ = interp::lower(module);
    } catch (const SimError& e) {
        lowering_errors_.push_back(e.diagnostic());
    } catch (const std::exception& e) {
        // Malformed IR the verifier would have rejected (a missing operand or result): never a crash.
        Diagnostic d;
        d.code = "RUN_MALFORMED_IR";
        d.message = std::string("cannot lower the module: ") + e.what();
        d.location = module.filename;
        lowering_errors_.push_back(std::move(d));
    }
}

Interpreter::~Interpreter() = default;

const Function* Interpreter::entry_function(std::string_view entry) const
{
    if (!entry.empty()) return module_.find_function(entry);
    for (const auto& f : module_.functions)
        if (find_attribute(f->attributes, "pto.entry")) return f.get();
    return module_.functions.empty() ? nullptr : module_.functions.front().get();
}

namespace {

// Whether `fn` imports a buffer `peer` reserves.
bool imports_from(const Function& fn, const Function& peer)
{
    bool found = false;
    if (fn.body)
        walk(*fn.body, [&](const Operation& op) {
            const Attribute* a = op.name == "pto.import_reserved_buffer" ? op.attribute("peer_func") : nullptr;
            found = found || (a && a->text() == peer.name);
        });
    return found;
}

// A mixed kernel split over two functions: the entry and its peers, the functions of the other kind
// it imports a buffer from or that import one from it; with no such link, the module's one function
// of the other kind. Any other entry runs alone.
std::vector<const Function*> kernel_functions(const Module& m, const Function& entry)
{
    std::vector<const Function*> out{&entry};
    const std::optional<KernelKind> kind = kernel_kind(entry);
    if (!kind) return out;
    std::vector<const Function*> others;
    for (const auto& f : m.functions)
        if (const auto k = kernel_kind(*f); k && *k != *kind) others.push_back(f.get());
    for (const Function* f : others)
        if (imports_from(entry, *f) || imports_from(*f, entry)) out.push_back(f);
    if (out.size() == 1 && others.size() == 1) out.push_back(others.front());
    return out;
}

// Whether `fn` is a mixed kernel: a kernel function with a peer of the other kind, or one with a cube
// or vector section anywhere in its body or in a function it calls. A kernel function alone (a vector
// kernel with no cube function) runs as the device runs it: each block on one core.
bool runs_mixed(const Module& m, const Function& fn, std::vector<const Function*>& seen)
{
    if (std::find(seen.begin(), seen.end(), &fn) != seen.end()) return false;
    seen.push_back(&fn);
    if (kernel_kind(fn) && kernel_functions(m, fn).size() > 1) return true;
    bool found = false;
    if (fn.body)
        walk(*fn.body, [&](const Operation& op) {
            if (op.name == "pto.section.cube" || op.name == "pto.section.vector") found = true;
            if (const Attribute* callee = op.name == "func.call" ? op.attribute("callee") : nullptr)
                if (const Function* g = m.find_function(callee->text())) found = found || runs_mixed(m, *g, seen);
        });
    return found;
}

}  // namespace

std::vector<const Value*> Interpreter::arguments(const Function& entry) const
{
    std::vector<const Value*> params;
    for (const Function* f : kernel_functions(module_, entry))
        for (const Value* v : f->arguments())
            if (std::none_of(params.begin(), params.end(), [&](const Value* p) { return p->name == v->name; })) params.push_back(v);
    return params;
}

RunResult Interpreter::run(const std::vector<ArgumentBinding>& args, const RunOptions& options) const
{
    RunResult result;
    if (!lowering_errors_.empty()) {
        result.diagnostics = lowering_errors_;
        return result;
    }
    const Function* fn = entry_function(options.entry);
    if (!fn) {
        std::string names;
        for (const auto& f : module_.functions) names += (names.empty() ? "@" : ", @") + f->name;
        result.diagnostics.push_back(argument_error(codes::kUnknownEntry, module_, {}, "no such entry function",
                                                    names.empty() ? "a function" : "one of " + names,
                                                    options.entry.empty() ? "an empty module" : "@" + options.entry));
        return result;
    }
    // Bind every argument by name, reporting all the problems at once.
    const std::vector<const Function*> functions = kernel_functions(module_, *fn);
    const std::vector<const Value*> params = arguments(*fn);
    std::vector<interp::Slot> slots(params.size());
    std::vector<bool> bound(params.size(), false);
    GlobalRegistration globals;
    for (const ArgumentBinding& b : args) {
        const auto it = std::find_if(params.begin(), params.end(), [&](const Value* v) { return v->name == b.name; });
        if (it == params.end()) {
            std::string names;
            for (const Value* v : params) names += (names.empty() ? "" : ", ") + v->name;
            result.diagnostics.push_back(argument_error(codes::kArgUnknown, module_, fn->loc, "no argument of @" + fn->name + " has this name",
                                                        names.empty() ? "no arguments" : "one of " + names, b.name));
            continue;
        }
        const std::size_t i = std::size_t(it - params.begin());
        const Value& param = **it;
        bound[i] = true;
        if (const auto* ptr = param.type.dyn_cast<PtrType>()) {
            const auto dtype = param.type.element_dtype();
            if (!b.data) {
                result.diagnostics.push_back(argument_error(codes::kArgKind, module_, param.loc, "argument %" + b.name + " is a pointer",
                                                            "an array", "a scalar"));
                continue;
            }
            if (b.dtype && dtype && *b.dtype != *dtype) {
                result.diagnostics.push_back(argument_error(codes::kArgDType, module_, param.loc, "array element type of %" + b.name,
                                                            std::string(engine::dtype_name(*dtype)), std::string(engine::dtype_name(*b.dtype))));
                continue;
            }
            (void)ptr;
            engine::GlobalDesc& view = slots[i].view;
            view.data = b.data;
            view.dtype = dtype.value_or(engine::DType::U8);
            view.shape[4] = int64_t(b.bytes * 8 / std::size_t(engine::dtype_bits(view.dtype)));
            globals.add(b.data, b.bytes, param.name.c_str());
        } else if (param.type.is_scalar()) {
            if (!b.scalar) {
                result.diagnostics.push_back(argument_error(codes::kArgKind, module_, param.loc, "argument %" + b.name + " is a scalar",
                                                            "a number", "an array"));
                continue;
            }
            const interp::ScalarKind k = interp::scalar_kind(param.type);
            if (k.is_float) slots[i].f = k.round(*b.scalar);
            else slots[i].i = k.wrap(int64_t(*b.scalar));
        } else {
            result.diagnostics.push_back(argument_error(codes::kArgKind, module_, param.loc, "an entry argument must be a pointer or a scalar",
                                                        "!pto.ptr or a scalar type", "another type"));
        }
    }
    for (std::size_t i = 0; i < params.size(); ++i)
        if (!bound[i])
            result.diagnostics.push_back(argument_error(codes::kArgMissing, module_, params[i]->loc, "argument %" + params[i]->name + " is not bound",
                                                        "a value for every argument", "none"));
    if (!result.diagnostics.empty()) return result;

    runtime::set_target(options.target);
    runtime::set_checked(options.checked);
    runtime::set_schedule(options.schedule);
    try {
        LaunchContext ctx{program_.get(), {}, {}, {}};
        for (const Function* f : functions) {
            ctx.functions.push_back(program_->find(f->name));
            std::vector<interp::Slot>& args_of_f = ctx.args.emplace_back();
            for (const Value* v : f->arguments())
                args_of_f.push_back(slots[std::size_t(std::find_if(params.begin(), params.end(), [&](const Value* p) { return p->name == v->name; }) -
                                                      params.begin())]);
        }
        // Every block, the only one too, runs the entry on a core of its own with fresh memories, so
        // that nothing one run left in UB is read by the next; the scalar results are block 0's (its
        // cube core's). A mixed kernel (cube and vector sections, or kernel functions of either kind)
        // runs on a cube core and two vector cores per block at once, each running what is of its kind.
        const auto body = [](void* p, uint32_t block) {
            auto* c = static_cast<LaunchContext*>(p);
            for (std::size_t i = 0; i < c->functions.size(); ++i) {
                std::vector<interp::Slot> results = interp::call(*c->program, *c->functions[i], c->args[i]);
                if (i == 0 && block == 0 && runtime::core_kind() != runtime::CoreKind::Vector) c->results = std::move(results);
            }
        };
        const uint32_t blocks = std::max<uint32_t>(options.blocks, 1);
        std::vector<const Function*> seen;
        if (runs_mixed(module_, *fn, seen)) {
            runtime::launch_mixed(blocks, body, &ctx);
        } else {
            runtime::launch(blocks, body, &ctx);
        }
        for (std::size_t k = 0; k < ctx.results.size() && k < fn->result_types.size(); ++k) {
            const interp::ScalarKind rk = interp::scalar_kind(fn->result_types[k]);
            result.results.push_back(rk.is_float ? ctx.results[k].f : double(ctx.results[k].i));
        }
    } catch (const SimError& e) {
        result.diagnostics.push_back(e.diagnostic());
    }
    return result;
}

RunResult run(const Module& module, const std::vector<ArgumentBinding>& args, const RunOptions& options)
{
    return Interpreter(module).run(args, options);
}

std::vector<engine::Instr> interpreter_instructions()
{
    std::vector<engine::Instr> out;
    for (const OpInfo& info : all_ops())
        if (info.instruction && std::find(out.begin(), out.end(), info.instruction->id) == out.end())
            out.push_back(info.instruction->id);
    return out;
}

}  // namespace pto::as
