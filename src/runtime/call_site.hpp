// Where in a C++ kernel an instruction was called: in checked mode the engine's entry points and the
// synchronisation calls note the address their call returns to, and a finding of the run-time
// synchronisation check names the kernel's file and line from it (through the binary's line tables,
// when it has them).
#pragma once

#include <optional>
#include <string>

namespace pto::runtime {

// Checked mode: the calling thread's next instruction or synchronisation was called from code that
// returns to `return_address`.
void note_call_site(const void* return_address);
// Takes the noted call site (null if none was noted since the last take).
const void* take_call_site();

// "kernel.cpp:42": the first place outside ptosim's headers on the inline chain of the call that
// returns to `return_address` (the kernel's line when the intrinsic was inlined into it, as optimised
// builds do); empty when there is none, the binary has no line tables there, or addr2line is missing.
std::optional<std::string> kernel_source_line(const void* return_address);

}  // namespace pto::runtime

// Notes the call site of the function it is written in (an engine entry point).
#define PTO_NOTE_CALL_SITE() ::pto::runtime::note_call_site(__builtin_return_address(0))
