// Sources an instruction can read while it writes its destination, however they alias it: the staging
// that lets an instruction's result be as if every source element were read before any destination
// element is written.
#pragma once

#include <pto/engine/descriptor.hpp>

namespace pto::engine {

// True when `a` and `b` map every logical position (r, c) to the same address.
bool same_mapping(const TileDesc& a, const TileDesc& b);

// A source the kernel may read while it writes dst. When `src` shares bytes with dst without mapping
// every position to the same address (another layout or stride, another element size, an offset),
// writing dst could clobber source elements not yet read; the valid region of `src` is then copied
// into a per-thread buffer (grown once, never per instruction) and a descriptor of the copy is
// returned. The copy runs along dst's lines (rows, or columns of an unboxed column-major dst), so a
// kernel's contiguous fast path still applies. `slot` (0 to 3) keeps the sources' copies apart.
TileDesc readable_source(const TileDesc& src, const TileDesc& dst, int slot);

// The same for kernels that move elements between positions (shuffles, concatenations): `src` is copied
// whenever it shares any byte with dst, even through the same mapping.
TileDesc source_apart_from(const TileDesc& src, const TileDesc& dst, int slot);

}  // namespace pto::engine
