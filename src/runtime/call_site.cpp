// Call sites of C++ instructions and their source lines (see call_site.hpp). Lines are looked up only
// when a finding is named: the addr2line tool reads the binary's line tables, once per address.
#include "runtime/call_site.hpp"

#include <pto/runtime/memory.hpp>

#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <string_view>
#include <utility>

#include <link.h>
#include <unistd.h>

namespace pto::runtime {

namespace {

thread_local const void* t_call_site = nullptr;

struct LoadedObject {
    std::string path;
    uintptr_t bias = 0;  // what its addresses are shifted by in this process
};

// The running program's file (the main program has no name among the loaded objects).
std::string executable_path()
{
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    return n > 0 ? std::string(path, std::size_t(n)) : std::string();
}

// The object file that holds `address`, and its load bias.
std::optional<LoadedObject> object_of(uintptr_t address)
{
    struct Search {
        uintptr_t address;
        std::optional<LoadedObject> found;
    } search{address, std::nullopt};
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* data) {
            auto& s = *static_cast<Search*>(data);
            for (int i = 0; i < info->dlpi_phnum; ++i) {
                const ElfW(Phdr)& ph = info->dlpi_phdr[i];
                if (ph.p_type != PT_LOAD) continue;
                const uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
                if (s.address < begin || s.address >= begin + ph.p_memsz) continue;
                s.found = LoadedObject{info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : executable_path(),
                                       uintptr_t(info->dlpi_addr)};
                return 1;
            }
            return 0;
        },
        &search);
    return search.found;
}

// ptosim's own headers (installed or in the source tree) are not the kernel's code.
bool in_ptosim_headers(std::string_view file) { return file.find("/include/pto/") != std::string_view::npos; }

std::optional<std::string> look_up(uintptr_t address)
{
    const auto object = object_of(address);
    if (!object || object->path.empty() || object->path.find('\'') != std::string::npos) return std::nullopt;
    // The call instruction lies just before the return address.
    char command[512];
    std::snprintf(command, sizeof command, "addr2line -i -e '%s' 0x%llx 2>/dev/null", object->path.c_str(),
                  static_cast<unsigned long long>(address - 1 - object->bias));
    FILE* pipe = popen(command, "r");
    if (!pipe) return std::nullopt;
    std::optional<std::string> found;
    char text[1024];
    while (std::fgets(text, sizeof text, pipe)) {  // the innermost inlined frame first, then its callers
        std::string_view at(text);
        while (!at.empty() && (at.back() == '\n' || at.back() == '\r')) at.remove_suffix(1);
        if (const auto note = at.find(" ("); note != std::string_view::npos) at = at.substr(0, note);  // "(discriminator 1)"
        if (found || at.empty() || at.front() == '?' || at.ends_with(":?") || at.ends_with(":0") || in_ptosim_headers(at)) continue;
        const auto slash = at.rfind('/');
        found = std::string(slash == std::string_view::npos ? at : at.substr(slash + 1));
    }
    pclose(pipe);
    return found;
}

}  // namespace

void note_call_site(const void* return_address)
{
    if (checked()) t_call_site = return_address;
}

const void* take_call_site() { return std::exchange(t_call_site, nullptr); }

std::optional<std::string> kernel_source_line(const void* return_address)
{
    static std::mutex mutex;
    static std::map<const void*, std::optional<std::string>> lines;
    std::lock_guard lock(mutex);
    const auto [it, added] = lines.try_emplace(return_address);
    if (added) it->second = look_up(reinterpret_cast<uintptr_t>(return_address));
    return it->second;
}

}  // namespace pto::runtime
