// The C++ forms of the vector micro-instructions (pto/intrinsics/vector.hpp) against the same programs in
// PTO-AS: each form runs on random data salted with special values, for every lane type its text form
// accepts, and must leave the same bytes in UB (checked mode on both sides). The lowercase forms
// (pto/intrinsics/vector_lowercase.hpp) run the same way. Also the pages' examples in both styles, and
// the run-time findings of the C++ door with the text door's codes.
#include <pto/intrinsics/vector_lowercase.hpp>
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
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

// The lowercase forms, run against the same text programs.
#define PTO_TEST_BINARY_LOWER(name, RULE) \
    check_lane_op<rules::VectorLanes::RULE, 2>(#name, [](auto& d, const auto& a, const auto& b, const auto& m) { name(d, a, b, m); }, binary_text(#name), seed += 100)
#define PTO_TEST_UNARY_LOWER(name, RULE) \
    check_lane_op<rules::VectorLanes::RULE, 1>(#name, [](auto& d, const auto& a, const auto& m) { name(d, a, m); }, unary_text(#name), seed += 100)

TEST(VectorCppLowercase, LaneFormsMatchTheTextDoorOnEveryLaneType)
{
    uint32_t seed = 20000;
    PTO_TEST_BINARY_LOWER(vadd, Any);
    PTO_TEST_BINARY_LOWER(vsub, Any);
    PTO_TEST_BINARY_LOWER(vmul, Any);
    PTO_TEST_BINARY_LOWER(vdiv, F32F16);
    PTO_TEST_BINARY_LOWER(vmax, Any);
    PTO_TEST_BINARY_LOWER(vmin, Any);
    PTO_TEST_BINARY_LOWER(vand, Integer);
    PTO_TEST_BINARY_LOWER(vor, Integer);
    PTO_TEST_BINARY_LOWER(vxor, Integer);
    PTO_TEST_BINARY_LOWER(vshl, Integer);
    PTO_TEST_BINARY_LOWER(vshr, Integer);
    PTO_TEST_BINARY_LOWER(vaddrelu, F32F16);
    PTO_TEST_BINARY_LOWER(vsubrelu, F32F16);
    PTO_TEST_UNARY_LOWER(vabs, Any);
    PTO_TEST_UNARY_LOWER(vneg, Any);
    PTO_TEST_UNARY_LOWER(vnot, Integer);
    PTO_TEST_UNARY_LOWER(vrelu, Any);
    PTO_TEST_UNARY_LOWER(vexp, Float);
    PTO_TEST_UNARY_LOWER(vln, Float);
    PTO_TEST_UNARY_LOWER(vsqrt, Float);
    PTO_TEST_UNARY_LOWER(vrsqrt, Float);
    PTO_TEST_UNARY_LOWER(vrec, Float);
    PTO_TEST_UNARY_LOWER(vmov, Any);
}

// The scalar of a vector-scalar test: a value every lane type holds exactly (and a legal shift amount).
template <typename T>
T test_scalar()
{
    if constexpr (engine::dtype_is_float(engine::dtype_of<T>)) return T(-1.75f);
    else return T(3);
}
std::string scalar_text(const LaneType& t) { return t.is_float ? "-1.75" : "3"; }

// VADDS ... VLRELU and vadds ... vlrelu against pto.vadds ... pto.vlrelu.
#define PTO_TEST_SCALAR(NAME, name, RULE)                                                                               \
    for (const bool lowercase : {false, true})                                                                         \
        check_lane_op<rules::VectorLanes::RULE, 1>(                                                                    \
            lowercase ? #name : #NAME,                                                                                 \
            [lowercase](auto& d, const auto& a, const auto& m) {                                                       \
                using T = typename std::decay_t<decltype(d)>::DType;                                                   \
                if (lowercase) name(d, a, test_scalar<T>(), m);                                                        \
                else NAME(d, a, test_scalar<T>(), m);                                                                  \
            },                                                                                                         \
            [](const LaneType& t) {                                                                                    \
                return "    %sc = arith.constant " + scalar_text(t) + " : " + t.scalar() + "\n    %r = pto." #name " %s0, %sc, %m : " + \
                       t.vreg() + ", " + t.scalar() + ", " + t.mask() + " -> " + t.vreg() + "\n";                      \
            },                                                                                                         \
            seed += 100)

TEST(VectorCpp, VectorScalarFormsMatchTheTextDoorOnEveryLaneType)
{
    uint32_t seed = 30000;
    PTO_TEST_SCALAR(VADDS, vadds, Any);
    PTO_TEST_SCALAR(VSUBS, vsubs, Any);
    PTO_TEST_SCALAR(VMULS, vmuls, Any);
    PTO_TEST_SCALAR(VMAXS, vmaxs, Any);
    PTO_TEST_SCALAR(VMINS, vmins, Any);
    PTO_TEST_SCALAR(VANDS, vands, Integer);
    PTO_TEST_SCALAR(VORS, vors, Integer);
    PTO_TEST_SCALAR(VXORS, vxors, Integer);
    PTO_TEST_SCALAR(VSHLS, vshls, Integer);
    PTO_TEST_SCALAR(VSHRS, vshrs, Integer);
    PTO_TEST_SCALAR(VLRELU, vlrelu, F32F16);
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

// The text of storing mask %v (of type `ty`) as predicate image k (32 bytes at kOut + 32k).
std::string pst_text(const std::string& v, const std::string& ty, int k)
{
    const std::string o = "%po" + std::to_string(k);
    return "    " + o + " = arith.constant " + std::to_string(4 * k) + " : i32\n    pto.pst " + v + ", %out_i64, " + o + ", \"NORM\" : " + ty +
           ", !pto.ptr<i64, ub>, i32\n";
}

// PGE, PLT (chained through the count left), PINTLV and PDINTLV of width Bytes, in both C++ styles
// and in text.
template <int Bytes>
void check_generation_and_interleave(const std::vector<uint8_t>& in, uint32_t count)
{
    using M = Mask<256 / Bytes>;
    const std::string w = "b" + std::to_string(8 * Bytes), ty = "!pto.mask<" + w + ">";
    constexpr int lanes = 256 / Bytes;
    const auto store = [](const auto& m, int k) { PSTS(m, UbPtr<ub_t>(kOut) + 32 * k); };
    const auto upper = run_cpp(in, [&] {
        M g, l0, l1, l2, a, b, lo, hi;
        if constexpr (Bytes == 1) PGE_B8(g, "PAT_VL3");
        else if constexpr (Bytes == 2) PGE_B16(g, "PAT_VL3");
        else PGE_B32(g, "PAT_VL3");
        uint32_t left = count;
        if constexpr (Bytes == 1) left = PLT_B8(l2, PLT_B8(l1, PLT_B8(l0, left)));
        else if constexpr (Bytes == 2) left = PLT_B16(l2, PLT_B16(l1, PLT_B16(l0, left)));
        else left = PLT_B32(l2, PLT_B32(l1, PLT_B32(l0, left)));
        EXPECT_EQ(left, uint32_t(std::max<int64_t>(int64_t(count) - 3 * lanes, 0)));
        PLDS(a, UbPtr<ub_t>(kIn));
        PLDS(b, UbPtr<ub_t>(kIn) + 32);
        if constexpr (Bytes == 1) PINTLV_B8(lo, hi, a, b);
        else if constexpr (Bytes == 2) PINTLV_B16(lo, hi, a, b);
        else PINTLV_B32(lo, hi, a, b);
        store(g, 0), store(l0, 1), store(l1, 2), store(l2, 3), store(lo, 4), store(hi, 5);
        if constexpr (Bytes == 1) PDINTLV_B8(lo, hi, a, b);
        else if constexpr (Bytes == 2) PDINTLV_B16(lo, hi, a, b);
        else PDINTLV_B32(lo, hi, a, b);
        store(lo, 6), store(hi, 7);
    });
    const auto lower = run_cpp(in, [&] {
        vector_bool g, l0, l1, l2, a, b, lo, hi;
        uint32_t left = count;
        auto* ub_in = reinterpret_cast<uint32_t*>(runtime::memory_base(TileType::Vec) + kIn);
        if constexpr (Bytes == 1) g = pge_b8(__cce_simd::PAT_VL3), l0 = plt_b8(left, __cce_simd::POST_UPDATE), l1 = plt_b8(left, __cce_simd::POST_UPDATE), l2 = plt_b8(left, __cce_simd::POST_UPDATE);
        else if constexpr (Bytes == 2) g = pge_b16(__cce_simd::PAT_VL3), l0 = plt_b16(left, __cce_simd::POST_UPDATE), l1 = plt_b16(left, __cce_simd::POST_UPDATE), l2 = plt_b16(left, __cce_simd::POST_UPDATE);
        else g = pge_b32(__cce_simd::PAT_VL3), l0 = plt_b32(left, __cce_simd::POST_UPDATE), l1 = plt_b32(left, __cce_simd::POST_UPDATE), l2 = plt_b32(left, __cce_simd::POST_UPDATE);
        plds(a, ub_in, 0, __cce_simd::NORM);
        plds(b, ub_in, 4, __cce_simd::NORM);
        // The loaded images are read at this width by the interleave.
        if constexpr (Bytes == 1) pintlv_b8(lo, hi, a, b);
        else if constexpr (Bytes == 2) pintlv_b16(lo, hi, a, b);
        else pintlv_b32(lo, hi, a, b);
        store(g, 0), store(l0, 1), store(l1, 2), store(l2, 3), store(lo, 4), store(hi, 5);
        if constexpr (Bytes == 1) pdintlv_b8(lo, hi, a, b);
        else if constexpr (Bytes == 2) pdintlv_b16(lo, hi, a, b);
        else pdintlv_b32(lo, hi, a, b);
        store(lo, 6), store(hi, 7);
    });
    std::string body = "    %g = pto.pge_" + w + " \"PAT_VL3\" : " + ty + "\n    %n = arith.constant " + std::to_string(count) + " : i32\n";
    body += "    %l0, %r0 = pto.plt_" + w + " %n : i32 -> " + ty + ", i32\n    %l1, %r1 = pto.plt_" + w + " %r0 : i32 -> " + ty + ", i32\n";
    body += "    %l2, %r2 = pto.plt_" + w + " %r1 : i32 -> " + ty + ", i32\n";
    body += "    %in4 = pto.addptr %in_i64, %c4i : !pto.ptr<i64, ub> -> !pto.ptr<i64, ub>\n";
    body += "    %ga = pto.plds %in_i64 : !pto.ptr<i64, ub> -> !pto.mask<G>\n    %gb = pto.plds %in4 : !pto.ptr<i64, ub> -> !pto.mask<G>\n";
    body += "    %il, %ih = pto.pintlv_" + w + " %ga, %gb : !pto.mask<G>, !pto.mask<G> -> " + ty + ", " + ty + "\n";
    body += "    %dl, %dh = pto.pdintlv_" + w + " %ga, %gb : !pto.mask<G>, !pto.mask<G> -> " + ty + ", " + ty + "\n";
    int k = 0;
    for (const char* v : {"%g", "%l0", "%l1", "%l2", "%il", "%ih", "%dl", "%dh"}) body += pst_text(v, ty, k++);
    body = "    %c4i = arith.constant 4 : index\n" + body;
    const auto text = run_body(body, in);
    EXPECT_EQ(upper, text) << "PGE, PLT, PINTLV, PDINTLV b" << 8 * Bytes << " count " << count;
    EXPECT_EQ(lower, text) << "pge, plt, pintlv, pdintlv b" << 8 * Bytes << " count " << count;
}

TEST(VectorCpp, PredicateGenerationAndInterleaveMatchTheTextDoorInBothStyles)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 33);
    for (uint32_t count : {0u, 5u, 70u, 200u, 1000u}) {
        check_generation_and_interleave<1>(in, count);
        check_generation_and_interleave<2>(in, count);
        check_generation_and_interleave<4>(in, count);
    }
}

TEST(VectorCpp, PredicateStreamMatchesTheTextDoorInBothStyles)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 34);
    // Three predicate images appended from byte 4 of the output (unaligned), then the tail flushed.
    const auto upper = run_cpp(in, [&] {
        RegBuf<predicate_t> masks[3];
        PSET_B32(masks[0], "PAT_M3");
        PSET_B16(masks[1], "PAT_VL8");
        PLDS(masks[2], UbPtr<ub_t>(kIn));
        Align align;
        Ptr<ub_space_t, float> at = UbPtr<float>(kOut) + 1;
        for (const auto& m : masks) {
            PSTU(m, at, align, align);
            at += 8;
        }
        VSTAR(align, at);
    });
    const auto lower = run_cpp(in, [&] {
        vector_bool masks[3] = {pset_b32(__cce_simd::PAT_M3), pset_b16(__cce_simd::PAT_VL8)};
        auto* ub_in = reinterpret_cast<uint32_t*>(runtime::memory_base(TileType::Vec) + kIn);
        plds(masks[2], ub_in, 0, __cce_simd::NORM);
        vector_align align;
        __ubuf__ float* base = reinterpret_cast<float*>(runtime::memory_base(TileType::Vec) + kOut) + 1;
        for (const auto& m : masks) pstu(align, m, base);
        vstar(align, base);
    });
    const std::string p = "!pto.ptr<f32, ub>";
    const std::string body = "    %p0 = pto.addptr %out_f32, %c1 : " + p + " -> " + p + "\n    %s0 = pto.init_align : !pto.align\n" +
                             "    %m0 = pto.pset_b32 \"PAT_M3\" : !pto.mask<b32>\n    %m1 = pto.pset_b16 \"PAT_VL8\" : !pto.mask<b16>\n" +
                             "    %m2 = pto.plds %in_i64 : !pto.ptr<i64, ub> -> !pto.mask<G>\n" +
                             "    %s1, %p1 = pto.pstu %s0, %m0, %p0 : !pto.align, !pto.mask<b32>, " + p + " -> !pto.align, " + p + "\n" +
                             "    %s2, %p2 = pto.pstu %s1, %m1, %p1 : !pto.align, !pto.mask<b16>, " + p + " -> !pto.align, " + p + "\n" +
                             "    %s3, %p3 = pto.pstu %s2, %m2, %p2 : !pto.align, !pto.mask<G>, " + p + " -> !pto.align, " + p + "\n" +
                             "    pto.vstar %s3, %p3 : !pto.align, " + p + "\n";
    const auto text = run_body(body, in);
    EXPECT_EQ(upper, text);
    EXPECT_EQ(lower, text);
    EXPECT_NE(text[4], 0xAB);         // written from byte 4 ...
    EXPECT_EQ(text[4 + 96], 0xAB);    // ... for 96 bytes
    EXPECT_NE(text[4 + 95] + text[4 + 94] + text[4 + 93] + text[4 + 92], 4 * 0xAB);
}

