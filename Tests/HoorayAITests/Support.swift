import Foundation
import HoorayAI
import HoorayKeyring
import HoorayKit
import HooraySystemTesting
import Logging
import Synchronization
import Testing

/// The anonymous identity the tests send; every test checks it never leaks into errors or logs.
let testUserID = UUID(uuidString: "6F1C2A3B-4D5E-4F60-8A7B-9C0D1E2F3A4B")!

/// A key that must never appear anywhere but in the `Authorization` header.
let testAPIKey = "sk-test-SECRETKEY-0123456789abcdef"

/// A moment as the wins plugin would send it.
func makeMoment(text: String = "Cleaned something quietly bothering me") -> MomentForPraise {
    MomentForPraise(
        clientID: UUID(uuidString: "A1B2C3D4-E5F6-4711-8899-AABBCCDDEEFF")!,
        text: text,
        happenedAt: Date(timeIntervalSince1970: 1_750_000_000),
        submittedAt: Date(timeIntervalSince1970: 1_750_000_300),
        timeZone: "Europe/Berlin",
        timeAgo: "5 min ago")
}

/// Log lines recorded by a test's logger, to check that no secret reaches them.
final class RecordedLog: Sendable {
    private let lines = Mutex<[String]>([])

    var all: [String] { lines.withLock { $0 } }

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    /// A logger at `trace` that records every message with its metadata.
    func logger() -> Logger {
        Logger(label: "hooray.ai.tests") { _ in RecordingHandler(log: self) }
    }
}

private struct RecordingHandler: LogHandler {
    let log: RecordedLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
        log.append("\(event.level) \(event.message) \(all)")
    }
}

/// A keyring on no bus at all, so that tests never look into (or D-Bus-activate) the keyring of the
/// session they run in.
let noKeyring = Keyring(busAddress: "")

/// Builds a provider for a test server's endpoint.
func makeProvider(
    _ provider: AIConfiguration.Provider, endpoint: URL, model: String? = "test-model", apiKeyEnv: String? = nil,
    apiKeyFile: String? = nil, apiKey: AIConfiguration.KeyStore? = nil, keyring: Keyring = noKeyring,
    timeout: Duration = .seconds(10), maxResponseBytes: Int = 65_536, log: RecordedLog = RecordedLog()
) -> CurlPraiseProvider {
    CurlPraiseProvider(
        configuration: AIConfiguration(
            provider: provider, endpoint: endpoint, model: model, apiKeyEnv: apiKeyEnv, apiKeyFile: apiKeyFile,
            apiKey: apiKey, connectTimeout: .seconds(2), timeout: timeout, maxResponseBytes: maxResponseBytes),
        userID: testUserID,
        logger: log.logger(),
        keyring: keyring)
}

/// The error a request ends with, or `nil` when it succeeded.
func requestError(_ provider: CurlPraiseProvider, moment: MomentForPraise = makeMoment()) async -> (any Error)? {
    do {
        _ = try await provider.praise(for: moment)
        return nil
    } catch {
        return error
    }
}
