// TRANDOM: the Philox4x32 counter-based generator (Salmon et al., "Parallel random numbers: as easy as
// 1, 2, 3"), laid out over the tile as the targets' vector kernel does; operand checks and the definition.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/generate.hpp>
#include <pto/profile/rules_generate.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <array>
#include <cstring>
#include <string>

#include "engine/definition.hpp"
#include "runtime/call_site.hpp"

namespace pto::engine {

namespace {

using Words = std::array<uint32_t, 4>;

constexpr uint32_t kMultiplier0 = 0xD2511F53u, kMultiplier1 = 0xCD9E8D57u;  // Philox4x32's round multipliers
constexpr uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;              // its key schedule's increments
constexpr int kLanes = 64;                                                  // 32-bit lanes of a 256-byte vector
constexpr int kWordsPerLane = 4;

Words philox(Words c, uint32_t k0, uint32_t k1, int rounds)
{
    for (int i = 0; i < rounds; ++i) {
        const uint64_t p0 = uint64_t(c[0]) * kMultiplier0, p1 = uint64_t(c[2]) * kMultiplier1;
        c = {uint32_t(p1 >> 32) ^ c[1] ^ k0, uint32_t(p1), uint32_t(p0 >> 32) ^ c[3] ^ k1, uint32_t(p0)};
        k0 += kWeyl0;
        k1 += kWeyl1;
    }
    return c;
}

// counter + n, 128 bits with carries.
Words advanced(const Words& counter, uint64_t n)
{
    Words out = counter;
    uint64_t carry = n;
    for (uint32_t& w : out) {
        carry += w;
        w = uint32_t(carry);
        carry >>= 32;
    }
    return out;
}

}  // namespace

void check_trandom(const profile::Profile& p, const TileDesc& dst, int rounds, LegalitySink& sink)
{
    if (!rules::trandom_target_ok(p))
        report(sink, "LEGAL_TRANDOM_TARGET", "dst", "TRANDOM exists on a5", "a5 or cpu", std::string(p.name));
    if (dst.loc != TileType::Vec || dst.blayout != BLayout::RowMajor || dst.boxed())
        report(sink, "LEGAL_TRANDOM_LAYOUT", "dst", "TRANDOM writes a row-major Vec tile", "a row-major Vec tile", "another tile");
    if (!rules::trandom_dtype_ok(dst.dtype))
        report(sink, "LEGAL_TRANDOM_DTYPE", "dst", "TRANDOM writes 32-bit words", "i32 or u32", std::string(dtype_name(dst.dtype)));
    if (!rules::trandom_rounds_ok(rounds))
        report(sink, "LEGAL_TRANDOM_ROUNDS", "dst", "the generator runs 7 or 10 rounds", "7 or 10", std::to_string(rounds));
}

void trandom(const TileDesc& dst, const uint32_t (&key)[2], const uint32_t (&counter)[4], int rounds)
{
    PTO_NOTE_CALL_SITE();
    runtime::InstructionScope scope("TRANDOM");
    StopAtFirstFinding stop;
    check_trandom(runtime::active_profile(), dst, rounds, stop);
    constexpr int kChunk = kLanes * kWordsPerLane;
    const int chunks = (dst.valid_cols + kChunk - 1) / kChunk;
    const uint64_t chunk_step = uint64_t(dst.cols) / 4;
    const Words base = {counter[0], counter[1], counter[2], counter[3]};
    for (int r = 0; r < dst.valid_rows; ++r) {
        uint32_t* row = reinterpret_cast<uint32_t*>(dst.data) + dst.offset(r, 0);
        for (int l = 0; l < chunks; ++l) {
            const Words chunk_counter = advanced(base, (uint64_t(r) * uint64_t(chunks) + uint64_t(l)) * chunk_step);
            for (int n = 0; n < kLanes; ++n) {
                const Words out = philox(advanced(chunk_counter, uint64_t(n)), key[0], key[1], rounds);
                for (int w = 0; w < kWordsPerLane; ++w) {
                    const int col = l * kChunk + w * kLanes + n;
                    if (col < dst.valid_cols) row[col] = out[size_t(w)];
                }
            }
        }
    }
    mark_written(dst);
}

// ---- definition ---------------------------------------------------------------------------------------

namespace {

constexpr OperandSpec kKeyAndCounter[] = {{"key", OperandKind::Tile}, {"counter", OperandKind::Tile}};
constexpr Form kForms[] = {{kKeyAndCounter, kTileDst}};
constexpr std::string_view kRoundsKeys[] = {"rounds", "Rounds"};
constexpr AttributeSpec kAttributes[] = {{kRoundsKeys, {}, 10}};

// In text the key and counter are tiles holding 2 and 4 32-bit words (the first words of their storage).
template <std::size_t N>
void read_words(const TileDesc& t, const char* name, uint32_t (&out)[N])
{
    if (dtype_bits(t.dtype) != 32 || t.elements() < int64_t(N))
        runtime::fail({"RUN_TRANDOM_STATE", "TRANDOM", name, std::string(name) + " holds " + std::to_string(N) + " 32-bit words",
                       "at least " + std::to_string(N) + " 32-bit elements",
                       std::to_string(t.elements()) + " " + std::string(dtype_name(t.dtype)) + " elements", ""});
    require_written(t, 1, int(N) <= t.cols ? int(N) : t.cols, name);
    std::memcpy(out, t.data, sizeof out);
}

}  // namespace

constexpr InstrDef definitions::TRANDOM{
    .id = Instr::TRANDOM,
    .mnemonic = "TRANDOM",
    .forms = kForms,
    .attributes = kAttributes,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) { check_trandom(p, c.dst(), c.attributes[0], sink); },
    .run = [](const Call& c) {
        uint32_t key[2], counter[4];
        read_words(c.src(0), "key", key);
        read_words(c.src(1), "counter", counter);
        trandom(c.dst(), key, counter, c.attributes[0]);
    },
};

}  // namespace pto::engine
