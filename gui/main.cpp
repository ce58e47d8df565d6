// `slicewise-gui`: the desktop entry point. All logic lives in sw_gui (gui/main_window.hpp).
#include <exception>
#include <iostream>

#include <QApplication>
#include <QCommandLineParser>

#include "gui/main_window.hpp"

int main(int argc, char** argv) {
  try {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("slicewise"));  // QSettings: recent files
    QApplication::setApplicationName(QStringLiteral("slicewise-gui"));
    QApplication::setApplicationVersion(QStringLiteral(SW_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("GPU-sharing simulator and ROI planner"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("scenario"), QStringLiteral("Scenario file to open (*.json)."),
                                 QStringLiteral("[scenario]"));
    parser.process(app);

    slicewise::gui::MainWindow window;
    if (const QStringList args = parser.positionalArguments(); !args.isEmpty()) {
      window.open_scenario(args.first());  // a bad file shows its diagnostics in the window
    }
    window.show();
    return QApplication::exec();
  } catch (const std::exception& e) {
    std::cerr << "slicewise-gui: " << e.what() << "\n";
    return 1;
  }
}
