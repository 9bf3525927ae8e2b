// The assembler's front-end form of the tile pipes: a mixed kernel written as a cube function and a
// vector function (`attributes {pto.kernel_kind = #pto.kernel_kind<cube>}` / `<vector>`), each with at
// most one `pto.aic_initialize_pipe` / `pto.aiv_initialize_pipe`, which the transfers
// (`pto.tpush_to_aiv`, `pto.tpop_from_aic`, `pto.tfree_from_aic`, and the other direction's) use
// without naming it. A consumer buffer is reserved in one function (`pto.reserve_buffer`) and imported
// by name in its peer (`pto.import_reserved_buffer`); the two initializations that name one buffer
// are the two ends of one logical pipe. The lowered initializations (`pto.initialize_l2g2l_pipe`,
// `pto.initialize_l2l_pipe`) join logical pipes the same way when their buffers come from a reserve or
// an import, as the assembler's output does before it resolves the buffers. This file decides what the
// assembler decides before running: each function's pipe, the buffer an import names, each pipe's
// `nosplit` and `flag_base`, and every broken rule.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "asm/ir.hpp"

namespace pto::as {

enum class KernelKind : uint8_t { Cube, Vector };

// A function's `pto.kernel_kind`; nothing when it has none, or one that names neither kind.
std::optional<KernelKind> kernel_kind(const Function& fn);

// Whether `a` runs before `b` on every path to it: `a` stands before `b`, or before an operation
// enclosing `b`, in one block.
bool dominates(const Operation& a, const Operation& b);

// The front-end operations: the two initializations, the six transfers, reserve_buffer and its import.
bool is_frontend_pipe_op(std::string_view op_name);
// The lowered initializations: pto.initialize_l2g2l_pipe and pto.initialize_l2l_pipe.
bool is_lowered_pipe_init(std::string_view op_name);
// The direction bits of `dir_mask` a transfer needs: 1 (C2V) or 2 (V2C).
uint8_t transfer_direction(std::string_view op_name);
// The slots a pipe of `dir_mask` has in each direction: 8 for one direction, 4 for both.
uint32_t frontend_slot_num(int64_t dir_mask);

struct FrontendProblem {
    std::string_view code;
    const Operation* op = nullptr;  // null for a function's attribute
    SourceLocation loc;
    std::string what, expected, actual;
};

struct FrontendPipes {
    std::unordered_map<const Function*, const Operation*> init;       // each function's initialize_pipe
    std::unordered_map<const Operation*, bool> nosplit;                // each initialize_pipe's nosplit
    std::unordered_map<const Operation*, const Operation*> reserve_of;  // each import's peer reserve_buffer
    std::unordered_map<const Operation*, uint32_t> flag_base;           // every initialization's (front-end and lowered)
    std::vector<FrontendProblem> problems;
};

FrontendPipes analyze_frontend_pipes(const Module& module);

}  // namespace pto::as
