// Parsing of every construct into the IR: module structure, views and buffers, tile instructions
// in their three spellings, control flow, calls and synchronization.
#include "asm_test_support.hpp"

namespace pto::as {
namespace {

using testing::body_of;
using testing::in_function;
using testing::parse_clean;

const std::string kTile = "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16>";

std::string with_tiles(const std::string& body)
{
    return in_function("  %a = pto.alloc_tile : " + kTile + "\n  %b = pto.alloc_tile : " + kTile +
                       "\n  %c = pto.alloc_tile : " + kTile + "\n" + body);
}

// ---- module structure ---------------------------------------------------------------------------

TEST(ParserModule, ModuleAttributesFunctionsArgumentsResults)
{
    ParseResult r = parse_clean(R"(module @kernels attributes {pto.target_arch = "a5", "pto.device-spec" = "Ascend910B1"} {
  func.func private @k(%a: !pto.ptr<f32> {pto.noalias}, %n: index) -> (index, i1)
      attributes {pto.entry, pto.kernel_kind = #pto.kernel_kind<vector>} {
    %t = arith.constant true
    return %n, %t : index, i1
  }
})");
    const Module& m = r.module;
    EXPECT_TRUE(m.explicit_module);
    EXPECT_EQ(m.name, "kernels");
    ASSERT_EQ(m.attributes.size(), 2u);
    EXPECT_EQ(find_attribute(m.attributes, "pto.target_arch")->text(), "a5");
    EXPECT_EQ(find_attribute(m.attributes, "pto.device-spec")->text(), "Ascend910B1");
    ASSERT_EQ(m.functions.size(), 1u);
    const Function& f = *m.functions[0];
    EXPECT_EQ(f.name, "k");
    EXPECT_EQ(f.visibility, "private");
    EXPECT_EQ(f.result_types, (std::vector<Type>{Type::index(), Type::integer(1)}));
    ASSERT_EQ(f.arguments().size(), 2u);
    EXPECT_EQ(f.arguments()[0]->name, "a");
    EXPECT_TRUE(f.arguments()[0]->is_block_argument());
    EXPECT_EQ(f.arguments()[0]->owner_block, f.entry_block());
    EXPECT_TRUE(f.arguments()[1]->type.is<IndexType>());
    ASSERT_EQ(f.argument_attributes.size(), 2u);
    EXPECT_NE(find_attribute(f.argument_attributes[0], "pto.noalias"), nullptr);
    EXPECT_TRUE(find_attribute(f.attributes, "pto.entry")->is(Attribute::Kind::Unit));
    EXPECT_EQ(find_attribute(f.attributes, "pto.kernel_kind")->enum_value(), "vector");
    EXPECT_EQ(m.find_function("k"), &f);
}

TEST(ParserModule, FunctionsWithoutAModule)
{
    ParseResult r = parse_clean("func.func @a() {\n  return\n}\nfunc.func @b() {\n  return\n}\n");
    EXPECT_FALSE(r.module.explicit_module);
    EXPECT_EQ(r.module.functions.size(), 2u);
}

TEST(ParserModule, EmptyInputIsAnEmptyModule)
{
    ParseResult r = parse_clean("// nothing here\n");
    EXPECT_TRUE(r.module.functions.empty());
}

TEST(ParserModule, ReturnSpellings)
{
    ParseResult r = parse_clean("func.func @f(%x: i32) -> i32 {\n  func.return %x : i32\n}\n"
                                "func.func @g(%x: i32) -> i32 {\n  return %x : i32\n}\n");
    const Operation& long_form = *r.module.functions[0]->entry_block()->operations[0];
    const Operation& short_form = *r.module.functions[1]->entry_block()->operations[0];
    EXPECT_EQ(long_form.name, "func.return");
    EXPECT_EQ(short_form.name, "func.return");
    EXPECT_EQ(long_form.spelling.form, OpForm::SSA);
    EXPECT_EQ(short_form.spelling.form, OpForm::Asm);
    EXPECT_EQ(short_form.operand_types, (std::vector<Type>{Type::integer(32)}));
}

// ---- views, buffers, block queries --------------------------------------------------------------

TEST(ParserViews, MakeTensorViewAndPartitionView)
{
    ParseResult r = parse_clean(in_function(R"(  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = pto.make_tensor_view %p, shape = [%n, %c1], strides = [%c1, %c1] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
  %s = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%n, %c1] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<?x1xf32>)",
                                            "%p: !pto.ptr<f32>, %n: index"));
    const auto& ops = body_of(r.module);
    ASSERT_EQ(ops.size(), 5u);
    const Operation& view = *ops[2];
    EXPECT_EQ(view.name, "pto.make_tensor_view");
    ASSERT_EQ(view.operands.size(), 5u);
    EXPECT_EQ(view.operands[0]->name, "p");
    EXPECT_EQ(view.operands[1]->name, "n");
    ASSERT_EQ(view.input_layout.size(), 3u);
    EXPECT_EQ(view.input_layout[1].keyword, "shape");
    EXPECT_EQ(view.input_layout[1].style, GroupStyle::AssignList);
    EXPECT_EQ(view.input_layout[2].keyword, "strides");
    EXPECT_EQ(view.attribute("layout")->enum_value(), "nd");
    EXPECT_TRUE(view.results[0]->type.is<TensorViewType>());
    EXPECT_EQ(view.spelling.signature, SigStyle::Plain);

    const Operation& part = *ops[3];
    EXPECT_EQ(part.input_layout[1].keyword, "offsets");
    EXPECT_EQ(part.operand_types.size(), 1u);
    EXPECT_TRUE(part.results[0]->type.as<TensorViewType>().partition);
    EXPECT_EQ(part.spelling.signature, SigStyle::Arrow);
}

