import Foundation
import HoorayAI
import HoorayConfig
import HoorayKit
import HoorayTesting
import Testing

@Suite("Configuration")
struct ConfigurationTests {
    /// An `[ai]` table as the configuration parser would produce it.
    private func section(_ values: [String: ConfigNode.Value]) -> ConfigNode {
        var table = ConfigTable()
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            table.set(ConfigNode(value), forKey: key, keyLocation: nil)
        }
        return ConfigNode(.table(table))
    }

    private func decode(_ values: [String: ConfigNode.Value]) throws(ConfigDiagnostics) -> AIConfiguration {
        try ConfigDecoder().decode(AIConfiguration.self, from: section(values), at: ConfigKeyPath(keys: ["ai"])).value
    }

    private func messages(_ values: [String: ConfigNode.Value]) -> [String] {
        do {
            _ = try decode(values)
            return []
        } catch {
            return error.diagnostics.filter(\.isError).map(\.message)
        }
    }

    @Test func aMissingSectionMeansAIIsOff() throws {
        let configuration = try decode([:])

        #expect(configuration == .defaults)
        #expect(configuration.provider == .off)
        #expect(configuration.timeout == .seconds(15))
        #expect(configuration.connectTimeout == .seconds(5))
        #expect(configuration.maxResponseBytes == 65_536)
    }

    @Test func aFullSectionDecodes() throws {
        let configuration = try decode([
            "provider": .string("openai"), "endpoint": .string("https://api.openai.com"),
            "model": .string("gpt-4o-mini"), "api_key_env": .string("OPENAI_API_KEY"),
            "connect_timeout": .string("3s"), "timeout": .string("1m"), "max_response_bytes": .integer(4096),
        ])

        #expect(
            configuration
                == AIConfiguration(
                    provider: .openai, endpoint: URL(string: "https://api.openai.com"), model: "gpt-4o-mini",
                    apiKeyEnv: "OPENAI_API_KEY", connectTimeout: .seconds(3), timeout: .seconds(60),
                    maxResponseBytes: 4096))
    }

    @Test func aBadProviderNameListsTheAllowedOnes() {
        #expect(
            messages(["provider": .string("chatgpt")])
                == ["ai.provider: \"chatgpt\" is not one of \"off\", \"hooray\" or \"openai\""])
    }

    @Test(arguments: [
        (["provider": ConfigNode.Value.string("hooray")], "needs an endpoint"),
        (["provider": .string("openai"), "endpoint": .string("http://localhost:11434")], "needs a model"),
        (["endpoint": .string("http://192.0.2.1")], "plain http:// is allowed only to this computer"),
        (["timeout": .string("0s")], "out of range"),
        (["max_response_bytes": .integer(10)], "out of range"),
        (["api_key_env": .string("sk-abc def")], "not the key itself"),
        (["api_key_env": .string("K"), "api_key_file": .string("/k")], "not both"),
        (["api_key": .string("file")], "api_key takes only \"keyring\""),
        (["api_key": .string("keyring"), "api_key_env": .string("K")], "keep only one of api_key, api_key_env"),
        (["api_key": .string("keyring"), "api_key_file": .string("/k")], "keep only one of api_key, api_key_env"),
    ])
    func aBadSettingIsExplained(values: [String: ConfigNode.Value], expected: String) {
        let found = messages(values)

        #expect(found.count == 1)
        #expect(found.first?.contains(expected) == true, "\(found)")
    }

    @Test(arguments: ["api_key_env", "api_key"])
    func aKeyPastedIntoAKeySettingIsNotRepeated(setting: String) {
        let found = messages([setting: .string(testAPIKey)])

        #expect(!found.isEmpty)
        #expect(!found.joined().contains(testAPIKey))
        #expect(!found.joined().contains("SECRETKEY"))
    }

    @Test func theKeyringIsNamedWithApiKey() throws {
        let configuration = try decode([
            "provider": .string("openai"), "endpoint": .string("https://api.openai.com"),
            "model": .string("gpt-4o-mini"), "api_key": .string("keyring"),
        ])

        #expect(configuration.apiKey == .keyring)
        #expect(configuration.apiKeyEnv == nil)
        #expect(configuration.apiKeyFile == nil)
    }
}

@Suite("API key shape")
struct APIKeyShapeTests {
    @Test(arguments: [
        ("sk-abcdefgh", "sk-abcdefgh"),
        ("sk-abcdefgh\n", "sk-abcdefgh"),
        ("sk-abcdefgh\r\n", "sk-abcdefgh"),
        ("!#$%&'()*+,-./:;<=>?@[]^_`{|}~", "!#$%&'()*+,-./:;<=>?@[]^_`{|}~"),
        (String(repeating: "k", count: 4096), String(repeating: "k", count: 4096)),
        (String(repeating: "k", count: 4096) + "\n", String(repeating: "k", count: 4096)),
    ])
    func aPlausibleKeyIsAcceptedWithoutOneTrailingLineBreak(input: String, key: String) throws {
        #expect(try APIKeyShape.check(input) == key)
    }

