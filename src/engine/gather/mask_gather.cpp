#include "engine/gather/mask_gather.hpp"

#include <cstring>

namespace pto::engine::gather {

namespace {

// Copies runs of kept elements: each run ends at the end of a src row or of a dst row.
template <typename T>
int64_t kept_columns(const TileDesc& dst, const TileDesc& src, MaskSelection keep)
{
    const int64_t capacity = int64_t(dst.valid_rows) * dst.valid_cols;
    int64_t written = 0;
    int dst_row = 0, dst_col = 0;
    for (int r = 0; r < src.valid_rows && written < capacity; ++r) {
        const T* from = reinterpret_cast<const T*>(src.data) + int64_t(r) * src.cols;
        for (int c = keep.first; c < src.valid_cols && written < capacity;) {
            T* to = reinterpret_cast<T*>(dst.data) + int64_t(dst_row) * dst.cols + dst_col;
            const int available = (src.valid_cols - c + keep.step - 1) / keep.step;
            const int run = available < dst.valid_cols - dst_col ? available : dst.valid_cols - dst_col;
            if (keep.step == 1) {
                std::memcpy(to, from + c, sizeof(T) * static_cast<std::size_t>(run));
            } else {
                for (int k = 0; k < run; ++k) to[k] = from[c + k * keep.step];
            }
            c += run * keep.step;
            written += run;
            dst_col += run;
            if (dst_col == dst.valid_cols) {
                dst_col = 0;
                ++dst_row;
            }
        }
    }
    return written;
}

}  // namespace

int64_t gather_kept_columns(const TileDesc& dst, const TileDesc& src, MaskSelection keep)
{
    if (dst.valid_cols == 0) return 0;
    switch (src.element_bits()) {
        case 8: return kept_columns<uint8_t>(dst, src, keep);
        case 16: return kept_columns<uint16_t>(dst, src, keep);
        default: return kept_columns<uint32_t>(dst, src, keep);
    }
}

int gather_kept_rows(const TileDesc& dst, const TileDesc& src, MaskSelection keep)
{
    const int64_t element_bytes = src.element_bits() / 8;
    const auto row_bytes = static_cast<std::size_t>(dst.valid_cols * element_bytes);
    int written = 0;
    for (int r = keep.first; r < src.valid_rows && written < dst.valid_rows; r += keep.step, ++written) {
        std::memcpy(dst.data + written * dst.cols * element_bytes, src.data + r * src.cols * element_bytes, row_bytes);
    }
    return written;
}

}  // namespace pto::engine::gather
