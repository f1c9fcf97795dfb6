// A reference process for the memory figure of `make bench`: IdleReference's `foundation` mode with
// FoundationEssentials alone — no FoundationInternationalization, so no ICU and none of its data.
//
// It does what hoorayd does most between two reminders — dates on a Gregorian calendar in a fixed
// time zone, JSON, a file path — then prints READY and sleeps until killed. Built like hoorayd
// (release, --static-swift-stdlib), its resident set is what a process of that kind costs when
// Foundation's international half is left out. It only exists to be measured.
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Writes `text` to a file descriptor unbuffered: READY must reach a pipe at once.
func say(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)
    _ = write(descriptor, &bytes, bytes.count)
}

var calendar = Calendar(identifier: .gregorian)
calendar.timeZone = TimeZone(secondsFromGMT: 3600) ?? .gmt
let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: Date())
let text = "\(parts.year ?? 0)-\(parts.month ?? 0)-\(parts.day ?? 0) \(parts.hour ?? 0):\(parts.minute ?? 0)"
let encoded = try JSONEncoder().encode(["now": text, "zone": TimeZone.current.identifier])
let decoded = try JSONDecoder().decode([String: String].self, from: encoded)
let home = FileManager.default.homeDirectoryForCurrentUser.path
say("\(decoded.count) \(home.isEmpty)\n", to: 2)
say("READY \(getpid())\n", to: 1)
while true { pause() }
