// MLIR's generic operation form: `%r = "pto.tadd"(%a, %b) <{...}> ({...}) {...} : (A, B) -> R`, for
// operations, `func.func` and `builtin.module`. Each is turned into the IR its custom spelling
// gives, so that the verifier and the interpreter never see the difference.
#include <algorithm>

#include "asm/generic_form.hpp"
#include "asm/parser_impl.hpp"
#include "asm/printer.hpp"

namespace pto::as::detail {

namespace {

// Removes and returns the attribute `name`, if present.
std::optional<Attribute> take_attribute(std::vector<NamedAttribute>& attributes, std::string_view name)
{
    auto it = std::find_if(attributes.begin(), attributes.end(), [&](const NamedAttribute& a) { return a.name == name; });
    if (it == attributes.end()) return std::nullopt;
    Attribute value = std::move(it->value);
    attributes.erase(it);
    return value;
}

}  // namespace

SourceLocation GenericParts::attribute_loc(std::string_view attribute_name) const
{
    for (std::size_t i = 0; i < attributes.size(); ++i)
        if (attributes[i].name == attribute_name) return attribute_locs[i];
    return loc;
}

// A region whose entry block declares its own arguments (`^bb0(%i: index):`). That label only
// carries them, as the custom syntax's parent operation does, so the entry block keeps none.
bool Parser::parse_generic_region(Region& region)
{
    bool ok = parse_region(region, {});
    if (!region.blocks.empty()) region.blocks.front()->label.clear();
    return ok;
}

bool Parser::is_generic_item(std::string_view op_name)
{
    return at(TokenKind::String) && unescape_string_literal(tok().spelling) == op_name && tok(1).is(TokenKind::LParen);
}

// Entries of the properties `<{...}>` (after the '<') or the attributes `{...}`, added to the
// parts' attributes.
bool Parser::parse_generic_dictionary(GenericParts& parts, bool properties)
{
    Nesting nesting(*this, tok().loc);
    if (!nesting) return false;
    take();  // '{'
    if (!accept(TokenKind::RBrace)) {
        while (true) {
            SourceLocation loc = tok().loc;
            std::string name;
            if (!parse_attribute_name(name)) return false;
            bool duplicate = find_attribute(parts.attributes, name) || (name == "function_type" && parts.has_function_type);
            if (duplicate)
                error(codes::kDuplicateAttribute, loc, "duplicate attribute " + name,
                      "each name once among the properties and attributes", "a second `" + name + "`");
            if (name == "function_type" && parts.name == "func.func") {
                // A function type is no attribute value elsewhere: `(A, B) -> R`.
                parts.has_function_type = true;
                parts.function_inputs.clear();
                parts.function_results.clear();
                if (!expect(TokenKind::Equal, "'=' and the function type") ||
                    !expect(TokenKind::LParen, "'(' opening the argument types"))
                    return false;
                if (!accept(TokenKind::RParen) &&
                    (!parse_type_list(parts.function_inputs) || !expect(TokenKind::RParen, "',' or ')'")))
                    return false;
                if (!expect(TokenKind::Arrow, "'->' and the result types") || !parse_result_types(parts.function_results))
                    return false;
            } else {
                Attribute value;
                if (accept(TokenKind::Equal) && !parse_attribute(value)) return false;
                if (!duplicate) {
                    parts.attributes.push_back({std::move(name), std::move(value)});
                    parts.attribute_locs.push_back(loc);
                }
            }
            if (accept(TokenKind::Comma)) continue;
            if (!expect(TokenKind::RBrace, "',' or '}'")) return false;
            break;
        }
    }
    return !properties || expect(TokenKind::Greater, "'>' closing the properties");
}

template <typename ParseRegion>
bool Parser::parse_generic_parts(GenericParts& parts, ParseRegion&& region)
{
    Token name = take();
    parts.name = unescape_string_literal(name.spelling);
    parts.loc = name.loc;
    if (parts.name.empty()) return error(codes::kUnexpectedToken, name.loc, "empty operation name", "\"dialect.op\"", "\"\"");
    if (!expect(TokenKind::LParen, "'(' opening the operand list")) return false;
    if (!accept(TokenKind::RParen)) {
        while (true) {
            Value* value = nullptr;
            if (!parse_value_use(value)) return false;
            parts.operands.push_back(value);
            if (accept(TokenKind::Comma)) continue;
            if (!expect(TokenKind::RParen, "',' or ')'")) return false;
            break;
        }
    }
    if (at(TokenKind::LSquare)) return error(codes::kUnexpectedToken, tok().loc, "successors are not supported",
                                             "properties, regions, attributes or ':'", tok().describe());
    if (at(TokenKind::Less) && tok(1).is(TokenKind::LBrace)) {
        take();
        if (!parse_generic_dictionary(parts, /*properties=*/true)) return false;
    }
    bool ok = true;
    if (accept(TokenKind::LParen)) {
        while (true) {
            if (!at(TokenKind::LBrace)) return unexpected("'{' opening a region");
            ok = region() && ok;
            if (stopped()) return false;
            if (accept(TokenKind::Comma)) continue;
            if (!expect(TokenKind::RParen, "',' or ')' closing the regions")) return false;
            break;
        }
    }
    if (at(TokenKind::LBrace) && !parse_generic_dictionary(parts, /*properties=*/false)) return false;
    parts.signature_loc = tok().loc;
    if (!expect(TokenKind::Colon, "':' and the operation's function type") ||
        !expect(TokenKind::LParen, "'(' opening the operand types"))
        return false;
    if (!accept(TokenKind::RParen) && (!parse_type_list(parts.operand_types) || !expect(TokenKind::RParen, "',' or ')'")))
        return false;
    if (!expect(TokenKind::Arrow, "'->' and the result types") || !parse_result_types(parts.result_types)) return false;
    if (parts.operand_types.size() != parts.operands.size())
        return error(codes::kTypeCount, parts.signature_loc, "the function type does not match the operands",
                     std::to_string(parts.operands.size()) + " operand type" + (parts.operands.size() == 1 ? "" : "s"),
                     std::to_string(parts.operand_types.size()));
    return ok;
}

bool Parser::parse_generic_operation(Block& block, const std::vector<ResultName>& names)
{
    auto op = std::make_unique<Operation>();
    op->parent = &block;
    op->spelling.form = OpForm::Generic;
    op->spelling.signature = SigStyle::Functional;
    OperationNameScope scope(op_name_, unescape_string_literal(tok().spelling));
    GenericParts parts;
    bool ok = parse_generic_parts(parts, [&] {
        op->regions.push_back(std::make_unique<Region>());
        op->regions.back()->parent = op.get();
        return parse_generic_region(*op->regions.back());
    });
    if (ok && (parts.name == "func.func" || parts.name == "builtin.module"))
        ok = error(codes::kUnexpectedToken, parts.loc, "nested modules and functions are not supported", "an operation",
                   "\"" + parts.name + "\"");
    ok = ok && check_result_count(parts.result_types.size(), bound_count(names), parts.loc);
    if (ok) {
        op->name = parts.name;
        op->loc = parts.loc;
        op->attributes = parts.attributes;
        for (std::string_view argument : argument_names(op->name))
            if (std::optional<Attribute> value = take_attribute(op->attributes, argument))
                op->arguments.push_back(std::move(*value));
        // `predicate = 2 : i64` as MLIR writes it is the untyped predicate of `arith.cmpi 2, ...`.
        if (op->name == "arith.cmpi" || op->name == "arith.cmpf")
            for (NamedAttribute& a : op->attributes)
                if (a.name == "predicate" && a.value.is(Attribute::Kind::Integer))
                    a.value = Attribute::integer(a.value.int_value());
        const OpInfo* info = find_op(op->name);
        const Attribute* clauses = op->attribute(kClausesProperty);
        if (info && info->cls == OpClass::Cube && clauses && clauses->is(Attribute::Kind::String)) {
            const std::optional<std::vector<OperandGroup>> layout = decode_clauses(clauses->text(), parts.operands.size());
            if (!layout)
                return error(codes::kBadAttribute, parts.attribute_loc(kClausesProperty), "malformed clauses",
                             "clauses spelled as in custom form, `?` for each operand", clauses->text());
            op->operands = parts.operands;
            op->operand_types = parts.operand_types;
            op->input_layout = *layout;
            normalize_layout(op->input_layout);
            (void)take_attribute(op->attributes, kClausesProperty);
        } else if (!operand_segments(op->name).empty()) {
            op->operands = parts.operands;
            op->operand_types = parts.operand_types;
            ok = build_operand_segments(*op, parts);
        } else {
            WrittenOperands written;
            written.values = parts.operands;
            if (!written.values.empty())
                written.layout.push_back({GroupStyle::Positional, {}, std::vector<OperandItem>(written.values.size())});
            ok = split_outputs(*op, written, parts.operand_types, !parts.result_types.empty());
        }
    }
    if (!ok) return false;
    define_results(*op, names, parts.result_types);
    block.operations.push_back(std::move(op));
    return true;
}

// Rebuilds the keyword groups of an operation with operand segments (`pto.make_tensor_view %p,
// shape = [...], strides = [...]`) from `operandSegmentSizes` and the literal segments' attributes.
bool Parser::build_operand_segments(Operation& op, const GenericParts& parts)
{
    std::span<const OperandSegment> segments = operand_segments(op.name);
    if (segments.empty()) return true;
    auto sizes_it = std::find_if(op.attributes.begin(), op.attributes.end(),
                                 [](const NamedAttribute& a) { return is_segment_sizes(a.name); });
    if (sizes_it == op.attributes.end()) return true;  // a plain operand list
    SourceLocation sizes_loc = parts.attribute_loc(sizes_it->name);
    const Attribute sizes = sizes_it->value;
    op.attributes.erase(sizes_it);

    std::size_t value_segments = static_cast<std::size_t>(
        std::count_if(segments.begin(), segments.end(), [](const OperandSegment& s) { return !s.literals; }));
    const std::vector<int64_t>& counts = sizes.dense_values();
    int64_t total = 0;
    bool well_formed = sizes.is(Attribute::Kind::DenseArray) && counts.size() == value_segments;
    for (int64_t c : counts) {
        well_formed = well_formed && c >= 0 && c <= static_cast<int64_t>(op.operands.size());
        total += c;
    }
    if (!well_formed || total != static_cast<int64_t>(op.operands.size()))
        return error(codes::kBadAttribute, sizes_loc, "malformed operandSegmentSizes",
                     "array<i32: ...> of " + std::to_string(value_segments) + " sizes adding up to " +
                         std::to_string(op.operands.size()),
                     to_string(sizes));

    std::vector<OperandGroup> layout;
    std::size_t next_count = 0;
    for (const OperandSegment& segment : segments) {
        OperandGroup group{segment.style, std::string(segment.keyword), {}};
        if (segment.literals) {
            std::optional<Attribute> literals = take_attribute(op.attributes, segment.keyword);
            if (!literals) continue;
            if (!literals->is(Attribute::Kind::DenseArray))
                return error(codes::kBadAttribute, parts.attribute_loc(segment.keyword),
                             "`" + std::string(segment.keyword) + "` must list integers", "array<i64: ...>",
                             to_string(*literals));
            for (int64_t v : literals->dense_values()) group.items.push_back(OperandItem::integer(v));
        } else {
            group.items.resize(static_cast<std::size_t>(counts[next_count++]));
            if (group.items.empty()) continue;
        }
        layout.push_back(std::move(group));
    }
    normalize_layout(layout);
    op.input_layout = std::move(layout);
    return true;
}

// "func.func"() <{function_type = (A) -> R, sym_name = "f", sym_visibility = "private",
//                 arg_attrs = [{...}, ...]}> ({ ^bb0(%a: A): ... }) {pto.entry} : () -> ()
void Parser::parse_generic_function()
{
    op_name_.clear();
    auto function = std::make_unique<Function>();
    function->loc = tok().loc;
    function->body = std::make_unique<Region>();
    GenericParts parts;
    int regions = 0;
    scopes_.clear();
    bool ok = parse_generic_parts(parts, [&] {
        if (regions++ > 0) return error(codes::kUnexpectedToken, tok().loc, "a function has one body", "')'", "a second region");
        return parse_generic_region(*function->body);
    });
    scopes_.clear();
    if (!ok) {
        skip_to_top_level_item();
        return;
    }
    auto fail = [&](SourceLocation loc, std::string_view code, std::string what, std::string expected, std::string actual) {
        error(code, loc, std::move(what), std::move(expected), std::move(actual));
    };
    if (!parts.operands.empty() || !parts.result_types.empty())
        return fail(parts.signature_loc, codes::kTypeCount, "func.func takes no operands and has no results",
                    "() -> ()", "operands or results");
    if (regions == 0) return fail(parts.signature_loc, codes::kUnexpectedToken, "func.func without a body", "({ ... })", "none");

    std::optional<Attribute> name = take_attribute(parts.attributes, "sym_name");
    if (!name || !name->is(Attribute::Kind::String))
        return fail(parts.loc, codes::kBadAttribute, "func.func needs its name", "sym_name = \"name\"",
                    name ? to_string(*name) : "none");
    function->name = name->text();
    if (module_.find_function(function->name))
        return fail(parts.attribute_loc("sym_name"), codes::kDuplicateSymbol, "redefinition of function @" + function->name,
                    "a new function name", "`@" + function->name + "`");
    if (std::optional<Attribute> visibility = take_attribute(parts.attributes, "sym_visibility")) {
        if (!visibility->is(Attribute::Kind::String))
            return fail(parts.loc, codes::kBadAttribute, "bad sym_visibility", "\"private\", \"public\" or \"nested\"",
                        to_string(*visibility));
        function->visibility = visibility->text();
    }
    if (!parts.has_function_type)
        return fail(parts.loc, codes::kBadAttribute, "func.func needs its type", "function_type = (...) -> ...", "none");
    const Block& entry = *function->body->blocks.front();
    std::vector<Type> argument_types;
    for (const auto& argument : entry.arguments) argument_types.push_back(argument->type);
    if (argument_types != parts.function_inputs) {
        auto list = [](const std::vector<Type>& types) {
            std::string text = "(";
            for (std::size_t i = 0; i < types.size(); ++i) text += (i ? ", " : "") + to_string(types[i]);
            return text + ")";
        };
        return fail(function->body->loc, codes::kBadType, "the entry block's arguments do not match function_type",
                    list(parts.function_inputs), list(argument_types));
    }
    function->result_types = parts.function_results;
    if (std::optional<Attribute> arg_attrs = take_attribute(parts.attributes, "arg_attrs")) {
        bool well_formed = arg_attrs->is(Attribute::Kind::Array) && arg_attrs->elements().size() == entry.arguments.size();
        for (std::size_t i = 0; well_formed && i < arg_attrs->elements().size(); ++i)
            well_formed = arg_attrs->elements()[i].is(Attribute::Kind::Dictionary);
        if (!well_formed)
            return fail(parts.attribute_loc("arg_attrs"), codes::kBadAttribute, "bad arg_attrs",
                        "one dictionary per argument", to_string(*arg_attrs));
        bool all_empty = true;
        for (const Attribute& d : arg_attrs->elements()) {
            function->argument_attributes.push_back(d.entries());
            all_empty = all_empty && d.entries().empty();
        }
        if (all_empty) function->argument_attributes.clear();
    }
    if (find_attribute(parts.attributes, "res_attrs"))
        return fail(parts.attribute_loc("res_attrs"), codes::kBadAttribute, "result attributes are not supported",
                    "no res_attrs", "res_attrs");
    function->attributes = std::move(parts.attributes);
    module_.functions.push_back(std::move(function));
}

// "builtin.module"() <{sym_name = "m"}> ({ functions }) {attributes} : () -> ()
void Parser::parse_generic_module()
{
    op_name_.clear();
    module_.explicit_module = true;
    GenericParts parts;
    int regions = 0;
    bool ok = parse_generic_parts(parts, [&] {
        if (regions++ > 0) return error(codes::kUnexpectedToken, tok().loc, "a module has one body", "')'", "a second region");
        take();  // '{'
        while (!stopped()) {
            if (accept(TokenKind::RBrace)) return true;
            if (at(TokenKind::EndOfFile)) return unexpected("'}' closing the module");
            if (at_keyword("func.func")) {
                parse_function();
            } else if (is_generic_item("func.func")) {
                parse_generic_function();
            } else {
                unexpected("a function or '}'");
                skip_to_top_level_item();
            }
        }
        return false;
    });
    if (!ok) {
        skip_to_top_level_item();
        return;
    }
    if (!parts.operands.empty() || !parts.result_types.empty()) {
        error(codes::kTypeCount, parts.signature_loc, "builtin.module takes no operands and has no results", "() -> ()",
              "operands or results");
        return;
    }
    if (std::optional<Attribute> name = take_attribute(parts.attributes, "sym_name")) {
        if (!name->is(Attribute::Kind::String)) {
            error(codes::kBadAttribute, parts.loc, "bad module name", "sym_name = \"name\"", to_string(*name));
            return;
        }
        module_.name = name->text();
    }
    module_.attributes = std::move(parts.attributes);
}

}  // namespace pto::as::detail
