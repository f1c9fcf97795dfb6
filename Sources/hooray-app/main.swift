import Glibc
import HoorayGtk

// `hooray-app`: Hooray's desktop window; `hooray-app --quick`: the small window to log a moment from
// anywhere. GTK runs on this, the main, thread.
let usage = """
    Usage: hooray-app [--quick]
      (none)     open Hooray's window, or raise it when it is open
      --quick    open a small window to log a moment: Enter saves, Esc closes
    """
let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(0)
}
// D-Bus activation starts the app with --gapplication-service, which the app heeds itself (HoorayApp);
// GApplication's other options would never reach GTK, so they are unknown here like any other.
if let unknown = arguments.first(where: { $0 != "--quick" && $0 != "--gapplication-service" }) {
    let said = "hooray-app: unknown option \(unknown); hooray-app takes --quick or nothing\n\(usage)\n"
    _ = said.withCString { write(2, $0, strlen($0)) }
    exit(2)
}
// A program the window runs (HoorayProgram) that exits before reading all its input must not take
// the window with it: a write to its closed pipe then fails (EPIPE) rather than raising SIGPIPE. GLib
// writes its sockets without raising it either way.
signal(SIGPIPE, SIG_IGN)
Localization.start()
let status = MainActor.assumeIsolated {
    arguments.contains("--quick") ? QuickLog().run() : HoorayApp().run()
}
exit(status)
