// TPUSH<Pipe, TileProd, TConfig>: an accumulator pushed through the fixpipe as FixpipeParams configures
// it (every modelled quantization mode, scalar and per-column, ReLU, the three layouts, atomic add)
// and popped by the vector side, against the independent references of acc_quant_reference.hpp on
// random accumulators of random valid shapes; the popped tile is the consumer's local buffer slot; and
// the diagnostics of a missing or out-of-range configuration.
#include "acc_quant_reference.hpp"

#include <gtest/gtest.h>

#include "support/test_support.hpp"

#include <cstring>
#include <functional>
#include <random>

using namespace pto;
using namespace dmtest;
using pto::test::diagnostic_of;

namespace {

constexpr int M = 32, N = 64;
constexpr uint32_t kConsumerBuffer = 0x4000;

template <typename Acc>
using AccTile = TileAcc<Acc, M, N, DYNAMIC, DYNAMIC>;

template <typename Out, BLayout B = BLayout::RowMajor, SLayout S = SLayout::NoneBox>
using PoppedTile = Tile<TileType::Vec, Out, M, N, B, DYNAMIC, DYNAMIC, S>;

// A kernel's cube and vector halves on the calling thread: tile `acc` pushed with TConfig, popped into
// `out`, which the pop binds to the consumer buffer.
template <typename TConfig, typename Out, typename AccT, typename OutT>
void push_and_pop(AccT& acc, OutT& out)
{
    using P = TPipe<0, Direction::DIR_C2V, M * N * 4, 2>;
    P::reset_for_cpu_sim();
    P pipe(nullptr, kConsumerBuffer, 0);
    TPUSH<P, AccT, TConfig>(pipe, acc);
    TPOP<P, OutT, TILE_NO_SPLIT>(pipe, out);
    TFREE<P, TILE_NO_SPLIT>(pipe);
}

// out(r, c) against want(acc(r, c) * scale(c), ReLU'd) over the valid region.
template <typename OutT, typename AccT, typename Scale, typename Want>
void expect_converted(const OutT& out, const AccT& acc, int rows, int cols, bool relu, Scale scale, Want want)
{
    using Out = typename OutT::DType;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const Out got = out.GetValue(uint32_t(GetTileOffset<OutT>(r, c)));
            float q = float(acc_at(acc, r, c)) * scale(c);
            if (relu && q < 0) q = 0.0f;
            const Out expected = want(q);
            ASSERT_EQ(std::memcmp(&got, &expected, sizeof(Out)), 0) << r << ", " << c << ": q = " << q;
        }
}

template <typename Acc>
AccTile<Acc> random_accumulator(std::mt19937& rng, int& rows, int& cols)
{
    rows = 1 + int(rng() % M);
    cols = 1 + int(rng() % N);
    AccTile<Acc> acc(rows, cols);
    fill_accumulator(acc, rng);
    return acc;
}

const auto unscaled = [](int) { return 1.0f; };
const auto as_float = [](float q) { return q; };
const auto as_int8 = [](float q) { return quantized_integer<int8_t>(q); };
const auto as_uint8 = [](float q) { return quantized_integer<uint8_t>(q); };
const auto as_half = [](float q) { return half::from_bits(quantized_half(q)); };
const auto as_bfloat16 = [](float q) { return bfloat16_t::from_bits(quantized_bfloat16(q)); };

// One mode, with and without ReLU, on a fresh random accumulator each time.
template <typename Acc, typename Out, QuantMode_t Mode, typename Want>
void check_mode(std::mt19937& rng, Want want, float scale_value, bool per_column = false)
{
    for (bool relu : {false, true}) {
        SCOPED_TRACE(::testing::Message() << "mode " << int(Mode) << (relu ? " with ReLU" : ""));
        int rows = 0, cols = 0;
        auto acc = random_accumulator<Acc>(rng, rows, cols);
        Tile<TileType::Scaling, uint64_t, 1, N> table;
        std::vector<float> scales(N, scale_value);
        if (per_column) {
            std::uniform_real_distribution<float> s(-2.0f, 2.0f);
            TASSIGN(table, 0x40);
            for (int c = 0; c < N; ++c) {
                scales[c] = s(rng);
                table.SetValue(uint32_t(c), pre_quant(scales[c], std::is_same_v<Out, int8_t> ? 1u << 14 : 0));
            }
            SET_QUANT_VECTOR(table);
        } else {
            SET_QUANT_SCALAR<Out>(scale_value);
        }
        PoppedTile<Out> out(rows, cols);
        if (relu) {
            push_and_pop<FixpipeParams<LayoutMode_t::NZ2ND, Mode, ReluPreMode::NormalRelu>, Out>(acc, out);
        } else {
            push_and_pop<FixpipeParams<LayoutMode_t::NZ2ND, Mode>, Out>(acc, out);
        }
        expect_converted(out, acc, rows, cols, relu, [&](int c) { return scales[c]; }, want);
    }
}