TEST(ParserViews, DocumentedFormWithoutCommasAndMultiLine)
{
    ParseResult r = parse_clean(in_function(R"(  %v = pto.make_tensor_view %p, shape = [%n, %n]
      strides = [%n, %n]
      : !pto.tensor_view<?x?xf16>)",
                                            "%p: !pto.ptr<f16>, %n: index"));
    const auto& ops = body_of(r.module);
    ASSERT_EQ(ops.size(), 2u);
    EXPECT_EQ(ops[0]->operands.size(), 5u);
}

TEST(ParserViews, AllocTileStaticDynamicAndAddressed)
{
    ParseResult r = parse_clean(in_function(R"(  %c0 = arith.constant 0 : i64
  %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  %b = pto.alloc_tile valid_row = %r valid_col = %c
      : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=?, v_col=?>
  %d = pto.alloc_tile addr = %c0 : !pto.tile_buf<vec, 16x16xf32>)",
                                            "%r: index, %c: index"));
    const auto& ops = body_of(r.module);
    ASSERT_EQ(ops.size(), 5u);
    EXPECT_TRUE(ops[1]->operands.empty());
    EXPECT_TRUE(ops[1]->results[0]->type.is<TileType>());
    const Operation& dynamic = *ops[2];
    ASSERT_EQ(dynamic.operands.size(), 2u);
    EXPECT_EQ(dynamic.input_layout[0].keyword, "valid_row");
    EXPECT_EQ(dynamic.input_layout[0].style, GroupStyle::Assign);
    EXPECT_EQ(dynamic.input_layout[1].keyword, "valid_col");
    EXPECT_EQ(dynamic.results[0]->type.as<TileType>().valid_rows, kDynamic);
    EXPECT_EQ(ops[3]->input_layout[0].keyword, "addr");
}