    @Test(arguments: [
        ("", "No key was given."),
        ("\n", "No key was given."),
        ("\r\n", "No key was given."),
        ("sk-abcdefgh\n\n", "line break inside"),
        ("sk-abcd\nefgh", "line break inside"),
        ("sk-abcdefgh\r", "line break inside"),
        (" sk-abcdefgh", "spaces or tabs"),
        ("sk-abcdefgh ", "spaces or tabs"),
        ("sk-abcd\tefgh", "spaces or tabs"),
        ("sk-abcdéfgh", "other than visible ASCII"),
        ("sk-abcd\u{7F}efgh", "other than visible ASCII"),
        ("sk-abcd\u{0}efgh", "other than visible ASCII"),
        ("“sk-abcdefgh”", "other than visible ASCII"),
        ("sk-abcd", "7 characters long, too short"),
        (String(repeating: "k", count: 4097), "longer than any API key"),
        (String(repeating: "k", count: 100_000), "longer than any API key"),
    ])
    func anImplausibleKeyIsRefusedWithTheFixAndWithoutRepeatingIt(input: String, problem: String) {
        #expect {
            try APIKeyShape.check(input)
        } throws: { error in
            guard let error = error as? APIKeyShapeError else { return false }
            let said = error.description
            return said.contains(problem) && !error.fix.isEmpty && (input.count < 8 || !said.contains(input))
        }
    }
}

@Suite("Retry timing")
struct RetryDelayTests {
    @Test func delaysStayWithinTheUpperHalfOfTheirCeiling() {
        var random = SeededRandomNumberGenerator(seed: 7)
        for attempt in 1...12 {
            for _ in 0..<50 {
                let delay = retryDelay(attempt: attempt, base: .seconds(30), cap: .seconds(3600), random: &random)
                let ceiling = min(Duration.seconds(3600), .seconds(30) * (1 << (attempt - 1)))
                #expect(delay >= ceiling / 2 && delay <= ceiling, "attempt \(attempt): \(delay)")
            }
        }
    }

    @Test func delaysGrowUntilTheCap() {
        for seed in UInt64(0)..<20 {
            var random = SeededRandomNumberGenerator(seed: seed)
            let delays = (1...10).map {
                retryDelay(attempt: $0, base: .seconds(10), cap: .seconds(600), random: &random)
            }
            // Ceilings 10 s, 20 s, … 320 s: each range starts where the one before ends.
            let growing = delays.prefix(6)
            #expect(zip(growing, growing.dropFirst()).allSatisfy { $0 <= $1 }, "\(delays)")
            #expect(delays[0] <= .seconds(10))
            // From the 7th try the ceiling is the cap.
            #expect(delays.dropFirst(6).allSatisfy { $0 >= .seconds(300) && $0 <= .seconds(600) }, "\(delays)")
        }
    }

    @Test(arguments: [-3, 0, 1, 63, 64, 1000, Int.max])
    func anyAttemptNumberGivesABoundedDelay(attempt: Int) {
        var random = SeededRandomNumberGenerator(seed: 1)

        let delay = retryDelay(attempt: attempt, base: .milliseconds(500), cap: .seconds(120), random: &random)

        #expect(delay > .zero && delay <= .seconds(120))
    }

    @Test func retryableErrorsAreTheTransientOnes() {
        let retryable: [AIRequestError] = [
            .timedOut, .unreachable(reason: "refused"), .httpStatus(500), .httpStatus(503), .httpStatus(429),
        ]
        let final: [AIRequestError] = [
            .httpStatus(400), .httpStatus(401), .httpStatus(404), .malformedResponse(what: "x"), .redirected,
            .insecureEndpoint(url: "http://x"), .responseTooLarge(limit: 1), .notConfigured,
            .apiKeyUnavailable(reason: "x"), .apiKeyFileTooOpen(path: "/k", mode: 0o644),
        ]

        #expect(retryable.filter { !$0.isRetryable }.isEmpty)
        #expect(final.filter(\.isRetryable).isEmpty)
    }
}

@Suite("Praise text")
struct PraiseTextTests {
    @Test(arguments: [
        ("  You did it.  ", "You did it."),
        ("Line one\nline two\r\n\tend", "Line one line two end"),
        ("bell\u{07}and\u{1B}[31mescape", "belland[31mescape"),
        ("\u{202E}reversed\u{2066}", "reversed"),
        ("<b>Tom & Jerry</b>", "<b>Tom & Jerry</b>"),
        ("👩‍👩‍👧 family time", "👩‍👩‍👧 family time"),
        (" \n\t\u{07} ", ""),
    ])
    func textIsCleanedButNeverInterpreted(raw: String, expected: String) {
        #expect(PraiseText.sanitized(raw) == expected)
    }

    @Test(arguments: [
        ("<b>Tom & Jerry</b>", true),
        ("You did it</i>", true),
        ("Click <a href='x'>here</a>", true),
        ("Fish &amp; chips", true),
        ("Rest &#60;3", true),
        ("<!-- hidden -->", true),
        ("Tom & Jerry", false),
        ("3 < 5 and 5 > 3", false),
        ("Love you <3", false),
        ("Salt & pepper; both", false),
    ])
    func markupIsRecognisedButPlainSymbolsAreNot(text: String, isMarkup: Bool) {
        #expect(PraiseText.containsMarkup(text) == isMarkup)
    }

    @Test func longTextIsCutWithAnEllipsis() {
        let text = PraiseText.sanitized(String(repeating: "great ", count: 200))

        #expect(text.count <= PraiseText.maximumLength)
        #expect(text.hasSuffix("…"))
    }
}
