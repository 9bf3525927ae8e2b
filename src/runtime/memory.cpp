// Simulated memories, their checked-mode shadow state, automatic tile storage and global allocations.
#include <pto/runtime/memory.hpp>

#include <pto/runtime/diagnostic.hpp>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace pto::runtime {

namespace {

// Checked mode fills fresh memory with this byte: every float type reads it as NaN.
constexpr std::byte kPoison{0xFF};

struct Region {
    std::byte* base = nullptr;
    std::size_t size = 0;
    std::vector<uint8_t> written;  // one flag per byte; empty in fast mode
    std::string name;
};

// Every region the runtime owns, by base address, so that a pointer finds its shadow state.
struct RegionRegistry {
    std::mutex mutex;
    std::map<uintptr_t, Region*> by_base;

    void add(Region* r)
    {
        std::lock_guard lock(mutex);
        by_base[reinterpret_cast<uintptr_t>(r->base)] = r;
    }
    void remove(Region* r)
    {
        std::lock_guard lock(mutex);
        by_base.erase(reinterpret_cast<uintptr_t>(r->base));
    }
    // The region containing [p, p+n), or null.
    Region* find(const void* p, std::size_t n)
    {
        std::lock_guard lock(mutex);
        const auto addr = reinterpret_cast<uintptr_t>(p);
        auto it = by_base.upper_bound(addr);
        if (it == by_base.begin()) return nullptr;
        --it;
        Region* r = it->second;
        return addr + n <= it->first + r->size ? r : nullptr;
    }
};

// Never destroyed: regions owned by static objects (the default core) unregister during exit.
RegionRegistry& regions()
{
    static auto* registry = new RegionRegistry;
    return *registry;
}

std::unique_ptr<Region> make_region(std::size_t size, std::string name)
{
    auto r = std::make_unique<Region>();
    r->size = size;
    r->name = std::move(name);
    // Over-allocate so the base is 4 KiB aligned: tile alignment rules then hold on host addresses too.
    constexpr std::size_t kAlign = 4096;
    r->base = static_cast<std::byte*>(std::aligned_alloc(kAlign, (std::max<std::size_t>(size, 1) + kAlign - 1) / kAlign * kAlign));
    if (checked()) {
        std::memset(r->base, static_cast<int>(kPoison), size);
        r->written.assign(size, 0);
    } else {
        std::memset(r->base, 0, size);
    }
    regions().add(r.get());
    return r;
}

void destroy_region(Region* r)
{
    regions().remove(r);
    std::free(r->base);
    delete r;
}

struct RegionDeleter {
    void operator()(Region* r) const { destroy_region(r); }
};
using RegionPtr = std::unique_ptr<Region, RegionDeleter>;

struct Core {
    std::array<RegionPtr, profile::kMemoryCount> memory;
};

Core make_core()
{
    Core core;
    const auto& prof = active_profile();
    for (int i = 0; i < profile::kMemoryCount; ++i) {
        const auto loc = static_cast<TileType>(i);
        const uint64_t cap = profile::capacity_of(prof, loc);
        core.memory[i] = RegionPtr(make_region(cap, std::string(profile::memory_name(loc))).release());
    }
    return core;
}

// --- global state --------------------------------------------------------------------------------
// Constant-initialised, so that registrations during static initialisation find it ready.
constinit int g_compiled_target = -1;          // first target a translation unit registered
constinit const char* g_compiled_tu = nullptr;
constinit const char* g_mismatch_tu = nullptr;  // a later translation unit that disagreed
constinit int g_mismatch_target = -1;
constinit int g_override_target = -1;           // set_target()
constinit int g_checked = -1;                   // -1: not yet read from the environment

std::mutex g_core_mutex;
std::unique_ptr<Core> g_default_core;
thread_local Core* t_core = nullptr;
thread_local uint32_t t_block_idx = 0;
thread_local uint32_t t_block_num = 1;

Core& current_core()
{
    if (t_core) return *t_core;
    std::lock_guard lock(g_core_mutex);
    if (!g_default_core) g_default_core = std::make_unique<Core>(make_core());
    return *g_default_core;
}

void reset_default_core()
{
    std::lock_guard lock(g_core_mutex);
    g_default_core.reset();
}

std::string hex(uint64_t v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

}  // namespace

// --- mode and target -----------------------------------------------------------------------------

bool checked()
{
    if (g_checked < 0) {
        const char* env = std::getenv("PTO_CHECK");
        g_checked = (env && env[0] && std::string(env) != "0") ? 1 : 0;
    }
    return g_checked == 1;
}

void set_checked(bool on)
{
    if (g_checked == int(on)) return;
    g_checked = on ? 1 : 0;
    reset_default_core();  // fresh memories with (or without) shadow state
}

bool register_compiled_target(profile::Target target, const char* translation_unit)
{
    const int t = static_cast<int>(target);
    if (g_compiled_target < 0) {
        g_compiled_target = t;
        g_compiled_tu = translation_unit;
    } else if (g_compiled_target != t && !g_mismatch_tu) {
        g_mismatch_tu = translation_unit;
        g_mismatch_target = t;
    }
    return true;
}

profile::Target active_target()
{
    if (g_mismatch_tu) {
        const auto first = profile::profile_of(static_cast<profile::Target>(g_compiled_target)).name;
        const auto other = profile::profile_of(static_cast<profile::Target>(g_mismatch_target)).name;
        fail({"RUN_TARGET_MISMATCH", "", "",
              std::string("translation units of one program were compiled for different targets (") + g_compiled_tu +
                  " and " + g_mismatch_tu + "); compile every kernel file with the same -DPTO_TARGET",
              std::string(first), std::string(other), ""});
    }
    if (g_override_target >= 0) return static_cast<profile::Target>(g_override_target);
    if (g_compiled_target >= 0) return static_cast<profile::Target>(g_compiled_target);
    return profile::Target::Cpu;
}

void set_target(profile::Target t)
{
    if (g_override_target == static_cast<int>(t)) return;
    g_override_target = static_cast<int>(t);
    reset_default_core();
}

const profile::Profile& active_profile() { return profile::profile_of(active_target()); }

// --- cores ---------------------------------------------------------------------------------------

uint32_t block_idx() { return t_block_idx; }
uint32_t block_num() { return t_block_num; }
uint32_t subblock_idx() { return 0; }

void launch(uint32_t blocks, void (*body)(void* ctx, uint32_t block), void* ctx)
{
    Core* const outer_core = t_core;
    const uint32_t outer_idx = t_block_idx, outer_num = t_block_num;
    struct Restore {
        Core* core; uint32_t idx, num;
        ~Restore() { t_core = core; t_block_idx = idx; t_block_num = num; }
    } restore{outer_core, outer_idx, outer_num};
    for (uint32_t b = 0; b < blocks; ++b) {
        Core core = make_core();
        t_core = &core;
        t_block_idx = b;
        t_block_num = blocks;
        body(ctx, b);
    }
}

// --- tile addresses ------------------------------------------------------------------------------

std::byte* tile_address(TileType loc, uint64_t offset, uint64_t bytes)
{
    const auto& prof = active_profile();
    const uint64_t cap = profile::capacity_of(prof, loc);
    const std::string mem(profile::memory_name(loc));
    if (loc == TileType::Ctrl || cap == 0) {
        fail({"RUN_TASSIGN_LOCATION", "TASSIGN", "tile",
              "the " + std::string(prof.name) + " profile has no " + mem + " memory", "a location with capacity",
              mem, ""});
    }
    if (offset > cap || bytes > cap - offset) {
        fail({"RUN_TASSIGN_RANGE", "TASSIGN", "tile",
              "tile of " + std::to_string(bytes) + " bytes at offset " + hex(offset) + " ends past the end of " + mem +
                  " (" + std::to_string(cap) + " bytes on " + std::string(prof.name) + ")",
              "offset + size <= " + std::to_string(cap), std::to_string(offset + bytes), ""});
    }
    if (checked() && offset % prof.tile_alignment != 0) {
        fail({"RUN_TASSIGN_ALIGN", "TASSIGN", "tile",
              "tile address " + hex(offset) + " in " + mem + " is not aligned",
              "a multiple of " + std::to_string(prof.tile_alignment), hex(offset), ""});
    }
    return current_core().memory[static_cast<int>(loc)]->base + offset;
}

std::shared_ptr<std::byte> allocate_auto(TileType loc, uint64_t bytes)
{
    Region* r = make_region(bytes, "auto " + std::string(profile::memory_name(loc)) + " tile").release();
    return std::shared_ptr<std::byte>(r->base, [r](std::byte*) { destroy_region(r); });
}

// --- shadow state --------------------------------------------------------------------------------

void mark_written(const void* p, std::size_t n)
{
    if (!checked() || n == 0) return;
    if (Region* r = regions().find(p, n); r && !r->written.empty()) {
        const auto off = static_cast<std::size_t>(static_cast<const std::byte*>(p) - r->base);
        std::fill_n(r->written.begin() + off, n, uint8_t{1});
    }
}

int64_t first_unwritten(const void* p, std::size_t n)
{
    if (!checked() || n == 0) return -1;
    Region* r = regions().find(p, n);
    if (!r || r->written.empty()) return -1;
    const auto off = static_cast<std::size_t>(static_cast<const std::byte*>(p) - r->base);
    const auto begin = r->written.begin() + off;
    const auto it = std::find(begin, begin + n, uint8_t{0});
    return it == begin + n ? -1 : it - begin;
}

// --- global memory -------------------------------------------------------------------------------

namespace {
struct GlobalAllocation {
    std::size_t bytes;
    std::string name;
};
std::mutex g_global_mutex;
// Never destroyed, for the same reason as the region registry.
std::map<uintptr_t, GlobalAllocation>& global_allocations()
{
    static auto* m = new std::map<uintptr_t, GlobalAllocation>;
    return *m;
}
}  // namespace

void register_global(const void* base, std::size_t bytes, const char* name)
{
    std::lock_guard lock(g_global_mutex);
    global_allocations()[reinterpret_cast<uintptr_t>(base)] = {bytes, name ? name : "global"};
}

void unregister_global(const void* base)
{
    std::lock_guard lock(g_global_mutex);
    global_allocations().erase(reinterpret_cast<uintptr_t>(base));
}

int64_t global_bytes_after(const void* p)
{
    std::lock_guard lock(g_global_mutex);
    const auto addr = reinterpret_cast<uintptr_t>(p);
    auto& m = global_allocations();
    auto it = m.upper_bound(addr);
    if (it == m.begin()) return -1;
    --it;
    if (addr >= it->first + it->second.bytes) return -1;
    return static_cast<int64_t>(it->first + it->second.bytes - addr);
}

}  // namespace pto::runtime
