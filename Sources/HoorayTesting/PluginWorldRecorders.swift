import Foundation
import HoorayDelivery
import HoorayEngine
import HoorayKit
import HoorayKitTesting
import Logging

/// The world's delivery channel: a notification server that shows everything at once and
/// remembers it, with the world's time.
final class RecordingChannel: DeliveryChannel, @unchecked Sendable {
    // @unchecked: `records` and `nextServerID` are only touched while holding `lock`.
    private let lock = NSLock()
    private var records: [ShownNotice] = []
    private var nextServerID: UInt32 = 1
    let clock: ManualClock

    init(clock: ManualClock) {
        self.clock = clock
    }

    var name: String { "PluginWorld" }

    var shown: [ShownNotice] { lock.withLock { records } }

    func start(onEvent: @escaping @Sendable (ChannelEvent) -> Void) {}

    func status() async -> ServerStatus {
        .available(
            ServerInfo(
                name: "PluginWorld", vendor: "HoorayTesting", version: "1", specVersion: "1.2",
                capabilities: ["actions", "body"]))
    }

    func deliver(_ notice: Notice, id: NoticeID, replacing: String?) async -> ChannelOutcome {
        lock.withLock {
            records.append(ShownNotice(id: id, notice: notice, shownAt: clock.now, isUpdate: replacing != nil))
            if let replacing { return .delivered(handle: replacing) }
            defer { nextServerID += 1 }
            return .delivered(handle: String(nextServerID))
        }
    }

    func shutdown() async {}
}

/// The log lines of a world, in order.
final class LogRecorder: @unchecked Sendable {
    // @unchecked: `recorded` is only touched while holding `lock`.
    private let lock = NSLock()
    private var recorded: [LogLine] = []

    var lines: [LogLine] { lock.withLock { recorded } }

    func append(_ line: LogLine) {
        lock.withLock { recorded.append(line) }
    }
}

/// Sends log events to a ``LogRecorder``.
struct RecordingLogHandler: LogHandler {
    let label: String
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    func log(event: LogEvent) {
        recorder.append(LogLine(label: label, level: event.level, message: "\(event.message)"))
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}
