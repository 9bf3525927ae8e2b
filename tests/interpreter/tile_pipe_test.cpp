// The tile pipes in text: an entry with `pto.section.cube` and `pto.section.vector` runs as a mixed
// kernel (a cube core and two vector cores per block, at once); the cube section pushes tiles through
// `pto.initialize_l2g2l_pipe` / `pto.initialize_l2l_pipe` handles with `pto.tpush`, the vector section
// binds `pto.declare_tile` tiles to its local slots with `pto.tpop` and frees them with `pto.tfree`;
// every split; more tiles than slots; each spelling prints back and parses to the same program; a
// handshake that cannot finish is ORDER_DEADLOCK.
#include <string>
#include <vector>

#include "asm/printer.hpp"
#include "asm/verifier.hpp"
#include "support.hpp"

namespace pto::as::testing {
namespace {

constexpr int kRows = 16, kCols = 32, kTiles = 5;

// Each block moves kTiles tiles of in (kRows x kCols f32 each) through its own pipe: the cube loads a
// tile into L1 and pushes it; each vector core pops its part (split `split`) into UB at local address
// 0 and stores it where it came from, in the block's copy of out.
std::string program(int split, bool global_slots)
{
    const bool by_rows = split == 1;
    const int part_rows = by_rows ? kRows / 2 : kRows, part_cols = split == 2 ? kCols / 2 : kCols;
    const std::string mat = "!pto.tile_buf<loc=mat, dtype=f32, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, "
                            "slayout=none_box, fractal=512, pad=0>";
    const std::string vec = "!pto.tile_buf<loc=vec, dtype=f32, rows=" + std::to_string(part_rows) + ", cols=" + std::to_string(part_cols) +
                            ", v_row=" + std::to_string(part_rows) + ", v_col=" + std::to_string(part_cols) +
                            ", blayout=row_major, slayout=none_box, fractal=512, pad=0>";
    const std::string view = "!pto.tensor_view<?x?xf32>";
    const std::string whole = "!pto.partition_tensor_view<16x32xf32>";
    const std::string part = "!pto.partition_tensor_view<" + std::to_string(part_rows) + "x" + std::to_string(part_cols) + "xf32>";
    const std::string pipe_init =
        global_slots ? "    %slots_per_block = arith.constant 1024 : index\n"  // two slots of 2048 bytes
                       "    %boff = arith.muli %b, %slots_per_block : index\n"
                       "    %own = pto.addptr %fifo, %boff : !pto.ptr<f32> -> !pto.ptr<f32>\n"
                       "    %p = pto.initialize_l2g2l_pipe {dir_mask = 1, slot_size = 2048, slot_num = 2, local_slot_num = 2, flag_base = 3}"
                       "(%own : !pto.ptr<f32>, %local : i32) -> !pto.pipe\n"
                     : "    %p = pto.initialize_l2l_pipe {dir_mask = 1, slot_size = 2048, slot_num = 2, flag_base = 3}(%local : i32) -> !pto.pipe\n";
    const std::string split_attr = "{split = " + std::to_string(split) + "}";
    return "func.func @k(%in: !pto.ptr<f32>, %out: !pto.ptr<f32>, %fifo: !pto.ptr<f32>) {\n"
           "    %c0 = arith.constant 0 : index\n"
           "    %c1 = arith.constant 1 : index\n"
           "    %c5 = arith.constant 5 : index\n"
           "    %c16 = arith.constant 16 : index\n"
           "    %c32 = arith.constant 32 : index\n"
           "    %c80 = arith.constant 80 : index\n"
           "    %c160 = arith.constant 160 : index\n"
           "    %local = arith.constant 0 : i32\n"
           "    %b64 = pto.get_block_idx\n"
           "    %b = arith.index_cast %b64 : i64 to index\n"
           "    %orow = arith.muli %b, %c80 : index\n"
           "    %iv = pto.make_tensor_view %in, shape = [%c80, %c32], strides = [%c32, %c1] : " + view + "\n"
           "    %ov = pto.make_tensor_view %out, shape = [%c160, %c32], strides = [%c32, %c1] : " + view + "\n" +
           pipe_init +
           "    pto.section.cube {\n"
           "      %m = pto.alloc_tile : " + mat + "\n"
           "      scf.for %i = %c0 to %c5 step %c1 {\n"
           "        %r = arith.muli %i, %c16 : index\n"
           "        %src = pto.partition_view %iv, offsets = [%r, %c0], sizes = [%c16, %c32] : " + view + " -> " + whole + "\n"
           "        pto.tload ins(%src : " + whole + ") outs(%m : " + mat + ")\n"
           "        pto.tpush(%m, %p : " + mat + ", !pto.pipe) " + split_attr + "\n"
           "      }\n"
           "    }\n"
           "    pto.section.vector {\n"
           "      %sub64 = pto.get_subblock_idx\n"
           "      %sub = arith.index_cast %sub64 : i64 to index\n"
           "      %receivers = arith.constant " + std::to_string(split == 0 ? 1 : 2) + " : index\n"
           "      %receives = arith.cmpi ult, %sub, %receivers : index\n"
           "      %t = pto.declare_tile -> " + vec + "\n"
           "      %prow = arith.constant " + std::to_string(by_rows ? part_rows : 0) + " : index\n"
           "      %pcol = arith.constant " + std::to_string(split == 2 ? part_cols : 0) + " : index\n"
           "      %dr = arith.muli %sub, %prow : index\n"
           "      %dc = arith.muli %sub, %pcol : index\n"
           "      %prs = arith.constant " + std::to_string(part_rows) + " : index\n"
           "      %pcs = arith.constant " + std::to_string(part_cols) + " : index\n"
           "      scf.for %i = %c0 to %c5 step %c1 {\n"
           "        pto.tpop(%t, %p : " + vec + ", !pto.pipe) " + split_attr + "\n"
           "        %r0 = arith.muli %i, %c16 : index\n"
           "        %r1 = arith.addi %r0, %dr : index\n"
           "        %r = arith.addi %r1, %orow : index\n"
           "        %dst = pto.partition_view %ov, offsets = [%r, %dc], sizes = [%prs, %pcs] : " + view + " -> " + part + "\n"
           "        scf.if %receives {\n"
           "          pto.tstore ins(%t : " + vec + ") outs(%dst : " + part + ")\n"
           "        }\n"
           "        pto.tfree(%p : !pto.pipe) " + split_attr + "\n"
           "      }\n"
           "    }\n"
           "    return\n}\n";
}

TEST(TextTilePipe, SectionsRunTogetherAndThePipeCarriesEverySplit)
{
    for (const bool global_slots : {true, false})
        for (const int split : {0, 1, 2}) {
            SCOPED_TRACE(std::string(global_slots ? "global" : "local") + " slots, split " + std::to_string(split));
            const std::string text = program(split, global_slots);
            const ParseResult parsed = parse_ok(text, "pipe.pto");
            EXPECT_TRUE(verify(parsed.module, profile::Target::Cpu).empty());
            std::vector<float> in = random_vector<float>(size_t(kRows) * kCols * kTiles, 5);
            std::vector<float> out(in.size() * 2, -1.0f), fifo(2 * 2 * 2048 / 4, 0.0f);  // each block's two slots
            RunOptions options;
            options.blocks = 2;
            options.checked = split == 1;  // the checks see nothing wrong either
            const RunResult r = run(parsed.module, {array_arg("in", in), array_arg("out", out), array_arg("fifo", fifo)}, options);
            ASSERT_TRUE(r.ok()) << r.diagnostics[0].format();
            // Without a split only vector core 0 receives the tile; with one, each core its half.
            for (int b = 0; b < 2; ++b)
                for (size_t e = 0; e < in.size(); ++e) ASSERT_EQ(out[b * in.size() + e], in[e]) << "block " << b << " element " << e;
        }
}

TEST(TextTilePipe, BlocksSharingTheirGlobalSlotsRaceInCheckedMode)
{
    std::string text = program(1, true);
    const std::string own = "%boff = arith.muli %b, %slots_per_block : index";
    text.replace(text.find(own), own.size(), "%boff = arith.muli %c0, %slots_per_block : index");  // every block at the same slots
    const ParseResult parsed = parse_ok(text, "shared.pto");
    std::vector<float> in = random_vector<float>(size_t(kRows) * kCols * kTiles, 6);
    std::vector<float> out(in.size() * 2, -1.0f), fifo(2 * 2048 / 4, 0.0f);
    RunOptions options;
    options.blocks = 2;
    options.checked = true;
    const RunResult r = run(parsed.module, {array_arg("in", in), array_arg("out", out), array_arg("fifo", fifo)}, options);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.diagnostics[0].code, "ORDER_CROSS_CORE_RACE") << r.diagnostics[0].format();
}

TEST(TextTilePipe, EverySpellingPrintsBackAndParsesToTheSameProgram)
{
    const ParseResult parsed = parse_ok(program(1, true), "pipe.pto");
    for (const Form form : {Form::Preserve, Form::SSA, Form::Asm, Form::Generic}) {
        const std::string printed = print(parsed.module, form);
        const ParseResult again = parse_ok(printed, "again.pto");
        EXPECT_EQ(print(again.module, Form::Generic), print(parsed.module, Form::Generic)) << printed;
    }
    // The keyed form of the typed operand list.
    const ParseResult keyed = parse_ok("func.func @f(%g: !pto.ptr<f32>) {\n"
                                       "  %l = arith.constant 0 : i32\n"
                                       "  %p = pto.initialize_l2g2l_pipe {dir_mask = 1, slot_size = 64, slot_num = 2}\n"
                                       "    (gm_addr = %g : !pto.ptr<f32>, local_addr = %l : i32) -> !pto.pipe\n"
                                       "  return\n}\n",
                                       "keyed.pto");
    const std::string printed = print(keyed.module, Form::Preserve);
    EXPECT_NE(printed.find("(gm_addr = %g : !pto.ptr<f32>, local_addr = %l : i32) -> !pto.pipe"), std::string::npos) << printed;

    // An empty dictionary before the list, and subscripts inside the parentheses, print back as written.
    const ParseResult odd = parse_ok("func.func @f(%v: !pto.tensor_view<?x?xf32>, %i: index) {\n"
                                     "  %l = arith.constant 0 : i32\n"
                                     "  %p = pto.initialize_l2l_pipe {}(%l : i32) -> !pto.pipe\n"
                                     "  pto.tfree(%v[%i, %i], %p : !pto.tensor_view<?x?xf32>, index, index, !pto.pipe) {split = 0}\n"
                                     "  return\n}\n",
                                     "odd.pto");
    const std::string again = print(odd.module, Form::Preserve);
    EXPECT_NE(again.find("pto.initialize_l2l_pipe {}(%l : i32) -> !pto.pipe"), std::string::npos) << again;
    EXPECT_NE(again.find("pto.tfree(%v[%i, %i], %p : "), std::string::npos) << again;
    EXPECT_EQ(print(parse_ok(again, "again.pto").module, Form::Preserve), again);
}

TEST(TextTilePipe, AVectorSectionWaitingForACubeThatNeverPushesIsADeadlock)
{
    const std::string vec = "!pto.tile_buf<vec, 16x32xf32>";
    const ParseResult parsed = parse_ok("func.func @k() {\n"
                                        "  %l = arith.constant 0 : i32\n"
                                        "  %p = pto.initialize_l2l_pipe {dir_mask = 1, slot_size = 2048, slot_num = 2, flag_base = 0}(%l : i32) -> !pto.pipe\n"
                                        "  pto.section.cube {\n"
                                        "  }\n"
                                        "  pto.section.vector {\n"
                                        "    %t = pto.declare_tile -> " + vec + "\n"
                                        "    pto.tpop(%t, %p : " + vec + ", !pto.pipe) {split = 0}\n"
                                        "  }\n"
                                        "  return\n}\n",
                                        "dead.pto");
    const RunResult r = run(parsed.module, {}, {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.diagnostics[0].code, "ORDER_DEADLOCK");
    EXPECT_NE(r.diagnostics[0].message.find("vector core 0 of block 0 waits in TPOP"), std::string::npos) << r.diagnostics[0].format();
    EXPECT_NE(r.diagnostics[0].message.find("the cube core of block 0 has ended"), std::string::npos) << r.diagnostics[0].format();
}

// The cube stores a tile to global memory and sets a flag; each vector core waits for it, loads its
// half, stores it to out and sets a flag back, which the cube waits for (from both): a2a3's
// set_cross_core / wait_flag_dev (one set reaches both vector cores, one wait needs both) or a5's
// set_intra_block / wait_intra_core (ids 16-31 name vector core 1).
std::string flag_program(bool a5)
{
    const std::string mat = "!pto.tile_buf<loc=mat, dtype=f32, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, "
                            "slayout=none_box, fractal=512, pad=0>";
    const std::string vec = "!pto.tile_buf<vec, 8x32xf32>";
    const std::string view = "!pto.tensor_view<?x?xf32>";
    const std::string whole = "!pto.partition_tensor_view<16x32xf32>", half = "!pto.partition_tensor_view<8x32xf32>";
    const std::string down = a5 ? "      pto.set_intra_block %c0i, %c3i : i64, i64\n      pto.set_intra_block %c0i, %c19i : i64, i64\n"
                                : "      pto.set_cross_core %c0i, %c3i : i64, i64\n";
    const std::string up_wait = a5 ? "      pto.wait_intra_core %c0i, %c5i : i64, i64\n      pto.wait_intra_core %c0i, %c21i : i64, i64\n"
                                   : "      pto.wait_flag_dev %c5i : i64\n";
    const std::string down_wait = a5 ? "      %mine = arith.addi %c3i, %sub16 : i64\n      pto.wait_intra_core %c0i, %mine : i64, i64\n"
                                     : "      pto.wait_flag_dev %c3i : i64\n";
    const std::string up = a5 ? "      %back = arith.addi %c5i, %sub16 : i64\n      pto.set_intra_block %c0i, %back : i64, i64\n"
                              : "      pto.set_cross_core %c0i, %c5i : i64, i64\n";
    return "func.func @k(%in: !pto.ptr<f32>, %mid: !pto.ptr<f32>, %out: !pto.ptr<f32>) {\n"
           "    %c0 = arith.constant 0 : index\n"
           "    %c1 = arith.constant 1 : index\n"
           "    %c8 = arith.constant 8 : index\n"
           "    %c16 = arith.constant 16 : index\n"
           "    %c32 = arith.constant 32 : index\n"
           "    %c0i = arith.constant 0 : i64\n"
           "    %c3i = arith.constant 3 : i64\n"
           "    %c5i = arith.constant 5 : i64\n"
           "    %c16i = arith.constant 16 : i64\n"
           "    %c19i = arith.constant 19 : i64\n"
           "    %c21i = arith.constant 21 : i64\n"
           "    %iv = pto.make_tensor_view %in, shape = [%c16, %c32], strides = [%c32, %c1] : " + view + "\n"
           "    %mv = pto.make_tensor_view %mid, shape = [%c16, %c32], strides = [%c32, %c1] : " + view + "\n"
           "    %ov = pto.make_tensor_view %out, shape = [%c16, %c32], strides = [%c32, %c1] : " + view + "\n"
           "    pto.section.cube {\n"
           "      %m = pto.alloc_tile : " + mat + "\n"
           "      %src = pto.partition_view %iv, offsets = [%c0, %c0], sizes = [%c16, %c32] : " + view + " -> " + whole + "\n"
           "      %dst = pto.partition_view %mv, offsets = [%c0, %c0], sizes = [%c16, %c32] : " + view + " -> " + whole + "\n"
           "      pto.tload ins(%src : " + whole + ") outs(%m : " + mat + ")\n"
           "      pto.tstore ins(%m : " + mat + ") outs(%dst : " + whole + ")\n" + down + up_wait +
           "    }\n"
           "    pto.section.vector {\n"
           "      %sub64 = pto.get_subblock_idx\n"
           "      %sub16 = arith.muli %sub64, %c16i : i64\n"
           "      %sub = arith.index_cast %sub64 : i64 to index\n"
           "      %row = arith.muli %sub, %c8 : index\n"
           "      %t = pto.alloc_tile : " + vec + "\n" + down_wait +
           "      %src = pto.partition_view %mv, offsets = [%row, %c0], sizes = [%c8, %c32] : " + view + " -> " + half + "\n"
           "      %dst = pto.partition_view %ov, offsets = [%row, %c0], sizes = [%c8, %c32] : " + view + " -> " + half + "\n"
           "      pto.tload ins(%src : " + half + ") outs(%t : " + vec + ")\n"
           "      pto.tstore ins(%t : " + vec + ") outs(%dst : " + half + ")\n" + up +
           "    }\n"
           "    return\n}\n";
}

TEST(TextCrossCoreFlags, FlagsOrderTheCubeAndTheVectorCoresOnBothTargets)
{
    for (const bool a5 : {false, true}) {
        SCOPED_TRACE(a5 ? "a5" : "a2a3");
        const ParseResult parsed = parse_ok(flag_program(a5), "flags.pto");
        std::vector<float> in = random_vector<float>(16 * 32, 8), mid(in.size(), 0.0f), out(in.size(), -1.0f);
        // The cube's TSTORE from L1 is a2a3's (and cpu's, which has both kinds of flags).
        RunOptions options;
        options.target = a5 ? profile::Target::Cpu : profile::Target::A2A3;
        const RunResult r = run(parsed.module, {array_arg("in", in), array_arg("mid", mid), array_arg("out", out)}, options);
        ASSERT_TRUE(r.ok()) << r.diagnostics[0].format();
        EXPECT_EQ(in, out);
    }
    // a5's flags are not a2a3's.
    const ParseResult parsed = parse_ok(flag_program(true), "flags.pto");
    std::vector<float> in = random_vector<float>(16 * 32, 8), mid(in.size(), 0.0f), out(in.size(), -1.0f);
    RunOptions options;
    options.target = profile::Target::A2A3;
    const RunResult wrong = run(parsed.module, {array_arg("in", in), array_arg("mid", mid), array_arg("out", out)}, options);
    ASSERT_FALSE(wrong.ok());
    EXPECT_EQ(wrong.diagnostics[0].code, "LEGAL_CROSS_CORE_TARGET");
}

TEST(TextCrossCoreFlags, InCheckedModeTheFlagsOrderTheCoresAccessesAndTheirAbsenceIsARace)
{
    for (const bool a5 : {false, true}) {
        SCOPED_TRACE(a5 ? "a5" : "a2a3");
        std::string text = flag_program(a5);
        std::vector<float> in = random_vector<float>(16 * 32, 9), mid(in.size(), 0.0f), out(in.size(), -1.0f);
        RunOptions options;
        options.checked = true;
        const RunResult ordered = run(parse_ok(text, "flags.pto").module, {array_arg("in", in), array_arg("mid", mid), array_arg("out", out)}, options);
        ASSERT_TRUE(ordered.ok()) << ordered.diagnostics[0].format();
        EXPECT_EQ(in, out);
        // Without the flag down, the vector cores load what the cube stores with nothing between.
        const auto drop_line = [&](const std::string& needle) {
            const std::size_t at = text.find(needle);
            ASSERT_NE(at, std::string::npos) << needle;
            const std::size_t begin = text.rfind('\n', at) + 1;
            text.erase(begin, text.find('\n', at) + 1 - begin);
        };
        if (a5) {
            drop_line("pto.set_intra_block %c0i, %c3i");
            drop_line("pto.set_intra_block %c0i, %c19i");
            drop_line("pto.wait_intra_core %c0i, %mine");
        } else {
            drop_line("pto.set_cross_core %c0i, %c3i");
            drop_line("pto.wait_flag_dev %c3i");
        }
        const RunResult racing = run(parse_ok(text, "flags.pto").module, {array_arg("in", in), array_arg("mid", mid), array_arg("out", out)}, options);
        ASSERT_FALSE(racing.ok());
        const Diagnostic& d = racing.diagnostics[0];
        EXPECT_EQ(d.code, "ORDER_CROSS_CORE_RACE") << d.format();
        EXPECT_NE(d.format().find("vector core 0 of block 0 reads global memory mid bytes"), std::string::npos) << d.format();
        EXPECT_NE(d.format().find("which the cube core of block 0 writes (TSTORE at flags.pto:"), std::string::npos) << d.format();
    }
}

TEST(TextCrossCoreFlags, AWaitNoCoreSetsIsADeadlockAndAUnifiedCoreCannotUseThem)
{
    std::string text = flag_program(false);
    const std::string set = "      pto.set_cross_core %c0i, %c3i : i64, i64\n";
    text.erase(text.find(set), set.size());  // the cube never sets the flag the vector cores wait for
    const ParseResult parsed = parse_ok(text, "flags.pto");
    std::vector<float> in = random_vector<float>(16 * 32, 8), mid(in.size(), 0.0f), out(in.size(), -1.0f);
    const RunResult r = run(parsed.module, {array_arg("in", in), array_arg("mid", mid), array_arg("out", out)}, {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.diagnostics[0].code, "ORDER_DEADLOCK");
    EXPECT_NE(r.diagnostics[0].message.find("the cube core of block 0 waits in wait_flag_dev for flag 5 (vector core 0 of block 0), "
                                            "which waits in wait_flag_dev for flag 3 (the cube core of block 0)"),
              std::string::npos)
        << r.diagnostics[0].format();

    const ParseResult plain = parse_ok("func.func @k() {\n  %c = arith.constant 3 : i64\n  pto.wait_flag_dev %c : i64\n  return\n}\n", "u.pto");
    const RunResult u = run(plain.module, {}, {});
    ASSERT_FALSE(u.ok());
    EXPECT_EQ(u.diagnostics[0].code, "RUN_CROSS_CORE_KIND");
}

}  // namespace
}  // namespace pto::as::testing
