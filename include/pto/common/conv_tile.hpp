// pto::ConvTile: a convolution operand in an on-chip memory, an N-D array (1 to 6 dimensions) of the
// convolution layouts (NC1HWC0, NDC1HWC0, FRACTAL_Z, ...), stored densely in its shape's order with the
// last dimension innermost. Dimensions are static or DYNAMIC (given at run time).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

#include <pto/common/constants.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/img2col.hpp>
#include <pto/runtime/memory.hpp>

namespace pto {

inline constexpr int kMaxConvTileDims = 6;

template <int... Shapes>
struct ConvTileShape {
    static_assert(sizeof...(Shapes) >= 1 && sizeof...(Shapes) <= kMaxConvTileDims,
                  "a ConvTileShape has 1 to 6 dimensions");
    static constexpr int totalDimCount = sizeof...(Shapes);
    static constexpr int dynamicDimCount = ((Shapes == DYNAMIC ? 1 : 0) + ...);
    static constexpr int64_t staticShape[kMaxConvTileDims] = {Shapes...};  // unused dimensions are 0
};

template <TileType Loc_, typename Element_, int BufferSize_, Layout Layout_, typename Shape_>
struct ConvTile {
    using DType = Element_;
    using ShapeType = Shape_;
    using TileDType = DType*;
    static constexpr TileType Loc = Loc_;
    static constexpr int bufferSize = BufferSize_;
    static constexpr Layout layout = Layout_;
    static constexpr int totalDimCount = Shape_::totalDimCount;
    static constexpr int dynamicDimCount = Shape_::dynamicDimCount;
    static constexpr const int64_t (&staticShape)[kMaxConvTileDims] = Shape_::staticShape;

    ConvTile() = default;
    template <typename... N, std::enable_if_t<(sizeof...(N) > 0) && (std::is_integral_v<N> && ...), int> = 0>
    explicit ConvTile(N... dynamicExtents)
    {
        SetDynamicShape(static_cast<int64_t>(dynamicExtents)...);
    }

    // One value per DYNAMIC dimension, in order.
    template <typename... N>
    void SetDynamicShape(N... values)
    {
        static_assert(sizeof...(N) == dynamicDimCount, "give one value per DYNAMIC dimension");
        const int64_t given[] = {static_cast<int64_t>(values)..., 0};
        for (int d = 0, next = 0; d < totalDimCount; ++d) {
            if (staticShape[d] == DYNAMIC) shape_[d] = given[next++];
        }
    }

    // The extent of dimension `dim`, -1 past the last.
    constexpr int64_t GetShape(int dim) const
    {
        if (dim < 0 || dim >= totalDimCount) return -1;
        return staticShape[dim] == DYNAMIC ? shape_[dim] : staticShape[dim];
    }

    // The element storage; a tile that was never TASSIGNed gets automatic storage on first use.
    TileDType& data()
    {
        if (!data_) {
            storage_ = runtime::allocate_auto(Loc, bufferSize);
            data_ = reinterpret_cast<DType*>(storage_.get());
        }
        return data_;
    }
    TileDType data() const { return const_cast<ConvTile*>(this)->data(); }

    // Binds the tile to `offset` bytes into its memory (TASSIGN).
    void assign_offset(uint64_t offset)
    {
        storage_.reset();
        data_ = reinterpret_cast<DType*>(runtime::tile_address(Loc, offset, bufferSize));
    }

