#include "runtime/order_checker.hpp"

#include <algorithm>
#include <array>
#include <compare>
#include <exception>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include <pto/engine/pipes.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>
#include <pto/runtime/schedule.hpp>

#include "engine/definition.hpp"
#include "runtime/call_site.hpp"
#include "runtime/memory_regions.hpp"
#include "runtime/pipe_clocks.hpp"
#include "runtime/scheduler.hpp"

namespace pto::runtime::order {

namespace {

using engine::kPipeCount;
using Clock = PipeClock;

thread_local BlockChecker* t_checker = nullptr;
thread_local const SourceSites* t_sites = nullptr;

// The pipe of a tracked instruction: a tile instruction's from where its first source and first
// destination live, a micro-instruction's the one it states.
struct PipeRule {
    engine::Instr instr{};
    std::optional<pipe_t> stated;

    std::size_t pipe(TileType src, TileType dst) const
    {
        return std::size_t(stated ? *stated : engine::instruction_pipe(instr, src, dst));
    }
};

// Every tile instruction; nothing for other scopes.
std::optional<PipeRule> pipe_rule(std::string_view name)
{
    static const auto* table = [] {
        auto* m = new std::unordered_map<std::string_view, PipeRule>;
        for (std::size_t i = 0; i < engine::kInstrNames.size(); ++i) m->emplace(engine::kInstrNames[i], PipeRule{engine::Instr(i), std::nullopt});
        return m;
    }();
    const auto it = table->find(name);
    return it == table->end() ? std::nullopt : std::optional(it->second);
}

std::string pipe_text(std::size_t pipe) { return std::string(engine::pipe_short_name(pipe_t(pipe))); }

std::string flag_text(std::string_view op, int32_t src, int32_t dst, int32_t event, bool is_event)
{
    return std::string(op) + "(" + pipe_text(std::size_t(src)) + ", " + pipe_text(std::size_t(dst)) + ", " +
           (is_event ? std::string("an Event") : "EVENT_ID" + std::to_string(event)) + ")";
}

// One executed instruction or synchronisation operation, as diagnostics name it.
struct Site {
    const char* name;
    uint32_t ordinal;     // its number in the block, from 1
    const void* source;   // the text door's operation, or null
    const void* call;     // C++ (checked mode): where its call returns to
};

struct Flag {
    Clock clock;  // what the setting pipe knew when it set the flag, its own operations included
    Site set_by;  // the set_flag
    // A text door's set_flag as diagnostics name it and where it is written, described at once (the
    // program's locations may be gone when the block ends); a C++ one's line is looked up only if needed.
    std::string text_name, text_location;
};

// A run of bytes with the same history: per pipe, the number of its last write and its last read.
struct Segment {
    uintptr_t end;
    Clock write{}, read{};
};

struct Pending {
    const std::byte* p;
    std::size_t n, pitch, lines;
    bool write, global, atomic;
    uint32_t stamp;  // global accesses: the core's clock when they happened (GlobalFootprint::stamps)
};

}  // namespace

class BlockChecker {
public:
    BlockChecker()
    {
        footprint_.core = current_core_index().value_or(0);
        footprint_.name = describe_calling_core();
    }

    CoreClock release()
    {
        const uint32_t self = footprint_.core;
        clock_.set(self, clock_.of(self) + 1);
        clock_changed_ = true;
        return clock_;
    }

    void acquire(const CoreClock& clock)
    {
        if (clock_.join(clock)) clock_changed_ = true;
    }

    void instruction_begins(const char* name, std::optional<PipeRule> rule)
    {
        const void* call_site = take_call_site();  // taken at every depth: an inner entry point notes its own
        if (tracked_depth_ < 0) raise_finding();  // may fail: before the scope counts
        ++depth_;
        if (tracked_depth_ >= 0) return;  // inside another tracked instruction: its accesses are that one's
        if (rule) {
            tracked_depth_ = depth_;
            rule_ = *rule;
            name_ = name;
            source_ = t_sites ? t_sites->current(t_sites->context) : nullptr;
            call_ = call_site;
        }
    }

