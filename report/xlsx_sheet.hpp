// The workbook toolkit of the XLSX report (report/xlsx_report.cpp): A1-style references, the cell
// formats, and Sheet, which writes one worksheet's cells and turns libxlsxwriter's errors into
// slicewise::Error. Internal to sw_report.
#pragma once

#include <xlsxwriter.h>

#include <filesystem>
#include <string>
#include <vector>

namespace slicewise::report::xlsx {

/// "A1"-style reference to a zero-based cell; `absolute` gives "$A$1".
std::string cell(lxw_row_t row, lxw_col_t col, bool absolute = false);

/// Throws slicewise::Error naming `out` unless `error` is LXW_NO_ERROR.
void check(lxw_error error, const std::filesystem::path& out);

/// The workbook's cell formats. Inputs (the cells a reviewer may change) are highlighted.
struct Formats {
  lxw_format* title = nullptr;
  lxw_format* bold = nullptr;
  lxw_format* header = nullptr;
  lxw_format* wrap = nullptr;
  lxw_format* money = nullptr;
  lxw_format* price = nullptr;  ///< hourly prices: 2 to 5 decimals
  lxw_format* pct = nullptr;
  lxw_format* pct_fine = nullptr;  ///< violation fractions
  lxw_format* seconds = nullptr;
  lxw_format* tenths = nullptr;        ///< watts, kWh per month: 0.0
  lxw_format* hundredths = nullptr;    ///< electricity in USD: 0.00
  lxw_format* per_month = nullptr;     ///< expected faults and outage hours per month: 0.0000
  lxw_format* availability = nullptr;  ///< 0.000%
  lxw_format* input_number = nullptr;  ///< an input that is not money in the report's currency (PUE, USD/kWh)
  lxw_format* input_count = nullptr;
  lxw_format* input_price = nullptr;
  lxw_format* input_money = nullptr;
};

/// Adds the formats to `book`, money in `currency` ("USD" shows as "$").
Formats make_formats(lxw_workbook* book, const std::string& currency);

/// Writes the cells of one sheet; every libxlsxwriter error becomes a slicewise::Error naming `out`.
class Sheet {
 public:
  Sheet(lxw_worksheet* sheet, const std::filesystem::path& out) : sheet_(sheet), out_(out) {}

  /// A string cell.
  void text(lxw_row_t row, lxw_col_t col, const std::string& value, lxw_format* format = nullptr) {
    check(worksheet_write_string(sheet_, row, col, value.c_str(), format), out_);
  }
  /// A number cell.
  void number(lxw_row_t row, lxw_col_t col, double value, lxw_format* format = nullptr) {
    check(worksheet_write_number(sheet_, row, col, value, format), out_);
  }
  /// `value` is the cached result; it must equal what `formula` evaluates to.
  void formula(lxw_row_t row, lxw_col_t col, const std::string& formula, double value, lxw_format* format) {
    check(worksheet_write_formula_num(sheet_, row, col, ("=" + formula).c_str(), format, value), out_);
  }
  /// A formula giving text, `value` its cached result.
  void formula_text(lxw_row_t row, lxw_col_t col, const std::string& formula, const std::string& value,
                    lxw_format* format = nullptr) {
    check(worksheet_write_formula_str(sheet_, row, col, ("=" + formula).c_str(), format, value.c_str()), out_);
  }
  /// A text input that must be one of `choices` (a drop-down list), highlighted and with a note.
  void choice(lxw_row_t row, lxw_col_t col, const std::string& value, const std::vector<std::string>& choices,
              lxw_format* format) {
    text(row, col, value, format);
    check(worksheet_write_comment(sheet_, row, col, "change me"), out_);
    std::vector<std::string> copies(choices);  // libxlsxwriter takes char**, and copies the strings
    std::vector<char*> list;
    list.reserve(copies.size() + 1);
    for (auto& c : copies) list.push_back(c.data());
    list.push_back(nullptr);
    lxw_data_validation validation{};
    validation.validate = LXW_VALIDATION_TYPE_LIST;
    validation.value_list = list.data();
    check(worksheet_data_validation_cell(sheet_, row, col, &validation), out_);
  }
  /// An input cell: highlighted by `format` and carrying a note.
  void input(lxw_row_t row, lxw_col_t col, double value, lxw_format* format) {
    number(row, col, value, format);
    check(worksheet_write_comment(sheet_, row, col, "change me"), out_);
  }
  /// A one-cell array formula (entered as {=...}), `value` its cached result.
  void array_formula(lxw_row_t row, lxw_col_t col, const std::string& formula, double value, lxw_format* format) {
    check(worksheet_write_array_formula_num(sheet_, row, col, row, col, ("{=" + formula + "}").c_str(), format, value),
          out_);
  }
  /// A table header: `names` from column A on.
  void headers(lxw_row_t row, const std::vector<std::string>& names, lxw_format* format) {
    for (std::size_t c = 0; c < names.size(); ++c) text(row, static_cast<lxw_col_t>(c), names[c], format);
  }
  /// Column widths (in characters) from column A on, each column formatted with `format`.
  void widths(const std::vector<double>& widths, lxw_format* format = nullptr) {
    for (std::size_t c = 0; c < widths.size(); ++c) {
      const auto col = static_cast<lxw_col_t>(c);
      check(worksheet_set_column(sheet_, col, col, widths[c], format), out_);
    }
  }
  /// Inserts `made` (a chart of workbook_add_chart; nullptr when that failed) with its top left
  /// corner at the cell.
  void chart(lxw_row_t row, lxw_col_t col, lxw_chart* made) {
    check_made(made);
    check(worksheet_insert_chart(sheet_, row, col, made), out_);
  }
  /// Throws unless `made` (what a libxlsxwriter constructor returned) is set.
  void check_made(const void* made) const {
    if (!made) check(LXW_ERROR_MEMORY_MALLOC_FAILED, out_);
  }
  /// The libxlsxwriter worksheet, for calls Sheet does not wrap.
  lxw_worksheet* raw() const { return sheet_; }

 private:
  lxw_worksheet* sheet_;
  const std::filesystem::path& out_;
};

}  // namespace slicewise::report::xlsx
