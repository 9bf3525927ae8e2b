// Flash attention (forward) through the C++ intrinsics at a real size: runs the kernel, checks every
// output against the double-precision reference, and times it against a straightforward OpenBLAS
// attention (one thread) in the same run.
//   flash_attention [SEQ D HEADS causal|full BLOCKS]   (SEQ a multiple of 64; D 64 or 128)
#include <acl/acl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "blas_attention.hpp"
#include "flash_attention_kernel.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <int D>
int run(flash_attention::Problem p, int blocks)
{
    const size_t n = size_t(p.heads) * p.seq * D, bytes_in = n * sizeof(half), bytes_out = n * sizeof(float);
    std::vector<half> hq(n), hk(n), hv(n);
    std::vector<float> ho(n);
    std::mt19937 rng(2026);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    // Queries and keys of magnitude up to 3: logits up to about 3 * sqrt(D), large enough that an
    // attention without the running maximum would overflow its exponentials.
    for (auto& x : hq) x = half(3.0f * unit(rng));
    for (auto& x : hk) x = half(3.0f * unit(rng));
    for (auto& x : hv) x = half(unit(rng));

    void *dq, *dk, *dv, *dout;
    aclrtMalloc(&dq, bytes_in, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dk, bytes_in, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dv, bytes_in, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dout, bytes_out, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dq, bytes_in, hq.data(), bytes_in, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dk, bytes_in, hk.data(), bytes_in, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dv, bytes_in, hv.data(), bytes_in, ACL_MEMCPY_HOST_TO_DEVICE);
    auto start = std::chrono::steady_clock::now();
    pto::sim::launch(blocks, flash_attention::flash_attention_kernel<D>, static_cast<half*>(dq), static_cast<half*>(dk),
                     static_cast<half*>(dv), static_cast<float*>(dout), p);
    const double ours = seconds_since(start);
    aclrtMemcpy(ho.data(), bytes_out, dout, bytes_out, ACL_MEMCPY_DEVICE_TO_HOST);

    // The yardstick, from float copies made outside its timing.
    openblas_set_num_threads(1);
    std::vector<float> fq(hq.begin(), hq.end()), fk(hk.begin(), hk.end()), fv(hv.begin(), hv.end()), fo(n);
    flash_attention::BlasAttention blas(p.seq, D);
    start = std::chrono::steady_clock::now();
    for (int h = 0; h < p.heads; ++h) {
        const size_t at = size_t(h) * p.seq * D;
        blas.run_head(&fq[at], &fk[at], &fv[at], &fo[at], p.causal);
    }
    const double yardstick = seconds_since(start);

    // The reference costs seq^2 D per head in double precision: above 1024 tokens, 1024 rows spread over
    // every head's blocks (each block's first and last row among them) are checked.
    const int step = std::max(1, p.seq / 1024);
    double worst = 0;
    int checked_rows = 0;
    for (int h = 0; h < p.heads; ++h) {
        const size_t at = size_t(h) * p.seq * D;
        for (int i = 0; i < p.seq; ++i) {
            if (i % step != 0 && i % flash_attention::kBlock != flash_attention::kBlock - 1) continue;
            const std::vector<double> want = flash_attention::reference_row(&hq[at], &hk[at], &hv[at], p.seq, D, p.causal, i);
            for (int c = 0; c < D; ++c) worst = std::max(worst, std::abs(double(ho[at + size_t(i) * D + c]) - want[size_t(c)]));
            ++checked_rows;
        }
    }
    const bool pass = worst < 2e-3;
    const double flops = 4.0 * p.heads * double(p.seq) * p.seq * D * (p.causal ? 0.5 : 1.0);
    std::printf("flash_attention: %d heads x %d tokens, D = %d, %s, %d blocks on %u threads%s: %.3f s (%.1f GFLOP/s)\n", p.heads,
                p.seq, D, p.causal ? "causal" : "full", blocks, std::min<unsigned>(pto::sim::threads(), unsigned(blocks)),
                pto::runtime::checked() ? ", checked mode" : "", ours,
                flops / ours * 1e-9);
    std::printf("  OpenBLAS attention (S = QK^T, softmax, PV; one thread): %.3f s -> ratio %.2f\n", yardstick,
                ours / yardstick);
    std::printf("  worst absolute error against the double-precision reference (%d rows): %.2e -> %s\n", checked_rows,
                worst, pass ? "PASS" : "FAIL");
    for (void* d : {dq, dk, dv, dout}) aclrtFree(d);
    return pass ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv)
{
    flash_attention::Problem p;
    p.seq = argc > 1 ? std::atoi(argv[1]) : 2048;
    const int d = argc > 2 ? std::atoi(argv[2]) : 128;
    p.heads = argc > 3 ? std::atoi(argv[3]) : 2;
    p.causal = argc > 4 && std::strcmp(argv[4], "causal") == 0;
    const int blocks = argc > 5 ? std::atoi(argv[5]) : 8;
    if (p.seq < flash_attention::kBlock || p.seq % flash_attention::kBlock != 0 || (d != 64 && d != 128) || p.heads < 1 ||
        blocks < 1) {
        std::fprintf(stderr, "flash_attention: need SEQ a multiple of %d, D 64 or 128, HEADS >= 1, BLOCKS >= 1\n",
                     flash_attention::kBlock);
        return 2;
    }
    return d == 64 ? run<64>(p, blocks) : run<128>(p, blocks);
}
