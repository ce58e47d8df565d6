// The ROI report as GitHub-flavoured Markdown: the same sections, tables and figures as the HTML
// and PDF (report/render), figures linked as files.
#include "report/roi_report.hpp"
#include "report/text_table.hpp"

#include <algorithm>

namespace slicewise::report {

namespace {

/// Text for Markdown prose: names are shown as written, never read as HTML.
std::string md_text(const std::string& text) { return markdown_text(text); }

/// One table under its heading (`level` '#'s), with its intro.
std::string table_markdown(const ReportTable& t, int level = 2) {
  std::string md = std::string(static_cast<std::size_t>(level), '#') + " " + md_text(t.title) + "\n\n";
  if (!t.intro.empty()) md += md_text(t.intro) + "\n\n";
  std::vector<Column> columns;
  for (std::size_t c = 0; c < t.columns.size(); ++c)
    columns.push_back({t.columns[c], t.numeric[c] ? Align::right : Align::left});
  TextTable table(columns);
  for (const auto& row : t.rows) table.add_row(row);
  md += table.to_markdown() + "\n";
  return md;
}

/// A section: its heading, paragraphs, tables (a heading below) and notes as a list.
std::string section_markdown(const ReportSection& section) {
  std::string md = "## " + md_text(section.title) + "\n\n";
  for (const auto& paragraph : section.paragraphs) md += md_text(paragraph) + "\n\n";
  for (const auto& t : section.tables) md += table_markdown(t, 3);
  for (const auto& note : section.notes) md += "- " + md_text(note) + "\n";
  if (!section.notes.empty()) md += "\n";
  return md;
}

/// The appendix: the deployable config files and what each does, not their text (a budget reader
/// needs the list; a platform team gets the files from export-config).
std::string configs_appendix(const RoiReport& r) {
  std::string md = "## Appendix: deployable configs\n\n" + md_text(appendix_intro(r)) + "\n\n";
  for (const auto& file : r.deploy_configs) {
    md += "- `" + md_text(file.name) + "`: " + md_text(config_file_purpose(file.name)) + "\n";
  }
  return md + "\n";
}

}  // namespace

std::string roi_report_markdown(const RoiReport& r, const std::vector<Figure>& figures) {
  std::string md = "# " + md_text(r.title) + "\n\n";
  md += "## Executive summary\n\n";
  if (!r.answer.empty()) md += "**The answer:** " + md_text(r.answer) + "\n\n";
  if (const std::string headline = recommended_headline(r); !headline.empty())
    md += "**" + md_text(headline) + "**\n\n";
  md += "- " + md_text(r.recommendation) + "\n";
  if (!r.sweep_savings.empty()) {
    md += "- Across the points:\n";
    for (const auto& sentence : r.sweep_savings) md += "  - " + md_text(sentence) + "\n";
  }
  md += "- " + md_text(r.savings) + "\n";
  if (!r.sla_risk.empty()) md += "- " + md_text(r.sla_risk) + "\n";
  if (!r.rejected.empty()) md += "- " + md_text(r.rejected) + "\n";
  if (!r.scope.empty()) md += "- " + md_text(r.scope) + "\n";
  md += "\n### Where these figures come from\n\n";
  for (const auto& line : provenance_lines(r)) md += "- " + md_text(line) + "\n";
  md += "\n";
  for (const auto& t : report_tables(r)) md += table_markdown(t);
  for (const auto& section : report_sections(r)) md += section_markdown(section);
  md += "## Figures\n\n";
  for (const auto& f : figures) {
    md +=
        "### " + md_text(f.title) + "\n\n![" + md_text(f.title) + "](" + f.file + ")\n\n" + md_text(f.caption) + "\n\n";
  }
  md += "## Assumptions and provenance\n\n";
  if (!r.description.empty()) md += "Scenario: " + md_text(r.description) + "\n\n";
  for (const auto& line : r.assumptions) md += "- " + md_text(line) + "\n";
  md += "\n## Methodology\n\n";
  for (const auto& paragraph : r.methodology) md += md_text(paragraph) + "\n\n";
  md += table_markdown(workload_sources_table(r));
  if (!r.deploy_configs.empty()) md += configs_appendix(r);
  return md;
}

}  // namespace slicewise::report
