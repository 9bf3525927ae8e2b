// Target profiles as data: memory capacities and alignment rules of each target. One table serves the
// C++ front door (static_assert at compile time) and the runtime / PTO-AS verifier (at run time).
#pragma once

#include <cstdint>
#include <string_view>

#include <pto/common/type.hpp>

namespace pto::profile {

enum class Target : uint8_t { Cpu, A2A3, A5 };

struct Capacities {
    uint64_t ub;           // Vec tiles
    uint64_t l1;           // Mat tiles
    uint64_t l0a;          // Left tiles
    uint64_t l0b;          // Right tiles
    uint64_t l0c;          // Acc tiles
    uint64_t bias;         // Bias tiles
    uint64_t fbuf;         // Scaling tiles (fixpipe buffer)
    uint64_t scale_left;   // ScaleLeft tiles (MX scales beside L0A)
    uint64_t scale_right;  // ScaleRight tiles (MX scales beside L0B)
};

struct Profile {
    Target target;
    std::string_view name;
    Capacities capacity;
    uint32_t tile_alignment;  // byte alignment of every on-chip tile address
};

inline constexpr uint64_t KiB = 1024;

inline constexpr Profile kA2A3{Target::A2A3, "a2a3",
                               {192 * KiB, 512 * KiB, 64 * KiB, 64 * KiB, 128 * KiB, 1 * KiB, 2 * KiB, 0, 0}, 32};
inline constexpr Profile kA5{Target::A5, "a5",
                             {256 * KiB, 512 * KiB, 64 * KiB, 64 * KiB, 256 * KiB, 4 * KiB, 4 * KiB, 4 * KiB, 4 * KiB},
                             32};
// The permissive simulator target: the largest capacity of any real target for every buffer.
inline constexpr Profile kCpu{Target::Cpu, "cpu",
                              {256 * KiB, 512 * KiB, 64 * KiB, 64 * KiB, 256 * KiB, 4 * KiB, 4 * KiB, 4 * KiB, 4 * KiB},
                              32};

constexpr const Profile& profile_of(Target t)
{
    switch (t) {
        case Target::A2A3: return kA2A3;
        case Target::A5: return kA5;
        default: return kCpu;
    }
}

constexpr uint64_t capacity_of(const Profile& p, TileType loc)
{
    switch (loc) {
        case TileType::Vec: return p.capacity.ub;
        case TileType::Mat: return p.capacity.l1;
        case TileType::Left: return p.capacity.l0a;
        case TileType::Right: return p.capacity.l0b;
        case TileType::Acc: return p.capacity.l0c;
        case TileType::Bias: return p.capacity.bias;
        case TileType::Scaling: return p.capacity.fbuf;
        case TileType::ScaleLeft: return p.capacity.scale_left;
        case TileType::ScaleRight: return p.capacity.scale_right;
        case TileType::Ctrl: return 0;
    }
    return 0;
}

// Name of a tile location as the C++ API spells it (TileType::Vec -> "Vec").
constexpr std::string_view location_name(TileType loc)
{
    switch (loc) {
        case TileType::Vec: return "Vec";
        case TileType::Mat: return "Mat";
        case TileType::Left: return "Left";
        case TileType::Right: return "Right";
        case TileType::Acc: return "Acc";
        case TileType::Bias: return "Bias";
        case TileType::Scaling: return "Scaling";
        case TileType::ScaleLeft: return "ScaleLeft";
        case TileType::ScaleRight: return "ScaleRight";
        case TileType::Ctrl: return "Ctrl";
    }
    return "?";
}

// Name of the on-chip memory a tile location lives in, as diagnostics print it.
constexpr std::string_view memory_name(TileType loc)
{
    switch (loc) {
        case TileType::Vec: return "UB";
        case TileType::Mat: return "L1";
        case TileType::Left: return "L0A";
        case TileType::Right: return "L0B";
        case TileType::Acc: return "L0C";
        case TileType::Bias: return "BT";
        case TileType::Scaling: return "FB";
        case TileType::ScaleLeft: return "L0A_SCALE";
        case TileType::ScaleRight: return "L0B_SCALE";
        case TileType::Ctrl: return "CTRL";
    }
    return "?";
}

inline constexpr int kMemoryCount = static_cast<int>(TileType::Ctrl);  // every location but Ctrl has a memory

// The verdict of a rule on profile `p`, given its verdicts on the two real targets: the cpu profile
// accepts what either accepts.
constexpr bool on_profile(const Profile& p, bool a2a3, bool a5)
{
    switch (p.target) {
        case Target::A2A3: return a2a3;
        case Target::A5: return a5;
        case Target::Cpu: break;
    }
    return a2a3 || a5;
}

constexpr bool parse_target(std::string_view s, Target& out)
{
    if (s == "cpu") { out = Target::Cpu; return true; }
    if (s == "a2a3") { out = Target::A2A3; return true; }
    if (s == "a5") { out = Target::A5; return true; }
    return false;
}

}  // namespace pto::profile