TEST(ParserViews, SubsetSetValidShapeTreshapeBlockQueries)
{
    ParseResult r = parse_clean(in_function(R"(  %c0 = arith.constant 0 : index
  %s = pto.subset %t[%c0, %c0] sizes [16, 32] : !pto.tile_buf<left, 32x64xf32>
  pto.set_validshape %t, %c0, %c0 : !pto.tile_buf<left, 32x64xf32>
  %r = pto.treshape %t : !pto.tile_buf<left, 32x64xf32> -> !pto.tile_buf<left, 64x32xf32>
  %i = pto.get_block_idx
  %n = pto.get_block_num
  %j = pto.get_subblock_idx
  %m = pto.get_subblock_num)",
                                            "%t: !pto.tile_buf<left, 32x64xf32>"));
    const auto& ops = body_of(r.module);
    ASSERT_EQ(ops.size(), 9u);
    const Operation& subset = *ops[1];
    ASSERT_EQ(subset.operands.size(), 3u);
    ASSERT_EQ(subset.input_layout.size(), 3u);
    EXPECT_EQ(subset.input_layout[1].style, GroupStyle::Subscript);
    EXPECT_EQ(subset.input_layout[2].keyword, "sizes");
    EXPECT_EQ(subset.input_layout[2].style, GroupStyle::KeywordList);
    EXPECT_TRUE(subset.input_layout[2].items[0].literal);
    EXPECT_EQ(subset.input_layout[2].items[1].value, 32);
    EXPECT_EQ(ops[2]->operands.size(), 3u);
    EXPECT_EQ(ops[2]->num_outputs, 0u);  // not a tile instruction: no destination split
    EXPECT_EQ(ops[3]->results[0]->type.as<TileType>().rows, 64);
    for (std::size_t i = 4; i < 8; ++i) {
        EXPECT_TRUE(ops[i]->operands.empty()) << ops[i]->name;
        EXPECT_TRUE(ops[i]->results[0]->type.is_none()) << ops[i]->name;  // the source states no type
    }
}

// ---- tile instructions --------------------------------------------------------------------------

TEST(ParserTile, DpsSpelling)
{
    ParseResult r = parse_clean(with_tiles("  pto.tadd ins(%a, %b : " + kTile + ", " + kTile + ") outs(%c : " + kTile + ")"));
    const Operation& op = *body_of(r.module)[3];
    EXPECT_EQ(op.name, "pto.tadd");
    EXPECT_EQ(op.spelling.form, OpForm::DPS);
    EXPECT_EQ(op.spelling.signature, SigStyle::InsOuts);
    ASSERT_EQ(op.operands.size(), 3u);
    EXPECT_EQ(op.num_outputs, 1u);
    EXPECT_EQ(op.inputs()[0]->name, "a");
    EXPECT_EQ(op.inputs()[1]->name, "b");
    EXPECT_EQ(op.outputs()[0]->name, "c");
    EXPECT_EQ(op.operand_types.size(), 3u);
    EXPECT_EQ(op.input_types().size(), 2u);
    EXPECT_EQ(op.output_types().size(), 1u);
    EXPECT_TRUE(op.results.empty());
    EXPECT_EQ(isa_mnemonic(op.name), "TADD");
}

TEST(ParserTile, ThreeSpellingsGiveTheSameInstruction)
{
    std::string types = kTile + ", " + kTile + ", " + kTile;
    ParseResult dps = parse_clean(with_tiles("  pto.tadd ins(%a, %b : " + kTile + ", " + kTile + ") outs(%c : " + kTile + ")"));
    ParseResult ssa = parse_clean(with_tiles("  pto.tadd %a, %b, %c : (" + types + ") -> ()"));
    ParseResult assembly = parse_clean(with_tiles("  tadd %c, %a, %b : (" + kTile + ", " + kTile + ", " + kTile + ")"));
    EXPECT_TRUE(equivalent(dps.module, ssa.module)) << *first_difference(dps.module, ssa.module, false);
    EXPECT_TRUE(equivalent(dps.module, assembly.module)) << *first_difference(dps.module, assembly.module, false);
    EXPECT_FALSE(dps.module == ssa.module);  // same instruction, different spelling
    const Operation& op = *body_of(assembly.module)[3];
    EXPECT_EQ(op.name, "pto.tadd");
    EXPECT_EQ(op.spelling.form, OpForm::Asm);
    EXPECT_EQ(op.outputs()[0]->name, "c");
}

TEST(ParserTile, SsaSpellingWithResults)
{
    ParseResult r = parse_clean(in_function(
        "  %d = pto.tgather %s, %i : (!pto.tile<vec, f32, 16, 16, row_major, none_box, 512, 0>, "
        "!pto.tile<vec, i32, 16, 16, row_major, none_box, 512, 0>) -> !pto.tile<vec, f32, 16, 16, row_major, none_box, 512, 0>",
        "%s: !pto.tile<vec, f32, 16, 16, row_major, none_box, 512, 0>, %i: !pto.tile<vec, i32, 16, 16, row_major, none_box, 512, 0>"));
    const Operation& op = *body_of(r.module)[0];
    EXPECT_EQ(op.spelling.form, OpForm::SSA);
    EXPECT_EQ(op.spelling.signature, SigStyle::Functional);
    EXPECT_EQ(op.num_outputs, 0u);
    ASSERT_EQ(op.results.size(), 1u);
    EXPECT_EQ(op.results[0]->defining_op, &op);
    EXPECT_EQ(op.results[0]->type.as<TileType>().dtype->element_dtype(), engine::DType::F32);
}

