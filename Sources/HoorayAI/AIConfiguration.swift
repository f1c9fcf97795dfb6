import Foundation
import HoorayCalendar
import HoorayKit

/// The `[ai]` section: which AI service writes praise, and how carefully Hooray talks to it.
///
/// AI is off until a provider is set. The defaults are safe for any provider; the endpoint (and,
/// for `openai`, the model) must be given.
///
/// ```toml
/// [ai]
/// provider = "openai"
/// endpoint = "http://127.0.0.1:11434"   # Ollama on this computer
/// model = "llama3.2"
/// timeout = "15s"
/// ```
///
/// The API key is never written in the configuration itself: `api_key_env` names an environment
/// variable, `api_key_file` a file readable only by the user, and `api_key = "keyring"` the key that
/// `hooray ai set-key` stored in the desktop's keyring; whichever is set is read at request time.
/// With none of them set, a key stored in the keyring for the provider is used when there is one.
public struct AIConfiguration: Sendable, Hashable, Decodable {
    /// The kinds of AI service Hooray can ask for praise.
    public enum Provider: String, Sendable, Hashable, CaseIterable, Decodable {
        /// No AI: only offline praise.
        case off
        /// The Hooray backend: `POST {endpoint}/moments` with the moment, answered with praise.
        case hooray
        /// OpenAI-compatible chat completions: `POST {endpoint}/v1/chat/completions`; also Ollama,
        /// llama.cpp and other local servers.
        case openai
    }

    /// Where the API key is kept, besides an environment variable or a file.
    public enum KeyStore: String, Sendable, Hashable, CaseIterable {
        /// The desktop's keyring (Secret Service), where `hooray ai set-key` stores it.
        case keyring
    }

    /// The section's name in the configuration.
    public static let sectionName = "ai"

    /// AI off, with the default limits.
    public static let defaults = AIConfiguration()

    /// Which service to ask; `provider`, `off` by default.
    public var provider: Provider
    /// The service's base address, such as `https://api.openai.com`; `endpoint`. Plain `http` is
    /// allowed only to loopback.
    public var endpoint: URL?
    /// The model to ask, for `openai`, such as `gpt-4o-mini` or `llama3.2`; `model`.
    public var model: String?
    /// The name of the environment variable holding the API key, such as `OPENAI_API_KEY`; `api_key_env`.
    public var apiKeyEnv: String?
    /// The path of a file holding the API key, mode 0600 or stricter and owned by the user; `api_key_file`.
    /// A leading `~/` means the home directory.
    public var apiKeyFile: String?
    /// Where else the API key is kept: `api_key = "keyring"` for the key stored by `hooray ai set-key`.
    public var apiKey: KeyStore?
    /// How long connecting may take; `connect_timeout`, 5 seconds by default.
    public var connectTimeout: Duration
    /// How long a whole request may take, answer included; `timeout`, 15 seconds by default.
    public var timeout: Duration
    /// The largest answer accepted, in bytes; `max_response_bytes`, 64 KiB by default.
    public var maxResponseBytes: Int

    /// The range `connect_timeout` must lie in, in seconds.
    public static let connectTimeoutRange = 1...60
    /// The range `timeout` must lie in, in seconds.
    public static let timeoutRange = 1...300
    /// The range `max_response_bytes` must lie in.
    public static let maxResponseBytesRange = 1024...16_777_216

    /// Creates a configuration. Values are not checked here; decoding checks them, and requests
    /// refuse unsafe endpoints by themselves.
    ///
    /// - Parameters:
    ///   - provider: Which service to ask.
    ///   - endpoint: The service's base address.
    ///   - model: The model, for `openai`.
    ///   - apiKeyEnv: The environment variable holding the API key.
    ///   - apiKeyFile: The file holding the API key.
    ///   - apiKey: The key is the one stored in the keyring (`api_key = "keyring"`).
    ///   - connectTimeout: How long connecting may take.
    ///   - timeout: How long a whole request may take.
    ///   - maxResponseBytes: The largest answer accepted.
    public init(
        provider: Provider = .off, endpoint: URL? = nil, model: String? = nil, apiKeyEnv: String? = nil,
        apiKeyFile: String? = nil, apiKey: KeyStore? = nil, connectTimeout: Duration = .seconds(5),
        timeout: Duration = .seconds(15), maxResponseBytes: Int = 65_536
    ) {
        self.provider = provider
        self.endpoint = endpoint
        self.model = model
        self.apiKeyEnv = apiKeyEnv
        self.apiKeyFile = apiKeyFile
        self.apiKey = apiKey
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }

    fileprivate enum CodingKeys: String, CodingKey {
        case provider, endpoint, model
        case apiKeyEnv = "api_key_env"
        case apiKeyFile = "api_key_file"
        case apiKey = "api_key"
        case connectTimeout = "connect_timeout"
        case timeout
        case maxResponseBytes = "max_response_bytes"
    }

