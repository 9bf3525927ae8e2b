// The compile-time target of a kernel translation unit: -DPTO_TARGET=cpu|a2a3|a5 (default cpu).
// Every translation unit that includes the public API registers its target with the runtime before
// main() runs, so the compiled runtime uses the same capacities the static checks used; two
// translation units of one program that disagree are reported as RUN_TARGET_MISMATCH.
#pragma once

#include <pto/profile/profile.hpp>
#include <pto/runtime/memory.hpp>

#define PTO_DETAIL_TARGET_ID_cpu 0
#define PTO_DETAIL_TARGET_ID_a2a3 1
#define PTO_DETAIL_TARGET_ID_a5 2
#define PTO_DETAIL_CAT2(a, b) a##b
#define PTO_DETAIL_CAT(a, b) PTO_DETAIL_CAT2(a, b)

#ifndef PTO_TARGET
#define PTO_TARGET cpu
#endif

#define PTO_TARGET_ID PTO_DETAIL_CAT(PTO_DETAIL_TARGET_ID_, PTO_TARGET)

namespace pto::profile {

#if PTO_TARGET_ID == 0
inline constexpr Target kCompiledTarget = Target::Cpu;
#elif PTO_TARGET_ID == 1
inline constexpr Target kCompiledTarget = Target::A2A3;
#elif PTO_TARGET_ID == 2
inline constexpr Target kCompiledTarget = Target::A5;
#else
#error "PTO_TARGET must be one of cpu, a2a3, a5"
#endif

inline constexpr const Profile& kProfile = profile_of(kCompiledTarget);

}  // namespace pto::profile

namespace pto::profile::detail {
// One registration per translation unit (internal linkage on purpose).
[[maybe_unused]] static const bool kTargetRegistered =
    ::pto::runtime::register_compiled_target(kCompiledTarget, __FILE__);
}  // namespace pto::profile::detail
