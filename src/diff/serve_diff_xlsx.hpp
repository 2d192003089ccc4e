#pragma once
// diff.xlsx's Serve and Fleet sheets (serve_diff_xlsx.cpp), written by
// DiffXlsxWriter::finish after the Summary when the diff has a serve part.

#include "diff/serve_diff.hpp"

namespace roofline::diff {

class XlsxBook;
void write_serve_sheets(XlsxBook& book, Matcher const& matcher, ServeDiff const& diff);

}  // namespace roofline::diff
