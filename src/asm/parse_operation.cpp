// Operations: the generic instruction grammar shared by every tile instruction in its three
// spellings (PTO assembly, SSA, DPS), and the fixed syntax of the standard dialects' operations.
#include <algorithm>
#include <utility>

#include "asm/generic_form.hpp"
#include "asm/op_table.hpp"
#include "asm/parser_impl.hpp"
#include "asm/printer.hpp"
#include "asm/vector_form.hpp"

namespace pto::as::detail {

std::size_t bound_count(const std::vector<ResultName>& names)
{
    std::size_t total = 0;
    for (const ResultName& n : names) total += n.count();
    return total;
}

// "a, b or c" of a list of words.
std::string join_words(std::span<const std::string_view> words)
{
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i)
        out += std::string(i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + std::string(words[i]);
    return out;
}

// A plain comma-separated list of values needs no layout.
void normalize_layout(std::vector<OperandGroup>& layout)
{
    layout.erase(std::remove_if(layout.begin(), layout.end(),
                                [](const OperandGroup& g) { return g.style == GroupStyle::Positional && g.items.empty(); }),
                 layout.end());
    if (layout.size() == 1 && layout[0].style == GroupStyle::Positional && layout[0].operand_count() == layout[0].items.size())
        layout.clear();
}

bool Parser::parse_operation(Block& block)
{
    Nesting nesting(*this, tok().loc);
    if (!nesting) return false;
    std::vector<ResultName> names;
    if (at(TokenKind::ValueId) && !parse_result_names(names)) {
        poison(names);
        return false;
    }
    if (at(TokenKind::String)) {
        if (parse_generic_operation(block, names)) return true;
        poison(names);
        return false;
    }
    if (!at(TokenKind::BareIdentifier)) {
        poison(names);
        return unexpected("an operation name");
    }
    Token name = take();
    std::string word(name.spelling);
    OperationNameScope scope(op_name_, word);
    if (word == "module" || word == "func.func") {
        poison(names);
        return error(codes::kUnexpectedToken, name.loc, "nested modules and functions are not supported",
                     "an operation", name.describe());
    }

    auto op = std::make_unique<Operation>();
    op->loc = name.loc;
    op->parent = &block;
    if (word == "return" || word == "call") {
        op->name = "func." + word;
        op->spelling.form = OpForm::Asm;
    } else if (has_dialect_prefix(word)) {
        op->name = word;
        op->spelling.form = OpForm::SSA;
    } else {
        op->name = "pto." + word;
        op->spelling.form = OpForm::Asm;
    }

    std::vector<Type> result_types;
    const std::string& n = op->name;
    bool ok = false;
    if (n == "func.call") {
        ok = parse_call(*op, names, result_types);
    } else if (n == "scf.for") {
        ok = parse_for(*op, names, result_types);
    } else if (n == "scf.if") {
        ok = parse_if(*op, names, result_types);
    } else if (n == "scf.while") {
        ok = parse_while(*op, names, result_types);
    } else if (n == "scf.condition") {
        ok = parse_condition(*op) && check_result_count(0, bound_count(names), name.loc);
    } else if (n == "arith.constant") {
        ok = parse_constant(*op, result_types) && check_result_count(1, bound_count(names), name.loc);
    } else if (n == "arith.cmpi" || n == "arith.cmpf") {
        ok = parse_compare(*op, result_types) && check_result_count(1, bound_count(names), name.loc);
    } else if (n.rfind("pto.section.", 0) == 0 || n == "pto.vecscope") {
        ok = parse_section(*op) && check_result_count(0, bound_count(names), name.loc);
    } else if (n == "pto.strict_vecscope") {
        ok = parse_strict_vecscope(*op) && check_result_count(0, bound_count(names), name.loc);
    } else if (op->spelling.form == OpForm::Asm && names.empty() && vector_destination_count(n) > 0 && at(TokenKind::ValueId)) {
        ok = parse_register_form(*op, names, result_types);
    } else if (op->spelling.form == OpForm::Asm && names.empty() && !find_op(n) &&
               (word.rfind("PTO.", 0) == 0 || (at(TokenKind::ValueId) && !visible(std::string(tok().name()))))) {
        // `vfoo %r, %a`: which operands would be destinations only the operation's definition says.
        poison(names);
        return error(codes::kUnknownMnemonic, name.loc, "unknown operation " + word,
                     word.rfind("PTO.", 0) == 0 ? "a PTO-AS operation such as `vcvt %d, %s, %m {rnd = \"R\"} : T` (`PTO." +
                                                      word.substr(4) + " vd, vs, ...` is a page's register notation)"
                                                : "an operation whose assembly form names its destination registers first",
                     word);
    } else {
        ok = parse_generic(*op, names, result_types);
    }
    if (ok && accept(TokenKind::Semicolon)) op->spelling.semicolon = true;
    if (!ok) {
        poison(names);
        return false;
    }
    define_results(*op, names, result_types);
    block.operations.push_back(std::move(op));
    return true;
}

bool Parser::parse_result_names(std::vector<ResultName>& names)
{
    while (true) {
        if (!at(TokenKind::ValueId)) return unexpected("a result name");
        Token t = take();
        ResultName result{std::string(t.name()), -1, t.loc};
        if (result.name.find('#') != std::string::npos)
            return error(codes::kUnexpectedToken, t.loc, "a result name cannot select a result", "%name or %name:N",
                         t.describe());
        if (accept(TokenKind::Colon)) {
            uint64_t count = 0;
            if (!at(TokenKind::Integer)) return unexpected("the number of results after ':'");
            Token c = take();
            if (!parse_unsigned_literal(c.spelling, count) || count == 0 || count > options_.max_result_group)
                return error(codes::kBadNumber, c.loc, "bad result group size",
                             "1 to " + std::to_string(options_.max_result_group), c.describe());
            result.group_size = static_cast<int>(count);
        }
        names.push_back(std::move(result));
        if (!accept(TokenKind::Comma)) break;
    }
    return expect(TokenKind::Equal, "'=' after the result names");
}

// The PTO assembly form of a vector micro-instruction, `vabs %r, %a, %m [: types]`: every result of its
// definition written first as a destination register (a fresh name), then the operands, tokens and
// attributes of its SSA form. It makes the operation `%r = pto.vabs %a, %m : ... -> ...` makes, and so
// prints as that. Types after ':' are the destinations' (as many as given), and any further ones those
// of operands in order; `: (A, B) -> R` and `: A, B -> R` are as in the SSA form. A destination left
// untyped gets the type infer_vector_result_types finds, or PARSE_RESULT_TYPE.
bool Parser::parse_register_form(Operation& op, std::vector<ResultName>& names, std::vector<Type>& result_types)
{
    const std::size_t count = vector_destination_count(op.name);
    for (std::size_t i = 0; i < count; ++i) {
        if (i > 0 && !expect(TokenKind::Comma, "',' and destination register " + std::to_string(i + 1) + " of " + std::to_string(count)))
            return false;
        if (!at(TokenKind::ValueId)) return unexpected("destination register " + std::to_string(i + 1) + " of " + std::to_string(count));
        Token t = take();
        if (t.name().find('#') != std::string_view::npos)
            return error(codes::kUnexpectedToken, t.loc, "a destination register is a fresh name", "%name", t.describe());
        names.push_back({std::string(t.name()), -1, t.loc});
    }
    if (!accept(TokenKind::Comma) && !tok().starts_line &&
        (at(TokenKind::ValueId) || at(TokenKind::String) || at(TokenKind::Integer) || at(TokenKind::BareIdentifier)))
        return unexpected("',' after the destination registers");
    if (!parse_generic(op, names, result_types)) return false;
    const std::span<Value* const> inputs = op.inputs();
    switch (op.spelling.signature) {
        case SigStyle::None: result_types.assign(count, Type()); break;
        case SigStyle::Arrow:
        case SigStyle::Functional: break;  // as the SSA form writes them (the result count is checked)
        case SigStyle::Plain: {
            // The destinations' types, then (a subsequence of) the operands', which their values state.
            std::vector<Type> written = std::move(op.operand_types);
            op.operand_types.clear();
            result_types.assign(count, Type());
            std::size_t next = 0;
            for (std::size_t i = 0; i < written.size(); ++i) {
                if (i < count) {
                    result_types[i] = written[i];
                    continue;
                }
                while (next < inputs.size() && !(inputs[next]->type == written[i])) ++next;
                if (next++ >= inputs.size())
                    return error(codes::kTypeCount, op.loc, "type " + std::to_string(i + 1) + " after ':' is neither a destination's nor an operand's",
                                 "the destinations' types, then operand types in order", to_string(written[i]));
            }
            break;
        }
        default:
            return error(codes::kUnexpectedToken, op.loc, "the assembly form types its destinations after ':'",
                         "`: T` or `: (operand types) -> result types`", "another signature");
    }
    if (op.operand_types.empty())
        for (const WrittenInput& in : op.written_inputs()) {
            if (in.value && in.value->type.is_none())
                return error(codes::kResultType, op.loc, "operand " + in.value->reference() + " of " + std::string(op.mnemonic()) + " has no known type",
                             "the typed form `%" + names.front().name + " = " + op.name + " ... : (operand types) -> result types`", "an untyped operand");
            op.operand_types.push_back(in.value ? in.value->type : in.type.is_none() ? Type::integer(32) : in.type);
        }
    op.spelling.form = OpForm::SSA;
    op.spelling.signature = op.operand_types.empty() ? SigStyle::Plain : SigStyle::Arrow;
    op.spelling.bare_results = false;
    // The results, typed where the text typed them, the others inferred.
    for (std::size_t i = 0; i < count; ++i) {
        op.results.push_back(std::make_unique<Value>());
        op.results.back()->type = result_types[i];
    }
    std::string why;
    const std::optional<std::size_t> untyped = infer_vector_result_types(op, why);
    for (std::size_t i = 0; i < count; ++i) result_types[i] = op.results[i]->type;
    op.results.clear();
    if (untyped) {
        const ResultName& r = names[*untyped];
        return error(codes::kResultType, r.loc, "cannot infer the type of destination %" + r.name + ": " + why,
                     "its type after ':' (`" + std::string(op.mnemonic()) + " ... : T`) or the typed form `%" + r.name + " = " + op.name +
                         " ... : (operand types) -> result types`",
                     "no type");
    }
    if (std::any_of(result_types.begin(), result_types.end(), [](const Type& t) { return t.is_none(); })) {
        // The wrong operand count (the verifier says so): untyped, as `%r = pto.vabs %a` is.
        op.spelling.signature = SigStyle::None;
        op.operand_types.clear();
        result_types.assign(count, Type());
    } else if (op.spelling.signature == SigStyle::Plain) {
        // With no operands, the SSA form's plain list types the results (`%s = pto.init_align : !pto.align`).
        op.operand_types = result_types;
    }
    return true;
}

bool Parser::check_result_count(std::size_t declared, std::size_t bound, SourceLocation loc)
{
    if (declared == bound) return true;
    return error(codes::kResultCount, loc, "result count mismatch",
                 std::to_string(declared) + " result name" + (declared == 1 ? "" : "s"), std::to_string(bound));
}

// ---- the generic instruction grammar ------------------------------------------------------------
//
//   [results =] name [attribute-arguments] operands [attr-dict] [: signature]
//   [results =] name [attribute-arguments] ins(operands [attr-dict] [: types]) [outs(values [: types])]
//               [attr-dict] [-> result-types]

bool Parser::parse_generic(Operation& op, const std::vector<ResultName>& names, std::vector<Type>& result_types)
{
    if (const OpInfo* info = find_op(op.name); info && info->cls == OpClass::Cube)
        return parse_clause_operation(op, *info) && check_result_count(0, bound_count(names), op.loc);
    std::size_t bound = bound_count(names);
    SourceLocation loc = op.loc;
    // `name(%a, %b : A, B)`: the operands in parentheses with their types.
    if (at(TokenKind::LParen) && tok(1).is(TokenKind::ValueId)) {
        take();
        WrittenOperands written;
        if (!parse_operand_items(written, /*in_parens=*/true)) return false;
        std::vector<Type> types;
        op.spelling.signature = SigStyle::InParens;
        if (accept(TokenKind::RParen)) {  // the values' own types (the assembler's `tpop_from_aic(%rows, %cols)`)
            op.spelling.untyped_parens = true;
            return finish_typed_operands(op, written, types, result_types, bound, loc);
        }
        if (!expect(TokenKind::Colon, "':' and the operand types or ')'")) return false;
        if (!parse_type_list(types) || !expect(TokenKind::RParen, "')' after the operand types")) return false;
        if (types.size() != written.values.size())
            return error(codes::kUnexpectedToken, loc, "one type per operand", std::to_string(written.values.size()),
                         std::to_string(types.size()));
        return finish_typed_operands(op, written, types, result_types, bound, loc);
    }
    if (!parse_attribute_arguments(op)) return false;

    if ((at_keyword("ins") || at_keyword("outs")) && tok(1).is(TokenKind::LParen)) {
        WrittenOperands inputs;
        std::vector<Value*> outputs;
        std::vector<Type> input_types, output_types;
        if (!parse_dps(op, inputs, outputs, input_types, output_types)) return false;
        if (at(TokenKind::LBrace) && !parse_attribute_dict(op.attributes)) return false;
        if (accept(TokenKind::Arrow)) {
            if (!parse_result_types(result_types)) return false;
            if (!check_result_count(result_types.size(), bound, loc)) return false;
        }
        op.spelling.form = OpForm::DPS;
        op.spelling.signature = SigStyle::InsOuts;
        op.operands = std::move(inputs.values);
        op.operands.insert(op.operands.end(), outputs.begin(), outputs.end());
        op.num_outputs = static_cast<unsigned>(outputs.size());
        op.input_layout = std::move(inputs.layout);
        normalize_layout(op.input_layout);
        op.operand_types = std::move(input_types);
        op.operand_types.insert(op.operand_types.end(), output_types.begin(), output_types.end());
        return true;
    }

    WrittenOperands written;
    const OpInfo* info = find_op(op.name);
    literal_operands_ = info && info->literal_operands;
    const bool read = parse_operand_items(written, /*in_parens=*/false);
    literal_operands_ = false;
    if (!read) return false;
    if (op.spelling.operands_in_arguments && !expect(TokenKind::RSquare, "']' after the operands")) return false;
    // Tokens after the operands (`pto.vcmp %a, %b, %seed, "lt"`, `pto.ppack %m, "LOWER"`).
    if (at(TokenKind::String) && !written.values.empty() && op.arguments.empty()) {
        op.spelling.arguments = ArgStyle::Trailing;
        while (true) {
            Attribute a;
            if (!parse_attribute(a, /*allow_typed=*/false)) return false;
            op.arguments.push_back(std::move(a));
            if (!at(TokenKind::Comma) || !tok(1).is(TokenKind::String)) break;
            take();
        }
        // Operands may follow the tokens (`pto.get_buf %id, "PIPE_V", %mode`,
        // `pto.vstsx2 %a, %b, %p[%o], "INTLV_B32", %mask`): printed back between the operands when
        // they continue as a plain list, else after all of them.
        if (at(TokenKind::Comma) && tok(1).is(TokenKind::ValueId)) {
            take();
            const std::size_t before = written.values.size(), groups = written.layout.size();
            if (!parse_operand_items(written, /*in_parens=*/false)) return false;
            const OperandGroup& continued = groups < written.layout.size() ? written.layout[groups] : written.layout.back();
            if (before < 256 && continued.style == GroupStyle::Positional) op.spelling.operands_before_arguments = uint8_t(before);
        }
    }
    if (at(TokenKind::LBrace) && !parse_attribute_dict(op.attributes)) return false;
    // `name {attrs}(%a : A, key = %b : B)`: each operand typed after the dictionary.
    if (written.values.empty() && op.arguments.empty() && at(TokenKind::LParen)) {
        take();
        std::vector<Type> types;
        while (true) {
            if (at(TokenKind::BareIdentifier) && tok(1).is(TokenKind::Equal)) {
                written.layout.push_back(OperandGroup{GroupStyle::Assign, std::string(take().spelling), {}});
                take();
            } else if (written.layout.empty() || written.layout.back().style != GroupStyle::Positional) {
                written.layout.push_back(OperandGroup{GroupStyle::Positional, {}, {}});
            }
            Value* value = nullptr;
            types.emplace_back();
            if (!parse_value_use(value) || !expect(TokenKind::Colon, "':' and the operand's type") || !parse_type(types.back()))
                return false;
            written.layout.back().items.push_back({});
            written.values.push_back(value);
            if (accept(TokenKind::Comma)) continue;
            if (!expect(TokenKind::RParen, "',' or ')'")) return false;
            break;
        }
        op.spelling.signature = SigStyle::Typed;
        return finish_typed_operands(op, written, types, result_types, bound, loc);
    }
    std::vector<Type> types;
    if (accept(TokenKind::Colon) && !parse_signature(op, types, result_types)) return false;
    if (op.spelling.signature == SigStyle::None && written.values.empty() && accept(TokenKind::Arrow)) {
        op.spelling.signature = SigStyle::Results;
        if (!parse_result_types(result_types)) return false;
    }
    switch (op.spelling.signature) {
        case SigStyle::Functional:
        case SigStyle::Arrow:
        case SigStyle::Results:
            if (!check_result_count(result_types.size(), bound, loc)) return false;
            break;
        case SigStyle::Cast:
            if (!check_result_count(1, bound, loc)) return false;
            break;
        case SigStyle::Plain:
            // MLIR's short form: `arith.addi %a, %b : i32` types the operands and the result alike;
            // with no operands, one type per result types each (`%a, %b = pto.get_vms4_sr : i16, i16`).
            // `pto.eventid_array_get %a[%i] : !pto.eventid_array<N>` types its array; the id read is an index.
            if (op.name == "pto.eventid_array_get") result_types.assign(bound, Type::index());
            else if (types.size() == 1) result_types.assign(bound, types.front());
            else if (written.values.empty() && types.size() == bound) result_types = types;
            break;
        default: break;
    }
    return split_outputs(op, written, types, bound > 0);
}

// The rest of an operation whose operands carry their types (SigStyle::InParens, SigStyle::Typed): an
// attribute dictionary (after the parentheses) and `-> result types`.
bool Parser::finish_typed_operands(Operation& op, WrittenOperands& written, std::vector<Type>& types,
                                   std::vector<Type>& result_types, std::size_t bound, SourceLocation loc)
{
    if (op.spelling.signature == SigStyle::InParens && at(TokenKind::LBrace) && !parse_attribute_dict(op.attributes)) return false;
    if (accept(TokenKind::Arrow) && !parse_result_types(result_types)) return false;
    if (!check_result_count(result_types.size(), bound, loc)) return false;
    op.operands = std::move(written.values);
    op.input_layout = std::move(written.layout);
    normalize_layout(op.input_layout);
    op.operand_types = std::move(types);
    return true;
}

// A micro-instruction: positional operands, then clauses, commas between them optional and lines free
// (`pto.mte_gm_l1 %src, %dst, %len` / `nburst(%n, %s, %d)` / `: types`). A clause is one of the
// operation's clause words, alone (`sat`) or with items (`unit_flag(check_only)`, `pre_quant(%p, mode = q)`).
bool Parser::parse_clause_operation(Operation& op, const OpInfo& info)
{
    auto is_clause = [&](const Token& t) {
        return t.is(TokenKind::BareIdentifier) && std::find(info.clauses.begin(), info.clauses.end(), t.spelling) != info.clauses.end();
    };
    WrittenOperands written;
    bool need_item = false;
    while (true) {
        const bool clauses_begun = !written.layout.empty() && written.layout.back().style == GroupStyle::Clause;
        if (at(TokenKind::ValueId) && clauses_begun && (need_item || !tok().starts_line))
            return error(codes::kUnexpectedToken, tok().loc, "operands come before the clauses", "a clause", tok().describe());
        if (at(TokenKind::ValueId) && (need_item || !tok().starts_line || written.values.empty())) {
            Value* value = nullptr;
            if (!parse_value_use(value)) return false;
            if (written.layout.empty() || written.layout.back().style != GroupStyle::Positional)
                written.layout.push_back(OperandGroup{GroupStyle::Positional, {}, {}});
            written.layout.back().items.push_back({});
            written.values.push_back(value);
        } else if (is_clause(tok())) {
            OperandGroup clause{GroupStyle::Clause, std::string(take().spelling), {}};
            if (accept(TokenKind::LParen) && !parse_clause_items(clause, written.values)) return false;
            written.layout.push_back(std::move(clause));
        } else if (need_item) {
            if (at(TokenKind::BareIdentifier))
                return error(codes::kUnexpectedToken, tok().loc, "unknown clause of " + op.name,
                             info.clauses.empty() ? std::string("none") : join_words(info.clauses), tok().describe());
            return unexpected("an operand or a clause");
        } else {
            break;
        }
        need_item = accept(TokenKind::Comma);
    }
    if (at(TokenKind::LBrace) && !parse_attribute_dict(op.attributes)) return false;
    std::vector<Type> types;
    if (accept(TokenKind::Colon)) {
        // The signature types every operand in order; clause words in it (`shape i64, i64`,
        // `src_layout(i64, i64)`) only say which clause the types belong to. `(A, B) -> ()` says the same.
        op.spelling.signature = SigStyle::Plain;
        if (accept(TokenKind::LParen)) {
            if (!accept(TokenKind::RParen) && (!parse_type_list(types) || !expect(TokenKind::RParen, "',' or ')'"))) return false;
            if (accept(TokenKind::Arrow) && (!expect(TokenKind::LParen, "'()': no results") || !expect(TokenKind::RParen, "')'")))
                return false;
            return split_outputs(op, written, types, false);
        }
        do {
            if (is_clause(tok())) {
                take();
                if (accept(TokenKind::LParen)) {
                    if (!parse_type_list(types) || !expect(TokenKind::RParen, "',' or ')'")) return false;
                    continue;
                }
                if (at(TokenKind::Comma) || tok().starts_line) continue;
            }
            types.emplace_back();
            if (!parse_type(types.back())) return false;
        } while (accept(TokenKind::Comma));
    }
    return split_outputs(op, written, types, false);
}

// The items of a clause after its '(': operands, integers and words, each maybe `key = ...`.
bool Parser::parse_clause_items(OperandGroup& clause, std::vector<Value*>& values)
{
    if (accept(TokenKind::RParen)) return true;
    while (true) {
        OperandItem item;
        if (at(TokenKind::BareIdentifier) && tok(1).is(TokenKind::Equal)) {
            item.key = std::string(take().spelling);
            take();
        }
        if (at(TokenKind::ValueId)) {
            Value* value = nullptr;
            if (!parse_value_use(value)) return false;
            values.push_back(value);
        } else if (at(TokenKind::BareIdentifier)) {
            item.word = std::string(take().spelling);
        } else {
            item.literal = true;
            if (!parse_integer_literal(item.value)) return false;
        }
        clause.items.push_back(std::move(item));
        if (accept(TokenKind::Comma)) continue;
        return expect(TokenKind::RParen, "',' or ')' closing the clause");
    }
}

bool Parser::parse_attribute_arguments(Operation& op)
{
    auto list = [&](TokenKind close, ArgStyle style) {
        take();
        op.spelling.arguments = style;
        if (accept(close)) return true;
        while (true) {
            // Operands may close a bracketed list (`pto.set_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %eid]`):
            // the operand grammar reads them, and the bracket after them.
            if (close == TokenKind::RSquare && at(TokenKind::ValueId)) {
                op.spelling.operands_in_arguments = true;
                return true;
            }
            Attribute a;
            if (!parse_attribute(a)) return false;
            op.arguments.push_back(std::move(a));
            if (accept(TokenKind::Comma)) continue;
            return expect(close, close == TokenKind::RSquare ? "',' or ']'" : "',' or ')'");
        }
    };
    if (at(TokenKind::LSquare)) return list(TokenKind::RSquare, ArgStyle::Bracket);
    if (at(TokenKind::LParen)) return list(TokenKind::RParen, ArgStyle::Paren);
    if (!starts_attribute(tok())) return true;
    op.spelling.arguments = ArgStyle::Bare;
    while (true) {
        Attribute a;
        if (!parse_attribute(a, /*allow_typed=*/false)) return false;
        op.arguments.push_back(std::move(a));
        if (at(TokenKind::Comma) && (starts_attribute(tok(1)) || tok(1).is(TokenKind::Integer))) {
            take();
            continue;
        }
        break;
    }
    // The operands follow after a comma, as the printer writes them: a value, or a keyword group
    // (`"ROUND_R", offsets = [%a, %b]`).
    const bool keyword_group = tok(1).is(TokenKind::BareIdentifier) && (tok(2).is(TokenKind::Equal) || tok(2).is(TokenKind::LSquare));
    if (at(TokenKind::Comma) && (tok(1).is(TokenKind::ValueId) || keyword_group)) take();
    return true;
}

bool Parser::parse_operand_items(WrittenOperands& out, bool in_parens)
{
    auto at_keyword_group = [&] {
        return !in_parens && at(TokenKind::BareIdentifier) && !at_keyword("ins") && !at_keyword("outs") &&
               (tok(1).is(TokenKind::Equal) || tok(1).is(TokenKind::LSquare));
    };
    bool need_item = false;
    while (true) {
        // Statements are line-oriented: an operand list never starts or continues on a new line
        // without a comma, except with a keyword group such as `valid_col = %c`.
        if (!need_item && tok().starts_line && !(at(TokenKind::BareIdentifier) && is_continuation_keyword(tok().spelling)))
            return true;
        if (at(TokenKind::ValueId)) {
            Value* value = nullptr;
            if (!parse_value_use(value)) return false;
            if (out.layout.empty() || out.layout.back().style != GroupStyle::Positional)
                out.layout.push_back(OperandGroup{GroupStyle::Positional, {}, {}});
            out.layout.back().items.push_back({});
            out.values.push_back(value);
            if (at(TokenKind::LSquare)) {
                take();
                OperandGroup subscript{GroupStyle::Subscript, {}, {}};
                if (!parse_operand_item_list(subscript, out.values, TokenKind::RSquare)) return false;
                out.layout.push_back(std::move(subscript));
            }
        } else if (at_keyword_group()) {
            Token keyword = take();
            OperandGroup group{GroupStyle::Assign, std::string(keyword.spelling), {}};
            if (accept(TokenKind::Equal)) {
                if (accept(TokenKind::LSquare)) {
                    group.style = GroupStyle::AssignList;
                    if (!parse_operand_item_list(group, out.values, TokenKind::RSquare)) return false;
                } else if (at(TokenKind::ValueId)) {
                    Value* value = nullptr;
                    if (!parse_value_use(value)) return false;
                    group.items.push_back({});
                    out.values.push_back(value);
                } else {
                    int64_t literal = 0;
                    if (!parse_integer_literal(literal)) return false;
                    group.items.push_back(OperandItem::integer(literal));
                }
            } else {
                take();  // '['
                group.style = GroupStyle::KeywordList;
                if (!parse_operand_item_list(group, out.values, TokenKind::RSquare)) return false;
            }
            out.layout.push_back(std::move(group));
        } else if (need_item && literal_operands_ && !in_parens &&
                   (at(TokenKind::Integer) || (at(TokenKind::Minus) && tok(1).is(TokenKind::Integer)))) {
            int64_t literal = 0;
            if (!parse_integer_literal(literal)) return false;
            if (out.layout.empty() || out.layout.back().style != GroupStyle::Positional)
                out.layout.push_back(OperandGroup{GroupStyle::Positional, {}, {}});
            out.layout.back().items.push_back(OperandItem::integer(literal));
        } else if (need_item) {
            return unexpected("an operand");
        } else {
            return true;
        }
        need_item = false;
        if (at(TokenKind::Comma)) {
            take();
            if (at(TokenKind::LBrace)) return true;  // `ins(%src, {maskPattern = ...} : ...)`
            if (!in_parens && at(TokenKind::String)) return true;  // `%a, %b, %seed, "lt"`: the tokens follow
            need_item = true;
            continue;
        }
        if (!at_keyword_group() || (tok().starts_line && !is_continuation_keyword(tok().spelling))) return true;
    }
}

bool Parser::parse_operand_item_list(OperandGroup& group, std::vector<Value*>& values, TokenKind close)
{
    if (accept(close)) return true;
    while (true) {
        if (at(TokenKind::ValueId)) {
            Value* value = nullptr;
            if (!parse_value_use(value)) return false;
            group.items.push_back({});
            values.push_back(value);
        } else {
            int64_t literal = 0;
            if (!parse_integer_literal(literal)) return false;
            group.items.push_back(OperandItem::integer(literal));
        }
        if (accept(TokenKind::Comma)) continue;
        return expect(close, "',' or ']'");
    }
}

bool Parser::parse_integer_literal(int64_t& out)
{
    bool negative = accept(TokenKind::Minus);
    if (!at(TokenKind::Integer)) return unexpected("an SSA value or an integer");
    Token t = take();
    uint64_t magnitude = 0;
    bool fits = parse_unsigned_literal(t.spelling, magnitude) &&
                magnitude <= (negative ? (uint64_t{1} << 63) : uint64_t{INT64_MAX});
    if (!fits)
        return error(codes::kBadNumber, t.loc, "integer literal out of range", "a 64-bit signed integer",
                     t.describe());
    out = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    return true;
}

bool Parser::parse_dps(Operation& op, WrittenOperands& inputs, std::vector<Value*>& outputs,
                       std::vector<Type>& input_types, std::vector<Type>& output_types)
{
    if (accept_keyword("ins")) {
        if (!expect(TokenKind::LParen, "'(' after ins")) return false;
        if (!parse_operand_items(inputs, /*in_parens=*/true)) return false;
        if (at(TokenKind::LBrace)) {
            if (!parse_attribute_dict(op.attributes)) return false;
            op.spelling.attributes_in_ins = true;
        }
        if (accept(TokenKind::Colon) && !parse_type_list(input_types)) return false;
        if (!expect(TokenKind::RParen, "')' closing ins")) return false;
    }
    if (accept_keyword("outs")) {
        if (!expect(TokenKind::LParen, "'(' after outs")) return false;
        WrittenOperands written;
        SourceLocation loc = tok().loc;
        if (!parse_operand_items(written, /*in_parens=*/true)) return false;
        for (const OperandGroup& g : written.layout)
            if (g.style != GroupStyle::Positional)
                return error(codes::kUnexpectedToken, loc, "destinations must be plain values", "%dst", "a subscript");
        outputs = std::move(written.values);
        if (accept(TokenKind::Colon) && !parse_type_list(output_types)) return false;
        if (!expect(TokenKind::RParen, "')' closing outs")) return false;
    }
    return true;
}

bool Parser::parse_signature(Operation& op, std::vector<Type>& operand_types, std::vector<Type>& result_types)
{
    if (accept(TokenKind::LParen)) {
        if (!accept(TokenKind::RParen) &&
            (!parse_type_list(operand_types) || !expect(TokenKind::RParen, "',' or ')'")))
            return false;
        if (accept(TokenKind::Arrow)) {
            op.spelling.signature = SigStyle::Functional;
            return parse_result_types(result_types);
        }
        op.spelling.signature = SigStyle::ParenList;
        return true;
    }
    if (!parse_type_list(operand_types)) return false;
    if (accept(TokenKind::Arrow)) {
        op.spelling.signature = SigStyle::Arrow;
        return parse_result_types(result_types, &op.spelling.bare_results);
    }
    if (accept_keyword("to")) {
        op.spelling.signature = SigStyle::Cast;
        result_types.emplace_back();
        return parse_type(result_types.back());
    }
    op.spelling.signature = SigStyle::Plain;
    return true;
}

// Moves a tile instruction's destinations behind its inputs: the first operand in PTO assembly,
// the last in SSA form, or as many as an `operandSegmentSizes = array<i32: inputs, outputs>` says;
// in generic form the trailing ones, and that attribute splits any operation's operands.
bool Parser::split_outputs(Operation& op, WrittenOperands& written, std::vector<Type>& types, bool has_results)
{
    std::size_t total = written.values.size();
    std::size_t outputs = 0;
    bool tile = is_tile_instruction(op.name);
    auto segments = std::find_if(op.attributes.begin(), op.attributes.end(),
                                 [](const NamedAttribute& a) { return is_segment_sizes(a.name); });
    bool split_any_op = op.spelling.form == OpForm::Generic && segments != op.attributes.end() &&
                        splits_inputs_and_outputs(segments->value, total);
    if (tile || split_any_op) {
        if (segments != op.attributes.end()) {
            if (!splits_inputs_and_outputs(segments->value, total))
                return error(codes::kBadAttribute, op.loc, "malformed operandSegmentSizes",
                             "array<i32: inputs, outputs> adding up to " + std::to_string(total), "another value");
            outputs = static_cast<std::size_t>(segments->value.dense_values()[1]);
            op.attributes.erase(segments);
        } else if (op.spelling.form == OpForm::Generic) {
            outputs = generic_output_count(op.name, total, has_results);
        } else {
            outputs = implied_output_count(op.spelling.form, has_results, written.layout);
        }
    }
    std::vector<OperandGroup>& layout = written.layout;
    if (outputs > 0) {
        bool asm_form = op.spelling.form == OpForm::Asm;
        OperandGroup& group = asm_form ? layout.front() : layout.back();
        bool plain = group.style == GroupStyle::Positional && group.items.size() >= outputs;
        if (plain && asm_form && group.items.size() == outputs && layout.size() > 1 &&
            layout[1].style == GroupStyle::Subscript)
            plain = false;
        if (!plain)
            return error(codes::kBadAttribute, op.loc, "destination operands must be plain values",
                         std::to_string(outputs) + " plain destination operand" + (outputs == 1 ? "" : "s"),
                         "subscripted or keyword operands");
        if (asm_form) {
            group.items.erase(group.items.begin(), group.items.begin() + static_cast<std::ptrdiff_t>(outputs));
            std::rotate(written.values.begin(), written.values.begin() + static_cast<std::ptrdiff_t>(outputs),
                        written.values.end());
            if (types.size() == total)
                std::rotate(types.begin(), types.begin() + static_cast<std::ptrdiff_t>(outputs), types.end());
        } else {
            group.items.resize(group.items.size() - outputs);
        }
    }
    op.operands = std::move(written.values);
    op.num_outputs = static_cast<unsigned>(outputs);
    op.input_layout = std::move(layout);
    normalize_layout(op.input_layout);
    op.operand_types = std::move(types);
    return true;
}

// ---- standard dialect operations with their own syntax -------------------------------------------

// func.call @callee(%a, %b) : (A, B) -> R
bool Parser::parse_call(Operation& op, const std::vector<ResultName>& names, std::vector<Type>& result_types)
{
    if (!at(TokenKind::SymbolRef)) return unexpected("the callee, such as @kernel");
    op.attributes.push_back({"callee", Attribute::symbol(symbol_name(take()))});
    WrittenOperands args;
    if (!expect(TokenKind::LParen, "'(' opening the call arguments") || !parse_operand_items(args, true) ||
        !expect(TokenKind::RParen, "',' or ')'"))
        return false;
    if (!args.layout.empty() && !(args.layout.size() == 1 && args.layout[0].style == GroupStyle::Positional))
        return error(codes::kUnexpectedToken, op.loc, "call arguments must be plain values", "%value", "a subscript");
    op.operands = std::move(args.values);
    if (!expect(TokenKind::Colon, "':' and the callee type") || !expect(TokenKind::LParen, "'(' opening the callee type"))
        return false;
    if (!accept(TokenKind::RParen) &&
        (!parse_type_list(op.operand_types) || !expect(TokenKind::RParen, "',' or ')'")))
        return false;
    op.spelling.signature = SigStyle::Functional;
    if (!expect(TokenKind::Arrow, "'->' and the result types") || !parse_result_types(result_types)) return false;
    return check_result_count(result_types.size(), bound_count(names), op.loc);
}

// scf.for [unsigned] %iv = %lb to %ub step %step [iter_args(%a = %init, ...) -> (types)] [: type] region
// `%name = %init, ...)`: the loop-carried values of scf.for's iter_args and scf.while, up to and
// including the closing parenthesis. Each becomes an entry argument of the body and an operand.
bool Parser::parse_carried_values(Operation& op, std::vector<EntryArgument>& entry, std::string_view example)
{
    while (true) {
        if (!at(TokenKind::ValueId))
            return unexpected("a loop-carried value such as " + std::string(example) + " = %init");
        Token arg = take();
        Value* init = nullptr;
        if (!expect(TokenKind::Equal, "'=' and the initial value") || !parse_value_use(init)) return false;
        entry.push_back({std::string(arg.name()), Type(), arg.loc});
        op.operands.push_back(init);
        if (accept(TokenKind::Comma)) continue;
        return expect(TokenKind::RParen, "',' or ')'");
    }
}

bool Parser::parse_for(Operation& op, const std::vector<ResultName>& names, std::vector<Type>& result_types)
{
    if (accept_keyword("unsigned")) op.attributes.push_back({"unsignedCmp", Attribute::unit()});
    if (!at(TokenKind::ValueId)) return unexpected("the induction variable");
    Token iv = take();
    std::vector<EntryArgument> entry{{std::string(iv.name()), Type::index(), iv.loc}};
    Value *lower = nullptr, *upper = nullptr, *step = nullptr;
    if (!expect(TokenKind::Equal, "'=' after the induction variable") || !parse_value_use(lower) ||
        !expect_keyword("to") || !parse_value_use(upper) || !expect_keyword("step") || !parse_value_use(step))
        return false;
    op.operands = {lower, upper, step};
    bool ok = true;
    if (accept_keyword("iter_args")) {
        if (!expect(TokenKind::LParen, "'(' after iter_args")) return false;
        if (!parse_carried_values(op, entry, "%acc")) return false;
        SourceLocation arrow_loc = tok().loc;
        if (!expect(TokenKind::Arrow, "'->' and the loop result types") || !parse_result_types(result_types))
            return false;
        if (result_types.size() + 1 != entry.size()) {
            ok = error(codes::kResultCount, arrow_loc, "loop result types do not match iter_args",
                       std::to_string(entry.size() - 1) + " types", std::to_string(result_types.size()));
            result_types.resize(entry.size() - 1);
        }
        for (std::size_t i = 0; i < result_types.size(); ++i) entry[i + 1].type = result_types[i];
    }
    if (accept(TokenKind::Colon) && !parse_type(entry[0].type)) return false;
    ok = check_result_count(result_types.size(), bound_count(names), op.loc) && ok;
    op.regions.push_back(std::make_unique<Region>());
    op.regions.back()->parent = &op;
    ok = parse_region(*op.regions.back(), entry) && ok;
    return parse_trailing_attributes(op) && ok;
}

// scf.if %cond [-> types] region [else region]
bool Parser::parse_if(Operation& op, const std::vector<ResultName>& names, std::vector<Type>& result_types)
{
    Value* condition = nullptr;
    if (!parse_value_use(condition)) return false;
    op.operands = {condition};
    if (accept(TokenKind::Arrow) && !parse_result_types(result_types)) return false;
    bool ok = check_result_count(result_types.size(), bound_count(names), op.loc);
    op.regions.push_back(std::make_unique<Region>());
    op.regions.back()->parent = &op;
    ok = parse_region(*op.regions.back(), {}) && ok;
    if (accept_keyword("else")) {
        op.regions.push_back(std::make_unique<Region>());
        op.regions.back()->parent = &op;
        ok = parse_region(*op.regions.back(), {}) && ok;
    }
    return parse_trailing_attributes(op) && ok;
}

// scf.while (%a = %init, ...) : (types) -> types region do region
bool Parser::parse_while(Operation& op, const std::vector<ResultName>& names, std::vector<Type>& result_types)
{
    std::vector<EntryArgument> entry;
    if (!expect(TokenKind::LParen, "'(' opening the loop-carried values")) return false;
    if (!accept(TokenKind::RParen)) {
        if (!parse_carried_values(op, entry, "%a")) return false;
    }
    SourceLocation types_loc = tok().loc;
    if (!expect(TokenKind::Colon, "':' and the loop type") || !expect(TokenKind::LParen, "'(' opening the operand types"))
        return false;
    if (!accept(TokenKind::RParen) &&
        (!parse_type_list(op.operand_types) || !expect(TokenKind::RParen, "',' or ')'")))
        return false;
    op.spelling.signature = SigStyle::Functional;
    if (!expect(TokenKind::Arrow, "'->' and the result types") || !parse_result_types(result_types)) return false;
    bool ok = true;
    if (op.operand_types.size() != entry.size())
        ok = error(codes::kResultCount, types_loc, "scf.while operand types do not match its initial values",
                   std::to_string(entry.size()) + " types", std::to_string(op.operand_types.size()));
    for (std::size_t i = 0; i < entry.size() && i < op.operand_types.size(); ++i) entry[i].type = op.operand_types[i];
    ok = check_result_count(result_types.size(), bound_count(names), op.loc) && ok;
    op.regions.push_back(std::make_unique<Region>());
    op.regions.back()->parent = &op;
    ok = parse_region(*op.regions.back(), entry) && ok;
    if (!expect_keyword("do")) return false;
    op.regions.push_back(std::make_unique<Region>());
    op.regions.back()->parent = &op;
    ok = parse_region(*op.regions.back(), {}) && ok;
    return parse_trailing_attributes(op) && ok;
}

// scf.condition(%cond) %a, %b : A, B
bool Parser::parse_condition(Operation& op)
{
    Value* condition = nullptr;
    if (!expect(TokenKind::LParen, "'(' and the condition") || !parse_value_use(condition) ||
        !expect(TokenKind::RParen, "')' after the condition"))
        return false;
    op.operands = {condition};
    WrittenOperands args;
    if (!parse_operand_items(args, /*in_parens=*/true)) return false;
    op.operands.insert(op.operands.end(), args.values.begin(), args.values.end());
    if (accept(TokenKind::Colon)) {
        op.spelling.signature = SigStyle::Plain;
        return parse_type_list(op.operand_types);
    }
    return true;
}

// arith.constant 42 : i32 | 1.0 : f32 | 0x7F800000 : f32 | true
bool Parser::parse_constant(Operation& op, std::vector<Type>& result_types)
{
    Attribute value;
    if (!parse_attribute(value)) return false;
    Type type = value.type();
    if (value.is(Attribute::Kind::Bool) && type.is_none()) type = Type::integer(1);
    if (!type.is_none()) result_types.push_back(type);
    op.attributes.push_back({"value", std::move(value)});
    return true;
}

// arith.cmpi slt, %a, %b : index
bool Parser::parse_compare(Operation& op, std::vector<Type>& result_types)
{
    Attribute predicate;
    if (at(TokenKind::BareIdentifier)) {
        predicate = Attribute::keyword(std::string(take().spelling));
    } else if (at(TokenKind::Integer)) {
        int64_t value = 0;
        if (!parse_integer_literal(value)) return false;
        predicate = Attribute::integer(value);
    } else {
        return unexpected("a comparison predicate such as slt");
    }
    op.attributes.push_back({"predicate", std::move(predicate)});
    WrittenOperands operands;
    if (!expect(TokenKind::Comma, "',' after the predicate") || !parse_operand_items(operands, /*in_parens=*/true) ||
        !expect(TokenKind::Colon, "':' and the operand type") || !parse_type_list(op.operand_types))
        return false;
    op.operands = std::move(operands.values);
    op.spelling.signature = SigStyle::Plain;
    result_types.push_back(Type::integer(1));
    return true;
}

// pto.section.cube region [attr-dict]
bool Parser::parse_section(Operation& op)
{
    op.regions.push_back(std::make_unique<Region>());
    op.regions.back()->parent = &op;
    bool ok = parse_region(*op.regions.back(), {});
    return parse_trailing_attributes(op) && ok;
}

// pto.strict_vecscope(%a, %b) { ^bb0(%x: A, %y: B): ... } [attr-dict] : (A, B) -> ()
// The operands become the arguments of the entry block, which the body must declare.
bool Parser::parse_strict_vecscope(Operation& op)
{
    WrittenOperands captured;
    if (!expect(TokenKind::LParen, "'(' opening the values the scope takes in")) return false;
    if (!accept(TokenKind::RParen) && (!parse_operand_items(captured, true) || !expect(TokenKind::RParen, "',' or ')'")))
        return false;
    if (!captured.layout.empty() && !(captured.layout.size() == 1 && captured.layout[0].style == GroupStyle::Positional))
        return error(codes::kUnexpectedToken, op.loc, "the values a strict vector scope takes in must be plain", "%value",
                     "a subscript or keyword group");
    op.operands = std::move(captured.values);
    op.regions.push_back(std::make_unique<Region>());
    op.regions.back()->parent = &op;
    if (!parse_region(*op.regions.back(), {}) || !parse_trailing_attributes(op)) return false;
    if (!expect(TokenKind::Colon, "':' and the scope's type")) return false;
    std::vector<Type> results;
    if (!parse_signature(op, op.operand_types, results)) return false;
    if (op.spelling.signature != SigStyle::Functional || !results.empty())
        return error(codes::kUnexpectedToken, op.loc, "a strict vector scope's type takes values and gives none",
                     "(A, B) -> ()", "another signature");
    return true;
}

bool Parser::parse_trailing_attributes(Operation& op)
{
    return !at(TokenKind::LBrace) || parse_attribute_dict(op.attributes);
}

}  // namespace pto::as::detail
