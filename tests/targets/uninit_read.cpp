// Adds a tile that nothing wrote: checked mode must report RUN_UNINIT_READ; fast mode runs.
#include <pto/pto-inst.hpp>

using namespace pto;

int main()
{
    using TileData = Tile<TileType::Vec, float, 8, 64>;
    TileData a, b, c;
    TASSIGN(a, 0x0);
    TASSIGN(b, 0x800);
    TASSIGN(c, 0x1000);
    for (int i = 0; i < 8 * 64; ++i) a.SetValue(i, float(i));
    TADD(c, a, b);  // b was never written
    return 0;
}
