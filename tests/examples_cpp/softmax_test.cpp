// Golden test of the row-softmax example kernel (examples/softmax): random rows with a wide spread,
// rows of equal values, a partial last band, one and several blocks, fast and checked mode, against the
// double-precision reference.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "../examples/softmax/softmax_kernel.hpp"

namespace {

void expect_softmax(int rows, int cols, int blocks, bool checked)
{
    const bool was_checked = pto::runtime::checked();
    pto::runtime::set_checked(checked);
    std::vector<float> x(size_t(rows) * cols), y(x.size(), 0.0f);
    std::mt19937 rng(uint32_t(rows * 131 + cols));
    std::uniform_real_distribution<float> dist(-40.0f, 40.0f);
    for (float& v : x) v = dist(rng);
    for (int j = 0; j < cols; ++j) x[j] = 3.5f;  // a row of equal values: 1 / cols each
    x[size_t(cols)] = -1e30f;                    // a value whose exponential is 0
    pto::sim::launch(blocks, softmax::softmax_kernel, x.data(), y.data(), rows, cols);
    pto::runtime::set_checked(was_checked);
    for (int i = 0; i < rows; ++i) {
        const std::vector<double> want = softmax::reference(&x[size_t(i) * cols], cols);
        for (int j = 0; j < cols; ++j) {
            ASSERT_NEAR(y[size_t(i) * cols + j], want[j], 1e-5 * want[j] + 1e-37) << "row " << i << ", column " << j;
        }
    }
}

TEST(SoftmaxExample, MatchesTheDoublePrecisionReference) { expect_softmax(70, 1000, 4, false); }
TEST(SoftmaxExample, OneBlockCheckedMode) { expect_softmax(17, 77, 1, true); }

}  // namespace
