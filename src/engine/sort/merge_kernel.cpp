#include "engine/sort/merge_kernel.hpp"

#include <cstring>
#include <vector>

namespace pto::engine::merge {

namespace {

// The order key of a pair's value, its low 32 (float) or 16 (half) bits, in TSORT32's order
// (float_order.hpp), computed without branches: the sign flips the other bits (negative values) or sets
// the top one (positive), and -0's key is moved up onto +0's.
template <typename Bits>
uint32_t order_key(Bits b)
{
    constexpr int kTop = int(sizeof(Bits)) * 8 - 1;
    const uint32_t flip = uint32_t(Bits(Bits(0) - Bits(b >> kTop))) | (uint32_t(1) << kTop);
    const uint32_t k = uint32_t(b) ^ flip;
    return k + uint32_t(k == (uint32_t(1) << kTop) - 1);
}
struct FloatKey {
    uint32_t operator()(uint64_t pair) const { return order_key(uint32_t(pair)); }
};
struct HalfKey {
    uint32_t operator()(uint64_t pair) const { return order_key(uint16_t(pair)); }
};

// ---- the greedy merge, for lists in any order ------------------------------------------------------------

// Merges a and b into out the greedy way: b's head goes first only when strictly larger.
template <typename Key>
void merge_greedy(std::span<const uint64_t> a, std::span<const uint64_t> b, uint64_t* out, Key key)
{
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const bool take_b = key(b[j]) > key(a[i]);
        *out++ = take_b ? b[j++] : a[i++];
    }
    std::memcpy(out, a.data() + i, (a.size() - i) * sizeof(uint64_t));
    out += a.size() - i;
    std::memcpy(out, b.data() + j, (b.size() - j) * sizeof(uint64_t));
}

// ---- the merge of sorted lists, on distinct words ----------------------------------------------------------
//
// Each pair becomes a 63-bit word, its value's key above the complement of its position in the lists'
// concatenation: words are distinct, and larger words come first exactly as the merge orders pairs
// (larger value first; among equal values the lower list, then the earlier pair). Merging words needs no
// tie rule and no key on the critical path; the pairs are fetched by position at the end.

constexpr int kPositionBits = 31;
constexpr uint64_t kPositionMask = (uint64_t{1} << kPositionBits) - 1;

// All ones when `b`, else zero: selections by mask, which compilers keep free of branches.
inline uint64_t mask_of(bool b) { return uint64_t{0} - uint64_t(b); }

// The front of one merge takes the larger head into out[0, n/2), the back the smaller tail into
// out[n/2, n): two independent chains. A step's next load hangs on its compare, so one chain runs at the
// latency of load + compare; interleaving chains keeps the core busy. An exhausted side reads as 0 at the
// front and as all ones at the back (no word is either), never through a branch.
struct FrontChain {
    const uint64_t *a, *b;
    std::ptrdiff_t i, j, na, nb;
    uint64_t* out;

    void step()
    {
        const uint64_t a_left = mask_of(i < na), b_left = mask_of(j < nb);
        const uint64_t x = a[i & std::ptrdiff_t(a_left)] & a_left, y = b[j & std::ptrdiff_t(b_left)] & b_left;
        const uint64_t take_b = mask_of(y > x);
        *out++ = (y & take_b) | (x & ~take_b);
        i += std::ptrdiff_t(1 + take_b);  // 1, or 0 when b's head was taken
        j -= std::ptrdiff_t(take_b);
    }
};

struct BackChain {
    const uint64_t *a, *b;
    std::ptrdiff_t i, j;  // the last words not yet taken
    uint64_t* out;        // the last slot not yet written

    void step()
    {
        const uint64_t a_left = mask_of(i >= 0), b_left = mask_of(j >= 0);
        const uint64_t x = a[i & std::ptrdiff_t(a_left)] | ~a_left, y = b[j & std::ptrdiff_t(b_left)] | ~b_left;
        const uint64_t take_a = mask_of(x < y);
        *out-- = (x & take_a) | (y & ~take_a);
        i += std::ptrdiff_t(take_a);  // -1 when a's tail was taken
        j -= std::ptrdiff_t(1 + take_a);
    }
};

struct TwoEnded {
    FrontChain front;
    BackChain back;
    std::size_t front_steps, back_steps;

