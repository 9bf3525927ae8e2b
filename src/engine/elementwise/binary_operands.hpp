// The tile operands of an element-wise instruction: the checks every such instruction makes on them,
// and the staging that makes any aliasing between them safe.
#pragma once

#include <pto/engine/descriptor.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/engine/legality.hpp>
#include <pto/profile/profile.hpp>

#include <initializer_list>

namespace pto::engine::elementwise {

// What differs between the element-wise instructions' checks: the element-type rule (the instruction's
// name comes from the runtime::InstructionScope the entry point opens).
struct BinaryRules {
    const char* dtype_code;  // e.g. LEGAL_TADD_DTYPE
    bool (*dtype_ok)(const profile::Profile&, DType);
};

// A tile source of an element-wise instruction, named as diagnostics name it.
struct NamedTile {
    const TileDesc& tile;
    const char* name;
};

// Reports to `sink`, in this order: a valid region beyond its tile's capacity (RUN_VALID_SHAPE), a
// source whose element type differs from dst's (LEGAL_ELEMWISE_DTYPE), an element type profile `p` does
// not allow (rules.dtype_code), a tile outside UB (LEGAL_ELEMWISE_LOCATION), a layout the profile does
// not allow (LEGAL_ELEMWISE_LAYOUT), a source whose valid shape differs from dst's (RUN_VALID_SHAPE).
// Rules that read an unknown valid extent are skipped.
void check_elementwise_operands(const profile::Profile& p, const BinaryRules& rules, const TileDesc& dst,
                                std::initializer_list<NamedTile> sources, LegalitySink& sink);

// LEGAL_<INSTR>_DTYPE for an element type that passed the rule but has no kernel (a table out of step
// with the kernels), so that such a gap is a diagnostic rather than a silent no-op.
[[noreturn]] void fail_no_kernel(const BinaryRules& rules, DType dtype);

// True when `a` and `b` map every logical position (r, c) to the same address.
bool same_mapping(const TileDesc& a, const TileDesc& b);

// A source the kernel may read while it writes dst. When `src` shares bytes with dst without mapping
// every position to the same address, writing dst could clobber source elements not yet read; the
// valid region of `src` is then copied into a per-thread buffer (grown once, never per instruction)
// and a descriptor of the copy is returned. `slot` (0, 1 or 2) keeps the sources' copies apart.
// Elements must be whole bytes (every type the element-wise arithmetic takes is).
TileDesc readable_source(const TileDesc& src, const TileDesc& dst, int slot);

}  // namespace pto::engine::elementwise
