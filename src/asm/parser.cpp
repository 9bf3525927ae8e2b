// Parser entry point, token helpers, SSA scopes, and the module / function / region structure.
#include "asm/parser.hpp"

#include <array>
#include <unordered_set>

#include "asm/parser_impl.hpp"

namespace pto::as {

namespace detail {

bool is_continuation_keyword(std::string_view word)
{
    static constexpr std::array<std::string_view, 16> kWords = {
        "ins",     "outs",  "else",      "do",        "to",        "step",     "iter_args", "attributes",
        "shape",   "strides", "offsets", "sizes",     "valid_row", "valid_col", "addr",     "unsigned"};
    for (std::string_view w : kWords)
        if (w == word) return true;
    return false;
}

std::string symbol_name(const Token& token)
{
    std::string_view name = token.name();
    if (!name.empty() && name.front() == '"') return unescape_string_literal(name);
    return std::string(name);
}

Token TokenStream::take()
{
    Token token = peek();
    buffer_.pop_front();
    switch (token.kind) {
        case TokenKind::LParen:
        case TokenKind::LSquare:
        case TokenKind::LBrace: ++depth_; break;
        case TokenKind::RParen:
        case TokenKind::RSquare:
        case TokenKind::RBrace: --depth_; break;
        default: break;
    }
    return token;
}

Parser::Parser(std::string_view text, DiagnosticSink& sink, const ParseOptions& options, Module& module)
    : sink_(sink), options_(options), module_(module), main_stream_(text, sink, {1, 1}), stream_(&main_stream_)
{
}

Parser::Nesting::Nesting(Parser& parser, SourceLocation loc) : parser_(parser)
{
    ok_ = ++parser_.depth_ <= parser_.options_.max_nesting && !parser_.fatal_;
    if (!ok_ && !parser_.fatal_) {
        parser_.error(codes::kTooDeep, loc, "input nests too deeply",
                      "at most " + std::to_string(parser_.options_.max_nesting) + " nested regions, types or attributes",
                      "more");
        parser_.fatal_ = true;
    }
}

bool Parser::accept(TokenKind kind)
{
    if (!at(kind)) return false;
    take();
    return true;
}

bool Parser::accept_keyword(std::string_view word)
{
    if (!at_keyword(word)) return false;
    take();
    return true;
}

bool Parser::expect(TokenKind kind, std::string_view expected)
{
    if (accept(kind)) return true;
    return unexpected(expected);
}

bool Parser::expect_keyword(std::string_view word)
{
    if (accept_keyword(word)) return true;
    return unexpected("`" + std::string(word) + "`");
}

bool Parser::unexpected(std::string_view expected)
{
    const Token& t = tok();
    if (t.is(TokenKind::Error)) return false;  // the lexer has reported it
    return error(codes::kUnexpectedToken, t.loc, "unexpected " + std::string(token_kind_name(t.kind)),
                 std::string(expected), t.describe());
}

bool Parser::error(std::string_view code, SourceLocation loc, std::string what, std::string expected, std::string actual)
{
    sink_.error(code, loc, std::move(what), std::move(expected), std::move(actual), op_name_);
    return false;
}

// ---- SSA scopes ---------------------------------------------------------------------------------

bool Parser::define(const std::string& key, Value* value, SourceLocation loc)
{
    for (auto& scope : scopes_) {
        auto it = scope.find(key);
        // A name poisoned by an earlier error is taken over quietly, in the innermost scope below:
        // an outer scope must never point into a region that closes (or is discarded) before it.
        if (it == scope.end() || !it->second) continue;
        SourceLocation first = it->second->loc;
        return error(codes::kDuplicateValue, loc, "redefinition of %" + key, "a name not yet defined in scope",
                     "%" + key + " already defined at " + std::to_string(first.line) + ":" +
                         std::to_string(first.column));
    }
    scopes_.back()[key] = value;
    return true;
}

void Parser::poison(const std::vector<ResultName>& names)
{
    if (scopes_.empty()) return;
    for (const ResultName& n : names) {
        scopes_.back().try_emplace(n.name, nullptr);
        if (n.group_size >= 0)
            for (int i = 0; i < n.group_size; ++i) scopes_.back().try_emplace(n.name + "#" + std::to_string(i), nullptr);
    }
}

bool Parser::visible(const std::string& key) const
{
    for (const auto& scope : scopes_)
        if (scope.count(key) || scope.count(key.substr(0, key.find('#')))) return true;
    return false;
}

bool Parser::parse_value_use(Value*& out)
{
    if (!at(TokenKind::ValueId)) return unexpected("an SSA value");
    Token use = take();
    std::string key(use.name());
    auto lookup = [&](const std::string& k, Value*& found) {
        for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
            auto it = scope->find(k);
            if (it != scope->end()) {
                found = it->second;
                return true;
            }
        }
        return false;
    };
    bool found = lookup(key, out);
    std::size_t hash = key.find('#');
    if (!found && hash != std::string::npos && key.substr(hash + 1) == "0") found = lookup(key.substr(0, hash), out);
    if (found) return out != nullptr;  // a poisoned name has been reported already
    error(codes::kUndefinedValue, use.loc, "use of undefined value " + std::string(use.spelling),
          "a value defined earlier in an enclosing scope", "`" + std::string(use.spelling) + "`");
    if (!scopes_.empty()) scopes_.back().try_emplace(key, nullptr);
    return false;
}

void Parser::define_results(Operation& op, const std::vector<ResultName>& names, const std::vector<Type>& types)
{
    bool typed = types.size() == bound_count(names);
    unsigned number = 0;
    auto make = [&](const ResultName& n, int group_index) {
        auto value = std::make_unique<Value>();
        value->name = n.name;
        value->group_index = group_index;
        value->type = typed ? types[number] : Type();
        value->loc = n.loc;
        value->defining_op = &op;
        value->number = number++;
        op.results.push_back(std::move(value));
        return op.results.back().get();
    };
    for (const ResultName& n : names) {
        if (n.group_size < 0) {
            define(n.name, make(n, -1), n.loc);
            continue;
        }
        for (int i = 0; i < n.group_size; ++i) {
            Value* v = make(n, i);
            if (i == 0) define(n.name, v, n.loc);
            define(n.name + "#" + std::to_string(i), v, n.loc);
        }
    }
}

// ---- module structure -----------------------------------------------------------------------------

void Parser::parse_file()
{
    module_.explicit_module = false;
    bool seen_module = false;
    while (!stopped() && !at(TokenKind::EndOfFile)) {
        if (at(TokenKind::BangIdentifier) && !tok().has_body && tok(1).is(TokenKind::Equal)) {
            parse_type_alias();
        } else if (at(TokenKind::HashIdentifier) && !tok().has_body && tok(1).is(TokenKind::Equal)) {
            parse_attribute_alias();
        } else if (at_keyword("module") || is_generic_item("builtin.module")) {
            if (seen_module || !module_.functions.empty()) {
                error(codes::kUnexpectedToken, tok().loc, "a second top-level module",
                      "a single module or functions at the top level", tok().describe());
                skip_to_top_level_item();
                continue;
            }
            seen_module = true;
            if (at(TokenKind::String))
                parse_generic_module();
            else
                parse_module();
        } else if (at_keyword("func.func") || is_generic_item("func.func")) {
            if (seen_module) {
                error(codes::kUnexpectedToken, tok().loc, "a function after the module",
                      "functions inside the module", tok().describe());
                skip_to_top_level_item();
                continue;
            }
            if (at(TokenKind::String))
                parse_generic_function();
            else
                parse_function();
        } else {
            unexpected("`module`, `func.func` or an alias definition");
            skip_to_top_level_item();
        }
    }
}

void Parser::skip_to_top_level_item()
{
    if (!at(TokenKind::EndOfFile)) take();
    while (!stopped() && !at(TokenKind::EndOfFile)) {
        const Token& t = tok();
        if (t.starts_line &&
            (t.is_keyword("module") || t.is_keyword("func.func") || is_generic_item("builtin.module") ||
             is_generic_item("func.func") ||
             ((t.is(TokenKind::BangIdentifier) || t.is(TokenKind::HashIdentifier)) && tok(1).is(TokenKind::Equal))))
            break;
        take();
    }
    stream_->set_bracket_depth(0);
}

void Parser::parse_type_alias()
{
    Token name = take();
    take();  // '='
    Type type;
    if (!parse_type(type)) {
        skip_to_top_level_item();
        return;
    }
    std::string alias(name.name());
    if (type_aliases_.count(alias)) {
        error(codes::kDuplicateSymbol, name.loc, "redefinition of type alias !" + alias, "a new alias name",
              "`!" + alias + "`");
        return;
    }
    type_aliases_[alias] = type;
    module_.type_aliases.push_back({alias, type});
}

void Parser::parse_attribute_alias()
{
    Token name = take();
    take();  // '='
    Attribute value;
    if (!parse_attribute(value)) {
        skip_to_top_level_item();
        return;
    }
    std::string alias(name.name());
    if (!attribute_aliases_.emplace(alias, value).second)
        error(codes::kDuplicateSymbol, name.loc, "redefinition of attribute alias #" + alias, "a new alias name",
              "`#" + alias + "`");
}

void Parser::parse_module()
{
    take();  // module
    module_.explicit_module = true;
    if (at(TokenKind::SymbolRef)) module_.name = symbol_name(take());
    if (accept_keyword("attributes") && !parse_attribute_dict(module_.attributes)) {
        skip_to_top_level_item();
        return;
    }
    if (!expect(TokenKind::LBrace, "'{' opening the module body")) {
        skip_to_top_level_item();
        return;
    }
    while (!stopped()) {
        if (accept(TokenKind::RBrace)) return;
        if (at(TokenKind::EndOfFile)) {
            unexpected("'}' closing the module");
            return;
        }
        if (at_keyword("func.func")) {
            parse_function();
            continue;
        }
        if (is_generic_item("func.func")) {
            parse_generic_function();
            continue;
        }
        unexpected("`func.func` or '}'");
        take();
        while (!stopped() && !at(TokenKind::EndOfFile) &&
               !(tok().starts_line && (at_keyword("func.func") || is_generic_item("func.func"))) &&
               !(tok().starts_line && at(TokenKind::RBrace)))
            take();
    }
}

void Parser::parse_function()
{
    op_name_.clear();
    auto function = std::make_unique<Function>();
    function->loc = tok().loc;
    take();  // func.func
    if (at_keyword("private") || at_keyword("public") || at_keyword("nested"))
        function->visibility = std::string(take().spelling);
    if (!at(TokenKind::SymbolRef)) {
        unexpected("a function name such as @kernel");
        skip_to_top_level_item();
        return;
    }
    Token name = take();
    function->name = symbol_name(name);
    if (module_.find_function(function->name))
        error(codes::kDuplicateSymbol, name.loc, "redefinition of function @" + function->name, "a new function name",
              "`@" + function->name + "`");

    std::vector<EntryArgument> arguments;
    bool ok = expect(TokenKind::LParen, "'(' opening the argument list");
    if (ok && !accept(TokenKind::RParen)) {
        while (ok) {
            if (!at(TokenKind::ValueId) || tok().name().find('#') != std::string_view::npos) {
                ok = unexpected("an argument such as %arg0: f32");
                break;
            }
            Token arg = take();
            EntryArgument entry{std::string(arg.name()), Type(), arg.loc};
            ok = expect(TokenKind::Colon, "':' and the argument type") && parse_type(entry.type);
            std::vector<NamedAttribute> arg_attributes;
            if (ok && at(TokenKind::LBrace)) ok = parse_attribute_dict(arg_attributes);
            arguments.push_back(std::move(entry));
            function->argument_attributes.push_back(std::move(arg_attributes));
            if (!ok || accept(TokenKind::Comma)) continue;
            ok = expect(TokenKind::RParen, "',' or ')'");
            break;
        }
    }
    if (ok && accept(TokenKind::Arrow)) ok = parse_result_types(function->result_types);
    if (ok && accept_keyword("attributes")) ok = parse_attribute_dict(function->attributes);
    if (!ok) {
        skip_to_top_level_item();
        return;
    }
    bool all_empty = true;
    for (const auto& attrs : function->argument_attributes) all_empty = all_empty && attrs.empty();
    if (all_empty) function->argument_attributes.clear();

    function->body = std::make_unique<Region>();
    scopes_.clear();
    parse_region(*function->body, arguments);
    scopes_.clear();
    module_.functions.push_back(std::move(function));
}

bool Parser::parse_region(Region& region, const std::vector<EntryArgument>& entry_args)
{
    Nesting nesting(*this, tok().loc);
    if (!nesting) return false;
    region.loc = tok().loc;
    if (!expect(TokenKind::LBrace, "'{' opening a region")) return false;
    push_scope();
    auto entry = std::make_unique<Block>();
    entry->parent = &region;
    entry->loc = region.loc;
    for (std::size_t i = 0; i < entry_args.size(); ++i) {
        auto arg = std::make_unique<Value>();
        arg->name = entry_args[i].name;
        arg->type = entry_args[i].type;
        arg->loc = entry_args[i].loc;
        arg->owner_block = entry.get();
        arg->number = static_cast<unsigned>(i);
        define(arg->name, arg.get(), arg->loc);
        entry->arguments.push_back(std::move(arg));
    }
    Block* current = entry.get();
    region.blocks.push_back(std::move(entry));
    std::unordered_set<std::string> labels;
    bool ok = true;
    while (!stopped()) {
        if (at(TokenKind::RBrace)) break;
        if (at(TokenKind::EndOfFile)) {
            ok = unexpected("'}' closing the region");
            break;
        }
        if (at(TokenKind::BlockLabel)) {
            std::string label(tok().name());
            if (!labels.insert(label).second)
                error(codes::kDuplicateBlock, tok().loc, "redefinition of block ^" + label, "a new block label",
                      "`^" + label + "`");
            bool label_entry = current == region.blocks.front().get() && current->operations.empty() &&
                               current->label.empty() && region.blocks.size() == 1;
            if (!label_entry) {
                auto block = std::make_unique<Block>();
                block->parent = &region;
                current = block.get();
                region.blocks.push_back(std::move(block));
            }
            std::size_t start = tok().offset;
            int depth = stream_->bracket_depth();
            if (!parse_block_label(*current, !label_entry || entry_args.empty())) recover(start, depth);
            continue;
        }
        parse_statement(*current);
    }
    pop_scope();
    if (stopped()) return false;
    return expect(TokenKind::RBrace, "'}' closing the region") && ok;
}

bool Parser::parse_block_label(Block& block, bool arguments_allowed)
{
    Token label = take();
    block.label = std::string(label.name());
    block.loc = label.loc;
    if (at(TokenKind::LParen)) {
        if (!arguments_allowed)
            return error(codes::kUnexpectedToken, tok().loc, "entry block arguments are declared by the parent operation",
                         "`^" + block.label + ":`", "an argument list");
        take();
        if (!accept(TokenKind::RParen)) {
            while (true) {
                if (!at(TokenKind::ValueId)) return unexpected("a block argument such as %arg0: i32");
                Token name = take();
                auto arg = std::make_unique<Value>();
                arg->name = std::string(name.name());
                arg->loc = name.loc;
                arg->owner_block = &block;
                arg->number = static_cast<unsigned>(block.arguments.size());
                if (!expect(TokenKind::Colon, "':' and the argument type") || !parse_type(arg->type)) return false;
                define(arg->name, arg.get(), arg->loc);
                block.arguments.push_back(std::move(arg));
                if (accept(TokenKind::Comma)) continue;
                if (!expect(TokenKind::RParen, "',' or ')'")) return false;
                break;
            }
        }
    }
    return expect(TokenKind::Colon, "':' after the block label");
}

void Parser::parse_statement(Block& block)
{
    std::size_t start = tok().offset;
    int depth = stream_->bracket_depth();
    if (!parse_operation(block)) {
        recover(start, depth);
        return;
    }
    const Token& next = tok();
    if (next.is(TokenKind::RBrace) || next.is(TokenKind::EndOfFile) || next.starts_line) return;
    std::string name = op_name_;
    op_name_ = block.operations.empty() ? std::string() : block.operations.back()->name;
    unexpected("the end of the statement");
    op_name_ = name;
    recover(start, depth);
}

bool Parser::is_statement_start(bool& strong)
{
    const Token& t = tok();
    strong = false;
    if (t.is(TokenKind::ValueId)) {
        const Token& next = tok(1);
        strong = next.is(TokenKind::Equal) || next.is(TokenKind::Comma) || next.is(TokenKind::Colon);
        return strong;
    }
    if (t.is(TokenKind::BlockLabel) || (t.is(TokenKind::String) && tok(1).is(TokenKind::LParen))) {
        strong = true;
        return true;
    }
    if (t.is(TokenKind::BareIdentifier)) {
        if (is_continuation_keyword(t.spelling) || tok(1).is(TokenKind::Equal)) return false;
        strong = has_dialect_prefix(t.spelling) || t.spelling == "return";
        return true;
    }
    return false;
}

// Skips the rest of a broken statement: to the next line that starts a statement at the
// statement's bracket depth (or any line that clearly starts one), or to the '}' closing the
// enclosing region. Braces opened while skipping are skipped whole, so a broken `scf.for` header
// does not spill its body into the enclosing block.
void Parser::recover(std::size_t start_offset, int start_depth)
{
    if (tok().offset == start_offset && !at(TokenKind::EndOfFile) && !at(TokenKind::RBrace)) take();
    int skipped_braces = 0;
    while (!stopped() && !at(TokenKind::EndOfFile)) {
        const Token& t = tok();
        int depth = stream_->bracket_depth();
        if (skipped_braces == 0 && t.is(TokenKind::RBrace) && (depth <= start_depth || t.starts_line)) break;
        if (skipped_braces == 0 && t.starts_line) {
            bool strong = false;
            if (is_statement_start(strong) && (strong || depth == start_depth)) break;
        }
        if (t.is(TokenKind::LBrace)) ++skipped_braces;
        if (t.is(TokenKind::RBrace) && skipped_braces > 0) --skipped_braces;
        take();
    }
    stream_->set_bracket_depth(start_depth);
}

}  // namespace detail

ParseResult parse(std::string_view text, std::string_view filename, const ParseOptions& options)
{
    ParseResult result;
    result.module.filename = std::string(filename);
    DiagnosticSink sink{std::string(filename), options.max_errors};
    if (text.size() > options.max_input_bytes) {
        sink.error(codes::kInputTooLarge, {1, 1}, "input too large",
                   "at most " + std::to_string(options.max_input_bytes) + " bytes", std::to_string(text.size()) + " bytes");
    } else {
        detail::Parser parser(text, sink, options, result.module);
        parser.parse_file();
    }
    result.diagnostics = sink.take();
    return result;
}

}  // namespace pto::as
