// Internal state of the PTO-AS parser, shared by parser.cpp (module structure), parse_operation.cpp
// (operations), parse_type.cpp (types) and parse_attribute.cpp (attributes). Not part of the public API.
#pragma once

#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "asm/diagnostics.hpp"
#include "asm/ir.hpp"
#include "asm/lexer.hpp"
#include "asm/op_table.hpp"
#include "asm/parser.hpp"

namespace pto::as::detail {

// A lexer with unbounded lookahead and a running count of the brackets opened by taken tokens
// (used to find where a broken statement ends).
class TokenStream {
public:
    TokenStream(std::string_view text, DiagnosticSink& sink, SourceLocation start) : lexer_(text, sink, start) {}

    const Token& peek(std::size_t ahead = 0)
    {
        while (buffer_.size() <= ahead) buffer_.push_back(lexer_.next());
        return buffer_[ahead];
    }
    Token take();
    int bracket_depth() const { return depth_; }
    void set_bracket_depth(int depth) { depth_ = depth; }

private:
    Lexer lexer_;
    std::deque<Token> buffer_;
    int depth_ = 0;
};

// One name of a result list: `%r`, or `%r:2` for a group of two results.
struct ResultName {
    std::string name;
    int group_size = -1;
    SourceLocation loc;
    unsigned count() const { return group_size < 0 ? 1u : static_cast<unsigned>(group_size); }
};

// An argument a region's entry block gets from its parent (`scf.for %iv`, function arguments).
struct EntryArgument {
    std::string name;
    Type type;
    SourceLocation loc;
};

// What MLIR's generic form writes around an operation's regions:
//   "name"(operands) <{properties}> (regions) {attributes} : (operand types) -> result types
struct GenericParts {
    std::string name;
    SourceLocation loc;
    std::vector<Value*> operands;
    std::vector<NamedAttribute> attributes;  // properties and attributes together, in written order
    std::vector<SourceLocation> attribute_locs;
    bool has_function_type = false;  // `function_type = (A) -> R` of func.func, kept apart
    std::vector<Type> function_inputs, function_results;
    std::vector<Type> operand_types, result_types;
    SourceLocation signature_loc;
    SourceLocation attribute_loc(std::string_view attribute_name) const;
};

// Operands of a positional or `ins(...)` list as written: values plus their grouping.
struct WrittenOperands {
    std::vector<Value*> values;
    std::vector<OperandGroup> layout;
};

class Parser {
public:
    Parser(std::string_view text, DiagnosticSink& sink, const ParseOptions& options, Module& module);
    void parse_file();

    // ---- tokens and diagnostics (parser.cpp) ------------------------------------------------
    const Token& tok(std::size_t ahead = 0) { return stream_->peek(ahead); }
    Token take() { return stream_->take(); }
    bool at(TokenKind kind) { return tok().is(kind); }
    bool at_keyword(std::string_view word) { return tok().is_keyword(word); }
    bool accept(TokenKind kind);
    bool accept_keyword(std::string_view word);
    bool expect(TokenKind kind, std::string_view expected);
    bool expect_keyword(std::string_view word);
    // Reports the current token as unexpected (unless the lexer already reported it); returns false.
    bool unexpected(std::string_view expected);
    bool error(std::string_view code, SourceLocation loc, std::string what, std::string expected = {},
               std::string actual = {});
    bool stopped() const { return fatal_ || sink_.saturated(); }

    // Counts nesting of regions, attributes and types; past the limit, PARSE_TOO_DEEP ends the parse.
    class Nesting {
    public:
        Nesting(Parser& parser, SourceLocation loc);
        ~Nesting() { --parser_.depth_; }
        explicit operator bool() const { return ok_; }
        Nesting(const Nesting&) = delete;
        Nesting& operator=(const Nesting&) = delete;

    private:
        Parser& parser_;
        bool ok_;
    };

