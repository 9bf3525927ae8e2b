// pto::Tile: a 2-D block of elements in one of the core's on-chip memories.
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>

#include <pto/common/constants.hpp>
#include <pto/common/type.hpp>
#include <pto/cpu/MXTypes.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/profile/rules.hpp>
#include <pto/runtime/memory.hpp>
#include <pto/runtime/schedule.hpp>

namespace pto {

namespace detail {
// Range-checks a runtime valid extent against the capacity (RUN_VALID_SHAPE).
void check_valid_extent(const char* what, unsigned value, int capacity);
}  // namespace detail

template <TileType Loc_, typename Element_, int Rows_, int Cols_, BLayout BFractal_ = BLayout::RowMajor,
          int RowValid_ = Rows_, int ColValid_ = Cols_, SLayout SFractal_ = SLayout::NoneBox,
          int SFractalSize_ = TileConfig::fractalABSize, PadValue PadVal_ = PadValue::Null,
          CompactMode Compact_ = CompactMode::Null>
struct Tile {
    using DType = Element_;
    using TileDType = DType*;

    static constexpr TileType Loc = Loc_;
    static constexpr int Rows = Rows_;
    static constexpr int Cols = Cols_;
    static constexpr int ValidRow = RowValid_;
    static constexpr int ValidCol = ColValid_;
    static constexpr BLayout BFractal = BFractal_;
    static constexpr SLayout SFractal = SFractal_;
    static constexpr int SFractalSize = SFractalSize_;
    static constexpr PadValue PadVal = PadVal_;
    static constexpr CompactMode Compact = Compact_;
    static constexpr int Numel = Rows * Cols;
    static constexpr bool isRowMajor = BFractal_ == BLayout::RowMajor;
    static constexpr bool isBoxedLayout = SFractal_ != SLayout::NoneBox;
    static constexpr bool isInnerRowMajor = SFractal_ == SLayout::RowMajor;
    static constexpr bool isInnerColMajor = SFractal_ == SLayout::ColMajor;
    static constexpr int RowStride = isRowMajor ? Cols : 1;
    static constexpr int ColStride = isRowMajor ? 1 : Rows;
    static constexpr int ElementBits = engine::element_bits_of<DType>;
    static constexpr int InnerRows = rules::box_rows(SFractal_, SFractalSize_, ElementBits);
    static constexpr int InnerCols = rules::box_cols(SFractal_, SFractalSize_, ElementBits);
    static constexpr int InnerNumel = InnerRows * InnerCols;
    static constexpr uint64_t SizeInBytes = uint64_t(Numel) * ElementBits / 8;

    static_assert(rules::tile_shape_ok(Rows_, Cols_, RowValid_, ColValid_),
                  "LEGAL_TILE_SHAPE: Rows and Cols must be positive and static valid dimensions within them");
    static_assert(rules::fractal_size_ok(SFractalSize_),
                  "LEGAL_FRACTAL_SIZE: SFractalSize must be 512 (A/B), 1024 (accumulator) or 32 (MX scale)");
    static_assert(rules::unboxed_alignment_ok(BFractal_, SFractal_, Rows_, Cols_, ElementBits),
                  "LEGAL_TILE_ALIGN: unboxed row-major tiles need Cols*sizeof(T) % 32 == 0, "
                  "unboxed col-major tiles need Rows*sizeof(T) % 32 == 0");
    static_assert(rules::boxed_shape_ok(Loc_, SFractal_, Rows_, Cols_, SFractalSize_, ElementBits),
                  "LEGAL_TILE_BOX: a boxed tile's Rows and Cols must be multiples of the fractal box shape");

    Tile() = default;

    template <int R = ValidRow, int C = ValidCol, std::enable_if_t<R == DYNAMIC && C == DYNAMIC, int> = 0>
    Tile(unsigned validRows, unsigned validCols)
    {
        SetValidRow(validRows);
        SetValidCol(validCols);
    }

    template <int R = ValidRow, int C = ValidCol, std::enable_if_t<R == DYNAMIC && C != DYNAMIC, int> = 0>
    explicit Tile(unsigned validRows)
    {
        SetValidRow(validRows);
    }

    template <int R = ValidRow, int C = ValidCol, std::enable_if_t<R != DYNAMIC && C == DYNAMIC, int> = 0>
    explicit Tile(unsigned validCols)
    {
        SetValidCol(validCols);
    }

    template <int R = ValidRow, std::enable_if_t<(R > 0 || R == 0), int> = 0>
    static constexpr unsigned GetValidRow() { return R; }
    template <int R = ValidRow, std::enable_if_t<R == DYNAMIC, int> = 0>
    unsigned GetValidRow() const { return validRows_; }

