// Predicate loads and stores (pto.plds, pld, pldi, psts, pst, psti, pstu) and the `!pto.align`
// streams (pto.init_align, vldas, vldus, vstu, vstus, vstur, vsta, vstas, vstar) from PTO-AS: the
// stored images and streamed bytes against reference loops over random data, and their diagnostics.
#include <string>
#include <vector>

#include "vector_lane_support.hpp"

namespace pto::as::testing {
namespace {

using namespace vector_lanes;

bool bit(const uint8_t* image, int k) { return (image[k / 8] >> (k % 8)) & 1; }

const std::string kSlot = "    %s1 = arith.constant 1 : i32\n";

TEST(VectorPredicateMemory, StoresWriteTheImageOfTheMaskOneBitPerRegisterByte)
{
    for (const char* w : {"b8", "b16", "b32"}) {
        const int lane = w[1] == '8' ? 1 : w[1] == '1' ? 2 : 4;
        const std::string body = "    %m = pto.pset_" + std::string(w) + " \"PAT_M3\" : !pto.mask<" + w + ">\n" + kSlot +
                                 "    pto.psts %m, %out_i64 : !pto.mask<" + w + ">, !pto.ptr<i64, ub>\n" +
                                 "    %s4 = arith.constant 4 : i32\n    pto.pst %m, %out_i64, %s4, \"PK\" : !pto.mask<" + w + ">, !pto.ptr<i64, ub>, i32\n";
        const std::vector<uint8_t> out = run_body(body, random_bytes(kBytes, 1));
        for (int k = 0; k < 256; ++k) ASSERT_EQ(bit(out.data(), k), m3(k / lane)) << w << " NORM bit " << k;
        // PK at slot 4 (byte 32): every other bit, 16 bytes, the rest untouched.
        for (int k = 0; k < 128; ++k) ASSERT_EQ(bit(out.data() + 32, k), m3(2 * k / lane)) << w << " PK bit " << k;
        EXPECT_EQ(out[48], 0xAB);
    }
}

TEST(VectorPredicateMemory, LoadsReadTheImageInEachDistribution)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 9);
    struct Case { std::string dist; int step_num, step_den; };
    for (const Case& c : std::vector<Case>{{"NORM", 1, 1}, {"US", 1, 2}, {"DS", 2, 1}}) {
        // Loaded into an open-width mask and stored back as its NORM image; pld at slot 1 (8 bytes), pldi
        // there too with the slot a constant and a literal (stored with psti at slot 8, byte 64).
        const std::string body = kSlot + "    %m = pto.pld %in_i64, %s1, \"" + c.dist + "\" : !pto.ptr<i64, ub>, i32 -> !pto.mask<G>\n" +
                                 "    %n = pto.pldi %in_i64, %s1, \"" + c.dist + "\" : !pto.ptr<i64, ub>, i32 -> !pto.mask<G>\n" +
                                 "    %l = pto.pldi %in_i64, 1, \"" + c.dist + "\" : !pto.ptr<i64, ub>, i32 -> !pto.mask<G>\n" +
                                 "    pto.psts %m, %out_i64 : !pto.mask<G>, !pto.ptr<i64, ub>\n    %c4 = arith.constant 4 : index\n" +
                                 "    %o = pto.addptr %out_i64, %c4 : !pto.ptr<i64, ub> -> !pto.ptr<i64, ub>\n    pto.psts %n, %o : !pto.mask<G>, !pto.ptr<i64, ub>\n" +
                                 "    pto.psti %l, %out_i64, 8, \"NORM\" : !pto.mask<G>, !pto.ptr<i64, ub>, i32\n";
        const std::vector<uint8_t> out = run_body(body, in);
        for (int k = 0; k < 256; ++k) {
            const bool want = bit(in.data() + 8, k * c.step_num / c.step_den);
            ASSERT_EQ(bit(out.data(), k), want) << c.dist << " bit " << k;
            ASSERT_EQ(bit(out.data() + 32, k), want) << c.dist << " pldi bit " << k;
            ASSERT_EQ(bit(out.data() + 64, k), want) << c.dist << " pldi literal bit " << k;
        }
    }
}