    // The img2col configuration the tile carries for SETFMATRIX, SET_IMG2COL_PADDING, SET_IMG2COL_RPT
    // and TIMG2COL: the feature map's height and width, its padding (left, right, top, bottom) and pad
    // value, the filter, its stride and dilation, the channel count and the repeat parameters.
    uint16_t GetFmapH() const { return img2col_.fmatrix.fmap_h; }
    void SetFmapH(uint16_t v) { img2col_.fmatrix.fmap_h = v; }
    uint16_t GetFmapW() const { return img2col_.fmatrix.fmap_w; }
    void SetFmapW(uint16_t v) { img2col_.fmatrix.fmap_w = v; }
    uint8_t GetPadList(uint8_t index) const { return img2col_.fmatrix.pad[index]; }
    void SetPadList(uint8_t index, uint8_t v) { img2col_.fmatrix.pad[index] = v; }
    const uint8_t* GetPadListArray() const { return img2col_.fmatrix.pad; }
    void SetPadListArray(const uint8_t values[4])
    {
        for (int i = 0; i < 4; ++i) img2col_.fmatrix.pad[i] = values[i];
    }
    uint16_t GetFilterH() const { return img2col_.filter_h; }
    void SetFilterH(uint16_t v) { img2col_.filter_h = v; }
    uint16_t GetFilterW() const { return img2col_.filter_w; }
    void SetFilterW(uint16_t v) { img2col_.filter_w = v; }
    uint8_t GetDilationH() const { return uint8_t(img2col_.dilation_h); }
    void SetDilationH(uint8_t v) { img2col_.dilation_h = v; }
    uint8_t GetDilationW() const { return uint8_t(img2col_.dilation_w); }
    void SetDilationW(uint8_t v) { img2col_.dilation_w = v; }
    uint8_t GetStrideH() const { return uint8_t(img2col_.stride_h); }
    void SetStrideH(uint8_t v) { img2col_.stride_h = v; }
    uint8_t GetStrideW() const { return uint8_t(img2col_.stride_w); }
    void SetStrideW(uint8_t v) { img2col_.stride_w = v; }
    DType GetPadValue() const { return pad_value_; }
    void SetPadValue(DType v) { pad_value_ = v; }
    uint16_t GetChannelSize() const { return img2col_.channel_size; }
    void SetChannelSize(uint16_t v) { img2col_.channel_size = v; }
    uint16_t GetRepeatStride() const { return img2col_.repeat.stride; }
    void SetRepeatStride(uint16_t v) { img2col_.repeat.stride = v; }
    uint16_t GetRepeatTime() const { return img2col_.repeat.times; }
    void SetRepeatTime(uint8_t v) { img2col_.repeat.times = v; }
    uint16_t GetRepeatMode() const { return img2col_.repeat.mode; }
    void SetRepeatMode(uint8_t v) { img2col_.repeat.mode = v; }
    uint16_t GetDstStride() const { return img2col_.repeat.dst_stride; }
    void SetDstStride(uint16_t v) { img2col_.repeat.dst_stride = v; }
    uint16_t GetDstMposition() const { return img2col_.repeat.dst_m_position; }
    void SetDstMposition(uint16_t v) { img2col_.repeat.dst_m_position = v; }
    bool GetTranspose() const { return img2col_.transpose; }
    void SetTranspose(bool v) { img2col_.transpose = v; }

    // The img2col configuration as the engine takes it, the pad value as the padding register holds it.
    engine::Img2colConfig img2col_config() const
    {
        engine::Img2colConfig c = img2col_;
        uint64_t bits = 0;
        std::memcpy(&bits, &pad_value_, sizeof(DType));
        c.pad_value_bits = engine::padding_register_bits(bits, int(sizeof(DType)));
        return c;
    }

    // The runtime description the engine takes.
    engine::ConvTileDesc desc() const
    {
        engine::ConvTileDesc d;
        d.data = reinterpret_cast<std::byte*>(data());
        d.dtype = engine::dtype_of<DType>;
        d.loc = Loc;
        d.layout = layout;
        d.dims = totalDimCount;
        for (int dim = 0; dim < totalDimCount; ++dim) d.shape[dim] = GetShape(dim);
        d.buffer_bytes = bufferSize;
        return d;
    }

private:
    DType* data_ = nullptr;
    std::shared_ptr<std::byte> storage_;
    int64_t shape_[kMaxConvTileDims] = {1, 1, 1, 1, 1, 1};
    engine::Img2colConfig img2col_;
    DType pad_value_{};
};

template <typename T>
struct is_conv_tile : std::false_type {};
template <TileType L, typename E, int B, Layout Lay, typename S>
struct is_conv_tile<ConvTile<L, E, B, Lay, S>> : std::true_type {};
template <typename T>
inline constexpr bool is_conv_tile_v = is_conv_tile<std::remove_cv_t<T>>::value;

}  // namespace pto