    template <int C = ValidCol, std::enable_if_t<(C > 0 || C == 0), int> = 0>
    static constexpr unsigned GetValidCol() { return C; }
    template <int C = ValidCol, std::enable_if_t<C == DYNAMIC, int> = 0>
    unsigned GetValidCol() const { return validCols_; }

    void SetValidRow(unsigned rows)
    {
        static_assert(ValidRow == DYNAMIC, "SetValidRow needs a DYNAMIC valid row count");
        detail::check_valid_extent("valid rows", rows, Rows);
        validRows_ = rows;
        check_bound_valid_region();
    }
    void SetValidCol(unsigned cols)
    {
        static_assert(ValidCol == DYNAMIC, "SetValidCol needs a DYNAMIC valid column count");
        detail::check_valid_extent("valid columns", cols, Cols);
        validCols_ = cols;
        check_bound_valid_region();
    }
    void SetValidShape(unsigned rows, unsigned cols)
    {
        SetValidRow(rows);
        SetValidCol(cols);
    }

    // The element storage. A tile that was never TASSIGNed gets automatic storage on first use.
    TileDType& data()
    {
        if (!data_) {
            storage_ = runtime::allocate_auto(Loc, SizeInBytes);
            data_ = reinterpret_cast<DType*>(storage_.get());
        }
        return data_;
    }
    TileDType data() const { return const_cast<Tile*>(this)->data(); }

    static constexpr uint64_t GetSizeInBytes() { return SizeInBytes; }

    // Whether the K dimension of a matrix-multiply operand is already padded to its alignment.
    void SetKAligned(bool aligned) { kAligned_ = aligned; }
    bool GetKAligned() const { return kAligned_; }

    // Element at a storage offset (in elements: a 4-bit float's counts values, two to a byte), as the
    // device's scalar unit reads it.
    DType GetValue(uint32_t offset) const
    {
        runtime::settle_held_back_work();
        return GetProperDataPart(data(), offset);
    }
    void SetValue(uint32_t offset, DType value)
    {
        runtime::settle_held_back_work();
        SetProperDataPart(data(), offset, value);
        runtime::mark_written(reinterpret_cast<std::byte*>(data()) + uint64_t(offset) * ElementBits / 8,
                              ElementBits < 8 ? 1 : ElementBits / 8);
    }

    // The runtime description the engine kernels take.
    engine::TileDesc desc() const
    {
        engine::TileDesc d = shape_desc();
        d.data = reinterpret_cast<std::byte*>(data());
        return d;
    }

    // Makes the tile a view of another tile's bytes (TRESHAPE), sharing ownership of automatic storage.
    void view_bytes(std::byte* bytes, std::shared_ptr<std::byte> owner)
    {
        storage_ = std::move(owner);
        data_ = reinterpret_cast<DType*>(bytes);
    }
    const std::shared_ptr<std::byte>& storage_owner() const { return storage_; }

    // Binds the tile to `offset` bytes into its memory (TASSIGN). Its valid region must fit there;
    // capacity past the memory's end is checked by the instructions that touch it.
    void assign_offset(uint64_t offset)
    {
        storage_.reset();
        data_ = reinterpret_cast<DType*>(
            runtime::tile_address(Loc, offset, static_cast<uint64_t>(shape_desc().valid_span_bytes())));
    }

private:
    // The description without storage.
    engine::TileDesc shape_desc() const
    {
        engine::TileDesc d;
        d.dtype = engine::dtype_of<DType>;
        d.loc = Loc;
        d.rows = Rows;
        d.cols = Cols;
        d.valid_rows = static_cast<int32_t>(valid_rows());
        d.valid_cols = static_cast<int32_t>(valid_cols());
        d.blayout = BFractal;
        d.slayout = SFractal;
        d.fractal_bytes = SFractalSize;
        d.pad = PadVal;
        return d;
    }

    // A valid region grown after TASSIGN must still fit the memory the tile is bound to.
    void check_bound_valid_region() const
    {
        if (data_ && !storage_) runtime::require_tile_bytes(data_, shape_desc().valid_span_bytes(), "its valid region");
    }

    unsigned valid_rows() const
    {
        if constexpr (ValidRow == DYNAMIC) return validRows_; else return ValidRow;
    }
    unsigned valid_cols() const
    {
        if constexpr (ValidCol == DYNAMIC) return validCols_; else return ValidCol;
    }

