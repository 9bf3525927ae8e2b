// The vector micro-instructions against the tile instruction on the same work: c = a + b over two
// 64x256 f32 tiles in UB, written once as a pto.vlds / pto.vadd / pto.vsts loop over 256-byte vectors
// (256 vectors per tile) and once as TADD, both in PTO-AS, each repeated 100 times in one run. The
// programs are parsed, verified and lowered once, outside the timed loops.
//   ratio_vs_tadd  vector loop time / TADD time (issue target: at most 3)
//   ns_per_vector  the time of one vlds, vlds, vadd, vsts step of the loop
#include <benchmark/benchmark.h>

#include <cstddef>
#include <string>
#include <vector>

#include "thread_clock.hpp"

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"

namespace {

constexpr int kElements = 64 * 256;
constexpr int kRepetitions = 100;

// Loads a and b into UB tiles at 0 and 64 KiB, runs BODY (with %ta, %tb, %tc, %c0, %c1, %reps) and
// stores the tile at 128 KiB to c.
std::string program(const std::string& body)
{
    return R"(
func.func @k(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %c: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant 64 : index
  %cols = arith.constant 256 : index
  %reps = arith.constant 100 : index
  %at_a = arith.constant 0 : i64
  %at_b = arith.constant 65536 : i64
  %at_c = arith.constant 131072 : i64
  %av = pto.make_tensor_view %a, shape = [%rows, %cols], strides = [%cols, %c1] : !pto.tensor_view<?x?xf32>
  %bv = pto.make_tensor_view %b, shape = [%rows, %cols], strides = [%cols, %c1] : !pto.tensor_view<?x?xf32>
  %cv = pto.make_tensor_view %c, shape = [%rows, %cols], strides = [%cols, %c1] : !pto.tensor_view<?x?xf32>
  %ap = pto.partition_view %av, offsets = [%c0, %c0], sizes = [%rows, %cols] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<64x256xf32>
  %bp = pto.partition_view %bv, offsets = [%c0, %c0], sizes = [%rows, %cols] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<64x256xf32>
  %cp = pto.partition_view %cv, offsets = [%c0, %c0], sizes = [%rows, %cols] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<64x256xf32>
  %ta = pto.alloc_tile addr = %at_a : !pto.tile_buf<vec, 64x256xf32>
  %tb = pto.alloc_tile addr = %at_b : !pto.tile_buf<vec, 64x256xf32>
  %tc = pto.alloc_tile addr = %at_c : !pto.tile_buf<vec, 64x256xf32>
  pto.tload ins(%ap : !pto.partition_tensor_view<64x256xf32>) outs(%ta : !pto.tile_buf<vec, 64x256xf32>)
  pto.tload ins(%bp : !pto.partition_tensor_view<64x256xf32>) outs(%tb : !pto.tile_buf<vec, 64x256xf32>)
)" + body + R"(
  pto.tstore ins(%tc : !pto.tile_buf<vec, 64x256xf32>) outs(%cp : !pto.partition_tensor_view<64x256xf32>)
  return
}
)";
}

const std::string kVectorLoop = program(R"(
  %ua = pto.castptr %at_a : i64 -> !pto.ptr<f32, ub>
  %ub = pto.castptr %at_b : i64 -> !pto.ptr<f32, ub>
  %uc = pto.castptr %at_c : i64 -> !pto.ptr<f32, ub>
  %c64 = arith.constant 64 : index
  %n = arith.constant 16384 : index
  scf.for %rep = %c0 to %reps step %c1 {
    pto.vecscope {
      %all = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
      scf.for %off = %c0 to %n step %c64 {
        %x = pto.vlds %ua[%off] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
        %y = pto.vlds %ub[%off] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
        %s = pto.vadd %x, %y, %all : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
        pto.vsts %s, %uc[%off], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
      }
    }
  })");

const std::string kTileLoop = program(R"(
  scf.for %rep = %c0 to %reps step %c1 {
    pto.tadd ins(%ta, %tb : !pto.tile_buf<vec, 64x256xf32>, !pto.tile_buf<vec, 64x256xf32>) outs(%tc : !pto.tile_buf<vec, 64x256xf32>)
  })");

struct Timed {
    double seconds = 0;
    std::string error;
};

// Seconds per run of `text`, over `runs` runs; checks c = a + b after them.
Timed time_program(const std::string& text, int64_t runs)
{
    std::vector<float> a(kElements), b(kElements), c(kElements);
    for (int i = 0; i < kElements; ++i) {
        a[std::size_t(i)] = 0.25f * float(i % 97) - 7.0f;
        b[std::size_t(i)] = 1.0f + 0.125f * float(i % 13);
    }
    const pto::as::ParseResult parsed = pto::as::parse(text, "vector_add.pto");
    std::vector<pto::Diagnostic> problems = parsed.diagnostics;
    if (problems.empty()) problems = pto::as::verify(parsed.module, pto::profile::Target::Cpu);
    if (!problems.empty()) return {0, problems.front().format()};
    const pto::as::Interpreter interpreter(parsed.module);
    auto bind = [](const char* name, std::vector<float>& v) {
        return pto::as::ArgumentBinding{name, reinterpret_cast<std::byte*>(v.data()), v.size() * sizeof(float), pto::engine::DType::F32, {}};
    };
    const std::vector<pto::as::ArgumentBinding> args{bind("a", a), bind("b", b), bind("c", c)};
    const double start = thread_seconds();
    for (int64_t i = 0; i < runs; ++i) {
        const pto::as::RunResult r = interpreter.run(args);
        if (!r.ok()) return {0, r.diagnostics.front().format()};
        benchmark::ClobberMemory();
    }
    const double seconds = (thread_seconds() - start) / double(runs);
    for (int i = 0; i < kElements; ++i)
        if (c[std::size_t(i)] != a[std::size_t(i)] + b[std::size_t(i)]) return {0, "wrong sum at element " + std::to_string(i)};
    return {seconds, {}};
}

void BM_VectorAddLoopVsTadd(benchmark::State& state)
{
    Timed vector;
    for (auto _ : state) {
        vector = time_program(kVectorLoop, 1);
        if (!vector.error.empty()) return state.SkipWithError(vector.error.c_str());
    }
    const int64_t runs = std::max<int64_t>(state.iterations(), 3);
    vector = time_program(kVectorLoop, runs);
    const Timed tile = time_program(kTileLoop, runs);
    if (!tile.error.empty()) return state.SkipWithError(tile.error.c_str());
    state.counters["ratio_vs_tadd"] = vector.seconds / tile.seconds;
    state.counters["ns_per_vector"] = vector.seconds * 1e9 / (double(kRepetitions) * kElements / 64);
}

}  // namespace

BENCHMARK(BM_VectorAddLoopVsTadd)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