TEST(ParserTile, AssemblyWithResultAndArrowSignature)
{
    ParseResult r = parse_clean(in_function("  %dst = tcolexpand %src : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>",
                                            "%src: !pto.tile<16x16xf32>"));
    const Operation& op = *body_of(r.module)[0];
    EXPECT_EQ(op.name, "pto.tcolexpand");
    EXPECT_EQ(op.spelling.form, OpForm::Asm);
    EXPECT_EQ(op.spelling.signature, SigStyle::Arrow);
    EXPECT_EQ(op.num_outputs, 0u);
    EXPECT_TRUE(op.results[0]->type.is<TileType>());
}

TEST(ParserTile, SegmentSizesSelectSeveralDestinations)
{
    ParseResult r = parse_clean(with_tiles(
        "  pto.tgather %a, %b, %c {cmpMode = #pto.cmp<GT>, operandSegmentSizes = array<i32: 1, 2>}"));
    const Operation& op = *body_of(r.module)[3];
    EXPECT_EQ(op.num_outputs, 2u);
    EXPECT_EQ(op.inputs()[0]->name, "a");
    EXPECT_EQ(op.attribute("operandSegmentSizes"), nullptr);  // consumed by the parser
    ASSERT_NE(op.attribute("cmpMode"), nullptr);
    ParseResult none = parse_clean(with_tiles("  tprint %a, %b {operandSegmentSizes = array<i32: 2, 0>}"));
    EXPECT_EQ(body_of(none.module)[3]->num_outputs, 0u);
}

TEST(ParserTile, GatherMaskAttributeInsideIns)
{
    ParseResult r = parse_clean(with_tiles("  pto.tgather ins(%a, {maskPattern = #pto.mask_pattern<P0101>} : " + kTile +
                                           ") outs(%c : " + kTile + ")\n" + "  pto.tcmp ins(%a, %b{cmpMode = #pto<cmp lt>}: " +
                                           kTile + ", " + kTile + ") outs(%c : " + kTile + ")\n" +
                                           "  pto.tgather ins(%a, %b : " + kTile + ", " + kTile + ") outs(%c : " + kTile +
                                           ") {offset = 7 : i32}"));
    const auto& ops = body_of(r.module);
    const Operation& mask = *ops[3];
    ASSERT_EQ(mask.operands.size(), 2u);
    EXPECT_EQ(mask.attribute("maskPattern")->enum_value(), "P0101");
    EXPECT_TRUE(mask.spelling.attributes_in_ins);
    EXPECT_EQ(ops[4]->attribute("cmpMode")->enum_value(), "lt");
    EXPECT_FALSE(ops[5]->spelling.attributes_in_ins);
    EXPECT_EQ(ops[5]->attribute("offset")->int_value(), 7);
}

TEST(ParserTile, ScalarOperandsAndMultipleDestinations)
{
    ParseResult r = parse_clean(in_function("  pto.tgather ins(%a, %k, %b : " + kTile + ", f16, " + kTile + ") outs(%c, %b : " +
                                                kTile + ", " + kTile + ") {cmpMode = #pto.cmp<GT>, offset = 7 : i32}",
                                            "%a: " + kTile + ", %b: " + kTile + ", %c: " + kTile + ", %k: f16"));
    const Operation& op = *body_of(r.module)[0];
    EXPECT_EQ(op.inputs().size(), 3u);
    EXPECT_EQ(op.num_outputs, 2u);
    EXPECT_EQ(op.outputs()[1]->name, "b");
    EXPECT_EQ(op.input_types()[1], Type::float_type(FloatKind::F16));
    EXPECT_EQ(op.output_types().size(), 2u);
}