// Random scores with repeats (ties keep their order) and random indices.
std::vector<uint8_t> sort_input(const LaneType& t, uint32_t seed)
{
    std::vector<uint8_t> in = lane_data(t, seed);
    std::mt19937 gen(seed);
    for (int i = 0; i < 64; ++i) {
        const uint32_t index = gen() % 50;
        std::memcpy(in.data() + 1024 + 4 * i, &index, 4);
    }
    for (int i = 8; i < 16; ++i) std::memcpy(in.data() + i * t.bytes, in.data() + 3 * t.bytes, std::size_t(t.bytes));  // ties
    return in;
}

TEST(VectorCpp, BitSortMatchesTheTextDoorInBothStyles)
{
    uint32_t seed = 40000;
    for_each_lane_type([&]<typename T>() {
        if constexpr (rules::ub_sort_dtype_ok(engine::dtype_of<T>)) {
            const LaneType& t = lane_type<T>();
            const std::vector<uint8_t> in = sort_input(t, ++seed);
            const auto upper = run_cpp(in, [&] { VBITSORT(UbPtr<T>(kOut), UbPtr<T>(kIn), UbPtr<int32_t>(kIn + 1024), 2); });
            const auto lower = run_cpp(in, [&] {
                std::byte* ub = runtime::memory_base(TileType::Vec);
                vbitsort(reinterpret_cast<T*>(ub + kOut), reinterpret_cast<T*>(ub + kIn), reinterpret_cast<unsigned int*>(ub + kIn + 1024), 2);
            });
            const std::string body = "    %rep = arith.constant 2 : index\n    %idx_at = arith.constant 1024 : i64\n"
                                     "    %idx = pto.castptr %idx_at : i64 -> !pto.ptr<i32, ub>\n"
                                     "    pto.vbitsort %out_" + t.name + ", %in_" + t.name + ", %idx, %rep : " + t.ptr() + ", " + t.ptr() +
                                     ", !pto.ptr<i32, ub>, index\n";
            const auto text = run_body(body, in);
            EXPECT_EQ(upper, text) << "VBITSORT " << t.name;
            EXPECT_EQ(lower, text) << "vbitsort " << t.name;
            // Each group's records: the largest score first.
            for (int g = 0; g < 2; ++g) {
                for (int r = 1; r < 32; ++r) {
                    T prev, cur;
                    std::memcpy(&prev, upper.data() + 256 * g + 8 * (r - 1), sizeof(T));
                    std::memcpy(&cur, upper.data() + 256 * g + 8 * r, sizeof(T));
                    if (!std::isnan(double(prev)) && !std::isnan(double(cur))) {
                        EXPECT_GE(double(prev), double(cur)) << t.name << " " << g << " " << r;
                    }
                }
            }
        }
    });
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

// ---- the pages' uppercase predicate examples, as written ----

// Lane `lane` (of `lane_bytes`-byte lanes) of the predicate image stored at `at`: one bit per register byte.
bool image_lane(const std::vector<uint8_t>& out, int at, int lane_bytes, int lane)
{
    const int bit = lane * lane_bytes;
    return (out[std::size_t(at + bit / 8)] >> (bit % 8)) & 1;
}

void combine_masks(RegBuf<predicate_t>& dst, const RegBuf<predicate_t>& cmp_mask, const RegBuf<predicate_t>& tail_mask)
{
    PAND(dst, cmp_mask, tail_mask, cmp_mask);
}
void invert_mask(RegBuf<predicate_t>& dst, const RegBuf<predicate_t>& src) { PNOT(dst, src, src); }
void union_masks(RegBuf<predicate_t>& dst, const RegBuf<predicate_t>& mask_a, const RegBuf<predicate_t>& mask_b) { POR(dst, mask_a, mask_b, mask_a); }
void pack_for_f32(RegBuf<predicate_t>& dst, const RegBuf<predicate_t>& lo, const RegBuf<predicate_t>& hi)
{
    (void)hi;
    PPACK(dst, lo, "LOWER");
}
void select_predicate(RegBuf<predicate_t>& dst, const RegBuf<predicate_t>& src0, const RegBuf<predicate_t>& src1, const RegBuf<predicate_t>& sel)
{
    PSEL(dst, src0, src1, sel, sel);
}
void set_all_active(RegBuf<predicate_t>& dst) { PSET_B16(dst, "PAT_ALL"); }
void extract_upper(RegBuf<predicate_t>& dst, const RegBuf<predicate_t>& src_64) { PUNPACK(dst, src_64, "HIGHER"); }
void invert_with_mask(RegBuf<predicate_t>& dst, const RegBuf<predicate_t>& to_invert, const RegBuf<predicate_t>& mask)
{
    PXOR(dst, mask, to_invert, mask);
}
void load_with_offset(RegBuf<predicate_t>& dst, Ptr<ub_space_t, ub_t> base, int32_t slot) { PLD(dst, base, slot, "NORM"); }
void load_immediate(RegBuf<predicate_t>& dst, Ptr<ub_space_t, ub_t> base) { PLDI(dst, base, 3, "NORM"); }
void load_saved_mask(RegBuf<predicate_t>& dst, Ptr<ub_space_t, ub_t> src) { PLDS(dst, src); }
void store_with_offset(RegBuf<predicate_t>& src, Ptr<ub_space_t, ub_t> base, int32_t slot) { PST(src, base, slot, "NORM"); }
void store_immediate(RegBuf<predicate_t>& src, Ptr<ub_space_t, ub_t> base) { PSTI(src, base, 2, "NORM"); }
void save_mask(RegBuf<predicate_t>& src, Ptr<ub_space_t, ub_t> dst) { PSTS(src, dst); }
void compute_loop(int64_t buf_id, Ptr<ub_space_t, ub_t> ub_in, Ptr<ub_space_t, ub_t> ub_out)
{
    (void)ub_in, (void)ub_out;
    GET_BUF(buf_id, PIPE_V, 0);
    RegBuf<predicate_t> mask;
    PSET_B32(mask, "PAT_ALL");
    RLS_BUF(buf_id, PIPE_V, 0);
}

TEST(VectorCpp, ThePagesPredicateExamples)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 56);
    const auto out = run_cpp(in, [&] {
        RegBuf<predicate_t> a, b, sel, dst;
        PSET_B32(a, "PAT_M3");
        PSET_B32(b, "PAT_H");
        PSET_B32(sel, "PAT_M4");
        const UbPtr<ub_t> o(kOut);
        combine_masks(dst, a, b);
        save_mask(dst, o);
        invert_mask(dst, a);
        save_mask(dst, o + 32);
        union_masks(dst, a, b);
        store_with_offset(dst, o, 8);
        select_predicate(dst, a, b, sel);
        store_immediate(dst, o + 80);  // 80 + 2 * 8 = 96 bytes
        invert_with_mask(dst, a, b);
        save_mask(dst, o + 128);
        pack_for_f32(dst, a, b);
        save_mask(dst, o + 160);
        RegBuf<predicate_t> h16;
        PSET_B16(h16, "PAT_H");
        extract_upper(dst, h16);
        save_mask(dst, o + 192);
        set_all_active(dst);
        save_mask(dst, o + 224);
        load_with_offset(dst, UbPtr<ub_t>(kIn), 5);
        save_mask(dst, o + 256);
        load_immediate(dst, UbPtr<ub_t>(kIn));
        save_mask(dst, o + 288);
        load_saved_mask(dst, UbPtr<ub_t>(kIn) + 64);
        save_mask(dst, o + 320);
        compute_loop(7, UbPtr<ub_t>(kIn), o);
    });
    for (int lane = 0; lane < 64; ++lane) {
        const bool a = lane % 3 == 0, b = lane >= 32, sel = lane % 4 == 0;
        EXPECT_EQ(image_lane(out, 0, 4, lane), a && b) << lane;
        EXPECT_EQ(image_lane(out, 32, 4, lane), !a) << lane;
        EXPECT_EQ(image_lane(out, 64, 4, lane), a || b) << lane;
        EXPECT_EQ(image_lane(out, 96, 4, lane), sel ? a : b) << lane;
        EXPECT_EQ(image_lane(out, 128, 4, lane), a != b) << lane;
        // PPACK LOWER: the 64 b32 lanes into the lower half of 128 b16 lanes, the upper half clear.
        EXPECT_EQ(image_lane(out, 160, 2, lane), a) << lane;
        EXPECT_FALSE(image_lane(out, 160, 2, 64 + lane)) << lane;
        // PUNPACK HIGHER: the upper 64 of 128 b16 lanes (all active: PAT_H) as 64 b32 lanes.
        EXPECT_TRUE(image_lane(out, 192, 4, lane)) << lane;
    }
    for (int lane = 0; lane < 128; ++lane) EXPECT_TRUE(image_lane(out, 224, 2, lane)) << lane;
    EXPECT_TRUE(std::equal(out.begin() + 256, out.begin() + 288, in.begin() + 40));
    EXPECT_TRUE(std::equal(out.begin() + 288, out.begin() + 320, in.begin() + 24));
    EXPECT_TRUE(std::equal(out.begin() + 320, out.begin() + 352, in.begin() + 64));
}