// pto.pldi / pto.psti take their offset as an integer literal (the op pages' example) or as a value
// of arith.constant: both spellings store the same bytes.
TEST(VectorPredicateMemory, ImmediateOffsetsStoreTheSameAsALiteralOrAConstant)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 22);
    for (const char* dist : {"NORM", "PK"}) {
        // A random mask (the NORM image of input bytes 40..71) stored at slot 5 (literal) and slot 9 (constant).
        const std::string body = "    %m = pto.pldi %in_i64, 5, \"NORM\" : !pto.ptr<i64, ub>, i32 -> !pto.mask<G>\n    %s9 = arith.constant 9 : i32\n"
                                 "    pto.psti %m, %out_i64, 5, \"" + std::string(dist) + "\" : !pto.mask<G>, !pto.ptr<i64, ub>, i32\n"
                                 "    pto.psti %m, %out_i64, %s9, \"" + std::string(dist) + "\" : !pto.mask<G>, !pto.ptr<i64, ub>, i32\n";
        const std::vector<uint8_t> out = run_body(body, in);
        const bool packed = std::string(dist) == "PK";
        const int bits = packed ? 128 : 256;
        for (int k = 0; k < bits; ++k) {
            const bool want = bit(in.data() + 40, packed ? 2 * k : k);
            ASSERT_EQ(bit(out.data() + 40, k), want) << dist << " literal bit " << k;
            ASSERT_EQ(bit(out.data() + 72, k), want) << dist << " constant bit " << k;
        }
        if (packed) {
            EXPECT_EQ(out[88], 0xAB);  // PK writes 16 bytes
        }
    }
}

// A mask saved with psts and restored with plds governs a store exactly as the original does, at
// its width (an open-width mask takes the width of its user).
TEST(VectorPredicateMemory, SavedMasksRestoreExactly)
{
    const std::vector<uint8_t> in = lane_data(all_lane_types()[0], 4);
    const std::string body = "    %m = pto.pset_b32 \"PAT_M3\" : !pto.mask<b32>\n    %c32i = arith.constant 2048 : i64\n"
                             "    %slot = pto.castptr %c32i : i64 -> !pto.ptr<i64, ub>\n    pto.psts %m, %slot : !pto.mask<b32>, !pto.ptr<i64, ub>\n"
                             "    %r = pto.plds %slot : !pto.ptr<i64, ub> -> !pto.mask<G>\n    %t = pto.plds %slot : !pto.ptr<i64, ub> -> !pto.mask<b32>\n"
                             "    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
                             "    pto.vsts %v, %out_f32[%c0], %r : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<G>\n"
                             "    pto.vsts %v, %out_f32[%c64], %t : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n";
    const std::vector<uint8_t> out = run_body(body, in);
    for (int i = 0; i < 64; ++i)
        for (int half = 0; half < 2; ++half) {
            uint32_t got = 0, want = 0xABABABABu;
            std::memcpy(&got, out.data() + half * 256 + 4 * i, 4);
            if (m3(i)) std::memcpy(&want, in.data() + 4 * i, 4);
            ASSERT_EQ(got, want) << "lane " << i << " half " << half;
        }
}