    void instruction_ends()
    {
        if (depth_ == tracked_depth_) {
            tracked_depth_ = -1;
            // An instruction that failed ends the block: nothing of it is checked. A finding is raised
            // when the next operation begins (a destructor must not throw), but described now, while
            // the memories and the program it names live.
            if (std::uncaught_exceptions() == 0) commit();
            pending_.clear();
        }
        --depth_;
    }

    void note(const void* p, std::size_t n, std::size_t pitch, std::size_t lines, bool write, bool global, bool atomic)
    {
        if (tracked_depth_ < 0 || n == 0 || lines == 0) return;
        const auto* b = static_cast<const std::byte*>(p);
        // A tile instruction notes its global accesses itself; a micro-instruction's pointer may point anywhere.
        if (!global && rule_.stated && !memory_location(p)) global = true;
        if (lines == 1) pitch = n;
        const uint32_t stamp = global ? current_stamp() : 0;
        if (!pending_.empty()) {  // the next piece of a run the last note began
            Pending& last = pending_.back();
            if (last.lines == 1 && lines == 1 && last.write == write && last.global == global && last.atomic == atomic &&
                last.stamp == stamp && last.p + last.n == b) {
                last.n += n;
                last.pitch = last.n;
                return;
            }
        }
        pending_.push_back({b, n, pitch, lines, write, global, atomic, stamp});
    }

    void sync(const SyncRecord& r)
    {
        saw_sync_ = true;
        raise_finding();
        const Site site = next_site(sync_name(r.kind), t_sites ? t_sites->current(t_sites->context) : nullptr, take_call_site());
        const bool set = r.kind == SyncKind::SetFlag || r.kind == SyncKind::EventRecord;
        const bool wait = r.kind == SyncKind::WaitFlag || r.kind == SyncKind::EventWait;
        if (r.kind == SyncKind::PipeBarrier && r.src_pipe == PIPE_ALL) {
            clocks_.barrier_all();
            return;
        }
        // A barrier of one pipe orders that pipe with itself, which it already is; so does TSYNC.
        FlagKey key;
        if ((!set && !wait) || !flag_of(r, key)) return;
        const bool is_event = key.object != nullptr;
        const auto it = flags_.find(key);
        if (set) {
            // The block has synchronised (this is a synchronisation operation): a protocol finding stops it at once.
            if (it != flags_.end())
                fail({"ORDER_SET_TWICE", site.name, "", "the flag is already set and not yet waited (set by " + set_by(it->second) + ")",
                      flag_text("wait_flag", key.src, key.dst, key.event, is_event) + " before setting it again",
                      "a second " + flag_text("set_flag", key.src, key.dst, key.event, is_event), location(site)});
            Flag& flag = flags_[key] = Flag{clocks_.carried_by_set(std::size_t(key.src)), site, "", ""};
            if (site.source) {
                flag.text_name = describe(site);
                flag.text_location = location(site);
            }
            return;
        }
        if (it == flags_.end())
            fail({"ORDER_WAIT_WITHOUT_SET", site.name, "", "no set_flag for this wait: the waiting pipe would stall forever",
                  "an earlier " + flag_text("set_flag", key.src, key.dst, key.event, is_event),
                  "no outstanding set_flag with this pipe pair and event", location(site)});
        clocks_.wait(std::size_t(key.dst), it->second.clock);
        flags_.erase(it);
    }

