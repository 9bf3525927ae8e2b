// The `!pto.align` streams: an unaligned store stream writes whole 32-byte blocks as it goes and holds
// the bytes of its last partial block until a flush (vsta, vstas, vstar) writes them; an unaligned
// load stream is primed with the block its first address lies in. The state is a value: each stream
// operation takes one and gives the next, so a broken chain is reported, not silently mis-merged.
#include <pto/engine/ops/vector_memory.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <cstring>
#include <string>

namespace pto::engine::vector {

namespace {

int64_t block_of(int64_t at) { return at - at % kBlockBytes; }

[[noreturn]] void broken(const std::string& what, const std::string& expected, int64_t at)
{
    runtime::fail({"RUN_ALIGN_STREAM", "", "align", what, expected, "UB byte " + std::to_string(at), ""});
}

}  // namespace

AlignState stream_append(const AlignState& in, int64_t at, const std::byte* data, int n, StreamCommit& commit)
{
    if (in.load) broken("a store stream takes a store-side alignment state (pto.init_align), not a load stream's", "a store-side state", at);
    if (in.position >= 0 && at != in.position)
        broken("the store does not continue the stream its alignment state holds", "UB byte " + std::to_string(in.position), at);
    // The held bytes, then the new ones: one run from `start`.
    const int64_t start = at - in.pending;
    std::array<std::byte, kRegisterBytes + kBlockBytes> run{};
    std::memcpy(run.data(), in.bytes.data(), std::size_t(in.pending));
    std::memcpy(run.data() + in.pending, data, std::size_t(n));
    const int64_t end = at + n;
    const int64_t whole = std::max(start, block_of(end));  // bytes before it are committed now
    commit.address = start;
    commit.count = int(whole - start);
    std::memcpy(commit.bytes.data(), run.data(), std::size_t(commit.count));
    AlignState out;
    out.position = end;
    out.pending = int(end - whole);
    std::memcpy(out.bytes.data(), run.data() + commit.count, std::size_t(out.pending));
    return out;
}

void stream_flush(const AlignState& s, int64_t at, StreamCommit& commit)
{
    if (s.load) broken("a flush takes a store stream's alignment state, not a load stream's", "a store-side state", at);
    commit.count = 0;
    if (s.pending == 0) return;
    if (at != s.position) broken("the flush is not at the position the store stream reached", "UB byte " + std::to_string(s.position), at);
    commit.address = s.position - s.pending;
    commit.count = s.pending;
    std::memcpy(commit.bytes.data(), s.bytes.data(), std::size_t(s.pending));
}

AlignState prime_load(int64_t at)
{
    AlignState s;
    s.load = true;
    s.position = block_of(at);
    return s;
}

void require_primed(const AlignState& s, int64_t at)
{
    if (!s.load) broken("an unaligned load takes a load stream's state (pto.vldas), not a store stream's", "a state from pto.vldas or pto.vldus", at);
    if (s.position != block_of(at))
        broken("the load's address is not in the block its alignment state primed",
               "an address in UB bytes [" + std::to_string(s.position) + ", " + std::to_string(s.position + kBlockBytes) + ")", at);
}

}  // namespace pto::engine::vector
