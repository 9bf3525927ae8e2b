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

namespace detail {
// The bytes TASSIGN<Addr> must find room for: up to the last element of a static valid region, or
// the whole capacity when the valid shape is DYNAMIC.
template <typename TileT>
constexpr uint64_t static_tile_span()
{
    if constexpr (TileT::ValidRow == DYNAMIC || TileT::ValidCol == DYNAMIC) {
        return TileT::SizeInBytes;
    } else {
        engine::TileDesc d;
        d.dtype = engine::dtype_of<typename TileT::DType>;
        d.rows = TileT::Rows;
        d.cols = TileT::Cols;
        d.valid_rows = TileT::ValidRow;
        d.valid_cols = TileT::ValidCol;
        d.blayout = TileT::BFractal;
        d.slayout = TileT::SFractal;
        d.fractal_bytes = TileT::SFractalSize;
        return static_cast<uint64_t>(d.valid_span_bytes());
    }
}
}  // namespace detail

// TASSIGN<Addr>(tile): the address is known at compile time, so the profile checks it at compile time.
template <uint64_t Address, typename TileT>
inline void TASSIGN(TileT& tile)
{
    static_assert(is_tile_data_v<TileT>, "TASSIGN<Addr> takes a Tile");
    static_assert(rules::tile_address_ok(Address, detail::static_tile_span<TileT>(),
                                         profile::capacity_of(profile::kProfile, TileT::Loc),
                                         profile::kProfile.tile_alignment),
                  "LEGAL_TILE_ADDRESS: TASSIGN<Addr> must be aligned and the tile's valid region must fit its memory on "
                  "PTO_TARGET");
    tile.assign_offset(Address);
}

}  // namespace pto
