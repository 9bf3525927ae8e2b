// The PTO assembly form of the vector micro-instructions (`vabs %r, %a, %m`: destination registers
// first, mostly untyped): every operation the ISA pages show in that form, written from one description
// both ways, runs to the same bits as its SSA form on random data, and reads back to the same module;
// and the form's diagnostics (an untyped destination nothing decides, a destination already defined,
// the wrong operand count, an unknown mnemonic, malformed lines) with their codes and places.
#include <gtest/gtest.h>

#include "asm/printer.hpp"
#include "vector_lane_support.hpp"

namespace pto::as::testing {
namespace {

using namespace vector_lanes;

// One operation written both ways.
struct Case {
    std::string op;        // the mnemonic, without `pto.`
    std::string dests;     // "%r", "%lo, %hi"; empty for an operation without results
    std::string operands;  // what follows in either form: operands, tokens, attributes
    std::string signature; // the SSA form's types after ':'
    std::string asm_types = {};  // the assembly form's (empty: none)
    std::string setup = {};      // lines before, in SSA form
    std::string observe = {};    // lines after: stores of the results
};

const std::string f32 = "!pto.vreg<64xf32>", i32 = "!pto.vreg<64xi32>", u32 = "!pto.vreg<64xui32>", f16 = "!pto.vreg<128xf16>",
                  i16 = "!pto.vreg<128xi16>", i8 = "!pto.vreg<256xi8>", b32 = "!pto.mask<b32>", b16 = "!pto.mask<b16>",
                  pf32 = "!pto.ptr<f32, ub>", pi64 = "!pto.ptr<i64, ub>", al = "!pto.align";

// Registers and masks from the input bytes, scalars, index registers.
const std::string kPrelude = [] {
    std::string s;
    auto load = [&](const std::string& name, const std::string& t, const std::string& reg, const std::string& at) {
        s += "    " + name + " = pto.vlds %in_" + t + "[" + at + "] : !pto.ptr<" + t + ", ub>, index -> " + reg + "\n";
    };
    load("%fa", "f32", f32, "%c0"), load("%fb", "f32", f32, "%c64"), load("%ia", "i32", i32, "%c128"), load("%ib", "i32", i32, "%c256");
    load("%ua", "ui32", u32, "%c0"), load("%ub", "ui32", u32, "%c64"), load("%ha", "f16", f16, "%c256"), load("%hb", "f16", f16, "%c512");
    load("%sa", "i16", i16, "%c128"), load("%sb", "i16", i16, "%c768");
    s += "    %mm = pto.vcmp %fa, %fb, %all_b32, \"lt\" : " + f32 + ", " + f32 + ", " + b32 + " -> " + b32 + "\n";
    s += "    %mn = pto.vcmp %ia, %ib, %all_b32, \"gt\" : " + i32 + ", " + i32 + ", " + b32 + " -> " + b32 + "\n";
    s += "    %mh = pto.vcmp %ha, %hb, %all_b16, \"le\" : " + f16 + ", " + f16 + ", " + b16 + " -> " + b16 + "\n";
    s += "    %sf = arith.constant 1.5 : f32\n    %si = arith.constant 3 : i32\n    %one = arith.constant 1 : i32\n";
    s += "    %top = arith.constant 63 : i32\n    %ix = pto.vci %top {order = \"DESC\"} : i32 -> " + i32 + "\n";
    s += "    %zero = arith.constant 0 : i32\n    %up = pto.vci %zero {order = \"ASC\"} : i32 -> " + i32 + "\n";
    s += "    %blk = arith.constant 64 : i32\n    %bo = pto.vbr %blk : i32 -> " + u32 + "\n";
    return s;
}();

// A store of register `r` (`type` with lanes of `bytes`) as output register `slot` (0 to 7).
std::string store(const std::string& r, const std::string& lane, int bytes, int slot)
{
    const std::string reg = "!pto.vreg<" + std::to_string(256 / bytes) + "x" + lane + ">";
    const std::string at = "%at_" + r.substr(1);
    return "    " + at + " = arith.constant " + std::to_string(slot * 256 / bytes) + " : index\n    pto.vsts " + r + ", %out_" + lane + "[" + at +
           "], %all_" + mask_name(bytes) + " : " + reg + ", !pto.ptr<" + lane + ", ub>, index, !pto.mask<" + mask_name(bytes) + ">\n";
}
std::string sf32(const std::string& r, int slot = 0) { return store(r, "f32", 4, slot); }
// A mask's image at output byte 32 * slot.
std::string smask(const std::string& m, const std::string& type, int slot = 0)
{
    const std::string at = "%mat_" + m.substr(1), p = "%mp_" + m.substr(1);
    return "    " + at + " = arith.constant " + std::to_string(slot * 4) + " : index\n    " + p + " = pto.addptr %out_i64, " + at + " : " + pi64 + " -> " +
           pi64 + "\n    pto.psts " + m + ", " + p + " : " + type + ", " + pi64 + "\n";
}

std::vector<Case> cases()
{
    std::vector<Case> c;
    const std::string bin = f32 + ", " + f32 + ", " + b32 + " -> " + f32;
    for (const char* op : {"vadd", "vsub", "vmul", "vdiv", "vmax", "vmin", "vaddrelu", "vsubrelu", "vprelu"})
        c.push_back({op, "%r", "%fa, %fb, %mm", bin, "", "", sf32("%r")});
    const std::string ibin = i32 + ", " + i32 + ", " + b32 + " -> " + i32;
    for (const char* op : {"vand", "vor", "vxor", "vshl", "vshr"}) c.push_back({op, "%r", "%ia, %ib, %mm", ibin, "", "", store("%r", "i32", 4, 1)});
    for (const char* op : {"vabs", "vneg", "vexp", "vln", "vsqrt", "vrsqrt", "vrec", "vrelu", "vmov"})
        c.push_back({op, "%r", "%fa, %mm", f32 + ", " + b32 + " -> " + f32, "", "", sf32("%r", 2)});
    for (const char* op : {"vnot", "vbcnt", "vcls"}) c.push_back({op, "%r", "%ia, %mn", i32 + ", " + b32 + " -> " + i32, "", "", store("%r", "i32", 4, 3)});
    for (const char* op : {"vadds", "vsubs", "vmuls", "vmaxs", "vmins", "vlrelu"})
        c.push_back({op, "%r", "%fa, %sf, %mm", f32 + ", f32, " + b32 + " -> " + f32, f32 + ", f32", "", sf32("%r", 4)});
    for (const char* op : {"vands", "vors", "vxors", "vshls", "vshrs"})
        c.push_back({op, "%r", "%ia, %si, %mm", i32 + ", i32, " + b32 + " -> " + i32, "", "", store("%r", "i32", 4, 5)});
    for (const char* op : {"vaddcs", "vsubcs"})
        c.push_back({op, "%r, %co", "%ua, %ub, %mm, %mn", u32 + ", " + u32 + ", " + b32 + ", " + b32 + " -> " + u32 + ", " + b32,
                     u32 + ", " + b32, "", store("%r", "ui32", 4, 1) + smask("%co", b32, 1)});
    for (const char* op : {"vaddc", "vsubc"})
        c.push_back({op, "%r, %co", "%ua, %ub, %mm", u32 + ", " + u32 + ", " + b32 + " -> " + u32 + ", " + b32, u32, "",
                     store("%r", "ui32", 4, 2) + smask("%co", b32, 2)});
    for (const char* op : {"vcadd", "vcmax", "vcmin", "vcgadd", "vcgmax", "vcgmin", "vcpadd"})
        c.push_back({op, "%r", "%fa, %mm", f32 + ", " + b32 + " -> " + f32, f32, "", sf32("%r", 6)});
    c.push_back({"vcmp", "%r", "%fa, %fb, %mm, \"ge\"", bin.substr(0, bin.size() - f32.size()) + b32, b32, "", smask("%r", b32)});
    c.push_back({"vcmps", "%r", "%fa, %sf, %mm, \"ne\"", f32 + ", f32, " + b32 + " -> " + b32, "", "", smask("%r", b32, 3)});
    c.push_back({"vsel", "%r", "%fa, %fb, %mm", bin, f32, "", sf32("%r", 7)});
    for (const char* op : {"vselr", "vselrv2"}) c.push_back({op, "%r", "%fa, %ix", f32 + ", " + i32 + " -> " + f32, f32, "", sf32("%r", 1)});
    // predicates
    for (const char* op : {"pand", "por", "pxor"}) c.push_back({op, "%r", "%mm, %mn, %all_b32", b32 + ", " + b32 + ", " + b32 + " -> " + b32, "", "", smask("%r", b32, 4)});
    c.push_back({"pnot", "%r", "%mm, %mn", b32 + ", " + b32 + " -> " + b32, "", "", smask("%r", b32, 5)});
    c.push_back({"psel", "%r", "%mm, %mn, %mm, %all_b32", b32 + ", " + b32 + ", " + b32 + ", " + b32 + " -> " + b32, "", "", smask("%r", b32, 6)});
    c.push_back({"ppack", "%r", "%mm, \"HIGHER\"", b32 + " -> " + b16, "", "", smask("%r", b16, 7)});
    c.push_back({"punpack", "%r", "%mh, \"LOWER\"", b16 + " -> " + b32, "", "", smask("%r", b32, 8)});
    for (const char* op : {"pintlv_b32", "pdintlv_b32"})
        c.push_back({op, "%lo, %hi", "%mm, %mn", b32 + ", " + b32 + " -> " + b32 + ", " + b32, "", "", smask("%lo", b32, 9) + smask("%hi", b32, 10)});
    for (const char* op : {"pintlv_b16", "pdintlv_b16"})
        c.push_back({op, "%lo, %hi", "%mh, %all_b16", b16 + ", " + b16 + " -> " + b16 + ", " + b16, "", "", smask("%lo", b16, 9) + smask("%hi", b16, 10)});
    c.push_back({"pset_b32", "%r", "\"PAT_M3\"", b32, "", "", smask("%r", b32, 11)});
    c.push_back({"pge_b16", "%r", "\"PAT_VL16\"", b16, "", "", smask("%r", b16, 12)});
    c.push_back({"plt_b32", "%r, %rest", "%top", "i32 -> " + b32 + ", i32", "", "",
                 smask("%r", b32, 13) + "    %rb = pto.vbr %rest : i32 -> " + i32 + "\n" + store("%rb", "i32", 4, 2)});
    // broadcasts and conversions
    c.push_back({"vbr", "%r", "%sf", "f32 -> " + f32, "", "", sf32("%r", 3)});
    c.push_back({"vdup", "%r", "%fa {position = \"HIGHEST\"}", f32 + " -> " + f32, "", "", sf32("%r", 4)});
    c.push_back({"vdup", "%r", "%sf {position = \"LOWEST\"}", "f32 -> " + f32, "", "", sf32("%r", 5)});
    c.push_back({"vcvt", "%r", "%fa, %mm {rnd = \"R\", sat = \"SAT\", part = \"ODD\"}", f32 + ", " + b32 + " -> " + f16, f16, "", store("%r", "f16", 2, 6)});
    c.push_back({"vtrc", "%r", "%fa, \"ROUND_F\"", f32 + " -> " + f32, "", "", sf32("%r", 7)});
    c.push_back({"vci", "%r", "%si {order = \"DESC\"}", "i32 -> " + i32, "", "", store("%r", "i32", 4, 7)});
    c.push_back({"vbitcast", "%r", "%fa", f32 + " -> " + i32, i32, "", store("%r", "i32", 4, 6)});
    c.push_back({"pbitcast", "%r", "%mm", b32 + " -> " + b16, b16, "", smask("%r", b16, 14)});
    // rearrangement
    for (const char* op : {"vintlv", "vdintlv"})
        c.push_back({op, "%lo, %hi", "%fa, %fb", f32 + ", " + f32 + " -> " + f32 + ", " + f32, "", "", sf32("%lo", 0) + sf32("%hi", 1)});
    for (const char* op : {"vintlvv2", "vdintlvv2"}) c.push_back({op, "%r", "%fa, %fb, \"HIGH\"", f32 + ", " + f32 + " -> " + f32, "", "", sf32("%r", 2)});
    c.push_back({"vslide", "%r", "%fa, %fb, %c8", f32 + ", " + f32 + ", index -> " + f32, "", "", sf32("%r", 3)});
    c.push_back({"vshift", "%r", "%fa, %c8", f32 + ", index -> " + f32, "", "", sf32("%r", 4)});
    c.push_back({"vperm", "%r", "%fa, %ix", f32 + ", " + i32 + " -> " + f32, "", "", sf32("%r", 5)});
    c.push_back({"vsqz", "%r", "%fa, %mm", f32 + ", " + b32 + " -> " + f32, "", "", sf32("%r", 6)});
    c.push_back({"vusqz", "%r", "%mm", b32 + " -> " + i32, i32, "", store("%r", "i32", 4, 7)});
    c.push_back({"vpack", "%r", "%ia, %ib, %c1", i32 + ", " + i32 + ", index -> " + i16, "", "", store("%r", "i16", 2, 0)});
    c.push_back({"vsunpack", "%r", "%sa, %c1", i16 + ", index -> " + i32, "", "", store("%r", "i32", 4, 1)});
    c.push_back({"vzunpack", "%r", "%sa, %c0", i16 + ", index -> " + i32, "", "", store("%r", "i32", 4, 2)});
    // fused, SFU
    c.push_back({"vmula", "%r", "%fa, %fb, %fa, %mm", f32 + ", " + f32 + ", " + f32 + ", " + b32 + " -> " + f32, f32, "", sf32("%r", 3)});
    c.push_back({"vaxpy", "%r", "%fa, %fb, %sf, %mm", f32 + ", " + f32 + ", f32, " + b32 + " -> " + f32, f32, "", sf32("%r", 4)});
    c.push_back({"vexpdif", "%r", "%fa, %fb", f32 + ", " + f32 + " -> " + f32, "", "", sf32("%r", 5)});
    c.push_back({"vmull", "%lo, %hi", "%ua, %ub, %mm", u32 + ", " + u32 + ", " + b32 + " -> " + u32 + ", " + u32, u32,  "",
                 store("%lo", "ui32", 4, 6) + store("%hi", "ui32", 4, 7)});
    c.push_back({"vaddreluconv", "%r", "%fa, %fb, %mm", bin.substr(0, bin.size() - f32.size()) + f16, "", "", store("%r", "f16", 2, 0)});
    c.push_back({"vmulconv", "%r", "%ha, %hb, %mh", f16 + ", " + f16 + ", " + b16 + " -> " + i8, "", "", store("%r", "i8", 1, 1)});
    // memory
    c.push_back({"vlds", "%r", "%in_f32[%c64] {dist = \"NORM\"}", pf32 + ", index -> " + f32, "", "", sf32("%r", 2)});
    c.push_back({"vlds", "%r", "%in_f16[%c32] {dist = \"UNPK_B16\"}", "!pto.ptr<f16, ub>, index -> !pto.vreg<64xf32>", f32, "", sf32("%r", 3)});
    c.push_back({"vsts", "", "%fa, %out_f32[%c64], %mm {dist = \"NORM_B32\"}", f32 + ", " + pf32 + ", index, " + b32});
    c.push_back({"vldsx2", "%lo, %hi", "%in_f32[%c0], \"DINTLV_B32\"", pf32 + ", index -> " + f32 + ", " + f32, "", "", sf32("%lo", 4) + sf32("%hi", 5)});
    c.push_back({"vstsx2", "", "%fa, %fb, %out_f32[%c0], \"INTLV_B32\", %mm", f32 + ", " + f32 + ", " + pf32 + ", index, " + b32});
    c.push_back({"vsld", "%r", "%in_f32[%c0], \"STRIDE_S8_B32\"", pf32 + ", index -> " + f32, "", "", sf32("%r", 6)});
    c.push_back({"vsst", "", "%fa, %out_f32[%c0], \"STRIDE_S8_B32\"", f32 + ", " + pf32 + ", index"});
    const std::string ctl = "    %ctl = arith.constant 196610 : i32\n";
    c.push_back({"vsldb", "%r", "%in_f32, %ctl, %mm", pf32 + ", i32, " + b32 + " -> " + f32, "", ctl, sf32("%r", 7)});
    c.push_back({"vsstb", "", "%fa, %out_f32, %ctl, %mm", f32 + ", " + pf32 + ", i32, " + b32, "", ctl});
    c.push_back({"vgather2", "%r", "%in_f32, %up, %c32", pf32 + ", " + i32 + ", index -> " + f32, "", "", sf32("%r", 0)});
    c.push_back({"vgather2_bc", "%r", "%in_f32, %ix, %mm", pf32 + ", " + i32 + ", " + b32 + " -> " + f32, "", "", sf32("%r", 1)});
    c.push_back({"vgatherb", "%r", "%in_f32, %bo, %c8", pf32 + ", " + u32 + ", index -> " + f32, "", "", sf32("%r", 2)});
    c.push_back({"vscatter", "", "%fa, %out_f32, %up, %c32", f32 + ", " + pf32 + ", " + i32 + ", index"});
    c.push_back({"plds", "%r", "%in_i64", pi64 + " -> !pto.mask<G>", "", "", smask("%r", "!pto.mask<G>", 3)});
    c.push_back({"pld", "%r", "%in_i64, %one, \"US\"", pi64 + ", i32 -> !pto.mask<G>", "", "", smask("%r", "!pto.mask<G>", 4)});
    c.push_back({"pldi", "%r", "%in_i64, 2, \"DS\"", pi64 + ", i32 -> !pto.mask<G>", "", "", smask("%r", "!pto.mask<G>", 5)});
    c.push_back({"psts", "", "%mm, %out_i64", b32 + ", " + pi64});
    c.push_back({"pst", "", "%mm, %out_i64, %one, \"PK\"", b32 + ", " + pi64 + ", i32"});
    c.push_back({"psti", "", "%mm, %out_i64, 3, \"NORM\"", b32 + ", " + pi64 + ", i32"});
    // the `!pto.align` streams
    const std::string s0 = "    %s0 = pto.init_align : " + al + "\n";
    c.push_back({"init_align", "%s", "", al, "", "", "    %sv, %sp = pto.vstus %s, %si, %fa, %out_f32 : " + al + ", i32, " + f32 + ", " + pf32 + " -> " + al + ", " + pf32 +
                 "\n    pto.vstar %sv, %sp : " + al + ", " + pf32 + "\n"});
    const std::string primed = "    %pr = pto.vldas %in_f32 : " + pf32 + " -> " + al + "\n";
    c.push_back({"vldas", "%s", "%in_f32", pf32 + " -> " + al, "", "",
                 "    %v, %s2, %p2 = pto.vldus %in_f32, %s : " + pf32 + ", " + al + " -> " + f32 + ", " + al + ", " + pf32 + "\n" + sf32("%v", 1)});
    c.push_back({"vldus", "%v, %s2, %p2", "%in_f32, %pr", pf32 + ", " + al + " -> " + f32 + ", " + al + ", " + pf32, "", primed,
                 sf32("%v", 1) + "    %w, %s3 = pto.vldus %p2, %s2 : " + pf32 + ", " + al + " -> " + f32 + ", " + al + "\n" + sf32("%w", 2)});
    const std::string flush_o = "    pto.vsta %s1, %out_f32[%o1] : " + al + ", " + pf32 + ", index\n";
    c.push_back({"vstu", "%s1, %o1", "%s0, %c1, %fa, %out_f32, \"POST_UPDATE\"", al + ", index, " + f32 + ", " + pf32 + " -> " + al + ", index", "", s0, flush_o});
    const std::string flush_p = "    pto.vstar %s1, %p1 : " + al + ", " + pf32 + "\n";
    c.push_back({"vstus", "%s1, %p1", "%s0, %si, %fa, %out_f32, \"POST_UPDATE\"", al + ", i32, " + f32 + ", " + pf32 + " -> " + al + ", " + pf32, "", s0, flush_p});
    c.push_back({"vstur", "%s1", "%s0, %fa, %out_f32, \"POST_UPDATE\"", al + ", " + f32 + ", " + pf32 + " -> " + al, "", s0,
                 "    pto.vstar %s1, %out_f32 : " + al + ", " + pf32 + "\n"});
    c.push_back({"pstu", "%s1, %p1", "%s0, %mm, %out_f32", al + ", " + b32 + ", " + pf32 + " -> " + al + ", " + pf32, "", s0, flush_p});
    const std::string streamed = s0 + "    %s1, %o1 = pto.vstu %s0, %c1, %fa, %out_f32, \"POST_UPDATE\" : " + al + ", index, " + f32 + ", " + pf32 + " -> " + al + ", index\n";
    c.push_back({"vsta", "", "%s1, %out_f32[%o1]", al + ", " + pf32 + ", index", "", streamed});
    c.push_back({"vstas", "", "%s1, %out_f32, %b260", al + ", " + pf32 + ", i32", "", streamed + "    %b260 = arith.constant 260 : i32\n"});
    // UB sorts and transposes (destination pointers are operands: no destination registers)
    c.push_back({"vsort32", "", "%out_f32, %in_f32, %c1", pf32 + ", " + pf32 + ", index"});
    c.push_back({"vtranspose", "", "%out_ui16, %in_ui16, %cfg", "!pto.ptr<ui16, ub>, !pto.ptr<ui16, ub>, i64", "", "    %cfg = arith.constant 1048592 : i64\n"});
    return c;
}

std::string asm_line(const Case& k)
{
    std::string line = "    " + k.op + (k.dests.empty() ? "" : " " + k.dests);
    if (!k.operands.empty()) line += (k.dests.empty() ? " " : ", ") + k.operands;
    return line + (k.asm_types.empty() ? "" : " : " + k.asm_types) + "\n";
}

std::string ssa_line(const Case& k)
{
    return "    " + (k.dests.empty() ? "" : k.dests + " = ") + "pto." + k.op + (k.operands.empty() ? "" : " " + k.operands) + " : " + k.signature + "\n";
}

std::string body_of(const Case& k, const std::string& line) { return kPrelude + k.setup + line + k.observe; }

TEST(VectorAssemblyForm, EveryPageOperationRunsToTheBitsOfItsSsaForm)
{
    int n = 0;
    for (const Case& k : cases()) {
        SCOPED_TRACE(k.op + ": " + asm_line(k));
        const std::vector<uint8_t> in = random_bytes(kBytes, uint32_t(1000 + n++));
        const std::vector<uint8_t> ssa = run_body(body_of(k, ssa_line(k)), in);
        const std::vector<uint8_t> assembly = run_body(body_of(k, asm_line(k)), in);
        EXPECT_EQ(assembly, ssa);
        EXPECT_NE(assembly, std::vector<uint8_t>(kBytes, 0xAB)) << "the case writes nothing";
    }
    EXPECT_GE(n, 110);
}

TEST(VectorAssemblyForm, ReadsIntoTheSsaFormsOperationAndPrintsAsIt)
{
    for (const Case& k : cases()) {
        SCOPED_TRACE(asm_line(k));
        const ParseResult assembly = parse_ok(program(body_of(k, asm_line(k))));
        const ParseResult ssa = parse_ok(program(body_of(k, ssa_line(k))));
        if (!assembly.ok() || !ssa.ok()) continue;
        const auto difference = first_difference(assembly.module, ssa.module, /*exact=*/false);
        EXPECT_FALSE(difference) << *difference;
        // Printed as written, it parses back to an equal module and prints the same.
        const std::string printed = print(assembly.module);
        const ParseResult again = parse_ok(printed);
        const auto exact = first_difference(assembly.module, again.module, /*exact=*/true);
        EXPECT_FALSE(exact) << *exact << "\n" << printed;
        EXPECT_EQ(print(again.module), printed);
        if (!k.dests.empty()) {
            EXPECT_EQ(printed.find(asm_line(k)), std::string::npos) << "printed as written in assembly";
        }
    }
}

}  // namespace
}  // namespace pto::as::testing

