// What the two front doors of the vector micro-instructions share beyond the kernels: reading mode
// tokens, reading a mask at an operation's lanes, checking UB addresses, and the buffer-slot protocol.
// The PTO-AS interpreter (src/asm/interpreter) and the C++ forms (pto/intrinsics/vector.hpp) both call
// these, so a finding has the same code and words from either door.
#include <pto/engine/ops/vector.hpp>
#include <pto/engine/ops/vector_memory.hpp>
#include <pto/engine/pipes.hpp>
#include <pto/profile/profile.hpp>
#include <pto/profile/rules_vector.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>
#include <pto/runtime/registers.hpp>

#include <algorithm>
#include <string>

#include "runtime/order_checker.hpp"

namespace pto::engine::vector {

namespace {

std::string lanes_text(int lane_bytes) { return std::to_string(lane_bytes * 8) + "-bit lanes"; }
std::string mask_text(int lane_bytes) { return "a mask for " + lanes_text(lane_bytes); }

}  // namespace

void fail_token(const TokenProblem& p, const char* operand)
{
    runtime::fail({p.code, "", operand, p.what, p.expected, p.actual, ""});
}

// ---- masks ----

const Register& open_mask(const Register& image, int lane_bytes)
{
    thread_local Register read;
    mask_bitcast(image, std::min(lane_bytes, 4), read);
    if (lane_bytes == 8) read = widen_mask(read);
    return read;
}

const Register& mask_for_width(const Register& mask, int lane_bytes)
{
    if (mask.lane_bytes == 0) return open_mask(mask, lane_bytes);
    if (!rules::mask_width_ok(mask.lane_bytes, lane_bytes))
        runtime::fail({"RUN_MASK_WIDTH", "", "mask", "the mask governs lanes of another width", mask_text(lane_bytes), mask_text(mask.lane_bytes), ""});
    if (mask.lane_bytes == lane_bytes) return mask;
    thread_local Register wide;
    wide = widen_mask(mask);
    return wide;
}

const Register& full_mask(int lane_bytes)
{
    static const auto make = [](int bytes) {
        Register m;
        pattern_mask({Pattern::ALL}, std::min(bytes, 4), m);
        return bytes == 8 ? widen_mask(m) : m;
    };
    static const Register masks[4] = {make(1), make(2), make(4), make(8)};
    return masks[lane_bytes == 1 ? 0 : lane_bytes == 2 ? 1 : lane_bytes == 4 ? 2 : 3];
}

const Register& stated_mask(const Register& mask, int want)
{
    if (mask.lane_bytes == 0 && want) return open_mask(mask, want);
    if (want && mask.lane_bytes != want)
        runtime::fail({"RUN_MASK_WIDTH", "", "mask", "the mask has another width than its type states", mask_text(want), mask_text(mask.lane_bytes), ""});
    return mask;
}

void predicate_repack(bool unpack, PredicatePart part, const Register& src, Register& dst)
{
    if (src.lane_bytes == (unpack ? 4 : 1))
        runtime::fail({"RUN_MASK_WIDTH", "", "source", "the mask has no width to pack into", unpack ? "a b8 or b16 mask" : "a b16 or b32 mask",
                       mask_text(src.lane_bytes), ""});
    if (unpack) predicate_unpack(part, src, dst);
    else predicate_pack(part, src, dst);
}

// ---- tokens ----

std::optional<TokenProblem> read_load_dist(std::string_view name, int lane_bytes, LoadDist& dist)
{
    const auto d = name.empty() ? LoadDist::NORM : load_dist_from_name(name);
    if (!d)
        return TokenProblem{"LEGAL_VLDS_DIST", "unknown distribution mode",
                            "NORM, BRC_B8/B16/B32, US_B8/B16, DS_B8/B16, UNPK_B8/B16/B32, SPLT4CHN_B8, SPLT2CHN_B8/B16, DINTLV_B32 or BLK", std::string(name)};
    dist = *d;
    const std::string_view needs = lane_bytes ? load_dist_problem(*d, lane_bytes) : std::string_view{};
    if (!needs.empty())
        return TokenProblem{"LEGAL_VLDS_DIST", "distribution mode " + std::string(name) + " does not fill this register", std::string(needs), lanes_text(lane_bytes)};
    return std::nullopt;
}

std::optional<TokenProblem> read_store_dist(std::string_view name, int lane_bytes, StoreDist& dist)
{
    const auto d = name.empty() ? StoreDist::NORM : store_dist_from_name(name);
    if (!d) return TokenProblem{"LEGAL_VSTS_DIST", "unknown distribution mode", "NORM_B8/B16/B32, PK_B16/B32, MRG4CHN_B8 or MRG2CHN_B8/B16", std::string(name)};
    dist = *d;
    const std::string_view needs = lane_bytes ? store_dist_problem(*d, lane_bytes) : std::string_view{};
    if (!needs.empty())
        return TokenProblem{"LEGAL_VSTS_DIST", "distribution mode " + std::string(name) + " does not store this register", std::string(needs), lanes_text(lane_bytes)};
    return std::nullopt;
}

std::optional<TokenProblem> read_pattern(std::string_view name, int lane_bytes, PatternToken& token)
{
    const auto t = pattern_from_name(name);
    if (!t)
        return TokenProblem{"LEGAL_PSET_PATTERN", "unknown pattern token", "PAT_ALL, PAT_ALLF, PAT_H, PAT_Q, PAT_M3, PAT_M4 or PAT_VL<n>",
                            name.empty() ? "none" : std::string(name)};
    token = *t;
    std::string needs = pattern_problem(*t, kRegisterBytes / lane_bytes);
    if (!needs.empty()) return TokenProblem{"LEGAL_PSET_PATTERN", "the pattern activates more lanes than the mask has", std::move(needs), std::string(name)};
    return std::nullopt;
}

std::optional<TokenProblem> read_predicate_part(std::string_view name, PredicatePart& part)
{
    const auto p = predicate_part_from_name(name);
    if (!p) return TokenProblem{"LEGAL_PREDICATE_PART", "unknown partition token", "\"LOWER\" or \"HIGHER\"", name.empty() ? "none" : std::string(name)};
    part = *p;
    return std::nullopt;
}

std::optional<TokenProblem> read_predicate_dist(std::string_view name, bool store, PredicateDist& dist)
{
    const auto d = name.empty() ? std::optional(PredicateDist::NORM) : predicate_dist_from_name(name);
    const bool fits = d && (store ? *d == PredicateDist::NORM || *d == PredicateDist::PK : *d != PredicateDist::PK);
    if (!fits)
        return TokenProblem{"LEGAL_PREDICATE_DIST", std::string("unknown predicate ") + (store ? "store" : "load") + " distribution",
                            store ? "NORM or PK" : "NORM, US or DS", std::string(name)};
    dist = *d;
    return std::nullopt;
}

std::optional<TokenProblem> predicate_immediate_problem(int64_t slots)
{
    if (rules::predicate_immediate_ok(slots)) return std::nullopt;
    return TokenProblem{"LEGAL_PREDICATE_IMMEDIATE", "the immediate offset does not fit the instruction",
                        "0 to " + std::to_string(rules::kPredicateImmediateMax) + " (8-byte units)", std::to_string(slots)};
}

// ---- addresses ----

void outside_memory(TileType memory, uint64_t size, int64_t at, int64_t bytes, const char* operand)
{
    runtime::fail({"RUN_POINTER_RANGE", "", operand, "the access leaves " + std::string(profile::memory_name(memory)),
                   "bytes [0, " + std::to_string(size) + ")", "[" + std::to_string(at) + ", " + std::to_string(at + bytes) + ")", ""});
}

void misaligned(int64_t at, int64_t alignment, const char* operand, const char* why)
{
    runtime::fail({"RUN_POINTER_ALIGN", "", operand, why, "a multiple of " + std::to_string(alignment), std::to_string(at), ""});
}

std::byte* ub_address(int64_t at, int64_t bytes, int64_t alignment, const char* operand, const char* why)
{
    if (at % alignment != 0) misaligned(at, alignment, operand, why);
    const uint64_t size = runtime::memory_size(TileType::Vec);
    if (at < 0 || bytes < 0 || uint64_t(at) + uint64_t(bytes) > size) outside_memory(TileType::Vec, size, at, bytes, operand);
    return runtime::memory_base(TileType::Vec) + at;
}

int64_t ub_offset_of(const void* p, const char* operand)
{
    const std::byte* base = runtime::memory_base(TileType::Vec);
    const auto at = static_cast<const std::byte*>(p);
    const uint64_t size = runtime::memory_size(TileType::Vec);
    if (!base || at < base || at >= base + size)
        runtime::fail({"RUN_BAD_OPERAND", "", operand, "the address is not in the unified buffer",
                       "a Vec tile placed with TASSIGN, or an address in UB", "an address outside UB (automatic storage?)", ""});
    return at - base;
}

// ---- buffer slots ----

void buffer_slot(pipe_t pipe, int64_t id, bool acquire)
{
    if (pipe < 0 || std::size_t(pipe) >= kPipeCount || pipe == PIPE_ALL)
        runtime::fail({"RUN_BAD_OPERAND", "", "pipe", "the pipe that acquires or releases the slot", "PIPE_S, PIPE_V, PIPE_MTE2, ...",
                       std::to_string(int(pipe)), ""});
    if (!rules::buffer_id_ok(id))
        runtime::fail({"RUN_BUF_ID", "", "buf_id", "a buffer slot of the pool", "0 to " + std::to_string(rules::kBufferSlots - 1), std::to_string(id), ""});
    uint32_t& held = runtime::core_registers().held_buffers[std::size_t(pipe)];
    const uint32_t bit = uint32_t(1) << id;
    const std::string pipe_name(pipe_short_name(pipe));
    if (acquire && (held & bit))
        runtime::fail({"RUN_BUF_PROTOCOL", "", "buf_id", "PIPE_" + pipe_name + " acquires buffer slot " + std::to_string(id) + " twice",
                       "an rls_buf of the slot between the two get_buf", "a second get_buf", ""});
    if (!acquire && !(held & bit))
        runtime::fail({"RUN_BUF_PROTOCOL", "", "buf_id", "PIPE_" + pipe_name + " releases buffer slot " + std::to_string(id) + " it does not hold",
                       "a get_buf of the slot on the same pipe first", "no get_buf", ""});
    held ^= bit;
}

VectorInstruction::VectorInstruction(const char* name) : scope_(name) { runtime::order::instruction_begins(name, PIPE_V); }
VectorInstruction::~VectorInstruction() { runtime::order::instruction_ends(); }

}  // namespace pto::engine::vector
