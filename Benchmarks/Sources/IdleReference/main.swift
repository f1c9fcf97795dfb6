// A reference process for `make bench`: does one small thing, prints READY, then sleeps until killed
// (or, in `exit` mode, exits at once).
//
// Built like hoorayd (release, --static-swift-stdlib), it shows what any Swift process of that kind
// costs before Hooray's own code does anything:
//
//   idle-reference exit         exits at once: what starting such a process costs
//   idle-reference plain        nothing: the Swift runtime alone
//   idle-reference dispatch     one block on DispatchQueue.global(), then sleep
//   idle-reference concurrency  one Task awaited (Swift concurrency's global executor), then sleep
//   idle-reference foundation   a little Foundation (dates, time zones, JSON, files), then sleep
//
// The idle figure counts this process's context switches while it sleeps; the memory figure reads
// its resident set. Neither is an assertion: this program only exists to be measured.
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

func ready() {
    FileHandle.standardOutput.write(Data("READY \(getpid())\n".utf8))
}

func sleepForever() -> Never {
    while true { pause() }
}

let mode = CommandLine.arguments.dropFirst().first ?? "plain"
switch mode {
case "exit":
    exit(0)
case "plain":
    break
case "dispatch":
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async { done.signal() }
    done.wait()
case "concurrency":
    let done = DispatchSemaphore(value: 0)
    // Detached: top-level code runs on the main actor, whose thread waits on the semaphore.
    Task.detached {
        await Task.yield()
        done.signal()
    }
    done.wait()
case "foundation":
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "EEE d MMM HH:mm"
    formatter.timeZone = TimeZone(identifier: "Europe/Berlin")
    let text = formatter.string(from: Date())
    let encoded = try JSONEncoder().encode(["now": text, "zone": TimeZone.current.identifier])
    let decoded = try JSONDecoder().decode([String: String].self, from: encoded)
    let home = FileManager.default.homeDirectoryForCurrentUser.path
    FileHandle.standardError.write(Data("\(decoded.count) \(home.isEmpty)\n".utf8))
default:
    FileHandle.standardError.write(Data("usage: IdleReference exit|plain|dispatch|concurrency|foundation\n".utf8))
    exit(2)
}
ready()
sleepForever()
