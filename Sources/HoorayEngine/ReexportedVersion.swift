// `HoorayVersion` and `HostWords` live in a module of their own, which the `hooray` front door links
// without Foundation.
@_exported import HoorayBasics
import HoorayClient

/// The system's time zone, read afresh each time (HoorayClient's: each client reads it for a
/// command's `environment.time_zone`, the desktop app too, which links no engine).
public typealias SystemTimeZone = HoorayClient.SystemTimeZone
