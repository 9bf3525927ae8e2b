// Binds a 16 KiB tile 8 KiB before the end of the a5 unified buffer (256 KiB): the runtime must stop
// it with RUN_TASSIGN_RANGE. The same offset is legal on the cpu profile's memory only if it fits.
#include <pto/pto-inst.hpp>

using namespace pto;

int main()
{
    Tile<TileType::Vec, float, 64, 64> t;  // 16 KiB
    TASSIGN(t, 256 * 1024 - 8 * 1024);
    t.SetValue(0, 1.0f);
    return 0;
}