TEST(VectorPredicateMemory, ModesOffsetsAndAlignmentAreChecked)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 2);
    EXPECT_TRUE(has_code(static_codes("    %m = pto.plds %in_i64 {dist = \"PK\"} : !pto.ptr<i64, ub> -> !pto.mask<G>\n"), "LEGAL_PREDICATE_DIST"));
    EXPECT_TRUE(has_code(static_codes("    %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n" + kSlot + "    pto.pst %m, %out_i64, %s1, \"US\" : !pto.mask<b32>, !pto.ptr<i64, ub>, i32\n"), "LEGAL_PREDICATE_DIST"));
    EXPECT_TRUE(has_code(static_codes("    %k = arith.index_cast %c1 : index to i32\n    %m = pto.pldi %in_i64, %k, \"NORM\" : !pto.ptr<i64, ub>, i32 -> !pto.mask<G>\n"),
                         "LEGAL_PREDICATE_IMMEDIATE"));
    // The immediate fits the instruction: 0 to 1023 eight-byte units, written either way; a literal
    // stands only where an immediate does.
    for (const std::string offset : {"1024", "-1"}) {
        EXPECT_TRUE(has_code(static_codes("    %m = pto.pldi %in_i64, " + offset + ", \"NORM\" : !pto.ptr<i64, ub>, i32 -> !pto.mask<G>\n"), "LEGAL_PREDICATE_IMMEDIATE")) << offset;
        EXPECT_TRUE(has_code(static_codes("    %k = arith.constant " + offset + " : i32\n    %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
                                          "    pto.psti %m, %out_i64, %k, \"NORM\" : !pto.mask<b32>, !pto.ptr<i64, ub>, i32\n"), "LEGAL_PREDICATE_IMMEDIATE")) << offset;
    }
    EXPECT_TRUE(static_codes("    %m = pto.pldi %in_i64, 1023, \"NORM\" : !pto.ptr<i64, ub>, i32 -> !pto.mask<G>\n").empty());
    EXPECT_TRUE(has_code(static_codes("    %m = pto.pldi %in_i64, 2, \"NORM\" : !pto.ptr<i64, ub>, f32 -> !pto.mask<G>\n"), "STRUCT_OPERAND_KIND"));
    for (const char* op : {"    %m = pto.pld %in_i64, 2, \"NORM\" : !pto.ptr<i64, ub>, i32 -> !pto.mask<G>\n",
                           "    %m = pto.pldi 2, %in_i64, \"NORM\" : i32, !pto.ptr<i64, ub> -> !pto.mask<G>\n"}) {
        const ParseResult parsed = parse(program(op), "literal.pto");
        ASSERT_FALSE(parsed.ok()) << op;
        EXPECT_EQ(parsed.diagnostics.front().code, "PARSE_UNEXPECTED_TOKEN") << op;
    }
    EXPECT_TRUE(has_code(run_codes("    %c4 = arith.constant 1 : index\n    %p = pto.addptr %in_i32, %c4 : !pto.ptr<i32, ub> -> !pto.ptr<i32, ub>\n"
                                   "    %m = pto.plds %p : !pto.ptr<i32, ub> -> !pto.mask<G>\n", in), "RUN_POINTER_ALIGN"));
    EXPECT_TRUE(has_code(run_codes("    %far = arith.constant 100000000 : i32\n    %m = pto.pld %in_i64, %far, \"NORM\" : !pto.ptr<i64, ub>, i32 -> !pto.mask<G>\n", in), "RUN_POINTER_RANGE"));
    // Checked mode: a predicate load of bytes nothing wrote.
    EXPECT_TRUE(has_code(run_codes("    %at = arith.constant 3072 : i64\n    %p = pto.castptr %at : i64 -> !pto.ptr<i64, ub>\n    %m = pto.plds %p : !pto.ptr<i64, ub> -> !pto.mask<G>\n", in),
                         "RUN_UNINIT_READ"));
}

const std::string kReg = "!pto.vreg<64xf32>", kPtr = "!pto.ptr<f32, ub>";