// ---- the pages' lowercase examples, as written (operands given values where a page leaves them unset) ----

// The host address of UB byte `offset`, as a pointer to T (the pages' `__ubuf__ T*`).
template <typename T>
__ubuf__ T* ub_at(int64_t offset)
{
    return reinterpret_cast<T*>(runtime::memory_base(TileType::Vec) + offset);
}
void save(const vector_bool& m, int k) { PSTS(m, UbPtr<ub_t>(kOut) + 32 * k); }

TEST(VectorCppLowercase, ThePagesVaddAndVexp)
{
    const std::vector<uint8_t> in = lane_data(lane_type<float>(), 50);
    const auto out = run_cpp(in, [&] {
        vector_f32 dst;
        vector_f32 src0;
        vector_f32 src1;
        vector_bool mask = pset_b32(__cce_simd::PAT_ALL);
        VLDS(src0, UbPtr<float>(kIn));
        VLDS(src1, UbPtr<float>(kIn) + 64);
        vadd(dst, src0, src1, mask);
        VSTS(dst, UbPtr<float>(kOut));
        vector_f32 src = src0;
        mask = pset_b32(__cce_simd::PAT_M3);
        vexp(dst, src, mask);
        VSTS(dst, UbPtr<float>(kOut) + 64);
    });
    const auto upper = run_cpp(in, [&] {
        VReg<64, float> src, dst;
        Mask<64> m3;
        PSET_B32(m3, "PAT_M3");
        VLDS(src, UbPtr<float>(kIn));
        VEXP(dst, src, m3);
        VSTS(dst, UbPtr<float>(kOut) + 64);
    });
    for (int i = 0; i < 64; ++i) {
        float a, b, sum;
        std::memcpy(&a, in.data() + 4 * i, 4);
        std::memcpy(&b, in.data() + 256 + 4 * i, 4);
        std::memcpy(&sum, out.data() + 4 * i, 4);
        const float want = a + b;
        if (std::isnan(want)) EXPECT_TRUE(std::isnan(sum)) << i;
        else EXPECT_EQ(sum, want) << i;
    }
    EXPECT_TRUE(std::equal(out.begin() + 256, out.begin() + 512, upper.begin() + 256));
}

