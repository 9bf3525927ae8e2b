// The assembler's front-end pipe spellings: a mixed kernel split over a cube function and a vector
// function (`pto.kernel_kind`), each initializing its one pipe (`pto.aic_initialize_pipe` /
// `pto.aiv_initialize_pipe`) over a consumer buffer one of them reserves (`pto.reserve_buffer`) and the
// other imports (`pto.import_reserved_buffer`), moving tiles with `pto.tpush_to_aiv` / `pto.tpop_from_aic`
// / `pto.tfree_from_aic` and the other direction's spellings. Every direction and split, global slots
// or the pipe's own, more tiles than slots, against a C++ reference and against the same kernel in
// the lowered spellings; each spelling prints back and parses to the same program; every rule the
// assembler enforces before running is its STRUCT_* code, in the verifier and in a run. The lowered
// initializations over reserved and imported buffers, paired as the assembler pairs them: the
// flag_base each pipe gets, the same bits in every arrangement of pipes, and the broken pairings.
#include <algorithm>
#include <string>
#include <vector>

#include "asm/pipe_frontend.hpp"
#include "asm/printer.hpp"
#include "asm/verifier.hpp"
#include "support.hpp"

namespace pto::as::testing {
namespace {

constexpr int kRows = 16, kCols = 32, kTiles = 11, kBlocks = 2;  // 11 tiles: the ring of 8 (or 4) slots wraps
constexpr int kSlotFloats = 4096;                                // each block's global slots: 16 KB

struct Variant {
    int dir = 1;  // 1 C2V, 2 V2C, 3 both (V2C, then back C2V)
    int split = 1;
    bool global_slots = true;
};

std::string name_of(const Variant& v)
{
    return "dir_mask " + std::to_string(v.dir) + ", split " + std::to_string(v.split) + (v.global_slots ? ", global slots" : ", own slots");
}

// Whole tiles go to both vector cores without a split (the pipe is no-split then): each writes its copy.
int copies(const Variant& v) { return v.split == 0 && v.dir != 2 ? 2 : 1; }

const std::string kMat = "!pto.tile_buf<loc=mat, dtype=f32, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>";
const std::string kView = "!pto.tensor_view<?x?xf32>";

std::string vec_part(const Variant& v)
{
    const int rows = v.split == 1 ? kRows / 2 : kRows, cols = v.split == 2 ? kCols / 2 : kCols;
    return "!pto.tile_buf<vec, " + std::to_string(rows) + "x" + std::to_string(cols) + "xf32>";
}

std::string part_view(const Variant& v)
{
    const int rows = v.split == 1 ? kRows / 2 : kRows, cols = v.split == 2 ? kCols / 2 : kCols;
    return "!pto.partition_tensor_view<" + std::to_string(rows) + "x" + std::to_string(cols) + "xf32>";
}

// Constants, the views of in ([kTiles * 16, 32]) and out ([blocks][copies][kTiles * 16][32]), and this
// core's part of a tile: its rows %dr and columns %dc from %prs x %pcs, and its copy %copy.
std::string prologue(const Variant& v)
{
    const int rows = v.split == 1 ? kRows / 2 : kRows, cols = v.split == 2 ? kCols / 2 : kCols;
    return "    %c0 = arith.constant 0 : index\n"
           "    %c1 = arith.constant 1 : index\n"
           "    %c16 = arith.constant 16 : index\n"
           "    %c32 = arith.constant 32 : index\n"
           "    %ntiles = arith.constant " + std::to_string(kTiles) + " : index\n"
           "    %in_rows = arith.constant " + std::to_string(kTiles * kRows) + " : index\n"
           "    %out_rows = arith.constant " + std::to_string(kBlocks * copies(v) * kTiles * kRows) + " : index\n"
           "    %copy_rows = arith.constant " + std::to_string(kTiles * kRows) + " : index\n"
           "    %ncopies = arith.constant " + std::to_string(copies(v)) + " : index\n"
           "    %two = arith.constant 2.0 : f32\n"
           "    %zero = arith.constant 0 : i32\n"
           "    %b64 = pto.get_block_idx\n"
           "    %b = arith.index_cast %b64 : i64 to index\n"
           "    %sub64 = pto.get_subblock_idx\n"
           "    %sub = arith.index_cast %sub64 : i64 to index\n"
           "    %iv = pto.make_tensor_view %in, shape = [%in_rows, %c32], strides = [%c32, %c1] : " + kView + "\n"
           "    %ov = pto.make_tensor_view %out, shape = [%out_rows, %c32], strides = [%c32, %c1] : " + kView + "\n"
           "    %slots_at = arith.constant " + std::to_string(kSlotFloats) + " : index\n"
           "    %slots_off = arith.muli %b, %slots_at : index\n"
           "    %own = pto.addptr %fifo, %slots_off : !pto.ptr<f32> -> !pto.ptr<f32>\n"
           "    %prow = arith.constant " + std::to_string(v.split == 1 ? rows : 0) + " : index\n"
           "    %pcol = arith.constant " + std::to_string(v.split == 2 ? cols : 0) + " : index\n"
           "    %dr = arith.muli %sub, %prow : index\n"
           "    %dc = arith.muli %sub, %pcol : index\n"
           "    %prs = arith.constant " + std::to_string(rows) + " : index\n"
           "    %pcs = arith.constant " + std::to_string(cols) + " : index\n"
           "    %copy_is_sub = arith.constant " + std::to_string(copies(v) == 2 ? 1 : 0) + " : index\n"
           "    %copy = arith.muli %sub, %copy_is_sub : index\n"
           "    %bc0 = arith.muli %b, %ncopies : index\n"
           "    %bc = arith.addi %bc0, %copy : index\n"
           "    %out_base = arith.muli %bc, %copy_rows : index\n";
}

// The vector core's part of tile %i of in, times two, in %d.
std::string load_doubled_part(const Variant& v)
{
    return "        %r0 = arith.muli %i, %c16 : index\n"
           "        %r = arith.addi %r0, %dr : index\n"
           "        %src = pto.partition_view %iv, offsets = [%r, %dc], sizes = [%prs, %pcs] : " + kView + " -> " + part_view(v) + "\n"
           "        pto.tload ins(%src : " + part_view(v) + ") outs(%l : " + vec_part(v) + ")\n"
           "        pto.tmuls ins(%l, %two : " + vec_part(v) + ", f32) outs(%d : " + vec_part(v) + ")\n";
}

// The vector core's part %t of tile %i (doubled first when `doubled` is false), stored in its copy of out.
std::string store_part(const Variant& v, const std::string& t, bool doubled)
{
    std::string s = doubled ? "" : "        pto.tmuls ins(" + t + ", %two : " + vec_part(v) + ", f32) outs(%d : " + vec_part(v) + ")\n";
    return s + "        %w0 = arith.muli %i, %c16 : index\n"
               "        %w1 = arith.addi %w0, %dr : index\n"
               "        %w = arith.addi %w1, %out_base : index\n"
               "        %dst = pto.partition_view %ov, offsets = [%w, %dc], sizes = [%prs, %pcs] : " + kView + " -> " + part_view(v) + "\n"
               "        pto.tstore ins(" + (doubled ? t : std::string("%d")) + " : " + vec_part(v) + ") outs(%dst : " + part_view(v) + ")\n";
}

// The cube's whole tile %m stored at tile %i of its block's out.
std::string store_whole()
{
    const std::string whole = "!pto.partition_tensor_view<16x32xf32>";
    return "        %w0 = arith.muli %i, %c16 : index\n"
           "        %w = arith.addi %w0, %out_base : index\n"
           "        %dst = pto.partition_view %ov, offsets = [%w, %c0], sizes = [%c16, %c32] : " + kView + " -> " + whole + "\n"
           "        pto.tstore ins(%m : " + kMat + ") outs(%dst : " + whole + ")\n";
}

// The buffers the two kernel functions exchange: the C2V consumer buffer reserved by the vector function
// (placed by the simulator), the V2C one by the cube function (at L1 byte 65536), each imported by the peer.
std::string buffer_bytes(const Variant& v) { return std::to_string((v.dir == 3 ? 4 : 8) * 2048); }

std::string cube_reserved_buffers(const Variant& v)
{
    return std::string(v.dir & 1 ? "    %c2v_buf = pto.import_reserved_buffer {name = \"c2v_fifo\", peer_func = @vector_k} -> i32\n" : "") +
           (v.dir & 2 ? "    %v2c_buf = pto.reserve_buffer {name = \"v2c_fifo\", size = " + buffer_bytes(v) +
                            ", location = #pto.address_space<mat>, auto = false, base = 65536} -> i32\n"
                      : "");
}

std::string vector_reserved_buffers(const Variant& v)
{
    return std::string(v.dir & 1 ? "    %c2v_buf = pto.reserve_buffer {name = \"c2v_fifo\", size = " + buffer_bytes(v) +
                                       ", location = #pto.address_space<vec>, auto = true} -> i32\n"
                                 : "") +
           (v.dir & 2 ? "    %v2c_buf = pto.import_reserved_buffer {name = \"v2c_fifo\", peer_func = @cube_k} -> i32\n" : "");
}

// The cube's load of band %i of the input into %m, the tile it pushes.
std::string load_whole()
{
    return "      %m = pto.alloc_tile : " + kMat + "\n"
           "        %r = arith.muli %i, %c16 : index\n"
           "        %src = pto.partition_view %iv, offsets = [%r, %c0], sizes = [%c16, %c32] : " + kView +
           " -> !pto.partition_tensor_view<16x32xf32>\n"
           "        pto.tload ins(%src : !pto.partition_tensor_view<16x32xf32>) outs(%m : " + kMat + ")\n";
}

// cube_k and vector_k with these bodies after the common prologue.
std::string two_function_module(const Variant& v, const std::string& cube_body, const std::string& vector_body)
{
    const std::string params = "(%in: !pto.ptr<f32>, %out: !pto.ptr<f32>, %fifo: !pto.ptr<f32>)";
    return "module {\n"
           "  func.func @cube_k" + params + " attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n" + prologue(v) + cube_body +
           "    return\n  }\n"
           "  func.func @vector_k" + params + " attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n" + prologue(v) + vector_body +
           "    return\n  }\n"
           "}\n";
}

// The kernel in the front-end spellings.
std::string frontend_program(const Variant& v)
{
    const std::string split = "{split = " + std::to_string(v.split) + "}";
    const bool c2v = v.dir & 1, v2c = v.dir & 2;
    const std::string attrs = "{dir_mask = " + std::to_string(v.dir) + ", slot_size = 2048}";
    const std::string gm = v.global_slots ? "gm_slot_buffer = %own : !pto.ptr<f32>, " : "";
    const std::string cube_buffers = "(" + gm + "c2v_consumer_buf = " + (c2v ? "%c2v_buf" : "%zero") + " : i32, v2c_consumer_buf = " +
                                     (v2c ? "%v2c_buf" : "%zero") + " : i32)";
    const std::string cube_body =
        cube_reserved_buffers(v) +
        "    pto.aic_initialize_pipe " + attrs + "\n      " + cube_buffers + "\n" +
        "    scf.for %i = %c0 to %ntiles step %c1 {\n" +
        (v.dir == 1 ? load_whole() +
                      "        pto.tpush_to_aiv(%m : " + kMat + ") " + split + "\n"
                    : "        %m = pto.tpop_from_aiv " + split + " -> " + kMat + "\n" +
                          (v.dir == 2 ? store_whole() : "        pto.tpush_to_aiv(%m : " + kMat + ") " + split + "\n") +
                          "        pto.tfree_from_aiv " + split + "\n") +
        "    }\n";
    const std::string vector_buffers = "(" + gm + "c2v_consumer_buf = " + (c2v ? "%c2v_buf" : "%zero") + " : i32, v2c_consumer_buf = " +
                                       (v2c ? "%v2c_buf" : "%zero") + " : i32)";
    const std::string vector_body =
        vector_reserved_buffers(v) +
        "    pto.aiv_initialize_pipe " + attrs + "\n      " + vector_buffers + "\n" +
        "    %l = pto.alloc_tile : " + vec_part(v) + "\n"
        "    %d = pto.alloc_tile : " + vec_part(v) + "\n"
        "    scf.for %i = %c0 to %ntiles step %c1 {\n" +
        (v2c ? load_doubled_part(v) + "        pto.tpush_to_aic(%d : " + vec_part(v) + ") " + split + "\n" : "") +
        (c2v ? "        %t = pto.tpop_from_aic " + split + " -> " + vec_part(v) + "\n" + store_part(v, "%t", v.dir == 3) +
                   "        pto.tfree_from_aic " + split + "\n"
             : "") +
        "    }\n";
    return two_function_module(v, cube_body, vector_body);
}

// The C2V kernel in the lowered spellings: one function with cube and vector sections and the pipe the
// assembler makes of the front-end one (8 slots, flag 0, nosplit as the splits imply).
std::string lowered_program(const Variant& v)
{
    const std::string split = "{split = " + std::to_string(v.split) + "}";
    const std::string nosplit = v.split == 0 ? "true" : "false";
    const std::string init = v.global_slots
                                 ? "    %p = pto.initialize_l2g2l_pipe {dir_mask = 1, slot_size = 2048, slot_num = 8, local_slot_num = 8, flag_base = 0, nosplit = " +
                                       nosplit + "}(%own : !pto.ptr<f32>, %local : i32) -> !pto.pipe\n"
                                 : "    %p = pto.initialize_l2l_pipe {dir_mask = 1, slot_size = 2048, slot_num = 8, flag_base = 0, nosplit = " + nosplit +
                                       "}(%local : i32) -> !pto.pipe\n";
    return "func.func @k(%in: !pto.ptr<f32>, %out: !pto.ptr<f32>, %fifo: !pto.ptr<f32>) {\n" + prologue(v) +
           "    %local = arith.constant 0 : i32\n" + init +
           "    pto.section.cube {\n"
           "      %m = pto.alloc_tile : " + kMat + "\n"
           "      scf.for %i = %c0 to %ntiles step %c1 {\n"
           "        %r = arith.muli %i, %c16 : index\n"
           "        %src = pto.partition_view %iv, offsets = [%r, %c0], sizes = [%c16, %c32] : " + kView +
           " -> !pto.partition_tensor_view<16x32xf32>\n"
           "        pto.tload ins(%src : !pto.partition_tensor_view<16x32xf32>) outs(%m : " + kMat + ")\n"
           "        pto.tpush(%m, %p : " + kMat + ", !pto.pipe) " + split + "\n"
           "      }\n"
           "    }\n"
           "    pto.section.vector {\n"
           "      %d = pto.alloc_tile : " + vec_part(v) + "\n"
           "      %t = pto.declare_tile -> " + vec_part(v) + "\n"
           "      scf.for %i = %c0 to %ntiles step %c1 {\n"
           "        pto.tpop(%t, %p : " + vec_part(v) + ", !pto.pipe) " + split + "\n" + store_part(v, "%t", false) +
           "        pto.tfree(%p : !pto.pipe) " + split + "\n"
           "      }\n"
           "    }\n"
           "    return\n}\n";
}

struct Outcome {
    RunResult result;
    std::vector<float> out;
};

Outcome run_kernel(const std::string& text, const Variant& v, const std::vector<float>& in, bool checked)
{
    const ParseResult parsed = parse_ok(text, "frontend.pto");
    for (const auto& d : verify(parsed.module, profile::Target::Cpu)) ADD_FAILURE() << d.format();
    std::vector<float> input = in, fifo(size_t(kSlotFloats) * kBlocks, 0.0f);
    Outcome o;
    o.out.assign(size_t(kBlocks) * copies(v) * kTiles * kRows * kCols, -1.0f);
    RunOptions options;
    options.blocks = kBlocks;
    options.checked = checked;
    o.result = run(parsed.module, {array_arg("in", input), array_arg("out", o.out), array_arg("fifo", fifo)}, options);
    return o;
}

// out[b][c] = 2 in for every block b and copy c.
std::vector<float> reference(const Variant& v, const std::vector<float>& in)
{
    std::vector<float> out;
    for (int b = 0; b < kBlocks * copies(v); ++b)
        for (const float x : in) out.push_back(2.0f * x);
    return out;
}

TEST(TextFrontendPipe, EveryDirectionAndSplitMatchesTheReference)
{
    for (const int dir : {1, 2, 3})
        for (const int split : {0, 1, 2})
            for (const bool global_slots : {true, false}) {
                const Variant v{dir, split, global_slots};
                SCOPED_TRACE(name_of(v));
                const std::vector<float> in = random_vector<float>(size_t(kTiles) * kRows * kCols, 11 + dir * 3 + split);
                const Outcome o = run_kernel(frontend_program(v), v, in, /*checked=*/split == 1);
                ASSERT_TRUE(o.result.ok()) << format_all(o.result) << frontend_program(v);
                EXPECT_EQ(o.out, reference(v, in));
            }
}

TEST(TextFrontendPipe, GivesTheBitsOfTheLoweredSpellings)
{
    for (const int split : {0, 1, 2})
        for (const bool global_slots : {true, false}) {
            const Variant v{1, split, global_slots};
            SCOPED_TRACE(name_of(v));
            const std::vector<float> in = random_vector<float>(size_t(kTiles) * kRows * kCols, 40 + split);
            const Outcome front = run_kernel(frontend_program(v), v, in, false);
            const Outcome lowered = run_kernel(lowered_program(v), v, in, false);
            ASSERT_TRUE(front.result.ok()) << format_all(front.result);
            ASSERT_TRUE(lowered.result.ok()) << format_all(lowered.result);
            EXPECT_EQ(front.out, lowered.out);
        }
}

TEST(TextFrontendPipe, AnEntryCallingBothKernelFunctionsRunsThemAsOneKernel)
{
    // The assembler's samples wrap the two functions in an entry that calls both.
    const Variant v{1, 1, true};
    std::string text = frontend_program(v);
    const std::string entry = "  func.func @mixed(%in: !pto.ptr<f32>, %out: !pto.ptr<f32>, %fifo: !pto.ptr<f32>) attributes {pto.entry} {\n"
                              "    func.call @cube_k(%in, %out, %fifo) : (!pto.ptr<f32>, !pto.ptr<f32>, !pto.ptr<f32>) -> ()\n"
                              "    func.call @vector_k(%in, %out, %fifo) : (!pto.ptr<f32>, !pto.ptr<f32>, !pto.ptr<f32>) -> ()\n"
                              "    return\n  }\n";
    text.insert(text.find("module {\n") + 9, entry);
    const std::vector<float> in = random_vector<float>(size_t(kTiles) * kRows * kCols, 50);
    const Outcome o = run_kernel(text, v, in, false);
    ASSERT_TRUE(o.result.ok()) << format_all(o.result);
    EXPECT_EQ(o.out, reference(v, in));
}

TEST(TextFrontendPipe, EverySpellingPrintsBackAndParsesToTheSameProgram)
{
    for (const int dir : {1, 3}) {
        const ParseResult parsed = parse_ok(frontend_program({dir, 1, true}), "front.pto");
        for (const Form form : {Form::Preserve, Form::SSA, Form::Asm, Form::Generic}) {
            const std::string printed = print(parsed.module, form);
            const ParseResult again = parse_ok(printed, "again.pto");
            EXPECT_EQ(print(again.module, Form::Generic), print(parsed.module, Form::Generic)) << printed;
        }
        const std::string preserved = print(parsed.module, Form::Preserve);
        EXPECT_NE(preserved.find("pto.tpush_to_aiv(%m : "), std::string::npos) << preserved;
        EXPECT_NE(preserved.find("attributes {pto.kernel_kind = #pto.kernel_kind<cube>}"), std::string::npos) << preserved;
        EXPECT_NE(preserved.find("(gm_slot_buffer = %own : !pto.ptr<f32>, c2v_consumer_buf = %c2v_buf : i32"), std::string::npos) << preserved;
    }
    // A pop that sets its valid shape, its counts untyped as the assembler writes them, or typed.
    for (const std::string counts : {"(%r, %c)", "(%r, %c : index, index)"}) {
        const std::string pop = "%t = pto.tpop_from_aic" + counts + " {split = 0} -> !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=32, v_row=?, "
                                "v_col=?, blayout=row_major, slayout=none_box, fractal=512, pad=0>";
        const ParseResult valid =
            parse_ok("func.func @v(%r: index, %c: index) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n  " + pop + "\n  return\n}\n", "valid.pto");
        for (const Form form : {Form::Preserve, Form::SSA, Form::Asm, Form::Generic}) {
            const std::string printed = print(valid.module, form);
            EXPECT_EQ(print(parse_ok(printed, "again.pto").module, Form::Generic), print(valid.module, Form::Generic)) << printed;
        }
        EXPECT_NE(print(valid.module, Form::Preserve).find(pop), std::string::npos) << print(valid.module, Form::Preserve);
    }
}

// A pop with valid counts receives that much of its part: 5 x 20 of each 16 x 32 tile. Without a split
// both vector cores receive every tile; each stores it to its own half of `out`.
TEST(TextFrontendPipe, APopWithValidCountsReceivesThatRegion)
{
    const std::string vec = "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=32, v_row=?, v_col=?, blayout=row_major, slayout=none_box, fractal=512, pad=0>";
    const std::string part = "!pto.partition_tensor_view<5x20xf32>";
    const std::string whole = "!pto.partition_tensor_view<16x32xf32>";
    const std::string consts = "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n    %c5 = arith.constant 5 : index\n"
                               "    %c16 = arith.constant 16 : index\n    %c20 = arith.constant 20 : index\n    %c32 = arith.constant 32 : index\n"
                               "    %n = arith.constant 3 : index\n    %rows = arith.constant 48 : index\n    %none = arith.constant 0 : i32\n"
                               "    %iv = pto.make_tensor_view %in, shape = [%rows, %c32], strides = [%c32, %c1] : " + kView + "\n"
                               "    %ov = pto.make_tensor_view %out, shape = [%rows, %c32], strides = [%c32, %c1] : " + kView + "\n";
    const std::string text =
        "func.func @c(%in: !pto.ptr<f32>, %out: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n" + consts +
        "    %buf = pto.import_reserved_buffer {name = \"c2v\", peer_func = @v} -> i32\n"
        "    pto.aic_initialize_pipe {dir_mask = 1, slot_size = 2048}(c2v_consumer_buf = %buf : i32, v2c_consumer_buf = %none : i32)\n"
        "    %m = pto.alloc_tile : " + kMat + "\n"
        "    scf.for %i = %c0 to %n step %c1 {\n"
        "      %r = arith.muli %i, %c16 : index\n"
        "      %src = pto.partition_view %iv, offsets = [%r, %c0], sizes = [%c16, %c32] : " + kView + " -> " + whole + "\n"
        "      pto.tload ins(%src : " + whole + ") outs(%m : " + kMat + ")\n"
        "      pto.tpush_to_aiv(%m : " + kMat + ") {split = 0}\n"
        "    }\n    return\n}\n"
        "func.func @v(%in: !pto.ptr<f32>, %out: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n" + consts +
        "    %buf = pto.reserve_buffer {name = \"c2v\", size = 16384, location = #pto.address_space<vec>, auto = false, base = 0} -> i32\n"
        "    pto.aiv_initialize_pipe {dir_mask = 1, slot_size = 2048}(c2v_consumer_buf = %buf : i32, v2c_consumer_buf = %none : i32)\n"
        "    %both = arith.constant 96 : index\n"
        "    %halves = pto.make_tensor_view %out, shape = [%both, %c32], strides = [%c32, %c1] : " + kView + "\n"
        "    %sub64 = pto.get_subblock_idx\n"
        "    %sub = arith.index_cast %sub64 : i64 to index\n"
        "    %half = arith.muli %sub, %rows : index\n"
        "    scf.for %i = %c0 to %n step %c1 {\n"
        "      %t = pto.tpop_from_aic(%c5, %c20) {split = 0} -> " + vec + "\n"
        "      %ri = arith.muli %i, %c16 : index\n"
        "      %r = arith.addi %half, %ri : index\n"
        "      %dst = pto.partition_view %halves, offsets = [%r, %c0], sizes = [%c5, %c20] : " + kView + " -> " + part + "\n"
        "      pto.tstore ins(%t : " + vec + ") outs(%dst : " + part + ")\n"
        "      pto.tfree_from_aic {split = 0}\n"
        "    }\n    return\n}\n";
    const ParseResult parsed = parse_ok(text, "valid.pto");
    for (const auto& d : verify(parsed.module, profile::Target::Cpu)) ADD_FAILURE() << d.format();
    std::vector<float> in = random_vector<float>(48 * 32, 60), out(2 * in.size(), -1.0f);
    const RunResult r = run(parsed.module, {array_arg("in", in), array_arg("out", out)}, checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    for (int sub = 0; sub < 2; ++sub)
        for (int row = 0; row < 48; ++row)
            for (int col = 0; col < 32; ++col) {
                const bool received = row % 16 < 5 && col < 20;
                ASSERT_EQ(out[(sub * 48 + row) * 32 + col], received ? in[row * 32 + col] : -1.0f) << sub << ": " << row << ", " << col;
            }
}

// A valid C2V kernel to break one rule at a time.
std::string base() { return frontend_program({1, 1, true}); }

std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

struct Broken {
    std::string text, code, says;
};

TEST(TextFrontendPipe, EveryBrokenRuleIsItsCodeBeforeAndWhenRunning)
{
    const std::string push = "pto.tpush_to_aiv(%m : " + kMat + ") {split = 1}\n";
    const std::string pop = "%t = pto.tpop_from_aic {split = 1} -> " + vec_part({1, 1, true}) + "\n";
    const std::string cube_init = "    pto.aic_initialize_pipe {dir_mask = 1, slot_size = 2048}\n";
    const std::string vector_kind = "@vector_k(%in: !pto.ptr<f32>, %out: !pto.ptr<f32>, %fifo: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>}";
    const std::string reserve = "size = 16384, location = #pto.address_space<vec>, auto = true}";
    const std::vector<Broken> cases = {
        {replaced(base(), push, "pto.tpush_to_aic(%m : " + kMat + ") {split = 1}\n"), "STRUCT_KERNEL_KIND", "belongs in a vector kernel function"},
        {replaced(base(), vector_kind, "@vector_k(%in: !pto.ptr<f32>, %out: !pto.ptr<f32>, %fifo: !pto.ptr<f32>)"), "STRUCT_KERNEL_KIND",
         "belongs in a vector kernel function"},
        {replaced(base(), " attributes {pto.kernel_kind = #pto.kernel_kind<cube>}", " attributes {pto.kernel_kind = #pto.kernel_kind<gpu>}"),
         "STRUCT_ATTRIBUTE_VALUE", "pto.kernel_kind"},
        {replaced(base(), cube_init, cube_init + "      (gm_slot_buffer = %own : !pto.ptr<f32>, c2v_consumer_buf = %c2v_buf : i32, v2c_consumer_buf = %zero : i32)\n" + cube_init),
         "STRUCT_PIPE_INIT", "one pipe"},
        {replaced(base(), cube_init, "    pto.tfree_from_aiv {split = 1}\n" + cube_init), "STRUCT_PIPE_INIT", "initialized before it"},
        {replaced(base(), push, push + "        pto.tfree_from_aiv {split = 1}\n"), "STRUCT_PIPE_INIT", "does not carry this transfer's direction"},
        {replaced(base(), "{dir_mask = 1, slot_size = 2048}", "{dir_mask = 4, slot_size = 2048}"), "STRUCT_ATTRIBUTE_VALUE", "dir_mask"},
        {replaced(base(), "{dir_mask = 1, slot_size = 2048}", "{dir_mask = 1}"), "STRUCT_MISSING_ATTRIBUTE", "missing attribute"},
        {replaced(base(), push, "pto.tpush_to_aiv(%m : " + kMat + ") {split = 7}\n"), "STRUCT_ATTRIBUTE_VALUE", "split"},
        {replaced(base(), push, "pto.tpush_to_aiv(%r : index) {split = 1}\n"), "STRUCT_OPERAND_KIND", "a push sends a tile"},
        {replaced(base(), pop, "%t, %t2 = pto.tpop_from_aic {split = 1} -> (" + vec_part({1, 1, true}) + ", " + vec_part({1, 1, true}) + ")\n"),
         "STRUCT_RESULT_COUNT", "defines the tile it receives"},
        {replaced(base(), reserve, "size = 4096, location = #pto.address_space<vec>, auto = true}"), "STRUCT_RESERVED_BUFFER", "holds every slot"},
        {replaced(base(), reserve, "size = 16384, location = #pto.address_space<mat>, auto = true}"), "STRUCT_RESERVED_BUFFER", "lies in its UB"},
        {replaced(base(), reserve, "size = 16384, location = #pto.address_space<gm>, auto = true}"), "STRUCT_ATTRIBUTE_VALUE", "location"},
        {replaced(base(), reserve, "size = 16384, location = #pto.address_space<vec>, auto = false}"), "STRUCT_RESERVED_BUFFER", "gives its address"},
        {replaced(base(), "peer_func = @vector_k}", "peer_func = @nowhere}"), "STRUCT_RESERVED_BUFFER", "a function of this module"},
        {replaced(base(), "name = \"c2v_fifo\", peer_func", "name = \"other\", peer_func"), "STRUCT_RESERVED_BUFFER", "reserved in the peer function"},
        {replaced(base(), "(gm_slot_buffer = %own : !pto.ptr<f32>, c2v_consumer_buf = %c2v_buf : i32, v2c_consumer_buf = %zero : i32)\n    %l",
                  "(gm_slot_buffer = %own : !pto.ptr<f32>, c2v_consumer_buf = %zero : i32, v2c_consumer_buf = %zero : i32)\n    %l"),
         "STRUCT_PIPE_PEER", "one initialization in each of two peer functions"},
        {replaced(base(), pop, "%t = pto.tpop_from_aic {split = 0} -> " + vec_part({1, 1, true}) + "\n"), "STRUCT_PIPE_SPLIT", "all split or none"},
        {replaced(base(), push, "pto.tpush_to_aiv(%m : " + kMat + ") {split = 0}\n"), "STRUCT_PIPE_SPLIT", "disagree on splitting"},
        {replaced(base(), "{dir_mask = 1, slot_size = 2048}\n      (gm_slot_buffer = %own : !pto.ptr<f32>, c2v_consumer_buf = %c2v_buf",
                  "{dir_mask = 1, slot_size = 2048, nosplit = true}\n      (gm_slot_buffer = %own : !pto.ptr<f32>, c2v_consumer_buf = %c2v_buf"),
         "STRUCT_PIPE_SPLIT", "nosplit contradicts the transfers' splits"},
    };
    for (const Broken& c : cases) {
        SCOPED_TRACE(c.code + ": " + c.says);
        const ParseResult parsed = parse_ok(c.text, "broken.pto");
        const std::vector<Diagnostic> found = verify(parsed.module, profile::Target::Cpu);
        ASSERT_FALSE(found.empty()) << c.text;
        EXPECT_EQ(found[0].code, c.code) << found[0].format();
        EXPECT_NE(found[0].format().find(c.says), std::string::npos) << found[0].format();
        EXPECT_NE(found[0].location.find("broken.pto:"), std::string::npos) << found[0].format();
        // Run anyway: the same refusal, never a crash.
        std::vector<float> in(size_t(kTiles) * kRows * kCols, 1.0f), out(in.size() * kBlocks, 0.0f), fifo(size_t(kSlotFloats) * kBlocks, 0.0f);
        const RunResult r = run(parsed.module, {array_arg("in", in), array_arg("out", out), array_arg("fifo", fifo)}, {});
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.diagnostics[0].code, found[0].code) << r.diagnostics[0].format();
    }
}

// --- the lowered initializations over reserved buffers, paired by the assembler's rule -------------

// How the lowered kernel arranges its pipes for dir_mask 3: a pipe per direction on each side, one
// pipe of both directions on each side, or the cube's one pipe of both directions against the vector
// function's pipe per direction.
enum class Arrangement { PipePerDirection, OnePipeOfBoth, CubeBothVectorPerDirection };

// The kernel of frontend_program in the lowered spellings as the assembler's output has it before it
// resolves the buffers: reserved and imported, no flag_base written (the pairing gives it). The V2C
// ring of a pipe of its own lies after the C2V ring in the global slots, as in a pipe of both.
std::string paired_lowered_program(const Variant& v, Arrangement arrangement)
{
    const bool c2v = v.dir & 1, v2c = v.dir & 2;
    const int slot_num = v.dir == 3 ? 4 : 8;
    const std::string split = "{split = " + std::to_string(v.split) + "}";
    const auto init = [&](const std::string& result, int dir_mask, const std::string& gm, const std::string& buffers) {
        const std::string attrs = "dir_mask = " + std::to_string(dir_mask) + ", slot_size = 2048, slot_num = " + std::to_string(slot_num);
        const std::string nosplit = std::string(", nosplit = ") + (v.split == 0 ? "true" : "false");
        return v.global_slots ? "    " + result + " = pto.initialize_l2g2l_pipe {" + attrs + ", local_slot_num = " + std::to_string(slot_num) +
                                    nosplit + "}(" + gm + " : !pto.ptr<f32>, " + buffers + ") -> !pto.pipe\n"
                              : "    " + result + " = pto.initialize_l2l_pipe {" + attrs + nosplit + "}(" + buffers + ") -> !pto.pipe\n";
    };
    const auto pipes = [&](bool both) {
        if (both) return init("%pc", 3, "%own", "%c2v_buf : i32, %v2c_buf : i32");
        return std::string(v.dir == 3 ? "    %v2c_at = arith.constant 2048 : index\n"
                                        "    %own_v2c = pto.addptr %own, %v2c_at : !pto.ptr<f32> -> !pto.ptr<f32>\n"
                                      : "") +
               (c2v ? init("%pc", 1, "%own", "%c2v_buf : i32") : "") + (v2c ? init("%pv", 2, v.dir == 3 ? "%own_v2c" : "%own", "%v2c_buf : i32") : "");
    };
    const bool cube_both = arrangement != Arrangement::PipePerDirection, vector_both = arrangement == Arrangement::OnePipeOfBoth;
    const std::string cube_v2c = cube_both ? "%pc" : "%pv", vector_v2c = vector_both ? "%pc" : "%pv";
    const std::string cube_body =
        cube_reserved_buffers(v) +
        pipes(cube_both) +
        "    scf.for %i = %c0 to %ntiles step %c1 {\n" +
        (v.dir == 1 ? load_whole() +
                      "        pto.tpush(%m, %pc : " + kMat + ", !pto.pipe) " + split + "\n"
                    : "        %m = pto.declare_tile -> " + kMat + "\n"
                      "        pto.tpop(%m, " + cube_v2c + " : " + kMat + ", !pto.pipe) " + split + "\n" +
                          (v.dir == 2 ? store_whole() : "        pto.tpush(%m, %pc : " + kMat + ", !pto.pipe) " + split + "\n") +
                          "        pto.tfree(" + cube_v2c + " : !pto.pipe) " + split + "\n") +
        "    }\n";
    const std::string vector_body =
        vector_reserved_buffers(v) +
        pipes(vector_both) +
        "    %l = pto.alloc_tile : " + vec_part(v) + "\n"
        "    %d = pto.alloc_tile : " + vec_part(v) + "\n"
        "    scf.for %i = %c0 to %ntiles step %c1 {\n" +
        (v2c ? load_doubled_part(v) + "        pto.tpush(%d, " + vector_v2c + " : " + vec_part(v) + ", !pto.pipe) " + split + "\n" : "") +
        (c2v ? "        %t = pto.declare_tile -> " + vec_part(v) + "\n"
               "        pto.tpop(%t, %pc : " + vec_part(v) + ", !pto.pipe) " + split + "\n" + store_part(v, "%t", v.dir == 3) +
                   "        pto.tfree(%pc : !pto.pipe) " + split + "\n"
             : "") +
        "    }\n";
    return two_function_module(v, cube_body, vector_body);
}

// The flag_base the pairing gives each lowered initialization, in the order they stand.
std::vector<uint32_t> paired_flags(const Module& module)
{
    const FrontendPipes pipes = analyze_frontend_pipes(module);
    std::vector<uint32_t> flags;
    for (const auto& f : module.functions)
        walk(*f->body, [&](const Operation& op) {
            if (is_lowered_pipe_init(op.name)) flags.push_back(pipes.flag_base.at(&op));
        });
    return flags;
}

TEST(TextPipePairing, LoweredPipesOverReservedBuffersGiveTheBitsOfTheFrontEnd)
{
    struct Case {
        int dir;
        Arrangement arrangement;
        std::vector<uint32_t> flags;  // cube's initializations, then the vector function's
    };
    // One direction: flag 0. Both between the two functions: C2V 0 and V2C 2; a pipe of both takes
    // its C2V pipe's 0 and runs its V2C tiles on flag 2, where the vector function's V2C pipe is.
    const std::vector<Case> cases = {{1, Arrangement::PipePerDirection, {0, 0}},
                                     {2, Arrangement::PipePerDirection, {0, 0}},
                                     {3, Arrangement::PipePerDirection, {0, 2, 0, 2}},
                                     {3, Arrangement::OnePipeOfBoth, {0, 0}},
                                     {3, Arrangement::CubeBothVectorPerDirection, {0, 0, 2}}};
    for (const Case& c : cases)
        for (const int split : {0, 1, 2})
            for (const bool global_slots : {true, false}) {
                const Variant v{c.dir, split, global_slots};
                SCOPED_TRACE(name_of(v) + ", arrangement " + std::to_string(int(c.arrangement)));
                const std::string text = paired_lowered_program(v, c.arrangement);
                EXPECT_EQ(paired_flags(parse_ok(text, "paired.pto").module), c.flags);
                const std::vector<float> in = random_vector<float>(size_t(kTiles) * kRows * kCols, 70 + c.dir * 3 + split);
                const Outcome o = run_kernel(text, v, in, /*checked=*/split == 1);
                ASSERT_TRUE(o.result.ok()) << format_all(o.result) << text;
                EXPECT_EQ(o.out, reference(v, in));
            }
}

TEST(TextPipePairing, AFlagBaseWrittenOnOneEndIsThePeersToo)
{
    // The cube's C2V pipe writes flag 6: the vector function's end of it takes 6; V2C keeps its 2.
    const Variant v{3, 1, false};
    const std::string text = replaced(paired_lowered_program(v, Arrangement::PipePerDirection), "%pc = pto.initialize_l2l_pipe {dir_mask = 1,",
                                      "%pc = pto.initialize_l2l_pipe {flag_base = 6, dir_mask = 1,");
    EXPECT_EQ(paired_flags(parse_ok(text, "written.pto").module), (std::vector<uint32_t>{6, 2, 6, 2}));
    const std::vector<float> in = random_vector<float>(size_t(kTiles) * kRows * kCols, 90);
    const Outcome o = run_kernel(text, v, in, true);
    ASSERT_TRUE(o.result.ok()) << format_all(o.result) << text;
    EXPECT_EQ(o.out, reference(v, in));
}

// Two C2V pipes from the cube to the vector cores: "first" over a reserved buffer, flag 4 written on
// its vector end only, and "second" over a plain address on flag 0, written on both ends (a function
// reserves one buffer). Taken as written (the cube's end of "first" on flag 0 by default), the cube
// would push both streams into the pipe of flag 0 and the vector cores pop the first's tiles there.
TEST(TextPipePairing, TwoPipesThatWouldShareAFlagAsWrittenRunApart)
{
    const std::string mat = kMat, vec = "!pto.tile_buf<vec, 8x32xf32>", view = kView;  // 3 tiles per stream
    const auto pipe = [](const std::string& result, const std::string& buffer, const std::string& flag) {
        return "    " + result + " = pto.initialize_l2l_pipe {dir_mask = 1, slot_size = 2048, slot_num = 2" + flag + "}(" + buffer +
               " : i32) -> !pto.pipe\n";
    };
    const std::string consts = "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n    %c8 = arith.constant 8 : index\n"
                               "    %c16 = arith.constant 16 : index\n    %c32 = arith.constant 32 : index\n    %c48 = arith.constant 48 : index\n"
                               "    %n = arith.constant 3 : index\n    %rows = arith.constant 96 : index\n"
                               "    %iv = pto.make_tensor_view %in, shape = [%rows, %c32], strides = [%c32, %c1] : " + view + "\n"
                               "    %ov = pto.make_tensor_view %out, shape = [%rows, %c32], strides = [%c32, %c1] : " + view + "\n";
    const std::string params = "(%in: !pto.ptr<f32>, %out: !pto.ptr<f32>)";
    const std::string text =
        "module {\n"
        "  func.func @cube_k" + params + " attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n" + consts +
        "    %first_buf = pto.import_reserved_buffer {name = \"first\", peer_func = @vector_k} -> i32\n"
        "    %second_buf = arith.constant 4096 : i32\n" +
        pipe("%first", "%first_buf", "") + pipe("%second", "%second_buf", ", flag_base = 0") +
        "    %m = pto.alloc_tile : " + mat + "\n"
        "    scf.for %i = %c0 to %n step %c1 {\n"
        "      %r = arith.muli %i, %c16 : index\n"
        "      %a = pto.partition_view %iv, offsets = [%r, %c0], sizes = [%c16, %c32] : " + view + " -> !pto.partition_tensor_view<16x32xf32>\n"
        "      pto.tload ins(%a : !pto.partition_tensor_view<16x32xf32>) outs(%m : " + mat + ")\n"
        "      pto.tpush(%m, %first : " + mat + ", !pto.pipe) {split = 1}\n"
        "      %b = arith.addi %r, %c48 : index\n"
        "      %bv = pto.partition_view %iv, offsets = [%b, %c0], sizes = [%c16, %c32] : " + view + " -> !pto.partition_tensor_view<16x32xf32>\n"
        "      pto.tload ins(%bv : !pto.partition_tensor_view<16x32xf32>) outs(%m : " + mat + ")\n"
        "      pto.tpush(%m, %second : " + mat + ", !pto.pipe) {split = 1}\n"
        "    }\n    return\n  }\n"
        "  func.func @vector_k" + params + " attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n" + consts +
        "    %first_buf = pto.reserve_buffer {name = \"first\", size = 4096, location = #pto.address_space<vec>, auto = false, base = 0} -> i32\n"
        "    %second_buf = arith.constant 4096 : i32\n" +
        pipe("%first", "%first_buf", ", flag_base = 4") + pipe("%second", "%second_buf", ", flag_base = 0") +
        "    %sub64 = pto.get_subblock_idx\n"
        "    %sub = arith.index_cast %sub64 : i64 to index\n"
        "    %half = arith.muli %sub, %c8 : index\n"
        "    scf.for %i = %c0 to %n step %c1 {\n"
        "      %r0 = arith.muli %i, %c16 : index\n"
        "      %r = arith.addi %r0, %half : index\n"
        "      %t = pto.declare_tile -> " + vec + "\n"
        "      pto.tpop(%t, %first : " + vec + ", !pto.pipe) {split = 1}\n"
        "      %a = pto.partition_view %ov, offsets = [%r, %c0], sizes = [%c8, %c32] : " + view + " -> !pto.partition_tensor_view<8x32xf32>\n"
        "      pto.tstore ins(%t : " + vec + ") outs(%a : !pto.partition_tensor_view<8x32xf32>)\n"
        "      pto.tfree(%first : !pto.pipe) {split = 1}\n"
        "      %u = pto.declare_tile -> " + vec + "\n"
        "      pto.tpop(%u, %second : " + vec + ", !pto.pipe) {split = 1}\n"
        "      %b = arith.addi %r, %c48 : index\n"
        "      %bv = pto.partition_view %ov, offsets = [%b, %c0], sizes = [%c8, %c32] : " + view + " -> !pto.partition_tensor_view<8x32xf32>\n"
        "      pto.tstore ins(%u : " + vec + ") outs(%bv : !pto.partition_tensor_view<8x32xf32>)\n"
        "      pto.tfree(%second : !pto.pipe) {split = 1}\n"
        "    }\n    return\n  }\n"
        "}\n";
    const ParseResult parsed = parse_ok(text, "two_pipes.pto");
    for (const auto& d : verify(parsed.module, profile::Target::Cpu)) ADD_FAILURE() << d.format();
    EXPECT_EQ(paired_flags(parsed.module), (std::vector<uint32_t>{4, 0, 4, 0}));
    std::vector<float> in = random_vector<float>(96 * 32, 91), out(in.size(), -1.0f);
    const RunResult r = run(parsed.module, {array_arg("in", in), array_arg("out", out)}, checked_run("cube_k"));
    ASSERT_TRUE(r.ok()) << format_all(r);
    EXPECT_EQ(out, in);
}

// The line of the first occurrence of `what` in `text`, as a diagnostic's location names it.
std::string location_of(const std::string& text, const std::string& what)
{
    const std::size_t at = text.find(what);
    EXPECT_NE(at, std::string::npos) << what;
    return "broken.pto:" + std::to_string(1 + std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n')) + ":";
}

TEST(TextPipePairing, EveryBrokenPairingIsItsCodeAtItsInitialization)
{
    const std::string good = paired_lowered_program({1, 1, false}, Arrangement::PipePerDirection);
    const std::string init = "%pc = pto.initialize_l2l_pipe {dir_mask = 1, slot_size = 2048, slot_num = 8, nosplit = false}";
    std::string conflicting = replaced(good, init, "%pc = pto.initialize_l2l_pipe {flag_base = 2, dir_mask = 1, slot_size = 2048, slot_num = 8, nosplit = false}");
    conflicting = replaced(conflicting, init, "%pc = pto.initialize_l2l_pipe {flag_base = 4, dir_mask = 1, slot_size = 2048, slot_num = 8, nosplit = false}");
    const std::string frontend_buffer = "c2v_consumer_buf = %c2v_buf";
    const std::string unreserved_frontend = replaced(replaced(base(), frontend_buffer, "c2v_consumer_buf = %zero"), frontend_buffer, "c2v_consumer_buf = %zero");
    struct Pairing {
        std::string text, code, says, at;  // `at`: the text the diagnostic's line starts with
    };
    const std::vector<Pairing> cases = {
        // The assembler's own examples: an initialization on a plain address without flag_base, and a
        // buffer imported by a function that initializes no pipe on it.
        {"func.func @k(%in: !pto.ptr<f32>, %out: !pto.ptr<f32>, %fifo: !pto.ptr<f32>) {\n"
         "  %l = arith.constant 0 : i32\n"
         "  %p = pto.initialize_l2l_pipe {dir_mask = 1, slot_size = 2048, slot_num = 2}(%l : i32) -> !pto.pipe\n"
         "  return\n}\n",
         "STRUCT_PIPE_INIT", "without flag_base takes its consumer buffer from a reserved buffer", "  %p = pto.initialize_l2l_pipe"},
        {replaced(good, init + "(%c2v_buf : i32)", init + "(%zero : i32)"), "STRUCT_PIPE_PEER",
         "the buffer \"c2v_fifo\" of @vector_k joins a C2V pipe: one initialization in each of two peer functions", "    " + init + "(%c2v_buf"},
        {conflicting, "STRUCT_PIPE_PEER", "use one flag_base — expected flag_base = 2 as at the peer, got flag_base = 4",
         "    %pc = pto.initialize_l2l_pipe {flag_base = 4"},
        {replaced(good, "    %l = pto.alloc_tile", "    %again = " + init.substr(6) + "(%c2v_buf : i32) -> !pto.pipe\n    %l = pto.alloc_tile"),
         "STRUCT_PIPE_PEER", "got 3 in 2", "    " + init},
        // The front-end spellings take their flag from the same pairing.
        {unreserved_frontend, "STRUCT_PIPE_INIT", "c2v_consumer_buf / v2c_consumer_buf from pto.reserve_buffer", "    pto.aic_initialize_pipe"},
    };
    for (const Pairing& c : cases) {
        SCOPED_TRACE(c.code + ": " + c.says);
        const ParseResult parsed = parse_ok(c.text, "broken.pto");
        const std::vector<Diagnostic> found = verify(parsed.module, profile::Target::Cpu);
        ASSERT_FALSE(found.empty()) << c.text;
        EXPECT_EQ(found[0].code, c.code) << found[0].format();
        EXPECT_NE(found[0].format().find(c.says), std::string::npos) << found[0].format();
        EXPECT_EQ(found[0].location.rfind(location_of(c.text, c.at), 0), 0u) << found[0].format();
        std::vector<float> in(size_t(kTiles) * kRows * kCols, 1.0f), out(in.size() * kBlocks, 0.0f), fifo(size_t(kSlotFloats) * kBlocks, 0.0f);
        const RunResult r = run(parsed.module, {array_arg("in", in), array_arg("out", out), array_arg("fifo", fifo)}, {});
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.diagnostics[0].code, found[0].code) << r.diagnostics[0].format();
        EXPECT_EQ(r.diagnostics[0].location, found[0].location) << r.diagnostics[0].format();
    }
}

TEST(TextFrontendPipe, PopsACubeNeverPushesAreADeadlock)
{
    const std::string push = "        pto.tpush_to_aiv(%m : " + kMat + ") {split = 1}\n";
    const ParseResult parsed = parse_ok(replaced(base(), push, ""), "silent.pto");
    EXPECT_TRUE(verify(parsed.module, profile::Target::Cpu).empty());
    std::vector<float> in(size_t(kTiles) * kRows * kCols, 1.0f), out(in.size() * kBlocks, 0.0f), fifo(size_t(kSlotFloats) * kBlocks, 0.0f);
    const RunResult r = run(parsed.module, {array_arg("in", in), array_arg("out", out), array_arg("fifo", fifo)}, {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.diagnostics[0].code, "ORDER_DEADLOCK") << r.diagnostics[0].format();
    EXPECT_NE(r.diagnostics[0].message.find("vector core 0 of block 0 waits in TPOP"), std::string::npos) << r.diagnostics[0].format();
    EXPECT_NE(r.diagnostics[0].message.find("the cube core of block 0 has ended"), std::string::npos) << r.diagnostics[0].format();
}

}  // namespace
}  // namespace pto::as::testing
