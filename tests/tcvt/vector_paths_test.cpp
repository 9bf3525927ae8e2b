// The vectorised conversions (f16/bf16 -> f32 in every mode, f32 -> f16/bf16 and i32 -> f32 with RINT,
// f32 -> i32 in every mode) give numeric's bits on every SIMD target this CPU runs, including those
// without F16C and without AVX-512: every 16-bit pattern, and f32 / i32 specials and random bits.
#include "support.hpp"

#include <hwy/targets.h>

using namespace cvttest;

namespace {

// One row of `count` elements converted by the engine against numeric::convert element by element.
void check_row(DType dst_type, DType src_type, const std::vector<uint64_t>& values, RoundMode mode,
               SaturationMode sat, const std::string& target)
{
    const int count = int(values.size());
    Memory memory(std::size_t(count) * 8 + 64);
    const TileDesc dst = tile_at(memory.take(std::size_t(count) * bits_of(dst_type) / 8), dst_type, 1, count, 1, count);
    const TileDesc src = tile_at(memory.take(std::size_t(count) * bits_of(src_type) / 8), src_type, 1, count, 1, count);
    for (int i = 0; i < count; ++i) set_element(src.data, i, bits_of(src_type), values[std::size_t(i)]);
    run_and_check(memory, dst, src, mode, sat, describe(dst_type, src_type, mode, sat) + " on " + target);
}

std::vector<uint64_t> every_16_bit_pattern()
{
    std::vector<uint64_t> v(1 << 16);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = i;
    return v;
}

std::vector<uint64_t> specials_and_random(DType t, std::mt19937_64& rng)
{
    std::vector<uint64_t> v = special_values(t);
    for (int i = 0; i < 20000; ++i) v.push_back(random_element(t, rng));
    return v;
}

}  // namespace

TEST(TcvtVectorPaths, EveryTargetThisCpuRunsGivesNumericsBits)
{
    const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
    ASSERT_FALSE(targets.empty());
    std::mt19937_64 rng(17);
    const std::vector<uint64_t> halves = every_16_bit_pattern();
    const std::vector<uint64_t> floats = specials_and_random(DType::F32, rng);
    const std::vector<uint64_t> ints = specials_and_random(DType::I32, rng);
    for (int64_t target : targets) {
        hwy::SetSupportedTargetsForTest(target);
        const std::string name = hwy::TargetName(target);
        for (RoundMode mode : kModes) {
            for (SaturationMode sat : kSaturations) {
                check_row(DType::F32, DType::F16, halves, mode, sat, name);
                check_row(DType::F32, DType::BF16, halves, mode, sat, name);
                check_row(DType::F16, DType::F32, floats, mode, sat, name);
                check_row(DType::BF16, DType::F32, floats, mode, sat, name);
                check_row(DType::I32, DType::F32, floats, mode, sat, name);
                check_row(DType::F32, DType::I32, ints, mode, sat, name);
            }
        }
    }
    hwy::SetSupportedTargetsForTest(0);  // back to what the CPU supports
}
