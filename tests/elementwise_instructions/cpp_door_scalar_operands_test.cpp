// The C++ door of the rows with a scalar operand (Scalar, ScalarTmp, ScalarBothSides, PowScalar): every row,
// every element type the cpu profile takes for it, every precision (cpp_door.hpp).
#include "elementwise_instructions/cpp_door.hpp"

namespace ewinstr {
namespace {

#define EWINSTR_TESTED_Unary(...)
#define EWINSTR_TESTED_Binary(...)
#define EWINSTR_TESTED_BinaryTmp(...)
#define EWINSTR_TESTED_Math(...)
#define EWINSTR_TESTED_Pow(...)
#define EWINSTR_TESTED_Scalar(...) __VA_ARGS__
#define EWINSTR_TESTED_ScalarTmp(...) __VA_ARGS__
#define EWINSTR_TESTED_ScalarBothSides(...) __VA_ARGS__
#define EWINSTR_TESTED_PowScalar(...) __VA_ARGS__
#define EWINSTR_TESTED_Ternary3(...)
#define EWINSTR_TESTED_TernaryScalar(...)
#define EWINSTR_TESTED_DstProduct(...)
#define EWINSTR_TESTED_DstScaled(...)
#define EWINSTR_TESTED_Axpy(...)
#define EWINSTR_TESTED_Expand(...)
const RowRunner kRunners[] = {
#define PTO_ELEMENTWISE(NAME, entry, OpName, KindName, Mode, Precision, A2A3_DTYPES, A5_DTYPES, CPU_DTYPES) \
    EWINSTR_TESTED_##KindName(EWINSTR_ROW_RUNNER(NAME, entry, KindName, Mode, Precision))
#include <pto/isa/instructions.def>
#undef PTO_ELEMENTWISE
};

class CppDoorScalarOperands : public ::testing::TestWithParam<RowRunner> {};

TEST_P(CppDoorScalarOperands, EveryElementTypeMatchesTheReference) { run_row(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Rows, CppDoorScalarOperands, ::testing::ValuesIn(kRunners),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace

std::span<const RowRunner> scalar_operand_runners() { return kRunners; }

// The two translation units together test every row of instructions.def, each once.
TEST(CppDoor, EveryRowIsTestedOnce)
{
    std::vector<std::string_view> tested;
    for (const RowRunner& r : tile_operand_runners()) tested.push_back(r.name);
    for (const RowRunner& r : scalar_operand_runners()) tested.push_back(r.name);
    std::vector<std::string_view> rows;
    for (const Row& r : kRows) rows.push_back(r.name);
    std::sort(tested.begin(), tested.end());
    std::sort(rows.begin(), rows.end());
    EXPECT_EQ(tested, rows);
}

}  // namespace ewinstr
