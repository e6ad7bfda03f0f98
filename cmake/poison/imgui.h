// Placed first on the include path of the pure targets (common/, replays model): see DESIGN.md.
#error "a pure target (common/ or the replays model) must not include <imgui.h>: no platform libraries, threads, clocks, files or std random"
