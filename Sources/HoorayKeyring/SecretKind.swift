/// Which of Hooray's secrets an item of the keyring holds.
///
/// Each kind is one item of the user's default keyring collection, found by its attributes:
/// `xdg:schema` = `org.hooray.Secret`, `kind` = `identity`, `ai-key` or `sync-key`, and `provider` for AI keys.
/// The label is what a person sees in their password manager (Seahorse, KeePassXC).
public enum SecretKind: Sendable, Hashable {
    /// The anonymous identifier Hooray sends with requests; labelled "Hooray anonymous id".
    case identity
    /// An AI provider's API key; labelled "Hooray AI key (NAME)".
    ///
    /// - Parameter provider: The provider's name as the configuration spells it, such as `openai`.
    case aiKey(provider: String)
    /// The key that seals the sync folder's segments (docs/sync.md); labelled "Hooray sync key".
    case syncKey

    /// The item's label, shown by password managers.
    public var label: String {
        switch self {
        case .identity: "Hooray anonymous id"
        case .aiKey(let provider): "Hooray AI key (\(provider))"
        case .syncKey: "Hooray sync key"
        }
    }

    /// The attributes that find the item, besides `xdg:schema`, which libsecret adds.
    public var attributes: [String: String] {
        switch self {
        case .identity: ["kind": "identity"]
        case .aiKey(let provider): ["kind": "ai-key", "provider": provider]
        case .syncKey: ["kind": "sync-key"]
        }
    }
}
