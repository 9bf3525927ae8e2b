#include "asm/printer.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>

#include "asm/generic_form.hpp"
#include "asm/lexer.hpp"
#include "asm/op_table.hpp"

namespace pto::as {

namespace {

// ---- types and attributes -----------------------------------------------------------------------

void append_type(std::string& out, const Type& type);

std::string dimension_text(int64_t value, DynamicMarker marker)
{
    if (value != kDynamic) return std::to_string(value);
    switch (marker) {
        case DynamicMarker::Dyn: return "dyn";
        case DynamicMarker::MinusOne: return "-1";
        case DynamicMarker::Question: break;
    }
    return "?";
}

void append_tile(std::string& out, const TileType& tile)
{
    enum Slot { Loc, DType, Rows, Cols, VRow, VCol, BLay, SLay, Fractal, Pad, kSlotCount };
    static constexpr std::array<Slot, 10> kBufferSlots = {Loc, DType, Rows, Cols, VRow, VCol, BLay, SLay, Fractal, Pad};
    static constexpr std::array<Slot, 8> kTileSlots = {Loc, DType, Rows, Cols, BLay, SLay, Fractal, Pad};
    static constexpr std::array<const char*, kSlotCount> kKeys = {
        "loc", "dtype", "rows", "cols", "v_row", "v_col", "blayout", "slayout", "fractal", "pad"};
    const TileSpelling& sp = tile.spelling;
    const Slot* slots = tile.buffer ? kBufferSlots.data() : kTileSlots.data();
    std::size_t slot_count = tile.buffer ? kBufferSlots.size() : kTileSlots.size();

    auto dim = [&](int64_t v) { return dimension_text(v, sp.dynamic); };
    auto dtype = [&] {
        std::string text;
        if (tile.dtype) append_type(text, *tile.dtype);
        return text;
    };
    auto present = [&](Slot s) {
        switch (s) {
            case Loc: return tile.loc.has_value();
            case DType: return tile.dtype != nullptr;
            case VRow:
            case VCol: return sp.valid_written;
            case BLay: return tile.blayout.has_value();
            case SLay: return tile.slayout.has_value();
            case Fractal: return tile.fractal.has_value();
            case Pad: return tile.pad.has_value();
            default: return true;
        }
    };
    auto value = [&](Slot s) -> std::string {
        switch (s) {
            case Loc: return std::string(tile_loc_name(*tile.loc, sp.camel_case));
            case DType: return dtype();
            case Rows: return dim(tile.rows);
            case Cols: return dim(tile.cols);
            case VRow: return dim(tile.valid_rows);
            case VCol: return dim(tile.valid_cols);
            case BLay: return std::string(blayout_name(*tile.blayout, sp.camel_case));
            case SLay: return std::string(slayout_name(*tile.slayout, sp.camel_case));
            case Fractal: return std::to_string(*tile.fractal);
            case Pad: return pad_name(*tile.pad, sp.pad_numeric, sp.camel_case);
            case kSlotCount: break;
        }
        return {};
    };

    std::vector<std::string> entries;
    std::array<bool, kSlotCount> covered{};
    bool shape_form = sp.form == TileForm::Shape || sp.form == TileForm::Compact;
    for (std::size_t i = 0; i < sp.positional_count && i < slot_count; ++i) {
        Slot s = slots[i];
        covered[s] = true;
        if (shape_form && s == DType) {
            entries.push_back(dim(tile.rows) + "x" + dim(tile.cols) + "x" + dtype());
        } else if (shape_form && (s == Rows || s == Cols)) {
            continue;
        } else if (present(s) && !(s == Loc && sp.address_space)) {
            entries.push_back(value(s));
        } else {
            covered[s] = false;  // the Shape form starts without a location
        }
    }
    for (Slot s : {Loc, DType, Rows, Cols, VRow, VCol, BLay, SLay, Fractal, Pad}) {
        if (covered[s] || !present(s) || (s == Loc && sp.address_space)) continue;
        if (s == VRow && sp.valid_combined && !covered[VCol]) {
            entries.push_back("valid=" + dim(tile.valid_rows) + "x" + dim(tile.valid_cols));
            covered[VCol] = true;
            continue;
        }
        entries.push_back(std::string(kKeys[s]) + "=" + value(s));
    }
    if (tile.compact) {
        static constexpr std::array<const char*, 4> kNames = {"null", "normal", "row_plus_one", "row_aligned_padding"};
        const auto mode = static_cast<std::size_t>(*tile.compact);
        entries.push_back("compact=" + (sp.compact_numeric ? std::to_string(mode) : std::string(kNames[mode])));
    }
    if (sp.address_space && tile.loc) entries.push_back("#pto.address_space<" + std::string(tile_loc_name(*tile.loc, false)) + ">");
    out += tile.buffer ? "!pto.tile_buf<" : "!pto.tile<";
    for (std::size_t i = 0; i < entries.size(); ++i) out += (i ? ", " : "") + entries[i];
    out += ">";
}

void append_type(std::string& out, const Type& type)
{
    if (!type.alias().empty()) {
        out += "!" + type.alias();
        return;
    }
    std::visit(
        [&](const auto& t) {
            using T = std::decay_t<decltype(t)>;
            if constexpr (std::is_same_v<T, std::monostate>) {
                out += "none";
            } else if constexpr (std::is_same_v<T, IndexType> || std::is_same_v<T, IntegerType> ||
                                 std::is_same_v<T, FloatType>) {
                out += type.spelling().empty() ? scalar_type_name(type) : type.spelling();
            } else if constexpr (std::is_same_v<T, PtrType>) {
                out += "!pto.ptr<";
                if (t.element) append_type(out, *t.element);
                if (t.space)
                    out += ", " + (t.space_spelling.empty() ? std::string(address_space_name(*t.space)) : t.space_spelling);
                out += ">";
            } else if constexpr (std::is_same_v<T, TensorViewType>) {
                out += "!";
                out += type.spelling().empty() ? (t.partition ? "pto.partition_tensor_view" : "pto.tensor_view")
                                               : type.spelling();
                out += "<";
                for (int64_t d : t.shape) out += (d == kDynamic ? std::string("?") : std::to_string(d)) + "x";
                if (t.element) append_type(out, *t.element);
                if (!t.layout.empty()) out += ", " + t.layout;
                out += ">";
            } else if constexpr (std::is_same_v<T, TileType>) {
                append_tile(out, t);
            } else if constexpr (std::is_same_v<T, ConvTileType>) {
                out += "!pto.conv_tile_buf<" + std::string(tile_loc_name(t.loc, t.loc_camel_case)) + ", ";
                for (int64_t d : t.shape) out += std::to_string(d) + "x";
                if (t.element) append_type(out, *t.element);
                out += ", " + t.layout + ">";
            } else if constexpr (std::is_same_v<T, VRegType>) {
                out += "!pto.vreg<" + std::to_string(t.lanes) + "x";
                if (t.element) append_type(out, *t.element);
                out += ">";
            } else if constexpr (std::is_same_v<T, MaskType>) {
                out += "!pto.mask";
                if (!t.spelling.empty()) out += "<" + t.spelling + ">";
            } else if constexpr (std::is_same_v<T, AlignType>) {
                out += "!pto.align";
            } else if constexpr (std::is_same_v<T, OpaqueType>) {
                if (t.dialect.empty()) {
                    out += t.name;
                } else {
                    out += "!" + t.dialect;
                    if (!t.name.empty()) out += "." + t.name;
                }
                if (t.body) out += "<" + *t.body + ">";
            }
        },
        type.storage());
}

std::string float_text(double value)
{
    std::array<char, 64> buffer{};
    auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    std::string text(buffer.data(), ec == std::errc() ? end : buffer.data());
    // MLIR float literals need a '.': 1 -> 1.0, 1e+20 -> 1.0e+20.
    if (text.find('.') == std::string::npos) {
        std::size_t exponent = text.find_first_of("eE");
        text.insert(exponent == std::string::npos ? text.size() : exponent, ".0");
    }
    return text;
}

std::string hex_text(uint64_t value)
{
    std::array<char, 24> buffer{};
    auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, 16);
    return "0x" + std::string(buffer.data(), ec == std::errc() ? end : buffer.data());
}

std::string symbol_text(const std::string& name) { return "@" + (is_bare_identifier(name) ? name : quote_string(name)); }

void append_attribute(std::string& out, const Attribute& a);

void append_dictionary(std::string& out, const std::vector<NamedAttribute>& entries)
{
    out += "{";
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (i) out += ", ";
        const NamedAttribute& e = entries[i];
        out += is_bare_identifier(e.name) ? e.name : quote_string(e.name);
        if (!e.value.is(Attribute::Kind::Unit)) {
            out += " = ";
            append_attribute(out, e.value);
        }
    }
    out += "}";
}