// Two registers streamed from output element 3 (byte 12): whole blocks go out at once, the last
// partial block only with the flush.
TEST(VectorAlignStream, UnalignedStoresCommitWholeBlocksAndTheFlushTheTail)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 6);
    const std::string head = "    %a = pto.vlds %in_f32[%c0] : " + kPtr + " -> " + kReg + "\n    %b = pto.vlds %in_f32[%c64] : " + kPtr + " -> " + kReg +
                             "\n    %c3 = arith.constant 3 : index\n    %s0 = pto.init_align : !pto.align\n"
                             "    %s1, %o1 = pto.vstu %s0, %c3, %a, %out_f32, \"POST_UPDATE\" : !pto.align, index, " + kReg + ", " + kPtr + " -> !pto.align, index\n"
                             "    %s2, %o2 = pto.vstu %s1, %o1, %b, %out_f32, \"POST_UPDATE\" : !pto.align, index, " + kReg + ", " + kPtr + " -> !pto.align, index\n";
    std::vector<uint8_t> want(kBytes, 0xAB);
    std::memcpy(want.data() + 12, in.data(), 512);
    EXPECT_EQ(run_body(head + "    pto.vsta %s2, %out_f32[%o2] : !pto.align, " + kPtr + ", index\n", in), want);
    // Without a flush the 12 bytes of the last block [512, 524) stay unwritten.
    std::vector<uint8_t> unflushed = want;
    std::memset(unflushed.data() + 512, 0xAB, 12);
    EXPECT_EQ(run_body(head, in), unflushed);
    // vstas flushes at a byte offset, vstar at its pointer.
    EXPECT_EQ(run_body(head + "    %b524 = arith.constant 524 : i32\n    pto.vstas %s2, %out_f32, %b524 : !pto.align, " + kPtr + ", i32\n", in), want);
    EXPECT_EQ(run_body(head + "    %p = pto.addptr %out_f32, %o2 : " + kPtr + " -> " + kPtr + "\n    pto.vstar %s2, %p : !pto.align, " + kPtr + "\n", in), want);
}

TEST(VectorAlignStream, CountedAndRegisterFormsAppendToTheStream)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 8);
    // vstus: 5 elements then 7 from byte 4; vstur: a whole register where they end; pstu: a predicate image.
    const std::string body = "    %a = pto.vlds %in_f32[%c0] : " + kPtr + " -> " + kReg + "\n    %b = pto.vlds %in_f32[%c64] : " + kPtr + " -> " + kReg +
                             "\n    %p0 = pto.addptr %out_f32, %c1 : " + kPtr + " -> " + kPtr + "\n    %n5 = arith.constant 5 : i32\n    %n7 = arith.constant 7 : i32\n"
                             "    %s0 = pto.init_align : !pto.align\n"
                             "    %s1, %p1 = pto.vstus %s0, %n5, %a, %p0, \"POST_UPDATE\" : !pto.align, i32, " + kReg + ", " + kPtr + " -> !pto.align, " + kPtr + "\n"
                             "    %s2, %p2 = pto.vstus %s1, %n7, %b, %p1 : !pto.align, i32, " + kReg + ", " + kPtr + " -> !pto.align, " + kPtr + "\n"
                             "    %s3 = pto.vstur %s2, %a, %p2 : !pto.align, " + kReg + ", " + kPtr + " -> !pto.align\n"
                             "    %c64i = arith.constant 64 : index\n    %p3 = pto.addptr %p2, %c64i : " + kPtr + " -> " + kPtr + "\n"
                             "    %m = pto.pset_b32 \"PAT_M3\" : !pto.mask<b32>\n"
                             "    %s4, %p4 = pto.pstu %s3, %m, %p3 : !pto.align, !pto.mask<b32>, " + kPtr + " -> !pto.align, " + kPtr + "\n"
                             "    pto.vstar %s4, %p4 : !pto.align, " + kPtr + "\n";
    std::vector<uint8_t> want(kBytes, 0xAB);
    std::memcpy(want.data() + 4, in.data(), 20);
    std::memcpy(want.data() + 24, in.data() + 256, 28);
    std::memcpy(want.data() + 52, in.data(), 256);
    for (int k = 0; k < 32; ++k) {
        uint8_t v = 0;
        for (int b = 0; b < 8; ++b) v = uint8_t(v | ((m3((8 * k + b) / 4) ? 1 : 0) << b));
        want[std::size_t(308 + k)] = v;
    }
    EXPECT_EQ(run_body(body, in), want);
}

// The overview's Form A: the stream's position is a pointer (%base, updated into the second result)
// next to the buffer's (%dest); vstu's mode is a constant operand (1 POST_UPDATE, 0 NO_POST_UPDATE),
// vstus's count an operand. Each streams the same bytes as the offset form.
const std::string kFormA = "!pto.align, " + kPtr + ", " + kReg + ", " + kPtr;

