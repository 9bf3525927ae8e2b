#include "asm/verifier.hpp"

#include <string>
#include <unordered_set>

#include <pto/engine/legality.hpp>
#include <pto/engine/ops/layout.hpp>
#include <pto/engine/pipes.hpp>
#include <pto/profile/rules.hpp>
#include <pto/profile/rules_vector.hpp>

#include "asm/cube_form.hpp"
#include "asm/diagnostics.hpp"
#include "asm/instruction_binding.hpp"
#include "asm/op_table.hpp"
#include "asm/operand_descriptors.hpp"
#include "asm/pipe_frontend.hpp"
#include "asm/printer.hpp"
#include "asm/syncall_form.hpp"
#include "asm/vector_form.hpp"

namespace pto::as {

namespace {

// The view operations that may rebind a destination given in `outs(...)` instead of defining a result.
bool views_into_destination(std::string_view name) { return name == "pto.subview" || name == "pto.tsubview" || name == "pto.talias"; }

class Verifier {
public:
    Verifier(const Module& m, profile::Target target) : module_(m), profile_(profile::profile_of(target)), sink_(m.filename, 200) {}

    std::vector<Diagnostic> run()
    {
        verify_entries();
        for (const auto& f : module_.functions) {
            std::unordered_set<const Value*> visible;
            if (!f->body) continue;
            for (const Value* arg : f->arguments()) verify_tile_type(arg->loc, "@" + f->name, arg->type);
            verify_region(*f->body, visible, f.get(), nullptr);
        }
        for (FrontendProblem& p : analyze_frontend_pipes(module_).problems)
            sink_.error(p.code, p.loc, std::move(p.what), std::move(p.expected), std::move(p.actual),
                        p.op ? (is_tile_instruction(p.op->name) ? isa_mnemonic(p.op->name) : p.op->name) : std::string());
        return sink_.take();
    }

private:
    void error(std::string_view code, const Operation& op, std::string what, std::string expected = {}, std::string actual = {})
    {
        sink_.error(code, op.loc, std::move(what), std::move(expected), std::move(actual),
                    is_tile_instruction(op.name) ? isa_mnemonic(op.name) : op.name);
    }

    // `function` is set for a function body (its terminator is func.return), `parent` for a region of
    // an operation.
    void verify_region(const Region& region, std::unordered_set<const Value*> visible, const Function* function,
                       const Operation* parent)
    {
        for (const auto& block : region.blocks) {
            for (const auto& a : block->arguments) visible.insert(a.get());
            const Operation* last = block->operations.empty() ? nullptr : block->operations.back().get();
            for (const auto& owned : block->operations) {
                const Operation& op = *owned;
                for (const Value* v : op.operands)
                    if (!visible.count(v)) {
                        if (strict_scope_)
                            error("STRUCT_VECSCOPE_CAPTURE", op, "a strict vector scope takes outside values only as its operands",
                                  "a value of the scope", v->reference());
                        else
                            error(codes::kUseBeforeDef, op, "operand does not dominate its use",
                                  "a value defined before, in this or an enclosing region", v->reference());
                    }
                const bool terminator = op.name == "scf.yield" || op.name == "scf.condition" || op.name == "func.return";
                if (terminator && &op != last) error(codes::kTerminator, op, "a terminator must end its block", "the last operation", "an operation after it");
                verify_op(op);
                verify_vector_interval(op);
                if (is_vector_scope(op)) {
                    // The strict form's body sees nothing from outside but its block's arguments.
                    const bool strict = op.name == "pto.strict_vecscope";
                    const bool outer_strict = strict_scope_;
                    ++vector_scopes_;
                    strict_scope_ = strict;
                    for (const auto& nested : op.regions) verify_region(*nested, strict ? std::unordered_set<const Value*>{} : visible, nullptr, &op);
                    strict_scope_ = outer_strict;
                    --vector_scopes_;
                } else {
                    for (const auto& nested : op.regions) verify_region(*nested, visible, nullptr, &op);
                }
                for (const auto& r : op.results) visible.insert(r.get());
            }
            verify_terminator(last, function, parent, region.loc);
        }
    }

    static bool is_vector_scope(const Operation& op) { return op.name == "pto.vecscope" || op.name == "pto.strict_vecscope"; }

