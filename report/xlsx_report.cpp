// The ROI report as an Excel workbook for a budget review. Every price, instance count and the hours
// per month sit on the Inputs sheet; every cost, saving and chargeback elsewhere is a formula over
// them, written with the value slicewise computed (in the formula's own order of operations), so
// viewers that do not recalculate still show figures equal to what a spreadsheet recomputes. Native
// charts read the same cells, and a sweep's every point has a sheet of its own. This file makes the
// workbook and writes it atomically; xlsx_model lays it out, xlsx_sheets fills it.
#include "report/xlsx_report.hpp"

#include <xlsxwriter.h>

#include <ctime>
#include <memory>
#include <string>
#include <system_error>
#include <utility>

#include "core/atomic_output.hpp"
#include "core/error.hpp"
#include "report/xlsx_model.hpp"
#include "report/xlsx_sheet.hpp"
#include "report/xlsx_sheets.hpp"

namespace slicewise::report {

namespace {

namespace fs = std::filesystem;
using xlsx::build_model;
using xlsx::check;
using xlsx::Formats;
using xlsx::make_formats;
using xlsx::Model;
using xlsx::Sheet;

/// libxlsxwriter stamps the current time into docProps/core.xml when `created` is 0; a fixed instant
/// (2000-01-01T00:00:00Z) makes the same report give byte-identical files.
constexpr std::time_t kCreatedAt = 946684800;

void set_properties(lxw_workbook* book, const RoiReport& report, const fs::path& out) {
  lxw_doc_properties properties{};
  properties.title = const_cast<char*>(report.title.c_str());
  properties.subject = const_cast<char*>("GPU-sharing ROI");
  properties.author = const_cast<char*>("slicewise");
  properties.created = kCreatedAt;
  check(workbook_set_properties(book, &properties), out);
}

struct WorkbookFree {
  void operator()(lxw_workbook* book) const { lxw_workbook_free(book); }
};

void build_and_close(const RoiReport& report, const fs::path& tmp, const fs::path& out) {
  std::unique_ptr<lxw_workbook, WorkbookFree> book(workbook_new(tmp.c_str()));
  if (!book) check(LXW_ERROR_MEMORY_MALLOC_FAILED, out);
  set_properties(book.get(), report, out);
  const Formats formats = make_formats(book.get(), report.costs.currency);
  // Sheets are added in reading order; their cells are written after the layout is known. Energy
  // only when a strategy's energy is known, Availability when a strategy has faults, Sweep points
  // for a report made from a sweep folder.
  const bool with_energy = xlsx::has_energy_sheet(report);
  const bool with_availability = xlsx::has_availability_sheet(report);
  const bool with_points = report.sweep.has_value();
  Sheet summary(workbook_add_worksheet(book.get(), "Summary"), out);
  Sheet inputs(workbook_add_worksheet(book.get(), "Inputs"), out);
  Sheet costs(workbook_add_worksheet(book.get(), xlsx::kCostsSheet), out);
  Sheet tenants(workbook_add_worksheet(book.get(), "Tenants"), out);
  Sheet energy(with_energy ? workbook_add_worksheet(book.get(), "Energy") : nullptr, out);
  Sheet availability(with_availability ? workbook_add_worksheet(book.get(), "Availability") : nullptr, out);
  Sheet points(with_points ? workbook_add_worksheet(book.get(), xlsx::kSweepSheet) : nullptr, out);
  Sheet charts(workbook_add_worksheet(book.get(), "Charts"), out);
  Sheet provenance(workbook_add_worksheet(book.get(), "Provenance"), out);
  const std::pair<Sheet*, bool> sheets[] = {
      {&summary, true},       {&inputs, true},        {&costs, true},
      {&tenants, true},       {&energy, with_energy}, {&availability, with_availability},
      {&points, with_points}, {&charts, true},        {&provenance, true}};
  for (const auto& [sheet, wanted] : sheets) {
    if (!wanted) continue;
    if (!sheet->raw()) check(LXW_ERROR_MEMORY_MALLOC_FAILED, out);
    worksheet_set_comments_author(sheet->raw(), "slicewise");
  }
  const Model model = build_model(report);
  write_summary(summary, report, model, formats);
  write_inputs(inputs, report, model, formats);
  write_costs(costs, report, model, formats);
  write_tenants(tenants, report, model, formats);
  if (with_energy) write_energy(energy, report, formats);
  if (with_availability) write_availability(availability, report, formats);
  if (with_points) write_sweep_points(points, report, model, formats);
  write_charts(book.get(), charts, report, model, formats);
  write_provenance(provenance, report, formats);
  check(workbook_close(book.release()), out);  // frees the workbook whatever it returns
}

}  // namespace

void write_roi_xlsx(const RoiReport& report, const std::filesystem::path& out) {
  // Checked here because libxlsxwriter would also print its own message to stderr.
  const fs::path folder = out.parent_path();
  if (!folder.empty() && !fs::is_directory(folder)) {
    throw Error(out.string() + ": cannot write the workbook: no such folder " + folder.string());
  }
  AtomicOutput file(out);
  file.close_for_library();
  build_and_close(report, file.temporary(), out);
  file.commit();
}

}  // namespace slicewise::report
