// The C++ forms of the vector micro-instructions (pto/intrinsics/vector.hpp) against the same programs in
// PTO-AS: each form runs on random data salted with special values, for every lane type its text form
// accepts, and must leave the same bytes in UB (checked mode on both sides). Also the pages' examples,
// and the run-time findings of the C++ door with the text door's codes.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>

#include "interpreter/vector_lane_support.hpp"
#include "support/compile_check.hpp"
#include "support/test_support.hpp"

namespace {

using namespace pto;
using namespace pto::as::testing;
using namespace pto::as::testing::vector_lanes;
namespace ev = pto::engine::vector;

// Runs `body` on this thread's core with `in` at UB offset kIn and 0xAB at kOut (both marked written),
// in checked mode; returns the kBytes at kOut.
std::vector<uint8_t> run_cpp(const std::vector<uint8_t>& in, const std::function<void()>& body)
{
    test::ScopedChecked checked;
    std::byte* ub = runtime::memory_base(TileType::Vec);
    std::memcpy(ub + kIn, in.data(), kBytes);
    std::memset(ub + kOut, 0xAB, kBytes);
    runtime::mark_written(ub + kIn, kBytes);
    runtime::mark_written(ub + kOut, kBytes);
    body();
    std::vector<uint8_t> out(kBytes);
    std::memcpy(out.data(), ub + kOut, kBytes);
    return out;
}

template <typename F>
void for_each_lane_type(F&& f)
{
    f.template operator()<float>();
    f.template operator()<half>();
    f.template operator()<bfloat16_t>();
    f.template operator()<int8_t>();
    f.template operator()<uint8_t>();
    f.template operator()<int16_t>();
    f.template operator()<uint16_t>();
    f.template operator()<int32_t>();
    f.template operator()<uint32_t>();
    f.template operator()<int64_t>();
    f.template operator()<uint64_t>();
}

template <typename T>
const LaneType& lane_type()
{
    for (const LaneType& t : all_lane_types())
        if (t.dtype == engine::dtype_of<T>) return t;
    throw std::logic_error("no lane type");
}

template <typename T>
using Reg = VReg<256 / int(sizeof(T)), T>;
// The mask of T's lanes (b32 for 64-bit lanes).
template <typename T>
using MaskOf = Mask<256 / (sizeof(T) == 8 ? 4 : int(sizeof(T)))>;
template <typename T>
using UbPtr = Ptr<ub_space_t, T>;

template <typename M>
void pset(M& m, const char* pattern)
{
    constexpr int bytes = 256 / M::Lanes;
    if constexpr (bytes == 1) PSET_B8(m, pattern);
    else if constexpr (bytes == 2) PSET_B16(m, pattern);
    else PSET_B32(m, pattern);
}

// The text of `%name = pto.vlds %in_T[%cK]` for register k of the input (256 bytes each).
std::string load_text(const LaneType& t, const std::string& name, int k)
{
    return "    %at_" + name + " = arith.constant " + std::to_string(k * t.lanes()) + " : index\n    %" + name + " = pto.vlds %in_" + t.name + "[%at_" +
           name + "] : " + t.ptr() + " -> " + t.vreg() + "\n";
}
std::string store_text(const LaneType& t, const std::string& name, int k)
{
    return "    %st_" + name + " = arith.constant " + std::to_string(k * t.lanes()) + " : index\n    pto.vsts %" + name + ", %out_" + t.name + "[%st_" +
           name + "], %all_" + t.mask_width() + " : " + t.vreg() + ", " + t.ptr() + ", " + t.mask() + "\n";
}
std::string m3_text(const LaneType& t) { return "    %m = pto.pset_" + t.mask_width() + " \"PAT_M3\" : " + t.mask() + "\n"; }

// A lane operation of `Sources` registers in both doors: `op` is the C++ form, `text` the PTO-AS lines
// that compute %r from the operands %s0, %s1, %s2 and the mask %m.
template <rules::VectorLanes Rule, int Sources, typename Op>
void check_lane_op(const std::string& name, Op op, const std::function<std::string(const LaneType&)>& text, uint32_t seed)
{
    for_each_lane_type([&]<typename T>() {
        if constexpr (rules::vector_lanes_ok(Rule, engine::dtype_of<T>)) {
            const LaneType& t = lane_type<T>();
            const std::vector<uint8_t> in = lane_data(t, ++seed);
            const auto cpp = run_cpp(in, [&] {
                Reg<T> s[3], r;
                MaskOf<T> m;
                pset(m, "PAT_M3");
                for (int k = 0; k < Sources; ++k) VLDS(s[k], UbPtr<T>(kIn) + k * t.lanes());
                if constexpr (Sources == 1) op(r, s[0], m);
                else if constexpr (Sources == 2) op(r, s[0], s[1], m);
                else op(r, s[0], s[1], s[2], m);
                VSTS(r, UbPtr<T>(kOut));
            });
            std::string body = m3_text(t);
            for (int k = 0; k < Sources; ++k) body += load_text(t, "s" + std::to_string(k), k);
            body += text(t) + store_text(t, "r", 0);
            EXPECT_EQ(cpp, run_body(body, in)) << name << " on " << t.name;
        }
    });
}

std::function<std::string(const LaneType&)> binary_text(const std::string& op)
{
    return [op](const LaneType& t) { return "    %r = pto." + op + " %s0, %s1, %m : " + t.vreg() + ", " + t.vreg() + ", " + t.mask() + " -> " + t.vreg() + "\n"; };
}
std::function<std::string(const LaneType&)> unary_text(const std::string& op)
{
    return [op](const LaneType& t) { return "    %r = pto." + op + " %s0, %m : " + t.vreg() + ", " + t.mask() + " -> " + t.vreg() + "\n"; };
}

#define PTO_TEST_BINARY(NAME, text, RULE) \
    check_lane_op<rules::VectorLanes::RULE, 2>(#NAME, [](auto& d, const auto& a, const auto& b, const auto& m) { NAME(d, a, b, m); }, binary_text(text), seed += 100)
#define PTO_TEST_UNARY(NAME, text, RULE) \
    check_lane_op<rules::VectorLanes::RULE, 1>(#NAME, [](auto& d, const auto& a, const auto& m) { NAME(d, a, m); }, unary_text(text), seed += 100)

TEST(VectorCpp, BinaryFormsMatchTheTextDoorOnEveryLaneType)
{
    uint32_t seed = 100;
    PTO_TEST_BINARY(VADD, "vadd", Any);
    PTO_TEST_BINARY(VSUB, "vsub", Any);
    PTO_TEST_BINARY(VMUL, "vmul", Any);
    PTO_TEST_BINARY(VDIV, "vdiv", F32F16);
    PTO_TEST_BINARY(VMAX, "vmax", Any);
    PTO_TEST_BINARY(VMIN, "vmin", Any);
    PTO_TEST_BINARY(VAND, "vand", Integer);
    PTO_TEST_BINARY(VOR, "vor", Integer);
    PTO_TEST_BINARY(VXOR, "vxor", Integer);
    PTO_TEST_BINARY(VSHL, "vshl", Integer);
    PTO_TEST_BINARY(VSHR, "vshr", Integer);
    PTO_TEST_BINARY(VADDRELU, "vaddrelu", F32F16);
    PTO_TEST_BINARY(VSUBRELU, "vsubrelu", F32F16);
}

TEST(VectorCpp, UnaryFormsMatchTheTextDoorOnEveryLaneType)
{
    uint32_t seed = 5000;
    PTO_TEST_UNARY(VABS, "vabs", Any);
    PTO_TEST_UNARY(VNEG, "vneg", Any);
    PTO_TEST_UNARY(VNOT, "vnot", Integer);
    PTO_TEST_UNARY(VRELU, "vrelu", Any);
    PTO_TEST_UNARY(VEXP, "vexp", Float);
    PTO_TEST_UNARY(VLN, "vln", Float);
    PTO_TEST_UNARY(VSQRT, "vsqrt", Float);
    PTO_TEST_UNARY(VRSQRT, "vrsqrt", Float);
    PTO_TEST_UNARY(VREC, "vrec", Float);
    PTO_TEST_UNARY(VMOV, "vmov", Any);
}

TEST(VectorCpp, MultiplyAddAxpyAndWideningMultiplyMatchTheTextDoor)
{
    uint32_t seed = 9000;
    check_lane_op<rules::VectorLanes::F32F16, 3>(
        "VMULA", [](auto& d, const auto& acc, const auto& a, const auto& b, const auto& m) { VMULA(d, acc, a, b, m); },
        [](const LaneType& t) {
            return "    %r = pto.vmula %s0, %s1, %s2, %m : " + t.vreg() + ", " + t.vreg() + ", " + t.vreg() + ", " + t.mask() + " -> " + t.vreg() + "\n";
        },
        seed);
    check_lane_op<rules::VectorLanes::F32F16, 2>(
        "VAXPY", [](auto& d, const auto& x, const auto& y, const auto& m) { VAXPY(d, x, y, 2.5f, m); },
        [](const LaneType& t) {
            return "    %alpha = arith.constant 2.5 : " + t.name + "\n    %r = pto.vaxpy %s0, %s1, %alpha, %m : " + t.vreg() + ", " + t.vreg() + ", " +
                   t.name + ", " + t.mask() + " -> " + t.vreg() + "\n";
        },
        seed + 100);
    for_each_lane_type([&]<typename T>() {
        if constexpr (rules::widening_multiply_ok(engine::dtype_of<T>)) {
            const LaneType& t = lane_type<T>();
            const std::vector<uint8_t> in = lane_data(t, ++seed);
            const auto cpp = run_cpp(in, [&] {
                Reg<T> a, b, lo, hi;
                Mask<64> m;
                PSET_B32(m, "PAT_M3");
                VLDS(a, UbPtr<T>(kIn));
                VLDS(b, UbPtr<T>(kIn) + 64);
                VMULL(lo, hi, a, b, m);
                VSTS(lo, UbPtr<T>(kOut));
                VSTS(hi, UbPtr<T>(kOut) + 64);
            });
            const std::string body = m3_text(t) + load_text(t, "a", 0) + load_text(t, "b", 1) + "    %lo, %hi = pto.vmull %a, %b, %m : " + t.vreg() +
                                     ", " + t.vreg() + ", " + t.mask() + " -> " + t.vreg() + ", " + t.vreg() + "\n" + store_text(t, "lo", 0) +
                                     store_text(t, "hi", 1);
            EXPECT_EQ(cpp, run_body(body, in)) << "VMULL on " << t.name;
        }
    });
}

TEST(VectorCpp, EveryLoadAndStoreModeMatchesTheTextDoor)
{
    uint32_t seed = 12000;
    const char* loads[] = {"NORM", "BRC_B8", "BRC_B16", "BRC_B32", "US_B8", "US_B16", "DS_B8", "DS_B16", "UNPK_B8", "UNPK_B16", "UNPK_B32",
                           "SPLT4CHN_B8", "SPLT2CHN_B8", "SPLT2CHN_B16", "DINTLV_B32", "BLK"};
    const char* stores[] = {"NORM_B8", "NORM_B16", "NORM_B32", "PK_B16", "PK_B32", "MRG4CHN_B8", "MRG2CHN_B8", "MRG2CHN_B16"};
    int loads_run = 0, stores_run = 0;
    for_each_lane_type([&]<typename T>() {
        const LaneType& t = lane_type<T>();
        const std::vector<uint8_t> in = lane_data(t, ++seed);
        for (const char* dist : loads) {
            ev::LoadDist d;
            if (ev::read_load_dist(dist, t.bytes, d)) continue;
            ++loads_run;
            const auto cpp = run_cpp(in, [&] {
                Reg<T> r;
                VLDS(r, UbPtr<T>(kIn) + 3 * t.lanes() / 8, dist);  // 96 bytes in: a multiple of 32
                VSTS(r, UbPtr<T>(kOut));
            });
            const std::string body = "    %o = arith.constant " + std::to_string(3 * t.lanes() / 8) + " : index\n    %r = pto.vlds %in_" + t.name +
                                     "[%o] {dist = \"" + dist + "\"} : " + t.ptr() + " -> " + t.vreg() + "\n" + store_text(t, "r", 0);
            EXPECT_EQ(cpp, run_body(body, in)) << "VLDS " << dist << " on " << t.name;
        }
        for (const char* dist : stores) {
            ev::StoreDist d;
            if (ev::read_store_dist(dist, t.bytes, d)) continue;
            ++stores_run;
            const auto cpp = run_cpp(in, [&] {
                Reg<T> r;
                MaskOf<T> m;
                pset(m, "PAT_M3");
                VLDS(r, UbPtr<T>(kIn));
                VSTS(r, UbPtr<T>(kOut) + t.lanes() / 8, dist, m);
            });
            const std::string body = m3_text(t) + load_text(t, "r", 0) + "    %o = arith.constant " + std::to_string(t.lanes() / 8) +
                                     " : index\n    pto.vsts %r, %out_" + t.name + "[%o], %m {dist = \"" + dist + "\"} : " + t.vreg() + ", " + t.ptr() +
                                     ", " + t.mask() + "\n";
            EXPECT_EQ(cpp, run_body(body, in)) << "VSTS " << dist << " on " << t.name;
        }
    });
    EXPECT_GE(loads_run, 40);
    EXPECT_GE(stores_run, 10);
}

TEST(VectorCpp, MaskedLoadZeroesTheInactiveLanes)
{
    const std::vector<uint8_t> in = lane_data(lane_type<int32_t>(), 7);
    const auto out = run_cpp(in, [&] {
        VReg<64, int32_t> r;
        RegBuf<predicate_t> m;
        PSET_B32(m, "PAT_M4");
        VLDS(r, UbPtr<int32_t>(kIn), m);
        VSTS(r, UbPtr<int32_t>(kOut));
    });
    for (int i = 0; i < 256; ++i) EXPECT_EQ(out[std::size_t(i)], (i / 4) % 4 == 0 ? in[std::size_t(i)] : 0) << i;
}

// Masks of every width through PSET, the predicate algebra and PSTS in both doors.
template <int Bytes>
void check_predicates(const std::vector<uint8_t>& in)
{
    using M = Mask<256 / Bytes>;
    const std::string w = "b" + std::to_string(8 * Bytes), ty = "!pto.mask<" + w + ">";
    const char* patterns[] = {"PAT_ALL", "PAT_ALLF", "PAT_H", "PAT_Q", "PAT_M3", "PAT_M4", "PAT_VL8", "PAT_VL32"};
    const auto cpp = run_cpp(in, [&] {
        int k = 0;
        for (const char* p : patterns) {
            RegBuf<predicate_t> m;
            if constexpr (Bytes == 1) PSET_B8(m, p);
            else if constexpr (Bytes == 2) PSET_B16(m, p);
            else PSET_B32(m, p);
            PSTS(m, UbPtr<ub_t>(kOut) + 32 * k++);
        }
        M a, b, s, c, r;
        pset(a, "PAT_M3");
        pset(b, "PAT_H");
        pset(s, "PAT_M4");
        pset(c, "PAT_VL16");
        PAND(r, a, b, c);
        PSTS(r, UbPtr<ub_t>(kOut) + 32 * k++);
        POR(r, a, b, c);
        PSTS(r, UbPtr<ub_t>(kOut) + 32 * k++);
        PXOR(r, a, b, c);
        PSTS(r, UbPtr<ub_t>(kOut) + 32 * k++);
        PNOT(r, a, c);
        PSTS(r, UbPtr<ub_t>(kOut) + 32 * k++);
        PSEL(r, a, b, s, c);
        PSTS(r, UbPtr<ub_t>(kOut) + 32 * k++);
        PST(r, UbPtr<ub_t>(kOut), 4 * k++, "PK");
        RegBuf<predicate_t> loaded;
        PLD(loaded, UbPtr<ub_t>(kIn), 2, "US");
        PST(loaded, UbPtr<ub_t>(kOut), 4 * k++);
        PLDI(loaded, UbPtr<ub_t>(kIn), 3, "DS");
        PSTI(loaded, UbPtr<ub_t>(kOut), 4 * k++);
        PLDS(loaded, UbPtr<ub_t>(kIn) + 64);
        PSTS(loaded, UbPtr<ub_t>(kOut) + 32 * k++);
    });
    std::string body = "    %c2i = arith.constant 2 : i32\n";
    int k = 0;
    const auto psts = [&](const std::string& v) {
        const std::string o = "%o" + std::to_string(k);
        std::string s = "    " + o + "i = arith.constant " + std::to_string(4 * k) + " : i32\n    pto.pst " + v + ", %out_i64, " + o + "i, \"NORM\" : " +
                        (v == "%ld" ? std::string("!pto.mask<G>") : ty) + ", !pto.ptr<i64, ub>, i32\n";
        ++k;
        return s;
    };
    for (const char* p : patterns) {
        const std::string v = "%pat" + std::to_string(k);
        body += "    " + v + " = pto.pset_" + w + " \"" + p + "\" : " + ty + "\n" + psts(v);
    }
    body += "    %a = pto.pset_" + w + " \"PAT_M3\" : " + ty + "\n    %b = pto.pset_" + w + " \"PAT_H\" : " + ty + "\n    %s = pto.pset_" + w +
            " \"PAT_M4\" : " + ty + "\n    %c = pto.pset_" + w + " \"PAT_VL16\" : " + ty + "\n";
    for (const char* op : {"pand", "por", "pxor"}) {
        body += std::string("    %") + op + " = pto." + op + " %a, %b, %c : " + ty + ", " + ty + ", " + ty + " -> " + ty + "\n" + psts(std::string("%") + op);
    }
    body += "    %pnot = pto.pnot %a, %c : " + ty + ", " + ty + " -> " + ty + "\n" + psts("%pnot");
    body += "    %psel = pto.psel %a, %b, %s, %c : " + ty + ", " + ty + ", " + ty + ", " + ty + " -> " + ty + "\n" + psts("%psel");
    body += "    %k" + std::to_string(k) + " = arith.constant " + std::to_string(4 * k) + " : i32\n    pto.pst %psel, %out_i64, %k" + std::to_string(k) +
            ", \"PK\" : " + ty + ", !pto.ptr<i64, ub>, i32\n";
    ++k;
    body += "    %ld = pto.pld %in_i64, %c2i, \"US\" : !pto.ptr<i64, ub>, i32 -> !pto.mask<G>\n";
    body += "    %k" + std::to_string(k) + " = arith.constant " + std::to_string(4 * k) + " : i32\n    pto.pst %ld, %out_i64, %k" + std::to_string(k) +
            ", \"NORM\" : !pto.mask<G>, !pto.ptr<i64, ub>, i32\n";
    ++k;
    body += "    %ldi = pto.pldi %in_i64, 3, \"DS\" : !pto.ptr<i64, ub>, i32 -> !pto.mask<G>\n";
    body += "    pto.psti %ldi, %out_i64, " + std::to_string(4 * k) + ", \"NORM\" : !pto.mask<G>, !pto.ptr<i64, ub>, i32\n";
    ++k;
    body += "    %in8 = pto.addptr %in_i64, %c8 : !pto.ptr<i64, ub> -> !pto.ptr<i64, ub>\n    %lds = pto.plds %in8 : !pto.ptr<i64, ub> -> !pto.mask<G>\n";
    body += "    %k" + std::to_string(k) + " = arith.constant " + std::to_string(4 * k) + " : i32\n    pto.pst %lds, %out_i64, %k" + std::to_string(k) +
            ", \"NORM\" : !pto.mask<G>, !pto.ptr<i64, ub>, i32\n";
    EXPECT_EQ(cpp, run_body(body, in)) << "predicates b" << 8 * Bytes;
}

TEST(VectorCpp, PredicatePatternsAlgebraLoadsAndStoresMatchTheTextDoor)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 31);
    check_predicates<1>(in);
    check_predicates<2>(in);
    check_predicates<4>(in);
}

TEST(VectorCpp, PackAndUnpackMatchTheTextDoor)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 32);
    const auto cpp = run_cpp(in, [&] {
        Mask<64> b32, u32;
        Mask<128> p16, u16;
        Mask<256> p8;
        PSET_B32(b32, "PAT_M3");
        PPACK(p16, b32, "HIGHER");
        PPACK(p8, p16, "LOWER");
        PUNPACK(u16, p8, "LOWER");
        PUNPACK(u32, u16, "HIGHER");
        PSTS(p16, UbPtr<ub_t>(kOut));
        PSTS(p8, UbPtr<ub_t>(kOut) + 32);
        PSTS(u16, UbPtr<ub_t>(kOut) + 64);
        PSTS(u32, UbPtr<ub_t>(kOut) + 96);
    });
    const std::string body =
        "    %m = pto.pset_b32 \"PAT_M3\" : !pto.mask<b32>\n"
        "    %p16 = pto.ppack %m, \"HIGHER\" : !pto.mask<b32> -> !pto.mask<b16>\n"
        "    %p8 = pto.ppack %p16, \"LOWER\" : !pto.mask<b16> -> !pto.mask<b8>\n"
        "    %u16 = pto.punpack %p8, \"LOWER\" : !pto.mask<b8> -> !pto.mask<b16>\n"
        "    %u32 = pto.punpack %u16, \"HIGHER\" : !pto.mask<b16> -> !pto.mask<b32>\n"
        "    %s0 = arith.constant 0 : i32\n    %s4 = arith.constant 4 : i32\n    %s8 = arith.constant 8 : i32\n    %s12 = arith.constant 12 : i32\n"
        "    pto.pst %p16, %out_i64, %s0, \"NORM\" : !pto.mask<b16>, !pto.ptr<i64, ub>, i32\n"
        "    pto.pst %p8, %out_i64, %s4, \"NORM\" : !pto.mask<b8>, !pto.ptr<i64, ub>, i32\n"
        "    pto.pst %u16, %out_i64, %s8, \"NORM\" : !pto.mask<b16>, !pto.ptr<i64, ub>, i32\n"
        "    pto.pst %u32, %out_i64, %s12, \"NORM\" : !pto.mask<b32>, !pto.ptr<i64, ub>, i32\n";
    EXPECT_EQ(cpp, run_body(body, in));
}