namespace pto::as::testing {
namespace {

using namespace vector_lanes;

// The diagnostics of `body` (after kPrelude) as "CODE@line:col", parse errors first, then (when it
// parsed) the verifier's on a5. Lines count from the body's first.
std::vector<std::string> findings(const std::string& body)
{
    const std::string text = program(kPrelude + body);
    const int offset = int(std::count(text.begin(), text.begin() + std::ptrdiff_t(text.find(body)), '\n'));
    auto place = [&](const Diagnostic& d) {
        const std::size_t colon = d.location.find(':');
        const std::size_t second = d.location.find(':', colon + 1);
        if (colon == std::string::npos || second == std::string::npos) return d.code + "@?";
        return d.code + "@" + std::to_string(std::stoi(d.location.substr(colon + 1)) - offset) + ":" + d.location.substr(second + 1);
    };
    const ParseResult parsed = parse(text, "test.pto");
    std::vector<std::string> out;
    for (const auto& d : parsed.diagnostics) out.push_back(place(d));
    if (parsed.ok())
        for (const auto& d : verify(parsed.module, profile::Target::A5)) out.push_back(place(d));
    return out;
}

using Codes = std::vector<std::string>;

TEST(VectorAssemblyForm, ADestinationNothingTypesNamesTheOperationAndTheTypedForm)
{
    // vusqz counts mask lanes into some integer register; vcvt, vbitcast and pbitcast choose their target.
    EXPECT_EQ(findings("    vusqz %u, %mm\n"), Codes{"PARSE_RESULT_TYPE@1:11"});
    EXPECT_EQ(findings("    vcvt %r, %fa, %mm {rnd = \"R\"}\n"), Codes{"PARSE_RESULT_TYPE@1:10"});
    EXPECT_EQ(findings("    vbitcast %r, %fa\n"), Codes{"PARSE_RESULT_TYPE@1:14"});
    EXPECT_EQ(findings("    pbitcast %r, %mm\n"), Codes{"PARSE_RESULT_TYPE@1:14"});
    // an index start says no lane width
    EXPECT_EQ(findings("    vci %r, %c0 {order = \"ASC\"}\n"), Codes{"PARSE_RESULT_TYPE@1:9"});
    // a load that changes the lane width says nothing of the lanes' kind
    EXPECT_EQ(findings("    vlds %r, %in_f16[%c32] {dist = \"UNPK_B16\"}\n"), Codes{"PARSE_RESULT_TYPE@1:10"});
    const ParseResult parsed = parse(program(kPrelude + "    vusqz %u, %mm\n"), "t.pto");
    ASSERT_EQ(parsed.diagnostics.size(), 1u);
    const std::string text = parsed.diagnostics[0].format();
    EXPECT_NE(text.find("vusqz"), std::string::npos) << text;
    EXPECT_NE(text.find("%u = pto.vusqz"), std::string::npos) << text;
    // A later use of the destination is not reported again.
    EXPECT_EQ(findings("    vusqz %u, %mm\n    vabs %w, %u, %mn\n"), Codes{"PARSE_RESULT_TYPE@1:11"});
    // Typed after ':' (or in the typed form) it is accepted.
    EXPECT_EQ(findings("    vusqz %u, %mm : !pto.vreg<64xui32>\n"), Codes{});
    EXPECT_EQ(findings("    vcvt %r, %fa, %mm {rnd = \"R\"} : (!pto.vreg<64xf32>, !pto.mask<b32>) -> !pto.vreg<64xi32>\n"), Codes{});
}

TEST(VectorAssemblyForm, ADestinationIsAFreshName)
{
    EXPECT_EQ(findings("    vabs %fb, %fa, %mm\n"), Codes{"PARSE_DUPLICATE_VALUE@1:10"});
    EXPECT_EQ(findings("    vintlv %lo, %fa, %fa, %fb\n"), Codes{"PARSE_DUPLICATE_VALUE@1:17"});
    EXPECT_EQ(findings("    vabs %r, %fa, %mm\n    vneg %r, %fa, %mm\n"), Codes{"PARSE_DUPLICATE_VALUE@2:10"});
    // The destination is defined by the operation: it cannot be one of its own operands.
    EXPECT_EQ(findings("    vabs %r, %r, %mm\n"), Codes{"PARSE_UNDEFINED_VALUE@1:14"});
    EXPECT_EQ(findings("    vabs %r#0, %fa, %mm\n"), Codes{"PARSE_UNEXPECTED_TOKEN@1:10"});
}

TEST(VectorAssemblyForm, TheWrongOperandCountIsTheVerifiersAsInTheSsaForm)
{
    EXPECT_EQ(findings("    vabs %r, %fa\n"), Codes{"STRUCT_OPERAND_COUNT@1:5"});
    EXPECT_EQ(findings("    vadd %r, %fa, %fb, %mm, %mm\n"), Codes{"STRUCT_OPERAND_COUNT@1:5"});
    EXPECT_EQ(findings("    vlds %r\n"), Codes{"STRUCT_OPERAND_COUNT@1:5"});
    // too few destinations: the operation's every result is written
    EXPECT_EQ(findings("    vintlv %lo\n"), Codes{"PARSE_UNEXPECTED_TOKEN@2:3"});
    EXPECT_EQ(findings("    vldus %v, %s, %in_f32, %fa\n"), Codes{"PARSE_DUPLICATE_VALUE@1:19"});
}

TEST(VectorAssemblyForm, AnUnknownMnemonicIsReportedAtItsName)
{
    EXPECT_EQ(findings("    vfoo %r, %fa, %mm\n"), Codes{"PARSE_UNKNOWN_OP@1:5"});
    EXPECT_EQ(findings("    PTO.vcvt  vd, vs, vmask, rnd, sat, part\n"), Codes{"PARSE_UNKNOWN_OP@1:5"});
    // With its operands all defined, it parses and the verifier knows no such operation.
    EXPECT_EQ(findings("    vfoo %fa, %mm\n"), Codes{"STRUCT_UNKNOWN_OP@1:5"});
}

TEST(VectorAssemblyForm, TypesAfterTheColonAreTheDestinationsThenOperands)
{
    // vadds's page writes the register's type and the scalar's
    EXPECT_EQ(findings("    vadds %r, %fa, %sf, %mm : !pto.vreg<64xf32>, f32\n"), Codes{});
    EXPECT_EQ(findings("    vadds %r, %fa, %sf, %mm : !pto.vreg<64xf32>, i8\n"), Codes{"PARSE_TYPE_COUNT@1:5"});
    // a stated destination type is checked as the typed form's is
    EXPECT_EQ(findings("    vadd %r, %fa, %fb, %mm : !pto.vreg<64xi32>\n"), Codes{"STRUCT_OPERAND_KIND@1:5"});
    EXPECT_EQ(findings("    vabs %r, %fa, %mm : (!pto.vreg<64xf32>, !pto.mask<b32>)\n"), Codes{"PARSE_UNEXPECTED_TOKEN@1:5"});
}

TEST(VectorAssemblyForm, MalformedLinesNeverCrashTheParser)
{
    for (const char* line : {"vabs %r,", "vabs %r, ,", "vabs %r %fa, %mm", "vabs %r, %fa, %mm :", "vabs %r, %fa, %mm : ->",
                             "vintlv %a, %b, %c", "vlds %r, %in_f32[", "vlds %r, %in_f32[%c0] {dist = ", "vsts , %fa", "vabs %", "vcmp %r, \"lt\"",
                             "vldus %a, %b, %c", "pstu %a, %b", "vabs %r, %fa, %mm : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32>, f32",
                             "plt_b32 %m, %n, 3", "get_vms4_sr %a, %b, %c", "init_align %s, %t", "vabs %r, %fa, %mm {", "PTO.vcvt"}) {
        SCOPED_TRACE(line);
        const std::vector<std::string> found = findings("    " + std::string(line) + "\n    vabs %after, %fa, %mm\n");
        EXPECT_FALSE(found.empty());
    }
}

}  // namespace
}  // namespace pto::as::testing

