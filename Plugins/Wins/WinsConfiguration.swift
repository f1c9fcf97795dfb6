import Foundation
import HoorayCalendar
import HoorayKit

/// The `[plugins.wins]` section.
///
/// ```toml
/// [plugins.wins]
/// welcome = true              # the one-time welcome notification on the first start
/// retry_first = "1m"          # first retry of AI praise that could not be fetched
/// retry_max = "6h"            # retries back off up to this
/// praise_file = "~/.config/hooray/praise.txt"   # your own offline praise, one line each
/// privacy_url = "https://example.org/privacy"   # links `hooray about` shows
/// terms_url = "https://example.org/terms"
/// support_url = "https://example.org/support"
/// evening_prompt = "21:30"    # "What went well today?", answered in the notification; off by default
/// ```
public struct WinsConfiguration: Decodable, Sendable, Equatable {
    /// Whether the welcome notification appears on the first start.
    public var welcome: Bool
    /// The longest first wait before retrying AI praise; later waits double.
    public var retryFirst: ConfigDuration
    /// The longest wait between retries.
    public var retryMax: ConfigDuration
    /// A file of offline praise replacing the built-in pool, one line each.
    public var praiseFile: String?
    /// The privacy policy's address, for `hooray about`.
    public var privacyURL: String?
    /// The terms of use's address, for `hooray about`.
    public var termsURL: String?
    /// Where to get support, for `hooray about`.
    public var supportURL: String?
    /// When the evening prompt ("What went well today?") comes each day; `nil` (off) by default.
    public var eveningPrompt: TimeOfDay?

    enum CodingKeys: String, CodingKey {
        case welcome
        case retryFirst = "retry_first"
        case retryMax = "retry_max"
        case praiseFile = "praise_file"
        case privacyURL = "privacy_url"
        case termsURL = "terms_url"
        case supportURL = "support_url"
        case eveningPrompt = "evening_prompt"
    }

    /// Creates a configuration.
    public init(
        welcome: Bool = true, retryFirst: ConfigDuration = ConfigDuration(seconds: 60),
        retryMax: ConfigDuration = ConfigDuration(seconds: 6 * 3600), praiseFile: String? = nil,
        privacyURL: String? = nil, termsURL: String? = nil, supportURL: String? = nil, eveningPrompt: TimeOfDay? = nil
    ) {
        self.eveningPrompt = eveningPrompt
        self.welcome = welcome
        self.retryFirst = retryFirst
        self.retryMax = retryMax
        self.praiseFile = praiseFile
        self.privacyURL = privacyURL
        self.termsURL = termsURL
        self.supportURL = supportURL
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var errors = ConfigErrorCollector()
        let defaults = WinsConfiguration()
        welcome = (errors.attempt { try container.decodeIfPresent(Bool.self, forKey: .welcome) } ?? nil) ?? true
        retryFirst =
            errors.attempt {
                try container.decodeDuration(.retryFirst, default: defaults.retryFirst, within: 1...86400)
            }
            ?? defaults.retryFirst
        retryMax =
            errors.attempt {
                try container.decodeDuration(.retryMax, default: defaults.retryMax, within: 1...(7 * 86400))
            } ?? defaults.retryMax
        praiseFile = errors.attempt { try container.decodeIfPresent(String.self, forKey: .praiseFile) } ?? nil
        privacyURL = errors.attempt { try container.decodeIfPresent(String.self, forKey: .privacyURL) } ?? nil
        termsURL = errors.attempt { try container.decodeIfPresent(String.self, forKey: .termsURL) } ?? nil
        supportURL = errors.attempt { try container.decodeIfPresent(String.self, forKey: .supportURL) } ?? nil
        eveningPrompt = errors.attempt { try container.decodeTimeOrOff(.eveningPrompt, default: nil) } ?? nil
        if let praiseFile, errors.errors.isEmpty {
            do {
                _ = try PraisePool(contentsOf: praiseFile)
            } catch {
                errors.record(
                    DecodingError.dataCorruptedError(
                        forKey: .praiseFile, in: container, debugDescription: "\(error)"))
            }
        }
        try errors.throwIfAny()
    }
}