// ---- the pages' examples ----

// vadd.md's vector_add, looped over `count` floats.
void vector_add(Ptr<ub_space_t, ub_t> ub_a, Ptr<ub_space_t, ub_t> ub_b, Ptr<ub_space_t, ub_t> ub_out, size_t count)
{
    for (size_t done = 0; done < count; done += 64) {
        VReg<64, float> va, vb, vdst;
        Mask<64> mask;
        mask.set_all(true);
        VLDS(va, ub_a + int64_t(4 * done), "NORM");
        VLDS(vb, ub_b + int64_t(4 * done), "NORM");
        VADD(vdst, va, vb, mask);
        VSTS(vdst, ub_out + int64_t(4 * done));
    }
}

// vexp.md's exp_vector.
void exp_vector(VReg<64, float>& dst, const VReg<64, float>& src, Mask<64>& mask) { VEXP(dst, src, mask); }

TEST(VectorCpp, ThePagesVectorAddOnTilesPlacedWithTassign)
{
    test::ScopedChecked checked;
    Tile<TileType::Vec, float, 8, 64> a, b, c;
    TASSIGN(a, 0);
    TASSIGN(b, 0x800);
    TASSIGN(c, 0x1000);
    const auto x = test::random_floats(512, 1), y = test::random_floats(512, 2);
    for (int i = 0; i < 512; ++i) {
        a.SetValue(uint32_t(i), x[std::size_t(i)]);
        b.SetValue(uint32_t(i), y[std::size_t(i)]);
    }
    vector_add(Ptr<ub_space_t, ub_t>(a), Ptr<ub_space_t, ub_t>(b), Ptr<ub_space_t, ub_t>(c), 512);
    for (int i = 0; i < 512; ++i) EXPECT_EQ(c.GetValue(uint32_t(i)), x[std::size_t(i)] + y[std::size_t(i)]) << i;
}

