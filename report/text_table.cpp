// Text, CSV and Markdown tables.
#include "report/text_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "core/error.hpp"

namespace slicewise::report {

TextTable::TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

void TextTable::add_row(std::vector<std::string> cells) {
  SW_CHECK(cells.size() == columns_.size(), "row has " + std::to_string(cells.size()) + " cells; table has " +
                                                std::to_string(columns_.size()) + " columns");
  rows_.push_back(std::move(cells));
}

namespace {
// Display width in code points (UTF-8 continuation bytes do not count).
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string pad(const std::string& text, std::size_t width, Align align) {
  const std::size_t fill = width > display_width(text) ? width - display_width(text) : 0;
  return align == Align::left ? text + std::string(fill, ' ') : std::string(fill, ' ') + text;
}

void trim_right(std::string& line) {
  while (!line.empty() && line.back() == ' ') line.pop_back();
}

/// True when all of `text` reads as one number ("-0.25", "1e-3"): such a cell is data, not a formula.
bool is_number(const std::string& text) {
  if (text.empty()) return false;
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

std::string csv_cell(std::string cell) {
  // A text a spreadsheet would run as a formula (OWASP "CSV injection": one starting with =, +, -,
  // @, a tab or a carriage return) is prefixed with a quote so that it stays text. Numbers stay.
  if (!cell.empty() && std::strchr("=+-@\t\r", cell.front()) != nullptr && !is_number(cell)) cell.insert(0, 1, '\'');
  if (cell.find_first_of(",\"\n\r") == std::string::npos) return cell;
  std::string out = "\"";
  for (char c : cell) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}
}  // namespace

std::string TextTable::to_text() const {
  std::vector<std::size_t> widths;
  for (const auto& column : columns_) widths.push_back(display_width(column.title));
  for (const auto& row : rows_) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], display_width(row[i]));
  }
  auto render_line = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) line += "  ";
      line += pad(cells[i], widths[i], columns_[i].align);
    }
    trim_right(line);
    return line + "\n";
  };
  std::vector<std::string> titles;
  std::vector<std::string> rules;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    titles.push_back(columns_[i].title);
    rules.emplace_back(widths[i], '-');
  }
  std::string out = render_line(titles) + render_line(rules);
  for (const auto& row : rows_) out += render_line(row);
  return out;
}

std::string TextTable::to_csv() const {
  auto render_line = [](const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) line += ',';
      line += csv_cell(cells[i]);
    }
    return line + "\n";
  };
  std::vector<std::string> titles;
  for (const auto& column : columns_) titles.push_back(column.title);
  std::string out = render_line(titles);
  for (const auto& row : rows_) out += render_line(row);
  return out;
}

std::string TextTable::to_markdown() const {
  std::string out = "|";
  for (const auto& column : columns_) out += " " + markdown_cell(column.title) + " |";
  out += "\n|";
  for (const auto& column : columns_) out += column.align == Align::right ? "---:|" : "---|";
  out += "\n";
  for (const auto& row : rows_) {
    out += "|";
    for (const auto& cell : row) out += " " + markdown_cell(cell) + " |";
    out += "\n";
  }
  return out;
}

namespace {

/// Appends `text` as Markdown shows it as written, never as markup, a link or an image: '<', '>'
/// and '&' as entities (no HTML); '\\', '[' and ']' backslash-escaped (no link, image or link
/// reference: a tenant named "![x](https://tracker/p.png)" fetched a remote image when the report
/// was viewed); '@' escaped, and "://" and "www." broken by an escape, so that GitHub's bare
/// autolinks do not make a link of an address. In a table cell `in_cell` also escapes '|' and
/// turns line breaks into spaces, so the cell stays one cell of one row.
void append_markdown_text(std::string_view text, bool in_cell, std::string& out) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const std::string_view rest = text.substr(i);
    switch (c) {
      case '<': out += "&lt;"; continue;
      case '>': out += "&gt;"; continue;
      case '&': out += "&amp;"; continue;
      case '\\':
      case '[':
      case ']':
      case '@':
        out += '\\';
        out += c;
        continue;
      default: break;
    }
    if (rest.starts_with("://")) {
      out += "\\:";
      continue;
    }
    if ((c == 'w' || c == 'W') && rest.size() >= 4 && (rest[1] | 0x20) == 'w' && (rest[2] | 0x20) == 'w' &&
        rest[3] == '.') {
      out.append(rest.substr(0, 3));
      out += "\\.";
      i += 3;
      continue;
    }
    if (in_cell && c == '|') {
      out += "\\|";
    } else if (in_cell && (c == '\n' || c == '\r')) {
      out += ' ';
    } else {
      out += c;
    }
  }
}

}  // namespace

std::string markdown_text(const std::string& text) {
  std::string out;
  append_markdown_text(text, false, out);
  return out;
}

std::string markdown_cell(const std::string& text) {
  std::string out;
  append_markdown_text(text, true, out);
  return out;
}

std::string format_percent(double frac, int decimals) { return percent_number(frac, decimals) + " %"; }

std::string percent_number(double frac, int decimals) { return format_fixed(100.0 * frac, decimals); }

std::string format_fixed(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  double rounded = std::round(value * scale) / scale;
  if (rounded == 0.0) rounded = 0.0;  // drop the sign of -0
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, rounded);
  return buffer;
}

std::string escape_markup(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 forbids most control characters even escaped.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') {
          out += ' ';
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string format_usd(double value, int decimals) {
  const std::string digits = format_fixed(std::abs(value), decimals);
  const auto point = digits.find('.');
  const std::string whole = digits.substr(0, point);
  std::string grouped;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    if (i > 0 && (whole.size() - i) % 3 == 0) grouped += ',';
    grouped += whole[i];
  }
  const bool negative = value < 0.0 && digits.find_first_not_of("0.") != std::string::npos;
  return (negative ? "-$" : "$") + grouped + (point == std::string::npos ? "" : digits.substr(point));
}

}  // namespace slicewise::report
