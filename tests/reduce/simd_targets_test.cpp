// The reduction loops are compiled for every SIMD target Highway knows and one is picked at run time.
// Every target this CPU can run must give the reference bits: the order of the float additions does not
// depend on the vector width, and NaN results are the canonical NaN whatever their operands.
#include "reduce/support.hpp"

#include <hwy/targets.h>

using namespace pto;
using namespace reducetest;

namespace {

template <typename T>
void check_lengths(std::mt19937& rng, const std::string& target)
{
    const auto& cpu = profile::profile_of(profile::Target::Cpu);
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min, ReduceOp::Prod}) {
        for (int length : {1, 3, 8, 15, 16, 17, 63, 64, 65, 127, 128, 129, 200, 1000}) {
            const std::string context = target + ", length " + std::to_string(length);
            if (rules::row_reduce_dtype_ok(cpu, op, Elem<T>::dtype)) {
                check_reduction<T>(rng, op, true, 3, length, 2, false, [op](const TileDesc& d, const TileDesc& s) {
                    if (op == ReduceOp::Sum) engine::trowsum(d, s, nullptr);
                    else if (op == ReduceOp::Max) engine::trowmax(d, s, nullptr);
                    else if (op == ReduceOp::Min) engine::trowmin(d, s, nullptr);
                    else engine::trowprod(d, s, nullptr);
                }, "rows, " + context);
            }
            if (rules::col_reduce_dtype_ok(cpu, op, Elem<T>::dtype)) {
                check_reduction<T>(rng, op, false, length % 90 + 1, length, 0, false, [op](const TileDesc& d, const TileDesc& s) {
                    if (op == ReduceOp::Sum) engine::tcolsum(d, s, nullptr, false);
                    else if (op == ReduceOp::Max) engine::tcolmax(d, s);
                    else if (op == ReduceOp::Min) engine::tcolmin(d, s);
                    else engine::tcolprod(d, s);
                }, "columns, " + context);
            }
            if (testing::Test::HasFatalFailure()) return;
        }
    }
}

TEST(ReduceSimdTargets, EveryTargetThisCpuRunsGivesTheReferenceBits)
{
    const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
    ASSERT_FALSE(targets.empty());
    for (int64_t target : targets) {
        hwy::SetSupportedTargetsForTest(target);
        const std::string name = hwy::TargetName(target);
        std::mt19937 rng(77);  // the same sources on every target
        check_lengths<float>(rng, name);
        check_lengths<half>(rng, name);
        check_lengths<bfloat16_t>(rng, name);
        check_lengths<int8_t>(rng, name);
        check_lengths<uint16_t>(rng, name);
        check_lengths<int32_t>(rng, name);
        check_lengths<int64_t>(rng, name);
        if (HasFatalFailure()) break;
    }
    hwy::SetSupportedTargetsForTest(0);  // back to what the CPU supports
}

}  // namespace