void append_attribute(std::string& out, const Attribute& a)
{
    using Kind = Attribute::Kind;
    auto typed = [&] {
        if (!a.type().is_none()) {
            out += " : ";
            append_type(out, a.type());
        }
    };
    switch (a.kind()) {
        case Kind::Unit: out += "unit"; break;
        case Kind::Bool: out += a.bool_value() ? "true" : "false"; break;
        case Kind::Integer:
            out += a.hex() ? hex_text(static_cast<uint64_t>(a.int_value())) : std::to_string(a.int_value());
            typed();
            break;
        case Kind::Float:
            out += a.float_bit_pattern() ? hex_text(*a.float_bit_pattern()) : float_text(a.float_value());
            typed();
            break;
        case Kind::String: out += quote_string(a.text()); break;
        case Kind::Keyword: out += a.text(); break;
        case Kind::Type: append_type(out, a.type()); break;
        case Kind::Symbol: out += symbol_text(a.text()); break;
        case Kind::Array:
            out += "[";
            for (std::size_t i = 0; i < a.elements().size(); ++i) {
                if (i) out += ", ";
                append_attribute(out, a.elements()[i]);
            }
            out += "]";
            break;
        case Kind::DenseArray:
            out += "array<";
            append_type(out, a.type());
            for (std::size_t i = 0; i < a.dense_values().size(); ++i)
                out += (i ? ", " : ": ") + std::to_string(a.dense_values()[i]);
            out += ">";
            break;
        case Kind::Dictionary: append_dictionary(out, a.entries()); break;
        case Kind::Dialect:
            switch (a.dialect_form()) {
                case DialectAttrForm::Dotted: out += "#" + a.dialect_name() + "." + a.mnemonic() + "<" + a.text() + ">"; break;
                case DialectAttrForm::Pretty:
                    out += "#" + a.dialect_name() + "<" + a.mnemonic() + (a.text().empty() ? "" : " " + a.text()) + ">";
                    break;
                case DialectAttrForm::Short: out += "<" + a.text() + ">"; break;
                case DialectAttrForm::Builtin: out += a.mnemonic() + "<" + a.text() + ">"; break;
            }
            break;
    }
}

// ---- operations ---------------------------------------------------------------------------------

bool results_typed(const Operation& op)
{
    for (const auto& r : op.results)
        if (r->type.is_none()) return false;
    return true;
}

// Whether a tile instruction can be spelled in `target` and parse back the same.
bool rewritable(const Operation& op, OpForm target)
{
    if (target == OpForm::Asm && !has_asm_spelling(op.name)) return false;
    for (const OperandGroup& g : op.input_layout)
        if (g.style != GroupStyle::Positional && g.style != GroupStyle::Subscript) return false;
    // PTO assembly puts destinations first; a partial type list cannot follow them there.
    bool reorders = target == OpForm::Asm || op.spelling.form == OpForm::Asm;
    if (reorders && op.num_outputs > 0 && !op.operand_types.empty() && op.operand_types.size() != op.operands.size())
        return false;
    return true;
}

