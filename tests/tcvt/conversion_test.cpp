// TCVT through the engine: every pair each target allows, in every rounding mode and both saturation
// modes, on random data with special values, random shapes and partial valid regions; every layout on
// the cpu profile; dst aliasing src with the same and with another element size.
#include "support.hpp"

using namespace cvttest;

namespace {

// Random capacity and valid region shared by dst and src: 64 or 128 columns, any valid width (odd ones
// too, which end 4-bit rows inside a byte).
struct Shape {
    int rows, value_cols, valid_rows, valid_value_cols;
};

Shape random_shape(std::mt19937_64& rng)
{
    Shape s;
    s.rows = 1 + int(rng() % 6);
    s.value_cols = rng() % 2 ? 64 : 128;
    s.valid_rows = int(rng() % (s.rows + 1));
    s.valid_value_cols = 1 + int(rng() % s.value_cols);
    return s;
}

void check_random_tiles(DType dst_type, DType src_type, RoundMode mode, SaturationMode sat, std::mt19937_64& rng,
                        const std::string& where)
{
    const Shape s = random_shape(rng);
    const int dst_cols = s.value_cols, src_cols = s.value_cols;
    Memory memory(std::size_t(s.rows) * s.value_cols * 16);
    const TileDesc dst = tile_at(memory.take(std::size_t(s.rows) * dst_cols * bits_of(dst_type) / 8), dst_type, s.rows,
                                 dst_cols, s.valid_rows, s.valid_value_cols);
    const TileDesc src = tile_at(memory.take(std::size_t(s.rows) * src_cols * bits_of(src_type) / 8), src_type, s.rows,
                                 src_cols, s.valid_rows, s.valid_value_cols);
    fill_random(dst, rng);
    fill_random(src, rng);
    run_and_check(memory, dst, src, mode, sat,
                  describe(dst_type, src_type, mode, sat) + " on " + where + ", valid " + std::to_string(s.valid_rows) +
                      "x" + std::to_string(s.valid_value_cols) + " values of " + std::to_string(s.rows) + "x" +
                      std::to_string(s.value_cols));
}

}  // namespace

TEST(TcvtConversion, EveryAllowedPairEveryModeBothSaturationsOnEachTarget)
{
    std::mt19937_64 rng(7);
    for (Target target : kTargets) {
        pto::test::ScopedTarget scoped(target);
        const std::string where(pto::profile::profile_of(target).name);
        const auto pairs = allowed_pairs(target);
        ASSERT_FALSE(pairs.empty());
        for (const auto& [dst, src] : pairs) {
            for (RoundMode mode : kModes) {
                for (SaturationMode sat : kSaturations) {
                    for (int repeat = 0; repeat < 3; ++repeat) check_random_tiles(dst, src, mode, sat, rng, where);
                }
            }
        }
    }
}

TEST(TcvtConversion, EveryLayoutOnTheCpuProfile)
{
    // Capacities of 64 rows x 128 values are whole boxes of every layout for every element width.
    std::mt19937_64 rng(11);
    for (const auto& [dst_type, src_type] : allowed_pairs(Target::Cpu)) {
        for (Layout2 dst_layout : kLayouts) {
            for (Layout2 src_layout : kLayouts) {
                const RoundMode mode = kModes[rng() % 7];
                const SaturationMode sat = kSaturations[rng() % 2];
                const int rows = 64, value_cols = 128;
                const int valid_rows = 1 + int(rng() % rows);
                int valid_values = 1 + int(rng() % value_cols);
                const int dst_cols = value_cols;
                const int src_cols = value_cols;
                Memory memory(std::size_t(rows) * value_cols * 16);
                const TileDesc dst =
                    tile_at(memory.take(std::size_t(rows) * dst_cols * bits_of(dst_type) / 8), dst_type, rows, dst_cols,
                            valid_rows, valid_values, dst_layout);
                const TileDesc src =
                    tile_at(memory.take(std::size_t(rows) * src_cols * bits_of(src_type) / 8), src_type, rows, src_cols,
                            valid_rows, valid_values, src_layout);
                fill_random(dst, rng);
                fill_random(src, rng);
                run_and_check(memory, dst, src, mode, sat,
                              describe(dst_type, src_type, mode, sat) + ", dst " + layout_label(dst_layout) + ", src " +
                                  layout_label(src_layout));
            }
        }
    }
}

