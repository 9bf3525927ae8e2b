// The vector micro-instructions (`pto.v*`, `pto.p*`): 256-byte vector registers, predicate masks, and
// the kernels that load, store and compute on them. Each kernel works on whole registers, compiled once,
// so that running a vector instruction is one call, never a loop over lanes in the interpreter.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>

namespace pto::engine::vector {

inline constexpr int kRegisterBytes = 256;

// A vector register, or a predicate mask. A mask holds one byte per register byte, 0x00 or 0xff, and
// covers lanes of `lane_bytes` bytes: lane i is active when its bytes are 0xff (a mask's lanes are all
// set or all clear). The width is what the instruction that made the mask said (b8, b16, b32); the
// instructions that take a mask require it to match their lanes.
struct Register {
    alignas(64) std::array<std::byte, kRegisterBytes> bytes{};
    uint8_t lane_bytes = 0;   // masks only
    bool all_active = false;  // masks only: every lane set (every kernel that writes a mask says)
};

// ---- what both front doors share: tokens, and masks as an operation reads them -----------------------

// A problem with a token (a distribution mode, a pattern, a part): the verifier reports it against the
// text, the C++ door (pto/intrinsics/vector.hpp) at run time, with the same code and words.
struct TokenProblem {
    std::string code, what, expected, actual;
};
// RUN-time report of a token problem by the C++ door, naming `operand`.
[[noreturn]] void fail_token(const TokenProblem& problem, const char* operand);

// A mask as an operation on lanes of `lane_bytes` bytes reads it, when it was made for lanes of another
// width or for none: a width-less image (a predicate load into `!pto.mask<G>`, `RegBuf<predicate_t>`) read
// at those lanes, a lane active when its first byte is; a b32 mask widened for 64-bit lanes; else
// RUN_MASK_WIDTH. The result may be a scratch register of the thread, valid until the next call.
const Register& mask_for_width(const Register& mask, int lane_bytes);
// The same for an image, read at lanes of `lane_bytes` bytes (into a scratch register of the thread).
const Register& open_mask(const Register& image, int lane_bytes);
// Every lane of lanes of `lane_bytes` bytes active (a b32 mask widened for 64-bit lanes): the mask of the
// C++ forms written without one.
const Register& full_mask(int lane_bytes);
// A mask operand of predicate logic whose type states lanes of `want` bytes (0: any width): an image is
// read at `want`; a mask of another width is RUN_MASK_WIDTH.
const Register& stated_mask(const Register& mask, int want);

// ---- loads and stores --------------------------------------------------------------------------

// pto.vlds's distribution modes.
enum class LoadDist : uint8_t {
    NORM, BRC_B8, BRC_B16, BRC_B32, US_B8, US_B16, DS_B8, DS_B16, UNPK_B8, UNPK_B16, UNPK_B32,
    SPLT4CHN_B8, SPLT2CHN_B8, SPLT2CHN_B16, DINTLV_B32, BLK,
};
// pto.vsts's distribution modes; NORM (no mode written) stores lanes of the register's own width.
enum class StoreDist : uint8_t { NORM, NORM_B8, NORM_B16, NORM_B32, PK_B16, PK_B32, MRG4CHN_B8, MRG2CHN_B8, MRG2CHN_B16 };

std::optional<LoadDist> load_dist_from_name(std::string_view name);
std::optional<StoreDist> store_dist_from_name(std::string_view name);
std::string_view load_dist_name(LoadDist dist);
std::string_view store_dist_name(StoreDist dist);
// The mode `name` names (empty: NORM) for registers of `lane_bytes`-byte lanes (0: not known yet), or
// the problem (LEGAL_VLDS_DIST, LEGAL_VSTS_DIST).
std::optional<TokenProblem> read_load_dist(std::string_view name, int lane_bytes, LoadDist& dist);
std::optional<TokenProblem> read_store_dist(std::string_view name, int lane_bytes, StoreDist& dist);

// The element width in bytes a mode reads or writes in memory (NORM and BLK: the register's own).
int memory_element_bytes(LoadDist dist, int lane_bytes);
int memory_element_bytes(StoreDist dist, int lane_bytes);

// Whether a mode can fill (or store) a register of `lane_bytes`-byte lanes: empty when it can, else
// what it needs.
std::string_view load_dist_problem(LoadDist dist, int lane_bytes);
std::string_view store_dist_problem(StoreDist dist, int lane_bytes);

// The bytes a load or store touches from its effective address, and the address alignment it needs.
int64_t footprint_bytes(LoadDist dist, int lane_bytes);
int64_t footprint_bytes(StoreDist dist, int lane_bytes);
inline constexpr int64_t kAccessAlignment = 32;

// dst = the register `dist` assembles from the footprint at `src`.
void load(LoadDist dist, int lane_bytes, const std::byte* src, Register& dst);
// The same, resolved once for a program's operation (NORM: a plain copy of 256 bytes).
using LoadKernel = void (*)(LoadDist dist, int lane_bytes, const std::byte* src, Register& dst);
LoadKernel load_kernel(LoadDist dist);
// Writes the active lanes of `value` at `dst` as `dist` lays them out; inactive lanes write nothing.
void store(StoreDist dist, int lane_bytes, const Register& value, const Register& mask, std::byte* dst);
// The same, resolved once for a program's operation (NORM under a full mask: a plain copy of 256 bytes).
using StoreKernel = void (*)(StoreDist dist, int lane_bytes, const Register& value, const Register& mask, std::byte* dst);
StoreKernel store_kernel(StoreDist dist);

// ---- predicates ---------------------------------------------------------------------------------

// pset/pge's pattern tokens.
enum class Pattern : uint8_t { ALL, ALLF, H, Q, M3, M4, VL };
struct PatternToken {
    Pattern pattern;
    int count = 0;  // PAT_VL<count>
};
std::optional<PatternToken> pattern_from_name(std::string_view name);
// The lanes a pattern leaves active out of `lanes`; empty when it cannot (PAT_VL beyond the lanes).
std::string pattern_problem(PatternToken token, int lanes);

// The pattern `name` names for a mask of `lane_bytes`-byte lanes, or the problem (LEGAL_PSET_PATTERN).
std::optional<TokenProblem> read_pattern(std::string_view name, int lane_bytes, PatternToken& token);

void pattern_mask(PatternToken token, int lane_bytes, Register& dst);
// The first `count` lanes active (plt: a remainder of `count` elements; clamped to [0, lanes]).
void prefix_mask(int64_t count, int lane_bytes, Register& dst);

// A b32 mask read for 64-bit lanes: lane i is active when the mask's lane 2i is.
Register widen_mask(const Register& b32_mask);

// ---- arithmetic ---------------------------------------------------------------------------------

enum class BinaryOp : uint8_t { Add, Sub, Mul, Div, Max, Min, And, Or, Xor, Shl, Shr };
// PopCount (vbcnt): the set bits of a lane; LeadingSign (vcls): the run of bits equal to the top bit,
// counted from the top bit itself (both of integer lanes, the count in the lane type).
enum class UnaryOp : uint8_t { Abs, Neg, Not, Relu, Exp, Ln, Sqrt, Rsqrt, Rec, Mov, PopCount, LeadingSign };

// Whether an operation is defined on element type `dtype`: empty when it is, else what it needs.
std::string_view binary_problem(BinaryOp op, DType dtype);
std::string_view unary_problem(UnaryOp op, DType dtype);

// dst = op(a, b) on the active lanes of `mask`, zero on the inactive ones. Every lane computes exactly
// what the tile instruction of the same name (TADD, TMAX, ...) computes for one element.
void binary(BinaryOp op, DType dtype, const Register& a, const Register& b, const Register& mask, Register& dst);
// The same, resolved once for a program's operation (null for an element type that is no lane type).
using BinaryKernel = void (*)(const Register& a, const Register& b, const Register& mask, Register& dst);
BinaryKernel binary_kernel(BinaryOp op, DType dtype);
void unary(UnaryOp op, DType dtype, const Register& a, const Register& mask, Register& dst);

// ---- vector-scalar operations (vec_scalar.cpp) --------------------------------------------------

// pto.vadds ... pto.vlrelu: one register and one scalar of the lane type.
enum class ScalarOp : uint8_t { Add, Sub, Mul, Max, Min, And, Or, Xor, Shl, Shr, LeakyRelu };
std::string_view scalar_problem(ScalarOp op, DType dtype);
// The bits of a float scalar in the encoding of `dtype` lanes (f32, f16, bf16), rounded to nearest even.
uint64_t float_lane_bits(DType dtype, double value);
// dst = op(a, scalar) on the active lanes, zero on the others, exactly as the tile instruction of the
// same name (TADDS, TMAXS, TLRELU, ...); `scalar_bits` holds the scalar in the lanes' encoding.
void binary_scalar(ScalarOp op, DType dtype, const Register& a, uint64_t scalar_bits, const Register& mask, Register& dst);

// pto.vaddcs / pto.vsubcs: lane-local carry (borrow) chains on the lanes' unsigned bits; pto.vaddc /
// pto.vsubc are the same with no carry in.
enum class CarryOp : uint8_t { Add, Sub };
std::string_view carry_problem(DType dtype);
void carry_chain(CarryOp op, int lane_bytes, const Register& a, const Register& b, const Register& carry_in,
                 const Register& mask, Register& dst, Register& carry_out);

// ---- reductions (reduction.cpp) -------------------------------------------------------------------

// pto.vcadd, vcmax, vcmin (whole register), vcgadd, vcgmax, vcgmin (each 32-byte group), vcpadd (scan).
enum class ReduceOp : uint8_t { Sum, Max, Min, GroupSum, GroupMax, GroupMin, PrefixSum };
std::string_view reduce_problem(ReduceOp op, DType dtype);
void reduce(ReduceOp op, DType dtype, const Register& a, const Register& mask, Register& dst);

// ---- compare and select (compare_select.cpp) -----------------------------------------------------

enum class CompareMode : uint8_t { EQ, NE, LT, LE, GT, GE };
std::optional<CompareMode> compare_mode_from_name(std::string_view name);
// dst = the mask (of the lanes' width; b32 for 64-bit lanes) of the lanes of `seed` where `a CMP b`.
void compare(CompareMode mode, DType dtype, const Register& a, const Register& b, const Register& seed, Register& dst);
void compare_scalar(CompareMode mode, DType dtype, const Register& a, uint64_t scalar_bits, const Register& seed, Register& dst);
// dst = mask ? a : b, every lane.
void select(int lane_bytes, const Register& a, const Register& b, const Register& mask, Register& dst);
// dst[i] = src[index[i] mod lanes], the index read as an unsigned integer of the lane width.
void select_by_index(int lane_bytes, const Register& src, const Register& index, Register& dst);

// ---- predicate algebra and materialisation (predicate_algebra.cpp, materialize.cpp) ---------------

enum class PredicateOp : uint8_t { And, Or, Xor, Not, Select };
// dst = a AND/OR/XOR b, NOT a, or (sel ? a : b), every lane; dst takes a's lane width.
void predicate_logic(PredicateOp op, const Register& a, const Register& b, const Register& sel, Register& dst);
enum class PredicatePart : uint8_t { Lower, Higher };
std::optional<PredicatePart> predicate_part_from_name(std::string_view name);
// The part `name` names, or the problem (LEGAL_PREDICATE_PART).
std::optional<TokenProblem> read_predicate_part(std::string_view name, PredicatePart& part);
// ppack: the lanes of `src` become the lower or higher half of a mask of half-width lanes (twice as
// many), the other half clear. punpack: the lower or higher half of `src`'s lanes become a mask of
// double-width lanes.
void predicate_pack(PredicatePart part, const Register& src, Register& dst);
void predicate_unpack(PredicatePart part, const Register& src, Register& dst);
// ppack (`unpack` false) or punpack of a mask of a width known at run time: RUN_MASK_WIDTH for a b8
// mask to pack or a b32 mask to unpack.
void predicate_repack(bool unpack, PredicatePart part, const Register& src, Register& dst);
// pintlv: the lanes a0 b0 a1 b1 ... split into their first half (low) and second half (high).
// pdintlv: the lanes of a then b, even ones to low, odd ones to high.
void predicate_interleave(int lane_bytes, const Register& a, const Register& b, Register& low, Register& high);
void predicate_deinterleave(int lane_bytes, const Register& a, const Register& b, Register& low, Register& high);

// pto.vbr: every lane holds `bits` (the scalar in the lanes' encoding).
void broadcast(int lane_bytes, uint64_t bits, Register& dst);
// pto.vdup of a register: every lane holds its lowest (lane 0) or highest lane.
enum class DupPosition : uint8_t { Lowest, Highest };
std::optional<DupPosition> dup_position_from_name(std::string_view name);
void duplicate_lane(DupPosition position, int lane_bytes, const Register& src, Register& dst);

// ---- conversions (pto.vcvt, pto.vtrc, pto.vci, pto.pbitcast) -----------------------------------

// One pto.vcvt: each lane converts as TCVT converts one element (pto/numeric/convert.hpp: the value
// rounded once by `round`, out-of-range values and NaN as `sat` says). When the lane width changes,
// `part` places the lanes: narrowing writes source lane i to result lane ratio*i + part (the other
// result lanes are zero); widening reads result lane i from source lane ratio*i + part. EVEN is part
// 0, ODD part 1; 4:1 pairs also have parts 2 and 3.
struct Conversion {
    DType from = DType::F32, to = DType::F32;
    RoundMode round = RoundMode::CAST_RINT;
    SaturationMode sat = SaturationMode::OFF;
    int part = 0;
};

// Whether pto.vcvt converts `from` lanes to `to` lanes: empty when it does, else what it needs.
std::string_view conversion_problem(DType from, DType to);
// How many narrow lanes share the bytes of one wide lane: 1 (same width), 2 or 4.
int conversion_ratio(DType from, DType to);

// dst = the conversion of the active lanes of `src` (`mask` has the source's lanes); zero elsewhere.
void convert(const Conversion& c, const Register& src, const Register& mask, Register& dst);

// pto.vtrc: each lane rounded to an integral value by `round`, in its own floating-point type.
std::string_view truncate_problem(DType dtype);
void truncate(RoundMode round, DType dtype, const Register& src, Register& dst);

// pto.vci: lane i = start + i (ascending) or start - i (descending), wrapped to the lane type.
std::string_view index_sequence_problem(DType dtype);
void index_sequence(DType dtype, int64_t start, bool descending, Register& dst);

// pto.pbitcast: the same predicate image read as lanes of `lane_bytes` bytes. A lane of the result is
// active when its first byte is (the predicate bit the hardware reads for that lane).
void mask_bitcast(const Register& src, int lane_bytes, Register& dst);


// ---- rearrangement (pto.vintlv ... pto.vzunpack) ----------------------------------------------

enum class Rearrangement : uint8_t {
    Interleave, Deinterleave, InterleaveHalf, DeinterleaveHalf, Slide, Shift, Permute, Squeeze, Unsqueeze,
    Pack, SignedUnpack, ZeroUnpack,
};

// vintlv: low = a0 b0 a1 b1 ... of the first halves, high = the same of the second halves.
void interleave(int lane_bytes, const Register& a, const Register& b, Register& low, Register& high);
// vdintlv: of the stream a ++ b, low = its even lanes, high = its odd lanes.
void deinterleave(int lane_bytes, const Register& a, const Register& b, Register& low, Register& high);

// vslide: dst[i] = (i >= amount) ? src0[i - amount] : src1[lanes - amount + i], 0 <= amount <= lanes.
// vshift: the same with a zero src1, and -lanes <= amount < 0 shifts the other way (zero filled).
// (rules::slide_amount_ok says which amounts.)
void slide(int lane_bytes, const Register& src0, const Register* src1, int64_t amount, Register& dst);

// vperm: dst[i] = src[index[i] mod lanes], index lanes read as unsigned integers of the same width.
void permute(int lane_bytes, const Register& src, const Register& index, Register& dst);

// vsqz: the active lanes of src, in order, at the front; zero after them.
void squeeze(int lane_bytes, const Register& src, const Register& mask, Register& dst);
// vusqz: the front-packed stream is the lane numbers 0, 1, 2, ...: active lane i gets the count of
// active lanes before it, inactive lanes zero. (vperm of a front-packed vector by it expands that.)
void unsqueeze(int lane_bytes, const Register& mask, Register& dst);

// vpack: the lanes of a then of b narrowed to `to` (half the width): their low bits, or, saturating,
// clamped to `to`'s range (`from`'s signedness read).
void pack(DType from, DType to, bool saturate, const Register& a, const Register& b, Register& dst);
// vsunpack / vzunpack: half `half` (0 or 1) of the narrow lanes of src, sign- or zero-extended.
void unpack(int narrow_bytes, bool sign_extend, int half, const Register& src, Register& dst);

// ---- fused arithmetic (pto.vaddrelu, pto.vsubrelu, pto.vprelu, pto.vmula, pto.vexpdif) -------------

enum class FusedOp : uint8_t { AddRelu, SubRelu, Prelu };
// Whether an operation is defined on `dtype` lanes (f16, f32): empty when it is, else what it needs.
std::string_view fused_problem(FusedOp op, DType dtype);
// dst = op(a, b) on the active lanes, zero elsewhere: max(a + b, 0), max(a - b, 0), and TPRELU's
// a > 0 ? a : a * b, each as the tile instruction computes one element.
void fused(FusedOp op, DType dtype, const Register& a, const Register& b, const Register& mask, Register& dst);

// vmula: dst = add + a * b on the active lanes (f16, f32), rounded once (fused), zero elsewhere.
void multiply_add(DType dtype, const Register& add, const Register& a, const Register& b, const Register& mask, Register& dst);
// vaxpy: dst = alpha * x + y on the active lanes, fused as vmula (alpha already of the lane type).
void axpy(DType dtype, double alpha, const Register& x, const Register& y, const Register& mask, Register& dst);
// vexpdif: dst = exp(a - max): the difference rounded to the lane type, then TEXP's exponential.
void exp_difference(DType dtype, const Register& a, const Register& max, Register& dst);

// ---- SFU and DSA operations (sfu.cpp, ub_sort.cpp, ub_transpose.cpp) -------------------------

// pto.vmull: the full product of 32-bit lanes (signed for i32, unsigned for u32); its low 32 bits go to
// `low`, its high 32 bits to `high`. Inactive lanes are zero in both.
std::string_view widening_multiply_problem(DType dtype);
void widening_multiply(DType dtype, const Register& a, const Register& b, const Register& mask, Register& low, Register& high);

// pto.vaddreluconv (relu(a + b)) and pto.vmulconv (a * b) into another lane type: source lane i goes to
// result lane i (the lower lanes; the others zero), converted once to nearest even, saturating, as
// TADDRELUCONV converts. Pairs: empty when `from` -> `to` is one, else what the operation needs.
enum class ConvertingOp : uint8_t { AddRelu, Mul };
std::string_view converting_problem(ConvertingOp op, DType from, DType to);
void converting(ConvertingOp op, DType from, DType to, const Register& a, const Register& b, const Register& mask, Register& dst);

// UB sorts over TSORT32's 8-byte records: the value's bits in the low 4 bytes (an f16 zero-extended),
// its index in the high 4. f16 and f32 values only.
std::string_view ub_sort_problem(DType dtype);
// pto.vsort32 / pto.vbitsort: `groups` groups of 32 values at `values`, each sorted largest first (ties:
// the earlier element first) into 32 records at `records` (256 bytes a group). `indices` gives each
// value's index (32 per group); null: the value's position from `values` (0 to 32 * groups - 1).
void sort32_groups(DType dtype, const std::byte* values, const std::byte* indices, int groups, std::byte* records);
// pto.vmrgsort4: merges four sorted lists of records (`counts[k]` records at `lists[k]`; an empty list
// takes no part) into `dst`, largest first (`ascending`: smallest first), the lower list first among
// equal values, as TMRGSORT merges. With `exhausted` the merge stops right after the record that empties
// a list. Returns the records taken from each list (VMS4_SR's layout: list k in bits 16k to 16k + 15).
uint64_t merge_sorted_lists(DType dtype, const std::byte* const (&lists)[4], const uint16_t (&counts)[4], bool ascending, bool exhausted,
                            std::byte* dst);

// pto.vtranspose: the row-major rows x cols matrix at `src` (1-, 2- or 4-byte elements) into its
// cols x rows transpose at `dst`; dst may overlap src.
std::string_view ub_transpose_problem(DType dtype);
void transpose_matrix(int element_bytes, const std::byte* src, int rows, int cols, std::byte* dst);

}  // namespace pto::engine::vector