    // Parses `token`'s `<...>` body with `fn` on a stream of its own, then requires the body's end.
    template <typename Fn>
    bool parse_body(const Token& token, Fn&& fn)
    {
        TokenStream body(token.body, sink_, token.body_loc);
        TokenStream* outer = stream_;
        stream_ = &body;
        bool ok = fn() && (at(TokenKind::EndOfFile) || unexpected("'>'"));
        stream_ = outer;
        return ok;
    }

    // ---- SSA scopes (parser.cpp) -------------------------------------------------------------
    void push_scope() { scopes_.emplace_back(); }
    void pop_scope() { scopes_.pop_back(); }
    // Binds %name (and %name#i for groups); PARSE_DUPLICATE_VALUE if visible already.
    bool define(const std::string& key, Value* value, SourceLocation loc);
    // Binds names to nothing after an error, so later uses do not report again.
    void poison(const std::vector<ResultName>& names);
    bool parse_value_use(Value*& out);
    bool visible(const std::string& key) const;  // whether %key names a value here
    bool parse_carried_values(Operation& op, std::vector<EntryArgument>& entry, std::string_view example);
    // Creates the values of `names`, typed from `types` when the counts agree, and defines them.
    void define_results(Operation& op, const std::vector<ResultName>& names, const std::vector<Type>& types);

    // ---- structure (parser.cpp) --------------------------------------------------------------
    void parse_type_alias();
    void parse_attribute_alias();
    void parse_module();
    void parse_function();
    bool parse_region(Region& region, const std::vector<EntryArgument>& entry_args);
    bool parse_block_label(Block& block, bool arguments_allowed);
    void parse_statement(Block& block);
    void recover(std::size_t start_offset, int start_depth);
    bool is_statement_start(bool& strong);
    void skip_to_top_level_item();

    // ---- operations (parse_operation.cpp) ----------------------------------------------------
    bool parse_operation(Block& block);
    bool parse_result_names(std::vector<ResultName>& names);
    bool parse_generic(Operation& op, const std::vector<ResultName>& names, std::vector<Type>& result_types);
    bool parse_register_form(Operation& op, std::vector<ResultName>& names, std::vector<Type>& result_types);
    bool parse_attribute_arguments(Operation& op);
    bool parse_clause_operation(Operation& op, const OpInfo& info);
    bool parse_clause_items(OperandGroup& clause, std::vector<Value*>& values);
    bool parse_operand_items(WrittenOperands& out, bool in_parens);
    bool parse_operand_item_list(OperandGroup& group, std::vector<Value*>& values, TokenKind close);
    bool parse_dps(Operation& op, WrittenOperands& inputs, std::vector<Value*>& outputs,
                   std::vector<Type>& input_types, std::vector<Type>& output_types);
    bool parse_signature(Operation& op, std::vector<Type>& operand_types, std::vector<Type>& result_types);
    bool split_outputs(Operation& op, WrittenOperands& written, std::vector<Type>& types, bool has_results);
    bool finish_typed_operands(Operation& op, WrittenOperands& written, std::vector<Type>& types,
                               std::vector<Type>& result_types, std::size_t bound, SourceLocation loc);
    // PARSE_RESULT_COUNT unless the operation binds as many result names as it declares results.
    bool check_result_count(std::size_t declared, std::size_t bound, SourceLocation loc);
    bool parse_call(Operation& op, const std::vector<ResultName>& names, std::vector<Type>& result_types);
    bool parse_for(Operation& op, const std::vector<ResultName>& names, std::vector<Type>& result_types);
    bool parse_if(Operation& op, const std::vector<ResultName>& names, std::vector<Type>& result_types);
    bool parse_while(Operation& op, const std::vector<ResultName>& names, std::vector<Type>& result_types);
    bool parse_condition(Operation& op);
    bool parse_constant(Operation& op, std::vector<Type>& result_types);
    bool parse_compare(Operation& op, std::vector<Type>& result_types);
    bool parse_section(Operation& op);
    bool parse_strict_vecscope(Operation& op);
    bool parse_trailing_attributes(Operation& op);
    bool parse_integer_literal(int64_t& out);