TEST(VectorCppLowercase, ThePagesPredicateGeneration)
{
    uint32_t elementCount = 100;
    const auto out = run_cpp({std::vector<uint8_t>(kBytes, 1)}, [&] {
        save(pset_b8(__cce_simd::PAT_VL4), 0);
        save(pset_b16(__cce_simd::PAT_VL8), 1);
        save(pset_b32(__cce_simd::PAT_VL16), 2);
        save(pge_b8(__cce_simd::PAT_VL4), 3);
        save(pge_b16(__cce_simd::PAT_VL8), 4);
        save(pge_b32(__cce_simd::PAT_VL16), 5);
        uint32_t scalar = elementCount;
        vector_bool mask = plt_b32(scalar, __cce_simd::POST_UPDATE);
        EXPECT_EQ(scalar, 36u);
        save(mask, 6);
        save(plt_b32(scalar, __cce_simd::POST_UPDATE), 7);
        EXPECT_EQ(scalar, 0u);
        scalar = elementCount;
        save(plt_b16(scalar, __cce_simd::POST_UPDATE), 8);
        EXPECT_EQ(scalar, 0u);
        scalar = elementCount;
        save(plt_b8(scalar, __cce_simd::NO_POST_UPDATE), 9);
        EXPECT_EQ(scalar, elementCount);
    });
    const struct {
        int bytes, active;
    } want[] = {{1, 4}, {2, 8}, {4, 16}, {1, 4}, {2, 8}, {4, 16}, {4, 64}, {4, 36}, {2, 100}, {1, 100}};
    for (int k = 0; k < 10; ++k)
        for (int lane = 0; lane < 256 / want[k].bytes; ++lane)
            EXPECT_EQ(image_lane(out, 32 * k, want[k].bytes, lane), lane < want[k].active) << k << " " << lane;
}

