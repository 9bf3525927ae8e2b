// The PTO-AS intermediate representation: a Module of Functions whose bodies are Regions of Blocks
// of Operations over SSA Values, in the shape of MLIR's IR.
//
// Every operation, tile instruction or not, is one generic node: a name, operands, results,
// attributes, positional attribute arguments, regions, and a record of how it was spelled. The
// parser does not know instruction signatures; the verifier does.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "asm/attribute.hpp"
#include "asm/source_location.hpp"
#include "asm/type.hpp"

namespace pto::as {

class Block;
class Operation;
class Region;

// An SSA value: the result of an operation or an argument of a block. Owned by its definer.
class Value {
public:
    std::string name;          // as written, without '%' (and without '#N' for grouped results)
    int group_index = -1;      // `%r:2 = ...` defines r#0 and r#1; -1 for a singly named value
    Type type;                 // none when the source did not state it
    SourceLocation loc;
    Operation* defining_op = nullptr;  // null for block arguments
    Block* owner_block = nullptr;      // set for block arguments
    unsigned number = 0;               // result number, or argument number

    bool is_block_argument() const { return defining_op == nullptr; }
    // How a use spells it: "%c0", "%r#1".
    std::string reference() const;
};

// How an operation was written. Everything here is presentation: `equivalent` ignores it.
enum class OpForm : uint8_t {
    Asm,  // PTO assembly: no dialect prefix (`tadd %d, %a, %b`, `%d = tgather %s, %i`, `return`)
    SSA,  // dialect-qualified with positional operands (`%d = pto.tadd %a, %b : (...) -> ...`)
    DPS,  // destination-passing (`pto.tadd ins(%a, %b : ...) outs(%d : ...)`)
    Generic,  // MLIR's generic form (`%d = "pto.tadd"(%a, %b) : (A, B) -> D`), any operation
};

enum class SigStyle : uint8_t {
    None,        // no `:` clause
    Plain,       // `: A, B` (one type with results means operands and results share it)
    ParenList,   // `: (A, B)`
    Arrow,       // `: A, B -> R`
    Functional,  // `: (A, B) -> R`, `-> (R1, R2)`, `-> ()`
    Cast,        // `: A to R`
    Results,     // `-> R` alone (`pto.declare_eventid_array -> !pto.eventid_array<4>`)
    InsOuts,     // types inside `ins(... : A)` / `outs(... : B)`, results after `->`
    InParens,    // `pto.tpush(%tile, %pipe : A, B) {split = 0}`: the operands and their types in parentheses
    Typed,       // `pto.initialize_l2l_pipe {...}(%local : i32) -> R`: each operand typed, maybe named
                 // (`(c2v_consumer_buf = %b : i32, ...)`), after the attribute dictionary
};

// How the positional attribute arguments were delimited.
// Trailing: after the operands (`pto.vcmp %a, %b, %seed, "lt"`).
enum class ArgStyle : uint8_t { None, Bracket, Paren, Bare, Trailing };

struct OpSpelling {
    OpForm form = OpForm::SSA;
    SigStyle signature = SigStyle::None;
    ArgStyle arguments = ArgStyle::None;
    bool attributes_in_ins = false;  // DPS: the dictionary sat inside `ins(...)`, not after `outs(...)`
    bool semicolon = false;          // PTO-AS `;` terminator
    bool bare_results = false;       // several result types after `->` without parentheses (`-> A, B`)
    uint8_t operands_before_arguments = 0;  // Trailing: operands written before the arguments (0: all)
    bool operands_in_arguments = false;     // Bracket: the operands close the argument list (`[#pto.pipe<..>, .., %eid]`)
    bool untyped_parens = false;            // InParens without the types (`pto.tpop_from_aic(%rows, %cols) {split = 0}`)
    friend bool operator==(const OpSpelling&, const OpSpelling&) = default;
};

// Layout of an operation's inputs when they are more than a plain comma-separated list:
// subscripts (`%sv[%i, %j]`) and keyword groups (`shape = [%a, %b]`, `addr = %c`, `sizes [32, 32]`).
enum class GroupStyle : uint8_t {
    Positional,   // %a, %b
    Subscript,    // [%i, %j] glued to the value before it
    Assign,       // keyword = %v
    AssignList,   // keyword = [%v, 4]
    KeywordList,  // keyword [%v, 4]
    Clause,       // a micro-instruction's clause: `sat`, `nburst(%n, %s, %d)`, `pre_quant(%p, mode = q)`
};

// One slot of a group: the next operand in order, an integer literal, or (in a clause) a bare word;
// inside a clause any of them may be named (`mode = qf322f16_pre_scalar`, `clip = %c`).
struct OperandItem {
    bool literal = false;
    int64_t value = 0;
    std::string word;  // `check_only`, `split_m`: neither operand nor literal
    std::string key;   // `key = ...`
    static OperandItem integer(int64_t v)
    {
        OperandItem item;
        item.literal = true;
        item.value = v;
        return item;
    }
    bool is_operand() const { return !literal && word.empty(); }
    friend bool operator==(const OperandItem&, const OperandItem&) = default;
};

struct OperandGroup {
    GroupStyle style = GroupStyle::Positional;
    std::string keyword;  // empty for Positional and Subscript
    std::vector<OperandItem> items;
    std::size_t operand_count() const;
    friend bool operator==(const OperandGroup&, const OperandGroup&) = default;
};

// An input as written: an operand, or an integer literal among the positional operands (`pto.pldi %p,
// 2, "NORM"`) when `value` is null; with its type (for a literal, the one the signature wrote for it).
struct WrittenInput {
    const Value* value = nullptr;
    int64_t literal = 0;
    Type type;
};

// One element of an operand group (`shape = [%a, 4]`): an operand, or a literal (or a clause's word)
// when `value` is null.
struct GroupEntry {
    const Value* value = nullptr;
    int64_t literal = 0;
    std::string_view word;
    std::string_view key;
};

class Operation {
public:
    std::string name;  // always dialect-qualified: "pto.tadd", "arith.addi", "scf.for", "func.return"
    OpSpelling spelling;
    SourceLocation loc;

