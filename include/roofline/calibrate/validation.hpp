#pragma once
// What `roofline validate` and `roofline calibrate` know of each measured row
// (docs/calibration.md): the measured times, the predicted ones, and the rows
// the tool could not model with the reason. Computed by src/calibrate/
// (predict.cpp), published by src/validation/ (the versioned report).
// Seconds everywhere.

#include <cstdint>
#include <string>
#include <vector>

namespace roofline::calibrate {

// One row of a measured file, as the prediction needs it (the silicon-sample
// columns, ../shared/measured/README.md).
struct RowKey {
    std::string id;              // the input's `id` column
    std::string model;           // model_path
    std::string system;          // the sample's chip name: h100_sxm, h200_sxm, b200_sxm, ...
    std::string backend;         // trtllm, vllm, sglang
    std::string backend_version;
    std::string mode;            // agg or disagg
    std::string precision;       // the `precision` column ("fp8", "bf16", "nvfp4", ...)
    std::string layout;          // "tp 8 ep 8", "tp 4", ...: how it was served (disagg: both pools)
    std::uint32_t isl = 0, osl = 0, batch = 0;
    std::uint32_t line = 0;      // 1-based line of the row in its file
};

struct RowPrediction {
    RowKey key;
    double measured_ttft_s = 0, measured_tpot_s = 0;
    // With the row's calibration (the name in `calibration`; "" when none
    // applied: then these are the uncalibrated serial roofline's).
    double predicted_ttft_s = 0, predicted_tpot_s = 0;
    // The pure roofline's (every factor 1, no overhead): the bound beside it.
    double roofline_ttft_s = 0, roofline_tpot_s = 0;
    std::string calibration;
    // The engine's KV cache held the row's batch in the model (it was served,
    // so a false here is a memory disagreement, listed as such).
    bool fits_memory = true;
    // Cross-validation: the fold whose fit predicted this row, from 0 (-1:
    // the shipped or given calibration predicted it); rows.csv writes it
    // from 1, as the calibration's name "(fold k)" does.
    int fold = -1;
};

struct SkippedRow {
    RowKey key;
    std::string reason;  // "architecture Qwen3_5MoeForCausalLM: no serve templates", ...
};

struct Validation {
    std::string measured_path;     // as given on the command line
    std::string measured_sha256;   // of its bytes
    std::size_t measured_rows = 0; // data rows in the file
    std::vector<std::string> calibration_files;  // the .roof files of the calibrations used
    std::vector<RowPrediction> rows;             // in the file's order
    std::vector<SkippedRow> skipped;             // in the file's order
    // Predicted by `roofline calibrate`'s cross-validation: each row by the
    // fit of its group without its series (RowPrediction::fold), no
    // calibration file. Its report is crossval-<stem>, not validate-<stem>.
    bool cross_validated = false;
};

}  // namespace roofline::calibrate