    // Vector registers, masks and alignment states live inside exactly one vector interval: every
    // operation that makes or takes one stands in a pto.vecscope / pto.strict_vecscope, and scopes do
    // not nest. A strict scope's operands match its block's arguments.
    void verify_vector_interval(const Operation& op)
    {
        if (is_vector_scope(op)) {
            if (vector_scopes_ > 0) error("STRUCT_VECSCOPE_NESTED", op, "vector scopes do not nest", "one vector interval", "a scope inside a scope");
            const Block* entry = op.regions.empty() || op.regions[0]->blocks.empty() ? nullptr : op.regions[0]->blocks[0].get();
            if (op.name == "pto.strict_vecscope" && entry && entry->arguments.size() != op.operands.size())
                error(codes::kOperandCount, op, "the scope's operands are its block's arguments",
                      std::to_string(entry->arguments.size()), std::to_string(op.operands.size()));
            return;
        }
        if (vector_scopes_ > 0) {
            if (is_tile_instruction(op.name))
                error("STRUCT_VECSCOPE_TILE", op, "tile instructions stand outside vector scopes", "the instruction outside the pto.vecscope",
                      "inside");
            return;
        }
        if (op.name == "pto.tile_buf_addr")
            error("STRUCT_VECSCOPE", op, "a tile's address is taken inside a vector interval", "the operation inside a pto.vecscope", "outside");
        auto vector_state = [](const Type& t) { return t.is_vector_state(); };
        bool uses = false;
        for (std::size_t i = 0; i < op.operands.size(); ++i) uses = uses || vector_state(op.operand_type(i));
        for (const auto& r : op.results) uses = uses || vector_state(r->type);
        if (uses)
            error("STRUCT_VECSCOPE", op, "vector registers, masks and alignment states live inside a vector interval",
                  "the operation inside a pto.vecscope or pto.strict_vecscope", "outside");
    }

    // The assembler's rules on kernel entries (functions marked `pto.entry`): they return nothing, and
    // no chain of calls from one leads back to it.
    void verify_entries()
    {
        for (const auto& f : module_.functions) {
            if (!find_attribute(f->attributes, "pto.entry")) continue;
            if (!f->result_types.empty())
                sink_.error("STRUCT_ENTRY_RESULTS", f->loc, "a kernel entry returns no values", "no results",
                            std::to_string(f->result_types.size()) + " result" + (f->result_types.size() == 1 ? "" : "s"), "@" + f->name);
            if (calls_back(*f))
                sink_.error("STRUCT_ENTRY_RECURSION", f->loc, "a kernel entry does not recurse", "no call chain back to it",
                            "a call chain from @" + f->name + " back to it", "@" + f->name);
        }
    }

    // Whether a chain of calls from `root` reaches `root` again.
    bool calls_back(const Function& root) const
    {
        std::vector<const Function*> pending{&root};
        std::unordered_set<const Function*> seen;
        while (!pending.empty()) {
            const Function* f = pending.back();
            pending.pop_back();
            for (const Function* callee : callees(*f)) {
                if (callee == &root) return true;
                if (seen.insert(callee).second) pending.push_back(callee);
            }
        }
        return false;
    }

    std::vector<const Function*> callees(const Function& f) const
    {
        std::vector<const Function*> out;
        std::vector<const Region*> regions{f.body.get()};
        while (!regions.empty()) {
            const Region* r = regions.back();
            regions.pop_back();
            if (!r) continue;
            for (const auto& b : r->blocks)
                for (const auto& op : b->operations) {
                    if (op->name == "func.call")
                        if (const Attribute* callee = op->attribute("callee"))
                            if (const Function* g = module_.find_function(callee->text())) out.push_back(g);
                    for (const auto& nested : op->regions) regions.push_back(nested.get());
                }
        }
        return out;
    }

    void verify_terminator(const Operation* last, const Function* function, const Operation* parent, SourceLocation region_loc)
    {
        std::string_view want = "func.return";
        if (parent) {
            if (parent->name == "scf.while" && !parent->regions.empty() && parent->regions[0]->blocks.size() &&
                last && last->parent == parent->regions[0]->blocks.front().get())
                want = "scf.condition";
            else if (parent->name.rfind("scf.", 0) == 0) want = "scf.yield";
            else return;  // sections end wherever they end
        }
        const bool implicit_yield = parent && want == "scf.yield" && parent->results.empty() && parent->name != "scf.while";
        if (!last || last->name != want) {
            if (implicit_yield) return;  // scf.for / scf.if without results may omit the yield
            if (last) error(codes::kTerminator, *last, "block does not end with its terminator", std::string(want), last->name);
            else sink_.error(codes::kTerminator, region_loc, "empty block", std::string(want), "nothing");
            return;
        }
        std::size_t expected = 0;
        if (function) expected = function->result_types.size();
        else if (parent->name == "scf.while" && want == "scf.yield") expected = parent->operands.size();
        else expected = parent->results.size();
        std::size_t got = last->operands.size() - (want == "scf.condition" ? 1 : 0);
        if (want != "scf.condition" && got != expected)
            error(codes::kYieldCount, *last, "terminator passes the wrong number of values", std::to_string(expected), std::to_string(got));
    }