TEST(VectorCppLowercase, ThePagesPredicateAlgebra)
{
    const auto out = run_cpp(random_bytes(kBytes, 51), [&] {
        vector_bool dst;
        vector_bool src0 = pset_b32(__cce_simd::PAT_M3);
        vector_bool src1 = pset_b32(__cce_simd::PAT_H);
        vector_bool mask = pset_b32(__cce_simd::PAT_ALL);
        pand(dst, src0, src1, mask);
        save(dst, 0);
        por(dst, src0, src1, mask);
        save(dst, 1);
        pxor(dst, src0, src1, mask);
        save(dst, 2);
        vector_bool src = src0;
        pnot(dst, src, mask);
        save(dst, 3);
        mask = pset_b32(__cce_simd::PAT_M4);  // psel's fourth operand selects
        psel(dst, src0, src1, mask);
        save(dst, 4);
    });
    for (int lane = 0; lane < 64; ++lane) {
        const bool a = lane % 3 == 0, b = lane >= 32, sel = lane % 4 == 0;
        EXPECT_EQ(image_lane(out, 0, 4, lane), a && b) << lane;
        EXPECT_EQ(image_lane(out, 32, 4, lane), a || b) << lane;
        EXPECT_EQ(image_lane(out, 64, 4, lane), a != b) << lane;
        EXPECT_EQ(image_lane(out, 96, 4, lane), !a) << lane;
        EXPECT_EQ(image_lane(out, 128, 4, lane), sel ? a : b) << lane;
    }
}