TEST(ParserTile, NamesWithDotsAndUnderscores)
{
    std::string acc = "!pto.tile_buf<acc, 16x16xf32>", left = "!pto.tile_buf<left, 16x16xf16>",
                right = "!pto.tile_buf<right, 16x16xf16>";
    ParseResult r = parse_clean(in_function("  pto.tmatmul.acc ins(%c, %a, %b : " + acc + ", " + left + ", " + right +
                                                ") outs(%c : " + acc + ")\n  pto.tmatmul_acc ins(%c, %a, %b : " + acc + ", " +
                                                left + ", " + right + ") outs(%c : " + acc + ")\n  mgather.row %c, %a, %b",
                                            "%a: " + left + ", %b: " + right + ", %c: " + acc));
    const auto& ops = body_of(r.module);
    EXPECT_EQ(ops[0]->name, "pto.tmatmul.acc");
    EXPECT_EQ(ops[1]->name, "pto.tmatmul_acc");
    EXPECT_EQ(isa_mnemonic(ops[0]->name), "TMATMUL_ACC");
    EXPECT_EQ(isa_mnemonic(ops[1]->name), "TMATMUL_ACC");
    EXPECT_EQ(ops[2]->name, "pto.mgather.row");
    EXPECT_EQ(ops[2]->num_outputs, 1u);
    EXPECT_TRUE(is_tile_instruction("pto.tsort32"));
    EXPECT_TRUE(is_tile_instruction("pto.mscatter"));
    EXPECT_FALSE(is_tile_instruction("pto.alloc_tile"));
    EXPECT_FALSE(is_tile_instruction("pto.vlds"));
    EXPECT_FALSE(is_tile_instruction("arith.addi"));
}

TEST(ParserTile, UnknownInstructionFamiliesParseGenerically)
{
    ParseResult r = parse_clean(with_tiles("  pto.tfuturistic.op ins(%a, %b {mode = #pto.future<X>} : " + kTile + ", " + kTile +
                                           ") outs(%c : " + kTile + ")\n  %z = tnewthing %a[%a, 3], %b : " + kTile));
    const auto& ops = body_of(r.module);
    EXPECT_EQ(ops[3]->name, "pto.tfuturistic.op");
    EXPECT_EQ(ops[3]->num_outputs, 1u);
    const Operation& indexed = *ops[4];
    EXPECT_EQ(indexed.name, "pto.tnewthing");
    ASSERT_EQ(indexed.input_layout.size(), 3u);
    EXPECT_EQ(indexed.input_layout[1].style, GroupStyle::Subscript);
    EXPECT_TRUE(indexed.input_layout[1].items[1].literal);
    EXPECT_EQ(indexed.operands.size(), 3u);
}

TEST(ParserTile, VectorInstructionWithSubscriptAndAttribute)
{
    ParseResult r = parse_clean(in_function(R"(  %c0 = arith.constant 0 : index
  %v = pto.vlds %ub[%c0] {dist = "NORM"} : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>)",
                                            "%ub: !pto.ptr<f32, ub>"));
    const Operation& op = *body_of(r.module)[1];
    EXPECT_EQ(op.operands.size(), 2u);
    EXPECT_EQ(op.attribute("dist")->text(), "NORM");
    ASSERT_TRUE(op.results[0]->type.is<VRegType>());
    EXPECT_EQ(op.results[0]->type.as<VRegType>().lanes, 64);
}

TEST(ParserTile, StatementsEndAtTheLineUnlessContinued)
{
    ParseResult r = parse_clean(in_function(R"(  %i = pto.get_block_idx
  %j = arith.index_cast %i : i64 to index
  pto.tadd ins(%t, %t
      : !pto.tile_buf<vec, 8x8xf32>,
        !pto.tile_buf<vec, 8x8xf32>)
    outs(%t : !pto.tile_buf<vec, 8x8xf32>);)",
                                            "%t: !pto.tile_buf<vec, 8x8xf32>"));
    const auto& ops = body_of(r.module);
    ASSERT_EQ(ops.size(), 4u);
    EXPECT_TRUE(ops[0]->operands.empty());
    EXPECT_EQ(ops[1]->spelling.signature, SigStyle::Cast);
    EXPECT_TRUE(ops[1]->results[0]->type.is<IndexType>());
    EXPECT_TRUE(ops[2]->spelling.semicolon);
}

