// The kernels are compiled for every SIMD target Highway knows and one is picked at run time. Float
// lanes fuse multiply-adds (with the FMA instruction, or exactly emulated on targets without it) and
// double lanes never do, so every target must give the very same bits (results do not depend on the
// host CPU), and every target, those without AVX-512 included, stays within the documented bounds.
#include "support.hpp"

#include <hwy/targets.h>

using namespace mathtest;

TEST(MathSimdTargets, EveryTargetThisCpuRunsGivesTheSameBits)
{
    const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
    ASSERT_GT(targets.size(), 1u);
    std::mt19937 rng(43);
    std::vector<std::vector<uint32_t>> inputs, base, exponent;
    for (Type t : kTypes) inputs.push_back(sample(t, rng, 1 << 16));
    for (Type t : kTypes) {
        base.emplace_back();
        exponent.emplace_back();
        for (int i = 0; i < 4096; ++i) {
            base.back().push_back(random_bits(t, rng));
            exponent.back().push_back(random_bits(t, rng) & (t == Type::F32 ? 0xc1ffffffu : 0xc7ffu));
        }
    }

    // Every function's results, each labelled.
    const auto results = [&] {
        std::vector<std::pair<std::string, std::vector<uint32_t>>> all;
        for (size_t ti = 0; ti < std::size(kTypes); ++ti) {
            const Type t = kTypes[ti];
            for (MathAccuracy a : kAccuracies) {
                for (MathFn fn : kFunctions) {
                    all.emplace_back(name(fn) + " " + name(a) + " " + name(t), run_line(t, fn, a, inputs[ti]));
                }
                all.emplace_back("pow " + name(a) + " " + name(t), run_pow_line(t, a, base[ti], exponent[ti]));
            }
        }
        return all;
    };

    hwy::SetSupportedTargetsForTest(targets.front());
    const auto expected = results();
    for (int64_t target : targets) {
        hwy::SetSupportedTargetsForTest(target);
        const std::string target_name = hwy::TargetName(target);
        const auto got = results();
        for (size_t r = 0; r < got.size(); ++r) {
            const auto& [label, bits] = got[r];
            const auto mismatch = std::mismatch(bits.begin(), bits.end(), expected[r].second.begin());
            EXPECT_TRUE(mismatch.first == bits.end())
                << target_name << " and " << hwy::TargetName(targets.front()) << " differ: " << label << " element "
                << (mismatch.first - bits.begin()) << " gives 0x" << std::hex << *mismatch.first << " and 0x"
                << *mismatch.second;
        }
        for (size_t ti = 0; ti < std::size(kTypes); ++ti) {
            const Type t = kTypes[ti];
            for (MathFn fn : kFunctions) {
                for (MathAccuracy a : kAccuracies) {
                    const auto out = run_line(t, fn, a, inputs[ti]);
                    for (size_t i = 0; i < out.size(); ++i) {
                        const double error = ulp_error(t, reference(fn, value(t, inputs[ti][i])), value(t, out[i]));
                        ASSERT_LE(error, error_bound(t, fn, a)) << target_name << ": " << name(fn) << " " << name(a)
                                                                << " " << name(t) << " of bits 0x" << std::hex
                                                                << inputs[ti][i];
                    }
                }
            }
        }
    }
    hwy::SetSupportedTargetsForTest(0);  // back to what the CPU supports
}
