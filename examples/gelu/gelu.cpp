// GELU over a large tensor through the C++ intrinsics, checked against a double-precision reference.
//   gelu [ROWS COLS BLOCKS]
#include <acl/acl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "gelu_kernel.hpp"

int main(int argc, char** argv)
{
    const int rows = argc > 1 ? std::atoi(argv[1]) : 2048;
    const int cols = argc > 2 ? std::atoi(argv[2]) : 3000;
    const int blocks = argc > 3 ? std::atoi(argv[3]) : 8;
    const size_t n = size_t(rows) * cols, bytes = n * sizeof(float);

    std::vector<float> hx(n), hy(n);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-12.0f, 12.0f);
    for (float& v : hx) v = dist(rng);

    void *dx, *dy;
    aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, bytes, hx.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    const auto start = std::chrono::steady_clock::now();
    pto::sim::launch(blocks, gelu::gelu_kernel, static_cast<float*>(dx), static_cast<float*>(dy), rows, cols);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    aclrtMemcpy(hy.data(), bytes, dy, bytes, ACL_MEMCPY_DEVICE_TO_HOST);

    double worst = 0;
    for (size_t i = 0; i < n; ++i) {
        const double want = gelu::reference(hx[i]);
        worst = std::max(worst, std::abs(hy[i] - want) / std::max(std::abs(want), 1e-3));
    }
    const bool pass = worst < 2e-5;
    std::printf("gelu: %d x %d floats, %d blocks, %.3f s; worst relative error %.2e -> %s\n", rows, cols, blocks,
                seconds, worst, pass ? "PASS" : "FAIL");
    aclrtFree(dx);
    aclrtFree(dy);
    return pass ? 0 : 1;
}
