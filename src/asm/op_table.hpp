// Signatures of the PTO-AS operations the verifier checks and the interpreter runs: one row per
// operation, keyed by its dialect-qualified name. Tile instructions are keyed by their ISA mnemonic
// (`pto.tmatmul.acc` and `pto.tmatmul_acc` are both TMATMUL_ACC), so every spelling of one instruction
// (PTO assembly, SSA, DPS; dotted or underscored) finds the same row.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <pto/common/type.hpp>

#include "asm/type.hpp"
#include "engine/definition.hpp"

namespace pto::as {

// What an operand or a destination must be.
enum class OperandKind : uint8_t { Tile, View, Scalar, Pointer, Any };

// The family an operation belongs to: which part of the interpreter lowers it.
// Pointer: typed pointers into the core's memories (`pto.castptr`, `pto.addptr`, scalar loads and
// stores); Cube: the cube micro-instructions (`pto.mad*`, `pto.mte_*`); Vector: the vector
// micro-instructions (`pto.vlds`, `pto.vadd`, `pto.pset_b32`, ..., vector_form.hpp); Pipe: the tile
// pipes and flags between a block's cube core and its vector cores (`pto.initialize_l2l_pipe`,
// `pto.tpush`, `pto.tpush_to_aiv`, `pto.set_cross_core`, ...) and SYNCALL's barrier over the launch.
enum class OpClass : uint8_t { Arith, Control, View, Query, Sync, Section, Tile, Pointer, Cube, Vector, Pipe };

struct OpInfo {
    std::string_view key;  // "arith.addi", "func.call", or an ISA mnemonic "TADD"
    OpClass cls;
    // Inputs (DPS `ins`, or every operand of a non-instruction operation): a minimum and maximum
    // count, and the kind each position must have (the last kind repeats). For a tile instruction, the
    // counts its forms allow; its forms say the kinds.
    uint8_t min_inputs = 0, max_inputs = 0;
    std::span<const OperandKind> input_kinds;
    // Destinations of a tile instruction (DPS `outs` operands, or results in SSA form): the counts its
    // forms allow.
    uint8_t min_dests = 0, max_dests = 0;
    // A tile instruction's definition, and the alias it was named by (`pto.mgather.row`), if any.
    const engine::InstrDef* instruction = nullptr;
    const engine::Alias* alias = nullptr;
    // A micro-instruction's clauses (`nburst`, `sat`, `unit_flag`...) that may follow its positional
    // operands, in the order they must appear; the positional operands are `min_inputs` of them.
    std::span<const std::string_view> clauses;
    // Whether an integer literal may stand among the positional operands (`pto.pldi %p, 2, "NORM"`);
    // the operation's reading says where.
    bool literal_operands = false;
    // A micro-instruction's pipe: checked mode judges the bytes it touches as that pipe's (ORDER_*).
    // None for an operation that touches no memory (a loop register, a pointer's arithmetic).
    std::optional<pipe_t> pipe;
};

// The row of an operation name as the IR holds it (`pto.tadd`, `arith.addi`, `func.return`); null for
// an operation the toolchain does not know.
const OpInfo* find_op(std::string_view op_name);

// Whether a value of type `t` can stand where an operand of kind `k` is expected.
bool has_operand_kind(const Type& t, OperandKind k);

// Every row: the operations that are no tile instruction, then one per instruction definition and alias.
std::span<const OpInfo> all_ops();

}  // namespace pto::as
