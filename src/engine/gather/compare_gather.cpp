#include "engine/gather/compare_gather.hpp"

#include <cstring>

#include <pto/numeric/convert.hpp>

#include "engine/sort/float_order.hpp"

namespace pto::engine::gather {

namespace {

template <typename T>
T load(const TileDesc& t, int64_t element)
{
    T v;
    std::memcpy(&v, t.data + element * sizeof(T), sizeof v);
    return v;
}

// Integer sources compare exactly with the threshold.
template <typename Source>
struct IntegerTest {
    int64_t threshold;
    IntegerTest(const TileDesc&, int64_t k) : threshold(k) {}
    bool greater(Source v) const { return int64_t{v} > threshold; }
    bool equal(Source v) const { return int64_t{v} == threshold; }
};

// Float sources (bits: uint32_t for float, uint16_t for half) compare in the source type: the
// threshold is rounded to it first, as the hardware converts it. An integer threshold is never NaN.
template <typename Bits>
struct FloatTest {
    using Format = FloatFormat<Bits>;
    Bits threshold_key;
    FloatTest(const TileDesc& src, int64_t k)
    {
        Bits rounded;
        numeric::from_double(src.dtype, &rounded, 0, static_cast<double>(k), RoundMode::CAST_RINT, SaturationMode::OFF);
        threshold_key = Format::order_key(rounded);
    }
    bool greater(Bits v) const { return !Format::is_nan(v) && Format::order_key(v) > threshold_key; }
    bool equal(Bits v) const { return !Format::is_nan(v) && Format::order_key(v) == threshold_key; }
};

// Matches are compacted branch-free into a chunk buffer (every candidate is stored, only a match
// advances the cursor), then copied out, so that dst receives the matches and nothing else.
template <typename Source, typename Test, typename Threshold>
void match_rows(const TileDesc& dst, const TileDesc& src, const TileDesc& k_value, const TileDesc& cdst, CmpMode mode,
                uint32_t offset)
{
    constexpr int kChunk = 256;
    uint32_t chunk[kChunk];
    for (int r = 0; r < src.valid_rows; ++r) {
        const Test test(src, static_cast<int64_t>(load<Threshold>(k_value, vector_element(k_value, r))));
        const Source* values = reinterpret_cast<const Source*>(src.data) + int64_t(r) * src.cols;
        std::byte* out = dst.data + int64_t(r) * dst.cols * sizeof(uint32_t);
        const uint32_t row_base = offset + static_cast<uint32_t>(r) * static_cast<uint32_t>(src.cols);
        uint32_t count = 0;
        for (int start = 0; start < src.valid_cols; start += kChunk) {
            const int end = src.valid_cols - start < kChunk ? src.valid_cols : start + kChunk;
            int found = 0;
            for (int c = start; c < end; ++c) {
                chunk[found] = row_base + static_cast<uint32_t>(c);
                const bool match = mode == CmpMode::GT ? test.greater(values[c]) : test.equal(values[c]);
                found += match ? 1 : 0;
            }
            std::memcpy(out + count * sizeof(uint32_t), chunk, static_cast<std::size_t>(found) * sizeof(uint32_t));
            count += static_cast<uint32_t>(found);
        }
        std::memcpy(cdst.data + vector_element(cdst, r) * sizeof(uint32_t), &count, sizeof count);
    }
}

template <typename Source, typename Test>
void with_threshold_type(const TileDesc& dst, const TileDesc& src, const TileDesc& k_value, const TileDesc& cdst,
                         CmpMode mode, uint32_t offset)
{
    switch (k_value.dtype) {
        case DType::I32: return match_rows<Source, Test, int32_t>(dst, src, k_value, cdst, mode, offset);
        case DType::U32: return match_rows<Source, Test, uint32_t>(dst, src, k_value, cdst, mode, offset);
        default: return match_rows<Source, Test, uint16_t>(dst, src, k_value, cdst, mode, offset);
    }
}

}  // namespace

void gather_matches(const TileDesc& dst, const TileDesc& src, const TileDesc& k_value, const TileDesc& cdst,
                    CmpMode mode, uint32_t offset)
{
    switch (src.dtype) {
        case DType::F32:
            return with_threshold_type<uint32_t, FloatTest<uint32_t>>(dst, src, k_value, cdst, mode, offset);
        case DType::F16:
            return with_threshold_type<uint16_t, FloatTest<uint16_t>>(dst, src, k_value, cdst, mode, offset);
        case DType::I16:
            return with_threshold_type<int16_t, IntegerTest<int16_t>>(dst, src, k_value, cdst, mode, offset);
        case DType::U16:
            return with_threshold_type<uint16_t, IntegerTest<uint16_t>>(dst, src, k_value, cdst, mode, offset);
        case DType::I32:
            return with_threshold_type<int32_t, IntegerTest<int32_t>>(dst, src, k_value, cdst, mode, offset);
        default: return with_threshold_type<uint32_t, IntegerTest<uint32_t>>(dst, src, k_value, cdst, mode, offset);
    }
}

}  // namespace pto::engine::gather