// ---- synchronization ----------------------------------------------------------------------------

TEST(ParserSync, EveryDocumentedSpelling)
{
    ParseResult r = parse_clean(in_function(R"(  pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
  pto.record_event[#pto.sync_op_type<TLOAD>, #pto.sync_op_type<TMATMUL>, #pto.event<EVENT_ID0>]
  pto.wait_event[#pto.sync_op_type<TLOAD>, #pto.sync_op_type<TMATMUL>, #pto.event<EVENT_ID0>]
  pto.barrier #pto.pipe<PIPE_ALL>
  pto.barrier(TVEC)
  pipe_barrier(PIPE_ALL)
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1)
  pto.sync.set <PIPE_V>, 3)"));
    const auto& ops = body_of(r.module);
    ASSERT_EQ(ops.size(), 10u);
    const Operation& set = *ops[0];
    EXPECT_EQ(set.name, "pto.set_flag");
    EXPECT_EQ(set.spelling.arguments, ArgStyle::Bracket);
    ASSERT_EQ(set.arguments.size(), 3u);
    EXPECT_EQ(set.arguments[1].enum_value(), "PIPE_V");
    EXPECT_EQ(set.arguments[1].dialect_form(), DialectAttrForm::Short);
    EXPECT_EQ(ops[1]->arguments[2].enum_value(), "EVENT_ID0");
    EXPECT_EQ(ops[2]->arguments[0].mnemonic(), "sync_op_type");
    EXPECT_EQ(ops[3]->name, "pto.wait_event");
    EXPECT_EQ(ops[4]->spelling.arguments, ArgStyle::Bare);
    EXPECT_EQ(ops[4]->arguments[0].enum_value(), "PIPE_ALL");
    EXPECT_EQ(ops[5]->spelling.arguments, ArgStyle::Paren);
    EXPECT_EQ(ops[6]->name, "pto.pipe_barrier");
    EXPECT_EQ(ops[6]->spelling.form, OpForm::Asm);
    EXPECT_EQ(ops[7]->arguments[0].enum_value(), "PIPE_V");
    EXPECT_EQ(ops[8]->arguments.size(), 2u);
    EXPECT_EQ(ops[8]->arguments[1].int_value(), 3);
}

// ---- control flow -------------------------------------------------------------------------------

TEST(ParserControlFlow, ForWithIterArgs)
{
    ParseResult r = parse_clean(in_function(R"(  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c0, %y = %c1) -> (index, index) {
    %s = arith.addi %x, %i : index
    scf.yield %s, %y : index, index
  } {pto.unroll = 2 : i32}
  %z = arith.addi %r#0, %r#1 : index
  scf.for unsigned %k = %a to %b step %a : i32 {
  })",
                                            "%n: index, %a: i32, %b: i32"));
    const auto& ops = body_of(r.module);
    ASSERT_EQ(ops.size(), 6u);  // with the closing return
    const Operation& loop = *ops[2];
    EXPECT_EQ(loop.name, "scf.for");
    ASSERT_EQ(loop.operands.size(), 5u);
    EXPECT_EQ(loop.operands[1]->name, "n");
    ASSERT_EQ(loop.results.size(), 2u);
    EXPECT_EQ(loop.results[1]->group_index, 1);
    EXPECT_EQ(loop.results[1]->reference(), "%r#1");
    EXPECT_TRUE(loop.results[0]->type.is<IndexType>());
    ASSERT_EQ(loop.regions.size(), 1u);
    const Block& body = *loop.regions[0]->blocks[0];
    ASSERT_EQ(body.arguments.size(), 3u);
    EXPECT_EQ(body.arguments[0]->name, "i");
    EXPECT_EQ(body.arguments[1]->name, "x");
    EXPECT_EQ(body.operations.size(), 2u);
    EXPECT_EQ(body.operations[0]->parent, &body);
    EXPECT_EQ(loop.regions[0]->parent, &loop);
    EXPECT_EQ(loop.attribute("pto.unroll")->int_value(), 2);
    const Operation& sum = *ops[3];
    EXPECT_EQ(sum.operands[0], loop.results[0].get());
    EXPECT_EQ(sum.operands[1], loop.results[1].get());
    const Operation& unsigned_loop = *ops[4];
    EXPECT_NE(unsigned_loop.attribute("unsignedCmp"), nullptr);
    EXPECT_EQ(unsigned_loop.regions[0]->blocks[0]->arguments[0]->type, Type::integer(32));
}