std::string two_registers_from(int element)
{
    return "    %a = pto.vlds %in_f32[%c0] : " + kPtr + " -> " + kReg + "\n    %b = pto.vlds %in_f32[%c64] : " + kPtr + " -> " + kReg +
           "\n    %e = arith.constant " + std::to_string(element) + " : index\n    %p0 = pto.addptr %out_f32, %e : " + kPtr + " -> " + kPtr +
           "\n    %post = arith.constant 1 : index\n    %nopost = arith.constant 0 : index\n    %s0 = pto.init_align : !pto.align\n";
}

// Two stores chained from %s0, `%s1, %r1 = pto.<first>` and `%s2, %r2 = pto.<second>`, typed `types`; then `flush`.
std::string chain(const std::string& first, const std::string& second, const std::string& types, const std::string& flush)
{
    return "    %s1, %r1 = pto." + first + " : " + types + "\n    %s2, %r2 = pto." + second + " : " + types + "\n    pto." + flush + "\n";
}

TEST(VectorAlignStream, TwoPointerFormsStreamAsTheOffsetForms)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 14);
    const std::string flush = "vstar %s2, %r2 : !pto.align, " + kPtr;
    const std::string vstu_a = two_registers_from(3) + chain("vstu %s0, %p0, %a, %out_f32, %post", "vstu %s1, %r1, %b, %out_f32, %post",
                                                             kFormA + ", index -> !pto.align, " + kPtr, flush);
    const std::string vstu_b = two_registers_from(3) + chain("vstu %s0, %e, %a, %out_f32, \"POST_UPDATE\"", "vstu %s1, %r1, %b, %out_f32, \"POST_UPDATE\"",
                                                             "!pto.align, index, " + kReg + ", " + kPtr + " -> !pto.align, index",
                                                             "vsta %s2, %out_f32[%r2] : !pto.align, " + kPtr + ", index");
    std::vector<uint8_t> want(kBytes, 0xAB);
    std::memcpy(want.data() + 12, in.data(), 512);
    EXPECT_EQ(run_body(vstu_a, in), want);
    EXPECT_EQ(run_body(vstu_b, in), want);

    // NO_POST_UPDATE gives %base back: the flush goes where the register ended.
    const std::string no_post = two_registers_from(3) +
                                "    %s1, %p1 = pto.vstu %s0, %p0, %a, %out_f32, %nopost : " + kFormA + ", index -> !pto.align, " + kPtr + "\n"
                                "    %q = pto.addptr %p1, %c64 : " + kPtr + " -> " + kPtr + "\n    pto.vstar %s1, %q : !pto.align, " + kPtr + "\n";
    std::vector<uint8_t> one(kBytes, 0xAB);
    std::memcpy(one.data() + 12, in.data(), 256);
    EXPECT_EQ(run_body(no_post, in), one);

    // vstus: 5 elements then 7 from element 1, the pointer advanced by each count.
    const std::string counts = "    %n5 = arith.constant 5 : i32\n    %n7 = arith.constant 7 : i32\n";
    const std::string vstus_a = two_registers_from(1) + counts + chain("vstus %s0, %p0, %a, %out_f32, %n5", "vstus %s1, %r1, %b, %out_f32, %n7",
                                                                       kFormA + ", i32 -> !pto.align, " + kPtr, flush);
    const std::string vstus_b = two_registers_from(1) + counts + chain("vstus %s0, %n5, %a, %p0", "vstus %s1, %n7, %b, %r1",
                                                                       "!pto.align, i32, " + kReg + ", " + kPtr + " -> !pto.align, " + kPtr, flush);
    std::vector<uint8_t> counted(kBytes, 0xAB);
    std::memcpy(counted.data() + 4, in.data(), 20);
    std::memcpy(counted.data() + 24, in.data() + 256, 28);
    EXPECT_EQ(run_body(vstus_a, in), counted);
    EXPECT_EQ(run_body(vstus_b, in), counted);
    // vstus takes the offset form's optional mode token: NO_POST_UPDATE gives %base back.
    const std::string vstus_no_post = two_registers_from(1) + counts +
                                      "    %s1, %p1 = pto.vstus %s0, %p0, %a, %out_f32, %n5, \"NO_POST_UPDATE\" : " + kFormA + ", i32 -> !pto.align, " + kPtr + "\n"
                                      "    %c5 = arith.constant 5 : index\n    %q = pto.addptr %p1, %c5 : " + kPtr + " -> " + kPtr + "\n"
                                      "    pto.vstar %s1, %q : !pto.align, " + kPtr + "\n";
    std::vector<uint8_t> five(kBytes, 0xAB);
    std::memcpy(five.data() + 4, in.data(), 20);
    EXPECT_EQ(run_body(vstus_no_post, in), five);
}