    // ---- MLIR's generic operation form (parse_generic_form.cpp) ------------------------------
    bool parse_generic_operation(Block& block, const std::vector<ResultName>& names);
    void parse_generic_function();
    void parse_generic_module();
    // The parts of a generic operation; `region` parses each `{...}` of its region list.
    template <typename ParseRegion>
    bool parse_generic_parts(GenericParts& parts, ParseRegion&& region);
    bool parse_generic_dictionary(GenericParts& parts, bool properties);
    bool parse_generic_region(Region& region);
    bool build_operand_segments(Operation& op, const GenericParts& parts);
    bool is_generic_item(std::string_view op_name);  // at `"op_name"` starting a top-level item

    // ---- types (parse_type.cpp) --------------------------------------------------------------
    bool parse_type(Type& out);
    bool parse_type_list(std::vector<Type>& out);         // A, B, C (at least one)
    bool parse_result_types(std::vector<Type>& out, bool* bare_list = nullptr);      // T | (T, U) | ()
    bool parse_pto_type(const Token& token, Type& out);
    bool parse_ptr_body(Type& out);
    bool parse_view_body(const Token& token, bool partition, Type& out);
    bool parse_vreg_body(const Token& token, Type& out);
    bool parse_mask_body(const Token& token, Type& out);
    bool parse_tile_body(bool buffer, Type& out);
    bool parse_conv_tile_body(const Token& token, Type& out);
    // `16x128xf32`, `?x?`: `element` null forbids an element type; otherwise one is read, and
    // required unless `element_required` is false.
    bool parse_shape(std::vector<int64_t>& dims, Type* element, DynamicMarker* marker, bool element_required = true);
    bool parse_dimension(int64_t& out, DynamicMarker* marker);

    // ---- attributes (parse_attribute.cpp) ----------------------------------------------------
    bool parse_attribute(Attribute& out, bool allow_typed = true);
    bool parse_attribute_dict(std::vector<NamedAttribute>& out);
    bool parse_attribute_name(std::string& out);  // bare or quoted
    bool parse_number_attribute(Attribute& out, bool allow_typed);
    bool parse_dense_array(const Token& token, Attribute& out);
    bool starts_attribute(const Token& token) const;

    DiagnosticSink& sink_;
    ParseOptions options_;
    Module& module_;
    TokenStream main_stream_;
    TokenStream* stream_;
    std::vector<std::unordered_map<std::string, Value*>> scopes_;
    std::unordered_map<std::string, Type> type_aliases_;
    std::unordered_map<std::string, Attribute> attribute_aliases_;
    unsigned depth_ = 0;
    bool fatal_ = false;
    // The operation being read takes integer literals among its positional operands (OpInfo::literal_operands).
    bool literal_operands_ = false;
    std::string op_name_;  // operation being parsed, named in its diagnostics
};

// Identifiers that continue a statement when they begin a line (`outs(...)` under `ins(...)`,
// `} do {`, `valid_col = %c`), so they never start a new statement.
bool is_continuation_keyword(std::string_view word);

// Restores the operation named in diagnostics when an operation's parse ends.
class OperationNameScope {
public:
    OperationNameScope(std::string& slot, std::string name) : slot_(slot), saved_(std::exchange(slot, std::move(name))) {}
    ~OperationNameScope() { slot_ = std::move(saved_); }
    OperationNameScope(const OperationNameScope&) = delete;
    OperationNameScope& operator=(const OperationNameScope&) = delete;

private:
    std::string& slot_;
    std::string saved_;
};

// How many results a list of result names binds (`%r:2, %s` binds three).
std::size_t bound_count(const std::vector<ResultName>& names);

// Drops empty positional groups, and the layout entirely when it is one plain list.
void normalize_layout(std::vector<OperandGroup>& layout);

// `text` without surrounding whitespace.
std::string_view trim(std::string_view text);

// The name of a `@symbol` or `@"quoted symbol"` token.
std::string symbol_name(const Token& token);

// Splits the decimal or hex spelling of an integer token; false on overflow past 64 bits.
bool parse_unsigned_literal(std::string_view spelling, uint64_t& out);

}  // namespace pto::as::detail