TEST(ParserControlFlow, IfElseWithAndWithoutResults)
{
    ParseResult r = parse_clean(in_function(R"(  %v = scf.if %c -> (index) {
    scf.yield %n : index
  } else {
    scf.yield %n : index
  }
  scf.if %c {
    %x = arith.addi %n, %n : index
  })",
                                            "%c: i1, %n: index"));
    const auto& ops = body_of(r.module);
    ASSERT_EQ(ops.size(), 3u);
    EXPECT_EQ(ops[0]->regions.size(), 2u);
    EXPECT_TRUE(ops[0]->results[0]->type.is<IndexType>());
    EXPECT_EQ(ops[1]->regions.size(), 1u);
    EXPECT_EQ(ops[1]->regions[0]->blocks[0]->operations.size(), 1u);
}

TEST(ParserControlFlow, WhileWithConditionAndBlockArguments)
{
    ParseResult r = parse_clean(in_function(R"(  %f:2 = scf.while (%i = %n, %b = %c) : (index, i1) -> (index, i1) {
    scf.condition(%b) %i, %b : index, i1
  } do {
  ^bb0(%i2: index, %b2: i1):
    scf.yield %i2, %b2 : index, i1
  })",
                                            "%n: index, %c: i1"));
    const Operation& loop = *body_of(r.module)[0];
    EXPECT_EQ(loop.name, "scf.while");
    EXPECT_EQ(loop.operands.size(), 2u);
    EXPECT_EQ(loop.operand_types.size(), 2u);
    ASSERT_EQ(loop.regions.size(), 2u);
    const Block& before = *loop.regions[0]->blocks[0];
    EXPECT_EQ(before.arguments[0]->name, "i");
    EXPECT_TRUE(before.label.empty());
    const Operation& condition = *before.operations[0];
    EXPECT_EQ(condition.name, "scf.condition");
    EXPECT_EQ(condition.operands.size(), 3u);
    const Block& after = *loop.regions[1]->blocks[0];
    EXPECT_EQ(after.label, "bb0");
    ASSERT_EQ(after.arguments.size(), 2u);
    EXPECT_EQ(after.arguments[1]->type, Type::integer(1));
    EXPECT_EQ(loop.results[1]->type, Type::integer(1));
}

TEST(ParserControlFlow, NamesAreScopedToTheirRegion)
{
    ParseResult r = parse_clean(in_function(R"(  scf.if %c {
    %x = arith.constant 1 : i32
  }
  scf.if %c {
    %x = arith.constant 2 : i32
  }
  %x = arith.constant 3 : i32)",
                                            "%c: i1"));
    EXPECT_EQ(body_of(r.module).size(), 4u);
}

TEST(ParserControlFlow, Sections)
{
    ParseResult r = parse_clean(in_function(R"(  pto.section.cube {
    %a = pto.alloc_tile : !pto.tile_buf<left, 16x16xf16>
  }
  pto.section.vector {
  })"));
    const auto& ops = body_of(r.module);
    EXPECT_EQ(ops[0]->name, "pto.section.cube");
    EXPECT_EQ(ops[0]->regions[0]->blocks[0]->operations.size(), 1u);
    EXPECT_EQ(ops[1]->name, "pto.section.vector");
    EXPECT_EQ(ops[1]->regions[0]->blocks.size(), 1u);
}

// ---- scalars and calls --------------------------------------------------------------------------

