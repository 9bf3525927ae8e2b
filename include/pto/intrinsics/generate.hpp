// TCI and TTRI: tiles written from a rule, an integer sequence or a triangular mask
// (pto/engine/ops/generate.hpp has the semantics).
#pragma once

#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/generate.hpp>
#include <pto/profile/rules_generate.hpp>
#include <pto/profile/target.hpp>

#include <type_traits>

namespace pto {

namespace detail::generate {

template <typename Dst>
constexpr bool placed_v = rules::generate_location_ok(Dst::Loc) &&
                          rules::generate_layout_ok(profile::kProfile, Dst::BFractal, Dst::SFractal);

template <typename Dst, typename T>
constexpr void static_check_tci()
{
    static_assert(is_tile_data_v<Dst>, "TCI writes a Tile");
    static_assert(placed_v<Dst>, "LEGAL_TCI_LOCATION / LEGAL_TCI_LAYOUT: a Vec tile, row-major and unboxed on a2a3 and a5");
    static_assert(rules::tci_dtype_ok(engine::dtype_of<typename Dst::DType>), "LEGAL_TCI_DTYPE: TCI writes 16- or 32-bit integers");
    static_assert(std::is_integral_v<T>, "TCI's start is an integer");
}

}  // namespace detail::generate

// TCI<TileData, T, descending>(dst, start): dst(0, k) = start + k (start - k).
template <typename TileData, typename T, int descending, typename... WaitEvents>
PTO_INST RecordEvent TCI(TileData& dst, T start, WaitEvents&... events)
{
    detail::generate::static_check_tci<TileData, T>();
    WaitAllEvents(events...);
    engine::tci(dst.desc(), int64_t(start), descending != 0, nullptr);
    return {};
}

// TCI<TileData, TileDataTmp, T, descending>(dst, start, tmp): the same with a2a3's scratch.
template <typename TileData, typename TileDataTmp, typename T, int descending, typename... WaitEvents>
PTO_INST RecordEvent TCI(TileData& dst, T start, TileDataTmp& tmp, WaitEvents&... events)
{
    detail::generate::static_check_tci<TileData, T>();
    static_assert(is_tile_data_v<TileDataTmp>, "TCI's tmp is a Tile");
    static_assert(rules::tci_tmp_ok(profile::kProfile, engine::dtype_of<typename TileData::DType>,
                                    engine::dtype_of<typename TileDataTmp::DType>, int64_t(TileDataTmp::SizeInBytes)),
                  "LEGAL_TCI_TMP: on a2a3 tmp is 4-byte elements, 768 bytes for 32-bit sequences, 1792 for 16-bit");
    WaitAllEvents(events...);
    const engine::TileDesc tmp_desc = tmp.desc();
    engine::tci(dst.desc(), int64_t(start), descending != 0, &tmp_desc);
    return {};
}

// TTRI<TileData, isUpperOrLower>(dst, diagonal): the lower (0) or upper (1) triangular mask of ones.
template <typename TileData, int isUpperOrLower, typename... WaitEvents>
PTO_INST RecordEvent TTRI(TileData& dst, int diagonal, WaitEvents&... events)
{
    static_assert(is_tile_data_v<TileData>, "TTRI writes a Tile");
    static_assert(detail::generate::placed_v<TileData>,
                  "LEGAL_TTRI_LOCATION / LEGAL_TTRI_LAYOUT: a Vec tile, row-major and unboxed on a2a3 and a5");
    static_assert(rules::ttri_mode_ok(isUpperOrLower), "LEGAL_TTRI_MODE: isUpperOrLower is 0 (lower) or 1 (upper)");
    WaitAllEvents(events...);
    engine::ttri(dst.desc(), diagonal, isUpperOrLower);
    return {};
}

// TRANDOM<Rounds>(dst, key, counter): Philox4x32 words over dst's valid region (engine::trandom has the
// layout); key and counter are read, not advanced.
template <uint16_t Rounds = 10, typename DstTile, typename... WaitEvents>
PTO_INST RecordEvent TRANDOM(DstTile& dst, TRandomKey& key, TRandomCounter& counter, WaitEvents&... events)
{
    static_assert(is_tile_data_v<DstTile>, "TRANDOM writes a Tile");
    static_assert(rules::trandom_target_ok(profile::kProfile), "LEGAL_TRANDOM_TARGET: TRANDOM exists on a5");
    static_assert(DstTile::Loc == TileType::Vec && DstTile::BFractal == BLayout::RowMajor && DstTile::SFractal == SLayout::NoneBox,
                  "LEGAL_TRANDOM_LAYOUT: TRANDOM writes a row-major Vec tile");
    static_assert(rules::trandom_dtype_ok(engine::dtype_of<typename DstTile::DType>), "LEGAL_TRANDOM_DTYPE: i32 or u32 words");
    static_assert(rules::trandom_rounds_ok(Rounds), "LEGAL_TRANDOM_ROUNDS: 7 or 10 rounds");
    WaitAllEvents(events...);
    engine::trandom(dst.desc(), key, counter, Rounds);
    return {};
}

}  // namespace pto
