// Structured PTO-AS types: scalars, pointers, tensor views, tiles, and opaque dialect types.
//
// Equality (`==`) is semantic: it ignores how a type was spelled (keyword or positional tile
// parameters, `?` or `dyn`, `ui8` or `u8`, an alias name). `identical` also compares the spelling,
// which is what an exact round trip preserves.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>

namespace pto::as {

class Type;
using TypeRef = std::shared_ptr<const Type>;

// A dimension whose extent is only known at run time (`?`, `dyn` or `-1` in the source).
inline constexpr int64_t kDynamic = -1;

struct IndexType {
    friend bool operator==(const IndexType&, const IndexType&) = default;
};

enum class Signedness : uint8_t { Signless, Signed, Unsigned };

struct IntegerType {
    unsigned width = 32;
    Signedness signedness = Signedness::Signless;
    friend bool operator==(const IntegerType&, const IntegerType&) = default;
};

enum class FloatKind : uint8_t { F16, BF16, F32, F64, TF32, F8E4M3, F8E5M2, F8E8M0, HiF8, F4E2M1x2, F4E1M2x2 };

struct FloatType {
    FloatKind kind = FloatKind::F32;
    friend bool operator==(const FloatType&, const FloatType&) = default;
};

// Address spaces of `!pto.ptr<T, space>`; several source keywords name the same space.
enum class AddressSpace : uint8_t { GM, VEC, MAT, LEFT, RIGHT, ACC, BIAS, SCALING };

struct PtrType {
    TypeRef element;
    std::optional<AddressSpace> space;  // absent: global memory by default
    std::string space_spelling;         // `ub` and `vec` are both VEC; this keeps which was written
};

// `!pto.tensor_view<?x?xf32>` and `!pto.partition_tensor_view<16x1xf32>`.
struct TensorViewType {
    bool partition = false;
    std::vector<int64_t> shape;  // kDynamic for `?`
    TypeRef element;
    std::string layout;          // optional trailing layout attribute, as written (e.g. `#pto.layout<dn>`)
};

// How a tile type was written, so that the printer reproduces it.
enum class TileForm : uint8_t {
    Keyword,     // loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, ...
    Compact,     // vec, 16x16xf32, valid=16x8, blayout=col_major
    Positional,  // vec, f32, 16, 16, 16, 16, row_major, none_box, 512, 0
    Shape,       // 16x16xf32
};

enum class DynamicMarker : uint8_t { Question, Dyn, MinusOne };

struct TileSpelling {
    TileForm form = TileForm::Keyword;
    bool camel_case = false;     // Vec / RowMajor / NoneBox / Null instead of vec / row_major / none_box / 0
    bool pad_numeric = true;     // pad=0 rather than pad=null
    bool valid_written = true;   // the valid shape appeared in the source
    bool valid_combined = false; // valid=RxC rather than v_row=R, v_col=C
    DynamicMarker dynamic = DynamicMarker::Question;
    uint8_t positional_count = 0;  // Positional form: how many leading parameters were positional
    bool address_space = false;    // the location written last as `#pto.address_space<vec>`
    bool compact_numeric = true;   // compact=1 rather than compact=normal
};

// `!pto.tile_buf<...>` (buffer semantics, DPS) and `!pto.tile<...>` (value semantics, SSA). Both carry
// the same parameters as the C++ `pto::Tile` template. Optional layout fields stay empty when the
// source left them to the target's defaults, which differ by tile location and profile.
struct TileType {
    bool buffer = true;                    // tile_buf vs tile
    std::optional<pto::TileType> loc;      // absent only in the bare `!pto.tile<RxCxT>` form
    TypeRef dtype;
    int64_t rows = 0;
    int64_t cols = 0;
    int64_t valid_rows = 0;                // kDynamic when given at run time
    int64_t valid_cols = 0;
    std::optional<pto::BLayout> blayout;
    std::optional<pto::SLayout> slayout;
    std::optional<int64_t> fractal;        // bytes
    std::optional<pto::PadValue> pad;
    std::optional<pto::CompactMode> compact;  // the C++ Tile's CompactMode; no effect on the CPU
    TileSpelling spelling;
};

// `!pto.conv_tile_buf<mat, 1x2x6x6x16xf16, nc1hwc0>`: a convolution tile (the C++ `pto::ConvTile`), an
// N-D array (1 to 6 static dimensions, the last innermost) in an on-chip memory, in a convolution layout.
// `layout` is the third parameter as written (`nc1hwc0`, `#pto.layout<NC1HWC0>`), `kind` what it names.
struct ConvTileType {
    pto::TileType loc = pto::TileType::Mat;
    std::vector<int64_t> shape;
    TypeRef element;
    pto::Layout kind = pto::Layout::NC1HWC0;
    std::string layout;
    bool loc_camel_case = false;  // Mat rather than mat
};

// `!pto.vreg<64xf32>`: a vector register of the vector micro-instructions, `lanes` elements filling
// its 256 bytes.
struct VRegType {
    int64_t lanes = 0;
    TypeRef element;
};

// `!pto.mask<b32>`: a predicate over the lanes of one element width. `lane_bytes` is 1, 2 or 4 for
// b8, b16 and b32; 0 when the source left the width open (`!pto.mask<G>`, `!pto.mask`), which the op
// that produces the mask then decides.
struct MaskType {
    unsigned lane_bytes = 0;
    std::string spelling;  // the body as written (`b32`, `G`), empty when there was none
};

// `!pto.align`: the alignment-buffer state that unaligned vector loads and stores thread through.
struct AlignType {
    friend bool operator==(const AlignType&, const AlignType&) = default;
};

// Any other dialect or builtin type (`!pto.event<...>`, `!pto.vreg<64xf32>`, `memref<?xf32>`), kept
// as its dialect, name and body text.
struct OpaqueType {
    std::string dialect;  // "pto", "llvm", ... ; empty for builtin types such as memref
    std::string name;     // "event", "vreg", "memref"
    std::optional<std::string> body;
};

class Type {
public:
    using Storage = std::variant<std::monostate, IndexType, IntegerType, FloatType, PtrType, TensorViewType,
                                 TileType, ConvTileType, VRegType, MaskType, AlignType, OpaqueType>;