    GlobalFootprint finish()
    {
        raise_finding();
        if (saw_sync_ && !flags_.empty()) {
            const auto first = std::min_element(flags_.begin(), flags_.end(), [](const auto& a, const auto& b) {
                return a.second.set_by.ordinal < b.second.set_by.ordinal;
            });
            const FlagKey& key = first->first;
            const bool is_event = key.object != nullptr;
            fail({"ORDER_UNWAITED_SET", is_event ? "record_event" : "set_flag", "",
                  "the flag " + set_by(first->second) + " set is still set when the block ends",
                  flag_text("wait_flag", key.src, key.dst, key.event, is_event) + " before the end", "none",
                  set_location(first->second)});
        }
        // Per kind and clock, overlapping and touching spans become one (named by its first instruction),
        // so that the cross-core sweep sees a few spans per core however often it touched the same bytes.
        auto& spans = footprint_.spans;
        const auto key = [](const GlobalFootprint::Span& x) { return std::tie(x.kind, x.stamp, x.begin); };
        std::sort(spans.begin(), spans.end(), [&](const auto& a, const auto& b) { return key(a) < key(b); });
        std::size_t kept = 0;
        for (const auto& span : spans) {
            if (kept && spans[kept - 1].kind == span.kind && spans[kept - 1].stamp == span.stamp && span.begin <= spans[kept - 1].end) {
                spans[kept - 1].end = std::max(spans[kept - 1].end, span.end);
                continue;
            }
            spans[kept++] = span;
        }
        spans.resize(kept);
        return std::move(footprint_);
    }

    // "TLOAD at kernel.pto:3:5" (text), "TLOAD (instruction 3 of block 0) at kernel.cpp:42" (C++, the
    // line when the binary has line tables).
    std::string describe(const Site& s) const
    {
        if (s.source && t_sites && t_sites->describe) return std::string(s.name) + " at " + t_sites->describe(t_sites->context, s.source);
        std::string named = std::string(s.name) + " (instruction " + std::to_string(s.ordinal) + " of " + describe_calling_core() + ")";
        if (const std::string line = location(s); !line.empty()) named += " at " + line;
        return named;
    }

private:
    static const char* sync_name(SyncKind kind)
    {
        switch (kind) {
        case SyncKind::SetFlag: return "set_flag";
        case SyncKind::WaitFlag: return "wait_flag";
        case SyncKind::PipeBarrier: return "pipe_barrier";
        case SyncKind::EventRecord: return "record_event";
        case SyncKind::EventWait: return "wait_event";
        case SyncKind::Tsync: return "TSYNC";
        }
        return "sync";
    }

    Site next_site(const char* name, const void* source, const void* call) { return {name, ++ordinal_, source, call}; }

    // The index of the core's clock as it is now among the footprint's stamps.
    uint32_t current_stamp()
    {
        if (clock_changed_) {
            footprint_.stamps.push_back(clock_);
            clock_changed_ = false;
        }
        return uint32_t(footprint_.stamps.size() - 1);
    }

    // A flag's set_flag as diagnostics name it, and where it is written.
    std::string set_by(const Flag& f) const { return f.set_by.source ? f.text_name : describe(f.set_by); }
    std::string set_location(const Flag& f) const { return f.set_by.source ? f.text_location : location(f.set_by); }

    // Where the operation is written: file:line:col in text, the kernel's file:line in C++, else empty.
    std::string location(const Site& s) const
    {
        if (s.source) return t_sites && t_sites->describe ? t_sites->describe(t_sites->context, s.source) : std::string();
        return s.call ? kernel_source_line(s.call).value_or("") : std::string();
    }

    // The block's first finding stops the run at its next operation once the block has synchronised:
    // before its first synchronisation operation, the finding waits for one.
    void report(Diagnostic d)
    {
        if (!finding_) finding_ = std::move(d);
    }

    // A synchronisation finding is itself raised at once.
    void raise_finding()
    {
        if (saw_sync_ && finding_) fail(std::move(*finding_));
    }

