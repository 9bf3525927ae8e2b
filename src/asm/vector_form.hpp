// The vector micro-instructions (`pto.vlds`, `pto.vadd`, `pto.pset_b32`, ...): one definition per
// operation (its family, its operands and results, what it computes), and what an operation says, read
// once: the verifier reports the problems found on the way, the interpreter runs what was read.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <pto/engine/ops/vector.hpp>

#include "asm/ir.hpp"

namespace pto::as {

// How the interpreter runs an operation of the family, and which of the definition's fields it reads.
enum class VectorFamily : uint8_t {
    Load,       // pto.vlds %ptr[%offset] {dist}
    Store,      // pto.vsts %value, %ptr[%offset], %mask {dist}
    Pattern,    // pto.pset_b*, pto.pge_b* "PAT_*"
    Remainder,  // pto.plt_b* %count -> mask, count - lanes
    Binary,     // pto.vadd %a, %b, %mask
    Unary,      // pto.vabs %a, %mask
};

// An operand or result of a vector operation.
enum class VectorArg : uint8_t { VReg, Mask, Pointer, Index, Scalar };

struct VectorOpDef {
    std::string_view name;  // "pto.vadd"
    VectorFamily family;
    std::span<const VectorArg> operands;
    std::span<const VectorArg> results;
    engine::vector::BinaryOp binary = {};
    engine::vector::UnaryOp unary = {};
    int mask_lane_bytes = 0;  // Pattern, Remainder: the predicate width of the `_b8/_b16/_b32` suffix
};

std::span<const VectorOpDef> vector_op_definitions();
const VectorOpDef* find_vector_op(std::string_view name);

// What one vector operation says.
struct VectorForm {
    const VectorOpDef* def = nullptr;
    int lane_bytes = 0;                     // the lanes of its registers (Load: the result's)
    engine::DType dtype = engine::DType::U8;  // their element type
    engine::vector::LoadDist load = engine::vector::LoadDist::NORM;
    engine::vector::StoreDist store = engine::vector::StoreDist::NORM;
    engine::vector::PatternToken pattern{};
    int pointer_element_bytes = 1;          // Load, Store: the unit of the offset
};

struct VectorProblem {
    std::string code, what, expected, actual;
};

// Reads `op` (a vector operation of the op table); every problem found goes to `problems`.
VectorForm read_vector_form(const Operation& op, std::vector<VectorProblem>& problems);

// The lane width of a register type, or of a mask type (0 when it left the width open).
std::optional<int> vreg_lane_bytes(const Type& t);

}  // namespace pto::as
