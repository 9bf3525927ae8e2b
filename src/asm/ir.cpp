#include "asm/ir.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <unordered_map>

namespace pto::as {

std::string Value::reference() const
{
    std::string ref = "%" + name;
    if (group_index >= 0) ref += "#" + std::to_string(group_index);
    return ref;
}

std::size_t OperandGroup::operand_count() const
{
    return static_cast<std::size_t>(std::count_if(items.begin(), items.end(), [](const OperandItem& i) { return i.is_operand(); }));
}

namespace {

bool positional_literal(const OperandGroup& g, const OperandItem& item) { return g.style == GroupStyle::Positional && item.literal; }

}  // namespace

std::size_t Operation::positional_literals() const
{
    std::size_t n = 0;
    for (const OperandGroup& g : input_layout)
        for (const OperandItem& item : g.items) n += positional_literal(g, item);
    return n;
}

std::vector<WrittenInput> Operation::written_inputs() const
{
    const std::size_t literals = positional_literals();
    const bool typed = operand_types.size() == operands.size() + literals;
    std::vector<WrittenInput> out;
    std::size_t operand = 0;
    auto written_type = [&] { return typed ? operand_types[out.size()] : Type{}; };
    for (const OperandGroup& g : input_layout)
        for (const OperandItem& item : g.items) {
            if (positional_literal(g, item)) out.push_back({nullptr, item.value, written_type()});
            else if (item.is_operand() && operand < operands.size()) out.push_back({operands[operand], 0, operand_type(operand++)});
        }
    for (; operand < operands.size() - num_outputs; ++operand) out.push_back({operands[operand], 0, operand_type(operand)});
    return out;
}

Type Operation::operand_type(std::size_t i) const
{
    const Value* v = operands[i];
    if (v && !v->type.is_none()) return v->type;
    if (operand_types.size() == operands.size()) return operand_types[i];
    const std::size_t literals = positional_literals();
    if (!literals || operand_types.size() != operands.size() + literals) return Type{};
    // Skip the types of the literals written before operand i.
    std::size_t operand = 0, skipped = 0;
    for (const OperandGroup& g : input_layout)
        for (const OperandItem& item : g.items) {
            if (positional_literal(g, item)) ++skipped;
            else if (item.is_operand() && operand++ == i) return operand_types[i + skipped];
        }
    return operand_types[i + literals];
}

std::vector<std::vector<GroupEntry>> Operation::groups(std::string_view keyword) const
{
    std::vector<std::vector<GroupEntry>> out;
    std::size_t cursor = 0;
    for (const OperandGroup& g : input_layout) {
        const bool match = g.keyword == keyword && (!keyword.empty() || g.style == GroupStyle::Positional);
        if (match) out.emplace_back();
        for (const OperandItem& item : g.items) {
            GroupEntry entry{.literal = item.value, .word = item.word, .key = item.key};
            if (item.is_operand()) entry.value = operands[cursor++];
            if (match) out.back().push_back(entry);
        }
    }
    return out;
}

std::vector<GroupEntry> Operation::group(std::string_view keyword) const
{
    std::vector<std::vector<GroupEntry>> all = groups(keyword);
    return all.empty() ? std::vector<GroupEntry>{} : std::move(all.front());
}

std::span<const Type> Operation::input_types() const
{
    std::size_t count = std::min(operand_types.size(), operands.size() - num_outputs);
    return {operand_types.data(), count};
}

std::span<const Type> Operation::output_types() const
{
    std::size_t skip = input_types().size();
    return {operand_types.data() + skip, operand_types.size() - skip};
}

std::string_view Operation::dialect() const
{
    std::string_view n = name;
    return n.substr(0, std::min(n.find('.'), n.size()));
}

std::string_view Operation::mnemonic() const
{
    std::string_view n = name;
    std::size_t dot = n.find('.');
    return dot == std::string_view::npos ? n : n.substr(dot + 1);
}

std::vector<const Value*> Function::arguments() const
{
    std::vector<const Value*> args;
    if (const Block* entry = entry_block())
        for (const auto& arg : entry->arguments) args.push_back(arg.get());
    return args;
}

const Function* Module::find_function(std::string_view function_name) const
{
    for (const auto& f : functions)
        if (f->name == function_name) return f.get();
    return nullptr;
}

bool has_dialect_prefix(std::string_view name)
{
    static constexpr std::array<std::string_view, 17> kDialects = {
        "pto", "arith", "scf",  "func", "math",  "memref", "builtin", "cf",    "index",
        "llvm", "vector", "tensor", "a5vm", "affine", "linalg", "gpu",  "emitc"};
    std::size_t dot = name.find('.');
    if (dot == std::string_view::npos) return false;
    std::string_view prefix = name.substr(0, dot);
    for (std::string_view d : kDialects)
        if (d == prefix) return true;
    return false;
}

bool has_asm_spelling(std::string_view op_name)
{
    if (op_name.substr(0, 4) != "pto.") return false;
    std::string_view bare = op_name.substr(4);
    if (bare.empty() || !(std::isalpha(static_cast<unsigned char>(bare[0])) || bare[0] == '_')) return false;
    return !has_dialect_prefix(bare) && bare != "return" && bare != "call" && bare != "module";
}

bool is_tile_instruction(std::string_view op_name)
{
    if (op_name.substr(0, 4) != "pto.") return false;
    std::string_view mnemonic = op_name.substr(4);
    if (mnemonic.empty() || has_fixed_spelling(op_name)) return false;
    return mnemonic[0] == 't' || mnemonic.substr(0, 7) == "mgather" || mnemonic.substr(0, 8) == "mscatter" ||
           mnemonic == "settf32mode" || mnemonic == "sethf32mode" || mnemonic == "setfmatrix" ||
           mnemonic == "set_img2col_padding" || mnemonic == "set_img2col_rpt";
}

bool has_fixed_spelling(std::string_view op_name)
{
    static constexpr std::array<std::string_view, 15> kFixed = {
        "pto.make_tensor_view", "pto.partition_view", "pto.alloc_tile",       "pto.subset",
        "pto.set_validshape",   "pto.get_block_idx",  "pto.get_block_num",    "pto.get_subblock_idx",
        "pto.get_subblock_num", "pto.addptr",         "pto.castptr",          "pto.section.cube",
        "pto.section.vector",   "pto.tile_buf_addr",  "pto.tensor_view_addr",
    };
    return std::find(kFixed.begin(), kFixed.end(), op_name) != kFixed.end();
}

const Attribute* constant_value(const Value* value)
{
    const Operation* def = value ? value->defining_op : nullptr;
    return def && def->name == "arith.constant" ? def->attribute("value") : nullptr;
}

std::string isa_mnemonic(std::string_view op_name)
{
    if (op_name.substr(0, 4) == "pto.") op_name.remove_prefix(4);
    std::string out;
    for (char c : op_name) out += c == '.' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

unsigned implied_output_count(OpForm form, bool has_results, std::span<const OperandGroup> written_layout)
{
    if (has_results || written_layout.empty()) return 0;
    if (form == OpForm::SSA) {
        const OperandGroup& last = written_layout.back();
        return last.style == GroupStyle::Positional && !last.items.empty() ? 1 : 0;
    }
    if (form == OpForm::Asm) {
        const OperandGroup& first = written_layout.front();
        if (first.style != GroupStyle::Positional || first.items.empty()) return 0;
        bool first_item_subscripted = first.items.size() == 1 && written_layout.size() > 1 &&
                                      written_layout[1].style == GroupStyle::Subscript;
        return first_item_subscripted ? 0 : 1;
    }
    return 0;
}

namespace {

// Walks two modules in lockstep, pairing each value definition of `a` with the one of `b`, so
// that operands are compared by what they refer to rather than by name alone.
class Comparator {
public:
    explicit Comparator(bool exact) : exact_(exact) {}

    std::optional<std::string> compare(const Module& a, const Module& b)
    {
        if (modules(a, b)) return std::nullopt;
        return difference_;
    }

private:
    bool fail(SourceLocation loc, std::string what)
    {
        difference_ = "line " + std::to_string(loc.line) + ": " + std::move(what);
        return false;
    }

    bool types(const Type& a, const Type& b) const { return exact_ ? identical(a, b) : a == b; }

    bool type_lists(const std::vector<Type>& a, const std::vector<Type>& b) const
    {
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!types(a[i], b[i])) return false;
        return true;
    }

    bool attributes(const std::vector<NamedAttribute>& a, const std::vector<NamedAttribute>& b) const
    {
        return same_attributes(a, b, exact_);
    }

    // Outside exact mode, the types operands are known to have: `: index` for two operands,
    // `: (index, index) -> index` and the generic form's full list all say the same.
    bool operand_types(const Operation& a, const Operation& b) const
    {
        if (exact_) return type_lists(a.operand_types, b.operand_types);
        for (std::size_t i = 0; i < a.operands.size(); ++i)
            if (!types(a.operand_type(i), b.operand_type(i))) return false;
        return true;
    }

    bool modules(const Module& a, const Module& b)
    {
        if (a.name != b.name) return fail({}, "module names differ");
        if (exact_ && a.explicit_module != b.explicit_module) return fail({}, "module spelling differs");
        if (!attributes(a.attributes, b.attributes)) return fail({}, "module attributes differ");
        if (a.type_aliases.size() != b.type_aliases.size()) return fail({}, "type alias counts differ");
        for (std::size_t i = 0; i < a.type_aliases.size(); ++i)
            if (a.type_aliases[i].name != b.type_aliases[i].name ||
                !types(a.type_aliases[i].type, b.type_aliases[i].type))
                return fail({}, "type alias !" + a.type_aliases[i].name + " differs");
        if (a.functions.size() != b.functions.size()) return fail({}, "function counts differ");
        for (std::size_t i = 0; i < a.functions.size(); ++i)
            if (!functions(*a.functions[i], *b.functions[i])) return false;
        return true;
    }

    bool functions(const Function& a, const Function& b)
    {
        values_.clear();
        if (a.name != b.name || a.visibility != b.visibility) return fail(a.loc, "function @" + a.name + " differs");
        if (!type_lists(a.result_types, b.result_types)) return fail(a.loc, "result types of @" + a.name + " differ");
        if (!attributes(a.attributes, b.attributes)) return fail(a.loc, "attributes of @" + a.name + " differ");
        if (a.argument_attributes.size() != b.argument_attributes.size())
            return fail(a.loc, "argument attributes of @" + a.name + " differ");
        for (std::size_t i = 0; i < a.argument_attributes.size(); ++i)
            if (!attributes(a.argument_attributes[i], b.argument_attributes[i]))
                return fail(a.loc, "argument attributes of @" + a.name + " differ");
        if (!a.body || !b.body) return a.body == b.body || fail(a.loc, "only one of the bodies of @" + a.name + " exists");
        return regions(*a.body, *b.body);
    }

    bool regions(const Region& a, const Region& b)
    {
        if (a.blocks.size() != b.blocks.size()) return fail(a.loc, "block counts differ");
        for (std::size_t i = 0; i < a.blocks.size(); ++i)
            if (!blocks(*a.blocks[i], *b.blocks[i])) return false;
        return true;
    }

    bool blocks(const Block& a, const Block& b)
    {
        // Nothing branches to an entry block, so its label is presentation; the generic form
        // needs one to declare the block's arguments.
        bool entry = a.parent && a.parent->blocks.front().get() == &a;
        if ((exact_ || !entry) && a.label != b.label) return fail(a.loc, "block labels ^" + a.label + " and ^" + b.label + " differ");
        if (a.arguments.size() != b.arguments.size()) return fail(a.loc, "block argument counts differ");
        for (std::size_t i = 0; i < a.arguments.size(); ++i)
            if (!define(*a.arguments[i], *b.arguments[i])) return false;
        if (a.operations.size() != b.operations.size())
            return fail(a.loc, "operation counts differ: " + std::to_string(a.operations.size()) + " vs " +
                                   std::to_string(b.operations.size()));
        for (std::size_t i = 0; i < a.operations.size(); ++i)
            if (!operations(*a.operations[i], *b.operations[i])) return false;
        return true;
    }

    bool operations(const Operation& a, const Operation& b)
    {
        const std::string what = a.name + " (line " + std::to_string(a.loc.line) + ")";
        if (a.name != b.name) return fail(a.loc, "operation " + a.name + " vs " + b.name);
        if (exact_ && !(a.spelling == b.spelling)) return fail(a.loc, "spelling of " + what + " differs");
        if (a.operands.size() != b.operands.size() || a.num_outputs != b.num_outputs)
            return fail(a.loc, "operand or output counts of " + what + " differ");
        for (std::size_t i = 0; i < a.operands.size(); ++i)
            if (!use(a.operands[i], b.operands[i]))
                return fail(a.loc, "operand #" + std::to_string(i) + " of " + what + " refers to a different value");
        if (!(a.input_layout == b.input_layout)) return fail(a.loc, "operand layout of " + what + " differs");
        if (!operand_types(a, b)) return fail(a.loc, "operand types of " + what + " differ");
        if (!attributes(a.attributes, b.attributes)) return fail(a.loc, "attributes of " + what + " differ");
        if (a.arguments.size() != b.arguments.size()) return fail(a.loc, "arguments of " + what + " differ");
        for (std::size_t i = 0; i < a.arguments.size(); ++i)
            if (exact_ ? !identical(a.arguments[i], b.arguments[i]) : !(a.arguments[i] == b.arguments[i]))
                return fail(a.loc, "arguments of " + what + " differ");
        if (a.regions.size() != b.regions.size()) return fail(a.loc, "region counts of " + what + " differ");
        for (std::size_t i = 0; i < a.regions.size(); ++i)
            if (!regions(*a.regions[i], *b.regions[i])) return false;
        // Results are defined after the regions, as the parser scopes them.
        if (a.results.size() != b.results.size()) return fail(a.loc, "result counts of " + what + " differ");
        for (std::size_t i = 0; i < a.results.size(); ++i)
            if (!define(*a.results[i], *b.results[i])) return false;
        return true;
    }

    bool define(const Value& a, const Value& b)
    {
        if (a.name != b.name || a.group_index != b.group_index)
            return fail(a.loc, "value " + a.reference() + " vs " + b.reference());
        if (!types(a.type, b.type)) return fail(a.loc, "type of " + a.reference() + " differs");
        values_[&a] = &b;
        return true;
    }

    bool use(const Value* a, const Value* b) const
    {
        if (!a || !b) return a == b;
        auto it = values_.find(a);
        return it != values_.end() && it->second == b;
    }

    bool exact_;
    std::string difference_;
    std::unordered_map<const Value*, const Value*> values_;
};

}  // namespace

std::optional<std::string> first_difference(const Module& a, const Module& b, bool exact)
{
    return Comparator(exact).compare(a, b);
}

bool operator==(const Module& a, const Module& b) { return !first_difference(a, b, /*exact=*/true); }
bool equivalent(const Module& a, const Module& b) { return !first_difference(a, b, /*exact=*/false); }

}  // namespace pto::as