    // Inputs first, then the `num_outputs` DPS destinations, whatever the spelling: `ins(a, b)
    // outs(d)`, `tadd %d, %a, %b` and `pto.tadd %a, %b, %d` all give [a, b, d] with one output.
    std::vector<Value*> operands;
    unsigned num_outputs = 0;
    // Grouping of the inputs; empty when they are a plain positional list.
    std::vector<OperandGroup> input_layout;
    // Types written in the signature for the operands, in operand order. Usually one per operand;
    // the source may give fewer, which the verifier judges (a partial list after a PTO assembly
    // destination stays in the order written, since it cannot be matched to operands). An integer
    // literal among the positional operands may have its type here too, in its place.
    std::vector<Type> operand_types;

    std::vector<std::unique_ptr<Value>> results;
    std::vector<NamedAttribute> attributes;
    // Positional attributes: `pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]`, `pto.barrier #pto.pipe<PIPE_ALL>`.
    std::vector<Attribute> arguments;
    std::vector<std::unique_ptr<Region>> regions;
    Block* parent = nullptr;

    std::span<Value* const> inputs() const { return {operands.data(), operands.size() - num_outputs}; }
    std::span<Value* const> outputs() const { return {operands.data() + operands.size() - num_outputs, num_outputs}; }
    std::span<const Type> input_types() const;   // the written types of the inputs (may be short)
    std::span<const Type> output_types() const;  // the written types of the outputs (may be short)
    // The type operand i is known to have: its value's, else the one written for it when the source
    // wrote one per operand; none otherwise.
    Type operand_type(std::size_t i) const;
    // The integer literals written among the positional operands (none but where the op table allows them).
    std::size_t positional_literals() const;
    // The inputs and those literals in the order written.
    std::vector<WrittenInput> written_inputs() const;
    Value* result(std::size_t i) const { return i < results.size() ? results[i].get() : nullptr; }
    const Attribute* attribute(std::string_view attr_name) const { return find_attribute(attributes, attr_name); }
    // The entries of the group `keyword` (of the positional group when empty); empty when there is none.
    std::vector<GroupEntry> group(std::string_view keyword) const;
    // The entries of every group named `keyword`, in order (a clause may repeat: `loop(...) loop(...)`).
    std::vector<std::vector<GroupEntry>> groups(std::string_view keyword) const;

