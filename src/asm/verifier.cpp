#include "asm/verifier.hpp"

#include <string>
#include <unordered_set>

#include <pto/engine/legality.hpp>
#include <pto/engine/ops/col_expand.hpp>
#include <pto/engine/ops/gather.hpp>
#include <pto/engine/ops/memory_gather.hpp>
#include <pto/engine/ops/sort.hpp>
#include <pto/profile/rules.hpp>
#include <pto/profile/rules_data_movement.hpp>
#include <pto/profile/rules_elementwise.hpp>

#include "asm/diagnostics.hpp"
#include "asm/instruction_attributes.hpp"
#include "asm/op_table.hpp"
#include "asm/operand_descriptors.hpp"
#include "asm/printer.hpp"

namespace pto::as {

namespace {

std::string_view kind_name(OperandKind k)
{
    switch (k) {
        case OperandKind::Tile: return "a tile";
        case OperandKind::View: return "a tensor view";
        case OperandKind::Scalar: return "a scalar";
        case OperandKind::Pointer: return "a pointer";
        case OperandKind::Any: return "any value";
    }
    return "?";
}

std::string loc_name(pto::TileType loc) { return std::string(tile_loc_name(loc, false)); }
std::string dtype_str(engine::DType t) { return std::string(engine::dtype_name(t)); }

class Verifier {
public:
    Verifier(const Module& m, profile::Target target) : module_(m), profile_(profile::profile_of(target)), sink_(m.filename, 200) {}

    std::vector<Diagnostic> run()
    {
        for (const auto& f : module_.functions) {
            std::unordered_set<const Value*> visible;
            if (!f->body) continue;
            for (const Value* arg : f->arguments()) verify_tile_type(arg->loc, "@" + f->name, arg->type);
            verify_region(*f->body, visible, f.get(), nullptr);
        }
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
                    if (!visible.count(v))
                        error(codes::kUseBeforeDef, op, "operand does not dominate its use", "a value defined before, in this or an enclosing region",
                              v->reference());
                const bool terminator = op.name == "scf.yield" || op.name == "scf.condition" || op.name == "func.return";
                if (terminator && &op != last) error(codes::kTerminator, op, "a terminator must end its block", "the last operation", "an operation after it");
                verify_op(op);
                for (const auto& nested : op.regions) verify_region(*nested, visible, nullptr, &op);
                for (const auto& r : op.results) visible.insert(r.get());
            }
            verify_terminator(last, function, parent, region.loc);
        }
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
        // Only a tile instruction writes into destinations it is given; any other operation defines results.
        if (op.num_outputs > 0)
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
        if (op.name == "func.call") {
            const Attribute* callee = op.attribute("callee");
            if (!callee) error(codes::kMissingAttribute, op, "missing attribute", "callee", "none");
            else if (!module_.find_function(callee->text()))
                error(codes::kUnknownCallee, op, "call of an unknown function", "a function of this module", "@" + callee->text());
        }
        if (op.name == "pto.alloc_tile") {
            if (op.results.size() != 1) error(codes::kStructResultCount, op, "wrong number of results", "1", std::to_string(op.results.size()));
            else if (!op.results[0]->type.is<TileType>()) error(codes::kOperandKind, op, "result is not a tile", "a tile type", to_string(op.results[0]->type));
            else verify_tile_type(op, op.results[0]->type);
        }
    }