TEST(VectorCppLowercase, ThePagesPackAndInterleaveMatchTheUppercaseForms)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 52);
    const auto lower = run_cpp(in, [&] {
        vector_bool dst;
        vector_bool src = pset_b32(__cce_simd::PAT_M3);
        ppack(dst, src, __cce_simd::LOWER);
        save(dst, 0);
        src = pset_b16(__cce_simd::PAT_Q);
        punpack(dst, src, __cce_simd::HIGHER);
        save(dst, 1);
        vector_bool dst0;
        vector_bool dst1;
        vector_bool src0 = pset_b16(__cce_simd::PAT_M3);
        vector_bool src1 = pset_b16(__cce_simd::PAT_VL32);
        pintlv_b16(dst0, dst1, src0, src1);
        save(dst0, 2), save(dst1, 3);
        src0 = pset_b8(__cce_simd::PAT_M4);
        src1 = pset_b8(__cce_simd::PAT_H);
        pdintlv_b8(dst0, dst1, src0, src1);
        save(dst0, 4), save(dst1, 5);
    });
    const auto upper = run_cpp(in, [&] {
        Mask<64> b32, u32;
        Mask<128> p16, q16, a16, b16, lo16, hi16;
        Mask<256> a8, b8, lo8, hi8;
        PSET_B32(b32, "PAT_M3");
        PPACK(p16, b32, "LOWER");
        PSTS(p16, UbPtr<ub_t>(kOut));
        PSET_B16(q16, "PAT_Q");
        PUNPACK(u32, q16, "HIGHER");
        PSTS(u32, UbPtr<ub_t>(kOut) + 32);
        PSET_B16(a16, "PAT_M3");
        PSET_B16(b16, "PAT_VL32");
        PINTLV_B16(lo16, hi16, a16, b16);
        PSTS(lo16, UbPtr<ub_t>(kOut) + 64);
        PSTS(hi16, UbPtr<ub_t>(kOut) + 96);
        PSET_B8(a8, "PAT_M4");
        PSET_B8(b8, "PAT_H");
        PDINTLV_B8(lo8, hi8, a8, b8);
        PSTS(lo8, UbPtr<ub_t>(kOut) + 128);
        PSTS(hi8, UbPtr<ub_t>(kOut) + 160);
    });
    EXPECT_EQ(lower, upper);
    // pintlv_b16: lanes a0 b0 a1 b1 ..., the first 128 to dst0.
    for (int lane = 0; lane < 128; ++lane) {
        const int i = lane / 2;
        EXPECT_EQ(image_lane(lower, 64, 2, lane), lane % 2 ? i < 32 : i % 3 == 0) << lane;
    }
}

TEST(VectorCppLowercase, ThePagesPredicateLoadsAndStores)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 53);
    const auto lower = run_cpp(in, [&] {
        vector_bool dst;
        __ubuf__ uint32_t* base = ub_at<uint32_t>(kIn);
        vector_address offset{2};
        pld(dst, base, offset, __cce_simd::NORM);
        vector_bool src = dst;
        __ubuf__ uint32_t* out = ub_at<uint32_t>(kOut);
        pst(src, out, vector_address{0}, __cce_simd::NORM);
        int32_t imm = 0;
        pldi(dst, base, imm, __cce_simd::NORM);
        psti(dst, out, 4, __cce_simd::NORM);
        pldi(dst, base, 3, __cce_simd::US, __cce_simd::POST_UPDATE);  // at base, then base moves 24 bytes
        EXPECT_EQ(base, ub_at<uint32_t>(kIn + 24));
        psti(dst, out, 8, __cce_simd::NORM);
        plds(dst, base, imm, __cce_simd::DS);
        psts(dst, out, 12, __cce_simd::NORM);
        plds(dst, base, 1, __cce_simd::NORM, __cce_simd::POST_UPDATE);
        EXPECT_EQ(base, ub_at<uint32_t>(kIn + 32));
        out = ub_at<uint32_t>(kOut + 128);
        psts(dst, out, 4, __cce_simd::NORM, __cce_simd::POST_UPDATE);  // at out, then out moves 32 bytes
        EXPECT_EQ(out, ub_at<uint32_t>(kOut + 160));
        psti(dst, out, 2, __cce_simd::NORM, __cce_simd::POST_UPDATE);
        EXPECT_EQ(out, ub_at<uint32_t>(kOut + 176));
        psts(pset_b16(__cce_simd::PAT_M3), out, 0, __cce_simd::PK);
    });
    const auto upper = run_cpp(in, [&] {
        RegBuf<predicate_t> m;
        const UbPtr<ub_t> base(kIn), out(kOut);
        PLD(m, base, 2, "NORM");
        PST(m, out, 0);
        PLDI(m, base, 0, "NORM");
        PSTI(m, out, 4);
        PLDI(m, base, 0, "US");
        PSTI(m, out, 8);
        PLDS(m, base + 24, "DS");
        PSTS(m, out + 96);
        PLDS(m, base + 24);
        PSTS(m, out + 128);
        PSTS(m, out + 160);
        RegBuf<predicate_t> m3;
        PSET_B16(m3, "PAT_M3");
        PSTS(m3, out + 176, "PK");
    });
    EXPECT_EQ(lower, upper);
    EXPECT_TRUE(std::equal(lower.begin(), lower.begin() + 32, in.begin() + 16));  // pld at base + 2 * 8 bytes
}