// dst and src in one piece of memory: the result is as if every source element were read first.
TEST(TcvtConversion, DstAliasingSrcReadsEverySourceElementFirst)
{
    struct Case {
        DType dst, src;
        int src_offset_bytes;  // where src starts, from dst's first byte (negative: before it)
        Layout2 dst_layout, src_layout;
    };
    const Case cases[] = {
        {DType::I32, DType::F32, 0, kRowMajor, kRowMajor},    // in place, same element size
        {DType::F32, DType::I32, 0, kRowMajor, kRowMajor},
        {DType::F32, DType::F32, 0, kRowMajor, kRowMajor},    // round-only, in place
        {DType::F16, DType::I16, 0, kRowMajor, kRowMajor},
        {DType::F16, DType::BF16, 0, kColMajor, kColMajor},
        {DType::F16, DType::F32, 0, kRowMajor, kRowMajor},    // narrowing over its own source
        {DType::BF16, DType::F32, 64, kRowMajor, kRowMajor},
        {DType::F32, DType::F16, 0, kRowMajor, kRowMajor},    // widening over its own source
        {DType::F32, DType::BF16, 96, kRowMajor, kRowMajor},
        {DType::F32, DType::F16, -64, kRowMajor, kRowMajor},
        {DType::I32, DType::F32, 32, kRowMajor, kRowMajor},   // same size, shifted
        {DType::I32, DType::F32, 0, kRowMajor, kColMajor},    // same bytes, another layout
        {DType::I32, DType::I8, 0, kNz, kRowMajor},
        {DType::F16, DType::I4, 0, kRowMajor, kRowMajor},     // 4-bit source under 16-bit results
        {DType::I4, DType::F16, 0, kRowMajor, kRowMajor},
        {DType::F4E2M1x2, DType::BF16, 0, kRowMajor, kRowMajor},
        {DType::BF16, DType::F4E1M2x2, 0, kRowMajor, kRowMajor},
    };
    std::mt19937_64 rng(13);
    for (const Case& k : cases) {
        for (int repeat = 0; repeat < 8; ++repeat) {
            const int rows = 64, value_cols = 128;
            const int valid_rows = 1 + int(rng() % rows);
            int valid_values = 1 + int(rng() % value_cols);
            const int dst_cols = value_cols;
            const int src_cols = value_cols;
            const std::size_t dst_bytes = std::size_t(rows) * dst_cols * bits_of(k.dst) / 8;
            const std::size_t src_bytes = std::size_t(rows) * src_cols * bits_of(k.src) / 8;
            Memory memory(dst_bytes + src_bytes + 256);
            std::byte* base = memory.take(dst_bytes + src_bytes + 128) + 128;
            const TileDesc dst = tile_at(base, k.dst, rows, dst_cols, valid_rows,
                                         valid_values, k.dst_layout);
            const TileDesc src = tile_at(base + k.src_offset_bytes, k.src, rows, src_cols, valid_rows,
                                         valid_values, k.src_layout);
            fill_random(dst, rng);
            fill_random(src, rng);
            for (SaturationMode sat : kSaturations) {
                const RoundMode mode = kModes[rng() % 7];
                run_and_check(memory, dst, src, mode, sat,
                              describe(k.dst, k.src, mode, sat) + ", src at dst + " +
                                  std::to_string(k.src_offset_bytes) + " bytes, dst " + layout_label(k.dst_layout) +
                                  ", src " + layout_label(k.src_layout));
            }
        }
    }
}