namespace pto::as::testing {
namespace {

// The scalar and synchronisation pages' assembly forms have no destination registers: the form is the
// SSA one without `pto.`, which the parser read already.
TEST(VectorAssemblyForm, TheScalarPagesFormsAreTheirSsaFormsWithoutThePrefix)
{
    const std::string asm_text = R"(func.func @k(%a: i64, %b: i64) {
  set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
  wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
  pipe_barrier "PIPE_ALL"
  set_loop_size_outtoub %a, %b : i64, i64
  set_loop1_stride_ubtoout %a, %b : i64, i64
  set_loop2_stride_outtoub %a, %b : i64, i64
  pto.vecscope {
    mem_bar "VV_ALL"
  }
  return
}
)";
    std::string ssa_text = asm_text;
    for (const char* op : {"set_flag", "wait_flag", "pipe_barrier", "set_loop_size_outtoub", "set_loop1_stride_ubtoout", "set_loop2_stride_outtoub", "mem_bar"})
        ssa_text.replace(ssa_text.find(op), 0, "pto.");
    const ParseResult assembly = parse_ok(asm_text), ssa = parse_ok(ssa_text);
    const auto difference = first_difference(assembly.module, ssa.module, /*exact=*/false);
    EXPECT_FALSE(difference) << *difference;
    EXPECT_TRUE(verify(assembly.module, profile::Target::A5).empty());
}

}  // namespace
}  // namespace pto::as::testing
