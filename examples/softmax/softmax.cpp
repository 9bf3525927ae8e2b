// Row softmax over a large tensor through the C++ intrinsics, checked against a double-precision
// reference.
//   softmax [ROWS COLS BLOCKS]   (COLS up to 1024)
#include <acl/acl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "softmax_kernel.hpp"

int main(int argc, char** argv)
{
    const int rows = argc > 1 ? std::atoi(argv[1]) : 4096;
    const int cols = argc > 2 ? std::atoi(argv[2]) : 1000;
    const int blocks = argc > 3 ? std::atoi(argv[3]) : 8;
    if (rows < 1 || cols < 1 || cols > softmax::kMaxCols || blocks < 1) {
        std::fprintf(stderr, "softmax: need ROWS >= 1, 1 <= COLS <= %d, BLOCKS >= 1\n", softmax::kMaxCols);
        return 2;
    }
    const size_t n = size_t(rows) * cols, bytes = n * sizeof(float);
    std::vector<float> hx(n), hy(n);
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> dist(-20.0f, 20.0f);
    for (float& v : hx) v = dist(rng);

    void *dx, *dy;
    aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, bytes, hx.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    const auto start = std::chrono::steady_clock::now();
    pto::sim::launch(blocks, softmax::softmax_kernel, static_cast<float*>(dx), static_cast<float*>(dy), rows, cols);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    aclrtMemcpy(hy.data(), bytes, dy, bytes, ACL_MEMCPY_DEVICE_TO_HOST);

    double worst = 0;
    for (int i = 0; i < rows; ++i) {
        const std::vector<double> want = softmax::reference(&hx[size_t(i) * cols], cols);
        for (int j = 0; j < cols; ++j)
            worst = std::max(worst, std::abs(hy[size_t(i) * cols + j] - want[j]) / std::max(want[j], 1e-30));
    }
    const bool pass = worst < 1e-5;
    std::printf("softmax: %d x %d floats, %d blocks, %.3f s; worst relative error %.2e -> %s\n", rows, cols, blocks,
                seconds, worst, pass ? "PASS" : "FAIL");
    aclrtFree(dx);
    aclrtFree(dy);
    return pass ? 0 : 1;
}
