// Placed first on the include path of the pure targets (common/): see docs/CONVENTIONS.md,
// "Determinism is enforced by the build".
#error \
    "a pure target (common/ or the replays model) must not include <enet/enet.h>: no platform libraries, threads, clocks, files or std random"