TEST(VectorCpp, ThePagesExpVectorMatchesTextVexpAndTheReference)
{
    const std::vector<uint8_t> in = lane_data(lane_type<float>(), 44);
    const auto cpp = run_cpp(in, [&] {
        VReg<64, float> src, dst;
        Mask<64> mask;
        mask.set_all(true);
        VLDS(src, UbPtr<float>(kIn));
        exp_vector(dst, src, mask);
        VSTS(dst, UbPtr<float>(kOut));
    });
    const LaneType& t = lane_type<float>();
    const std::string body = load_text(t, "x", 0) + "    %r = pto.vexp %x, %all_b32 : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n" +
                             store_text(t, "r", 0);
    EXPECT_EQ(cpp, run_body(body, in));
    for (int i = 0; i < 64; ++i) {
        float x, e;
        std::memcpy(&x, in.data() + 4 * i, 4);
        std::memcpy(&e, cpp.data() + 4 * i, 4);
        const float ref = float(std::exp(double(x)));
        if (std::isnan(x)) EXPECT_TRUE(std::isnan(e));
        else if (std::isinf(ref) || ref == 0.f) EXPECT_EQ(e, ref) << x;
        else EXPECT_NEAR(e, ref, std::abs(ref) * 1e-6) << x;
    }
}