    Type() = default;  // "no type": a value whose type the source did not state
    Type(IndexType t) : storage_(t) {}
    Type(IntegerType t) : storage_(t) {}
    Type(FloatType t) : storage_(t) {}
    Type(PtrType t) : storage_(std::move(t)) {}
    Type(TensorViewType t) : storage_(std::move(t)) {}
    Type(TileType t) : storage_(std::move(t)) {}
    Type(ConvTileType t) : storage_(std::move(t)) {}
    Type(VRegType t) : storage_(std::move(t)) {}
    Type(MaskType t) : storage_(std::move(t)) {}
    Type(AlignType t) : storage_(t) {}
    Type(OpaqueType t) : storage_(std::move(t)) {}

    static Type index() { return IndexType{}; }
    static Type integer(unsigned width, Signedness s = Signedness::Signless) { return IntegerType{width, s}; }
    static Type float_type(FloatKind kind) { return FloatType{kind}; }

    bool is_none() const { return std::holds_alternative<std::monostate>(storage_); }
    template <typename T>
    bool is() const { return std::holds_alternative<T>(storage_); }
    template <typename T>
    const T& as() const { return std::get<T>(storage_); }
    template <typename T>
    const T* dyn_cast() const { return std::get_if<T>(&storage_); }
    const Storage& storage() const { return storage_; }

    bool is_scalar() const { return is<IndexType>() || is<IntegerType>() || is<FloatType>(); }
    // A vector register, predicate mask or alignment state: the values of a vector interval.
    bool is_vector_state() const { return is<VRegType>() || is<MaskType>() || is<AlignType>(); }
    // The engine element type of a scalar, or of a tile's / view's / pointer's / register's element.
    std::optional<engine::DType> element_dtype() const;

    // Exact text as written (`ui8` vs `u8`, `f8E4M3FN` vs `f8e4m3`); empty means canonical.
    const std::string& spelling() const { return spelling_; }
    void set_spelling(std::string s) { spelling_ = std::move(s); }
    // Name of the `!alias` the source used for this type; empty when spelled out.
    const std::string& alias() const { return alias_; }
    void set_alias(std::string a) { alias_ = std::move(a); }

    friend bool operator==(const Type& a, const Type& b);
    friend bool identical(const Type& a, const Type& b);

private:
    Storage storage_;
    std::string spelling_;
    std::string alias_;
};

// Canonical PTO-AS names.
std::string scalar_type_name(const Type& scalar);  // "index", "i32", "ui8", "f16"; empty if not a scalar
std::string_view float_kind_name(FloatKind kind);
std::string_view address_space_name(AddressSpace space);
std::string_view tile_loc_name(pto::TileType loc, bool camel_case);
std::string_view blayout_name(pto::BLayout layout, bool camel_case);
std::string_view slayout_name(pto::SLayout layout, bool camel_case);
std::string pad_name(pto::PadValue pad, bool numeric, bool camel_case);

// Parsing of single keywords, shared by the parser and by tools.
std::optional<Type> scalar_type_from_name(std::string_view name);
std::optional<AddressSpace> address_space_from_name(std::string_view name);
std::optional<pto::TileType> tile_loc_from_name(std::string_view name);
std::optional<pto::BLayout> blayout_from_name(std::string_view name);
std::optional<pto::SLayout> slayout_from_name(std::string_view name);
std::optional<pto::PadValue> pad_from_name(std::string_view name);
// A convolution layout by name, in any case, bare or as `#pto.layout<name>`: nc1hwc0, ndc1hwc0, nhwc,
// nchw, ncdhw, gnc1hwc0, gnchw, fractal_z, fractal_z_s16s8, fractal_z_3d.
std::optional<pto::Layout> conv_layout_from_name(std::string_view name);
bool is_camel_case_keyword(std::string_view name);

}  // namespace pto::as
