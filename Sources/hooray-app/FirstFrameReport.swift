import Glibc
import HoorayGtk

/// For the cold-start benchmark (scripts/bench/app_start.py): with `HOORAY_APP_REPORT_FIRST_FRAME=1`,
/// the app writes one line to its standard error when each window has painted its first frame
/// (GdkFrameClock `after-paint`), with the CLOCK_MONOTONIC time in nanoseconds. Nothing otherwise.
enum FirstFrameReport {
    /// The environment variable that turns it on.
    static let variable = "HOORAY_APP_REPORT_FIRST_FRAME"

    /// Reports the first frame of each window `application` opens, when the variable is `1`.
    @MainActor
    static func attach(to application: Application) {
        guard let value = getenv(variable), String(cString: value) == "1" else { return }
        application.reportFirstFrames { title in
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nanoseconds = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
            let name = title.map { String(cString: $0) } ?? ""
            let line =
                "hooray-app: first frame painted (GdkFrameClock after-paint): \(name) at CLOCK_MONOTONIC \(nanoseconds) ns\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
        }
    }
}