    /// Decodes the section, reporting every bad setting at its value.
    ///
    /// Besides types and ranges it checks what would otherwise fail at the first request: a
    /// provider without an endpoint (or, for `openai`, a model), an endpoint Hooray would refuse,
    /// more than one key source at once, and an `api_key_env` or `api_key` that is not what it
    /// should be (a key pasted there by mistake is not repeated in the message).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = AIConfiguration()
        var errors = ConfigErrorCollector()
        provider = errors.attempt { try container.decodeIfPresent(Provider.self, forKey: .provider) ?? .off } ?? .off
        endpoint = errors.attempt { try container.decodeEndpoint() } ?? nil
        model = errors.attempt { try container.decodeNonEmpty(.model, example: "\"gpt-4o-mini\"") } ?? nil
        apiKeyEnv = errors.attempt { try container.decodeVariableName() } ?? nil
        apiKeyFile =
            errors.attempt { try container.decodeNonEmpty(.apiKeyFile, example: "\"~/.config/hooray/ai-key\"") } ?? nil
        apiKey = errors.attempt { try container.decodeKeyStore() } ?? nil
        connectTimeout =
            errors.attempt {
                try container.decodeSeconds(
                    .connectTimeout, default: defaults.connectTimeout, within: Self.connectTimeoutRange)
            } ?? defaults.connectTimeout
        timeout =
            errors.attempt {
                try container.decodeSeconds(.timeout, default: defaults.timeout, within: Self.timeoutRange)
            } ?? defaults.timeout
        maxResponseBytes =
            errors.attempt {
                guard let value = try container.decodeIfPresent(Int.self, forKey: .maxResponseBytes) else {
                    return defaults.maxResponseBytes
                }
                let range = Self.maxResponseBytesRange
                guard range.contains(value) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .maxResponseBytes, in: container,
                        debugDescription: "\(value) is out of range; use a size from \(range.lowerBound) to "
                            + "\(range.upperBound) bytes")
                }
                return value
            } ?? defaults.maxResponseBytes
        if apiKeyEnv != nil, apiKeyFile != nil {
            errors.record(
                DecodingError.dataCorruptedError(
                    forKey: .apiKeyFile, in: container,
                    debugDescription: "set either api_key_env or api_key_file, not both"))
        }
        if apiKey != nil, apiKeyEnv != nil || apiKeyFile != nil {
            let other = apiKeyEnv != nil ? "api_key_env" : "api_key_file"
            errors.record(
                DecodingError.dataCorruptedError(
                    forKey: .apiKey, in: container,
                    debugDescription: "api_key = \"keyring\" and \(other) both say where the key is; keep only one "
                        + "of api_key, api_key_env and api_key_file"))
        }
        if provider != .off, endpoint == nil, errors.errors.isEmpty {
            errors.record(
                DecodingError.dataCorruptedError(
                    forKey: .provider, in: container,
                    debugDescription: "provider \"\(provider.rawValue)\" needs an endpoint, such as "
                        + "endpoint = \"https://api.example.com\""))
        }
        if provider == .openai, model == nil, errors.errors.isEmpty {
            errors.record(
                DecodingError.dataCorruptedError(
                    forKey: .provider, in: container,
                    debugDescription: "provider \"openai\" needs a model, such as model = \"gpt-4o-mini\" "
                        + "or, for Ollama, model = \"llama3.2\""))
        }
        try errors.throwIfAny()
    }
}

extension KeyedDecodingContainer where Key == AIConfiguration.CodingKeys {
    fileprivate func decodeEndpoint() throws -> URL? {
        guard let url = try decodeIfPresent(URL.self, forKey: .endpoint) else { return nil }
        do {
            _ = try EndpointPolicy.target(url, appending: "")
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .endpoint, in: self,
                debugDescription: "\(EndpointPolicy.redacted(url)) is not allowed: use an https:// address; "
                    + "plain http:// is allowed only to this computer (127.0.0.1, ::1, localhost)")
        }
        return url
    }

    fileprivate func decodeNonEmpty(_ key: Key, example: String) throws -> String? {
        guard let value = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "the value is empty; write it like \(example)")
        }
        return value
    }

    /// Decodes `api_key_env`, which must look like a variable name; the message never repeats the
    /// value, which may be a key pasted into the wrong setting.
    fileprivate func decodeVariableName() throws -> String? {
        guard let name = try decodeIfPresent(String.self, forKey: .apiKeyEnv) else { return nil }
        let valid =
            !name.isEmpty && name.utf8.count <= 255
            && name.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || $0 == "_")) || ("0"..."9").contains($0)
            }
            && !("0"..."9").contains(name.unicodeScalars.first!)
        guard valid else {
            throw DecodingError.dataCorruptedError(
                forKey: .apiKeyEnv, in: self,
                debugDescription: "api_key_env is the name of an environment variable, such as \"OPENAI_API_KEY\", "
                    + "not the key itself; use letters, digits and underscores")
        }
        return name
    }

    /// Decodes `api_key`, whose one accepted value is `"keyring"`; the message never repeats the
    /// value, which may be a key pasted into the setting.
    fileprivate func decodeKeyStore() throws -> AIConfiguration.KeyStore? {
        guard let value = try decodeIfPresent(String.self, forKey: .apiKey) else { return nil }
        guard let store = AIConfiguration.KeyStore(rawValue: value) else {
            throw DecodingError.dataCorruptedError(
                forKey: .apiKey, in: self,
                debugDescription: "api_key takes only \"keyring\", never the key itself: store the key with "
                    + "`hooray ai set-key` and write api_key = \"keyring\", or name a variable with api_key_env "
                    + "or a file of mode 600 with api_key_file")
        }
        return store
    }

    fileprivate func decodeSeconds(_ key: Key, default defaultValue: Duration, within range: ClosedRange<Int>) throws
        -> Duration
    {
        let fallback = ConfigDuration(seconds: Int(defaultValue.components.seconds))
        return .seconds(try decodeDuration(key, default: fallback, within: range).seconds)
    }
}
