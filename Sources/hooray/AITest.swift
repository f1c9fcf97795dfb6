import ArgumentParser
import Foundation
import HoorayAI
import HoorayCLIHost
import HoorayEngine
import HoorayKit
import HoorayTerminal
import HoorayText

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
