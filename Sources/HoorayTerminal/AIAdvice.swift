import HoorayAI
import HoorayBasics
import HoorayKit

/// What to do about a failed AI request, by whose problem it is: the service's (a 5xx, busy,
/// unreachable), the key (401, 403), the address (404) or the `[ai]` section. `hooray doctor` and
/// `hooray ai test` say the same.
public enum AIAdvice {
    /// The fix for a failed request, in words to follow "Fix:".
    public static func fix(for error: any Error) -> String {
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
    public static func exitStatus(for error: any Error) -> ExitStatus {
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