class Printer {
public:
    explicit Printer(Form form) : form_(form) {}

    std::string module(const Module& m)
    {
        for (const TypeAlias& alias : m.type_aliases) {
            out_ += "!" + alias.name + " = ";
            append_type(out_, alias.type);
            out_ += "\n";
        }
        if (!m.type_aliases.empty()) out_ += "\n";
        if (form_ == Form::Generic) {
            generic_module(m);
            return std::move(out_);
        }
        if (m.explicit_module) {
            out_ += "module";
            if (!m.name.empty()) out_ += " " + symbol_text(m.name);
            if (!m.attributes.empty()) {
                out_ += " attributes ";
                append_dictionary(out_, m.attributes);
            }
            out_ += " {\n";
            ++indent_;
        }
        functions(m);
        if (m.explicit_module) {
            --indent_;
            out_ += "}\n";
        }
        return std::move(out_);
    }

private:
    void functions(const Module& m)
    {
        for (std::size_t i = 0; i < m.functions.size(); ++i) {
            if (i) out_ += "\n";
            function(*m.functions[i]);
        }
    }

    void indent() { out_.append(static_cast<std::size_t>(indent_) * 2, ' '); }

    void type(const Type& t) { append_type(out_, t); }

    void type_list(std::span<const Type> types)
    {
        for (std::size_t i = 0; i < types.size(); ++i) {
            if (i) out_ += ", ";
            type(types[i]);
        }
    }

    // `T`, `(T, U)` or `()`; `T, U` where the source wrote several without parentheses and `bare` allows
    // it (after `A, B ->`; after `(A, B) ->` the parser reads one type or a parenthesized list).
    void result_types(const Operation& op, bool bare = true)
    {
        const bool parenthesized = op.results.size() != 1 && !(bare && op.spelling.bare_results && !op.results.empty());
        if (parenthesized) out_ += "(";
        for (std::size_t i = 0; i < op.results.size(); ++i) {
            if (i) out_ += ", ";
            type(op.results[i]->type);
        }
        if (parenthesized) out_ += ")";
    }

