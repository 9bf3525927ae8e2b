// Golden test of the GELU example kernel (examples/gelu): random inputs over the whole interesting
// range, including large magnitudes, a partial last tile in both dimensions, one and several blocks,
// fast and checked mode, against the double-precision reference.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "../examples/gelu/gelu_kernel.hpp"

namespace {

void expect_gelu(int rows, int cols, int blocks, bool checked)
{
    const bool was_checked = pto::runtime::checked();
    pto::runtime::set_checked(checked);
    std::vector<float> x(size_t(rows) * cols), y(x.size(), 0.0f);
    std::mt19937 rng(uint32_t(rows * 131 + cols));
    std::uniform_real_distribution<float> dist(-30.0f, 30.0f);
    for (float& v : x) v = dist(rng);
    x[0] = 0.0f;
    x[1] = -0.0f;
    x[2] = 1e-30f;
    x[3] = -88.0f;
    pto::sim::launch(blocks, gelu::gelu_kernel, x.data(), y.data(), rows, cols);
    pto::runtime::set_checked(was_checked);
    for (size_t i = 0; i < x.size(); ++i) {
        const double want = gelu::reference(x[i]);
        ASSERT_NEAR(y[i], want, 2e-5 * std::max(std::abs(want), 1e-3)) << "x = " << x[i] << " at " << i;
    }
}

TEST(GeluExample, MatchesTheDoublePrecisionReference) { expect_gelu(100, 600, 4, false); }
TEST(GeluExample, OneBlockCheckedMode) { expect_gelu(33, 257, 1, true); }

}  // namespace
