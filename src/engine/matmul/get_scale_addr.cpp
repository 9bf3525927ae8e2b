// TGET_SCALE_ADDR's check of the locations it binds between; the intrinsic binds the tile.
#include <pto/engine/ops/matmul.hpp>
#include <pto/profile/rules_matmul.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <string>

namespace pto::engine {

namespace {

void check_get_scale_addr(const profile::Profile& p, TileType dst, TileType src, LegalitySink& sink)
{
    if (rules::get_scale_addr_ok(p, src, dst)) return;
    report(sink, "LEGAL_GET_SCALE_ADDR", "dst",
           "TGET_SCALE_ADDR binds a Left tile's scales as a ScaleLeft tile and a Right tile's as a ScaleRight tile",
           p.target == profile::Target::A2A3 ? "a5 (a2a3 has no MX scales)" : "Left -> ScaleLeft or Right -> ScaleRight",
           std::string(profile::location_name(src)) + " -> " + std::string(profile::location_name(dst)));
}

}  // namespace

void tget_scale_addr(TileType dst, TileType src)
{
    runtime::InstructionScope scope("TGET_SCALE_ADDR");
    StopAtFirstFinding stop;
    check_get_scale_addr(runtime::active_profile(), dst, src, stop);
    warn_if_cpu_only(runtime::active_profile(), [&](const profile::Profile& p, LegalitySink& sink) {
        check_get_scale_addr(p, dst, src, sink);
    });
}

}  // namespace pto::engine
