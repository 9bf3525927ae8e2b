// The MGATHER / MSCATTER operand checks. The LEGAL_* rules (check_mgather, check_mgather_l1,
// check_mscatter in pto/engine/ops/memory_gather.hpp) apply the predicates of
// pto/profile/rules_memory_gather.hpp to descriptors; these are the run-time facts around them.
#pragma once

#include <cstdint>

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/profile/profile.hpp>

#include "gm_table.hpp"

namespace pto::engine::memory_gather {

// RUN_NULL_POINTER / RUN_VALID_SHAPE: a descriptor that points somewhere and keeps its valid region inside
// its capacity (tiles built by the C++ front door always do; descriptors from elsewhere may not).
void check_tile_descriptor(const TileDesc& tile, const char* operand);

// The geometry of a GM <-> UB table whose operands passed check_mgather / check_mscatter.
TableGeometry ub_table_geometry(const profile::Profile& p, const GlobalDesc& table, const TileDesc& data);

}  // namespace pto::engine::memory_gather
