import Foundation
import HoorayEngine
import Logging

/// Logs one line per message to standard error, in a form journald understands.
///
/// Under systemd (`JOURNAL_STREAM` set) each line starts with a syslog priority prefix such as
/// `<6>`, which journald turns into the entry's priority; the journal adds the time itself. In a
/// terminal each line starts with the local time and the level instead.
public struct StderrLogHandler: LogHandler {
    /// The level below which messages are dropped: this logger's own when set, else the shared one.
    public var logLevel: Logger.Level {
        get { ownLevel ?? shared.level }
        set { ownLevel = newValue }
    }
    var ownLevel: Logger.Level?
    let shared: SharedLogLevel
    /// Metadata attached to every message of this logger.
    public var metadata: Logger.Metadata = [:]
    let label: String
    let journal: Bool

    /// Creates a handler.
    ///
    /// - Parameters:
    ///   - label: The logger's label, printed before each message (`reminders`, `hoorayd`).
    ///   - level: The lowest level to print, shared by every logger so that a reload can change it.
    ///   - environment: The process environment; `JOURNAL_STREAM` selects the journald form.
    public init(
        label: String, level: SharedLogLevel, environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.label = label
        self.shared = level
        self.journal = environment["JOURNAL_STREAM"] != nil
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let extra =
            merged.isEmpty
            ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let text = "\(event.message)\(extra)".replacingOccurrences(of: "\n", with: " ")
        let line: String
        if journal {
            line = "<\(Self.priority(event.level))>\(label): \(text)\n"
        } else {
            line = "\(Self.timestamp()) \(event.level) \(label): \(text)\n"
        }
        FileHandle.standardError.write(Data(line.utf8))
    }

    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}

/// The log level of every logger of the process, changeable while it runs (`[log] level` on reload).
public final class SharedLogLevel: @unchecked Sendable {
    // @unchecked: `value` is guarded by `lock`.
    private let lock = NSLock()
    private var value: Logger.Level

    /// Creates the shared level.
    public init(_ level: Logger.Level) {
        value = level
    }

    /// The current level.
    public var level: Logger.Level {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