    DType* data_ = nullptr;
    std::shared_ptr<std::byte> storage_;  // automatic storage, shared by copies of this tile
    unsigned validRows_ = Rows;
    unsigned validCols_ = Cols;
    bool kAligned_ = false;
};

template <typename Element_, int Rows_, int Cols_, int RowValid_ = Rows_, int ColValid_ = Cols_>
using TileLeft = Tile<TileType::Left, Element_, Rows_, Cols_, BLayout::ColMajor, RowValid_, ColValid_,
                      SLayout::RowMajor, TileConfig::fractalABSize>;

template <typename Element_, int Rows_, int Cols_, int RowValid_ = Rows_, int ColValid_ = Cols_>
using TileRight = Tile<TileType::Right, Element_, Rows_, Cols_, BLayout::RowMajor, RowValid_, ColValid_,
                       SLayout::ColMajor, TileConfig::fractalABSize>;

template <typename Element_, int Rows_, int Cols_, int RowValid_ = Rows_, int ColValid_ = Cols_>
using TileAcc = Tile<TileType::Acc, Element_, Rows_, Cols_, BLayout::ColMajor, RowValid_, ColValid_,
                     SLayout::RowMajor, TileConfig::fractalCSize>;

template <typename Element_, int Rows_, int Cols_, int RowValid_ = Rows_, int ColValid_ = Cols_>
using TileLeftScale = Tile<TileType::ScaleLeft, Element_, Rows_, Cols_, BLayout::RowMajor, RowValid_, ColValid_,
                           SLayout::RowMajor, TileConfig::fractalMxSize>;

template <typename Element_, int Rows_, int Cols_, int RowValid_ = Rows_, int ColValid_ = Cols_>
using TileRightScale = Tile<TileType::ScaleRight, Element_, Rows_, Cols_, BLayout::ColMajor, RowValid_, ColValid_,
                            SLayout::ColMajor, TileConfig::fractalMxSize>;

// The Compact variants of the public library (CompactMode::Normal, which its GEMV kernels use for
// one-row operands). The mode names a device packing of the cube buffers; like the public CPU
// simulation, ptosim places the elements of a Compact tile exactly as those of the plain one.
template <typename Element_, int Rows_, int Cols_, int RowValid_ = Rows_, int ColValid_ = Cols_>
using TileLeftCompact = Tile<TileType::Left, Element_, Rows_, Cols_, BLayout::ColMajor, RowValid_, ColValid_,
                             SLayout::RowMajor, TileConfig::fractalABSize, PadValue::Null, CompactMode::Normal>;

template <typename Element_, int Rows_, int Cols_, int RowValid_ = Rows_, int ColValid_ = Cols_>
using TileRightCompact = Tile<TileType::Right, Element_, Rows_, Cols_, BLayout::RowMajor, RowValid_, ColValid_,
                              SLayout::ColMajor, TileConfig::fractalABSize, PadValue::Null, CompactMode::Normal>;

template <typename Element_, int Rows_, int Cols_, int RowValid_ = Rows_, int ColValid_ = Cols_>
using TileAccCompact = Tile<TileType::Acc, Element_, Rows_, Cols_, BLayout::ColMajor, RowValid_, ColValid_,
                            SLayout::RowMajor, TileConfig::fractalCSize, PadValue::Null, CompactMode::Normal>;

template <typename Element_, int Rows_, int Cols_, int RowValid_ = Rows_, int ColValid_ = Cols_>
using TileLeftScaleCompact = Tile<TileType::ScaleLeft, Element_, Rows_, Cols_, BLayout::RowMajor, RowValid_,
                                  ColValid_, SLayout::RowMajor, TileConfig::fractalMxSize, PadValue::Null,
                                  CompactMode::Normal>;

template <typename Element_, int Rows_, int Cols_, int RowValid_ = Rows_, int ColValid_ = Cols_>
using TileRightScaleCompact = Tile<TileType::ScaleRight, Element_, Rows_, Cols_, BLayout::ColMajor, RowValid_,
                                   ColValid_, SLayout::ColMajor, TileConfig::fractalMxSize, PadValue::Null,
                                   CompactMode::Normal>;

template <typename T>
struct is_tile : std::false_type {};
template <TileType L, typename E, int R, int C, BLayout B, int VR, int VC, SLayout S, int F, PadValue P, CompactMode M>
struct is_tile<Tile<L, E, R, C, B, VR, VC, S, F, P, M>> : std::true_type {};
template <typename T>
inline constexpr bool is_tile_data_v = is_tile<std::remove_cv_t<T>>::value;

// Layout classes of boxed tiles.
template <typename TileT>
inline constexpr bool is_Nz_layout_v = !TileT::isRowMajor && TileT::isBoxedLayout && TileT::isInnerRowMajor;
template <typename TileT>
inline constexpr bool is_Zn_layout_v = TileT::isRowMajor && TileT::isBoxedLayout && TileT::isInnerColMajor;

// Storage offset, in elements, of logical element (row, col).
template <typename TileT>
constexpr int64_t GetTileOffset(int row, int col)
{
    engine::TileDesc d;
    d.dtype = engine::dtype_of<typename TileT::DType>;
    d.rows = TileT::Rows;
    d.cols = TileT::Cols;
    d.blayout = TileT::BFractal;
    d.slayout = TileT::SFractal;
    d.fractal_bytes = TileT::SFractalSize;
    return d.offset(row, col);
}

}  // namespace pto
