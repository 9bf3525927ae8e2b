// Legality rules of the instructions that write a tile from a rule (TCI, TTRI), one constexpr predicate
// per rule, with its code in the comment above it.
#pragma once

#include <pto/common/type.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>

namespace pto::rules {

// Rule LEGAL_TCI_DTYPE: 16- and 32-bit integers.
constexpr bool tci_dtype_ok(engine::DType t)
{
    using enum engine::DType;
    return t == I32 || t == U32 || t == I16 || t == U16;
}

// Rule LEGAL_TCI_TMP (a2a3): tmp is 4-byte elements, at least 768 bytes for 32-bit sequences and 1792
// for 16-bit ones; elsewhere any tile.
constexpr bool tci_tmp_ok(const profile::Profile& p, engine::DType dst, engine::DType tmp, int64_t tmp_bytes)
{
    if (p.target != profile::Target::A2A3) return true;
    return engine::dtype_bits(tmp) == 32 && tmp_bytes >= (engine::dtype_bits(dst) == 32 ? 768 : 1792);
}

// Rule LEGAL_TTRI_MODE: lower (0) or upper (1).
constexpr bool ttri_mode_ok(int upper) { return upper == 0 || upper == 1; }

// Rule LEGAL_<NAME>_LOCATION: Vec tiles; LEGAL_<NAME>_LAYOUT: row-major and unboxed on a2a3 and a5.
constexpr bool generate_location_ok(TileType loc) { return loc == TileType::Vec; }
constexpr bool generate_layout_ok(const profile::Profile& p, BLayout b, SLayout s)
{
    return p.target == profile::Target::Cpu || (b == BLayout::RowMajor && s == SLayout::NoneBox);
}

// Rule LEGAL_TRANDOM_DTYPE: int32 or uint32 words; LEGAL_TRANDOM_ROUNDS: 7 or 10 rounds; LEGAL_TRANDOM_TARGET:
// the generator exists on a5 (and the cpu profile), not on a2a3.
constexpr bool trandom_dtype_ok(engine::DType t) { return t == engine::DType::I32 || t == engine::DType::U32; }
constexpr bool trandom_rounds_ok(int rounds) { return rounds == 7 || rounds == 10; }
constexpr bool trandom_target_ok(const profile::Profile& p) { return p.target != profile::Target::A2A3; }

}  // namespace pto::rules
