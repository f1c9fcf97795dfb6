// Times HoorayTOML alone on one file; compiled into the module by ../toml-read.sh. Prints, asserts nothing.
import Foundation

@main
struct TOMLReadBenchmark {
    static func cpuMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    /// The best CPU time of `runs` runs of `body`, and that of dropping what it made.
    static func best<Result>(_ runs: Int, _ body: () -> Result) -> (read: Double, free: Double) {
        var read = Double.infinity
        var free = Double.infinity
        for _ in 0..<runs {
            let start = cpuMilliseconds()
            var result: Result? = body()
            let made = cpuMilliseconds()
            withExtendedLifetime(result) {}
            result = nil
            read = min(read, made - start)
            free = min(free, cpuMilliseconds() - made)
        }
        return (read, free)
    }

    static func main() throws {
        let arguments = CommandLine.arguments
        let path = arguments[1]
        let runs = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let check = TOMLDocument.values(parsing: text)
        print(
            "\(path): \(text.utf8.count) bytes, \(check.root.count) top-level keys, \(check.diagnostics.count) mistakes"
        )
        let values = best(runs) { TOMLDocument.values(parsing: text) }
        print(
            String(
                format: "TOMLDocument.values(parsing:)  %8.1f ms CPU (best of %d), dropping the values %.1f ms",
                values.read, runs, values.free))
        let document = best(max(1, runs / 2)) { TOMLDocument(parsing: text) }
        print(
            String(
                format: "TOMLDocument(parsing:)         %8.1f ms CPU (best of %d), dropping the document %.1f ms",
                document.read, max(1, runs / 2), document.free))
    }
}