    void verify_op(const Operation& op)
    {
        if (op.name == "scf.yield" || op.name == "scf.condition" || op.name == "func.return") return;
        const OpInfo* info = find_op(op.name);
        if (!info) {
            error(codes::kUnknownOp, op, "unknown operation", "an operation the toolchain implements", op.name);
            return;
        }
        if (info->cls == OpClass::Tile) return verify_instruction(op, *info);
        if (info->cls == OpClass::Vector) {
            std::vector<VectorProblem> problems;
            read_vector_form(op, problems);
            for (VectorProblem& p : problems) error(p.code, op, std::move(p.what), std::move(p.expected), std::move(p.actual));
            return;
        }
        if (info->cls == OpClass::Cube) {
            std::vector<CubeProblem> problems;
            const CubeForm form = read_cube_form(op, problems);
            if (problems.empty()) check_cube_rules(op, form, profile_, problems);
            for (CubeProblem& p : problems) error(p.code, op, std::move(p.what), std::move(p.expected), std::move(p.actual));
            return;
        }
        // Only a tile instruction writes into destinations it is given; any other operation defines results.
        if (op.num_outputs > 0 && !views_into_destination(op.name))
            error(codes::kDestinations, op, "only tile instructions take destinations", "results, no outs(...)",
                  std::to_string(op.num_outputs) + " destination" + (op.num_outputs == 1 ? "" : "s"));
        const std::size_t n = op.operands.size();
        if (n < info->min_inputs || n > info->max_inputs)
            error(codes::kOperandCount, op, "wrong number of operands",
                  info->min_inputs == info->max_inputs ? std::to_string(info->min_inputs)
                                                       : std::to_string(info->min_inputs) + ".." + std::to_string(info->max_inputs),
                  std::to_string(n));
        if (info->cls == OpClass::Arith) {
            if (op.results.size() != 1) error(codes::kStructResultCount, op, "wrong number of results", "1", std::to_string(op.results.size()));
            if (op.name == "arith.constant" && !op.attribute("value")) error(codes::kMissingAttribute, op, "missing attribute", "value", "none");
            if ((op.name == "arith.cmpi" || op.name == "arith.cmpf") && !op.attribute("predicate"))
                error(codes::kMissingAttribute, op, "missing attribute", "predicate", "none");
            for (std::size_t i = 0; i < n; ++i) {
                const Type t = op.operand_type(i);
                if (!t.is_none() && !t.is_scalar()) error(codes::kOperandKind, op, "operand " + std::to_string(i) + " has the wrong kind", "a scalar", to_string(t));
            }
        }
        if (op.name == "pto.mem_bar" || op.name == "pto.get_buf" || op.name == "pto.rls_buf") verify_buffer_sync(op);
        if (op.name == "pto.syncall") {
            std::vector<SyncallProblem> problems;
            read_syncall(op, problems);
            for (SyncallProblem& p : problems) error(p.code, op, std::move(p.what), std::move(p.expected), std::move(p.actual));
        }
        if (op.name == "func.call") {
            const Attribute* callee = op.attribute("callee");
            if (!callee) error(codes::kMissingAttribute, op, "missing attribute", "callee", "none");
            else if (!module_.find_function(callee->text()))
                error(codes::kUnknownCallee, op, "call of an unknown function", "a function of this module", "@" + callee->text());
        }
        if (views_into_destination(op.name)) verify_view(op);
        if (op.name == "pto.tile_buf_addr" || op.name == "pto.tensor_view_addr") verify_address_of(op);
        if (info->cls == OpClass::Pointer) verify_pointer(op);
        if (op.name == "pto.alloc_tile") {
            if (op.results.size() != 1) error(codes::kStructResultCount, op, "wrong number of results", "1", std::to_string(op.results.size()));
            else if (op.results[0]->type.is<ConvTileType>()) verify_conv_tile_type(op, op.results[0]->type);
            else if (!op.results[0]->type.is<TileType>()) error(codes::kOperandKind, op, "result is not a tile", "a tile type", to_string(op.results[0]->type));
            else verify_tile_type(op, op.results[0]->type);
        }
    }