TEST(ParserScalars, ConstantsComparisonsCastsSelect)
{
    ParseResult r = parse_clean(in_function(R"(  %a = arith.constant 7 : i32
  %t = arith.constant true
  %f = arith.constant 1.5 : f32
  %lt = arith.cmpi slt, %a, %a : i32
  %gt = arith.cmpf ogt, %f, %f : f32
  %e = arith.extsi %a : i32 to i64
  %s = arith.select %lt, %a, %a : i32
  %m = arith.minsi %a, %a : i32)"));
    const auto& ops = body_of(r.module);
    ASSERT_EQ(ops.size(), 9u);
    EXPECT_EQ(ops[0]->results[0]->type, Type::integer(32));
    EXPECT_EQ(ops[1]->results[0]->type, Type::integer(1));
    EXPECT_TRUE(ops[2]->results[0]->type.is<FloatType>());
    EXPECT_EQ(ops[3]->attribute("predicate")->enum_value(), "slt");
    EXPECT_EQ(ops[3]->results[0]->type, Type::integer(1));
    EXPECT_EQ(ops[4]->attribute("predicate")->enum_value(), "ogt");
    EXPECT_EQ(ops[5]->results[0]->type, Type::integer(64));
    EXPECT_EQ(ops[6]->results[0]->type, Type::integer(32));
    EXPECT_EQ(ops[6]->operands.size(), 3u);
    EXPECT_EQ(ops[7]->results[0]->type, Type::integer(32));
}

TEST(ParserScalars, CallsAndMultipleResultNames)
{
    ParseResult r = parse_clean(R"(func.func @two() -> (i32, i32) {
  %a = arith.constant 1 : i32
  return %a, %a : i32, i32
}
func.func @caller() {
  %x, %y = func.call @two() : () -> (i32, i32)
  %p:2 = call @two() : () -> (i32, i32)
  %q = arith.addi %x, %p#1 : i32
  %r = arith.addi %q, %y#0 : i32
  return
})");
    const auto& ops = r.module.functions[1]->entry_block()->operations;
    ASSERT_EQ(ops.size(), 5u);
    EXPECT_EQ(ops[0]->name, "func.call");
    EXPECT_EQ(ops[0]->attribute("callee")->text(), "two");
    EXPECT_EQ(ops[0]->results[1]->name, "y");
    EXPECT_EQ(ops[0]->results[1]->group_index, -1);
    EXPECT_EQ(ops[1]->spelling.form, OpForm::Asm);
    EXPECT_EQ(ops[2]->operands[1], ops[1]->results[1].get());
    EXPECT_EQ(ops[3]->operands[1], ops[0]->results[1].get());  // %y#0 names the single result %y
}

TEST(ParserIR, WalkVisitsNestedOperationsInOrder)
{
    ParseResult r = parse_clean(in_function(R"(  scf.if %c {
    %x = arith.constant 1 : i32
    scf.if %c {
      %y = arith.constant 2 : i32
    }
  })",
                                            "%c: i1"));
    std::vector<std::string> names;
    walk(*r.module.functions[0]->body, [&](const Operation& op) { names.push_back(op.name); });
    EXPECT_EQ(names, (std::vector<std::string>{"scf.if", "arith.constant", "scf.if", "arith.constant", "func.return"}));
}

}  // namespace
}  // namespace pto::as

namespace pto::as {
namespace {

// pto.vstsx2 writes its mode token between operands; the operands after it belong to the operation,
// and the printed form keeps the token where it was written.
TEST(ParserVector, OperandsMayFollowTrailingTokens)
{
    const std::string text = in_function(
        "  %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
        "  pto.vstsx2 %a, %b, %p[%o], \"INTLV_B32\", %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.ptr<f32, ub>, index, !pto.mask<b32>",
        "%a: !pto.vreg<64xf32>, %b: !pto.vreg<64xf32>, %p: !pto.ptr<f32, ub>, %o: index");
    ParseResult r = parse_clean(text);
    const Operation& op = *body_of(r.module)[1];
    ASSERT_EQ(op.operands.size(), 5u);
    EXPECT_EQ(op.operands[4], body_of(r.module)[0]->result(0));
    ASSERT_EQ(op.arguments.size(), 1u);
    EXPECT_EQ(op.arguments[0].text(), "INTLV_B32");
    const std::string printed = print(r.module);
    EXPECT_NE(printed.find("%p[%o], \"INTLV_B32\", %m"), std::string::npos) << printed;
    EXPECT_EQ(print(parse_clean(printed).module), printed);
}

}  // namespace
}  // namespace pto::as
