// The tile operands of an element-wise instruction: the checks every such instruction makes on them.
// (Aliasing between them is made safe by readable_source, in engine/source_staging.hpp.)
#pragma once

#include <pto/engine/descriptor.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/engine/legality.hpp>
#include <pto/profile/profile.hpp>
#include <pto/profile/rules_elementwise.hpp>

#include <span>

namespace pto::engine::elementwise {

// What differs between the element-wise instructions' checks: the element-type rule (the instruction's
// name comes from the runtime::InstructionScope the entry point opens).
struct BinaryRules {
    const char* dtype_code;  // e.g. LEGAL_TADD_DTYPE
    bool (*dtype_ok)(const profile::Profile&, DType);
    bool (*source_dtype_ok)(DType dst, DType src) = rules::elementwise_same_dtype;  // LEGAL_ELEMWISE_DTYPE
};

// A tile source of an element-wise instruction, named as diagnostics name it.
struct NamedTile {
    const TileDesc& tile;
    const char* name;
};

// Reports to `sink`, in this order: a valid region beyond its tile's capacity (RUN_VALID_SHAPE), a
// source whose element type rules.source_dtype_ok refuses (LEGAL_ELEMWISE_DTYPE), an element type profile `p` does
// not allow (rules.dtype_code), a tile outside UB (LEGAL_ELEMWISE_LOCATION), a layout the profile does
// not allow (LEGAL_ELEMWISE_LAYOUT), a source whose valid shape differs from dst's (RUN_VALID_SHAPE).
// Rules that read an unknown valid extent are skipped.
void check_elementwise_operands(const profile::Profile& p, const BinaryRules& rules, const TileDesc& dst,
                                std::span<const NamedTile> sources, LegalitySink& sink);

// LEGAL_<INSTR>_DTYPE for an element type that passed the rule but has no kernel (a table out of step
// with the kernels), so that such a gap is a diagnostic rather than a silent no-op.
[[noreturn]] void fail_no_kernel(const BinaryRules& rules, DType dtype);

}  // namespace pto::engine::elementwise
