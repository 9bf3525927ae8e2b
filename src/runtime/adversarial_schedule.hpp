// The adversarial schedule of one core (pto/runtime/schedule.hpp): tile instructions are held back
// with the synchronisation issued before them, then run in the order the device could choose that is
// furthest from the program's.
//
// Held-back work runs (settles) when the core would observe it: before any instruction that is not
// held back (cross-core operations, instructions that return a value to the program, the
// micro-instructions of the text door), before the kernel's own scalar accesses to tiles, and when the
// core ends. Among the held-back instructions whose pipe predecessors and synchronisation
// predecessors have run, the one issued last runs next.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>

#include <pto/common/type.hpp>
#include <pto/runtime/sync.hpp>

namespace pto::runtime::adversary {

class CoreSchedule;

// While it lives, and the schedule is adversarial, the calling thread's core holds its tile
// instructions back. finish() runs what is left at the core's normal end; a core that fails drops it.
class CoreScope {
public:
    CoreScope();
    ~CoreScope();
    CoreScope(const CoreScope&) = delete;
    CoreScope& operator=(const CoreScope&) = delete;
    void finish();

private:
    std::unique_ptr<CoreSchedule> schedule_;
    CoreSchedule* previous_;
};

// Whether an instruction beginning now on the calling thread is held back: the adversarial schedule
// runs its core, and no instruction is running (nor held-back work).
bool holds_back();

// Holds back the instruction `name` whose first source and first destination tile live at `src` and
// `dst` (none: a global view or no such operand); `run` executes it with copies of its operands. An
// instruction the synchronisation check does not track runs now instead.
void hold_back(const char* name, std::optional<TileType> src, std::optional<TileType> dst, std::function<void()> run);

// Runs the held-back work of the calling thread's core (nothing outside one, or while it runs).
void settle();

// Runs `release` (which frees memory held-back instructions may still use: a tile's automatic
// storage, a frame's) once the calling thread's core holds nothing back; at once when it holds nothing.
void after_held_back_work(std::function<void()> release);

// A synchronisation operation of the calling thread's core, in program order.
void note_sync(const SyncRecord& record);

}  // namespace pto::runtime::adversary