TEST(VectorCppLowercase, ThePagesPstuAndTheUppercaseStreamMasks)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 54);
    const auto lower = run_cpp(in, [&] {
        vector_align alignData;
        vector_bool src = pset_b32(__cce_simd::PAT_M3);
        __ubuf__ uint32_t* base = ub_at<uint32_t>(kOut + 8);
        pstu(alignData, src, base);
        EXPECT_EQ(base, ub_at<uint32_t>(kOut + 40));
        src = pset_b8(__cce_simd::PAT_H);
        pstu(alignData, src, base);
        vstar(alignData, base);
    });
    // stream_masks of pstu.md: `predicate_t align_state = 0` is an Align here, `predicate_width_bytes` 32.
    const auto stream_masks = [](Ptr<ub_space_t, ub_t> dst_base, RegBuf<predicate_t>* masks, int count) {
        Align align_state;
        for (int i = 0; i < count; ++i) {
            PSTU(masks[i], dst_base, align_state, align_state);
            dst_base = dst_base + 32;
        }
        VSTAR(align_state, dst_base);
    };
    const auto upper = run_cpp(in, [&] {
        RegBuf<predicate_t> masks[2];
        PSET_B32(masks[0], "PAT_M3");
        PSET_B8(masks[1], "PAT_H");
        stream_masks(UbPtr<ub_t>(kOut) + 8, masks, 2);
    });
    EXPECT_EQ(lower, upper);
    for (int lane = 0; lane < 64; ++lane) EXPECT_EQ(image_lane(lower, 8, 4, lane), lane % 3 == 0) << lane;
    for (int lane = 0; lane < 256; ++lane) EXPECT_EQ(image_lane(lower, 40, 1, lane), lane >= 128) << lane;
    EXPECT_EQ(lower[7], 0xAB);
    EXPECT_EQ(lower[72], 0xAB);
}

TEST(VectorCppLowercase, ThePagesVbitsortAgainstAReferenceSort)
{
    const std::vector<uint8_t> in = sort_input(lane_type<float>(), 55);
    const auto out = run_cpp(in, [&] {
        __ubuf__ float* dst = ub_at<float>(kOut);
        __ubuf__ float* scores = ub_at<float>(kIn);
        __ubuf__ unsigned int* indices = ub_at<unsigned int>(kIn + 1024);
        uint8_t repeat = 1;
        vbitsort(dst, scores, indices, repeat);
    });
    struct Record {
        float value;
        uint32_t index;
    };
    std::vector<Record> want(32);
    for (int i = 0; i < 32; ++i) {
        std::memcpy(&want[std::size_t(i)].value, in.data() + 4 * i, 4);
        std::memcpy(&want[std::size_t(i)].index, in.data() + 1024 + 4 * i, 4);
    }
    // Largest first; equal scores by ascending index, then in input order (TSORT32's order).
    std::stable_sort(want.begin(), want.end(),
                     [](const Record& a, const Record& b) { return a.value > b.value || (a.value == b.value && a.index < b.index); });
    bool has_nan = false;
    for (const Record& r : want) has_nan |= std::isnan(r.value);
    if (has_nan) GTEST_SKIP() << "a NaN score: its order is checked against the text door in BitSortMatchesTheTextDoorInBothStyles";
    for (int r = 0; r < 32; ++r) {
        Record got;
        std::memcpy(&got.value, out.data() + 8 * r, 4);
        std::memcpy(&got.index, out.data() + 8 * r + 4, 4);
        EXPECT_EQ(std::bit_cast<uint32_t>(got.value), std::bit_cast<uint32_t>(want[std::size_t(r)].value)) << r;
        EXPECT_EQ(got.index, want[std::size_t(r)].index) << r;
    }
}

TEST(VectorCppLowercase, ThePagesGetBufAndRlsBuf)
{
    test::ScopedChecked checked;
    pipe_t pipe = PIPE_S;
    uint64_t bufId = 0;
    bool mode = true;
    EXPECT_EQ(test::diagnostic_of([&] {
                  get_buf(pipe, bufId, mode);
                  rls_buf(pipe, bufId, mode);
              }).code,
              "no error");
    EXPECT_EQ(test::diagnostic_of([&] { rls_buf(pipe, bufId, mode); }).code, "RUN_BUF_PROTOCOL");
}

// ---- run-time findings, with the text door's codes ----

std::string code_of(const std::function<void()>& f)
{
    test::ScopedChecked checked;
    return test::diagnostic_of(f).code;
}

