// Precompiled header for core/: LibTorch is the expensive part of every unit here.
#pragma once
#include <torch/script.h>
#include <torch/torch.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>
