import ArgumentParser
import Foundation
import HoorayAI
import HoorayCLIHost
import HoorayEngine
import HoorayKit
import HoorayText

/// What to do about a failed AI request, by whose problem it is: the service's (a 5xx, busy,
/// unreachable), the key (401, 403), the address (404) or the `[ai]` section. `hooray doctor` and
/// `hooray ai test` say the same.
enum AIAdvice {
    /// The fix for a failed request, in words to follow "Fix:".
    static func fix(for error: any Error) -> String {
        guard let error = error as? AIRequestError else {
            return "try again; offline praise keeps working meanwhile"
        }
        switch error.reason {
        case .httpStatus(let code) where code >= 500:
            return "nothing on your side: the AI service has a problem of its own (HTTP \(code)) and your [ai] "
                + "section is fine. Offline praise keeps working, and Hooray asks again later; if it lasts, "
                + "tell whoever runs the service"
        case .httpStatus(429), .httpStatus(408), .timedOut:
            return "nothing on your side: the AI service is busy or slow. Offline praise keeps working, and Hooray "
                + "asks again later; if it is always slow, raise timeout in the [ai] section"
        case .httpStatus(401), .httpStatus(403):
            return "the service refused the API key: store the right one with `hooray ai set-key`, or fix the "
                + "api_key_env or api_key_file that the [ai] section names"
        case .httpStatus(404):
            return "nothing answers at that address: check endpoint (and model, for openai) in the [ai] section"
        case .httpStatus:
            return "the service refused the request: check endpoint and provider in the [ai] section"
        case .unreachable:
            return "check that the AI service is running and that endpoint in the [ai] section is right; "
                + "offline praise keeps working meanwhile"
        case .networkLibraryMissing:
            return "install libcurl with `sudo apt install libcurl4` (the Hooray package depends on it, so "
                + "something removed it); offline praise keeps working meanwhile"
        case .identityUnavailable:
            return "`hooray identity` says what is wrong with the anonymous id; offline praise keeps working meanwhile"
        case .notConfigured, .redirected, .responseTooLarge, .malformedResponse, .insecureEndpoint,
            .apiKeyFileTooOpen, .apiKeyUnavailable:
            return "fix the [ai] section as the message says (`hooray config path` lists the files); "
                + "offline praise keeps working meanwhile"
        }
    }

    /// The exit status of `hooray ai test` for a failed request: 69 when the service cannot be
    /// reached, 75 when it is busy or has a problem of its own, 78 when the `[ai]` section must
    /// change, 1 when the service refused the request (the key, the address).
    static func exitStatus(for error: any Error) -> ExitStatus {
        guard let error = error as? AIRequestError else { return .failed }
        switch error.reason {
        case .unreachable, .networkLibraryMissing: return .unavailable
        case .timedOut: return .busy
        case .httpStatus(let code) where code >= 500 || code == 429 || code == 408: return .busy
        case .httpStatus, .identityUnavailable: return .failed
        case .notConfigured, .redirected, .responseTooLarge, .malformedResponse, .insecureEndpoint,
            .apiKeyFileTooOpen, .apiKeyUnavailable:
            return .configuration
        }
    }
}