TEST(TpushFixpipe, ConversionsWithoutAScaleKeepOrRoundTheAccumulator)
{
    std::mt19937 rng(3);
    check_mode<float, float, QuantMode_t::NoQuant>(rng, as_float, 1.0f);
    check_mode<float, half, QuantMode_t::F322F16>(rng, as_half, 1.0f);
    check_mode<float, bfloat16_t, QuantMode_t::F322BF16>(rng, as_bfloat16, 1.0f);
    check_mode<int32_t, int32_t, QuantMode_t::NoQuant>(rng, [](float q) { return int32_t(q); }, 1.0f);
}

TEST(TpushFixpipe, ScalarModesScaleByTheRegisterSetQuantScalarWrote)
{
    std::mt19937 rng(5);
    check_mode<float, int8_t, QuantMode_t::QF322B8_PRE>(rng, as_int8, 0.37f);
    check_mode<float, uint8_t, QuantMode_t::QF322B8_PRE>(rng, as_uint8, 0.5f);  // SET_QUANT_SCALAR<uint8_t>
    check_mode<float, half, QuantMode_t::QF322F16_PRE>(rng, as_half, -3.25f);
    check_mode<float, bfloat16_t, QuantMode_t::QF322BF16_PRE>(rng, as_bfloat16, 1e-3f);
    check_mode<int32_t, half, QuantMode_t::DEQF16>(rng, as_half, 1.0f / 1024);
    check_mode<int32_t, int8_t, QuantMode_t::REQ8>(rng, as_int8, 1.0f / 4096);
    check_mode<int32_t, bfloat16_t, QuantMode_t::QS322BF16_PRE>(rng, as_bfloat16, 0.75f);
}

TEST(TpushFixpipe, VectorModesScaleEachColumnByItsWordOfTheTable)
{
    std::mt19937 rng(7);
    check_mode<int32_t, half, QuantMode_t::VDEQF16>(rng, as_half, 0, true);
    check_mode<int32_t, int8_t, QuantMode_t::VREQ8>(rng, as_int8, 0, true);
    check_mode<float, int8_t, QuantMode_t::VQF322B8_PRE>(rng, as_int8, 0, true);
    check_mode<float, half, QuantMode_t::VQF322F16_PRE>(rng, as_half, 0, true);
    check_mode<float, bfloat16_t, QuantMode_t::VQF322BF16_PRE>(rng, as_bfloat16, 0, true);
}

TEST(TpushFixpipe, LayoutModesLayTheSlotOutAsColumnsOrNzFractals)
{
    std::mt19937 rng(9);
    for (int trial = 0; trial < 3; ++trial) {
        int rows = 0, cols = 0;
        auto acc = random_accumulator<float>(rng, rows, cols);
        PoppedTile<half, BLayout::ColMajor> by_columns(rows, cols);
        push_and_pop<FixpipeParams<LayoutMode_t::NZ2DN, QuantMode_t::F322F16>, half>(acc, by_columns);
        expect_converted(by_columns, acc, rows, cols, false, unscaled, as_half);
        PoppedTile<half, BLayout::ColMajor, SLayout::RowMajor> nz(rows, cols);
        push_and_pop<FixpipeParams<LayoutMode_t::NZ2NZ, QuantMode_t::F322F16>, half>(acc, nz);
        expect_converted(nz, acc, rows, cols, false, unscaled, as_half);
    }
}

TEST(TpushFixpipe, AtomicAddAddsToWhatTheSlotHolds)
{
    std::mt19937 rng(13);
    using P = TPipe<0, Direction::DIR_C2V, M * N * 4, 1>;
    P::reset_for_cpu_sim();
    P pipe(nullptr, kConsumerBuffer, 0);
    int rows = 0, cols = 0;
    auto first = random_accumulator<float>(rng, rows, cols);
    AccTile<float> second(rows, cols);
    fill_accumulator(second, rng);
    PoppedTile<float> out(rows, cols);
    TPUSH<P, AccTile<float>, FixpipeParams<>>(pipe, first);
    TPOP<P, PoppedTile<float>, TILE_NO_SPLIT>(pipe, out);
    using Adding = FixpipeParams<LayoutMode_t::NZ2ND, QuantMode_t::NoQuant, ReluPreMode::NoRelu, STPhase::Unspecified, 0,
                                 AtomicType::AtomicAdd>;
    TPUSH<P, AccTile<float>, Adding>(pipe, second);  // the one slot again
    TPOP<P, PoppedTile<float>, TILE_NO_SPLIT>(pipe, out);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            ASSERT_EQ(out.GetValue(uint32_t(GetTileOffset<PoppedTile<float>>(r, c))), acc_at(first, r, c) + acc_at(second, r, c));
}

