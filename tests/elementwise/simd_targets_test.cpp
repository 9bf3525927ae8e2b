// The vectorised loops are compiled for every SIMD target Highway knows and one is picked at run time
// (the library runs on any x86-64). Every target this CPU can run must give the reference bits.
#include "support.hpp"

#include <hwy/targets.h>

using namespace pto;
using namespace ewtest;

namespace {

template <typename T>
void check_long_rows(std::mt19937& rng, const std::string& target)
{
    for (Arith op : kOps) {
        if (!cpu_allows(op, Elem<T>::dtype)) continue;
        for (int cols : {1, 3, 8, 15, 16, 17, 33, 64, 100, 257}) {
            HostTile<T> dst(4, cols, 3, cols, kRowMajor, rng), src0(4, cols, 3, cols, kRowMajor, rng),
                src1(4, cols, 3, cols, kRowMajor, rng);
            if (op == Arith::Div) {
                for (auto& e : src1.storage()) e = random_value<T>(rng, true);
            }
            run_and_check<T>(op, dst, src0, src1, target + ", " + std::to_string(cols) + " columns");
        }
    }
}

}  // namespace

TEST(SimdTargets, EveryTargetThisCpuRunsGivesTheReferenceBits)
{
    const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
    ASSERT_FALSE(targets.empty());
    std::mt19937 rng(41);
    for (int64_t target : targets) {
        hwy::SetSupportedTargetsForTest(target);
        const std::string name = hwy::TargetName(target);
        check_long_rows<float>(rng, name);
        check_long_rows<half>(rng, name);
        check_long_rows<bfloat16_t>(rng, name);
        check_long_rows<int8_t>(rng, name);
        check_long_rows<uint8_t>(rng, name);
        check_long_rows<int16_t>(rng, name);
        check_long_rows<uint32_t>(rng, name);
        check_long_rows<int64_t>(rng, name);
    }
    hwy::SetSupportedTargetsForTest(0);  // back to what the CPU supports
}
