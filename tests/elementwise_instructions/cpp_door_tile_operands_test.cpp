// The C++ door of the rows whose operands are all tiles (Unary, Binary, BinaryTmp, Math, Pow): every row,
// every element type the cpu profile takes for it, every precision (cpp_door.hpp).
#include "elementwise_instructions/cpp_door.hpp"

namespace ewinstr {
namespace {

#define EWINSTR_TESTED_Unary(...) __VA_ARGS__
#define EWINSTR_TESTED_Binary(...) __VA_ARGS__
#define EWINSTR_TESTED_BinaryTmp(...) __VA_ARGS__
#define EWINSTR_TESTED_Math(...) __VA_ARGS__
#define EWINSTR_TESTED_Pow(...) __VA_ARGS__
#define EWINSTR_TESTED_Scalar(...)
#define EWINSTR_TESTED_ScalarTmp(...)
#define EWINSTR_TESTED_ScalarBothSides(...)
#define EWINSTR_TESTED_PowScalar(...)
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

class CppDoorTileOperands : public ::testing::TestWithParam<RowRunner> {};

TEST_P(CppDoorTileOperands, EveryElementTypeMatchesTheReference) { run_row(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Rows, CppDoorTileOperands, ::testing::ValuesIn(kRunners),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace

std::span<const RowRunner> tile_operand_runners() { return kRunners; }

}  // namespace ewinstr