// ---- run-time findings, with the text door's codes ----

std::string code_of(const std::function<void()>& f)
{
    test::ScopedChecked checked;
    return test::diagnostic_of(f).code;
}

TEST(VectorCpp, FindingsCarryTheTextDoorsCodes)
{
    std::byte* ub = runtime::memory_base(TileType::Vec);
    runtime::mark_written(ub, 4096);
    VReg<64, float> r;
    Mask<64> all;
    all.set_all(true);
    EXPECT_EQ(code_of([&] { VLDS(r, UbPtr<float>(4)); }), "RUN_POINTER_ALIGN");
    EXPECT_EQ(code_of([&] { VSTS(r, UbPtr<float>(32) + 1); }), "RUN_POINTER_ALIGN");
    const int64_t size = int64_t(runtime::memory_size(TileType::Vec));
    EXPECT_EQ(code_of([&] { VLDS(r, UbPtr<float>(size - 128)); }), "RUN_POINTER_RANGE");
    EXPECT_EQ(code_of([&] { VSTS(r, UbPtr<float>(-256)); }), "RUN_POINTER_RANGE");
    // A default pointer points nowhere (offset -1), as a text pointer moved past 64 bits: refused first for its alignment.
    EXPECT_EQ(code_of([&] { VSTS(r, UbPtr<float>()); }), "RUN_POINTER_ALIGN");
    EXPECT_EQ(code_of([&] { VLDS(r, UbPtr<float>(size - 256) + 64, "BRC_B32"); }), "RUN_POINTER_RANGE");
    EXPECT_EQ(code_of([&] { VLDS(r, UbPtr<float>(0), "FOO"); }), "LEGAL_VLDS_DIST");
    EXPECT_EQ(code_of([&] { VLDS(r, UbPtr<float>(0), "US_B8"); }), "LEGAL_VLDS_DIST");
    EXPECT_EQ(code_of([&] { VSTS(r, UbPtr<float>(0), "PK_B32", all); }), "LEGAL_VSTS_DIST");
    // Checked mode: a load of never-written UB bytes.
    EXPECT_EQ(code_of([&] { VLDS(r, UbPtr<float>(size - 256)); }), "RUN_UNINIT_READ");
    // A RegBuf's width is checked at run time.
    RegBuf<predicate_t> b16;
    PSET_B16(b16, "PAT_ALL");
    EXPECT_EQ(code_of([&] { VADD(r, r, r, b16); }), "RUN_MASK_WIDTH");
    EXPECT_EQ(code_of([&] { PSET_B32(b16, "PAT_VL128"); }), "LEGAL_PSET_PATTERN");
    EXPECT_EQ(code_of([&] { PSET_B32(b16, "PAT_XYZ"); }), "LEGAL_PSET_PATTERN");
    EXPECT_EQ(code_of([&] { PPACK(b16, all, "MIDDLE"); }), "LEGAL_PREDICATE_PART");
    RegBuf<predicate_t> b8;
    PSET_B8(b8, "PAT_ALL");
    EXPECT_EQ(code_of([&] { PPACK(b16, b8, "LOWER"); }), "RUN_MASK_WIDTH");
    EXPECT_EQ(code_of([&] { PAND(b16, b16, b8, b16); }), "RUN_MASK_WIDTH");
    EXPECT_EQ(code_of([&] { PLDI(b8, UbPtr<ub_t>(0), 1024); }), "LEGAL_PREDICATE_IMMEDIATE");
    EXPECT_EQ(code_of([&] { PLD(b8, UbPtr<ub_t>(4), 0); }), "RUN_POINTER_ALIGN");
    EXPECT_EQ(code_of([&] { PLDS(b8, UbPtr<ub_t>(0), "PK"); }), "LEGAL_PREDICATE_DIST");
    EXPECT_EQ(code_of([&] { PST(b8, UbPtr<ub_t>(size - 8), 0); }), "RUN_POINTER_RANGE");
    // A tile with automatic storage is not in UB.
    Tile<TileType::Vec, float, 8, 64> automatic;
    EXPECT_EQ(code_of([&] { (void)Ptr<ub_space_t, float>(automatic); }), "RUN_BAD_OPERAND");
    // The buffer-slot protocol of pto.get_buf / pto.rls_buf.
    EXPECT_EQ(code_of([&] { RLS_BUF(3, PIPE_V, 0); }), "RUN_BUF_PROTOCOL");
    EXPECT_EQ(code_of([&] {
                  GET_BUF(3, PIPE_V, 0);
                  GET_BUF(3, PIPE_MTE2, 0);
                  RLS_BUF(3, PIPE_MTE2, 0);
                  RLS_BUF(3, PIPE_V, 0);
              }),
              "no error");
    EXPECT_EQ(code_of([&] { GET_BUF(32, PIPE_V, 0); }), "RUN_BUF_ID");
    EXPECT_EQ(code_of([&] {
                  GET_BUF(5, PIPE_V, 0);
                  GET_BUF(5, PIPE_V, 0);
              }),
              "RUN_BUF_PROTOCOL");
}

TEST(VectorCppStaticRules, IllegalTypesStopAtCompileTime)
{
    test::expect_static_rules("vector_cpp", "cpu",
                              {{"LEGAL_VREG_SHAPE", 2}, {"LEGAL_VECTOR_DTYPE", 4}, {"LEGAL_VECTOR_MASK_WIDTH", 3}, {"LEGAL_PREDICATE_PACK_WIDTH", 1},
                               {"LEGAL_VECTOR_SPACE", 1}});
}

}  // namespace
