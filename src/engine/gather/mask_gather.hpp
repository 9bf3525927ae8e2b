// The loops of TGATHER's mask-pattern form, on plain row-major tiles of 8-, 16- or 32-bit elements.
#pragma once

#include <cstdint>

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>

namespace pto::engine::gather {

// The positions a pattern keeps: first, first + step, first + 2 * step, ...
struct MaskSelection {
    int first;
    int step;
};

constexpr MaskSelection selection_of(MaskPattern pattern)
{
    switch (pattern) {
        case MaskPattern::P0101: return {0, 2};
        case MaskPattern::P1010: return {1, 2};
        case MaskPattern::P0001: return {0, 4};
        case MaskPattern::P0010: return {1, 4};
        case MaskPattern::P0100: return {2, 4};
        case MaskPattern::P1000: return {3, 4};
        case MaskPattern::P1111: break;
    }
    return {0, 1};
}

// The kept columns of src's valid rows fill dst's valid region in row-major order; returns how many
// elements were written.
int64_t gather_kept_columns(const TileDesc& dst, const TileDesc& src, MaskSelection keep);

// The kept rows among src's valid rows become dst's rows; returns how many rows were written.
int gather_kept_rows(const TileDesc& dst, const TileDesc& src, MaskSelection keep);

}  // namespace pto::engine::gather
