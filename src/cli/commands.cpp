#include "commands.hpp"

namespace roofline::cli {

// Each in its cmd_<name>.cpp.
int cmd_run(std::vector<std::string> const& args);
int cmd_check(std::vector<std::string> const& args);
int cmd_eval(std::vector<std::string> const& args);
int cmd_hardware(std::vector<std::string> const& args);
int cmd_diff(std::vector<std::string> const& args);
int cmd_import(std::vector<std::string> const& args);
int cmd_show(std::vector<std::string> const& args);
int cmd_calibrate(std::vector<std::string> const& args);
int cmd_validate(std::vector<std::string> const& args);

namespace {

// Each entry: name, function, arguments and summary (the list of commands),
// usage line, the required argument, text. Each option as "  -s, --long
// VALUE" with its description from column 26.
constexpr Command table[] = {
    {"run",
     cmd_run,
     "SCENARIO.roof",
     "evaluate and publish a versioned report under out/",
     "roofline run SCENARIO.roof [-o OUT] [--set NAME=VALUE]... [--target HW]... [-I DIR]... "
     "[--force] [--formats LIST] [--no-charts] [--quiet]",
     "SCENARIO.roof",
     "Evaluate SCENARIO.roof and publish the report as a new version OUT/NAME/vN\n"
     "(workbook, CSV, charts, the tables it prints, manifest, a copy of the\n"
     "inputs); OUT/NAME/latest points at it. When the inputs and the options that\n"
     "change the report are those of the latest version, nothing is written: \"up\n"
     "to date\", and the latest version's tables are printed again.\n"
     "\n"
     "options:\n"
     "  -o, --output OUT        reports folder (default: out)\n"
     "  --set NAME=VALUE        replace the scenario's top-level let or sweep NAME:\n"
     "                          D=8192 (a let), B=1..64, B=1..4096 times 2, B=[1,8,64]\n"
     "                          (a sweep); a dtype too: wdt=fp8, wdt=[bf16,fp8] (a\n"
     "                          dtype sweep); once per NAME\n"
     "  --target HW             evaluate on HW instead of the scenario's targets\n"
     "                          (repeatable); 'roofline hardware' lists them\n"
     "  -I, --include DIR       also search DIR for included files (repeatable; before\n"
     "                          ROOFLINE_PATH and the shipped templates)\n"
     "  --force                 publish a new version even when nothing changed\n"
     "  --formats LIST          what the version holds, of csv (cases.csv and the\n"
     "                          other CSVs), xlsx (report.xlsx) and charts: e.g.\n"
     "                          --formats csv (default: csv,xlsx,charts)\n"
     "  --no-charts             skip the gnuplot charts (and the need for gnuplot)\n"
     "  -q, --quiet             print only the \"published\" (or \"up to date\") line,\n"
     "                          errors and warnings: no progress, no summary table\n"
     "  -h, --help              show this help\n"},
    {"show",
     cmd_show,
     "REPORT",
     "print a published report's tables (step, Plan, requests)",
     "roofline show REPORT [-o OUT]",
     "REPORT",
     "Print the tables that 'roofline run' printed when it published REPORT (the\n"
     "step summary, the Plan, the requests), from the version's summary.txt: as\n"
     "they were, whatever the scenario has become since. A report is a version\n"
     "folder, a report folder (its latest version) or NAME@vN.\n"
     "\n"
     "options:\n"
     "  -o, --output OUT        reports folder: NAME@vN means OUT/NAME/vN (default: out)\n"
     "  -h, --help              show this help\n"},
    {"check",
     cmd_check,
     "SCENARIO.roof...",
     "parse, validate and evaluate; print every diagnostic",
     "roofline check SCENARIO.roof... [-I DIR]...",
     "SCENARIO.roof",
     "Parse, check and evaluate each scenario without writing anything; print\n"
     "every error and warning, and the number of cases of each valid scenario.\n"
     "\n"
     "options:\n"
     "  -I, --include DIR       also search DIR for included files (repeatable)\n"
     "  -h, --help              show this help\n"},
    {"eval",
     cmd_eval,
     "\"A * B -> C\"",
     "evaluate one matmul (--set NAME=VALUE, --target HW)",
     "roofline eval \"A * B -> C\" [--set NAME=VALUE]... [--target HW]... [-I DIR]...",
     "the matmul \"A * B -> C\"",
     "Evaluate one matmul, written as in a scenario, on the shipped hardware\n"
     "catalog and print a table of its cases.\n"
     "\n"
     "options:\n"
     "  --set NAME=VALUE        an axis size (B=256), a range (B=1..512, B=1..512 times 2)\n"
     "                          or a list (B=[1,8,64]); once per NAME\n"
     "  --target HW             hardware to evaluate on (repeatable; default: the\n"
     "                          whole catalog)\n"
     "  -I, --include DIR       also search DIR for included files (repeatable)\n"
     "  -h, --help              show this help\n"},
    {"hardware",
     cmd_hardware,
     "[NAME]",
     "list the hardware catalog, or one chip",
     "roofline hardware [NAME] [-I DIR]...",
     nullptr,
     "List the hardware catalog (templates/hardware/catalog.roof), or show the\n"
     "chip NAME in full: bandwidths, capacity, peaks and ridge points.\n"
     "\n"
     "options:\n"
     "  -I, --include DIR       also search DIR for included files (repeatable)\n"
     "  -h, --help              show this help\n"},
    {"diff",
     cmd_diff,
     "REPORT_A REPORT_B",
     "compare two reports case by case (speedups, bound flips)",
     "roofline diff REPORT_A REPORT_B [-o OUT] [--pair A_HW=B_HW]... "
     "[--fail-if-slower PCT] [--no-charts]",
     "REPORT_A REPORT_B",
     "Compare two published reports case by case (speedups, bound flips) and\n"
     "publish the comparison under OUT/diffs/A--B. A report is a version folder,\n"
     "a report folder (its latest version) or NAME@vN.\n"
     "\n"
     "options:\n"
     "  -o, --output OUT        reports folder: NAME@vN means OUT/NAME/vN; the diff\n"
     "                          goes to OUT/diffs/ (default: out)\n"
     "  --pair A_HW=B_HW        compare hardware A_HW of REPORT_A with B_HW of\n"
     "                          REPORT_B (repeatable; then only the named pairs)\n"
     "  --fail-if-slower PCT    exit 1 when a matched case is slower in B by more\n"
     "                          than PCT percent\n"
     "  --no-charts             skip the gnuplot charts\n"
     "  -h, --help              show this help\n"},
    {"calibrate",
     cmd_calibrate,
     "MEASURED.csv",
     "fit calibrations (expected times) to measured serving rows",
     "roofline calibrate MEASURED.csv [--configs DIR] [--hardware HW]... [--backend NAME]... "
     "[--folds K] [--pool-for HW] [--ttft-weight W] [-o FILE.roof|DIR] [--report [DIR]] [--no-charts] "
     "[-I DIR]... [--quiet]",
     "MEASURED.csv",
     "Model every row of MEASURED.csv (the silicon-sample format: a measured serving\n"
     "benchmark per row, its model's config.json named in the `config` column) as\n"
     "'serve' would run it: the model imported on the row's layout and precision,\n"
     "closed(batch_size) clients, prompt isl, output osl. Then fit one calibration\n"
     "per chip and engine (efficiencies per op class and dtype, collective latency,\n"
     "launch, step, layer, sequence, prefill, request and stream overheads, the\n"
     "admission wait, the first token's steps, the per-prompt-token and\n"
     "per-request-kernel terms) by non-negative least squares on the relative\n"
     "error of the mean TTFT and TPOT (its absolute value, growing as a log past\n"
     "100 %), each measured series weighted equally, and\n"
     "the share of each benchmark's requests in its cold first wave (all clients\n"
     "at once) with them; cross-validate it by whole series. Prints the figures\n"
     "and the rows not modelled, with the reason; writes the calibrations with\n"
     "-o, and with --report publishes every row as its fold's fit predicted it\n"
     "(the rows the cv figures are of) as a validation report,\n"
     "DIR/crossval-<file>/vN.\n"
     "\n"
     "options:\n"
     "  --configs DIR           the folder of the config.json files (default: beside\n"
     "                          MEASURED.csv, then its configs/ folder)\n"
     "  --hardware HW           fit only this chip (repeatable; a catalog name or the\n"
     "                          file's, e.g. h200 or h200_sxm)\n"
     "  --backend NAME          fit only this engine (repeatable: trtllm, vllm, sglang)\n"
     "  --folds K               cross-validation folds, by whole series (default: 5)\n"
     "  --pool-for HW           one calibration per engine, fitted on the rows of every\n"
     "                          chosen chip together and written for HW (e.g. fitted\n"
     "                          on --hardware h100_sxm --hardware h200, for b200)\n"
     "  --ttft-weight W         the weight of each row's TTFT against its TPOT in the\n"
     "                          fit (default: 0.5)\n"
     "  -o, --output FILE.roof  write the calibrations: one FILE.roof, or a folder with\n"
     "                          one file per chip and engine\n"
     "  --report [DIR]          publish the cross-validated rows, groups, charts and\n"
     "                          skipped rows as a report in DIR (default: out), as\n"
     "                          'validate' does; 'roofline diff' compares two\n"
     "  --no-charts             with --report, skip the gnuplot charts\n"
     "  -I, --include DIR       also search DIR for included files (repeatable)\n"
     "  -q, --quiet             no progress\n"
     "  -h, --help              show this help\n"},
    {"validate",
     cmd_validate,
     "MEASURED.csv",
     "predict measured serving rows; publish the errors under out/",
     "roofline validate MEASURED.csv [--configs DIR] [--calibration FILE]... [--uncalibrated] "
     "[-I DIR]... [-o OUT] [--force] [--no-charts] [--quiet]",
     "MEASURED.csv",
     "Predict every row of MEASURED.csv (the silicon-sample format: mean TTFT and\n"
     "TPOT of a model served by an engine on a chip) as 'serve' would run it, with\n"
     "the calibration of the row's chip and engine, and publish the errors as a\n"
     "new version OUT/validate-NAME/vN (NAME: the file's stem): rows.csv,\n"
     "groups.csv (median and mean APE, signed median per chip x backend x model,\n"
     "per chip x backend, overall), skipped.csv (rows it cannot model, and why),\n"
     "memory.csv, report.xlsx, predicted-against-measured charts per chip, the\n"
     "tables it prints (summary.txt) and manifest.json; OUT/validate-NAME/latest\n"
     "points at it. When the inputs and the figures are those of the latest\n"
     "version, nothing is written: \"up to date\". 'roofline diff' of two such\n"
     "reports shows what changed in the errors.\n"
     "\n"
     "options:\n"
     "  --configs DIR           where the rows' config.json files are (default: beside\n"
     "                          MEASURED.csv, then its configs/ folder)\n"
     "  --calibration FILE      a .roof file of calibrations (repeatable); a row uses\n"
     "                          the one for its chip whose name ends in its backend\n"
     "                          (default: the shipped ones, templates/calibration/)\n"
     "  --uncalibrated          predict with no calibration (the serial roofline)\n"
     "  -I, --include DIR       also search DIR for included files (repeatable)\n"
     "  -o, --output OUT        reports folder (default: out)\n"
     "  --force                 publish a new version even when nothing changed\n"
     "  --no-charts             skip the gnuplot charts (and the need for gnuplot)\n"
     "  -q, --quiet             print only the \"published\" (or \"up to date\") line,\n"
     "                          errors and warnings: no summary table\n"
     "  -h, --help              show this help\n"},
    {"import",
     cmd_import,
     "CONFIG.json",
     "a scenario from a Hugging Face config.json (-o FILE.roof)",
     "roofline import CONFIG.json [-o FILE.roof] [--mode decode|prefill|both] "
     "[--target HW]... [--dtype WDT] [--kv-dtype KVDT] [--quant HF_QUANT.json] [--tp N] [--dp N] [--ep N] [--etp N] "
     "[--pp N] [--flash] [--request P,G] [--serve] [-I DIR]...",
     "CONFIG.json",
     "Write a scenario for the model of a Hugging Face config.json over the\n"
     "shipped layer templates, checked before it is written.\n"
     "\n"
     "options:\n"
     "  -o, --output FILE.roof  write the scenario to FILE.roof (default: stdout);\n"
     "                          with --mode both, FILE-decode.roof and\n"
     "                          FILE-prefill.roof\n"
     "  --mode MODE             decode, prefill or both (default: decode)\n"
     "  --target HW             hardware to target (repeatable; default: h100_sxm,\n"
     "                          h200, mi300x, tpu_v5p)\n"
     "  --dtype WDT             the weights' dtype, the templates' wdt (default: the\n"
     "                          checkpoint's quantization, else bf16; given, it\n"
     "                          overrides the quantization)\n"
     "  --kv-dtype KVDT         the KV cache's dtype, the templates' kvdt (default:\n"
     "                          the quantization's kv_cache_quant_algo, else the\n"
     "                          matmuls' activations: bf16)\n"
     "  --quant HF_QUANT.json   the checkpoint's hf_quant_config.json (default: the one\n"
     "                          beside CONFIG.json, named as it with hf_quant_config.json\n"
     "                          for config.json)\n"
     "  --tp N                  tensor-parallel GPUs: heads and widths split\n"
     "  --dp N                  attention data-parallel GPUs: sequences split (MoE)\n"
     "  --ep N                  expert-parallel GPUs: experts split (default: --dp)\n"
     "  --etp N                 expert tensor-parallel GPUs: each expert's width\n"
     "                          split (default: tp x dp / ep)\n"
     "  --pp N                  pipeline stages; the scenario is one stage\n"
     "  --flash                 the flash-attention templates (Llama, Mistral,\n"
     "                          Mixtral on one chip)\n"
     "  --request P,G           a request: P prompt tokens, G generated tokens\n"
     "  --serve                 a serve statement: continuous batching of requests\n"
     "                          (their lengths --request P,G, default 2048,256) at\n"
     "                          arrival rates R = 1 .. 16 /s (every family but\n"
     "                          Qwen3.5; --tp, or --tp and --ep; GLM-5 one chip)\n"
     "  -I, --include DIR       also search DIR for included files (repeatable)\n"
     "  -h, --help              show this help\n"},
};

}  // namespace

std::span<Command const> commands() {
    return table;
}

Command const* find_command(std::string const& name) {
    for (auto const& command : table)
        if (name == command.name) return &command;
    return nullptr;
}

}  // namespace roofline::cli