    // Checks and records the accesses of the instruction that ended.
    void commit()
    {
        std::optional<TileType> src, dst;
        for (const Pending& a : pending_) {
            if (a.global) continue;
            auto& slot = a.write ? dst : src;
            if (!slot) slot = memory_location(a.p);
        }
        const std::size_t pipe = rule_.pipe(src.value_or(TileType::Vec), dst.value_or(TileType::Vec));
        const Site site = next_site(name_, source_, call_);
        history_[pipe].push_back(site);
        const uint32_t seq = clocks_.issue(pipe);
        uint32_t global_instruction = UINT32_MAX;
        for (const Pending& a : pending_)
            for (std::size_t line = 0; line < a.lines; ++line) {
                const auto begin = reinterpret_cast<uintptr_t>(a.p + line * a.pitch);
                access(begin, begin + a.n, a.write, pipe, seq);
                if (!a.global) continue;
                if (global_instruction == UINT32_MAX) {
                    global_instruction = uint32_t(footprint_.instructions.size());
                    footprint_.instructions.push_back(describe(site));
                }
                footprint_add(begin, begin + a.n, uint8_t(a.atomic ? 2 : a.write ? 1 : 0), global_instruction, a.stamp);
            }
    }

    void footprint_add(uintptr_t begin, uintptr_t end, uint8_t kind, uint32_t instruction, uint32_t stamp)
    {
        auto& spans = footprint_.spans;
        if (!spans.empty() && spans.back().end == begin && spans.back().kind == kind && spans.back().instruction == instruction &&
            spans.back().stamp == stamp) {
            spans.back().end = end;
            return;
        }
        spans.push_back({begin, end, kind, instruction, stamp});
    }

    // Splits the segment holding x (if x falls inside one) so that one begins at x.
    void split_at(uintptr_t x)
    {
        auto it = segments_.upper_bound(x);
        if (it == segments_.begin()) return;
        --it;
        if (it->first < x && x < it->second.end) {
            Segment right = it->second;
            it->second.end = x;
            segments_.emplace_hint(std::next(it), x, right);
        }
    }

    void access(uintptr_t begin, uintptr_t end, bool write, std::size_t pipe, uint32_t seq)
    {
        split_at(begin);
        split_at(end);
        auto it = segments_.lower_bound(begin);
        for (uintptr_t at = begin; at < end;) {
            if (it == segments_.end() || it->first > at)
                it = segments_.emplace_hint(it, at, Segment{it == segments_.end() ? end : std::min(end, it->first)});
            Segment& s = it->second;
            if (!finding_) check(it->first, s, write, pipe);
            (write ? s.write : s.read)[pipe] = seq;
            at = s.end;
            ++it;
        }
        merge(begin, end);
    }

    // Joins the neighbouring segments of [begin, end) that have the same history.
    void merge(uintptr_t begin, uintptr_t end)
    {
        auto it = segments_.lower_bound(begin);
        if (it != segments_.begin()) --it;
        while (it != segments_.end() && it->first <= end) {
            auto next = std::next(it);
            if (next != segments_.end() && it->second.end == next->first && it->second.write == next->second.write &&
                it->second.read == next->second.read) {
                it->second.end = next->second.end;
                segments_.erase(next);
                continue;
            }
            it = next;
        }
    }

    void check(uintptr_t at, const Segment& s, bool write, std::size_t pipe)
    {
        const Clock& known = clocks_.known[pipe];
        for (std::size_t other = 0; other < kPipeCount; ++other) {
            if (other == pipe) continue;
            if (s.write[other] > known[other]) return missing_sync(at, s, s.write[other], "wrote", write, other, pipe);
            if (write && s.read[other] > known[other]) return missing_sync(at, s, s.read[other], "read", write, other, pipe);
        }
    }

    void missing_sync(uintptr_t at, const Segment& s, uint32_t earlier_seq, std::string_view earlier_verb, bool write,
                      std::size_t from, std::size_t to)
    {
        const Site& earlier = history_[from][earlier_seq - 1];
        const Site now{name_, ordinal_, source_, call_};
        const std::string src = pipe_text(from), dst = pipe_text(to);
        // A flag from `from` to `to` set after the first access but never waited is the likeliest slip.
        std::string got = "no synchronisation from " + src + " to " + dst;
        for (const auto& [key, flag] : flags_)
            if (std::size_t(key.src) == from && std::size_t(key.dst) == to && flag.clock[from] >= earlier_seq) {
                got = flag_text("set_flag", key.src, key.dst, key.event, key.object != nullptr) + " by " + set_by(flag) +
                      " without its wait_flag";
                break;
            }
        report({"ORDER_MISSING_SYNC", name_, "",
                std::string(write ? "overwrites " : "reads ") + describe_bytes(reinterpret_cast<const void*>(at), s.end - at) +
                    ", which " + describe(earlier) + " " + std::string(earlier_verb) + " on pipe " + src + ", while " + name_ +
                    " runs on pipe " + dst,
                "set_flag(" + src + ", " + dst + ", EVENT_IDn) / wait_flag(" + src + ", " + dst + ", EVENT_IDn) between " +
                    describe(earlier) + " and this " + name_,
                got, location(now)});
    }