    void verify_instruction(const Operation& op, const OpInfo& info)
    {
        const std::size_t inputs = op.inputs().size();
        const std::size_t dests = op.num_outputs + op.results.size();
        if (inputs < info.min_inputs || inputs > info.max_inputs)
            error(codes::kOperandCount, op, "wrong number of sources",
                  std::to_string(info.min_inputs) + (info.min_inputs == info.max_inputs ? "" : ".." + std::to_string(info.max_inputs)),
                  std::to_string(inputs));
        if (dests < info.min_dests || dests > info.max_dests)
            error(codes::kStructResultCount, op, "wrong number of destinations",
                  std::to_string(info.min_dests) + (info.min_dests == info.max_dests ? "" : ".." + std::to_string(info.max_dests)),
                  std::to_string(dests));
        std::vector<Type> in, out;
        for (std::size_t i = 0; i < op.operands.size(); ++i) (i < inputs ? in : out).push_back(op.operand_type(i));
        for (const auto& r : op.results) out.push_back(r->type);
        // TASSIGN accepts either order of (tile, offset); its kinds are checked when it runs.
        if (*info.instr != engine::Instr::TASSIGN) {
            auto check_kinds = [&](const std::vector<Type>& types, std::span<const OperandKind> kinds, std::string_view role) {
                for (std::size_t i = 0; i < types.size() && !kinds.empty(); ++i) {
                    const OperandKind k = kinds[std::min(i, kinds.size() - 1)];
                    if (!types[i].is_none() && !has_operand_kind(types[i], k))
                        error(codes::kOperandKind, op, std::string(role) + " " + std::to_string(i) + " has the wrong kind", std::string(kind_name(k)),
                              to_string(types[i]));
                }
            };
            check_kinds(in, info.input_kinds, "source");
            check_kinds(out, info.dest_kinds, "destination");
        }
        for (const Type& t : in) verify_tile_type(op, t);
        for (const Type& t : out) verify_tile_type(op, t);
        if (op.name.find("tgather") != std::string::npos && inputs == 1 && dests == 1 && !op.attribute("maskPattern"))
            error(codes::kMissingAttribute, op, "the mask form of TGATHER needs a pattern", "maskPattern", "none");
        verify_legality(op, info, in, out);
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

    void legal(bool ok, std::string_view code, const Operation& op, std::string what, std::string expected, std::string actual)
    {
        if (!ok) error(code, op, std::move(what) + " on " + std::string(profile_.name), std::move(expected), std::move(actual));
    }

    // The descriptor of the i-th of a list of operand types, if there is one and it is a tile.
    static std::optional<engine::TileDesc> tile(const std::vector<Type>& types, std::size_t i)
    {
        return i < types.size() ? tile_descriptor(types[i]) : std::nullopt;
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

    // The five seed instructions: the engine's own operand checks, on descriptors built from the types.
    void check_engine_rules(const Operation& op, const OpInfo& info, const std::vector<Type>& in, const std::vector<Type>& out)
    {
        using engine::Instr;
        FindingsAt findings(*this, op);
        const auto& p = profile_;
        switch (*info.instr) {
            case Instr::TGATHER: {
                const auto dst = tile(out, 0), src = tile(in, 0);
                if (!dst || !src) return;
                const auto tmp = tile(in, 2);
                if (in.size() > 2 && !tmp) return;
                switch (tgather_form(in.size(), out.size())) {
                    case TgatherForm::Index:
                        if (const auto indices = tile(in, 1))
                            engine::check_tgather_index(p, *dst, *src, *indices, tmp ? &*tmp : nullptr, findings);
                        return;
                    case TgatherForm::Mask: return engine::check_tgather_mask(p, *dst, *src, gather_axis_of(op), findings);
                    case TgatherForm::Compare: {
                        const auto cdst = tile(out, 1);
                        if (!cdst || in.size() < 2) return;
                        const auto k = has_operand_kind(in[1], OperandKind::Tile) ? tile(in, 1) : std::optional(scalar_threshold_tile(p, *src));
                        if (k) engine::check_tgather_compare(p, *dst, *src, *k, *cdst, tmp ? &*tmp : nullptr, cmp_mode_of(op), findings);
                        return;
                    }
                }
                return;
            }
            case Instr::TSORT32: {
                const auto dst = tile(out, 0), src = tile(in, 0), indices = tile(in, 1), tmp = tile(in, 2);
                if (dst && src && indices && (in.size() <= 2 || tmp))
                    engine::check_tsort32(p, *dst, *src, *indices, tmp ? &*tmp : nullptr, findings);
                return;
            }
            case Instr::TCOLEXPAND: {
                const auto dst = tile(out, 0), src = tile(in, 0);
                if (dst && src) engine::check_tcolexpand(p, *dst, *src, findings);
                return;
            }
            case Instr::MGATHER: {
                const auto dst = tile(out, 0);
                const auto inputs = op.inputs();
                if (!dst || in.size() < 2) return;
                const auto table = view_operand_descriptor(inputs[0], in[0]);
                if (!table) return;
                const MgatherForm form = mgather_form(has_operand_kind(in[1], OperandKind::Tile), in.size());
                if (form == MgatherForm::UbIndex) {
                    if (const auto idx = tile(in, 1)) engine::check_mgather(p, *dst, *table, *idx, coalesce_of(op, info), findings);
                    return;
                }
                const auto idx = view_operand_descriptor(inputs[1], in[1]);
                const auto scratch = form == MgatherForm::L1Scratch ? view_operand_descriptor(inputs[2], in[2]) : std::nullopt;
                if (!idx || (form == MgatherForm::L1Scratch && !scratch)) return;
                engine::check_mgather_l1(p, *dst, *table, *idx, scratch ? &*scratch : nullptr, coalesce_of(op, info),
                                         gather_exec_of(op), findings);
                return;
            }
            case Instr::MSCATTER: {
                const auto src = tile(in, 0), idx = tile(in, 1);
                const Value* table_value = op.num_outputs > 0 ? op.outputs()[0] : op.results.empty() ? nullptr : op.results[0].get();
                const auto table = out.empty() ? std::nullopt : view_operand_descriptor(table_value, out[0]);
                if (src && idx && table)
                    engine::check_mscatter(p, *table, *src, *idx, coalesce_of(op, info), scatter_atomic_of(op), findings);
                return;
            }
            default: return;
        }
    }

    void verify_legality(const Operation& op, const OpInfo& info, const std::vector<Type>& in, const std::vector<Type>& out)
    {
        const engine::Instr instr = *info.instr;
        using engine::Instr;
        const auto& p = profile_;
        switch (instr) {
            case Instr::TADD: case Instr::TSUB: case Instr::TMUL: case Instr::TDIV: {
                const auto d = tile(out, 0);
                if (!d) return;
                const bool dtype_ok = instr == Instr::TADD ? rules::tadd_dtype_ok(p, d->dtype)
                                    : instr == Instr::TSUB ? rules::tsub_dtype_ok(p, d->dtype)
                                    : instr == Instr::TMUL ? rules::tmul_dtype_ok(p, d->dtype) : rules::tdiv_dtype_ok(p, d->dtype);
                legal(dtype_ok, "LEGAL_" + std::string(engine::instr_name(instr)) + "_DTYPE", op, "element type not supported",
                      "a supported element type", dtype_str(d->dtype));
                for (std::size_t i = 0; i < 2; ++i) {
                    const auto s = tile(in, i);
                    if (!s) continue;
                    legal(rules::elementwise_same_dtype(d->dtype, s->dtype), "LEGAL_ELEMWISE_DTYPE", op, "sources have the destination's element type",
                          dtype_str(d->dtype), dtype_str(s->dtype));
                    legal(rules::elementwise_location_ok(s->loc), "LEGAL_ELEMWISE_LOCATION", op, "element-wise operands live in UB", "vec", loc_name(s->loc));
                    legal(rules::elementwise_layout_ok(p, s->blayout, s->slayout), "LEGAL_ELEMWISE_LAYOUT", op, "element-wise operands are row-major and unboxed",
                          "row_major, none_box", std::string(blayout_name(s->blayout, false)) + ", " + std::string(slayout_name(s->slayout, false)));
                }
                legal(rules::elementwise_location_ok(d->loc), "LEGAL_ELEMWISE_LOCATION", op, "element-wise operands live in UB", "vec", loc_name(d->loc));
                return;
            }
            case Instr::TLOAD: {
                const auto d = tile(out, 0);
                if (!d) return;
                legal(rules::tload_dtype_ok(p, d->dtype), "LEGAL_TLOAD_DTYPE", op, "element type cannot be loaded", "a loadable element type", dtype_str(d->dtype));
                legal(rules::tload_location_ok(d->loc), "LEGAL_TLOAD_LOCATION", op, "a load lands in a Vec or Mat tile", "vec or mat", loc_name(d->loc));
                return;
            }
            case Instr::TSTORE: {
                const auto s = tile(in, 0);
                if (!s) return;
                legal(rules::tstore_location_ok(p, s->loc), "LEGAL_TSTORE_LOCATION", op, "tile location cannot be stored", "a storable location", loc_name(s->loc));
                if (s->loc != pto::TileType::Acc)
                    legal(rules::tstore_dtype_ok(p, s->dtype), "LEGAL_TSTORE_DTYPE", op, "element type cannot be stored", "a storable element type", dtype_str(s->dtype));
                return;
            }
            case Instr::TMOV: {
                const auto s = tile(in, 0), d = tile(out, 0);
                if (!s || !d) return;
                legal(rules::tmov_location_ok(p, s->loc, d->loc), "LEGAL_TMOV_LOCATION", op, "TMOV does not connect these locations",
                      "a supported path", loc_name(s->loc) + " -> " + loc_name(d->loc));
                legal(rules::tmov_dtype_ok(p, s->loc, d->loc, s->dtype, d->dtype), "LEGAL_TMOV_DTYPE", op, "element types of this move",
                      "a supported pair", dtype_str(s->dtype) + " -> " + dtype_str(d->dtype));
                return;
            }
            case Instr::TGATHER: case Instr::TSORT32: case Instr::TCOLEXPAND: case Instr::MGATHER: case Instr::MSCATTER:
                return check_engine_rules(op, info, in, out);
            case Instr::TASSIGN: case Instr::Count: return;
        }
    }

    const Module& module_;
    const profile::Profile& profile_;
    DiagnosticSink sink_;
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
