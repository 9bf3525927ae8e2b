// Engine entry points of the indexed global-memory transfers: MGATHER (GM table -> tile through an
// index) and MSCATTER (tile -> GM table through an index). Each validates its operands against the
// active profile on its own, so the C++ intrinsics and the PTO-AS interpreter can both call it.
#pragma once

#include <cstdint>

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

// MGATHER into a UB (Vec) tile through a UB index tile.
//   Row:  dst[r, :] = table[idx[r], :]     (idx valid shape [1, R], or [R, 1] where the profile allows)
//   Elem: dst[r, c] = table[idx[r, c]]     (idx valid shape == dst valid shape; flat table index)
void mgather(const TileDesc& dst, const GlobalDesc& table, const TileDesc& idx, Coalesce mode, GatherOOB oob);

// MGATHER into an L1 (Mat, NZ) tile, index in GM: the Row form (three operands).
void mgather_l1(const TileDesc& dst, const GlobalDesc& table, const GlobalDesc& idx, Coalesce mode, GatherOOB oob);

// MGATHER into an L1 (Mat, NZ) tile, index in GM: the Elem form, staging the NZ image in a GM scratch
// of at least Rows * Cols elements, which holds that image afterwards.
void mgather_l1(const TileDesc& dst, const GlobalDesc& table, const GlobalDesc& idx, const GlobalDesc& scratch,
                Coalesce mode, GatherOOB oob, GatherExec exec);

// MSCATTER from a UB tile into a GM table through a UB index tile.
//   Row:  table[idx[r], :] (op)= src[r, :]
//   Elem: table[idx[r, c]] (op)= src[r, c]
// Colliding plain stores resolve by `conflict`; atomic operations combine in source order.
void mscatter(const GlobalDesc& table, const TileDesc& src, const TileDesc& idx, Coalesce mode,
              ScatterAtomicOp atomic, ScatterOOB oob, ScatterConflict conflict);

// The operand rules of each form on profile `p`, read from the descriptors alone: data pointers are not
// followed, and kUnknownExtent valid extents, view extents and strides skip the rules that read them.
// Every broken rule goes to `sink`. `scratch` is null for the three-operand GM -> L1 form.
void check_mgather(const profile::Profile& p, const TileDesc& dst, const GlobalDesc& table, const TileDesc& idx,
                   Coalesce mode, LegalitySink& sink);
void check_mgather_l1(const profile::Profile& p, const TileDesc& dst, const GlobalDesc& table, const GlobalDesc& idx,
                      const GlobalDesc* scratch, Coalesce mode, GatherExec exec, LegalitySink& sink);
void check_mscatter(const profile::Profile& p, const GlobalDesc& table, const TileDesc& src, const TileDesc& idx,
                    Coalesce mode, ScatterAtomicOp atomic, LegalitySink& sink);

}  // namespace pto::engine
