#pragma once
// Checking a device ordinal before using it, with an error that lists the GPUs there are.
#include <string>
#include <vector>

namespace roofkit {

/// The message for a device ordinal that does not exist: "device 7 does not exist; 1 GPU
/// visible: 0 = NVIDIA H100 80GB HBM3" (`names` are the visible devices, by ordinal).
std::string missing_device_message(int ordinal, const std::vector<std::string>& names);

/// Throws usage_error (exit 2) with missing_device_message when `ordinal` names no visible
/// device, no_device_error (exit 3) when there is no GPU at all; returns otherwise.
void require_device(int ordinal);

} // namespace roofkit