    void values(std::span<Value* const> list)
    {
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (i) out_ += ", ";
            out_ += list[i] ? list[i]->reference() : "%<null>";
        }
    }

    void attributes(const std::vector<NamedAttribute>& attrs, std::string_view skip = {})
    {
        std::vector<NamedAttribute> shown;
        for (const NamedAttribute& a : attrs)
            if (a.name != skip) shown.push_back(a);
        if (shown.empty()) return;
        out_ += " ";
        append_dictionary(out_, shown);
    }

    void function(const Function& f)
    {
        if (form_ == Form::Generic) {
            generic_function(f);
            return;
        }
        indent();
        out_ += "func.func ";
        if (!f.visibility.empty()) out_ += f.visibility + " ";
        out_ += symbol_text(f.name) + "(";
        std::vector<const Value*> args = f.arguments();
        for (std::size_t i = 0; i < args.size(); ++i) {
            if (i) out_ += ", ";
            out_ += args[i]->reference() + ": ";
            type(args[i]->type);
            if (i < f.argument_attributes.size() && !f.argument_attributes[i].empty()) {
                out_ += " ";
                append_dictionary(out_, f.argument_attributes[i]);
            }
        }
        out_ += ")";
        if (f.result_types.size() == 1) {
            out_ += " -> ";
            type(f.result_types[0]);
        } else if (f.result_types.size() > 1) {
            out_ += " -> (";
            type_list(f.result_types);
            out_ += ")";
        }
        if (!f.attributes.empty()) {
            out_ += " attributes ";
            append_dictionary(out_, f.attributes);
        }
        out_ += " ";
        if (f.body) region(*f.body, /*entry_args_declared=*/true);
        out_ += "\n";
    }

    // `entry_args_declared`: the parent operation names the entry block's arguments itself.
    // `generic`: the region of an operation in generic form, whose entry label the parser drops (it only
    // carries the arguments), so it is printed as the canonical `^bb0` or not at all.
    void region(const Region& r, bool entry_args_declared, bool generic = false)
    {
        out_ += "{\n";
        ++indent_;
        for (std::size_t b = 0; b < r.blocks.size(); ++b) {
            const Block& block = *r.blocks[b];
            // An entry block whose arguments no parent declares needs a label to carry them.
            bool undeclared_arguments = b == 0 && !entry_args_declared && !block.arguments.empty();
            const std::string label = b == 0 && generic ? std::string() : block.label;
            if (!label.empty() || undeclared_arguments) {
                out_.append(static_cast<std::size_t>(indent_ - 1) * 2, ' ');
                out_ += "^" + (label.empty() ? std::string("bb0") : label);
                if (!block.arguments.empty() && !(b == 0 && entry_args_declared)) {
                    out_ += "(";
                    for (std::size_t i = 0; i < block.arguments.size(); ++i) {
                        if (i) out_ += ", ";
                        out_ += block.arguments[i]->reference() + ": ";
                        type(block.arguments[i]->type);
                    }
                    out_ += ")";
                }
                out_ += ":\n";
            }
            for (const auto& op : block.operations) {
                indent();
                operation(*op);
                out_ += "\n";
            }
        }
        --indent_;
        indent();
        out_ += "}";
    }

    void results(const Operation& op)
    {
        if (op.results.empty()) return;
        bool grouped = true;
        for (std::size_t i = 0; i < op.results.size(); ++i)
            grouped = grouped && op.results[i]->group_index == static_cast<int>(i) &&
                      op.results[i]->name == op.results[0]->name;
        if (grouped) {
            out_ += "%" + op.results[0]->name + ":" + std::to_string(op.results.size()) + " = ";
            return;
        }
        for (std::size_t i = 0; i < op.results.size(); ++i) out_ += (i ? ", " : "") + op.results[i]->reference();
        out_ += " = ";
    }

    void operation(const Operation& op)
    {
        const std::string& n = op.name;
        OpForm used = op.spelling.form;
        bool generic_wanted = form_ == Form::Generic ||
                              (used == OpForm::Generic && (form_ == Form::Preserve || !has_custom_spelling(op)));
        if (generic_wanted && has_generic_spelling(op)) {
            generic_operation(op);
            used = OpForm::Generic;
        } else if (n == "func.call") {
            call(op);
        } else if (n == "scf.for") {
            for_loop(op);
        } else if (n == "scf.if") {
            if_else(op);
        } else if (n == "scf.while") {
            while_loop(op);
        } else if (n == "scf.condition") {
            condition(op);
        } else if (n == "arith.constant") {
            constant(op);
        } else if (n == "arith.cmpi" || n == "arith.cmpf") {
            compare(op);
        } else if (n.rfind("pto.section.", 0) == 0 || n == "pto.vecscope") {
            section(op);
        } else if (n == "pto.strict_vecscope") {
            strict_vecscope(op);
        } else {
            used = generic(op);
        }
        if (op.spelling.semicolon && used == op.spelling.form) out_ += ";";
    }

    // The spelling an operation gets in the requested form.
    OpForm choose_form(const Operation& op) const
    {
        OpForm spelled = op.spelling.form;
        if (form_ == Form::Preserve || form_ == Form::Generic) return spelled;
        OpForm target = form_ == Form::Asm ? OpForm::Asm : form_ == Form::SSA ? OpForm::SSA : OpForm::DPS;
        if (is_tile_instruction(op.name)) return target == spelled || rewritable(op, target) ? target : spelled;
        // Any other operation written with ins/outs keeps them: no other spelling of it can say
        // which operands are destinations.
        if (spelled == OpForm::DPS) return spelled;
        if (op.name == "func.return") return OpForm::Asm;  // MLIR's own short `return`
        if (op.name.rfind("pto.", 0) != 0 || has_fixed_spelling(op.name)) return OpForm::SSA;
        // An operation the toolchain does not know keeps its prefix: written bare before the next
        // operation's `%v = ...`, it would read as a register form naming %v its destination.
        if (!find_op(op.name)) return OpForm::SSA;
        // Other pto operations (synchronization, vector) only gain or lose the dialect prefix.
        return form_ == Form::Asm && has_asm_spelling(op.name) ? OpForm::Asm : OpForm::SSA;
    }

    std::string name_in(const Operation& op, OpForm form) const
    {
        if (form == OpForm::Asm) {
            if (op.name == "func.return") return "return";
            if (op.name == "func.call") return "call";
            if (op.name.rfind("pto.", 0) == 0) return op.name.substr(4);
        }
        return op.name;
    }

    // Inputs as grouped in the source: `%a, %sv[%i, %j], shape = [%x, 4]`; trailing tokens written
    // between plain operands (`pto.get_buf %id, "PIPE_V", %mode`) go back where they were.
    std::string inputs_text(const Operation& op) const
    {
        std::span<Value* const> inputs = op.inputs();
        const std::size_t split = op.spelling.arguments == ArgStyle::Trailing ? op.spelling.operands_before_arguments : 0;
        auto arguments = [&] {
            std::string list;
            for (const Attribute& a : op.arguments) {
                append_attribute(list, a);
                list += ", ";
            }
            return list;
        };
        std::string text;
        if (op.input_layout.empty()) {
            for (std::size_t i = 0; i < inputs.size(); ++i)
                text += (i ? ", " : "") + (split && i == split ? arguments() : "") + inputs[i]->reference();
            return text;
        }
        std::size_t next = 0;
        auto item = [&](const OperandItem& it) {
            const std::string key = it.key.empty() ? std::string() : it.key + " = ";
            if (!it.word.empty()) return key + it.word;
            if (it.literal) return key + std::to_string(it.value);
            return key + (next < inputs.size() ? inputs[next++]->reference() : std::string("%<missing>"));
        };
        auto items = [&](const OperandGroup& g) {
            std::string list;
            for (std::size_t i = 0; i < g.items.size(); ++i) {
                const bool here = split && next == split && g.style == GroupStyle::Positional && !(text.empty() && i == 0);
                list += (i ? ", " : "") + (here ? arguments() : "") + item(g.items[i]);
            }
            return list;
        };
        for (const OperandGroup& g : op.input_layout) {
            bool first = text.empty();
            switch (g.style) {
                case GroupStyle::Positional: text += (first ? "" : ", ") + items(g); break;
                case GroupStyle::Subscript: text += "[" + items(g) + "]"; break;
                case GroupStyle::Assign: text += (first ? "" : " ") + g.keyword + " = " + items(g); break;
                case GroupStyle::AssignList: text += (first ? "" : ", ") + g.keyword + " = [" + items(g) + "]"; break;
                case GroupStyle::KeywordList: text += (first ? "" : " ") + g.keyword + " [" + items(g) + "]"; break;
                case GroupStyle::Clause:
                    text += (first ? "" : " ") + g.keyword + (g.items.empty() ? "" : "(" + items(g) + ")");
                    break;
            }
        }
        return text;
    }

    void attribute_arguments(const Operation& op, OpForm form)
    {
        if (op.arguments.empty() && op.spelling.arguments == ArgStyle::None) return;
        // Trailing tokens follow the positional operands; in the DPS form they lead, bare.
        if (op.spelling.arguments == ArgStyle::Trailing && form != OpForm::DPS) return;
        auto list = [&] {
            for (std::size_t i = 0; i < op.arguments.size(); ++i) {
                if (i) out_ += ", ";
                append_attribute(out_, op.arguments[i]);
            }
        };
        switch (op.spelling.arguments) {
            case ArgStyle::Paren:
                out_ += "(";
                list();
                out_ += ")";
                break;
            case ArgStyle::Bare:
            case ArgStyle::Trailing:
                out_ += " ";
                list();
                break;
            default:
                out_ += "[";
                list();
                if (op.spelling.operands_in_arguments)
                    for (const Value* v : op.inputs()) out_ += ", " + v->reference();
                out_ += "]";
                break;
        }
    }

    OpForm generic(const Operation& op)
    {
        OpForm form = choose_form(op);
        results(op);
        // The generic form keeps a keyed operand list in this spelling (its own has no keys), under the
        // operation's full name whatever the source wrote.
        const bool typed = op.spelling.signature == SigStyle::InParens || op.spelling.signature == SigStyle::Typed;
        out_ += name_in(op, typed && form_ == Form::Generic ? OpForm::SSA : form);
        if (typed) {
            typed_operands(op);
            return form;
        }
        attribute_arguments(op, form);
        if (form == OpForm::DPS)
            dps(op);
        else
            positional(op, form);
        return form;
    }

    // `(%a, %b : A, B) {attrs}` or ` {attrs}(%a : A, key = %b : B)`, then `-> results`.
    void typed_operands(const Operation& op)
    {
        if (op.spelling.signature == SigStyle::InParens) {
            out_ += "(" + inputs_text(op);
            if (!op.spelling.untyped_parens) {
                out_ += " : ";
                type_list(op.operand_types);
            }
            out_ += ")";
            if (!op.attributes.empty()) {
                out_ += " ";
                append_dictionary(out_, op.attributes);
            }
        } else {
            out_ += " ";
            append_dictionary(out_, op.attributes);  // even `{}`: without it the list would read as the other form
        }
        if (op.spelling.signature == SigStyle::Typed) {
            std::vector<std::string> keys;  // each operand's name, or empty
            for (const OperandGroup& g : op.input_layout)
                for (std::size_t k = 0; k < g.items.size(); ++k) keys.push_back(g.style == GroupStyle::Assign ? g.keyword : "");
            keys.resize(op.operands.size());
            out_ += "(";
            for (std::size_t i = 0; i < op.operands.size(); ++i) {
                if (i) out_ += ", ";
                if (!keys[i].empty()) out_ += keys[i] + " = ";
                out_ += op.operands[i]->reference() + " : ";
                type(op.operand_types[i]);
            }
            out_ += ")";
        }
        if (!op.results.empty()) {
            out_ += " -> ";
            result_types(op);
        }
    }

    void dps(const Operation& op)
    {
        bool rewritten = op.spelling.form != OpForm::DPS;
        bool attrs_inside = rewritten || op.spelling.attributes_in_ins;
        std::string inputs = inputs_text(op);
        bool has_outputs = op.num_outputs > 0;
        bool print_ins = !inputs.empty() || !has_outputs || (attrs_inside && !op.attributes.empty());
        // Without destinations, every written type belongs to ins(...).
        std::span<const Type> in_types = has_outputs ? op.input_types() : std::span<const Type>(op.operand_types);
        if (print_ins) {
            out_ += " ins(" + inputs;
            if (attrs_inside && !op.attributes.empty()) {
                if (inputs.empty()) {
                    append_dictionary(out_, op.attributes);
                } else {
                    attributes(op.attributes);
                }
            }
            if (!in_types.empty()) {
                out_ += " : ";
                type_list(in_types);
            }
            out_ += ")";
        }
        if (has_outputs) {
            out_ += " outs(";
            values(op.outputs());
            if (!op.output_types().empty()) {
                out_ += " : ";
                type_list(op.output_types());
            }
            out_ += ")";
        }
        if (!attrs_inside || !print_ins) attributes(op.attributes);
        if (!op.results.empty() && results_typed(op)) {
            out_ += " -> ";
            result_types(op);
        }
    }

    void positional(const Operation& op, OpForm form)
    {
        std::string inputs = op.spelling.operands_in_arguments ? std::string() : inputs_text(op);
        std::string outputs;
        for (Value* v : op.outputs()) outputs += (outputs.empty() ? "" : ", ") + v->reference();
        std::string operands = form == OpForm::Asm
                                   ? outputs + (!outputs.empty() && !inputs.empty() ? ", " : "") + inputs
                                   : inputs + (!outputs.empty() && !inputs.empty() ? ", " : "") + outputs;
        if (!operands.empty()) out_ += op.spelling.arguments == ArgStyle::Bare && !op.arguments.empty() ? ", " : " ";
        out_ += operands;
        if (op.spelling.arguments == ArgStyle::Trailing && !op.spelling.operands_before_arguments)
            for (const Attribute& a : op.arguments) {
                out_ += ", ";
                append_attribute(out_, a);
            }

        std::vector<NamedAttribute> attrs = op.attributes;
        if (is_tile_instruction(op.name) && op.num_outputs != implied_outputs(op, form)) {
            auto inputs_count = static_cast<int64_t>(op.operands.size() - op.num_outputs);
            attrs.push_back({"operandSegmentSizes", Attribute::dense_array(Type::integer(32),
                                                                            {inputs_count, op.num_outputs})});
        }
        if (!attrs.empty()) {
            out_ += " ";
            append_dictionary(out_, attrs);
        }
        signature(op, form);
    }

    // What the parser will assume about destinations for `op` printed in `form`.
    static unsigned implied_outputs(const Operation& op, OpForm form)
    {
        std::vector<OperandGroup> written = op.input_layout;
        std::size_t inputs = op.operands.size() - op.num_outputs;
        if (written.empty() && inputs > 0) written.push_back({GroupStyle::Positional, {}, std::vector<OperandItem>(inputs)});
        if (op.num_outputs > 0) {
            std::vector<OperandItem> outs(op.num_outputs);
            if (form == OpForm::Asm) {
                if (!written.empty() && written.front().style == GroupStyle::Positional)
                    written.front().items.insert(written.front().items.begin(), outs.begin(), outs.end());
                else
                    written.insert(written.begin(), OperandGroup{GroupStyle::Positional, {}, outs});
            } else if (!written.empty() && written.back().style == GroupStyle::Positional) {
                written.back().items.insert(written.back().items.end(), outs.begin(), outs.end());
            } else {
                written.push_back({GroupStyle::Positional, {}, outs});
            }
        }
        return implied_output_count(form, !op.results.empty(), written);
    }

    void signature(const Operation& op, OpForm form)
    {
        SigStyle style = op.spelling.signature;
        // A micro-instruction's signature is its plain list of operand types in every spelling.
        const OpInfo* info = find_op(op.name);
        const bool clause_syntax = info && info->cls == OpClass::Cube;
        if (clause_syntax) {
            style = op.operand_types.empty() ? SigStyle::None : SigStyle::Plain;
        } else if (form != op.spelling.form || style == SigStyle::InsOuts) {
            bool paren_only = op.results.empty() ? form == OpForm::Asm : !results_typed(op);
            if (op.operand_types.empty() && (op.results.empty() || !results_typed(op)))
                style = SigStyle::None;
            else
                style = paren_only ? SigStyle::ParenList : SigStyle::Functional;
        }
        // PTO assembly writes destinations, and so their types, first.
        std::vector<Type> types = op.operand_types;
        if (form == OpForm::Asm && op.num_outputs > 0 && types.size() == op.operands.size())
            std::rotate(types.begin(), types.end() - op.num_outputs, types.end());
        switch (style) {
            case SigStyle::None:
            case SigStyle::InsOuts:
            case SigStyle::InParens:  // typed_operands() prints these
            case SigStyle::Typed: break;
            case SigStyle::Plain:
                out_ += " : ";
                type_list(types);
                break;
            case SigStyle::ParenList:
                out_ += " : (";
                type_list(types);
                out_ += ")";
                break;
            case SigStyle::Arrow:
                out_ += " : ";
                type_list(types);
                out_ += " -> ";
                result_types(op);
                break;
            case SigStyle::Functional:
                out_ += " : (";
                type_list(types);
                out_ += ") -> ";
                result_types(op, false);
                break;
            case SigStyle::Cast:
                out_ += " : ";
                type_list(types);
                out_ += " to ";
                result_types(op);
                break;
            case SigStyle::Results:
                out_ += " -> ";
                result_types(op);
                break;
        }
    }

    void call(const Operation& op)
    {
        results(op);
        out_ += form_ == Form::Preserve && op.spelling.form == OpForm::Asm ? "call " : "func.call ";
        const Attribute* callee = op.attribute("callee");
        out_ += symbol_text(callee ? callee->text() : std::string()) + "(";
        values(op.operands);
        out_ += ") : (";
        type_list(op.operand_types);
        out_ += ") -> ";
        result_types(op);
    }

    void for_loop(const Operation& op)
    {
        results(op);
        out_ += "scf.for ";
        if (op.attribute("unsignedCmp")) out_ += "unsigned ";
        const Region& body = *op.regions.at(0);
        const Block& entry = *body.blocks.at(0);
        out_ += entry.arguments.at(0)->reference() + " = " + op.operands.at(0)->reference() + " to " +
                op.operands.at(1)->reference() + " step " + op.operands.at(2)->reference();
        if (op.operands.size() > 3) {
            out_ += " iter_args(";
            for (std::size_t i = 3; i < op.operands.size(); ++i) {
                if (i > 3) out_ += ", ";
                out_ += entry.arguments.at(i - 2)->reference() + " = " + op.operands[i]->reference();
            }
            out_ += ") -> (";
            for (std::size_t i = 1; i < entry.arguments.size(); ++i) {
                if (i > 1) out_ += ", ";
                type(entry.arguments[i]->type);
            }
            out_ += ")";
        }
        if (!entry.arguments[0]->type.is<IndexType>()) {
            out_ += " : ";
            type(entry.arguments[0]->type);
        }
        out_ += " ";
        region(body, /*entry_args_declared=*/true);
        attributes(op.attributes, "unsignedCmp");
    }

    void if_else(const Operation& op)
    {
        results(op);
        out_ += "scf.if " + op.operands.at(0)->reference();
        if (!op.results.empty()) {
            out_ += " -> ";
            result_types(op);
        }
        out_ += " ";
        region(*op.regions.at(0), false);
        if (op.regions.size() > 1) {
            out_ += " else ";
            region(*op.regions[1], false);
        }
        attributes(op.attributes);
    }

    void while_loop(const Operation& op)
    {
        results(op);
        const Block& before = *op.regions.at(0)->blocks.at(0);
        out_ += "scf.while (";
        for (std::size_t i = 0; i < op.operands.size(); ++i) {
            if (i) out_ += ", ";
            out_ += before.arguments.at(i)->reference() + " = " + op.operands[i]->reference();
        }
        out_ += ") : (";
        type_list(op.operand_types);
        out_ += ") -> ";
        result_types(op);
        out_ += " ";
        region(*op.regions[0], /*entry_args_declared=*/true);
        out_ += " do ";
        region(*op.regions.at(1), false);
        attributes(op.attributes);
    }

    void condition(const Operation& op)
    {
        out_ += "scf.condition(" + op.operands.at(0)->reference() + ")";
        if (op.operands.size() > 1) {
            out_ += " ";
            values(std::span<Value* const>(op.operands).subspan(1));
        }
        // The types follow the forwarded values; a full list (generic form) also types the condition.
        std::span<const Type> types = op.operand_types;
        if (types.size() == op.operands.size()) types = types.subspan(1);
        if (!types.empty()) {
            out_ += " : ";
            type_list(types);
        }
    }

    void constant(const Operation& op)
    {
        results(op);
        out_ += "arith.constant ";
        if (const Attribute* value = op.attribute("value")) append_attribute(out_, *value);
    }

    void compare(const Operation& op)
    {
        results(op);
        out_ += op.name + " ";
        if (const Attribute* predicate = op.attribute("predicate")) append_attribute(out_, *predicate);
        out_ += ", ";
        values(op.operands);
        out_ += " : ";
        type_list(op.operand_types);
    }

    void section(const Operation& op)
    {
        out_ += name_in(op, choose_form(op)) + " ";  // `section.cube` as written, in the preserved form
        region(*op.regions.at(0), false);
        attributes(op.attributes);
    }

    void strict_vecscope(const Operation& op)
    {
        out_ += name_in(op, choose_form(op)) + "(";
        values(op.operands);
        out_ += ") ";
        region(*op.regions.at(0), false);
        attributes(op.attributes);
        out_ += " : (";
        type_list(op.operand_types);
        out_ += ") -> ()";
    }

    // ---- MLIR's generic form ------------------------------------------------------------------

    // Whether an operation read in generic form has the shape its custom syntax can express: a
    // known dialect, the attributes and regions that syntax prints, and the types it implies.
    static bool has_custom_spelling(const Operation& op)
    {
        const std::string& n = op.name;
        if (!has_dialect_prefix(n)) return false;  // `"foo.bar"` would read back as pto.foo.bar
        if (!is_bare_identifier(n)) return false;  // only the quoted name can carry other characters
        // Destinations of an operation other than a tile instruction: only segment sizes can say which.
        if (op.num_outputs > 0 && !is_tile_instruction(n)) return false;
        auto only_attribute = [&](std::string_view name) {
            return op.attributes.size() == 1 && op.attributes[0].name == name;
        };
        auto result_is = [&](const Type& t) { return op.results.size() == 1 && op.results[0]->type == t; };
        if (n == "arith.constant") {
            const Attribute* value = op.attribute("value");
            if (!value || !only_attribute("value") || !op.operands.empty()) return false;
            return value->is(Attribute::Kind::Bool) ? result_is(Type::integer(1)) : result_is(value->type());
        }
        if (n == "arith.cmpi" || n == "arith.cmpf")
            return only_attribute("predicate") && !op.operand_types.empty() && result_is(Type::integer(1)) && op.regions.empty();
        if (n == "func.call")
            return only_attribute("callee") && op.attribute("callee")->is(Attribute::Kind::Symbol) && op.regions.empty();
        if (n == "scf.for") {
            if (op.operands.size() < 3 || op.regions.size() != 1 || op.regions[0]->blocks.empty()) return false;
            const Block& entry = *op.regions[0]->blocks[0];
            if (entry.arguments.size() != op.operands.size() - 2 || op.results.size() != op.operands.size() - 3) return false;
            for (std::size_t i = 0; i < op.results.size(); ++i)
                if (!(op.results[i]->type == entry.arguments[i + 1]->type)) return false;
            return true;
        }
        if (n == "scf.if") return op.operands.size() == 1 && (op.regions.size() == 1 || op.regions.size() == 2);
        if (n == "scf.while")
            return op.regions.size() == 2 && !op.regions[0]->blocks.empty() &&
                   op.regions[0]->blocks[0]->arguments.size() == op.operands.size() && op.regions[1]->blocks.size() > 0;
        if (n == "scf.condition") return !op.operands.empty() && op.regions.empty();
        if (n.rfind("pto.section.", 0) == 0 || n == "pto.vecscope")
            return op.regions.size() == 1 && op.operands.empty() && op.results.empty();
        if (n == "pto.strict_vecscope")
            return op.regions.size() == 1 && op.results.empty() && op.operand_types.size() == op.operands.size();
        return op.regions.empty();  // the positional and DPS syntax have no regions
    }

    // Whether the generic form can say everything the IR holds about `op`'s operand groups and
    // positional attributes (generic_form.hpp names them).
    static bool has_generic_spelling(const Operation& op)
    {
        std::span<const std::string_view> names = argument_names(op.name);
        if (op.arguments.size() > names.size()) return false;
        for (std::size_t i = 0; i < op.arguments.size(); ++i)
            if (op.attribute(names[i])) return false;
        std::span<const OperandSegment> segments = operand_segments(op.name);
        if (!segments.empty() && op.num_outputs > 0) return false;
        // An attribute the parser would read as operand segments cannot stay an attribute.
        bool segmented = is_tile_instruction(op.name) || !segments.empty();
        for (const NamedAttribute& a : op.attributes)
            if (is_segment_sizes(a.name) && (segmented || splits_inputs_and_outputs(a.value, op.operands.size())))
                return false;
        if (op.input_layout.empty()) return true;
        // A micro-instruction's clauses travel in one property; an integer literal among the positional
        // operands (`pto.pldi %p, 2`) has no generic spelling.
        if (op.positional_literals() > 0) return false;
        if (std::all_of(op.input_layout.begin(), op.input_layout.end(),
                        [](const OperandGroup& g) { return g.style == GroupStyle::Clause || g.style == GroupStyle::Positional; }))
            return true;
        std::size_t next = 0;
        for (const OperandGroup& g : op.input_layout) {
            while (next < segments.size() && !(segments[next].style == g.style && segments[next].keyword == g.keyword)) ++next;
            if (next == segments.size() || g.items.empty()) return false;
            const OperandSegment& segment = segments[next++];
            std::size_t literals = g.items.size() - g.operand_count();
            bool fits = segment.literals ? literals == g.items.size() && !op.attribute(segment.keyword) : literals == 0;
            if (!fits) return false;
        }
        return true;
    }

    // `operandSegmentSizes` (inputs and destinations of a tile instruction, or the operand
    // segments of a keyword-operand operation) and the literal segments' attributes.
    static void add_segment_properties(const Operation& op, std::vector<NamedAttribute>& properties)
    {
        auto sizes = [&](std::vector<int64_t> counts) {
            properties.push_back({std::string(kSegmentSizes), Attribute::dense_array(Type::integer(32), std::move(counts))});
        };
        if (operand_segments(op.name).empty()) {
            if (op.num_outputs > 0 || (is_tile_instruction(op.name) && op.results.empty()))
                sizes({static_cast<int64_t>(op.operands.size() - op.num_outputs), static_cast<int64_t>(op.num_outputs)});
            return;
        }
        if (op.input_layout.empty()) return;
        std::vector<int64_t> counts;
        std::size_t next = 0;
        for (const OperandSegment& segment : operand_segments(op.name)) {
            const OperandGroup* group = nullptr;
            if (next < op.input_layout.size() && op.input_layout[next].style == segment.style &&
                op.input_layout[next].keyword == segment.keyword)
                group = &op.input_layout[next++];
            if (!segment.literals) {
                counts.push_back(group ? static_cast<int64_t>(group->items.size()) : 0);
            } else if (group) {
                std::vector<int64_t> literals;
                for (const OperandItem& item : group->items) literals.push_back(item.value);
                properties.push_back({std::string(segment.keyword), Attribute::dense_array(Type::integer(64), std::move(literals))});
            }
        }
        sizes(std::move(counts));
    }

    // %r = "name"(operands) <{properties}> (regions) {attributes} : (operand types) -> result types
    void generic_operation(const Operation& op)
    {
        results(op);
        out_ += quote_string(op.name) + "(";
        values(op.operands);
        out_ += ")";
        std::vector<NamedAttribute> properties, discardable;
        for (const NamedAttribute& a : op.attributes) (is_discardable_attribute(a.name) ? discardable : properties).push_back(a);
        std::span<const std::string_view> names = argument_names(op.name);
        for (std::size_t i = 0; i < op.arguments.size(); ++i) properties.push_back({std::string(names[i]), op.arguments[i]});
        add_segment_properties(op, properties);
        if (const std::string clauses = encode_clauses(op.input_layout); !clauses.empty())
            properties.push_back({std::string(kClausesProperty), Attribute::string(clauses)});
        if (!properties.empty()) {
            out_ += " <";
            append_dictionary(out_, properties);
            out_ += ">";
        }
        if (!op.regions.empty()) {
            out_ += " (";
            for (std::size_t i = 0; i < op.regions.size(); ++i) {
                if (i) out_ += ", ";
                region(*op.regions[i], /*entry_args_declared=*/false, /*generic=*/true);
            }
            out_ += ")";
        }
        if (!discardable.empty()) {
            out_ += " ";
            append_dictionary(out_, discardable);
        }
        out_ += " : (";
        // The types as written when the source gave one per operand, else as the values know them.
        bool written = op.operand_types.size() == op.operands.size();
        for (std::size_t i = 0; i < op.operands.size(); ++i) {
            if (i) out_ += ", ";
            type(written ? op.operand_types[i] : op.operand_type(i));
        }
        out_ += ") -> ";
        result_types(op, false);
    }

    // "func.func"() <{function_type = ..., sym_name = "f"}> ({ ^bb0(%a: A): ... }) {...} : () -> ()
    void generic_function(const Function& f)
    {
        indent();
        out_ += "\"func.func\"() <{";
        std::vector<const Value*> args = f.arguments();
        if (!f.argument_attributes.empty()) {
            out_ += "arg_attrs = [";
            for (std::size_t i = 0; i < args.size(); ++i) {
                if (i) out_ += ", ";
                append_dictionary(out_, i < f.argument_attributes.size() ? f.argument_attributes[i]
                                                                         : std::vector<NamedAttribute>());
            }
            out_ += "], ";
        }
        out_ += "function_type = (";
        for (std::size_t i = 0; i < args.size(); ++i) {
            if (i) out_ += ", ";
            type(args[i]->type);
        }
        out_ += ") -> ";
        if (f.result_types.size() == 1) {
            type(f.result_types[0]);
        } else {
            out_ += "(";
            type_list(f.result_types);
            out_ += ")";
        }
        out_ += ", sym_name = " + quote_string(f.name);
        if (!f.visibility.empty()) out_ += ", sym_visibility = " + quote_string(f.visibility);
        out_ += "}> (";
        if (f.body) region(*f.body, /*entry_args_declared=*/false, /*generic=*/true);
        out_ += ")";
        if (!f.attributes.empty()) {
            out_ += " ";
            append_dictionary(out_, f.attributes);
        }
        out_ += " : () -> ()\n";
    }

    // "builtin.module"() <{sym_name = "m"}> ({ functions }) {attributes} : () -> ()
    void generic_module(const Module& m)
    {
        if (!m.explicit_module) {
            functions(m);
            return;
        }
        out_ += "\"builtin.module\"()";
        if (!m.name.empty()) out_ += " <{sym_name = " + quote_string(m.name) + "}>";
        out_ += " ({\n";
        ++indent_;
        functions(m);
        --indent_;
        out_ += "})";
        if (!m.attributes.empty()) {
            out_ += " ";
            append_dictionary(out_, m.attributes);
        }
        out_ += " : () -> ()\n";
    }

    Form form_;
    std::string out_;
    int indent_ = 0;
};

}  // namespace

std::string print(const Module& module, Form form) { return Printer(form).module(module); }

std::string to_string(const Type& type)
{
    std::string out;
    append_type(out, type);
    return out;
}

std::string to_string(const Attribute& attribute)
{
    std::string out;
    append_attribute(out, attribute);
    return out;
}

}  // namespace pto::as
