// MGATHER and MSCATTER: indexed transfers between a GM table and a tile. The templates assert what the
// compile-time target (PTO_TARGET) decides from the types alone, with the same predicates the engine
// checks at run time, and forward the operands' descriptors to the engine.
//
//   MGATHER<Mode = Row, Oob>(dst, table, idx)              GM -> UB (UB index tile) or GM -> L1 (GM index)
//   MGATHER<Mode = Elem, Oob, Exec>(dst, table, idx, scratch)   GM -> L1 Elem, staged in a GM scratch
//   MSCATTER<Mode = Row, Atomic, Oob, Conflict>(table, src, idx)
//   MSCATTER<Atomic, Oob, Conflict, Mode>(table, src, idx)      the policy-first spelling of the A5 pages
//
// A call without template arguments is Coalesce::Row. Every form takes trailing events to wait on.
#pragma once

#include <type_traits>

#include <pto/common/constants.hpp>
#include <pto/common/event.hpp>
#include <pto/common/global_tensor.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/memory_gather.hpp>
#include <pto/profile/rules_memory_gather.hpp>
#include <pto/profile/target.hpp>

namespace pto {

namespace detail::memory_gather {

template <typename TileT>
inline constexpr bool static_valid_shape_v = TileT::ValidRow != DYNAMIC && TileT::ValidCol != DYNAMIC;

template <typename TileT>
inline constexpr engine::DType element_dtype_v = engine::dtype_of<typename TileT::DType>;

// What MGATHER into UB can check from the types.
template <Coalesce Mode, typename TileDst, typename GlobalTable, typename TileIdx>
constexpr void check_mgather_ub()
{
    constexpr const profile::Profile& p = profile::kProfile;
    constexpr engine::DType dt = element_dtype_v<TileDst>;
    constexpr int bits = TileDst::ElementBits;
    constexpr bool dst_static = static_valid_shape_v<TileDst>;
    constexpr bool idx_static = static_valid_shape_v<TileIdx>;
    static_assert(TileDst::Loc != TileType::Mat,
                  "LEGAL_MGATHER_LOCATION: a Mat (L1) destination takes its indices from a GlobalTensor");
    static_assert(TileDst::Loc == TileType::Vec, "LEGAL_MGATHER_LOCATION: dst must be a UB tile (TileType::Vec)");
    static_assert(TileIdx::Loc == TileType::Vec, "LEGAL_MGATHER_LOCATION: idx must be a UB tile (TileType::Vec)");
    static_assert(rules::indexed_transfer_dtype_ok(p, dt),
                  "LEGAL_MGATHER_DTYPE: dst element type is not supported on PTO_TARGET (8-bit floats need A5)");
    static_assert(rules::index_dtype_ok(element_dtype_v<TileIdx>),
                  "LEGAL_MGATHER_INDEX_DTYPE: idx must hold int32_t or uint32_t indices");
    static_assert(std::is_same_v<typename GlobalTable::DType, typename TileDst::DType>,
                  "LEGAL_MGATHER_TABLE_DTYPE: the table's element type must be dst's");
    static_assert(rules::gather_table_layout_ok(p, GlobalTable::layout),
                  "LEGAL_MGATHER_TABLE_LAYOUT: the table must be ND (NZ on A2/A3 only)");
    static_assert(rules::indexed_tile_layout_ok(p, GlobalTable::layout, TileDst::BFractal, TileDst::SFractal,
                                                TileDst::SFractalSize),
                  "LEGAL_MGATHER_TILE_LAYOUT: an ND table needs an unboxed dst (row-major; col-major on A5), an NZ "
                  "table an NZ dst");
    static_assert(rules::indexed_tile_alignment_ok(TileDst::BFractal, TileDst::SFractal, TileDst::Rows, TileDst::Cols,
                                                   bits),
                  "LEGAL_MGATHER_ALIGN: dst rows (columns if col-major) must be a multiple of 32 bytes");
    static_assert(rules::indexed_tile_alignment_ok(TileIdx::BFractal, TileIdx::SFractal, TileIdx::Rows, TileIdx::Cols,
                                                   TileIdx::ElementBits),
                  "LEGAL_MGATHER_ALIGN: idx rows (columns if col-major) must be a multiple of 32 bytes");
    static_assert(!TileDst::isBoxedLayout || rules::nz_tile_shape_ok(TileDst::Rows, TileDst::Cols, bits),
                  "LEGAL_MGATHER_NZ_SHAPE: an NZ dst needs Rows % 16 == 0 and Cols % (32 / sizeof(T)) == 0");
    constexpr int64_t shape3 = GlobalTable::staticShape[3], shape4 = GlobalTable::staticShape[4];
    static_assert(GlobalTable::layout != Layout::NZ || shape3 == DYNAMIC || shape4 == DYNAMIC ||
                      rules::nz_table_shape_ok(shape3, shape4, bits),
                  "LEGAL_MGATHER_NZ_SHAPE: an NZ table is Shape<B, BlockCols, BlockRows, 16, 32 / sizeof(T)>");
    static_assert(!dst_static || rules::indexed_valid_shape_ok(TileDst::ValidRow, TileDst::ValidCol),
                  "LEGAL_MGATHER_VALID_SHAPE: dst's valid region must be at least 1 x 1");
    static_assert(!(dst_static && idx_static) ||
                      rules::index_shape_ok(p, Mode, TileIdx::ValidRow, TileIdx::ValidCol, TileDst::ValidRow,
                                            TileDst::ValidCol),
                  "LEGAL_MGATHER_INDEX_SHAPE: Coalesce::Row takes a [1, R] index ([R, 1] too except on A2/A3), "
                  "Coalesce::Elem an index shaped like dst");
    static_assert(!idx_static || rules::index_tile_layout_ok(p, Mode, TileIdx::BFractal, TileIdx::SFractal,
                                                             TileIdx::ValidRow, TileIdx::ValidCol),
                  "LEGAL_MGATHER_INDEX_LAYOUT: idx must be unboxed: row-major on A2/A3; on A5 a Row index is [1, R] "
                  "row-major or [R, 1] col-major");
    if constexpr (Mode == Coalesce::Row && GlobalTable::layout == Layout::ND) {
        constexpr int64_t stride3 = GlobalTable::staticStride[3], stride4 = GlobalTable::staticStride[4];
        static_assert(stride4 == DYNAMIC || rules::row_table_contiguous_ok(stride4),
                      "LEGAL_MGATHER_TABLE_STRIDE: a Row-mode table's rows must be contiguous (Stride[4] == 1)");
        static_assert(stride3 == DYNAMIC || shape4 == DYNAMIC || rules::row_table_packed_ok(p, stride3, shape4),
                      "LEGAL_MGATHER_TABLE_STRIDE: A5 reads Row-mode table rows packed (Stride[3] == Shape[4])");
        static_assert(shape4 == DYNAMIC || TileDst::ValidCol == DYNAMIC ||
                          rules::row_table_width_ok(p, shape4, TileDst::ValidCol),
                      "LEGAL_MGATHER_TABLE_WIDTH: the table's row width Shape[4] must hold dst's valid columns "
                      "(equal them on A5)");
    }
}

// What MGATHER into L1 can check from the types.
template <Coalesce Mode, bool HasScratch, typename TileDst, typename GlobalTable, typename GlobalIdx>
constexpr void check_mgather_l1()
{
    constexpr const profile::Profile& p = profile::kProfile;
    constexpr int bits = TileDst::ElementBits;
    static_assert(rules::l1_gather_tile_ok(TileDst::Loc, TileDst::BFractal, TileDst::SFractal, TileDst::SFractalSize),
                  "LEGAL_MGATHER_LOCATION: a GM index gathers into an L1 Mat tile in NZ form (ColMajor, "
                  "SLayout::RowMajor, 512-byte fractals)");
    static_assert(rules::l1_gather_form_ok(Mode, HasScratch),
                  "LEGAL_MGATHER_FORM: into L1, Coalesce::Row takes three operands and Coalesce::Elem four (a GM "
                  "scratch)");
    static_assert(rules::l1_gather_dtype_ok(p, Mode, element_dtype_v<TileDst>),
                  "LEGAL_MGATHER_DTYPE: dst element type is not supported on PTO_TARGET (8-bit floats need A5)");
    static_assert(rules::nz_tile_shape_ok(TileDst::Rows, TileDst::Cols, bits),
                  "LEGAL_MGATHER_NZ_SHAPE: an NZ dst needs Rows % 16 == 0 and Cols % (32 / sizeof(T)) == 0");
    static_assert(!static_valid_shape_v<TileDst> || rules::indexed_valid_shape_ok(TileDst::ValidRow, TileDst::ValidCol),
                  "LEGAL_MGATHER_VALID_SHAPE: dst's valid region must be at least 1 x 1");
    static_assert(std::is_same_v<typename GlobalTable::DType, typename TileDst::DType>,
                  "LEGAL_MGATHER_TABLE_DTYPE: the table's element type must be dst's");
    static_assert(rules::l1_gather_table_layout_ok(GlobalTable::layout),
                  "LEGAL_MGATHER_TABLE_LAYOUT: the table of a gather into L1 must be ND");
    static_assert(rules::index_dtype_ok(engine::dtype_of<typename GlobalIdx::DType>),
                  "LEGAL_MGATHER_INDEX_DTYPE: idx must hold int32_t or uint32_t indices");
    constexpr const int64_t(&idx_shape)[5] = GlobalIdx::staticShape;
    constexpr bool idx_static = idx_shape[0] != DYNAMIC && idx_shape[1] != DYNAMIC && idx_shape[2] != DYNAMIC &&
                                idx_shape[3] != DYNAMIC && idx_shape[4] != DYNAMIC;
    static_assert(!(idx_static && static_valid_shape_v<TileDst>) ||
                      rules::gm_index_shape_ok(Mode, idx_shape[0] * idx_shape[1] * idx_shape[2] * idx_shape[3],
                                               idx_shape[4], TileDst::ValidRow, TileDst::ValidCol),
                  "LEGAL_MGATHER_INDEX_SHAPE: the GM index must hold one index per dst row (Row) or cover dst's "
                  "valid region (Elem)");
    if constexpr (Mode == Coalesce::Row) {
        constexpr int64_t stride4 = GlobalTable::staticStride[4], shape4 = GlobalTable::staticShape[4];
        static_assert(stride4 == DYNAMIC || rules::row_table_contiguous_ok(stride4),
                      "LEGAL_MGATHER_TABLE_STRIDE: a Row-mode table's rows must be contiguous (Stride[4] == 1)");
        static_assert(shape4 == DYNAMIC || TileDst::ValidCol == DYNAMIC || rules::row_width_fits(shape4, TileDst::ValidCol),
                      "LEGAL_MGATHER_TABLE_WIDTH: the table's row width Shape[4] must hold dst's valid columns");
    }
}

}  // namespace detail::memory_gather

// MGATHER with three operands: GM -> UB through a UB index tile, or GM -> L1 (Mat NZ dst) through a GM
// index tensor.
template <Coalesce Mode = Coalesce::Row, GatherOOB Oob = GatherOOB::Undefined, typename TileDst, typename GlobalData,
          typename TileInd, typename... WaitEvents>
    requires(is_tile_data_v<TileDst> && is_global_data_v<GlobalData> && (!is_global_data_v<WaitEvents> && ...))
PTO_INST RecordEvent MGATHER(TileDst& dst, GlobalData& src, TileInd& indexes, WaitEvents&... events)
{
    WaitAllEvents(events...);
    if constexpr (is_global_data_v<TileInd>) {
        detail::memory_gather::check_mgather_l1<Mode, false, TileDst, GlobalData, TileInd>();
        engine::mgather_l1(dst.desc(), src.desc(), indexes.desc(), Mode, Oob);
    } else {
        static_assert(is_tile_data_v<TileInd>, "MGATHER: the index is a Tile (GM -> UB) or a GlobalTensor (GM -> L1)");
        detail::memory_gather::check_mgather_ub<Mode, TileDst, GlobalData, TileInd>();
        engine::mgather(dst.desc(), src.desc(), indexes.desc(), Mode, Oob);
    }
    return {};
}

// MGATHER with four operands: the Elem gather into an L1 Mat NZ tile, staged in a GM scratch of at
// least Rows * Cols elements by the scalar walk or (A5) the SIMT executor.
template <Coalesce Mode = Coalesce::Elem, GatherOOB Oob = GatherOOB::Undefined, GatherExec Exec = GatherExec::Scalar,
          typename TileDst, typename GlobalTable, typename GlobalIdx, typename GlobalScratch, typename... WaitEvents>
    requires(is_tile_data_v<TileDst> && is_global_data_v<GlobalTable> && is_global_data_v<GlobalIdx> &&
             is_global_data_v<GlobalScratch>)
PTO_INST RecordEvent MGATHER(TileDst& dst, GlobalTable& table, GlobalIdx& idx, GlobalScratch& scratch,
                             WaitEvents&... events)
{
    WaitAllEvents(events...);
    detail::memory_gather::check_mgather_l1<Mode, true, TileDst, GlobalTable, GlobalIdx>();
    static_assert(rules::gather_exec_ok(profile::kProfile, Exec),
                  "LEGAL_MGATHER_EXEC: GatherExec::Simt needs A5's SIMT engine; A2/A3 has none");
    static_assert(std::is_same_v<typename GlobalScratch::DType, typename TileDst::DType>,
                  "LEGAL_MGATHER_SCRATCH: the scratch's element type must be dst's");
    engine::mgather_l1(dst.desc(), table.desc(), idx.desc(), scratch.desc(), Mode, Oob, Exec);
    return {};
}

namespace detail::memory_gather {

// What MSCATTER can check from the types.
template <Coalesce Mode, ScatterAtomicOp Atomic, typename GlobalTable, typename TileSrc, typename TileIdx>
constexpr void check_mscatter()
{
    constexpr const profile::Profile& p = profile::kProfile;
    constexpr engine::DType dt = element_dtype_v<TileSrc>;
    constexpr bool src_static = static_valid_shape_v<TileSrc>;
    constexpr bool idx_static = static_valid_shape_v<TileIdx>;
    static_assert(TileSrc::Loc == TileType::Vec, "LEGAL_MSCATTER_LOCATION: src must be a UB tile (TileType::Vec)");
    static_assert(TileIdx::Loc == TileType::Vec, "LEGAL_MSCATTER_LOCATION: idx must be a UB tile (TileType::Vec)");
    static_assert(rules::indexed_transfer_dtype_ok(p, dt),
                  "LEGAL_MSCATTER_DTYPE: src element type is not supported on PTO_TARGET (8-bit floats need A5)");
    static_assert(rules::index_dtype_ok(element_dtype_v<TileIdx>),
                  "LEGAL_MSCATTER_INDEX_DTYPE: idx must hold int32_t or uint32_t indices");
    static_assert(std::is_same_v<typename GlobalTable::DType, typename TileSrc::DType>,
                  "LEGAL_MSCATTER_TABLE_DTYPE: the table's element type must be src's");
    static_assert(rules::scatter_table_layout_ok(GlobalTable::layout), "LEGAL_MSCATTER_TABLE_LAYOUT: the table must be ND");
    static_assert(rules::indexed_tile_layout_ok(p, GlobalTable::layout, TileSrc::BFractal, TileSrc::SFractal,
                                                TileSrc::SFractalSize),
                  "LEGAL_MSCATTER_TILE_LAYOUT: src must be unboxed (row-major; col-major on A5)");
    static_assert(rules::indexed_tile_alignment_ok(TileSrc::BFractal, TileSrc::SFractal, TileSrc::Rows, TileSrc::Cols,
                                                   TileSrc::ElementBits),
                  "LEGAL_MSCATTER_ALIGN: src rows (columns if col-major) must be a multiple of 32 bytes");
    static_assert(rules::indexed_tile_alignment_ok(TileIdx::BFractal, TileIdx::SFractal, TileIdx::Rows, TileIdx::Cols,
                                                   TileIdx::ElementBits),
                  "LEGAL_MSCATTER_ALIGN: idx rows (columns if col-major) must be a multiple of 32 bytes");
    static_assert(rules::scatter_atomic_dtype_ok(p, Atomic, dt),
                  "LEGAL_MSCATTER_ATOMIC_DTYPE: Add takes i32/u32/f32/f16 (bf16 on A5), Max and Min i32/f32 (u32 "
                  "on A5)");
    static_assert(!src_static || rules::indexed_valid_shape_ok(TileSrc::ValidRow, TileSrc::ValidCol),
                  "LEGAL_MSCATTER_VALID_SHAPE: src's valid region must be at least 1 x 1");
    static_assert(!(src_static && idx_static) ||
                      rules::index_shape_ok(p, Mode, TileIdx::ValidRow, TileIdx::ValidCol, TileSrc::ValidRow,
                                            TileSrc::ValidCol),
                  "LEGAL_MSCATTER_INDEX_SHAPE: Coalesce::Row takes a [1, R] index ([R, 1] too except on A2/A3), "
                  "Coalesce::Elem an index shaped like src");
    static_assert(!idx_static || rules::index_tile_layout_ok(p, Mode, TileIdx::BFractal, TileIdx::SFractal,
                                                             TileIdx::ValidRow, TileIdx::ValidCol),
                  "LEGAL_MSCATTER_INDEX_LAYOUT: idx must be unboxed: row-major on A2/A3; on A5 a Row index is "
                  "[1, R] row-major or [R, 1] col-major");
    if constexpr (Mode == Coalesce::Row) {
        constexpr int64_t shape4 = GlobalTable::staticShape[4];
        constexpr int64_t stride3 = GlobalTable::staticStride[3], stride4 = GlobalTable::staticStride[4];
        static_assert(stride4 == DYNAMIC || rules::row_table_contiguous_ok(stride4),
                      "LEGAL_MSCATTER_TABLE_STRIDE: a Row-mode table's rows must be contiguous (Stride[4] == 1)");
        static_assert(stride3 == DYNAMIC || shape4 == DYNAMIC || rules::row_table_packed_ok(p, stride3, shape4),
                      "LEGAL_MSCATTER_TABLE_STRIDE: A5 writes Row-mode table rows packed (Stride[3] == Shape[4])");
        static_assert(shape4 == DYNAMIC || TileSrc::ValidCol == DYNAMIC ||
                          rules::row_table_width_ok(p, shape4, TileSrc::ValidCol),
                      "LEGAL_MSCATTER_TABLE_WIDTH: the table's row width Shape[4] must hold src's valid columns "
                      "(equal them on A5)");
    }
}

}  // namespace detail::memory_gather

template <Coalesce Mode = Coalesce::Row, ScatterAtomicOp Atomic = ScatterAtomicOp::None,
          ScatterOOB Oob = ScatterOOB::Undefined, ScatterConflict Conflict = ScatterConflict::Last,
          typename GlobalTable, typename TileSrc, typename TileIdx, typename... WaitEvents>
    requires(is_global_data_v<GlobalTable> && is_tile_data_v<TileSrc> && is_tile_data_v<TileIdx>)
PTO_INST RecordEvent MSCATTER(GlobalTable& dst, TileSrc& src, TileIdx& indexes, WaitEvents&... events)
{
    WaitAllEvents(events...);
    detail::memory_gather::check_mscatter<Mode, Atomic, GlobalTable, TileSrc, TileIdx>();
    engine::mscatter(dst.desc(), src.desc(), indexes.desc(), Mode, Atomic, Oob, Conflict);
    return {};
}

// The policy-first spelling: MSCATTER<ScatterAtomicOp::Add, ScatterOOB::Skip, ScatterConflict::Last,
// Coalesce::Row>(table, src, idx).
template <ScatterAtomicOp Atomic, ScatterOOB Oob = ScatterOOB::Undefined, ScatterConflict Conflict = ScatterConflict::Last,
          Coalesce Mode = Coalesce::Row, typename GlobalTable, typename TileSrc, typename TileIdx, typename... WaitEvents>
    requires(is_global_data_v<GlobalTable> && is_tile_data_v<TileSrc> && is_tile_data_v<TileIdx>)
PTO_INST RecordEvent MSCATTER(GlobalTable& dst, TileSrc& src, TileIdx& indexes, WaitEvents&... events)
{
    return MSCATTER<Mode, Atomic, Oob, Conflict>(dst, src, indexes, events...);
}

}  // namespace pto
