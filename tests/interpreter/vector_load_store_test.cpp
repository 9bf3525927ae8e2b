// The vector memory forms after pto.vlds / pto.vsts, from PTO-AS: pto.vldsx2, pto.vstsx2, pto.vsld,
// pto.vsst, pto.vsldb, pto.vsstb, the gathers and pto.vscatter, each against a plain reference loop
// over random data on every lane type it takes, with partial masks and lane counts, and their
// diagnostics: unknown modes, wrong types, misaligned and out-of-UB addresses.
#include <string>
#include <vector>

#include "vector_lane_support.hpp"

namespace pto::as::testing {
namespace {

using namespace vector_lanes;

std::vector<LaneType> narrow_types()
{
    std::vector<LaneType> out;
    for (const LaneType& t : all_lane_types())
        if (t.bytes <= 4) out.push_back(t);
    return out;
}

std::string u(int bytes) { return "ui" + std::to_string(bytes * 8); }
std::string ureg(int bytes) { return "!pto.vreg<" + std::to_string(256 / bytes) + "x" + u(bytes) + ">"; }

// Stores register %r (of `t`) at output byte `at`.
std::string store_at(const std::string& r, const LaneType& t, int at, const std::string& tag)
{
    return "    %o" + tag + " = arith.constant " + std::to_string(at / t.bytes) + " : index\n    pto.vsts " + r + ", %out_" + t.name + "[%o" + tag +
           "], %all_" + t.mask_width() + " : " + t.vreg() + ", " + t.ptr() + ", " + t.mask() + "\n";
}

TEST(VectorLoadStore, PairLoadsSplitEvenAndOddElementsOrBlocks)
{
    for (const LaneType& t : all_lane_types()) {
        const std::vector<uint8_t> in = lane_data(t, 11 + uint32_t(t.bytes));
        std::vector<std::string> modes = {"BDINTLV"};
        if (t.bytes <= 4) modes.push_back("DINTLV_B" + std::to_string(t.bytes * 8));
        for (const std::string& mode : modes) {
            const std::string body = "    %lo, %hi = pto.vldsx2 %in_" + t.name + "[%c0], \"" + mode + "\" : " + t.ptr() + ", index -> " + t.vreg() + ", " + t.vreg() +
                                     "\n" + store_at("%lo", t, 0, "a") + store_at("%hi", t, 256, "b");
            const std::vector<uint8_t> out = run_body(body, in);
            const int unit = mode == "BDINTLV" ? 32 : t.bytes;
            for (int k = 0; k < 256 / unit; ++k)
                for (int b = 0; b < unit; ++b) {
                    ASSERT_EQ(out[std::size_t(k * unit + b)], in[std::size_t(2 * k * unit + b)]) << t.name << " " << mode << " unit " << k;
                    ASSERT_EQ(out[std::size_t(256 + k * unit + b)], in[std::size_t((2 * k + 1) * unit + b)]) << t.name << " " << mode << " unit " << k;
                }
        }
    }
}

TEST(VectorLoadStore, PairStoreInterleavesTheActiveLanesOnly)
{
    for (const LaneType& t : narrow_types()) {
        const std::vector<uint8_t> in = lane_data(t, 21 + uint32_t(t.bytes));
        const std::string w = t.mask_width();
        const std::string body = "    %a = pto.vlds %in_" + t.name + "[%c0] : " + t.ptr() + " -> " + t.vreg() + "\n    %b = pto.vlds %in_" + t.name + "[%c" +
                                 std::to_string(256 / t.bytes) + "] : " + t.ptr() + " -> " + t.vreg() + "\n    %m = pto.pset_" + w + " \"PAT_M3\" : " + t.mask() +
                                 "\n    pto.vstsx2 %a, %b, %out_" + t.name + "[%c0], \"INTLV_B" + std::to_string(t.bytes * 8) + "\", %m : " + t.vreg() + ", " +
                                 t.vreg() + ", " + t.ptr() + ", index, " + t.mask() + "\n";
        const std::vector<uint8_t> out = run_body(body, in);
        for (int i = 0; i < t.lanes(); ++i)
            for (int half = 0; half < 2; ++half) {
                const uint64_t want = m3(i) ? lane_bits(in.data() + half * 256, t, i) : wrap_bits(t, ~uint64_t{0}) & 0xABABABABABABABABull;
                ASSERT_EQ(lane_bits(out.data(), t, 2 * i + half), want) << t.name << " lane " << i;
            }
    }
}

TEST(VectorLoadStore, StridedLoadAndStoreFollowTheirStrideTokens)
{
    struct Mode { std::string name; int step; std::string type; };
    for (const Mode& m : std::vector<Mode>{{"STRIDE_S3_B16", 3, "ui16"}, {"STRIDE_S4_B64", 4, "i64"}, {"STRIDE_S8_B32", 8, "f32"}, {"STRIDE_S2_B64", 2, "ui64"}}) {
        const LaneType& t = *std::find_if(all_lane_types().begin(), all_lane_types().end(), [&](const LaneType& x) { return x.name == m.type; });
        const std::vector<uint8_t> in = random_bytes(kBytes, uint32_t(m.step) * 7);
        const std::string load = "    %v = pto.vsld %in_" + t.name + "[%c0], \"" + m.name + "\" : " + t.ptr() + " -> " + t.vreg() + "\n" + store_at("%v", t, 0, "a");
        const std::vector<uint8_t> loaded = run_body(load, in);
        for (int i = 0; i < t.lanes(); ++i) ASSERT_EQ(lane_bits(loaded.data(), t, i), lane_bits(in.data(), t, m.step * i)) << m.name << " lane " << i;
        const std::string store = "    %v = pto.vlds %in_" + t.name + "[%c0] : " + t.ptr() + " -> " + t.vreg() + "\n    pto.vsst %v, %out_" + t.name + "[%c0], \"" +
                                  m.name + "\" : " + t.vreg() + ", " + t.ptr() + "\n";
        const std::vector<uint8_t> stored = run_body(store, in);
        std::vector<uint8_t> want(kBytes, 0xAB);
        for (int i = 0; i < t.lanes(); ++i) std::memcpy(want.data() + m.step * i * t.bytes, in.data() + i * t.bytes, std::size_t(t.bytes));
        ASSERT_EQ(stored, want) << m.name;
    }
}

// vsldb / vsstb with a block stride of 2 (and a repeat stride in the high half, which moves nothing)
// under a mask whose first 40 of 64 lanes are active: blocks 0 to 4 take part.
TEST(VectorLoadStore, BlockStridedFormsMoveTheActiveBlocks)
{
    const LaneType& t = all_lane_types()[0];  // f32
    const std::vector<uint8_t> in = lane_data(t, 5);
    const std::string head = "    %ctl = arith.constant 196610 : i32\n    %m = pto.pset_b32 \"PAT_VL40\" : !pto.mask<b32>\n";
    const std::vector<uint8_t> loaded = run_body(head + "    %v = pto.vsldb %in_f32, %ctl, %m : !pto.ptr<f32, ub>, i32, !pto.mask<b32> -> " + t.vreg() + "\n" + store_at("%v", t, 0, "a"), in);
    const std::vector<uint8_t> stored = run_body(head + "    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> " + t.vreg() +
                                                     "\n    pto.vsstb %v, %out_f32, %ctl, %m : " + t.vreg() + ", !pto.ptr<f32, ub>, i32, !pto.mask<b32>\n", in);
    std::vector<uint8_t> want_store(kBytes, 0xAB);
    for (int j = 0; j < 8; ++j)
        for (int b = 0; b < 32; ++b) {
            ASSERT_EQ(loaded[std::size_t(32 * j + b)], j < 5 ? in[std::size_t(64 * j + b)] : 0) << "block " << j;
            if (j < 5) want_store[std::size_t(64 * j + b)] = in[std::size_t(32 * j + b)];
        }
    EXPECT_EQ(stored, want_store);
}

// The data at input bytes [0, 1024), the indices (in range of it) at [1024, 1280).
std::vector<uint8_t> gather_input(const LaneType& t, uint32_t seed, bool aliases)
{
    std::vector<uint8_t> in = lane_data(t, seed);
    std::mt19937 gen(seed);
    for (int i = 0; i < t.lanes(); ++i) {
        const uint64_t k = aliases && i % 5 == 4 ? uint64_t(i / 2) : uint64_t(gen() % uint32_t(1024 / t.bytes));
        std::memcpy(in.data() + 1024 + i * t.bytes, &k, std::size_t(t.bytes));
    }
    return in;
}

TEST(VectorLoadStore, GathersReadTheIndexedElementsOfTheirActiveLanes)
{
    for (const LaneType& t : narrow_types()) {
        const std::vector<uint8_t> in = gather_input(t, 31 + uint32_t(t.bytes), false);
        const int n = t.lanes() - 5;
        const std::string idx = "    %at = arith.constant " + std::to_string(1024 / t.bytes) + " : index\n    %ix = pto.vlds %in_" + u(t.bytes) + "[%at] : !pto.ptr<" + u(t.bytes) + ", ub> -> " + ureg(t.bytes) + "\n";
        const std::string body = idx + "    %n = arith.constant " + std::to_string(n) + " : index\n    %g = pto.vgather2 %in_" + t.name + ", %ix, %n : " + t.ptr() +
                                 ", " + ureg(t.bytes) + ", index -> " + t.vreg() + "\n    %m = pto.pset_" + t.mask_width() + " \"PAT_M3\" : " + t.mask() +
                                 "\n    %h = pto.vgather2_bc %in_" + t.name + ", %ix, %m : " + t.ptr() + ", " + ureg(t.bytes) + ", " + t.mask() + " -> " + t.vreg() +
                                 "\n" + store_at("%g", t, 0, "a") + store_at("%h", t, 256, "b");
        const std::vector<uint8_t> out = run_body(body, in);
        for (int i = 0; i < t.lanes(); ++i) {
            const uint64_t k = lane_bits(in.data() + 1024, t, i) & (t.bytes == 4 ? 0xffffffffu : (1u << (8 * t.bytes)) - 1);
            ASSERT_EQ(lane_bits(out.data(), t, i), i < n ? lane_bits(in.data(), t, int(k)) : 0) << t.name << " vgather2 lane " << i;
            ASSERT_EQ(lane_bits(out.data() + 256, t, i), m3(i) ? lane_bits(in.data(), t, int(k)) : 0) << t.name << " vgather2_bc lane " << i;
        }
    }
}

TEST(VectorLoadStore, BlockGatherReadsThirtyTwoBytesAtEachActiveOffset)
{
    std::vector<uint8_t> in = random_bytes(kBytes, 77);
    const uint32_t offsets[8] = {96, 0, 960, 32, 512, 64, 224, 992};
    std::memcpy(in.data() + 1024, offsets, sizeof offsets);
    const std::string body = "    %ix = pto.vlds %in_ui32[%c256] : !pto.ptr<ui32, ub> -> !pto.vreg<64xui32>\n    %n = arith.constant 6 : index\n"
                             "    %g = pto.vgatherb %in_f16, %ix, %n : !pto.ptr<f16, ub>, !pto.vreg<64xui32>, index -> !pto.vreg<128xf16>\n"
                             "    pto.vsts %g, %out_f16[%c0], %all_b16 : !pto.vreg<128xf16>, !pto.ptr<f16, ub>, !pto.mask<b16>\n";
    const std::vector<uint8_t> out = run_body(body, in);
    for (int j = 0; j < 8; ++j)
        for (int b = 0; b < 32; ++b) ASSERT_EQ(out[std::size_t(32 * j + b)], j < 6 ? in[offsets[j] + uint32_t(b)] : 0) << "block " << j;
}

TEST(VectorLoadStore, ScatterWritesTheActiveLanesAndTheLowestLaneWinsAnAlias)
{
    for (const LaneType& t : narrow_types()) {
        const std::vector<uint8_t> in = gather_input(t, 41 + uint32_t(t.bytes), true);
        const int n = t.lanes() - 3;
        const std::string body = "    %at = arith.constant " + std::to_string(1024 / t.bytes) + " : index\n    %ix = pto.vlds %in_" + u(t.bytes) + "[%at] : !pto.ptr<" + u(t.bytes) + ", ub> -> " + ureg(t.bytes) +
                                 "\n    %v = pto.vlds %in_" + t.name + "[%c0] : " + t.ptr() + " -> " + t.vreg() + "\n    %n = arith.constant " + std::to_string(n) +
                                 " : index\n    pto.vscatter %v, %out_" + t.name + ", %ix, %n : " + t.vreg() + ", " + t.ptr() + ", " + ureg(t.bytes) + ", index\n";
        const std::vector<uint8_t> out = run_body(body, in);
        std::vector<uint8_t> want(kBytes, 0xAB);
        for (int i = n - 1; i >= 0; --i) {
            const uint64_t k = lane_bits(in.data() + 1024, t, i);
            set_lane_bits(want.data(), t, int(k), lane_bits(in.data(), t, i));
        }
        ASSERT_EQ(out, want) << t.name;
    }
}

TEST(VectorLoadStore, ModesTypesAndIndexRegistersAreChecked)
{
    const std::string f32 = "!pto.vreg<64xf32>";
    EXPECT_TRUE(has_code(static_codes("    %a, %b = pto.vldsx2 %in_f32[%c0], \"INTLV_B32\" : !pto.ptr<f32, ub>, index -> " + f32 + ", " + f32 + "\n"), "LEGAL_VLDS_DIST"));
    EXPECT_TRUE(has_code(static_codes("    %a, %b = pto.vldsx2 %in_f32[%c0], \"DINTLV_B16\" : !pto.ptr<f32, ub>, index -> " + f32 + ", " + f32 + "\n"), "LEGAL_VLDS_DIST"));
    EXPECT_TRUE(has_code(static_codes("    %a = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> " + f32 + "\n    pto.vstsx2 %a, %a, %out_f32[%c0], \"DINTLV_B32\", %all_b32 : " + f32 +
                                      ", " + f32 + ", !pto.ptr<f32, ub>, index, !pto.mask<b32>\n"), "LEGAL_VSTS_DIST"));
    EXPECT_TRUE(has_code(static_codes("    %a = pto.vsld %in_f32[%c0], \"STRIDE_S3_B16\" : !pto.ptr<f32, ub> -> " + f32 + "\n"), "LEGAL_VSLD_STRIDE"));
    EXPECT_TRUE(has_code(static_codes("    %a = pto.vsld %in_f32[%c0], \"STRIDE_S5_B32\" : !pto.ptr<f32, ub> -> " + f32 + "\n"), "LEGAL_VSLD_STRIDE"));
    EXPECT_TRUE(has_code(static_codes("    %i = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> " + f32 + "\n    %g = pto.vgather2 %in_f32, %i, %c8 : !pto.ptr<f32, ub>, " + f32 +
                                      ", index -> " + f32 + "\n"), "LEGAL_VECTOR_INDEX_TYPE"));
    EXPECT_TRUE(has_code(static_codes("    %i = pto.vlds %in_i16[%c0] : !pto.ptr<i16, ub> -> !pto.vreg<128xi16>\n    %g = pto.vgather2 %in_f32, %i, %c8 : !pto.ptr<f32, ub>, !pto.vreg<128xi16>, index -> " +
                                      f32 + "\n"), "LEGAL_VECTOR_INDEX_TYPE"));
    EXPECT_TRUE(has_code(static_codes("    %v = pto.vlds %in_i64[%c0] : !pto.ptr<i64, ub> -> !pto.vreg<32xi64>\n    pto.vscatter %v, %out_i64, %v, %c8 : !pto.vreg<32xi64>, !pto.ptr<i64, ub>, !pto.vreg<32xi64>, index\n"),
                         "LEGAL_VECTOR_DTYPE"));
}

TEST(VectorLoadStore, AddressesAreCheckedBeforeAnyByteMoves)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 3);
    const std::string f32 = "!pto.vreg<64xf32>";
    // Misaligned and outside UB.
    EXPECT_TRUE(has_code(run_codes("    %a, %b = pto.vldsx2 %in_f32[%c1], \"DINTLV_B32\" : !pto.ptr<f32, ub>, index -> " + f32 + ", " + f32 + "\n", in), "RUN_POINTER_ALIGN"));
    EXPECT_TRUE(has_code(run_codes("    %far = arith.constant 100000000 : index\n    %a = pto.vsld %in_f32[%far], \"STRIDE_S8_B32\" : !pto.ptr<f32, ub> -> " + f32 + "\n", in), "RUN_POINTER_RANGE"));
    // A gather's active lane with an index past UB; the count of active lanes past the register.
    const std::string ones = "    %big = arith.constant 2147483647 : i32\n    %ix = pto.vbr %big : i32 -> !pto.vreg<64xi32>\n";
    EXPECT_TRUE(has_code(run_codes(ones + "    %g = pto.vgather2 %in_f32, %ix, %c1 : !pto.ptr<f32, ub>, !pto.vreg<64xi32>, index -> " + f32 + "\n", in), "RUN_POINTER_RANGE"));
    EXPECT_TRUE(has_code(run_codes(ones + "    %g = pto.vgather2 %in_f32, %ix, %c128 : !pto.ptr<f32, ub>, !pto.vreg<64xi32>, index -> " + f32 + "\n", in), "RUN_ACTIVE_LANES"));
    // ... but none of vgather2_bc's masked-off lanes, nor vgather2's lanes past the count.
    EXPECT_TRUE(run_codes(ones + "    %none = pto.pset_b32 \"PAT_ALLF\" : !pto.mask<b32>\n    %g = pto.vgather2_bc %in_f32, %ix, %none : !pto.ptr<f32, ub>, !pto.vreg<64xi32>, !pto.mask<b32> -> " + f32 + "\n", in).empty());
    EXPECT_TRUE(run_codes(ones + "    %g = pto.vgather2 %in_f32, %ix, %c0 : !pto.ptr<f32, ub>, !pto.vreg<64xi32>, index -> " + f32 + "\n", in).empty());
    // vsldb skips a masked-off block's address; vsstb checks it.
    const std::string wide = "    %ctl = arith.constant 60000 : i32\n    %m = pto.pset_b32 \"PAT_VL8\" : !pto.mask<b32>\n";
    EXPECT_TRUE(run_codes(wide + "    %v = pto.vsldb %in_f32, %ctl, %m : !pto.ptr<f32, ub>, i32, !pto.mask<b32> -> " + f32 + "\n", in).empty());
    EXPECT_TRUE(has_code(run_codes(wide + "    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> " + f32 + "\n    pto.vsstb %v, %out_f32, %ctl, %m : " + f32 + ", !pto.ptr<f32, ub>, i32, !pto.mask<b32>\n", in),
                         "RUN_POINTER_RANGE"));
    // vgatherb: an offset off a 32-byte block; a scatter base off its elements.
    EXPECT_TRUE(has_code(run_codes("    %o = arith.constant 16 : i32\n    %ix = pto.vbr %o : i32 -> !pto.vreg<64xi32>\n    %g = pto.vgatherb %in_f32, %ix, %c1 : !pto.ptr<f32, ub>, !pto.vreg<64xi32>, index -> " + f32 + "\n", in),
                         "RUN_POINTER_ALIGN"));
    EXPECT_TRUE(has_code(run_codes("    %at = arith.constant 4098 : i64\n    %p = pto.castptr %at : i64 -> !pto.ptr<f32, ub>\n    %z = arith.constant 0 : i32\n"
                                   "    %ix = pto.vbr %z : i32 -> !pto.vreg<64xi32>\n    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> " + f32 +
                                   "\n    pto.vscatter %v, %p, %ix, %c1 : " + f32 + ", !pto.ptr<f32, ub>, !pto.vreg<64xi32>, index\n", in),
                         "RUN_POINTER_ALIGN"));
    // Checked mode: a gathered byte nothing wrote.
    EXPECT_TRUE(has_code(run_codes("    %o = arith.constant 3000 : i32\n    %ix = pto.vbr %o : i32 -> !pto.vreg<64xi32>\n    %g = pto.vgather2 %in_f32, %ix, %c1 : !pto.ptr<f32, ub>, !pto.vreg<64xi32>, index -> " + f32 + "\n", in),
                         "RUN_UNINIT_READ"));
}

}  // namespace
}  // namespace pto::as::testing
