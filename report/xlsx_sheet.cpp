// Cell references, errors and formats of the XLSX report's workbook.
#include "report/xlsx_sheet.hpp"

#include <cctype>

#include "core/error.hpp"

namespace slicewise::report::xlsx {

namespace {

constexpr lxw_color_t kInputFill = 0xFFF2CC;  ///< light yellow: the cells a reviewer may change
constexpr lxw_color_t kInputFont = 0x0000FF;  ///< blue: finance's convention for inputs
constexpr lxw_color_t kHeaderFill = 0xD9E1F2;

/// Excel number format for money in `currency` ("USD" shows as "$").
std::string money_format(const std::string& currency, const std::string& decimals) {
  if (currency.empty() || currency == "USD") return "$#,##0." + decimals;
  std::string code;
  for (const char c : currency) {
    if (std::isalnum(static_cast<unsigned char>(c))) code += c;
  }
  return "#,##0." + decimals + " \"" + code + "\"";
}

lxw_format* add_format(lxw_workbook* book, const std::string& num_format, bool input = false) {
  lxw_format* format = workbook_add_format(book);
  if (!num_format.empty()) format_set_num_format(format, num_format.c_str());
  if (input) {
    format_set_bg_color(format, kInputFill);
    format_set_font_color(format, kInputFont);
    format_set_border(format, LXW_BORDER_THIN);
  }
  return format;
}

}  // namespace

std::string cell(lxw_row_t row, lxw_col_t col, bool absolute) {
  std::string letters;
  for (unsigned c = col + 1u; c > 0; c = (c - 1) / 26)
    letters.insert(letters.begin(), static_cast<char>('A' + (c - 1) % 26));
  const std::string dollar = absolute ? "$" : "";
  return dollar + letters + dollar + std::to_string(row + 1);
}

void check(lxw_error error, const std::filesystem::path& out) {
  if (error != LXW_NO_ERROR) throw Error(out.string() + ": cannot write the workbook: " + lxw_strerror(error));
}

Formats make_formats(lxw_workbook* book, const std::string& currency) {
  Formats f;
  f.title = add_format(book, "");
  format_set_bold(f.title);
  format_set_font_size(f.title, 14);
  f.bold = add_format(book, "");
  format_set_bold(f.bold);
  f.header = add_format(book, "");
  format_set_bold(f.header);
  format_set_bg_color(f.header, kHeaderFill);
  format_set_bottom(f.header, LXW_BORDER_THIN);
  f.wrap = add_format(book, "");
  format_set_text_wrap(f.wrap);
  format_set_align(f.wrap, LXW_ALIGN_VERTICAL_TOP);
  f.money = add_format(book, money_format(currency, "00"));
  f.price = add_format(book, money_format(currency, "00###"));
  f.pct = add_format(book, "0.0%");
  f.pct_fine = add_format(book, "0.00%");
  f.seconds = add_format(book, "0.000");
  f.tenths = add_format(book, "0.0");
  f.hundredths = add_format(book, "0.00");
  f.per_month = add_format(book, "0.0000");
  f.availability = add_format(book, "0.000%");
  f.input_number = add_format(book, "0.00###", true);
  f.input_count = add_format(book, "0", true);
  f.input_price = add_format(book, money_format(currency, "00###"), true);
  f.input_money = add_format(book, money_format(currency, "00"), true);
  return f;
}

}  // namespace slicewise::report::xlsx