extension AIGroup {
    struct Test: AsyncParsableCommand, OffersJSON {
        static let configuration = CommandConfiguration(
            commandName: "test",
            abstract: "Ask the configured AI service for praise once, and show how it went.",
            discussion: """
                Sends one request, as a logged win would, to the provider of the [ai] section and prints its \
                figures: provider, model, endpoint host, HTTP status, the time it took and the praise. When it \
                fails, says whose problem it is and the fix, as `hooray doctor` does. Nothing is saved.

                Exits 0 when praise came back; 1 when the service refused the request (the API key, the \
                address); 69 when it cannot be reached (or libcurl is not installed); 75 when it is busy or has a problem of its own \
                (HTTP 5xx, 429, a time-out); 78 when AI is off or the [ai] section must change.
                """)

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() async throws {
            let session = try CLISession(configFile: global.configFile)
            let (loaded, ignored) = try session.loadConfigurationLeniently(plugins: installedPlugins)
            for line in ignored { warn(TerminalText.safe(line, multiline: true)) }
            if loaded.aiSectionIgnored {
                warn(
                    "hooray ai test: the [ai] section has errors, so no request was made; `hooray config check` shows them."
                )
                throw ExitCode(ExitStatus.configuration.rawValue)
            }
            let ai = loaded.ai
            guard ai.provider != .off, let endpoint = ai.endpoint else {
                warn(
                    "hooray ai test: AI praise is off, so there is nothing to test. To turn it on, set provider = "
                        + "\"hooray\" or \"openai\" and an endpoint in the [ai] section of \(UserPaths.configFile) "
                        + "(docs/ai.md).")
                throw ExitCode(ExitStatus.configuration.rawValue)
            }
            let exchange = AIExchange()
            let clock = ContinuousClock()
            let start = clock.now
            let result = await AIExchange.$current.withValue(exchange) {
                await session.askAIOnce(ai, identityStore: loaded.identityStore)
            }
            let elapsed = clock.now - start
            var report = AITestReport(
                ok: false, provider: ai.provider.rawValue, model: ai.provider == .openai ? ai.model : nil,
                endpoint: endpoint.absoluteString, host: endpoint.host ?? endpoint.absoluteString, status: nil,
                seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                praise: nil, problem: nil, fix: nil)
            let failure: (any Error)?
            switch result {
            case .success(let praise):
                report.ok = true
                report.status = exchange.status
                report.praise = praise.text
                failure = nil
            case .failure(let error):
                if case .httpStatus(let code)? = (error as? AIRequestError)?.reason { report.status = code }
                report.problem = "\(error)"
                report.fix = AIAdvice.fix(for: error)
                failure = error
            }
            if json {
                print(try Output.json(report))
            } else {
                print(report.text)
            }
            if let failure { throw ExitCode(AIAdvice.exitStatus(for: failure).rawValue) }
        }
    }
}

/// `hooray ai test --json`: the `aiTest` type of docs/json.md.
struct AITestReport: Encodable {
    var ok: Bool
    var provider: String
    var model: String?
    var endpoint: String
    var host: String
    var status: Int?
    var seconds: Double
    var praise: String?
    var problem: String?
    var fix: String?

    enum CodingKeys: String, CodingKey {
        case ok, provider, model, endpoint, host, status, seconds, praise, problem, fix
    }

    /// Every key is written, `null` when it does not apply, so scripts read each answer alike.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ok, forKey: .ok)
        try container.encode(provider, forKey: .provider)
        try container.encode(model, forKey: .model)
        try container.encode(endpoint, forKey: .endpoint)
        try container.encode(host, forKey: .host)
        try container.encode(status, forKey: .status)
        try container.encode((seconds * 1000).rounded() / 1000, forKey: .seconds)
        try container.encode(praise, forKey: .praise)
        try container.encode(problem, forKey: .problem)
        try container.encode(fix, forKey: .fix)
    }

    /// The figures, one per line, then the praise or the problem and its fix.
    var text: String {
        var lines = [
            "Provider: \(provider)" + (model.map { ", model \(TerminalText.safe($0))" } ?? ""),
            "Endpoint: \(TerminalText.safe(host)) (\(TerminalText.safe(endpoint)))",
            "Status:   " + (status.map { "HTTP \($0)" } ?? (ok ? "answered" : "no HTTP answer")),
            "Time:     " + String(format: "%.2f s", seconds),
        ]
        if let praise {
            lines.append("Praise:   " + TerminalText.safe(praise))
        }
        if let problem, let fix {
            lines.append("✗ " + TerminalText.safe(problem))
            lines.append("Fix: " + fix.capitalizedFirst + ".")
        }
        return lines.joined(separator: "\n")
    }
}
