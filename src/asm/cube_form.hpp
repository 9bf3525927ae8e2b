// What a cube micro-instruction (`pto.mad*`, `pto.mte_*`) says, read once from its operation: its
// positional operands (pointers into named memories, i64 extents) and its clauses. The verifier reports
// the problems found on the way; the interpreter runs what was read.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>

#include "asm/ir.hpp"

namespace pto::as {

// What a pointer's type says: the memory it points into (none: global memory) and its element type.
struct PointerInfo {
    std::optional<pto::TileType> memory;
    engine::DType dtype = engine::DType::U8;
    int element_bytes() const { return std::max(1, engine::dtype_bits(dtype) / 8); }
};
PointerInfo pointer_info(const Type& t);

// A positional pointer operand of a micro-instruction.
struct PointerOperand : PointerInfo {
    const Value* value = nullptr;
};

// `count, src_stride, dst_stride` of nburst(...) and loop(...).
struct BurstClause {
    const Value* count = nullptr;
    const Value* src_stride = nullptr;
    const Value* dst_stride = nullptr;
};

struct CubeForm {
    std::vector<PointerOperand> pointers;  // the positional pointers, in order
    std::vector<const Value*> scalars;     // the positional scalars (extents, lengths, strides), in order

    // pto.mad*
    bool disable_gemv = false;
    std::string saturation;  // "", "sat", "nosat", "sat(preserve_nan)"
    std::string tf32_mode;   // "", "round_even", "round_away"

    // pto.mte_gm_l1, mte_l1_ub, mte_ub_l1, mte_l1_bt, mte_l1_fb, mte_gm_ub, mte_ub_gm, mte_ub_ub
    std::vector<BurstClause> bursts;  // nburst, then each loop
    std::vector<const Value*> pad;    // pto.mte_gm_ub: fill value[, left count, right count]

    // pto.mte_gm_l1_frac
    bool dn2nz = false;
    std::vector<const Value*> frac_shape, frac_src_layout, frac_dst_group, frac_ctrl;

    // pto.mte_l0c_*
    bool unit_flag = false;
    std::string layout;  // "" (Nz), "nz2nd", "nz2dn", "nz2nz"
    const Value* loop0_src_stride = nullptr;
    const Value* quant_payload = nullptr;
    std::string quant_mode;
    const Value* relu_payload = nullptr;
    std::string relu_mode;
    const Value* clip = nullptr;
    const Value* nz2nz_split = nullptr;
    std::string atomic_type, atomic_op;
    std::vector<const Value*> loop3;  // count, src_stride, dst_stride
    // pto.mte_l0c_ub: dst_mode(%sub_blockid), one sub-block's UB; or dst_mode(split_m | split_n), both.
    const Value* sub_blockid = nullptr;
    std::string dst_split;  // "", "split_m", "split_n"
};

struct CubeProblem {
    std::string code, what, expected, actual;
};

// Reads `op` (a row of class Cube in the op table); every problem found goes to `problems`.
CubeForm read_cube_form(const Operation& op, std::vector<CubeProblem>& problems);

// The legality rules of a cube micro-instruction that its operand types decide (LEGAL_MATMUL_DTYPE,
// LEGAL_MAD_*, LEGAL_MTE_*, LEGAL_FIXPIPE_*) on profile `p`; every broken one goes to `problems`.
void check_cube_rules(const Operation& op, const CubeForm& form, const profile::Profile& p, std::vector<CubeProblem>& problems);

// The extent rules of a multiply (RUN_MATMUL_EXTENT, RUN_MAD_MX_K) and of the fixpipe's accumulator
// stride (RUN_FIXPIPE_STRIDE) on the extents known (all at run time; constants for the verifier).
std::optional<CubeProblem> mad_extent_problem(const profile::Profile& p, bool mx, std::optional<int64_t> m,
                                              std::optional<int64_t> n, std::optional<int64_t> k);
std::optional<CubeProblem> fixpipe_stride_problem(std::optional<int64_t> rows_read, std::optional<int64_t> rows_apart);
// The rules of the fixpipe's operand values (RUN_FIXPIPE_LOOP0, RUN_FIXPIPE_SUB_BLOCK, RUN_FIXPIPE_SPLIT)
// on the values known, as above.
std::optional<CubeProblem> fixpipe_loop0_problem(std::optional<int64_t> loop0_src_stride, bool unit_flag);
std::optional<CubeProblem> fixpipe_sub_block_problem(std::optional<int64_t> sub_blockid);
std::optional<CubeProblem> fixpipe_split_problem(std::string_view split, std::optional<int64_t> m, std::optional<int64_t> n);

// The element type an atomic(type = ...) clause names (f32, f16, bf16, s32, s16, s8).
std::optional<engine::DType> atomic_dtype(std::string_view name);

// The memory of an address space (none for global memory).
std::optional<pto::TileType> memory_of(AddressSpace space);

}  // namespace pto::as