TEST(VectorCppLowercase, ThePagesCrossCoreFlagsCountAsTheTextForms)
{
    // The cube sets id 2 fifteen times ahead (a2a3: one set reaches both vector cores), each vector
    // core takes all fifteen; on a5 each vector core has its own ids (16 + id for the second).
    std::atomic<int> taken{0};
    const auto a2a3 = [&] {
        for (int i = 0; i < 15; ++i) {
            if (sim::is_cube_core()) {
                set_cross_core(PIPE_FIX, 2);
            } else {
                mem_bar(VST_VLD);
                wait_flag_dev(2);
                ++taken;
            }
        }
    };
    sim::launch_mixed(2, a2a3, a2a3);
    EXPECT_EQ(taken.load(), 2 * 2 * 15);
    taken = 0;
    const auto a5 = [&] {
        if (sim::is_cube_core()) {
            set_intra_block(PIPE_FIX, 5);
            set_intra_block(PIPE_FIX, 16 + 5);
        } else {
            wait_intra_core(PIPE_V, 5);
            ++taken;
        }
    };
    sim::launch_mixed(1, a5, a5);
    EXPECT_EQ(taken.load(), 2);
    // Their findings are the runtime's: an id outside the pool, a wait no core will end.
    const auto bad_id = [] { set_intra_block(PIPE_MTE2, 32); };
    EXPECT_EQ(pto::test::diagnostic_of([&] { sim::launch_mixed(1, bad_id, bad_id); }).code, "RUN_CROSS_CORE_ID");
    const auto stuck = [] {
        if (!sim::is_cube_core()) wait_flag_dev(4);
    };
    EXPECT_EQ(pto::test::diagnostic_of([&] { sim::launch_mixed(1, stuck, stuck); }).code, "ORDER_DEADLOCK");
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

TEST(VectorCppLowercase, FindingsOfTheNewFormsCarryTheTextDoorsCodes)
{
    std::byte* ub = runtime::memory_base(TileType::Vec);
    runtime::mark_written(ub, 4096);
    vector_f32 f;
    vector_bool b16 = pset_b16(__cce_simd::PAT_ALL);
    EXPECT_EQ(code_of([&] { vadd(f, f, f, b16); }), "RUN_MASK_WIDTH");
    EXPECT_EQ(code_of([&] { vadds(f, f, 1.0f, b16); }), "RUN_MASK_WIDTH");
    EXPECT_EQ(code_of([&] { (void)pset_b32(__cce_simd::PAT_VL128); }), "LEGAL_PSET_PATTERN");
    EXPECT_EQ(code_of([&] { (void)pge_b16(__cce_simd::PAT_M3); }), "no error");
    vector_bool lo, hi;
    EXPECT_EQ(code_of([&] { pintlv_b32(lo, hi, b16, b16); }), "RUN_MASK_WIDTH");
    uint32_t n = 10;
    vector_bool tail = plt_b16(n, __cce_simd::POST_UPDATE);
    EXPECT_EQ(code_of([&] { vexp(f, f, tail); }), "RUN_MASK_WIDTH");
    // A pointer outside UB, an offset past it, an immediate past the encoding.
    float automatic[64] = {};
    EXPECT_EQ(code_of([&] { pld(lo, automatic, vector_address{0}, __cce_simd::NORM); }), "RUN_BAD_OPERAND");
    // Host addresses into UB are taken inside checked mode, which gives the core fresh memories.
    EXPECT_EQ(code_of([&] { pld(lo, ub_at<uint32_t>(0), vector_address{int64_t(runtime::memory_size(TileType::Vec) / 8)}, __cce_simd::NORM); }),
              "RUN_POINTER_RANGE");
    EXPECT_EQ(code_of([&] {
                  uint32_t* base = ub_at<uint32_t>(0);
                  pldi(lo, base, 1024, __cce_simd::NORM);
              }),
              "LEGAL_PREDICATE_IMMEDIATE");
    EXPECT_EQ(code_of([&] {
                  uint32_t* base = ub_at<uint32_t>(0);
                  psti(lo, base, -1, __cce_simd::NORM, __cce_simd::POST_UPDATE);
              }),
              "LEGAL_PREDICATE_IMMEDIATE");
    EXPECT_EQ(code_of([&] {
                  uint32_t* base = ub_at<uint32_t>(0);
                  psts(lo, base, 0, __cce_simd::US);
              }),
              "LEGAL_PREDICATE_DIST");
    // A stream continued elsewhere, flushed elsewhere.
    EXPECT_EQ(code_of([&] {
                  vector_align align;
                  uint32_t* at = ub_at<uint32_t>(4);
                  pstu(align, b16, at);
                  uint32_t* elsewhere = ub_at<uint32_t>(100);
                  pstu(align, b16, elsewhere);
              }),
              "RUN_ALIGN_STREAM");
    EXPECT_EQ(code_of([&] {
                  vector_align align;
                  uint32_t* at = ub_at<uint32_t>(4);
                  pstu(align, b16, at);
                  vstar(align, ub_at<uint32_t>(40));
              }),
              "RUN_ALIGN_STREAM");
    // vbitsort's repeat count and 32-byte addresses.
    EXPECT_EQ(code_of([&] { vbitsort(ub_at<float>(2048), ub_at<float>(0), ub_at<uint32_t>(1024), 0); }), "RUN_VECTOR_CONFIG");
    EXPECT_EQ(code_of([&] { vbitsort(ub_at<float>(2048), ub_at<float>(0), ub_at<uint32_t>(1024), 256); }), "RUN_VECTOR_CONFIG");
    EXPECT_EQ(code_of([&] { vbitsort(ub_at<float>(2048 + 8), ub_at<float>(0), ub_at<uint32_t>(1024), 1); }), "RUN_POINTER_ALIGN");
    EXPECT_EQ(code_of([&] { vbitsort(ub_at<half>(2048), ub_at<half>(0), ub_at<int32_t>(1024 + 4), 1); }), "RUN_POINTER_ALIGN");
    EXPECT_EQ(code_of([&] { get_buf(PIPE_V, 32, 0); }), "RUN_BUF_ID");
}

TEST(VectorCppStaticRules, IllegalTypesStopAtCompileTime)
{
    test::expect_static_rules("vector_cpp", "cpu",
                              {{"LEGAL_VREG_SHAPE", 2}, {"LEGAL_VECTOR_DTYPE", 8}, {"LEGAL_VECTOR_MASK_WIDTH", 6}, {"LEGAL_PREDICATE_PACK_WIDTH", 1},
                               {"LEGAL_VECTOR_SPACE", 1}});
}

}  // namespace