    // The instruction being tracked (its outermost scope's depth; -1: none), and its accesses.
    int depth_ = 0, tracked_depth_ = -1;
    PipeRule rule_;
    const char* name_ = "";
    const void* source_ = nullptr;
    const void* call_ = nullptr;
    std::vector<Pending> pending_;

    PipeClocks clocks_;
    std::array<std::vector<Site>, kPipeCount> history_;  // each pipe's instructions, by number
    uint32_t ordinal_ = 0;
    std::map<FlagKey, Flag> flags_;
    std::map<uintptr_t, Segment> segments_;  // by first byte
    bool saw_sync_ = false;
    std::optional<Diagnostic> finding_;  // the first, not raised yet
    CoreClock clock_;            // what the core knows of the others (and its own releases)
    bool clock_changed_ = true;  // since its last stamp
    GlobalFootprint footprint_;
};

SourceSiteScope::SourceSiteScope(const SourceSites* sites) : previous_(t_sites) { t_sites = sites; }
SourceSiteScope::~SourceSiteScope() { t_sites = previous_; }

BlockCheck::BlockCheck() : previous_(t_checker)
{
    // The adversarial schedule runs instructions out of program order on purpose: nothing to judge.
    if (!checked() || schedule() == Schedule::Adversarial) return;
    checker_ = std::make_unique<BlockChecker>();
    t_checker = checker_.get();
}

BlockCheck::~BlockCheck()
{
    if (checker_) t_checker = previous_;
}

GlobalFootprint BlockCheck::finish() { return checker_ ? checker_->finish() : GlobalFootprint{}; }

bool checking() { return t_checker != nullptr; }

void instruction_begins(const char* name)
{
    if (t_checker) t_checker->instruction_begins(name, pipe_rule(name));
}

void instruction_begins(const char* name, pipe_t pipe)
{
    if (t_checker) t_checker->instruction_begins(name, PipeRule{.stated = pipe});
}

void instruction_ends()
{
    if (t_checker) t_checker->instruction_ends();
}

void note_access(const void* p, std::size_t n, std::size_t pitch, std::size_t lines, bool write)
{
    if (t_checker) t_checker->note(p, n, pitch, lines, write, false, false);
}

void note_global_access(const void* p, std::size_t n, std::size_t pitch, std::size_t lines, bool write, bool atomic)
{
    if (t_checker) t_checker->note(p, n, pitch, lines, write || atomic, true, atomic);
}

std::optional<std::size_t> tracked_pipe(std::string_view instruction, std::optional<TileType> src, std::optional<TileType> dst)
{
    const auto rule = pipe_rule(instruction);
    if (!rule) return std::nullopt;
    return rule->pipe(src.value_or(TileType::Vec), dst.value_or(TileType::Vec));
}

void note_sync(const SyncRecord& record)
{
    if (t_checker) t_checker->sync(record);
}

uint32_t CoreClock::of(uint32_t core) const
{
    const auto it = std::lower_bound(entries_.begin(), entries_.end(), std::pair(core, 0u));
    return it != entries_.end() && it->first == core ? it->second : 0;
}

void CoreClock::set(uint32_t core, uint32_t releases)
{
    const auto it = std::lower_bound(entries_.begin(), entries_.end(), std::pair(core, 0u));
    if (it != entries_.end() && it->first == core) it->second = releases;
    else entries_.insert(it, {core, releases});
}

bool CoreClock::join(const CoreClock& other)
{
    std::vector<std::pair<uint32_t, uint32_t>> joined;
    joined.reserve(entries_.size() + other.entries_.size());
    bool grew = false;
    auto a = entries_.begin();
    auto b = other.entries_.begin();
    while (a != entries_.end() || b != other.entries_.end()) {
        if (b == other.entries_.end() || (a != entries_.end() && a->first < b->first)) {
            joined.push_back(*a++);
        } else if (a == entries_.end() || b->first < a->first) {
            joined.push_back(*b++);
            grew = true;
        } else {
            grew |= b->second > a->second;
            joined.push_back({a->first, std::max(a->second, b->second)});
            ++a;
            ++b;
        }
    }
    if (grew) entries_ = std::move(joined);
    return grew;
}

CoreClock release() { return t_checker ? t_checker->release() : CoreClock{}; }

void acquire(const CoreClock& clock)
{
    if (t_checker) t_checker->acquire(clock);
}

void check_cross_core(const std::vector<GlobalFootprint>& cores)
{
    struct Entry {
        const GlobalFootprint::Span* span;
        const GlobalFootprint* core;
    };
    std::vector<Entry> all;
    for (const GlobalFootprint& core : cores)
        for (const auto& s : core.spans) all.push_back({&s, &core});
    if (all.empty()) return;
    std::sort(all.begin(), all.end(), [](const Entry& a, const Entry& b) {
        return std::tie(a.span->begin, a.core->core) < std::tie(b.span->begin, b.core->core);
    });
    // `a` happened before `b` when b's core had heard of a release of a's core made after `a`.
    const auto before = [](const Entry& a, const Entry& b) {
        const uint32_t core = a.core->core;
        return b.core->stamps[b.span->stamp].of(core) > a.core->stamps[a.span->stamp].of(core);
    };
    // Sweep by first byte, keeping the spans still open; two spans of different cores conflict when
    // one writes, unless both are atomic adds or one happened before the other. The reported pair is
    // the one of the lowest cores.
    std::vector<const Entry*> open;
    const Entry* first_a = nullptr;
    const Entry* first_b = nullptr;
    for (const Entry& e : all) {
        std::erase_if(open, [&](const Entry* o) { return o->span->end <= e.span->begin; });
        for (const Entry* o : open) {
            if (o->core == e.core || (o->span->kind == 0 && e.span->kind == 0) || (o->span->kind == 2 && e.span->kind == 2)) continue;
            if (before(*o, e) || before(e, *o)) continue;
            const Entry* lo = o->core->core < e.core->core ? o : &e;
            const Entry* hi = o->core->core < e.core->core ? &e : o;
            if (!first_a || std::tie(lo->core->core, hi->core->core) < std::tie(first_a->core->core, first_b->core->core)) {
                first_a = lo;
                first_b = hi;
            }
        }
        open.push_back(&e);
    }
    if (!first_a) return;
    static constexpr const char* kVerb[] = {"reads", "writes", "atomically adds to"};
    const uintptr_t begin = std::max(first_a->span->begin, first_b->span->begin);
    const uintptr_t end = std::min(first_a->span->end, first_b->span->end);
    const auto& a_name = first_a->core->instructions[first_a->span->instruction];
    const auto& b_name = first_b->core->instructions[first_b->span->instruction];
    fail({"ORDER_CROSS_CORE_RACE", "", "",
          first_b->core->name + " " + kVerb[first_b->span->kind] + " " +
              describe_bytes(reinterpret_cast<const void*>(begin), end - begin) + " (" + b_name + "), which " +
              first_a->core->name + " " + kVerb[first_a->span->kind] + " (" + a_name + "), with nothing ordering the two cores",
          "each global byte written by one core only and read by no other, unless a cross-core synchronisation "
          "(a pipe's TPUSH/TPOP/TFREE, a cross-core flag's set and wait, SYNCALL) orders the two accesses, or atomic adds only",
          "two cores", ""});
}

}  // namespace pto::runtime::order