    // Typed pointers: castptr and addptr define a pointer, addptr of its operand's type; a scalar load
    // or store moves a value of the pointer's element type.
    // pto.mem_bar "VST_VLD"; pto.get_buf / pto.rls_buf with their pipe and i64 operands.
    void verify_buffer_sync(const Operation& op)
    {
        const std::string arg = op.arguments.size() == 1 ? op.arguments[0].enum_value() : std::string();
        if (op.name == "pto.mem_bar") {
            if (!rules::mem_bar_type_ok(arg))
                error("LEGAL_MEM_BAR_TYPE", op, "the ordering a memory barrier keeps", "VV_ALL, VST_VLD or VLD_VST",
                      op.arguments.size() == 1 ? arg : std::to_string(op.arguments.size()) + " arguments");
            return;
        }
        const std::optional<pipe_t> pipe = engine::pipe_from_name(arg);
        if (!pipe || *pipe == PIPE_ALL)
            error(codes::kAttributeValue, op, "the pipe that acquires or releases the slot", "one pipe: PIPE_S, PIPE_V, PIPE_MTE2, ...",
                  op.arguments.size() == 1 ? arg : std::to_string(op.arguments.size()) + " arguments");
        for (std::size_t i = 0; i < op.operands.size(); ++i)
            if (const Type t = op.operand_type(i); !t.is_none() && !(t.is<IntegerType>() || t.is<IndexType>()))
                error(codes::kOperandKind, op, "operand " + std::to_string(i) + " is an integer", "i64", to_string(t));
    }

    void verify_pointer(const Operation& op)
    {
        const bool store = op.name == "pto.store_scalar", defines_pointer = op.name == "pto.castptr" || op.name == "pto.addptr";
        if (op.results.size() != (store ? 0u : 1u)) {
            error(codes::kStructResultCount, op, "wrong number of results", store ? "0" : "1", std::to_string(op.results.size()));
            return;
        }
        const std::size_t pointer_at = store ? 1 : 0;
        const Type result = store ? Type{} : op.results[0]->type;
        if (defines_pointer && !result.is_none() && !result.is<PtrType>())
            error(codes::kOperandKind, op, "the result is a pointer", "!pto.ptr<T, space>", to_string(result));
        if (op.name == "pto.castptr" || op.operands.size() <= pointer_at) return;
        const Type pointer = op.operand_type(pointer_at);
        if (pointer.is_none()) return;
        if (!pointer.is<PtrType>()) {
            error(codes::kOperandKind, op, "operand " + std::to_string(pointer_at) + " is a pointer", "!pto.ptr<T, space>", to_string(pointer));
            return;
        }
        if (op.name == "pto.addptr") {
            if (!result.is_none() && !(result == pointer))
                error(codes::kOperandKind, op, "addptr keeps the pointer's type", to_string(pointer), to_string(result));
            return;
        }
        const Type value = store ? op.operand_type(0) : result;
        const std::optional<engine::DType> element = pointer.element_dtype();
        if (!value.is_none() && element && value.element_dtype() != element)
            error(codes::kOperandKind, op, "the value has the pointer's element type", std::string(engine::dtype_name(*element)), to_string(value));
    }

    // tile_buf_addr gives a pointer into the tile's on-chip memory, tensor_view_addr one into global memory.
    void verify_address_of(const Operation& op)
    {
        if (op.results.size() != 1) return error(codes::kStructResultCount, op, "wrong number of results", "1", std::to_string(op.results.size()));
        const Type result = op.results[0]->type;
        const bool tile = op.name == "pto.tile_buf_addr";
        const auto* ptr = result.dyn_cast<PtrType>();
        const bool on_chip = ptr && ptr->space && memory_of(*ptr->space);
        if (!result.is_none() && (!ptr || on_chip != tile))
            error(codes::kOperandKind, op, "the result is a pointer into the operand's memory", tile ? "!pto.ptr<T, vec>" : "!pto.ptr<T, gm>",
                  to_string(result));
    }

