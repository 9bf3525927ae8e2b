// The ZZ order of MX exponents, the layout the cube reads its E8M0 scales in: blocks of 16 rows x 2
// groups (32 bytes), row-major inside a block, blocks along the rows of blocks first.
#pragma once

#include <cstdint>

namespace pto::engine {

// Where the exponent of (row, group) lies, counted from the first byte, when each row has `groups`
// groups (an even number).
constexpr int64_t zz_exponent_index(int row, int group, int groups)
{
    const int64_t block = int64_t(row / 16) * (groups / 2) + group / 2;
    return block * 32 + (row % 16) * 2 + group % 2;
}

}  // namespace pto::engine