    TwoEnded(std::span<const uint64_t> a, std::span<const uint64_t> b, uint64_t* out)
        : front{a.data(), b.data(), 0, 0, std::ptrdiff_t(a.size()), std::ptrdiff_t(b.size()), out},
          back{a.data(), b.data(), std::ptrdiff_t(a.size()) - 1, std::ptrdiff_t(b.size()) - 1, out + a.size() + b.size() - 1},
          front_steps((a.size() + b.size()) / 2),
          back_steps(a.size() + b.size() - front_steps)
    {
    }
    void finish()
    {
        for (; front_steps; --front_steps) front.step();
        for (; back_steps; --back_steps) back.step();
    }
};

// Merges the words of a and b (each descending) into out. An empty list leaves only a copy.
void merge_words(std::span<const uint64_t> a, std::span<const uint64_t> b, uint64_t* out)
{
    if (a.empty() || b.empty()) {
        std::memcpy(out, a.empty() ? b.data() : a.data(), (a.size() + b.size()) * sizeof(uint64_t));
        return;
    }
    TwoEnded m(a, b, out);
    for (; m.front_steps && m.back_steps; --m.front_steps, --m.back_steps) {
        m.front.step();
        m.back.step();
    }
    m.finish();
}

// Merges a with b into ab and c with d into cd, the four chains interleaved.
void merge_word_pairs(std::span<const uint64_t> a, std::span<const uint64_t> b, uint64_t* ab, std::span<const uint64_t> c,
                      std::span<const uint64_t> d, uint64_t* cd)
{
    if (a.empty() || b.empty() || c.empty() || d.empty()) {
        merge_words(a, b, ab);
        merge_words(c, d, cd);
        return;
    }
    TwoEnded m(a, b, ab), n(c, d, cd);
    for (; m.front_steps && m.back_steps && n.front_steps && n.back_steps; --m.front_steps, --m.back_steps, --n.front_steps, --n.back_steps) {
        m.front.step();
        n.front.step();
        m.back.step();
        n.back.step();
    }
    m.finish();
    n.finish();
}

// The greedy merge of any lists: pairwise, since the greedy merge is associative (merging 0 with 1, 2
// with 3, then the two results gives the four-way order).
template <typename Key>
void merge_greedy_all(const Lists& lists, uint64_t* out, Key key)
{
    const auto& l = lists.list;
    if (lists.count <= 2) return merge_greedy(l[0], lists.count > 1 ? l[1] : std::span<const uint64_t>{}, out, key);
    thread_local std::vector<uint64_t> low, high;
    low.resize(l[0].size() + l[1].size());
    merge_greedy(l[0], l[1], low.data(), key);
    std::span<const uint64_t> second = l[2];
    if (lists.count == 4) {
        high.resize(l[2].size() + l[3].size());
        merge_greedy(l[2], l[3], high.data(), key);
        second = high;
    }
    merge_greedy(low, second, out, key);
}

template <typename Key>
void merge_all(const Lists& lists, uint64_t* out, Key key)
{
    const auto& l = lists.list;
    std::size_t offset[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < 4; ++i) offset[i + 1] = offset[i] + (i < lists.count ? l[i].size() : 0);
    const std::size_t total = offset[4];
    thread_local std::vector<uint64_t> buffer;
    buffer.resize(3 * total);
    uint64_t* const words = buffer.data();
    uint64_t* const halves = words + total;
    uint64_t* const merged = halves + total;
    // The words, and on the way whether every list descends.
    uint32_t rises = 0;
    for (int i = 0; i < lists.count; ++i) {
        const uint64_t* pairs = l[i].data();
        uint64_t* to = words + offset[i];
        uint32_t previous = ~uint32_t{0};
        for (std::size_t k = 0, n = l[i].size(); k < n; ++k) {
            const uint32_t k32 = key(pairs[k]);
            rises |= uint32_t(k32 > previous);
            previous = k32;
            to[k] = uint64_t(k32) << kPositionBits | (kPositionMask - (offset[i] + k));
        }
    }
    if (rises) return merge_greedy_all(lists, out, key);  // the two-ended merges need sorted lists

    const auto list_words = [&](int i) { return std::span<const uint64_t>(words + offset[i], offset[i + 1] - offset[i]); };
    // Level one: 0 with 1 and 2 with 3; level two: the two results.
    merge_word_pairs(list_words(0), list_words(1), halves, list_words(2), list_words(3), halves + offset[2]);
    merge_words({halves, offset[2]}, {halves + offset[2], total - offset[2]}, merged);
    const uint64_t* bases[4] = {l[0].data(), l[1].data(), l[2].data(), l[3].data()};
    for (std::size_t o = 0; o < total; ++o) {
        const std::size_t position = kPositionMask - (merged[o] & kPositionMask);
        const int i = int(position >= offset[1]) + int(position >= offset[2]) + int(position >= offset[3]);
        out[o] = bases[i][position - offset[i]];
    }
}

template <typename Key>
std::size_t merge_counted(const Lists& lists, uint64_t* out, std::size_t limit, bool stop_at_exhausted, uint16_t (&taken)[4], Key key)
{
    std::size_t at[4] = {0, 0, 0, 0}, written = 0;
    const auto exhausted = [&] {
        for (int i = 0; i < lists.count; ++i)
            if (at[i] == lists.list[i].size()) return true;
        return false;
    };
    while (written < limit && !(stop_at_exhausted && exhausted())) {
        int pick = -1;
        uint32_t best = 0;
        for (int i = 0; i < lists.count; ++i)
            if (at[i] < lists.list[i].size() && (pick < 0 || key(lists.list[i][at[i]]) > best)) {
                pick = i;
                best = key(lists.list[i][at[i]]);
            }
        if (pick < 0) break;
        out[written++] = lists.list[pick][at[pick]++];
    }
    for (int i = 0; i < 4; ++i) taken[i] = uint16_t(at[i]);
    return written;
}

}  // namespace

void merge_all(const Lists& lists, bool half_values, uint64_t* out)
{
    if (half_values) merge_all(lists, out, HalfKey{});
    else merge_all(lists, out, FloatKey{});
}

std::size_t merge_counted(const Lists& lists, bool half_values, uint64_t* out, std::size_t limit, bool stop_at_exhausted,
                          uint16_t (&taken)[4])
{
    return half_values ? merge_counted(lists, out, limit, stop_at_exhausted, taken, HalfKey{})
                       : merge_counted(lists, out, limit, stop_at_exhausted, taken, FloatKey{});
}

int64_t first_out_of_order(std::span<const uint64_t> list, bool half_values)
{
    for (std::size_t k = 1; k < list.size(); ++k) {
        const bool rises = half_values ? HalfKey{}(list[k]) > HalfKey{}(list[k - 1]) : FloatKey{}(list[k]) > FloatKey{}(list[k - 1]);
        if (rises) return int64_t(k);
    }
    return -1;
}

}  // namespace pto::engine::merge
