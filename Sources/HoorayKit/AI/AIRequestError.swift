/// Why an AI service gave no praise.
///
/// Its ``description`` is written for a person: what went wrong and what to do about it.
/// Descriptions never contain the API key or the user's anonymous id, so they are safe to log, to
/// store on a moment as its last sync error and to show. A failed request always leaves the offline
/// praise in place; ``isRetryable`` says whether trying the same request later may succeed, and
/// ``code`` names the failure for a log. It is a struct, not an enum, so that Hooray may tell new
/// failures apart without breaking a plugin that switches over them.
public struct AIRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The failure, in the host's terms (Hooray's own): the AI client makes them, and a plugin reads
    /// ``code``, ``isRetryable`` and ``description`` instead.
    package enum Reason: Sendable, Hashable {
        /// AI praise is off: the `[ai]` section sets no provider.
        case notConfigured
        /// The service did not answer completely within the configured time.
        case timedOut
        /// No connection could be made, or it broke; `reason` is the network library's explanation.
        case unreachable(reason: String)
        /// The service answered with an HTTP status other than success.
        case httpStatus(Int)
        /// The service answered with a redirect; Hooray never follows redirects, so the request's
        /// headers cannot reach another server.
        case redirected
        /// The answer was larger than the configured limit, in bytes, and was cut off.
        case responseTooLarge(limit: Int)
        /// The answer was not what the service's protocol promises; `what` says how.
        case malformedResponse(what: String)
        /// The endpoint is not allowed: plain `http` is allowed only to loopback, and only `http` and
        /// `https` are spoken. `url` is the endpoint without any user name or password.
        case insecureEndpoint(url: String)
        /// The API key file can be read or written by other users; `mode` is its permission bits.
        case apiKeyFileTooOpen(path: String, mode: Int)
        /// The API key could not be read; `reason` names the variable or file and says why.
        case apiKeyUnavailable(reason: String)
        /// The anonymous identity sent as `x-user-id` could not be read; `reason` names the file and
        /// the recovery. No request is made without a valid identity.
        case identityUnavailable(reason: String)
        /// The network library (libcurl, loaded when the first request is made) is not installed or
        /// could not be loaded; `reason` is the loader's explanation.
        case networkLibraryMissing(reason: String)
    }

    /// The failure.
    package let reason: Reason

    /// Creates the error of a failure.
    package init(_ reason: Reason) {
        self.reason = reason
    }

    /// AI praise is off: the `[ai]` section sets no provider. Compare with `==`:
    ///
    /// ```swift
    /// if error == .notConfigured { return }
    /// ```
    public static let notConfigured = AIRequestError(.notConfigured)
    /// The service did not answer completely within the configured time: worth retrying, as a
    /// plugin's test may script it (`ScriptedPraiseProvider([.failure(.timedOut)])`).
    public static let timedOut = AIRequestError(.timedOut)
    /// The service answered with a redirect.
    package static let redirected = AIRequestError(.redirected)
    /// No connection could be made, or it broke; `reason` is the network's explanation. Wrap an
    /// error of another kind from a praise request in it, or script it in a test.
    public static func unreachable(reason: String) -> AIRequestError { AIRequestError(.unreachable(reason: reason)) }
    /// The service answered with an HTTP status other than success, such as 503 (worth retrying)
    /// or 401 (not).
    public static func httpStatus(_ code: Int) -> AIRequestError { AIRequestError(.httpStatus(code)) }
    /// The answer was larger than the limit, in bytes.
    package static func responseTooLarge(limit: Int) -> AIRequestError {
        AIRequestError(.responseTooLarge(limit: limit))
    }
    /// The answer was not what the service's protocol promises.
    package static func malformedResponse(what: String) -> AIRequestError {
        AIRequestError(.malformedResponse(what: what))
    }
    /// The endpoint is not allowed.
    package static func insecureEndpoint(url: String) -> AIRequestError { AIRequestError(.insecureEndpoint(url: url)) }
    /// The API key file can be read or written by other users.
    package static func apiKeyFileTooOpen(path: String, mode: Int) -> AIRequestError {
        AIRequestError(.apiKeyFileTooOpen(path: path, mode: mode))
    }
    /// The API key could not be read.
    package static func apiKeyUnavailable(reason: String) -> AIRequestError {
        AIRequestError(.apiKeyUnavailable(reason: reason))
    }
    /// The anonymous identity could not be read.
    package static func identityUnavailable(reason: String) -> AIRequestError {
        AIRequestError(.identityUnavailable(reason: reason))
    }

    /// The failure's name, for a log or a script: `not-configured`, `timed-out`, `unreachable`,
    /// `http-status`, `redirected`, `response-too-large`, `malformed-response`, `insecure-endpoint`,
    /// `api-key-file-too-open`, `api-key-unavailable` or `identity-unavailable`; more may come.
    public var code: String {
        switch reason {
        case .notConfigured: "not-configured"
        case .timedOut: "timed-out"
        case .unreachable: "unreachable"
        case .httpStatus: "http-status"
        case .redirected: "redirected"
        case .responseTooLarge: "response-too-large"
        case .malformedResponse: "malformed-response"
        case .insecureEndpoint: "insecure-endpoint"
        case .apiKeyFileTooOpen: "api-key-file-too-open"
        case .apiKeyUnavailable: "api-key-unavailable"
        case .identityUnavailable: "identity-unavailable"
        case .networkLibraryMissing: "network-library-missing"
        }
    }

    /// Whether the same request may succeed later without the user changing anything.
    ///
    /// Timeouts, unreachable services, server errors (5xx), `408 Request Timeout` and
    /// `429 Too Many Requests` are worth retrying with backoff. Other client errors, malformed
    /// answers, redirects and configuration problems are not: they need a fix first.
    public var isRetryable: Bool {
        switch reason {
        case .timedOut, .unreachable: true
        case .httpStatus(let code): code >= 500 || code == 429 || code == 408
        case .notConfigured, .redirected, .responseTooLarge, .malformedResponse, .insecureEndpoint,
            .apiKeyFileTooOpen, .apiKeyUnavailable, .identityUnavailable, .networkLibraryMissing:
            false
        }
    }

    /// What went wrong and how to fix it, without any secret.
    public var description: String {
        switch reason {
        case .notConfigured:
            return "AI praise is off. To turn it on, set provider = \"hooray\" or \"openai\" and an endpoint "
                + "in the [ai] section of your hooray.toml (`hooray config path` shows where it is)."
        case .timedOut:
            return "The AI service did not answer in time. It may be busy or slow; Hooray will try again later. "
                + "If this keeps happening, raise timeout in the [ai] section."
        case .unreachable(let reason):
            return "Could not reach the AI service: \(reason). Check that the endpoint in the [ai] section "
                + "is right and that the service is running."
        case .httpStatus(let code):
            return "The AI service answered with HTTP status \(code)\(Self.statusHint(code))"
        case .redirected:
            return "The AI service answered with a redirect, which Hooray does not follow so that your request "
                + "never reaches another server. Set the endpoint in the [ai] section to the final address."
        case .responseTooLarge(let limit):
            return "The AI service sent more than \(limit) bytes, so the answer was dropped. If the service "
                + "is right to send that much, raise max_response_bytes in the [ai] section."
        case .malformedResponse(let what):
            return "The AI service's answer could not be used: \(what). Check that provider in the [ai] "
                + "section matches the service."
        case .insecureEndpoint(let url):
            return "The AI endpoint \(url) is not allowed: plain http is allowed only to loopback "
                + "(127.0.0.1, ::1, localhost), because it would send your words unencrypted. "
                + "Use an https:// endpoint."
        case .apiKeyFileTooOpen(let path, let mode):
            let octal = String(mode & 0o7777, radix: 8)
            let shown = String(repeating: "0", count: max(0, 4 - octal.count)) + octal
            return "The API key file \(path) can be read or changed by other users (mode \(shown)), "
                + "so Hooray will not use it. Run `chmod 600 \(path)` so only you can read it."
        case .apiKeyUnavailable(let reason):
            return "The AI service's API key is not available: \(reason)."
        case .identityUnavailable(let reason):
            return "No AI request was made because the anonymous identity is unavailable: \(reason)"
        case .networkLibraryMissing(let reason):
            return "No AI request was made because the network library libcurl could not be loaded (\(reason)). "
                + "Install it with `sudo apt install libcurl4` and try again."
        }
    }

    private static func statusHint(_ code: Int) -> String {
        switch code {
        case 401, 403:
            ". Check the API key: the one stored with `hooray ai set-key`, or the one api_key_env or "
                + "api_key_file in the [ai] section names."
        case 404: " (not found). Check the endpoint in the [ai] section, and the model for openai."
        case 408, 429: ". The service is busy; Hooray will try again later."
        case 500...599: ". The service has a problem of its own; Hooray will try again later."
        default: ". Check the endpoint and provider in the [ai] section."
        }
    }
}
