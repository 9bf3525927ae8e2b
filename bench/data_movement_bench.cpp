// Throughput of TLOAD + TSTORE against memcpy, the memory-bandwidth yardstick, in one run.
//
// A 4096 x 4096 float tensor is copied to a second one tile by tile (64 x 256 float Vec tiles: TLOAD
// into UB, TSTORE out), and the same 64 MiB are copied with one memcpy. Both report the tensor's
// bytes per second; the tile pass also reports ratio_vs_memcpy, its time per pass over the time of the
// memcpy yardstick measured in the same process (2.0 would mean "as slow as two memcpys").
#include <pto/pto-inst.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace {

constexpr int kRows = 4096;
constexpr int kCols = 4096;
constexpr int kTileRows = 64;
constexpr int kTileCols = 256;
constexpr std::size_t kBytes = std::size_t(kRows) * kCols * sizeof(float);

struct FreeDeleter {
    void operator()(float* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<float[], FreeDeleter>;

Buffer make_buffer(float seed)
{
    Buffer b(static_cast<float*>(std::aligned_alloc(4096, kBytes)));
    for (std::size_t i = 0; i < std::size_t(kRows) * kCols; ++i)
        b[i] = seed + float(i % 1021);
    return b;
}

struct Tensors {
    Buffer src = make_buffer(1.0f);
    Buffer dst = make_buffer(-1.0f);
};

Tensors& tensors()
{
    static Tensors t;
    return t;
}

// Seconds per memcpy of the whole tensor: the mean of a few repetitions after a warm-up.
double memcpy_seconds()
{
    Tensors& t = tensors();
    std::memcpy(t.dst.get(), t.src.get(), kBytes);
    constexpr int kRepetitions = 5;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kRepetitions; ++i) {
        std::memcpy(t.dst.get(), t.src.get(), kBytes);
        benchmark::ClobberMemory();
    }
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    return elapsed.count() / kRepetitions;
}

void copy_tile_by_tile(float* dst, const float* src)
{
    using namespace pto;
    using TileT = Tile<TileType::Vec, float, kTileRows, kTileCols>;
    using View = GlobalTensor<float, Shape<1, 1, 1, kTileRows, kTileCols>, Stride<1, 1, 1, kCols, 1>>;
    TileT tile;
    TASSIGN(tile, 0x0);
    for (int r = 0; r < kRows; r += kTileRows) {
        for (int c = 0; c < kCols; c += kTileCols) {
            View in(const_cast<float*>(src) + std::size_t(r) * kCols + c);
            View out(dst + std::size_t(r) * kCols + c);
            TLOAD(tile, in);
            TSTORE(out, tile);
        }
    }
}

void BM_Memcpy(benchmark::State& state)
{
    Tensors& t = tensors();
    for (auto _ : state) {
        std::memcpy(t.dst.get(), t.src.get(), kBytes);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kBytes));
}

void BM_TloadTstore(benchmark::State& state)
{
    Tensors& t = tensors();
    const double yardstick = memcpy_seconds();
    double pass_seconds = 0.0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        copy_tile_by_tile(t.dst.get(), t.src.get());
        benchmark::ClobberMemory();
        pass_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kBytes));
    state.counters["ratio_vs_memcpy"] = pass_seconds / double(state.iterations()) / yardstick;
    if (std::memcmp(t.dst.get(), t.src.get(), kBytes) != 0)
        state.SkipWithError("the tile pass did not copy the tensor");
}

BENCHMARK(BM_Memcpy)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TloadTstore)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