TEST(VectorAlignStream, TwoPointerFormsAreChecked)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 16);
    const std::string head = two_registers_from(3);
    auto vstu = [&](const std::string& mode, const std::string& before = "", const std::string& base = "%p0", const std::string& dest = "%out_f32") {
        return head + before + "    %s1, %p1 = pto.vstu %s0, " + base + ", %a, " + dest + ", " + mode + " : " + kFormA + ", index -> !pto.align, " + kPtr + "\n";
    };
    EXPECT_TRUE(static_codes(vstu("%post")).empty());
    EXPECT_TRUE(has_code(static_codes(vstu("%two", "    %two = arith.constant 2 : index\n")), "LEGAL_VSTU_MODE"));
    EXPECT_TRUE(has_code(static_codes(vstu("%m", "    %m = arith.addi %post, %nopost : index\n")), "LEGAL_VSTU_MODE"));
    EXPECT_TRUE(has_code(static_codes(head + "    %s1, %p1 = pto.vstu %s0, %p0, %a, %out_f32, %post, \"POST_UPDATE\" : " + kFormA + ", index -> !pto.align, " + kPtr + "\n"),
                         "LEGAL_VSTU_MODE"));
    // The two pointers point to one element type; the updated result is the pointer.
    EXPECT_TRUE(has_code(static_codes(head +
                                      "    %s1, %p1 = pto.vstu %s0, %p0, %a, %out_i32, %post : !pto.align, " + kPtr + ", " + kReg + ", !pto.ptr<i32, ub>, index -> !pto.align, " + kPtr + "\n"),
                         "STRUCT_OPERAND_KIND"));
    EXPECT_TRUE(has_code(static_codes(head + "    %s1, %o1 = pto.vstu %s0, %p0, %a, %out_f32, %post : " + kFormA + ", index -> !pto.align, index\n"),
                         "STRUCT_OPERAND_KIND"));
    // A stream standing before the buffer it writes (the pointers swapped).
    EXPECT_TRUE(has_code(run_codes(vstu("%post", "", "%out_f32", "%p0"), in), "RUN_POINTER_RANGE"));
    // Storing again at a base NO_POST_UPDATE left does not continue the stream.
    EXPECT_TRUE(has_code(run_codes(head + "    %s1, %p1 = pto.vstu %s0, %p0, %a, %out_f32, %nopost : " + kFormA + ", index -> !pto.align, " + kPtr + "\n"
                                          "    %s2, %p2 = pto.vstu %s1, %p1, %b, %out_f32, %post : " + kFormA + ", index -> !pto.align, " + kPtr + "\n", in),
                         "RUN_ALIGN_STREAM"));
    EXPECT_TRUE(has_code(run_codes(head + "    %n = arith.constant 65 : i32\n    %s1 = pto.vstus %s0, %p0, %a, %out_f32, %n : " + kFormA + ", i32 -> !pto.align\n", in),
                         "RUN_STREAM_COUNT"));
}

