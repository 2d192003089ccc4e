#!/usr/bin/env python3
"""An independent reader for the tests of report.xlsx (tests/test_xlsx_writer.cpp).

    xlsx_tool.py dump FILE.xlsx              every sheet's cells (cached value, formula,
                                             number format), sheet settings and charts, as JSON
    xlsx_tool.py recalc FILE.xlsx WORKDIR    recalculate with LibreOffice (private profile,
                                             OOXMLRecalcMode = 0) and print every sheet as JSON
                                             rows of text, as LibreOffice exports it to CSV
    xlsx_tool.py set FILE.xlsx SHEET CELL VALUE OUT.xlsx
                                             change one cell with openpyxl and save a copy
    xlsx_tool.py poison FILE.xlsx OUT.xlsx   a copy whose cached formula results are all 0,
                                             so that a recalculation shows it recalculated

Exits 2 on a usage error, 3 when a tool (openpyxl, soffice) is missing or fails, so that
the C++ test fails rather than skips.
"""
import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile


def fail(message, code=3):
    print("xlsx_tool: " + message, file=sys.stderr)
    sys.exit(code)


def load_openpyxl():
    try:
        import openpyxl  # noqa: F401
        return openpyxl
    except ImportError:
        fail("python3-openpyxl is not installed (scripts/install-deps.sh installs it)")


def charts(path):
    """The chart parts, read straight from the XML (openpyxl drops charts it cannot model)."""
    out = []
    with zipfile.ZipFile(path) as z:
        names = sorted((n for n in z.namelist() if re.fullmatch(r"xl/charts/chart\d+\.xml", n)),
                       key=lambda n: int(re.search(r"(\d+)", n).group(1)))
        for name in names:
            xml = z.read(name).decode("utf-8")
            series = []
            for ser in re.findall(r"<c:ser>(.*?)</c:ser>", xml, re.S):
                refs = re.findall(r"<c:f>(.*?)</c:f>", ser)
                series.append({"refs": refs})
            out.append({
                "part": name,
                "scatter": "<c:scatterChart>" in xml,
                "log_axes": len(re.findall(r'<c:logBase val="10"/>', xml)),
                "axis_ids": re.findall(r'<c:axId val="(\d+)"/>', xml),
                "series": series,
                # Per axis, in the order written (x, then y): its ends and
                # its number format.
                "axis_min": [float(v) for v in re.findall(r'<c:min val="([^"]*)"/>', xml)],
                "axis_max": [float(v) for v in re.findall(r'<c:max val="([^"]*)"/>', xml)],
                "axis_formats": re.findall(r'<c:numFmt formatCode="([^"]*)"', xml),
            })
    return out


ESCAPED = re.compile(r"_x([0-9A-Fa-f]{4})_")


def cell_text(value):
    """Cell text as Excel reads it: _xHHHH_ is an escaped character (openpyxl leaves it)."""
    if isinstance(value, str):
        return ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), value)
    return value


def dump(path):
    openpyxl = load_openpyxl()
    values = openpyxl.load_workbook(path, data_only=True)   # cached results
    formulas = openpyxl.load_workbook(path, data_only=False)
    result = {"sheets": values.sheetnames, "cells": {}, "settings": {}, "charts": charts(path)}
    for name in values.sheetnames:
        wv, wf = values[name], formulas[name]
        rows = []
        for row_v, row_f in zip(wv.iter_rows(), wf.iter_rows()):
            cells = []
            for cv, cf in zip(row_v, row_f):
                if cv.value is None and cf.value is None:
                    cells.append(None)
                    continue
                cell = {"v": cell_text(cv.value), "fmt": cf.number_format}
                if isinstance(cf.value, str) and cf.data_type == "f":
                    cell["f"] = cf.value
                if cf.font is not None and cf.font.i:
                    cell["italic"] = True
                cells.append(cell)
            rows.append(cells)
        result["cells"][name] = rows
        rules = []
        for cf_range in wf.conditional_formatting:
            for rule in cf_range.rules:
                rules.append({"range": str(cf_range.sqref), "type": rule.type,
                              "formula": list(rule.formula or [])})
        result["settings"][name] = {
            "freeze_panes": wf.freeze_panes,
            "auto_filter": wf.auto_filter.ref,
            "conditional_formats": rules,
            "widths": {k: v.width for k, v in wf.column_dimensions.items() if v.width},
        }
    json.dump(result, sys.stdout, default=str)


PROFILE = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""


def soffice():
    exe = shutil.which("soffice") or shutil.which("libreoffice")
    if not exe:
        fail("soffice is not installed: LibreOffice (libreoffice-calc-nogui) is needed to "
             "recalculate the workbook; scripts/install-deps.sh installs it")
    return exe


def recalc(path, workdir):
    exe = soffice()
    profile = os.path.join(os.path.abspath(workdir), "profile")
    os.makedirs(os.path.join(profile, "user"), exist_ok=True)
    with open(os.path.join(profile, "user", "registrymodifications.xcu"), "w") as f:
        f.write(PROFILE)
    outdir = os.path.join(os.path.abspath(workdir), "csv")
    os.makedirs(outdir, exist_ok=True)
    # Every sheet to its own CSV (the last option, -1), numbers unformatted
    # (the 9th, "as shown" = false) so that nothing is rounded for display.
    filt = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"
    cmd = [exe, "-env:UserInstallation=file://" + profile, "--headless", "--norestore",
           "--convert-to", filt, "--outdir", outdir, os.path.abspath(path)]
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    stem = os.path.splitext(os.path.basename(path))[0]
    files = glob.glob(os.path.join(outdir, glob.escape(stem) + "-*.csv"))
    if run.returncode != 0 or not files:
        fail("soffice failed (exit %d): %s %s" % (run.returncode, run.stdout.decode(errors="replace"),
                                                  run.stderr.decode(errors="replace")))
    sheets = {}
    for file in files:
        sheet = os.path.basename(file)[len(stem) + 1:-len(".csv")]
        with open(file, newline="", encoding="utf-8") as f:
            sheets[sheet] = list(csv.reader(f))
    json.dump({"sheets": sheets}, sys.stdout)


def set_cell(path, sheet, cell, value, out):
    openpyxl = load_openpyxl()
    wb = openpyxl.load_workbook(path)
    wb[sheet][cell].value = float(value)
    wb.save(out)


def poison(path, out):
    cached = re.compile(r"(<f>[^<]*</f><v>)[^<]*(</v>)")
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if re.fullmatch(r"xl/worksheets/sheet\d+\.xml", item.filename):
                data = cached.sub(r"\g<1>0\g<2>", data.decode("utf-8")).encode("utf-8")
            dst.writestr(item, data)


def main(argv):
    if len(argv) == 3 and argv[1] == "dump":
        dump(argv[2])
    elif len(argv) == 4 and argv[1] == "recalc":
        recalc(argv[2], argv[3])
    elif len(argv) == 7 and argv[1] == "set":
        set_cell(*argv[2:])
    elif len(argv) == 4 and argv[1] == "poison":
        poison(argv[2], argv[3])
    else:
        fail(__doc__, 2)


if __name__ == "__main__":
    main(sys.argv)
