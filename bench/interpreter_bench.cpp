// The PTO-AS interpreter against compiled C++ on the same work: load two 64x256 float tiles, apply
// TADD to them 1000 times in a loop, store the result. The program is parsed, verified and lowered
// once, outside the timed loop; each timed iteration is one run of it. The yardstick is the same
// kernel written with the C++ intrinsics, timed for as many calls in the same process:
//   ratio_vs_cpp  interpreter time / C++ kernel time (1 means the interpreter costs nothing)
#include <pto/pto-inst.hpp>

#include <benchmark/benchmark.h>

#include <cstddef>
#include <string>
#include <vector>

#include "thread_clock.hpp"

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"

namespace {

constexpr int kRows = 64;
constexpr int kCols = 256;
constexpr int kRepetitions = 1000;

constexpr std::string_view kProgram = R"(
module {
  func.func @tadd_loop(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %c: !pto.ptr<f32>) attributes {pto.entry} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = arith.constant 64 : index
    %cols = arith.constant 256 : index
    %repetitions = arith.constant 1000 : index
    %av = pto.make_tensor_view %a, shape = [%rows, %cols], strides = [%cols, %c1] : !pto.tensor_view<?x?xf32>
    %bv = pto.make_tensor_view %b, shape = [%rows, %cols], strides = [%cols, %c1] : !pto.tensor_view<?x?xf32>
    %cv = pto.make_tensor_view %c, shape = [%rows, %cols], strides = [%cols, %c1] : !pto.tensor_view<?x?xf32>
    %ap = pto.partition_view %av, offsets = [%c0, %c0], sizes = [%rows, %cols] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<64x256xf32>
    %bp = pto.partition_view %bv, offsets = [%c0, %c0], sizes = [%rows, %cols] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<64x256xf32>
    %cp = pto.partition_view %cv, offsets = [%c0, %c0], sizes = [%rows, %cols] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<64x256xf32>
    %ta = pto.alloc_tile : !pto.tile_buf<vec, 64x256xf32>
    %tb = pto.alloc_tile : !pto.tile_buf<vec, 64x256xf32>
    %tc = pto.alloc_tile : !pto.tile_buf<vec, 64x256xf32>
    pto.tload ins(%ap : !pto.partition_tensor_view<64x256xf32>) outs(%ta : !pto.tile_buf<vec, 64x256xf32>)
    pto.tload ins(%bp : !pto.partition_tensor_view<64x256xf32>) outs(%tb : !pto.tile_buf<vec, 64x256xf32>)
    scf.for %i = %c0 to %repetitions step %c1 {
      pto.tadd ins(%ta, %tb : !pto.tile_buf<vec, 64x256xf32>, !pto.tile_buf<vec, 64x256xf32>) outs(%tc : !pto.tile_buf<vec, 64x256xf32>)
    }
    pto.tstore ins(%tc : !pto.tile_buf<vec, 64x256xf32>) outs(%cp : !pto.partition_tensor_view<64x256xf32>)
    return
  }
}
)";

// The same kernel through the intrinsics, compiled.
void tadd_loop(float* a, float* b, float* c)
{
    using namespace pto;
    using TileT = Tile<TileType::Vec, float, kRows, kCols>;
    using View = GlobalTensor<float, Shape<1, 1, 1, kRows, kCols>, Stride<1, 1, 1, kCols, 1>>;
    View av(a), bv(b), cv(c);
    TileT ta, tb, tc;
    TLOAD(ta, av);
    TLOAD(tb, bv);
    for (int i = 0; i < kRepetitions; ++i) TADD(tc, ta, tb);
    TSTORE(cv, tc);
}

void BM_InterpretTaddLoop(benchmark::State& state)
{
    std::vector<float> a(kRows * kCols), b(a.size()), c(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        a[i] = 0.25f * float(i % 97) - 7.0f;
        b[i] = 1.0f + 0.125f * float(i % 13);
    }

    const double setup_start = thread_seconds();
    const pto::as::ParseResult parsed = pto::as::parse(kProgram, "tadd_loop.pto");
    std::vector<pto::Diagnostic> problems = parsed.diagnostics;
    if (problems.empty()) problems = pto::as::verify(parsed.module, pto::profile::Target::Cpu);
    if (!problems.empty()) {
        state.SkipWithError(problems.front().format().c_str());
        return;
    }
    const pto::as::Interpreter interpreter(parsed.module);
    const double setup = thread_seconds() - setup_start;

    const auto bytes = a.size() * sizeof(float);
    auto bind = [&](const char* name, std::vector<float>& array) {
        return pto::as::ArgumentBinding{name, reinterpret_cast<std::byte*>(array.data()), bytes, pto::engine::DType::F32, {}};
    };
    const std::vector<pto::as::ArgumentBinding> args{bind("a", a), bind("b", b), bind("c", c)};

    const double start = thread_seconds();
    for (auto _ : state) {
        const pto::as::RunResult result = interpreter.run(args);
        if (!result.ok()) {
            state.SkipWithError(result.diagnostics.front().format().c_str());
            return;
        }
        benchmark::ClobberMemory();
    }
    const int64_t calls = state.iterations();
    const double interpreted = (thread_seconds() - start) / double(calls);

    const double cpp_start = thread_seconds();
    for (int64_t i = 0; i < calls; ++i) {
        tadd_loop(a.data(), b.data(), c.data());
        benchmark::ClobberMemory();
    }
    const double compiled = (thread_seconds() - cpp_start) / double(calls);

    state.counters["ratio_vs_cpp"] = interpreted / compiled;
    state.counters["us_per_tadd"] = interpreted * 1e6 / kRepetitions;
    state.counters["setup_us"] = setup * 1e6;  // parse + verify + lower, once
}

}  // namespace

BENCHMARK(BM_InterpretTaddLoop)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
