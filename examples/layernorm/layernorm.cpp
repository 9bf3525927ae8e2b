// Layer normalisation over a large tensor through the C++ intrinsics, checked against a
// double-precision reference.
//   layernorm [ROWS COLS BLOCKS]   (COLS up to 1024)
#include <acl/acl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "layernorm_kernel.hpp"

int main(int argc, char** argv)
{
    const int rows = argc > 1 ? std::atoi(argv[1]) : 4096;
    const int cols = argc > 2 ? std::atoi(argv[2]) : 768;
    const int blocks = argc > 3 ? std::atoi(argv[3]) : 8;
    if (rows < 1 || cols < 1 || cols > layernorm::kMaxCols || blocks < 1) {
        std::fprintf(stderr, "layernorm: need ROWS >= 1, 1 <= COLS <= %d, BLOCKS >= 1\n", layernorm::kMaxCols);
        return 2;
    }
    const size_t n = size_t(rows) * cols;
    std::vector<float> hx(n), hy(n), hg(static_cast<size_t>(cols)), hb(static_cast<size_t>(cols));
    std::mt19937 rng(13);
    std::uniform_real_distribution<float> dist(-3.0f, 3.0f);
    for (float& v : hx) v = dist(rng);
    for (int j = 0; j < cols; ++j) hg[j] = 1.0f + 0.1f * dist(rng), hb[j] = 0.1f * dist(rng);

    const auto device_copy = [](const std::vector<float>& host) {
        void* p;
        const size_t bytes = host.size() * sizeof(float);
        aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemcpy(p, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
        return static_cast<float*>(p);
    };
    float *dx = device_copy(hx), *dg = device_copy(hg), *db = device_copy(hb), *dy = device_copy(hy);
    const auto start = std::chrono::steady_clock::now();
    pto::sim::launch(blocks, layernorm::layernorm_kernel, dx, dg, db, dy, rows, cols);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    aclrtMemcpy(hy.data(), n * sizeof(float), dy, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);

    double worst = 0;
    for (int i = 0; i < rows; ++i) {
        const std::vector<double> want = layernorm::reference(&hx[size_t(i) * cols], hg.data(), hb.data(), cols);
        for (int j = 0; j < cols; ++j)
            worst = std::max(worst, std::abs(hy[size_t(i) * cols + j] - want[j]) / (1.0 + std::abs(want[j])));
    }
    const bool pass = worst < 1e-5;
    std::printf("layernorm: %d x %d floats, %d blocks, %.3f s; worst error %.2e (relative to 1 + |y|) -> %s\n", rows,
                cols, blocks, seconds, worst, pass ? "PASS" : "FAIL");
    for (float* p : {dx, dg, db, dy}) aclrtFree(p);
    return pass ? 0 : 1;
}
