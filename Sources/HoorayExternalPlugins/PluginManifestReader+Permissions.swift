import HoorayConfig
import HoorayKit
import HoorayText

/// Reading a `plugin.toml`'s `permissions`: `notify` (or `notifications`), `schedule`, `storage`,
/// `ai`, `network` and `network:HOST`.
extension ManifestReader {
    /// Reads `permissions`.
    ///
    /// - Returns: The permissions, and the hosts `network:HOST` names, each once, in the order written.
    func readPermissions() throws(PluginManifestError) -> (Set<PluginPermission>, [String]) {
        guard let node = root["permissions"] else { return ([], []) }
        let list = PluginPermission.vocabulary
        guard let elements = node.array else {
            throw fail(
                at: node.location,
                "`permissions` must be a list of strings, such as permissions = [\"notify\", \"schedule\"]; "
                    + "found \(node.kindDescription)")
        }
        var permissions: Set<PluginPermission> = []
        var hosts: [String] = []
        for element in elements {
            guard case .string(let text) = element.value else {
                throw fail(
                    at: element.location,
                    "a permission must be a string, one of \(list); found \(element.kindDescription)")
            }
            if let permission = PluginPermission(rawValue: text) ?? PluginPermission.otherSpellings[text] {
                permissions.insert(permission)
                continue
            }
            let (word, host) = Self.split(text)
            if word == PluginPermission.network.rawValue, let host {
                switch NetworkHost.check(host) {
                case .success(let checked):
                    permissions.insert(.network)
                    if !hosts.contains(checked) { hosts.append(checked) }
                case .failure(let problem):
                    throw fail(
                        at: element.location,
                        "`network:\(host)` \(problem.words); write network:HOST with a host name or IP "
                            + "address and an optional :PORT, such as network:api.example.org, or network for any host")
                }
                continue
            }
            var problem = "`\(text)` is not a permission"
            if let near = NameSuggestion.closest(to: word, among: PluginPermission.spellings) {
                let suggestion = host.map { "\(near):\($0)" } ?? near
                problem += "; did you mean `\(suggestion)`? The permissions are \(list)"
            } else {
                problem += "; the permissions are \(list): remove it or write one of them"
            }
            throw fail(at: element.location, problem)
        }
        return (permissions, hosts)
    }

    /// `network:api.example.org` → (`network`, `api.example.org`); a word without a colon has no host.
    static func split(_ text: String) -> (word: String, host: String?) {
        guard let colon = text.firstIndex(of: ":") else { return (text, nil) }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }
}
