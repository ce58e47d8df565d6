// libFuzzer harness: a result file through the renderers that need no display: the result read and
// checked, priced as its scenario says, then the terminal summary (`simulate`, `roi`) and the
// Markdown report (`report --format md`) with its figure list. Every message passes the hygiene
// check, and the terminal summary holds no control character (its length follows the result's).
#include <string>

#include "core/error.hpp"
#include "fuzz/fuzz_input.hpp"
#include "report/roi_report.hpp"
#include "report/simulate_text.hpp"
#include "scenario/result_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace report = slicewise::report;
  static slicewise::fuzz::InputFile input("result.json");
  try {
    const auto result = slicewise::scenario::load_result(input.write(slicewise::fuzz::bytes_of(data, size)));
    const auto roi = report::priced_roi_report(result, result.input);
    const std::string text = report::simulate_text(result, result.input, roi.costs);
    slicewise::fuzz::check_message(text, "summary", false);  // as long as the result is large
    report::roi_report_markdown(roi, report::report_figures(roi));
  } catch (const slicewise::Error& e) {
    slicewise::fuzz::check_message(e.what());
  }
  return 0;
}
