// Golden test of the layer-normalisation example kernel (examples/layernorm): random rows with an offset
// and a spread per row, a constant row, a partial last band, one and several blocks, fast and checked
// mode, against the double-precision reference.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "../examples/layernorm/layernorm_kernel.hpp"

namespace {

void expect_layernorm(int rows, int cols, int blocks, bool checked)
{
    const bool was_checked = pto::runtime::checked();
    pto::runtime::set_checked(checked);
    std::vector<float> x(size_t(rows) * cols), y(x.size(), 0.0f), gamma(static_cast<size_t>(cols)), beta(static_cast<size_t>(cols));
    std::mt19937 rng(uint32_t(rows * 131 + cols));
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (int i = 0; i < rows; ++i) {
        const float offset = 10.0f * unit(rng), spread = 0.1f + 5.0f * std::abs(unit(rng));
        for (int j = 0; j < cols; ++j) x[size_t(i) * cols + j] = offset + spread * unit(rng);
    }
    for (int j = 0; j < cols; ++j) {
        x[j] = 4.0f;  // a constant row: (x - mean) is 0, the result is beta
        gamma[j] = 1.0f + 0.5f * unit(rng);
        beta[j] = unit(rng);
    }
    pto::sim::launch(blocks, layernorm::layernorm_kernel, x.data(), gamma.data(), beta.data(), y.data(), rows, cols);
    pto::runtime::set_checked(was_checked);
    for (int i = 0; i < rows; ++i) {
        const float* row = &x[size_t(i) * cols];
        const std::vector<double> want = layernorm::reference(row, gamma.data(), beta.data(), cols);
        // Float's rounding of x - mean (a few ulp of the row's magnitude) scaled by 1 / sqrt(var + eps),
        // which a nearly constant row makes as large as 1 / sqrt(eps), and a relative 1e-5 besides.
        double magnitude = 0, mean = 0, var = 0;
        for (int j = 0; j < cols; ++j) magnitude = std::max(magnitude, std::abs(double(row[j]))), mean += row[j];
        mean /= cols;
        for (int j = 0; j < cols; ++j) var += (row[j] - mean) * (row[j] - mean) / cols;
        const double scale = 1.0 / std::sqrt(var + double(layernorm::kEpsilon));
        for (int j = 0; j < cols; ++j) {
            const double bound = 1e-5 * (1.0 + std::abs(want[j])) + 8 * 0x1p-24 * magnitude * scale * std::abs(gamma[j]);
            ASSERT_NEAR(y[size_t(i) * cols + j], want[j], bound) << "row " << i << ", column " << j;
        }
    }
}

TEST(LayerNormExample, MatchesTheDoublePrecisionReference) { expect_layernorm(70, 768, 4, false); }
TEST(LayerNormExample, OneBlockCheckedMode) { expect_layernorm(21, 100, 1, true); }

}  // namespace
