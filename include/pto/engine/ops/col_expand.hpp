// Engine entry point of TCOLEXPAND. Both front doors call it: it validates its operands against the
// active profile on its own (LEGAL_TCOLEXPAND_* diagnostics), then runs the kernel once.
#pragma once

#include <pto/engine/descriptor.hpp>

namespace pto::engine {

// dst(i, j) = src(0, j) over dst's valid region (bit patterns copied). src has dst's valid columns.
void tcolexpand(const TileDesc& dst, const TileDesc& src);

}  // namespace pto::engine
