// A kernel and its host harness written only against the documented PTO and ACL APIs: no ptosim
// names. It must compile and run unchanged for every PTO_TARGET.
#include <pto/pto-inst.hpp>

#include <acl/acl.h>

#include <cstdio>

using namespace pto;

constexpr int kRows = 16;
constexpr int kCols = 64;

__global__ AICORE void scaled_sum(__gm__ float* out, __gm__ float* x, __gm__ float* y)
{
    using TileData = Tile<TileType::Vec, float, kRows, kCols, BLayout::RowMajor, kRows, kCols>;
    using GlobalData = GlobalTensor<float, Shape<1, 1, 1, kRows, kCols>, Stride<1, 1, 1, kCols, 1>>;
    TileData a, b, c;
    TASSIGN(a, 0x0);
    TASSIGN(b, 0x1000);
    TASSIGN(c, 0x2000);
    GlobalData gx(x), gy(y), gout(out);

    TLOAD(a, gx);
    TLOAD(b, gy);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(c, a, b);
    TMUL(c, c, a);
    TSUB(c, c, b);
    TDIV(c, c, b);
    pipe_barrier(PIPE_V);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(gout, c);
}

int main()
{
    constexpr size_t n = kRows * kCols, bytes = n * sizeof(float);
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream;
    aclrtCreateStream(&stream);
    float *hx, *hy, *hout;
    aclrtMallocHost(reinterpret_cast<void**>(&hx), bytes);
    aclrtMallocHost(reinterpret_cast<void**>(&hy), bytes);
    aclrtMallocHost(reinterpret_cast<void**>(&hout), bytes);
    for (size_t i = 0; i < n; ++i) {
        hx[i] = 0.25f * float(i % 37) - 3.0f;
        hy[i] = 1.0f + 0.5f * float(i % 11);
    }
    void *dx, *dy, *dout;
    aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dout, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, bytes, hx, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dy, bytes, hy, bytes, ACL_MEMCPY_HOST_TO_DEVICE);

    scaled_sum(static_cast<float*>(dout), static_cast<float*>(dx), static_cast<float*>(dy));
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(hout, bytes, dout, bytes, ACL_MEMCPY_DEVICE_TO_HOST);

    int bad = 0;
    for (size_t i = 0; i < n; ++i) {
        float c = hx[i] + hy[i];
        c = c * hx[i];
        c = c - hy[i];
        c = c / hy[i];
        bad += hout[i] != c;
    }
    std::printf("api_kernel: %d of %zu elements differ\n", bad, n);

    aclrtFree(dx);
    aclrtFree(dy);
    aclrtFree(dout);
    aclrtFreeHost(hx);
    aclrtFreeHost(hy);
    aclrtFreeHost(hout);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return bad == 0 ? 0 : 2;
}