    // pto.subview / pto.talias: the view's rules on the types (the position is the run's to check).
    void verify_view(const Operation& op)
    {
        const std::size_t inputs = op.inputs().size();
        const Type view_type = op.num_outputs ? op.operand_type(inputs) : (op.results.empty() ? Type{} : op.results[0]->type);
        const auto src = tile_descriptor(op.operand_type(0));
        const auto dst = tile_descriptor(view_type);
        if (!src || !dst) return;
        FindingsAt sink(*this, op);
        if (op.name == "pto.talias") engine::check_talias(profile_, *dst, *src, sink);
        else engine::check_tsubview(profile_, *dst, *src, 0, 0, sink);
    }

    void verify_instruction(const Operation& op, const OpInfo& info)
    {
        const std::size_t inputs = op.inputs().size();
        std::vector<Type> in, out;
        for (std::size_t i = 0; i < op.operands.size(); ++i) (i < inputs ? in : out).push_back(op.operand_type(i));
        for (const auto& r : op.results) out.push_back(r->type);
        for (const Type& t : in) verify_tile_type(op, t);
        for (const Type& t : out) verify_tile_type(op, t);
        std::vector<BindingProblem> problems;
        const auto binding = bind_instruction(op, info, in, out, problems);
        for (BindingProblem& p : problems) error(p.code, op, std::move(p.what), std::move(p.expected), std::move(p.actual));
        if (binding) check_legality(op, *info.instruction, *binding, in, out);
    }

    // The rules every tile type obeys wherever it appears.
    void verify_tile_type(const Operation& op, const Type& type) { verify_tile_type(op.loc, is_tile_instruction(op.name) ? isa_mnemonic(op.name) : op.name, type); }

    void verify_tile_type(SourceLocation loc, const std::string& where, const Type& type)
    {
        const auto f = tile_descriptor(type);
        if (!f) return;
        auto report = [&](std::string_view code, std::string what, std::string expected, std::string actual) {
            sink_.error(code, loc, std::move(what), std::move(expected), std::move(actual), where);
        };
        const int bits = engine::dtype_bits(f->dtype);
        if (!rules::tile_shape_ok(f->rows, f->cols, f->valid_rows, f->valid_cols))
            report("LEGAL_TILE_SHAPE", "tile shape", "a positive capacity holding the valid region",
                  std::to_string(f->rows) + "x" + std::to_string(f->cols) + " valid " + std::to_string(f->valid_rows) + "x" + std::to_string(f->valid_cols));
        if (!rules::fractal_size_ok(f->fractal_bytes)) report("LEGAL_FRACTAL_SIZE", "fractal size", "512, 1024 or 32 bytes", std::to_string(f->fractal_bytes));
        if (!rules::unboxed_alignment_ok(f->blayout, f->slayout, f->rows, f->cols, bits))
            report("LEGAL_TILE_ALIGN", "an unboxed tile's line is whole 32-byte blocks", "a multiple of 32 bytes",
                  std::to_string((f->blayout == BLayout::RowMajor ? f->cols : f->rows) * bits / 8) + " bytes");
        if (!rules::boxed_shape_ok(f->loc, f->slayout, f->rows, f->cols, f->fractal_bytes, bits))
            report("LEGAL_TILE_BOX", "a boxed tile is a whole number of boxes", "whole boxes", std::to_string(f->rows) + "x" + std::to_string(f->cols));
        const uint64_t bytes = uint64_t(f->rows) * uint64_t(f->cols) * uint64_t(bits) / 8;
        const uint64_t capacity = profile::capacity_of(profile_, f->loc);
        if (f->rows > 0 && f->cols > 0 && !rules::tile_address_ok(0, bytes, capacity, profile_.tile_alignment))
            report("LEGAL_TILE_ADDRESS", "the tile does not fit its memory on " + std::string(profile_.name),
                  "at most " + std::to_string(capacity) + " bytes of " + std::string(profile::memory_name(f->loc)), std::to_string(bytes) + " bytes");
    }

