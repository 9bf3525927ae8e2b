// Types and attributes: structure, semantic equality vs exact spelling, printing, and errors.
#include <cmath>

#include "asm_test_support.hpp"

namespace pto::as {
namespace {

using testing::body_of;
using testing::diagnostics_text;
using testing::in_function;

// The type of the first argument of `func.func @f(%x: <text>)`.
Type parse_type_text(const std::string& text)
{
    ParseResult r = testing::parse_clean("func.func @f(%x: " + text + ") {\n  return\n}\n");
    if (r.module.functions.empty() || r.module.functions[0]->arguments().empty()) return {};
    return r.module.functions[0]->arguments()[0]->type;
}

std::vector<Diagnostic> type_errors(const std::string& text)
{
    return parse("func.func @f(%x: " + text + ") {\n  return\n}\n", "t.pto").diagnostics;
}

// The `value` attribute of `%v = arith.constant <text>`.
Attribute parse_constant(const std::string& text)
{
    ParseResult r = testing::parse_clean(in_function("  %v = arith.constant " + text));
    const auto& ops = body_of(r.module);
    if (ops.empty() || !ops[0]->attribute("value")) return {};
    return *ops[0]->attribute("value");
}

// The attribute dictionary of `pto.tfoo {<text>}`.
std::vector<NamedAttribute> parse_dictionary(const std::string& text)
{
    ParseResult r = testing::parse_clean(in_function("  pto.tfoo {" + text + "}"));
    const auto& ops = body_of(r.module);
    return ops.empty() ? std::vector<NamedAttribute>{} : ops[0]->attributes;
}

// ---- scalars ------------------------------------------------------------------------------------

TEST(Types, Scalars)
{
    EXPECT_TRUE(parse_type_text("index").is<IndexType>());
    EXPECT_EQ(parse_type_text("i1"), Type::integer(1));
    EXPECT_EQ(parse_type_text("i32"), Type::integer(32));
    EXPECT_EQ(parse_type_text("si8"), Type::integer(8, Signedness::Signed));
    EXPECT_EQ(parse_type_text("ui16"), Type::integer(16, Signedness::Unsigned));
    EXPECT_EQ(parse_type_text("f16"), Type::float_type(FloatKind::F16));
    EXPECT_EQ(parse_type_text("bf16"), Type::float_type(FloatKind::BF16));
    EXPECT_EQ(parse_type_text("hif8"), Type::float_type(FloatKind::HiF8));
}

TEST(Types, ScalarSpellingsAreEqualButNotIdentical)
{
    Type u8 = parse_type_text("u8");
    Type ui8 = parse_type_text("ui8");
    EXPECT_EQ(u8, ui8);
    EXPECT_FALSE(identical(u8, ui8));
    EXPECT_EQ(to_string(u8), "u8");
    EXPECT_EQ(to_string(ui8), "ui8");
    Type mlir_fp8 = parse_type_text("f8E4M3FN");
    EXPECT_EQ(mlir_fp8, parse_type_text("f8e4m3"));
    EXPECT_EQ(to_string(mlir_fp8), "f8E4M3FN");
    EXPECT_EQ(parse_type_text("!pto.hif8"), parse_type_text("hif8"));
    EXPECT_EQ(to_string(parse_type_text("!pto.hif8")), "!pto.hif8");
}

TEST(Types, ElementDTypeMapsToEngineTypes)
{
    using engine::DType;
    EXPECT_EQ(parse_type_text("f32").element_dtype(), DType::F32);
    EXPECT_EQ(parse_type_text("ui32").element_dtype(), DType::U32);
    EXPECT_EQ(parse_type_text("i8").element_dtype(), DType::I8);
    EXPECT_EQ(parse_type_text("i4").element_dtype(), DType::I4);
    EXPECT_EQ(parse_type_text("f8E5M2").element_dtype(), DType::F8E5M2);
    EXPECT_EQ(parse_type_text("f4e2m1x2").element_dtype(), DType::F4E2M1x2);
    EXPECT_EQ(parse_type_text("!pto.tile_buf<vec, 16x16xbf16>").element_dtype(), DType::BF16);
    EXPECT_EQ(parse_type_text("!pto.ptr<f16>").element_dtype(), DType::F16);
    EXPECT_FALSE(parse_type_text("i1").element_dtype().has_value());
    EXPECT_FALSE(parse_type_text("index").element_dtype().has_value());
}

// ---- pointers and views -------------------------------------------------------------------------

TEST(Types, Pointers)
{
    Type plain = parse_type_text("!pto.ptr<f32>");
    ASSERT_TRUE(plain.is<PtrType>());
    EXPECT_FALSE(plain.as<PtrType>().space.has_value());
    EXPECT_EQ(*plain.as<PtrType>().element, Type::float_type(FloatKind::F32));

    Type ub = parse_type_text("!pto.ptr<bf16, ub>");
    Type vec = parse_type_text("!pto.ptr<bf16, vec>");
    EXPECT_EQ(ub.as<PtrType>().space, AddressSpace::VEC);
    EXPECT_EQ(ub, vec);  // two names of one address space
    EXPECT_FALSE(identical(ub, vec));
    EXPECT_EQ(to_string(ub), "!pto.ptr<bf16, ub>");
    EXPECT_EQ(to_string(vec), "!pto.ptr<bf16, vec>");
    EXPECT_EQ(parse_type_text("!pto.ptr<i8, l1>").as<PtrType>().space, AddressSpace::MAT);
    EXPECT_EQ(parse_type_text("!pto.ptr<!pto.ptr<f32>, gm>").as<PtrType>().element->is<PtrType>(), true);
}

TEST(Types, TensorViews)
{
    Type v = parse_type_text("!pto.tensor_view<?x?xf32>");
    ASSERT_TRUE(v.is<TensorViewType>());
    EXPECT_FALSE(v.as<TensorViewType>().partition);
    EXPECT_EQ(v.as<TensorViewType>().shape, (std::vector<int64_t>{kDynamic, kDynamic}));
    Type p = parse_type_text("!pto.partition_tensor_view<1x1x1x16x32xf16>");
    EXPECT_TRUE(p.as<TensorViewType>().partition);
    EXPECT_EQ(p.as<TensorViewType>().shape, (std::vector<int64_t>{1, 1, 1, 16, 32}));
    EXPECT_EQ(*p.as<TensorViewType>().element, Type::float_type(FloatKind::F16));
    Type mixed = parse_type_text("!pto.partition_tensor_view<?x64xf16>");
    EXPECT_EQ(mixed.as<TensorViewType>().shape, (std::vector<int64_t>{kDynamic, 64}));
    // `0x16` lexes as a hex integer; the shape parser reads it as the extents 0 and 16.
    EXPECT_EQ(parse_type_text("!pto.tensor_view<0x16xf32>").as<TensorViewType>().shape, (std::vector<int64_t>{0, 16}));
    Type old_name = parse_type_text("!pto.tile_view<16x16xf32>");
    EXPECT_EQ(old_name, parse_type_text("!pto.partition_tensor_view<16x16xf32>"));
    EXPECT_EQ(to_string(old_name), "!pto.tile_view<16x16xf32>");
    Type with_layout = parse_type_text("!pto.tensor_view<?x?xf32, #pto.layout<dn>>");
    EXPECT_EQ(with_layout.as<TensorViewType>().layout, "#pto.layout<dn>");
}

// ---- tiles --------------------------------------------------------------------------------------

TEST(Types, TileBufKeywordForm)
{
    Type t = parse_type_text("!pto.tile_buf<loc=acc, dtype=f32, rows=32, cols=16, v_row=?, v_col=8, "
                             "blayout=col_major, slayout=row_major, fractal=1024, pad=1>");
    ASSERT_TRUE(t.is<TileType>());
    const TileType& tile = t.as<TileType>();
    EXPECT_TRUE(tile.buffer);
    EXPECT_EQ(tile.loc, pto::TileType::Acc);
    EXPECT_EQ(*tile.dtype, Type::float_type(FloatKind::F32));
    EXPECT_EQ(tile.rows, 32);
    EXPECT_EQ(tile.cols, 16);
    EXPECT_EQ(tile.valid_rows, kDynamic);
    EXPECT_EQ(tile.valid_cols, 8);
    EXPECT_EQ(tile.blayout, pto::BLayout::ColMajor);
    EXPECT_EQ(tile.slayout, pto::SLayout::RowMajor);
    EXPECT_EQ(tile.fractal, 1024);
    EXPECT_EQ(tile.pad, pto::PadValue::Zero);
    EXPECT_EQ(tile.spelling.form, TileForm::Keyword);
}

TEST(Types, TileBufLayoutFieldsStayUnsetWhenOmitted)
{
    Type t = parse_type_text("!pto.tile_buf<loc=left, dtype=f16, rows=16, cols=16, v_row=16, v_col=16>");
    const TileType& tile = t.as<TileType>();
    EXPECT_FALSE(tile.blayout.has_value());
    EXPECT_FALSE(tile.slayout.has_value());
    EXPECT_FALSE(tile.fractal.has_value());
    EXPECT_FALSE(tile.pad.has_value());
}

TEST(Types, TileBufCompactForms)
{
    Type t = parse_type_text("!pto.tile_buf<vec, 16x128xf32, valid=?x1, blayout=col_major, pad=2>");
    const TileType& tile = t.as<TileType>();
    EXPECT_EQ(tile.loc, pto::TileType::Vec);
    EXPECT_EQ(tile.rows, 16);
    EXPECT_EQ(tile.cols, 128);
    EXPECT_EQ(tile.valid_rows, kDynamic);
    EXPECT_EQ(tile.valid_cols, 1);
    EXPECT_EQ(tile.pad, pto::PadValue::Max);
    EXPECT_EQ(tile.spelling.form, TileForm::Compact);
    EXPECT_EQ(to_string(t), "!pto.tile_buf<vec, 16x128xf32, valid=?x1, blayout=col_major, pad=2>");

    Type whole = parse_type_text("!pto.tile_buf<vec, 1x1024xf32>");
    const TileType& full = whole.as<TileType>();
    EXPECT_EQ(full.valid_rows, 1);
    EXPECT_EQ(full.valid_cols, 1024);
    EXPECT_FALSE(full.spelling.valid_written);
}

TEST(Types, TileSpellingsOfOneTileAreEqual)
{
    Type keyword = parse_type_text("!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16>");
    Type compact = parse_type_text("!pto.tile_buf<vec, 16x16xf32>");
    Type positional = parse_type_text("!pto.tile_buf<vec, f32, 16, 16, 16, 16>");
    EXPECT_EQ(keyword, compact);
    EXPECT_EQ(keyword, positional);
    EXPECT_FALSE(identical(keyword, compact));
    EXPECT_EQ(to_string(positional), "!pto.tile_buf<vec, f32, 16, 16, 16, 16>");
    // Layout fields left to the target are not the same as explicit ones.
    EXPECT_NE(compact, parse_type_text("!pto.tile_buf<vec, 16x16xf32, blayout=row_major>"));
}

TEST(Types, TileBufPositionalWithInOrderKeywordsAsTheIsaPagesWriteIt)
{
    Type t = parse_type_text("!pto.tile_buf<vec, f16, 32, 32, v_row=?, v_col=?, row_major, none_box, 512, 0>");
    const TileType& tile = t.as<TileType>();
    EXPECT_EQ(tile.valid_rows, kDynamic);
    EXPECT_EQ(tile.blayout, pto::BLayout::RowMajor);
    EXPECT_EQ(tile.pad, pto::PadValue::Null);
    EXPECT_EQ(tile.spelling.positional_count, 10);
    EXPECT_EQ(t, parse_type_text("!pto.tile_buf<vec, f16, 32, 32, ?, ?, row_major, none_box, 512, 0>"));
}

TEST(Types, TilePositionalAndShapeForms)
{
    Type t = parse_type_text("!pto.tile<vec, f16, 1, 32, row_major, none_box, 512, 0>");
    const TileType& tile = t.as<TileType>();
    EXPECT_FALSE(tile.buffer);
    EXPECT_EQ(tile.loc, pto::TileType::Vec);
    EXPECT_EQ(tile.slayout, pto::SLayout::NoneBox);
    EXPECT_EQ(tile.fractal, 512);
    EXPECT_EQ(tile.pad, pto::PadValue::Null);
    EXPECT_EQ(tile.spelling.positional_count, 8);

    Type bare = parse_type_text("!pto.tile<16x16xi1>");
    EXPECT_FALSE(bare.as<TileType>().loc.has_value());
    EXPECT_EQ(bare.as<TileType>().spelling.form, TileForm::Shape);
    EXPECT_EQ(to_string(bare), "!pto.tile<16x16xi1>");
}

TEST(Types, TileCamelCaseKeywordFormOfTheAssemblySpec)
{
    Type t = parse_type_text("!pto.tile<loc=Vec, dtype=f16, rows=16, cols=16, blayout=RowMajor, valid=16x16, "
                             "slayout=NoneBox, fractal=512, pad=Null>");
    const TileType& tile = t.as<TileType>();
    EXPECT_EQ(tile.loc, pto::TileType::Vec);
    EXPECT_EQ(tile.blayout, pto::BLayout::RowMajor);
    EXPECT_EQ(tile.pad, pto::PadValue::Null);
    EXPECT_TRUE(tile.spelling.camel_case);
    EXPECT_EQ(to_string(t), "!pto.tile<loc=Vec, dtype=f16, rows=16, cols=16, valid=16x16, blayout=RowMajor, "
                            "slayout=NoneBox, fractal=512, pad=Null>");
}

TEST(Types, DynamicMarkers)
{
    for (std::string marker : {"?", "dyn", "-1"}) {
        Type t = parse_type_text("!pto.tile_buf<loc=vec, dtype=f16, rows=32, cols=32, v_row=" + marker + ", v_col=" +
                                 marker + ">");
        EXPECT_EQ(t.as<TileType>().valid_rows, kDynamic) << marker;
        EXPECT_NE(to_string(t).find("v_row=" + marker), std::string::npos) << to_string(t);
    }
    EXPECT_EQ(parse_type_text("!pto.tile_buf<vec, 8x8xf32, valid=dynx4>").as<TileType>().valid_rows, kDynamic);
}

TEST(Types, AliasesResolveAndKeepTheirName)
{
    ParseResult r = testing::parse_clean("!t = !pto.tile_buf<vec, 16x16xf32>\n"
                                         "func.func @f(%x: !t) {\n  return\n}\n");
    ASSERT_EQ(r.module.type_aliases.size(), 1u);
    const Type& arg = r.module.functions[0]->arguments()[0]->type;
    EXPECT_EQ(arg, r.module.type_aliases[0].type);
    EXPECT_EQ(arg.alias(), "t");
    EXPECT_EQ(to_string(arg), "!t");
}

TEST(Types, OpaqueDialectAndBuiltinTypes)
{
    for (std::string text : {"!pto.event<src=#pto.op<TLOAD>, dst=#pto.op<TADD>>", "memref<?xf32, strided<[?, 1], offset: ?>>", "!llvm.ptr<6>"}) {
        Type t = parse_type_text(text);
        EXPECT_TRUE(t.is<OpaqueType>()) << text;
        EXPECT_EQ(to_string(t), text);
    }
}

// The public assembler's spellings: the location as an address-space attribute after the shape, and
// the compact mode (numbered or named), each kept as written.
TEST(Types, AddressSpaceSuffixAndCompactMode)
{
    const Type spaced = parse_type_text("!pto.tile_buf<32x64xf32, #pto.address_space<vec>>");
    ASSERT_TRUE(spaced.is<TileType>());
    EXPECT_EQ(spaced.as<TileType>().loc, pto::TileType::Vec);
    EXPECT_EQ(spaced, parse_type_text("!pto.tile_buf<vec, 32x64xf32>"));
    EXPECT_EQ(to_string(spaced), "!pto.tile_buf<32x64xf32, #pto.address_space<vec>>");
    for (const char* text : {"!pto.tile_buf<loc=left, dtype=f16, rows=16, cols=16, blayout=row_major, slayout=row_major, fractal=512, pad=0, compact=1>",
                             "!pto.tile_buf<mat, 16x16xf16, compact=row_plus_one>"}) {
        const Type t = parse_type_text(text);
        ASSERT_TRUE(t.is<TileType>()) << text;
        EXPECT_TRUE(t.as<TileType>().compact.has_value()) << text;
        EXPECT_EQ(to_string(t), text);
    }
    EXPECT_NE(parse_type_text("!pto.tile_buf<mat, 16x16xf16, compact=1>"), parse_type_text("!pto.tile_buf<mat, 16x16xf16>"));
    EXPECT_EQ(parse_type_text("!pto.tile_buf<mat, 16x16xf16, compact=0>"), parse_type_text("!pto.tile_buf<mat, 16x16xf16>"));
}

TEST(Types, VectorRegistersMasksAndAlignmentState)
{
    const Type vreg = parse_type_text("!pto.vreg<64xf32>");
    ASSERT_TRUE(vreg.is<VRegType>());
    EXPECT_EQ(vreg.as<VRegType>().lanes, 64);
    EXPECT_EQ(vreg.element_dtype(), engine::DType::F32);
    EXPECT_EQ(vreg, parse_type_text("!pto.vreg<64xf32>"));
    EXPECT_NE(vreg, parse_type_text("!pto.vreg<128xf16>"));
    for (const auto& [text, lane_bytes] : {std::pair<std::string, unsigned>{"!pto.mask<b8>", 1}, {"!pto.mask<b16>", 2}, {"!pto.mask<b32>", 4},
                                           {"!pto.mask<G>", 0}, {"!pto.mask", 0}}) {
        const Type mask = parse_type_text(text);
        ASSERT_TRUE(mask.is<MaskType>()) << text;
        EXPECT_EQ(mask.as<MaskType>().lane_bytes, lane_bytes) << text;
        EXPECT_EQ(to_string(mask), text);
    }
    EXPECT_TRUE(parse_type_text("!pto.align").is<AlignType>());
    for (const char* text : {"!pto.vreg<64xf32>", "!pto.mask<b32>", "!pto.align"}) {
        EXPECT_EQ(to_string(parse_type_text(text)), text);
        EXPECT_TRUE(parse_type_text(text).is_vector_state());
    }
}

struct BadType {
    std::string text;
    std::string code;
    std::string message_part;
};

class TypeErrors : public ::testing::TestWithParam<BadType> {};

TEST_P(TypeErrors, Reported)
{
    std::vector<Diagnostic> d = type_errors(GetParam().text);
    ASSERT_FALSE(d.empty()) << GetParam().text;
    EXPECT_EQ(d[0].code, GetParam().code) << diagnostics_text(d);
    EXPECT_NE(d[0].message.find(GetParam().message_part), std::string::npos) << diagnostics_text(d);
}

INSTANTIATE_TEST_SUITE_P(
    Types, TypeErrors,
    ::testing::Values(
        BadType{"f33", "PARSE_UNKNOWN_TYPE", "unknown type"},
        BadType{"!nothing", "PARSE_UNKNOWN_TYPE", "undefined type alias"},
        BadType{"!pto.", "PARSE_UNKNOWN_TYPE", "malformed type name"},
        BadType{"!pto.tile_buf<vec, 16x16xf32, 16x16xbf16>", "PARSE_BAD_TYPE", "conflicting dtype"},
        BadType{"!pto.tile_buf<vec, 16x16xf33>", "PARSE_UNKNOWN_TYPE", "unknown element type"},
        BadType{"!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=1, bogus=1>", "PARSE_BAD_TYPE", "unknown tile parameter"},
        BadType{"!pto.tile_buf<loc=gpu, dtype=f32, rows=1, cols=1>", "PARSE_BAD_TYPE", "unknown tile location"},
        BadType{"!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=1, pad=9>", "PARSE_BAD_TYPE", "unknown pad value"},
        BadType{"!pto.mask<b64>", "PARSE_BAD_TYPE", "unknown predicate width"},
        BadType{"!pto.tile_buf<vec, 16x16xf16, compact=7>", "PARSE_BAD_TYPE", "unknown compact mode"},
        BadType{"!pto.tile_buf<16x16xf16, #pto.address_space<moon>>", "PARSE_BAD_TYPE", "unknown tile location"},
        BadType{"!pto.vreg<4x4xf32>", "PARSE_BAD_TYPE", "one static lane count"},
        BadType{"!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=1, blayout=diagonal>", "PARSE_BAD_TYPE", "unknown blayout"},
        BadType{"!pto.tile_buf<loc=vec, dtype=f32, rows=1, rows=2, cols=1>", "PARSE_BAD_TYPE", "duplicate tile parameter"},
        BadType{"!pto.tile_buf<loc=vec, rows=1, cols=1>", "PARSE_BAD_TYPE", "without a dtype"},
        BadType{"!pto.tile_buf<dtype=f32, rows=1, cols=1>", "PARSE_BAD_TYPE", "without a location"},
        BadType{"!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=1, v_row=1>", "PARSE_BAD_TYPE", "go together"},
        BadType{"!pto.tile_buf<loc=vec, vec, 16x16xf32>", "PARSE_BAD_TYPE", "positional tile parameter after"},
        BadType{"!pto.tile_buf<vec, 16x16x16xf32>", "PARSE_BAD_TYPE", "two dimensions"},
        BadType{"!pto.tile_buf<loc=vec, dtype=f32, rows=-2, cols=1>", "PARSE_BAD_TYPE", "negative dimension"},
        BadType{"!pto.tile_buf<loc=vec, dtype=!pto.ptr<f32>, rows=1, cols=1>", "PARSE_BAD_TYPE", "must be a scalar"},
        BadType{"!pto.ptr<f32, l2>", "PARSE_BAD_TYPE", "unknown address space"},
        BadType{"!pto.ptr<f32, gm, ub>", "PARSE_UNEXPECTED_TOKEN", "unexpected"},
        BadType{"!pto.tensor_view<16x16>", "PARSE_UNEXPECTED_TOKEN", "unexpected"},
        BadType{"!pto.tensor_view<16xy32>", "PARSE_UNKNOWN_TYPE", "unknown element type"}));

TEST(Types, TypeErrorLocationPointsIntoTheBody)
{
    std::vector<Diagnostic> d = type_errors("!pto.tile_buf<vec, 16x16xf32, pad=9>");
    ASSERT_FALSE(d.empty());
    EXPECT_EQ(d[0].location, "t.pto:1:52");  // the `9` inside the type body
}

// ---- attributes ---------------------------------------------------------------------------------

TEST(Attributes, Integers)
{
    Attribute a = parse_constant("42 : i32");
    EXPECT_TRUE(a.is(Attribute::Kind::Integer));
    EXPECT_EQ(a.int_value(), 42);
    EXPECT_EQ(a.type(), Type::integer(32));
    EXPECT_EQ(parse_constant("-1 : i64").int_value(), -1);
    EXPECT_EQ(parse_constant("-9223372036854775808 : i64").int_value(), INT64_MIN);
    Attribute hex = parse_constant("0xFF : i32");
    EXPECT_EQ(hex.int_value(), 255);
    EXPECT_TRUE(hex.hex());
    EXPECT_EQ(to_string(hex), "0xff : i32");
    EXPECT_EQ(hex, Attribute::integer(255, Type::integer(32)));
    EXPECT_FALSE(identical(hex, Attribute::integer(255, Type::integer(32))));
}

TEST(Attributes, Floats)
{
    Attribute a = parse_constant("2.5e-01 : f32");
    EXPECT_TRUE(a.is(Attribute::Kind::Float));
    EXPECT_DOUBLE_EQ(a.float_value(), 0.25);
    EXPECT_EQ(to_string(a), "0.25 : f32");
    EXPECT_DOUBLE_EQ(parse_constant("-3.25E+10 : f64").float_value(), -3.25e10);
    EXPECT_EQ(to_string(Attribute::floating(1e20, Type::float_type(FloatKind::F64))), "1.0e+20 : f64");
    EXPECT_EQ(to_string(Attribute::floating(2.0)), "2.0");
}

TEST(Attributes, HexFloatBitPatterns)
{
    Attribute inf = parse_constant("0x7F800000 : f32");
    ASSERT_TRUE(inf.is(Attribute::Kind::Float));
    EXPECT_EQ(inf.float_bit_pattern(), 0x7F800000u);
    EXPECT_TRUE(std::isinf(inf.float_value()));
    EXPECT_EQ(to_string(inf), "0x7f800000 : f32");
    Attribute one = parse_constant("0x3C00 : f16");
    EXPECT_DOUBLE_EQ(one.float_value(), 1.0);
    EXPECT_EQ(one, Attribute::floating(1.0, Type::float_type(FloatKind::F16)));  // same value
    EXPECT_DOUBLE_EQ(parse_constant("0x3F80 : bf16").float_value(), 1.0);
    EXPECT_DOUBLE_EQ(parse_constant("0x38 : f8E4M3FN").float_value(), 1.0);
    EXPECT_DOUBLE_EQ(parse_constant("0x7F : f8e8m0").float_value(), 1.0);
    EXPECT_TRUE(std::isnan(parse_constant("0x7FC00000 : f32").float_value()));
}

TEST(Attributes, BoolsStringsSymbolsKeywordsTypes)
{
    EXPECT_TRUE(parse_constant("true").bool_value());
    auto attrs = parse_dictionary(R"(s = "a\"b", sym = @kernel, pred = slt, ty = f32, tile = !pto.tile_buf<vec, 8x8xf16>, u)");
    ASSERT_EQ(attrs.size(), 6u);
    EXPECT_EQ(attrs[0].value.text(), "a\"b");
    EXPECT_TRUE(attrs[1].value.is(Attribute::Kind::Symbol));
    EXPECT_EQ(attrs[1].value.text(), "kernel");
    EXPECT_TRUE(attrs[2].value.is(Attribute::Kind::Keyword));
    EXPECT_EQ(attrs[2].value.enum_value(), "slt");
    EXPECT_TRUE(attrs[3].value.is(Attribute::Kind::Type));
    EXPECT_EQ(attrs[3].value.type(), Type::float_type(FloatKind::F32));
    EXPECT_TRUE(attrs[4].value.type().is<TileType>());
    EXPECT_TRUE(attrs[5].value.is(Attribute::Kind::Unit));
}

TEST(Attributes, ArraysDictionariesDenseArrays)
{
    auto attrs = parse_dictionary("list = [1, [2, 3], \"x\"], dict = {a = 1, \"b-c\" = 2 : i8}, dense = array<i32: 3, -2>, "
                                  "empty = array<i64>");
    ASSERT_EQ(attrs.size(), 4u);
    EXPECT_EQ(attrs[0].value.elements().size(), 3u);
    EXPECT_EQ(attrs[0].value.elements()[1].elements()[1].int_value(), 3);
    ASSERT_EQ(attrs[1].value.entries().size(), 2u);
    EXPECT_EQ(attrs[1].value.entries()[1].name, "b-c");
    EXPECT_EQ(attrs[2].value.dense_values(), (std::vector<int64_t>{3, -2}));
    EXPECT_EQ(attrs[2].value.type(), Type::integer(32));
    EXPECT_TRUE(attrs[3].value.dense_values().empty());
    EXPECT_EQ(to_string(attrs[2].value), "array<i32: 3, -2>");
    EXPECT_EQ(to_string(attrs[1].value), "{a = 1, \"b-c\" = 2 : i8}");
}

TEST(Attributes, DialectAttributesInEveryForm)
{
    auto attrs = parse_dictionary("m = #pto.mask_pattern<P0101>, c = #pto<cmp less_than>, r = #pto<round_mode CAST_RINT>, "
                                  "cfg = #pto.tile_buf_config<blayout=#pto.blayout<row_major>, s_fractal_size=512>, "
                                  "d = dense<1.0>");
    ASSERT_EQ(attrs.size(), 5u);
    EXPECT_EQ(attrs[0].value.dialect_name(), "pto");
    EXPECT_EQ(attrs[0].value.mnemonic(), "mask_pattern");
    EXPECT_EQ(attrs[0].value.enum_value(), "P0101");
    EXPECT_EQ(attrs[1].value.mnemonic(), "cmp");
    EXPECT_EQ(attrs[1].value.enum_value(), "less_than");
    EXPECT_EQ(attrs[1].value.dialect_form(), DialectAttrForm::Pretty);
    EXPECT_EQ(to_string(attrs[1].value), "#pto<cmp less_than>");
    EXPECT_EQ(attrs[2].value.enum_value(), "CAST_RINT");
    EXPECT_EQ(attrs[3].value.text(), "blayout=#pto.blayout<row_major>, s_fractal_size=512");
    EXPECT_EQ(attrs[4].value.dialect_form(), DialectAttrForm::Builtin);
    EXPECT_EQ(to_string(attrs[4].value), "dense<1.0>");
    // The dotted and pretty spellings of one enumerator are the same attribute.
    EXPECT_EQ(Attribute::dialect("pto", "cmp", "GT"), Attribute::dialect("pto", "cmp", "GT", DialectAttrForm::Pretty));
    EXPECT_NE(Attribute::dialect("pto", "cmp", "GT"), Attribute::dialect("pto", "cmp", "LT"));
}

TEST(Attributes, AttributeAliases)
{
    ParseResult r = testing::parse_clean("#gt = #pto.cmp<GT>\n" + in_function("  pto.tcmp {cmpMode = #gt}"));
    const auto& ops = body_of(r.module);
    ASSERT_EQ(ops.size(), 2u);
    EXPECT_EQ(*ops[0]->attribute("cmpMode"), Attribute::dialect("pto", "cmp", "GT"));
}

struct BadAttribute {
    std::string text;
    std::string code;
};

class AttributeErrors : public ::testing::TestWithParam<BadAttribute> {};

TEST_P(AttributeErrors, Reported)
{
    ParseResult r = parse(in_function("  %v = arith.constant " + GetParam().text), "a.pto");
    ASSERT_FALSE(r.ok()) << GetParam().text;
    EXPECT_EQ(r.diagnostics[0].code, GetParam().code) << diagnostics_text(r.diagnostics);
}

INSTANTIATE_TEST_SUITE_P(Attributes, AttributeErrors,
                         ::testing::Values(BadAttribute{"99999999999999999999 : i64", "PARSE_BAD_NUMBER"},
                                           BadAttribute{"-9223372036854775809 : i64", "PARSE_BAD_NUMBER"},
                                           BadAttribute{"12 : f32", "PARSE_BAD_NUMBER"},
                                           BadAttribute{"0x1FFFF : f16", "PARSE_BAD_NUMBER"},
                                           BadAttribute{"1.5 : i32", "PARSE_BAD_NUMBER"},
                                           BadAttribute{"1.0e999 : f64", "PARSE_BAD_NUMBER"},
                                           BadAttribute{"12abc : i32", "PARSE_BAD_NUMBER"},
                                           BadAttribute{"1.5e : f32", "PARSE_BAD_NUMBER"},
                                           BadAttribute{"#undefined", "PARSE_UNKNOWN_ATTRIBUTE"},
                                           BadAttribute{"#pto.<x>", "PARSE_UNKNOWN_ATTRIBUTE"},
                                           BadAttribute{"[1, 2", "PARSE_UNEXPECTED_TOKEN"},
                                           BadAttribute{"{a = 1, a = 2}", "PARSE_DUPLICATE_ATTRIBUTE"},
                                           BadAttribute{"array<i32: x>", "PARSE_UNEXPECTED_TOKEN"}));

}  // namespace
}  // namespace pto::as
