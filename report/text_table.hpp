// Plain-text tables for the terminal: aligned columns, numbers right-aligned, a rule under the
// header. Also the CSV and Markdown renderings of the same table.
#pragma once

#include <string>
#include <vector>

namespace slicewise::report {

enum class Align { left, right };

struct Column {
  std::string title;
  Align align = Align::left;
};

/// A rectangular table of already-formatted cells.
class TextTable {
 public:
  explicit TextTable(std::vector<Column> columns);

  /// Adds a row; it must have exactly one cell per column (InternalError otherwise).
  void add_row(std::vector<std::string> cells);
  std::size_t num_rows() const { return rows_.size(); }

  /// Columns padded to their widest cell, separated by two spaces, header rule of dashes.
  /// Lines end with '\n'; trailing spaces are trimmed.
  std::string to_text() const;
  /// RFC 4180 CSV (cells quoted when they hold a comma, quote or newline), header first.
  std::string to_csv() const;
  /// GitHub-flavoured Markdown table, its cells through markdown_cell(): any text stays in its cell,
  /// shown as written.
  std::string to_markdown() const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

/// Text made safe inside XML or HTML content and attribute values: & < > " ' as entities, and the
/// control characters XML 1.0 forbids (all below 0x20 but tab, newline, carriage return) as spaces.
std::string escape_markup(const std::string& text);

/// Text for Markdown prose, shown as written and never read as markup: '<', '>' and '&' as
/// entities (no HTML); '\\', '[', ']' and '@' backslash-escaped, and "://" and "www." broken by an
/// escape (no link, image or autolink: a tenant named "![x](https://tracker/p.png)" became a remote
/// image in the Markdown report).
std::string markdown_text(const std::string& text);

/// markdown_text() for a table cell: also '|' escaped and line breaks as spaces, so that any text
/// stays in its cell of its row.
std::string markdown_cell(const std::string& text);

/// Fixed-point formatting: format_fixed(3273.4368, 2) == "3273.44". Never prints "-0.00".
std::string format_fixed(double value, int decimals);

/// A fraction as a percentage with its unit: format_percent(0.4630, 1) == "46.3 %".
std::string format_percent(double frac, int decimals = 1);
/// Money in the reports' style: format_usd(1515.25) == "$1,515.25".
std::string format_usd(double value, int decimals = 2);
/// The same without the unit, for a column whose header carries it: percent_number(0.4630) == "46.3".
std::string percent_number(double frac, int decimals = 1);

}  // namespace slicewise::report