TEST(VectorAlignStream, UnalignedLoadsReadFromTheirAddressAndAdvance)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 10);
    const std::string body = "    %c3 = arith.constant 3 : index\n    %p = pto.addptr %in_f32, %c3 : " + kPtr + " -> " + kPtr +
                             "\n    %s = pto.vldas %p : " + kPtr + " -> !pto.align\n"
                             "    %v, %s1, %p1 = pto.vldus %p, %s : " + kPtr + ", !pto.align -> " + kReg + ", !pto.align, " + kPtr + "\n"
                             "    %w, %s2 = pto.vldus %p1, %s1 : " + kPtr + ", !pto.align -> " + kReg + ", !pto.align\n"
                             "    pto.vsts %v, %out_f32[%c0], %all_b32 : " + kReg + ", " + kPtr + ", !pto.mask<b32>\n"
                             "    pto.vsts %w, %out_f32[%c64], %all_b32 : " + kReg + ", " + kPtr + ", !pto.mask<b32>\n";
    const std::vector<uint8_t> out = run_body(body, in);
    EXPECT_TRUE(std::equal(out.begin(), out.begin() + 512, in.begin() + 12));
}

TEST(VectorAlignStream, BrokenStreamsAreReported)
{
    const std::vector<uint8_t> in = random_bytes(kBytes, 12);
    const std::string a = "    %a = pto.vlds %in_f32[%c0] : " + kPtr + " -> " + kReg + "\n    %c3 = arith.constant 3 : index\n    %s0 = pto.init_align : !pto.align\n"
                          "    %s1, %o1 = pto.vstu %s0, %c3, %a, %out_f32, \"NO_POST_UPDATE\" : !pto.align, index, " + kReg + ", " + kPtr + " -> !pto.align, index\n";
    // NO_POST_UPDATE leaves the offset: storing there again does not continue the stream.
    EXPECT_TRUE(has_code(run_codes(a + "    %s2, %o2 = pto.vstu %s1, %o1, %a, %out_f32, \"POST_UPDATE\" : !pto.align, index, " + kReg + ", " + kPtr + " -> !pto.align, index\n", in),
                         "RUN_ALIGN_STREAM"));
    EXPECT_TRUE(has_code(run_codes(a + "    pto.vsta %s1, %out_f32[%o1] : !pto.align, " + kPtr + ", index\n", in), "RUN_ALIGN_STREAM"));
    // A load state for a store, a store state for a load, a load outside its primed block.
    EXPECT_TRUE(has_code(run_codes("    %s = pto.vldas %in_f32 : " + kPtr + " -> !pto.align\n    pto.vstar %s, %out_f32 : !pto.align, " + kPtr + "\n", in), "RUN_ALIGN_STREAM"));
    EXPECT_TRUE(has_code(run_codes("    %s = pto.init_align : !pto.align\n    %v, %s1 = pto.vldus %in_f32, %s : " + kPtr + ", !pto.align -> " + kReg + ", !pto.align\n", in), "RUN_ALIGN_STREAM"));
    EXPECT_TRUE(has_code(run_codes("    %q = pto.addptr %in_f32, %c32 : " + kPtr + " -> " + kPtr + "\n    %s = pto.vldas %in_f32 : " + kPtr + " -> !pto.align\n"
                                   "    %v, %s1 = pto.vldus %q, %s : " + kPtr + ", !pto.align -> " + kReg + ", !pto.align\n", in), "RUN_ALIGN_STREAM"));
    EXPECT_TRUE(has_code(run_codes("    %a = pto.vlds %in_f32[%c0] : " + kPtr + " -> " + kReg + "\n    %n = arith.constant 65 : i32\n    %s0 = pto.init_align : !pto.align\n"
                                   "    %s1 = pto.vstus %s0, %n, %a, %out_f32 : !pto.align, i32, " + kReg + ", " + kPtr + " -> !pto.align\n", in), "RUN_STREAM_COUNT"));
    EXPECT_TRUE(has_code(static_codes("    %a = pto.vlds %in_f32[%c0] : " + kPtr + " -> " + kReg + "\n    %s0 = pto.init_align : !pto.align\n"
                                      "    %s1, %o1 = pto.vstu %s0, %c0, %a, %out_f32 : !pto.align, index, " + kReg + ", " + kPtr + " -> !pto.align, index\n"), "LEGAL_VSTU_MODE"));
}

}  // namespace
}  // namespace pto::as::testing
