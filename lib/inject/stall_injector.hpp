#pragma once
// The injected library's warp-stall mode (ROOFKIT_PROFILE_STALLS=on, `profile --stalls`): no
// counters and no replay, only CUPTI PC sampling on every context from its creation, written
// per function as "stalls" records at exit. PC sampling cannot share a pass with the range
// profiler, so `profile` runs the application once more in this mode.
namespace roofkit::inject {

/// Whether the environment asks for the stall mode.
bool stall_mode_requested();
/// Subscribes to the contexts' creation and destruction, module unloads and launches.
void start_stall_sampling();

} // namespace roofkit::inject
