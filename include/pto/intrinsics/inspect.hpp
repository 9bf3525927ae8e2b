// TPRINT: a tile or a global tensor printed to standard output (pto/engine/ops/inspect.hpp has the format).
#pragma once

#include <pto/common/global_tensor.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/inspect.hpp>
#include <pto/profile/rules_inspect.hpp>
#include <pto/profile/target.hpp>

namespace pto {

// TPRINT<Format>(src): a Vec tile, or a global tensor (its ND, DN or NZ 2-D view).
template <PrintFormat Format = PrintFormat::Width8_Precision4, typename TileData>
PTO_INST void TPRINT(TileData& src)
{
    static_assert(is_tile_data_v<TileData> || is_global_data_v<TileData>, "TPRINT prints a Tile or a GlobalTensor");
    static_assert(rules::tprint_dtype_ok(engine::dtype_of<typename TileData::DType>),
                  "LEGAL_TPRINT_DTYPE: TPRINT prints float, half and the 8- to 32-bit integers");
    if constexpr (is_tile_data_v<TileData>) {
        static_assert(!rules::tprint_needs_tmp(TileData::Loc), "LEGAL_TPRINT_TMP: an Acc or Mat tile prints through a global tmp");
        engine::tprint(src.desc(), Format, nullptr, false);
    } else {
        engine::tprint(src.desc(), Format);
    }
}

// TPRINT<Format>(src, tmp): any printable tile with a staging buffer, which an Acc or Mat tile (Mat not on
// a5) needs: a global tmp is checked to hold the tile; a tile tmp is accepted as the public CPU
// simulation accepts it.
template <PrintFormat Format = PrintFormat::Width8_Precision4, typename TileData, typename GlobalData>
PTO_INST void TPRINT(TileData& src, GlobalData& tmp)
{
    static_assert(is_tile_data_v<TileData> && (is_global_data_v<GlobalData> || is_tile_data_v<GlobalData>),
                  "TPRINT(src, tmp) takes a Tile and a GlobalTensor (or a Tile) to stage it");
    static_assert(rules::tprint_dtype_ok(engine::dtype_of<typename TileData::DType>),
                  "LEGAL_TPRINT_DTYPE: TPRINT prints float, half and the 8- to 32-bit integers");
    static_assert(rules::tprint_location_ok(profile::kProfile, TileData::Loc),
                  "LEGAL_TPRINT_LOCATION: TPRINT prints Vec, Acc and (not on a5) Mat tiles");
    if constexpr (is_global_data_v<GlobalData>) {
        const engine::GlobalDesc staging = tmp.desc();
        engine::tprint(src.desc(), Format, &staging, true);
    } else {
        engine::tprint(src.desc(), Format, nullptr, true);
    }
}

}  // namespace pto