TEST(TpushPop, ThePoppedTileIsTheConsumersLocalBufferSlot)
{
    std::mt19937 rng(17);
    using P = TPipe<0, Direction::DIR_C2V, M * N * 4, 2>;
    P::reset_for_cpu_sim();
    P pipe(nullptr, kConsumerBuffer, 0);
    int rows = 0, cols = 0;
    auto acc = random_accumulator<float>(rng, rows, cols);
    // A tile the kernel placed over the consumer buffer sees the popped bytes there, as on the device.
    PoppedTile<float> overlapping(rows, cols);
    TASSIGN(overlapping, kConsumerBuffer + M * N * 4);
    for (int tile = 0; tile < 3; ++tile) {
        PoppedTile<float> out(rows, cols);
        TASSIGN(out, 0x20000);
        TPUSH<P, AccTile<float>, TILE_NO_SPLIT>(pipe, acc);
        TPOP<P, PoppedTile<float>, TILE_NO_SPLIT>(pipe, out);
        EXPECT_EQ(NPUMemoryModel::Instance().GetNPUAddr(out.data()), kConsumerBuffer + uint32_t(tile % 2) * M * N * 4);
        TFREE<P, TILE_NO_SPLIT>(pipe);
    }
    expect_converted(overlapping, acc, rows, cols, false, unscaled, as_float);
}

TEST(TpushFixpipeDiagnostics, AScaleNoInstructionSetOrATableOutsideItsMemoryIsNamed)
{
    std::mt19937 rng(19);
    int rows = 0, cols = 0;
    auto acc = random_accumulator<float>(rng, rows, cols);
    PoppedTile<int8_t> out(rows, cols);
    NPUMemoryModel::Instance().Clear();
    const auto unset = diagnostic_of([&] { push_and_pop<FixpipeParams<LayoutMode_t::NZ2ND, QuantMode_t::QF322B8_PRE>, int8_t>(acc, out); });
    EXPECT_EQ(unset.code, "RUN_QUANT_UNSET");
    EXPECT_NE(unset.message.find("SET_QUANT_SCALAR"), std::string::npos) << unset.message;

    Tile<TileType::Scaling, uint64_t, 1, 4> table;  // the last four words: fewer than the columns
    TASSIGN(table, runtime::memory_size(TileType::Scaling) - 32);
    SET_QUANT_VECTOR(table);
    AccTile<float> wide(rows, N);
    fill_accumulator(wide, rng);
    PoppedTile<int8_t> wide_out(rows, N);
    const auto outside = diagnostic_of([&] { push_and_pop<FixpipeParams<LayoutMode_t::NZ2ND, QuantMode_t::VQF322B8_PRE>, int8_t>(wide, wide_out); });
    EXPECT_EQ(outside.code, "RUN_TILE_RANGE");
    EXPECT_NE(outside.message.find("SET_QUANT_VECTOR"), std::string::npos) << outside.message;
}

TEST(TpushFixpipeDiagnostics, AnOutputTheTargetsFixpipeCannotMakeIsAnError)
{
    pto::test::ScopedTarget a2a3(profile::Target::A2A3);
    std::mt19937 rng(23);
    int rows = 0, cols = 0;
    auto acc = random_accumulator<float>(rng, rows, cols);
    PoppedTile<half> out(rows, cols);
    SET_QUANT_SCALAR<half>(2.0f);
    const auto d = diagnostic_of([&] { push_and_pop<FixpipeParams<LayoutMode_t::NZ2ND, QuantMode_t::QF322F16_PRE>, half>(acc, out); });
    EXPECT_EQ(d.code, "LEGAL_TSTORE_QUANT_DTYPE");
}

TEST(TpushFixpipeDiagnostics, AConsumerTileOfAnotherLayoutIsRefused)
{
    std::mt19937 rng(29);
    int rows = 0, cols = 0;
    auto acc = random_accumulator<float>(rng, rows, cols);
    PoppedTile<half> row_major(rows, cols);
    const auto by_columns = diagnostic_of([&] { push_and_pop<FixpipeParams<LayoutMode_t::NZ2DN, QuantMode_t::F322F16>, half>(acc, row_major); });
    EXPECT_EQ(by_columns.code, "RUN_PIPE_LAYOUT") << by_columns.message;
    EXPECT_NE(by_columns.message.find("NZ2DN"), std::string::npos) << by_columns.message;
    PoppedTile<half, BLayout::ColMajor> column_major(rows, cols);
    const auto nz = diagnostic_of([&] { push_and_pop<FixpipeParams<LayoutMode_t::NZ2NZ, QuantMode_t::F322F16>, half>(acc, column_major); });
    EXPECT_EQ(nz.code, "RUN_PIPE_LAYOUT") << nz.message;
}

}  // namespace
