// TASSIGN: bind a tile to a byte offset of its on-chip memory, or a global tensor to a pointer.
#pragma once

#include <cstdint>
#include <type_traits>

#include <pto/common/conv_tile.hpp>
#include <pto/common/event.hpp>
#include <pto/common/global_tensor.hpp>
#include <pto/common/tile.hpp>
#include <pto/profile/rules.hpp>
#include <pto/profile/target.hpp>

namespace pto {

template <typename T, typename AddrT>
inline void TASSIGN(T& object, AddrT address)
{
    if constexpr (is_global_data_v<T>) {
        object.assign_pointer(reinterpret_cast<typename T::DType*>(address));
    } else {
        static_assert(is_tile_data_v<T> || is_conv_tile_v<T>, "TASSIGN takes a Tile, a ConvTile or a GlobalTensor");
        static_assert(std::is_integral_v<AddrT>, "a tile's TASSIGN address is a byte offset into its memory");
        object.assign_offset(static_cast<uint64_t>(address));
    }
}

// TASSIGN<Addr>(tile): the address is known at compile time, so the profile checks it at compile time.
template <uint64_t Address, typename TileT>
inline void TASSIGN(TileT& tile)
{
    static_assert(is_tile_data_v<TileT>, "TASSIGN<Addr> takes a Tile");
    static_assert(rules::tile_address_ok(Address, TileT::SizeInBytes,
                                         profile::capacity_of(profile::kProfile, TileT::Loc),
                                         profile::kProfile.tile_alignment),
                  "LEGAL_TILE_ADDRESS: TASSIGN<Addr> must be aligned and the tile must fit its memory on PTO_TARGET");
    tile.assign_offset(Address);
}

}  // namespace pto
