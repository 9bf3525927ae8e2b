// Storage offset of a tile element, under the public CPU simulator's name.
#pragma once

#include <cstddef>

#include <pto/common/tile.hpp>

namespace pto {

template <typename TileData>
inline std::size_t GetTileElementOffset(std::size_t r, std::size_t c)
{
    return static_cast<std::size_t>(GetTileOffset<TileData>(static_cast<int>(r), static_cast<int>(c)));
}

}  // namespace pto
