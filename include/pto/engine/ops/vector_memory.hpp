// The vector micro-instructions' other memory forms: paired (de)interleaving loads and stores, fixed
// and block strides, gathers and scatters, predicate loads and stores, and the unaligned streams that
// thread a `!pto.align` state. The interpreter resolves and checks every address against UB; these
// kernels move the bytes, one call per instruction.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include <pto/common/event.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/ops/vector.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

namespace pto::engine::vector {

// Checked mode: RUN_UNINIT_READ when a load reads a byte nothing wrote (`lines` runs of `element`
// bytes, `pitch` apart), and the marks of the bytes a store wrote. Inline, so that fast mode pays one
// test on every load and store.
void require_written_checked(const std::byte* src, int64_t element, int64_t pitch, int64_t lines);
inline void require_written(const std::byte* src, int64_t element, int64_t pitch, int64_t lines)
{
    if (runtime::checked() && lines > 0) [[unlikely]]
        require_written_checked(src, element, pitch, lines);
}
inline void mark_stored(std::byte* dst, int64_t bytes)
{
    if (runtime::checked()) [[unlikely]]
        runtime::mark_written(dst, std::size_t(bytes));
}

// ---- addresses in UB, as both front doors check them ------------------------------------------------

inline constexpr const char* kVectorUnits = "vector loads and stores address the unified buffer in 32-byte units";
inline constexpr const char* kPredicateUnits = "predicates move at 8-byte-aligned UB addresses";
// RUN_POINTER_RANGE: `bytes` bytes at byte offset `at` leave on-chip memory `memory` of `size` bytes.
[[noreturn]] void outside_memory(TileType memory, uint64_t size, int64_t at, int64_t bytes, const char* operand);
// RUN_POINTER_ALIGN: address `at` is no multiple of `alignment`; `why` says whose rule it is.
[[noreturn]] void misaligned(int64_t at, int64_t alignment, const char* operand, const char* why);
// The host address of `bytes` bytes at UB byte offset `at` of the running core, `at` a multiple of
// `alignment`: else RUN_POINTER_ALIGN, then RUN_POINTER_RANGE, before any byte moves.
std::byte* ub_address(int64_t at, int64_t bytes, int64_t alignment, const char* operand, const char* why);
// The UB byte offset of host address `p` (a Vec tile's data() after TASSIGN): RUN_BAD_OPERAND when `p`
// is not in the running core's UB (a tile with automatic storage lives outside it).
int64_t ub_offset_of(const void* p, const char* operand);

// A C++ vector form while it runs: the instruction `name` of the V pipe, as its text form is (checked
// mode's synchronisation check judges its UB accesses as V's).
class VectorInstruction {
public:
    explicit VectorInstruction(const char* name);
    ~VectorInstruction();
    VectorInstruction(const VectorInstruction&) = delete;
    VectorInstruction& operator=(const VectorInstruction&) = delete;

private:
    runtime::InstructionScope scope_;
};

// pto.get_buf / pto.rls_buf: pipe `pipe` acquires (releases) buffer slot `id` (RUN_BUF_ID outside the
// pool; RUN_BUF_PROTOCOL for a second acquire, or a release without one, on the same pipe).
void buffer_slot(pipe_t pipe, int64_t id, bool acquire);

// ---- pto.vldsx2 / pto.vstsx2 --------------------------------------------------------------------

// DINTLV_Bk (loads) and INTLV_Bk (stores) split or merge k-bit element pairs; BDINTLV 32-byte blocks.
enum class PairDist : uint8_t { DINTLV_B8, DINTLV_B16, DINTLV_B32, BDINTLV, INTLV_B8, INTLV_B16, INTLV_B32 };
std::optional<PairDist> pair_dist_from_name(std::string_view name, bool store);
// Empty when the mode fills (stores) registers of `lane_bytes`-byte lanes, else what it needs.
std::string_view pair_dist_problem(PairDist dist, int lane_bytes);
inline constexpr int64_t kPairBytes = 2 * kRegisterBytes;  // both modes touch 512 bytes
// low = the even elements (blocks), high = the odd ones.
void load_pair(PairDist dist, int lane_bytes, const std::byte* src, Register& low, Register& high);
// Element 2i = low[i], 2i+1 = high[i], for the active lanes i of `mask`.
void store_pair(int lane_bytes, const Register& low, const Register& high, const Register& mask, std::byte* dst);

// ---- pto.vsld / pto.vsst: STRIDE_S<s>_B<k> -----------------------------------------------------

// Lane i of a register of k-bit lanes is element s*i of k bits in memory.
struct StrideMode {
    int step = 1;
    int lane_bytes = 4;
};
std::optional<StrideMode> stride_from_name(std::string_view name);
inline int64_t stride_footprint(StrideMode m) { return (int64_t(kRegisterBytes / m.lane_bytes - 1) * m.step + 1) * m.lane_bytes; }
void strided_load(StrideMode m, const std::byte* src, Register& dst);
void strided_store(StrideMode m, const Register& value, std::byte* dst);

// ---- blocks (pto.vsldb, pto.vsstb, pto.vgatherb) and lanes (pto.vgather2*, pto.vscatter) -------

inline constexpr int kBlockBytes = 32, kBlocks = kRegisterBytes / kBlockBytes;
// vsldb/vsstb's control word: bits 15:0 the block stride in 32-byte units (block j at j * stride * 32
// bytes); bits 31:16, the repeat stride, move nothing in a form without post-update.
inline int64_t block_stride_bytes(int64_t control) { return int64_t(uint64_t(control) & 0xffff) * kBlockBytes; }
// A block takes part when the mask's lane at its first byte is active.
inline bool block_active(const Register& mask, int block) { return mask.bytes[std::size_t(block * kBlockBytes)] != std::byte{0}; }
// dst's block j = 32 bytes at blocks[j], zero where blocks[j] is null.
void load_blocks(const std::array<const std::byte*, kBlocks>& blocks, Register& dst);
// 32 bytes of value's block j to blocks[j], none where it is null.
void store_blocks(const Register& value, const std::array<std::byte*, kBlocks>& blocks);
// dst's lane i = the element at lanes[i], zero where lanes[i] is null.
void gather_lanes(int lane_bytes, const std::array<const std::byte*, kRegisterBytes>& lanes, Register& dst);
// value's lane i to lanes[i] (none where null); when lanes alias, the lowest lane's value stays.
void scatter_lanes(int lane_bytes, const Register& value, const std::array<std::byte*, kRegisterBytes>& lanes);

// ---- predicate loads and stores (pto.pld*, pto.pst*) -------------------------------------------

// A predicate in UB is the image of its 256 bits, one per register byte (bit b of byte j is register
// byte 8j + b): NORM moves the 32 bytes; PK stores every other bit (16 bytes); US loads 16 bytes, each
// bit twice; DS loads 64 bytes, every other bit.
enum class PredicateDist : uint8_t { NORM, US, DS, PK };
std::optional<PredicateDist> predicate_dist_from_name(std::string_view name);
// pto.pldi / pto.psti's immediate (8-byte units) out of the encoding's range: LEGAL_PREDICATE_IMMEDIATE.
std::optional<TokenProblem> predicate_immediate_problem(int64_t slots);
// The mode `name` names (empty: NORM) for a predicate load or store, or the problem (LEGAL_PREDICATE_DIST).
std::optional<TokenProblem> read_predicate_dist(std::string_view name, bool store, PredicateDist& dist);
int64_t predicate_footprint(PredicateDist dist);
// `lane_bytes` 0 leaves the width open: the image as loaded, read later by each user at its lanes'
// width (a lane is active when its first byte is, as pto.pbitcast reads it).
void predicate_load(PredicateDist dist, const std::byte* src, int lane_bytes, Register& dst);
void predicate_store(PredicateDist dist, const Register& mask, std::byte* dst);

// ---- unaligned streams (`!pto.align`) ------------------------------------------------------------

// A store stream's state holds the bytes of its last partial 32-byte block, which only a flush writes;
// a load stream's the block it primed. Positions are byte offsets into UB.
struct AlignState {
    bool load = false;
    int64_t position = -1;  // store: where the stream's next byte goes (-1: fresh); load: the primed block
    int pending = 0;        // store: bytes held, ending at `position`
    std::array<std::byte, kBlockBytes> bytes{};
};
// What a stream operation gives to UB now: `count` bytes from `address`.
struct StreamCommit {
    int64_t address = 0;
    int count = 0;
    std::array<std::byte, kRegisterBytes + kBlockBytes> bytes{};
};
// Appends `n` bytes at `at` (RUN_ALIGN_STREAM unless the stream is fresh or continues there): the
// bytes up to the last 32-byte boundary are committed, the rest are held in the result.
AlignState stream_append(const AlignState& in, int64_t at, const std::byte* data, int n, StreamCommit& commit);
// The held bytes, at `at`, which must be the stream's position (nothing when none are held).
void stream_flush(const AlignState& s, int64_t at, StreamCommit& commit);
// vldas: the state primed with the block holding `at`; vldus at `at` needs that block.
AlignState prime_load(int64_t at);
void require_primed(const AlignState& s, int64_t at);

}  // namespace pto::engine::vector