    // A convolution tile fits its memory (its dense size from address 0) and has an engine element type.
    void verify_conv_tile_type(const Operation& op, const Type& type)
    {
        const auto c = conv_tile_descriptor(type);
        if (!c) {
            error(codes::kOperandKind, op, "the convolution tile's element type has no engine equivalent", "an engine element type", to_string(type));
            return;
        }
        const uint64_t bytes = uint64_t(c->buffer_bytes);
        const uint64_t capacity = profile::capacity_of(profile_, c->loc);
        if (!rules::tile_address_ok(0, bytes, capacity, profile_.tile_alignment))
            sink_.error("LEGAL_TILE_ADDRESS", op.loc, "the convolution tile does not fit its memory on " + std::string(profile_.name),
                        "at most " + std::to_string(capacity) + " bytes of " + std::string(profile::memory_name(c->loc)),
                        std::to_string(bytes) + " bytes", op.name);
    }

    // The engine's findings on one operation, located at it.
    class FindingsAt final : public engine::LegalitySink {
    public:
        FindingsAt(Verifier& verifier, const Operation& op) : verifier_(verifier), op_(op) {}
        void report(Diagnostic finding) override
        {
            verifier_.sink_.error(finding.code, op_.loc, std::move(finding.message), std::move(finding.expected),
                                  std::move(finding.actual), isa_mnemonic(op_.name), std::move(finding.operand));
        }

    private:
        Verifier& verifier_;
        const Operation& op_;
    };

    // A scalar operand's value where an arith.constant states it (the rules that read a scalar run on it),
    // else unknown.
    static engine::ScalarValue constant_scalar(const Value* value)
    {
        const Attribute* constant = constant_value(value);
        if (!constant) return {};
        if (constant->is(Attribute::Kind::Integer)) return {.i = constant->int_value(), .known = true};
        if (constant->is(Attribute::Kind::Float)) return {.f = constant->float_value(), .is_float = true, .known = true};
        return {};
    }

    // The definition's own operand rules, on descriptors built from the operand types (and what the
    // program states about its views). An operand the types cannot describe leaves the rules to the run.
    void check_legality(const Operation& op, const engine::InstrDef& def, const InstructionBinding& binding,
                        const std::vector<Type>& in, const std::vector<Type>& out)
    {
        const engine::Form& form = def.forms[binding.form];
        const std::vector<const Value*> values = [&] {
            std::vector<const Value*> v(op.operands.begin(), op.operands.end());
            for (const auto& r : op.results) v.push_back(r.get());
            return v;
        }();
        std::vector<engine::TileDesc> tiles;
        std::vector<engine::ConvTileDesc> convs;
        std::vector<engine::GlobalDesc> views;
        std::vector<engine::ScalarValue> scalars;
        tiles.reserve(values.size());
        convs.reserve(values.size());
        views.reserve(values.size());
        scalars.reserve(values.size());
        auto describe = [&](const Value* value, const Type& type, engine::CallOperand& operand) {
            if (type.is<TileType>()) {
                const auto t = tile_descriptor(type);
                if (!t) return false;
                operand.tile = &tiles.emplace_back(*t);
            } else if (type.is<ConvTileType>()) {
                const auto t = conv_tile_descriptor(type);
                if (!t) return false;
                operand.conv = &convs.emplace_back(*t);
            } else if (fits_operand_kind(type, engine::OperandKind::View)) {
                const auto v = view_operand_descriptor(value, type);
                if (!v) return false;
                operand.view = &views.emplace_back(*v);
            } else {
                operand.scalar = &scalars.emplace_back(constant_scalar(value));
            }
            return true;
        };
        std::vector<engine::CallOperand> sources(form.sources.size()), destinations(form.destinations.size());
        for (std::size_t i = 0; i < in.size(); ++i)
            if (!describe(values[i], in[i], sources[i])) return;
        for (std::size_t i = 0; i < out.size(); ++i)
            if (!describe(values[in.size() + i], out[i], destinations[i])) return;
        FindingsAt findings(*this, op);
        def.check(profile_, {binding.form, sources, destinations, binding.attributes, true}, findings);
    }

    const Module& module_;
    const profile::Profile& profile_;
    DiagnosticSink sink_;
    int vector_scopes_ = 0;      // vector scopes around the operation being verified
    bool strict_scope_ = false;  // the innermost one is a pto.strict_vecscope
};

}  // namespace

std::vector<Diagnostic> verify(const Module& module, profile::Target target, SyncChecking sync)
{
    std::vector<Diagnostic> found = Verifier(module, target).run();
    std::vector<Diagnostic> order = check_sync_order(module, sync);
    found.insert(found.end(), std::make_move_iterator(order.begin()), std::make_move_iterator(order.end()));
    return found;
}

}  // namespace pto::as