    std::string_view dialect() const;   // "pto"
    std::string_view mnemonic() const;  // "tadd", "tmatmul.acc"
};

class Block {
public:
    std::string label;  // "bb0" for `^bb0`; empty for an entry block declared by its parent
    std::vector<std::unique_ptr<Value>> arguments;
    std::vector<std::unique_ptr<Operation>> operations;
    Region* parent = nullptr;
    SourceLocation loc;
};

class Region {
public:
    std::vector<std::unique_ptr<Block>> blocks;
    Operation* parent = nullptr;  // null for a function body
    SourceLocation loc;
};

class Function {
public:
    std::string name;                   // without '@'
    std::string visibility;             // "private", "public", "nested", or empty
    std::vector<Type> result_types;
    std::vector<NamedAttribute> attributes;                 // `attributes {pto.entry, ...}`
    std::vector<std::vector<NamedAttribute>> argument_attributes;  // one per argument, or none at all
    std::unique_ptr<Region> body;       // its entry block's arguments are the function's arguments
    SourceLocation loc;

    const Block* entry_block() const { return body && !body->blocks.empty() ? body->blocks.front().get() : nullptr; }
    std::vector<const Value*> arguments() const;
};

struct TypeAlias {
    std::string name;  // without '!'
    Type type;
};

class Module {
public:
    std::string filename;
    std::string name;                   // `module @name`; empty when anonymous
    bool explicit_module = true;        // false when the functions stood at the top level
    std::vector<NamedAttribute> attributes;
    std::vector<TypeAlias> type_aliases;
    std::vector<std::unique_ptr<Function>> functions;

    const Function* find_function(std::string_view function_name) const;
};

// Exact structural equality: same operations, values, types and attributes, and the same spelling.
bool operator==(const Module& a, const Module& b);
// Structural equality ignoring presentation (op form, signature style, attribute placement, type
// spelling, alias names, the label of an entry block, and which operand types were written where
// the operand's value carries its type): what a round trip through another form must preserve.
bool equivalent(const Module& a, const Module& b);
// A description of the first difference, or nothing when the modules are equal (`exact`) or
// equivalent (otherwise). For test failures and tools.
std::optional<std::string> first_difference(const Module& a, const Module& b, bool exact);

// True for `pto.tadd`, `arith.addi` and other names qualified by a known dialect; in operation
// position a name without one (`tadd`, `mgather.row`) is PTO assembly for `pto.<name>`.
bool has_dialect_prefix(std::string_view name);
// Whether `op_name` can be written in PTO assembly, i.e. without its `pto.` prefix, and read back.
bool has_asm_spelling(std::string_view op_name);

// Tile instructions: `pto.t*` and the memory gather/scatter family (`pto.mgather`, `pto.mscatter`).
// Only these are rewritten between the Asm, SSA and DPS forms.
bool is_tile_instruction(std::string_view op_name);
// pto operations that are not ISA instructions (views, allocation, block queries, sections): they
// have one spelling, always dialect-qualified.
bool has_fixed_spelling(std::string_view op_name);
// The ISA name of a pto operation: "pto.tmatmul.acc" and "pto.tmatmul_acc" both give "TMATMUL_ACC".
std::string isa_mnemonic(std::string_view op_name);
// The value an arith.constant gives `value` (its `value` attribute), or null when another operation, a
// block argument or nothing defines it.
const Attribute* constant_value(const Value* value);

// How many leading (Asm) or trailing (SSA) operands of a tile instruction are destinations when the
// text does not say: one for a result-less instruction whose destination position holds a plain
// value (`tadd %d, %a, %b`, `pto.tstore %t, %view`), none otherwise. `written_layout` is the operand
// grouping as it appears in the text, destinations included. An `operandSegmentSizes` attribute
// overrides the default; the printer emits one exactly when the default would be wrong.
unsigned implied_output_count(OpForm form, bool has_results, std::span<const OperandGroup> written_layout);

// Visits every operation of a region, outer before inner, in program order.
template <typename Fn>
void walk(const Region& region, Fn&& fn)
{
    for (const auto& block : region.blocks)
        for (const auto& op : block->operations) {
            fn(*op);
            for (const auto& nested : op->regions) walk(*nested, fn);
        }
}

}  // namespace pto::as
