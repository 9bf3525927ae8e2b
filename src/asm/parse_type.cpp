// Types, including the bodies of `!pto.*<...>` types, which are re-lexed on a token stream of their own.
#include <algorithm>
#include <array>
#include <charconv>

#include "asm/parser_impl.hpp"

namespace pto::as::detail {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\n' || text.front() == '\r'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

bool parse_unsigned_literal(std::string_view spelling, uint64_t& out)
{
    out = 0;
    if (spelling.size() > 2 && spelling[0] == '0' && spelling[1] == 'x') {
        for (char c : spelling.substr(2)) {
            if (out >> 60) return false;
            int digit = is_digit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : c - 'A' + 10;
            out = out << 4 | static_cast<uint64_t>(digit);
        }
        return true;
    }
    auto [end, ec] = std::from_chars(spelling.data(), spelling.data() + spelling.size(), out);
    return ec == std::errc() && end == spelling.data() + spelling.size();
}

// ---- types --------------------------------------------------------------------------------------

bool Parser::parse_type(Type& out)
{
    Nesting nesting(*this, tok().loc);
    if (!nesting) return false;
    const Token t = tok();
    if (t.is(TokenKind::BangIdentifier)) {
        take();
        std::string name(t.name());
        if (name.back() == '.' || name.find("..") != std::string::npos)
            return error(codes::kUnknownType, t.loc, "malformed type name " + t.describe(),
                         "!dialect.name or an alias", t.describe());
        if (t.has_body) return parse_pto_type(t, out);
        if (name.find('.') == std::string::npos) {
            auto alias = type_aliases_.find(name);
            if (alias == type_aliases_.end())
                return error(codes::kUnknownType, t.loc, "undefined type alias !" + name,
                             "a type, or an alias defined before its use", t.describe());
            out = alias->second;
            out.set_alias(name);
            return true;
        }
        if (auto scalar = scalar_type_from_name("!" + name)) {
            out = *scalar;
            out.set_spelling("!" + name);
            return true;
        }
        if (name == "pto.align") return out = AlignType{}, true;
        if (name == "pto.mask") return out = MaskType{}, true;
        std::size_t dot = name.find('.');
        out = OpaqueType{name.substr(0, dot), name.substr(dot + 1), std::nullopt};
        return true;
    }
    if (t.is(TokenKind::BareIdentifier)) {
        take();
        if (t.has_body) {
            out = OpaqueType{"", std::string(t.name()), std::string(t.body)};
            return true;
        }
        auto scalar = scalar_type_from_name(t.spelling);
        if (!scalar)
            return error(codes::kUnknownType, t.loc, "unknown type " + t.describe(),
                         "a type such as f32, i32, index or !pto.tile_buf<...>", t.describe());
        out = *scalar;
        if (!out.is_none() && scalar_type_name(out) != t.spelling) out.set_spelling(std::string(t.spelling));
        return true;
    }
    return unexpected("a type");
}

bool Parser::parse_type_list(std::vector<Type>& out)
{
    do {
        out.emplace_back();
        if (!parse_type(out.back())) return false;
    } while (accept(TokenKind::Comma));
    return true;
}

// `T`, `(T, U)`, `()`; where `bare_list` is given also `T, U` (the vector micro-instructions' results),
// which it reports.
bool Parser::parse_result_types(std::vector<Type>& out, bool* bare_list)
{
    if (!accept(TokenKind::LParen)) {
        if (!bare_list) {
            out.emplace_back();
            return parse_type(out.back());
        }
        if (!parse_type_list(out)) return false;
        *bare_list = out.size() > 1;
        return true;
    }
    if (accept(TokenKind::RParen)) return true;
    return parse_type_list(out) && expect(TokenKind::RParen, "',' or ')'");
}

bool Parser::parse_pto_type(const Token& token, Type& out)
{
    std::string name(token.name());
    if (name == "pto.ptr") return parse_body(token, [&] { return parse_ptr_body(out); });
    if (name == "pto.tensor_view") return parse_view_body(token, false, out);
    if (name == "pto.partition_tensor_view" || name == "pto.tile_view") {
        if (!parse_view_body(token, true, out)) return false;
        if (name == "pto.tile_view") out.set_spelling(name);
        return true;
    }
    if (name == "pto.vreg") return parse_vreg_body(token, out);
    if (name == "pto.mask") return parse_mask_body(token, out);
    if (name == "pto.tile_buf") return parse_body(token, [&] { return parse_tile_body(true, out); });
    if (name == "pto.tile") return parse_body(token, [&] { return parse_tile_body(false, out); });
    if (name == "pto.conv_tile_buf") return parse_conv_tile_body(token, out);
    std::size_t dot = name.find('.');
    std::string dialect = dot == std::string::npos ? name : name.substr(0, dot);
    std::string rest = dot == std::string::npos ? std::string() : name.substr(dot + 1);
    out = OpaqueType{dialect, rest, std::string(token.body)};
    return true;
}

// !pto.ptr<element[, space]>
bool Parser::parse_ptr_body(Type& out)
{
    Type element;
    if (!parse_type(element)) return false;
    PtrType ptr{std::make_shared<const Type>(std::move(element)), std::nullopt, {}};
    if (accept(TokenKind::Comma)) {
        if (!at(TokenKind::BareIdentifier)) return unexpected("an address space such as gm or ub");
        Token space = take();
        ptr.space = address_space_from_name(space.spelling);
        if (!ptr.space)
            return error(codes::kBadType, space.loc, "unknown address space " + space.describe(),
                         "gm, ub, vec, l1, mat, l0a, left, l0b, right, l0c, acc, bt, bias, fb or scaling",
                         space.describe());
        ptr.space_spelling = std::string(space.spelling);
    }
    out = std::move(ptr);
    return true;
}

// !pto.tensor_view<?x?xf32[, layout]>, !pto.partition_tensor_view<16x16xf16>
bool Parser::parse_view_body(const Token& token, bool partition, Type& out)
{
    return parse_body(token, [&] {
        TensorViewType view;
        view.partition = partition;
        Type element;
        if (!parse_shape(view.shape, &element, nullptr)) return false;
        view.element = std::make_shared<const Type>(std::move(element));
        if (accept(TokenKind::Comma)) {
            if (at(TokenKind::EndOfFile)) return unexpected("a layout");
            view.layout = std::string(trim(token.body.substr(tok().offset)));
            while (!at(TokenKind::EndOfFile)) take();
        }
        out = std::move(view);
        return true;
    });
}

// !pto.conv_tile_buf<loc, 1x2x6x6x16xf16, layout>: a location, 1 to 6 static dimensions and the element
// type, and a convolution layout (bare or `#pto.layout<...>`)
bool Parser::parse_conv_tile_body(const Token& token, Type& out)
{
    return parse_body(token, [&] {
        ConvTileType conv;
        if (!at(TokenKind::BareIdentifier)) return unexpected("a tile location such as mat");
        const Token loc = take();
        const auto where = tile_loc_from_name(loc.spelling);
        if (!where)
            return error(codes::kBadType, loc.loc, "unknown tile location " + loc.describe(), "vec, mat, left, right, acc, ...",
                         loc.describe());
        conv.loc = *where;
        conv.loc_camel_case = is_camel_case_keyword(loc.spelling);
        if (!expect(TokenKind::Comma, "','")) return false;
        const SourceLocation shape_loc = tok().loc;
        Type element;
        if (!parse_shape(conv.shape, &element, nullptr)) return false;
        conv.element = std::make_shared<const Type>(std::move(element));
        if (conv.shape.empty() || conv.shape.size() > 6)
            return error(codes::kBadType, shape_loc, "a convolution tile has 1 to 6 dimensions", "1 to 6",
                         std::to_string(conv.shape.size()));
        for (int64_t d : conv.shape)
            if (d <= 0)
                return error(codes::kBadType, shape_loc, "a convolution tile's dimensions are static and at least 1",
                             "extents >= 1", d == kDynamic ? "?" : std::to_string(d));
        if (!expect(TokenKind::Comma, "',' and a convolution layout")) return false;
        if (at(TokenKind::EndOfFile)) return unexpected("a convolution layout");
        const SourceLocation layout_loc = tok().loc;
        conv.layout = std::string(trim(token.body.substr(tok().offset)));
        while (!at(TokenKind::EndOfFile)) take();
        const auto kind = conv_layout_from_name(conv.layout);
        if (!kind)
            return error(codes::kBadType, layout_loc, "unknown convolution layout `" + conv.layout + "`",
                         "nc1hwc0, ndc1hwc0, nhwc, nchw, ncdhw, gnc1hwc0, gnchw, fractal_z, fractal_z_s16s8 or fractal_z_3d",
                         conv.layout);
        conv.kind = *kind;
        out = std::move(conv);
        return true;
    });
}

// !pto.vreg<64xf32>: lanes x element
bool Parser::parse_vreg_body(const Token& token, Type& out)
{
    return parse_body(token, [&] {
        std::vector<int64_t> shape;
        Type element;
        if (!parse_shape(shape, &element, nullptr)) return false;
        if (shape.size() != 1 || shape[0] <= 0)
            return error(codes::kBadType, token.loc, "a vector register has one static lane count",
                         "!pto.vreg<NxT>", token.describe());
        out = VRegType{shape[0], std::make_shared<const Type>(std::move(element))};
        return true;
    });
}

// !pto.mask<b8|b16|b32>, or <G> for a width left to the producing operation
bool Parser::parse_mask_body(const Token& token, Type& out)
{
    const std::string body(trim(token.body));
    unsigned lane_bytes = 0;
    if (body == "b8") lane_bytes = 1;
    else if (body == "b16") lane_bytes = 2;
    else if (body == "b32") lane_bytes = 4;
    else if (body != "G")
        return error(codes::kBadType, token.loc, "unknown predicate width in " + token.describe(), "b8, b16, b32 or G",
                     body);
    out = MaskType{lane_bytes, body};
    return true;
}

bool Parser::parse_dimension(int64_t& out, DynamicMarker* marker)
{
    auto dynamic = [&](DynamicMarker kind) {
        out = kDynamic;
        if (marker) *marker = kind;
        return true;
    };
    if (accept(TokenKind::Question)) return dynamic(DynamicMarker::Question);
    if (accept_keyword("dyn")) return dynamic(DynamicMarker::Dyn);
    SourceLocation loc = tok().loc;
    if (at(TokenKind::Minus)) {
        take();
        if (at(TokenKind::Integer) && tok().spelling == "1") {
            take();
            return dynamic(DynamicMarker::MinusOne);
        }
        return error(codes::kBadType, loc, "negative dimension", "a size, ?, dyn or -1", "`-" +
                     std::string(tok().spelling) + "`");
    }
    if (!at(TokenKind::Integer)) return unexpected("a dimension (an integer, ?, dyn or -1)");
    Token t = take();
    uint64_t value = 0;
    if (!parse_unsigned_literal(t.spelling, value) || value > uint64_t{INT64_MAX})
        return error(codes::kBadNumber, t.loc, "dimension out of range", "a 64-bit size", t.describe());
    out = static_cast<int64_t>(value);
    return true;
}

// A dimension list such as `16x128xf32` or `?x?`. The lexer splits it into an integer followed by
// an identifier (`16`, `x128xf32`), so the identifier is taken apart here character by character.
// With `element` null the list has no element type.
bool Parser::parse_shape(std::vector<int64_t>& dims, Type* element, DynamicMarker* marker, bool element_required)
{
    constexpr std::size_t kMaxRank = 16;
    enum class Next { Dimension, Separator, Done };
    // Consumes a glued run starting with 'x' ("x128xf32", "x", "xdyn").
    auto run = [&](std::string_view text, SourceLocation start, Next& next) -> bool {
        const std::size_t length = text.size();
        // Diagnostics point at the character being read, not at the start of the glued run.
        auto here = [&] { return SourceLocation{start.line, start.column + static_cast<uint32_t>(length - text.size())}; };
        while (true) {
            text.remove_prefix(1);  // 'x'
            SourceLocation loc = here();
            if (text.empty()) {
                next = Next::Dimension;
                return true;
            }
            if (dims.size() >= kMaxRank)
                return error(codes::kBadType, loc, "too many dimensions", "at most " + std::to_string(kMaxRank), "more");
            if (is_digit(text.front())) {
                std::size_t n = 0;
                while (n < text.size() && is_digit(text[n])) ++n;
                uint64_t value = 0;
                if (!parse_unsigned_literal(text.substr(0, n), value) || value > uint64_t{INT64_MAX})
                    return error(codes::kBadNumber, loc, "dimension out of range", "a 64-bit size",
                                 "`" + std::string(text.substr(0, n)) + "`");
                dims.push_back(static_cast<int64_t>(value));
                text.remove_prefix(n);
            } else if (text.substr(0, 3) == "dyn" && (text.size() == 3 || text[3] == 'x')) {
                dims.push_back(kDynamic);
                if (marker) *marker = DynamicMarker::Dyn;
                text.remove_prefix(3);
            } else {
                if (!element)
                    return error(codes::kBadType, loc, "unexpected element type in a shape", "a dimension",
                                 "`" + std::string(text) + "`");
                auto scalar = scalar_type_from_name(text);
                if (!scalar)
                    return error(codes::kUnknownType, loc, "unknown element type `" + std::string(text) + "`",
                                 "a scalar type such as f32 or i8", "`" + std::string(text) + "`");
                *element = *scalar;
                if (scalar_type_name(*element) != text) element->set_spelling(std::string(text));
                next = Next::Done;
                return true;
            }
            if (text.empty()) {
                next = Next::Separator;
                return true;
            }
            if (text.front() != 'x')
                return error(codes::kBadType, here(), "malformed shape", "dimensions separated by 'x'",
                             "`" + std::string(text) + "`");
        }
    };

    Next next = Next::Dimension;
    std::string pending;  // the 'x' run left over when a hex-looking token such as `0x16` was split
    SourceLocation pending_loc;
    while (next != Next::Done) {
        if (next == Next::Dimension) {
            if (dims.size() >= kMaxRank)
                return error(codes::kBadType, tok().loc, "too many dimensions", "at most " + std::to_string(kMaxRank),
                             "more");
            const Token& t = tok();
            if (t.is(TokenKind::Integer) && t.spelling.size() > 1 && t.spelling[1] == 'x') {
                // `0x16xf32` lexes as the hex integer 0x16: a zero extent followed by "x16".
                Token zero = take();
                dims.push_back(0);
                pending = std::string(zero.spelling.substr(1));
                pending_loc = {zero.loc.line, zero.loc.column + 1};
            } else if (t.is(TokenKind::BareIdentifier) && t.spelling.substr(0, 3) == "dyn" &&
                       (t.spelling.size() == 3 || t.spelling[3] == 'x')) {
                Token dyn = take();
                dims.push_back(kDynamic);
                if (marker) *marker = DynamicMarker::Dyn;
                pending = std::string(dyn.spelling.substr(3));
                pending_loc = {dyn.loc.line, dyn.loc.column + 3};
            } else if (t.is(TokenKind::Integer) || t.is(TokenKind::Question) || t.is(TokenKind::Minus)) {
                int64_t dim = 0;
                if (!parse_dimension(dim, marker)) return false;
                dims.push_back(dim);
            } else if (element) {
                return parse_type(*element);  // `x` followed by a type token, or a rank-0 shape
            } else {
                return unexpected("a dimension");
            }
            next = Next::Separator;
        }
        if (pending.empty()) {
            const Token& t = tok();
            if (!t.is(TokenKind::BareIdentifier) || t.spelling.front() != 'x') break;
            Token glued = take();
            pending = std::string(glued.spelling);
            pending_loc = glued.loc;
        }
        std::string text = std::move(pending);
        pending.clear();
        if (!run(text, pending_loc, next)) return false;
    }
    if (element && element_required && next != Next::Done) return unexpected("'x' and the element type");
    return true;
}

// The parameters of `!pto.tile_buf<...>` and `!pto.tile<...>`, in any of their documented forms.
bool Parser::parse_tile_body(bool buffer, Type& out)
{
    enum Slot { Loc, DType, Rows, Cols, VRow, VCol, BLay, SLay, Fractal, Pad, kSlotCount };
    static constexpr std::array<Slot, 10> kBufferSlots = {Loc, DType, Rows, Cols, VRow, VCol, BLay, SLay, Fractal, Pad};
    static constexpr std::array<Slot, 8> kTileSlots = {Loc, DType, Rows, Cols, BLay, SLay, Fractal, Pad};
    static constexpr std::array<std::string_view, kSlotCount> kKeys = {
        "loc", "dtype", "rows", "cols", "v_row", "v_col", "blayout", "slayout", "fractal", "pad"};
    const Slot* slots = buffer ? kBufferSlots.data() : kTileSlots.data();
    std::size_t slot_count = buffer ? kBufferSlots.size() : kTileSlots.size();
    auto slot_index = [&](Slot s) {
        for (std::size_t i = 0; i < slot_count; ++i)
            if (slots[i] == s) return i;
        return slot_count;
    };

    TileType tile;
    tile.buffer = buffer;
    std::array<bool, kSlotCount> set{};
    std::size_t cursor = 0;
    // Positional parameters may continue after keywords that name exactly the next slots
    // (`vec, f16, 16, 16, v_row=?, v_col=?, row_major, ...` as the ISA pages write it).
    bool keywords_out_of_order = false;
    bool camel = false;
    bool pad_numeric = true;
    bool valid_combined = false;
    DynamicMarker dynamic = DynamicMarker::Question;
    TileForm form = TileForm::Keyword;
    SourceLocation body_loc = tok().loc;

    auto claim = [&](Slot s, SourceLocation loc) {
        if (set[s])
            return error(codes::kBadType, loc, "duplicate tile parameter " + std::string(kKeys[s]),
                         "each parameter once", "a second `" + std::string(kKeys[s]) + "`");
        set[s] = true;
        return true;
    };
    auto keyword_value = [&](auto from_name, auto& field, std::string_view what) {
        if (!at(TokenKind::BareIdentifier) && !at(TokenKind::Integer)) return unexpected(what);
        Token word = take();
        auto value = from_name(word.spelling);
        if (!value)
            return error(codes::kBadType, word.loc, "unknown " + std::string(what) + " " + word.describe(),
                         "one of the documented names", word.describe());
        field = *value;
        camel = camel || is_camel_case_keyword(word.spelling);
        return true;
    };
    auto slot_value = [&](Slot s) -> bool {
        switch (s) {
            case Loc: return keyword_value(tile_loc_from_name, tile.loc, "tile location");
            case DType: {
                Type dtype;
                SourceLocation loc = tok().loc;
                if (!parse_type(dtype)) return false;
                if (!dtype.is_scalar())
                    return error(codes::kBadType, loc, "tile element type must be a scalar", "a type such as f16",
                                 "a compound type");
                tile.dtype = std::make_shared<const Type>(std::move(dtype));
                return true;
            }
            case Rows: return parse_dimension(tile.rows, &dynamic);
            case Cols: return parse_dimension(tile.cols, &dynamic);
            case VRow: return parse_dimension(tile.valid_rows, &dynamic);
            case VCol: return parse_dimension(tile.valid_cols, &dynamic);
            case BLay: return keyword_value(blayout_from_name, tile.blayout, "blayout");
            case SLay: return keyword_value(slayout_from_name, tile.slayout, "slayout");
            case Fractal: {
                int64_t fractal = 0;
                if (!parse_dimension(fractal, nullptr)) return false;
                tile.fractal = fractal;
                return true;
            }
            case Pad:
                pad_numeric = at(TokenKind::Integer);
                return keyword_value(pad_from_name, tile.pad, "pad value");
            case kSlotCount: break;
        }
        return false;
    };
    // `RxCxT` standing for rows, cols and dtype at once.
    auto shape_with_dtype = [&](SourceLocation loc) {
        std::vector<int64_t> dims;
        Type dtype;
        if (!parse_shape(dims, &dtype, &dynamic)) return false;
        if (dims.size() != 2)
            return error(codes::kBadType, loc, "a tile shape has two dimensions", "RxCxT",
                         std::to_string(dims.size()) + " dimensions");
        if (!claim(DType, loc) || !claim(Rows, loc) || !claim(Cols, loc)) return false;
        tile.rows = dims[0];
        tile.cols = dims[1];
        tile.dtype = std::make_shared<const Type>(std::move(dtype));
        return true;
    };
    // A valid shape `RxC`.
    auto valid_shape = [&](SourceLocation loc) {
        std::vector<int64_t> dims;
        if (!parse_shape(dims, nullptr, &dynamic)) return false;
        if (dims.size() != 2)
            return error(codes::kBadType, loc, "a valid shape has two dimensions", "RxC",
                         std::to_string(dims.size()) + " dimensions");
        if (!claim(VRow, loc) || !claim(VCol, loc)) return false;
        tile.valid_rows = dims[0];
        tile.valid_cols = dims[1];
        return true;
    };

    while (!at(TokenKind::EndOfFile)) {
        SourceLocation loc = tok().loc;
        if (at(TokenKind::HashIdentifier) && tok().name() == "pto.address_space" && tok().has_body) {
            // `RxCxT, #pto.address_space<vec>`: the location as the public assembler prints it.
            const Token space = take();
            const auto memory = tile_loc_from_name(trim(space.body));
            if (!memory)
                return error(codes::kBadType, space.loc, "unknown tile location " + space.describe(), "vec, mat, left, right, acc, ...",
                             std::string(space.body));
            if (!claim(Loc, loc)) return false;
            tile.loc = *memory;
            tile.spelling.address_space = true;
            keywords_out_of_order = true;
        } else if (at(TokenKind::BareIdentifier) && tok(1).is(TokenKind::Equal)) {
            Token key = take();
            take();  // '='
            if (key.spelling == "compact") {
                // The C++ Tile's CompactMode: 0 null, 1 normal, 2 row_plus_one (or their names).
                if (tile.compact) return error(codes::kBadType, key.loc, "duplicate tile parameter compact", "each parameter once", "a second `compact`");
                const Token value = take();
                static constexpr std::array<std::pair<std::string_view, pto::CompactMode>, 6> kModes = {{
                    {"0", pto::CompactMode::Null}, {"1", pto::CompactMode::Normal}, {"2", pto::CompactMode::RowPlusOne},
                    {"null", pto::CompactMode::Null}, {"normal", pto::CompactMode::Normal}, {"row_plus_one", pto::CompactMode::RowPlusOne}}};
                const auto mode = std::find_if(kModes.begin(), kModes.end(), [&](const auto& m) { return m.first == value.spelling; });
                if (mode == kModes.end())
                    return error(codes::kBadType, value.loc, "unknown compact mode " + value.describe(), "0, 1, 2, null, normal or row_plus_one",
                                 value.describe());
                tile.compact = mode->second;
                tile.spelling.compact_numeric = value.is(TokenKind::Integer);
                keywords_out_of_order = true;
            } else if (key.spelling == "valid") {
                if (!valid_shape(loc)) return false;
                valid_combined = true;
                keywords_out_of_order = true;
            } else {
                auto k = std::find(kKeys.begin(), kKeys.end(), key.spelling);
                if (k == kKeys.end())
                    return error(codes::kBadType, key.loc, "unknown tile parameter " + key.describe(),
                                 "loc, dtype, rows, cols, v_row, v_col, valid, blayout, slayout, fractal, pad or compact",
                                 key.describe());
                Slot s = static_cast<Slot>(k - kKeys.begin());
                if (!claim(s, key.loc) || !slot_value(s)) return false;
                if (!keywords_out_of_order && cursor > 0 && cursor < slot_count && slots[cursor] == s)
                    ++cursor;
                else
                    keywords_out_of_order = true;
            }
        } else {
            if (keywords_out_of_order)
                return error(codes::kBadType, loc, "positional tile parameter after a keyword one", "key=value",
                             tok().describe());
            if (cursor >= slot_count)
                return error(codes::kBadType, loc, "too many tile parameters",
                             std::to_string(slot_count) + " at most", tok().describe());
            Slot s = slots[cursor];
            bool starts_shape = at(TokenKind::Integer) || at(TokenKind::Question);
            bool glued_x = tok(1).is(TokenKind::BareIdentifier) && tok(1).spelling.front() == 'x' &&
                           tok(1).offset == tok().end_offset();
            if ((s == Loc || s == DType) && starts_shape) {
                if (s == DType && !glued_x && !at(TokenKind::Integer)) return unexpected("RxCxT or a dtype");
                if (!shape_with_dtype(loc)) return false;
                form = s == Loc ? TileForm::Shape : TileForm::Compact;
                cursor = slot_index(Cols) + 1;
            } else if (s == VRow && starts_shape && glued_x) {
                // A positional valid shape `RxC`; an element type there must agree with the dtype.
                std::vector<int64_t> dims;
                Type dtype;
                if (!parse_shape(dims, &dtype, &dynamic, /*element_required=*/false)) return false;
                if (dims.size() != 2)
                    return error(codes::kBadType, loc, "a valid shape has two dimensions", "RxC",
                                 std::to_string(dims.size()) + " dimensions");
                if (!dtype.is_none() && tile.dtype && !(dtype == *tile.dtype))
                    return error(codes::kBadType, loc, "conflicting dtype values", "the tile's dtype",
                                 "a second, different dtype");
                if (!claim(VRow, loc) || !claim(VCol, loc)) return false;
                tile.valid_rows = dims[0];
                tile.valid_cols = dims[1];
                cursor = slot_index(VCol) + 1;
            } else {
                if (!claim(s, loc) || !slot_value(s)) return false;
                ++cursor;
            }
        }
        if (at(TokenKind::EndOfFile)) break;
        if (!expect(TokenKind::Comma, "',' or '>'")) return false;
    }

    if (!set[DType]) return error(codes::kBadType, body_loc, "tile type without a dtype", "dtype=...", "none");
    if (!set[Rows] || !set[Cols]) return error(codes::kBadType, body_loc, "tile type without rows and cols", "rows and cols", "none");
    if (buffer && !set[Loc]) return error(codes::kBadType, body_loc, "tile_buf type without a location", "loc=...", "none");
    if (set[VRow] != set[VCol])
        return error(codes::kBadType, body_loc, "v_row and v_col go together", "both or neither", "only one");
    tile.spelling.valid_written = set[VRow];
    if (!set[VRow]) {
        tile.valid_rows = tile.rows;
        tile.valid_cols = tile.cols;
    }
    if (form == TileForm::Keyword && cursor > 0) form = TileForm::Positional;
    tile.spelling.form = form;
    tile.spelling.positional_count = static_cast<uint8_t>(cursor);
    tile.spelling.camel_case = camel;
    tile.spelling.pad_numeric = pad_numeric;
    tile.spelling.valid_combined = valid_combined;
    tile.spelling.dynamic = dynamic;
    out = std::move(tile);
    return true;
}

}  // namespace pto::as::detail
