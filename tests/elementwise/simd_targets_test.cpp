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

// Integer quotients go through floating point on the vector targets: every pair of the type's special
// values (0, +-1, the ends, their neighbours) and random pairs, in every lane position, on every target.
template <typename T>
void check_integer_quotients(std::mt19937& rng, const std::string& target)
{
    using L = std::numeric_limits<T>;
    std::vector<T> special{0, 1, 2, 3, 7, L::max(), static_cast<T>(L::max() - 1), L::min(), static_cast<T>(L::min() + 1)};
    if constexpr (std::is_signed_v<T>) special.insert(special.end(), {-1, -2, -3, -7});
    std::vector<T> a, b;
    for (T x : special) {
        for (T y : special) a.push_back(x), b.push_back(y);
    }
    for (int i = 0; i < 1000; ++i) {
        a.push_back(random_value<T>(rng));
        b.push_back(i % 2 ? random_value<T>(rng) : static_cast<T>(1 + rng() % 300));
    }
    std::vector<T> q(a.size());
    const auto row = [](std::vector<T>& values) {
        TileDesc d;
        d.data = reinterpret_cast<std::byte*>(values.data());
        d.dtype = Elem<T>::dtype;
        d.rows = d.valid_rows = 1;
        d.cols = d.valid_cols = static_cast<int32_t>(values.size());
        return d;
    };
    ScopedChecked fast(false);  // zero divisors have their defined quotients
    engine::tdiv(row(q), row(a), row(b));
    for (std::size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(q[i], reference<T>(Arith::Div, a[i], b[i])) << target << ": " << +a[i] << " / " << +b[i];
    }
}

TEST(SimdTargets, EveryTargetDividesIntegersAsTheReference)
{
    std::mt19937 rng(43);
    for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        const std::string name = hwy::TargetName(target);
        check_integer_quotients<int16_t>(rng, name);
        check_integer_quotients<uint16_t>(rng, name);
        check_integer_quotients<int32_t>(rng, name);
        check_integer_quotients<uint32_t>(rng, name);
    }
    hwy::SetSupportedTargetsForTest(0);
}
