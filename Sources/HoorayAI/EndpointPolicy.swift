import Foundation
import HoorayKit

#if canImport(Glibc)
    import Glibc
#endif

/// Which endpoints Hooray may talk to, decided before any connection is made.
///
/// Only `http` and `https` are spoken. Plain `http` carries the user's words and anonymous id
/// unencrypted, so it is allowed only to this computer: `localhost`, `127.0.0.0/8` and `::1`,
/// where local servers such as Ollama listen.
enum EndpointPolicy {
    /// A checked request address.
    struct Target: Equatable {
        /// The full URL to send the request to.
        var url: String
        /// Whether the host is this computer, which also means no proxy may be used.
        var isLoopback: Bool
        /// The scheme, `http` or `https`, the only protocol the transfer may use.
        var scheme: String
        /// The host, for logs.
        var host: String
        /// The endpoint as it may be shown in errors and logs.
        var shown: String
    }

    /// Checks an endpoint and appends a path to it.
    ///
    /// - Parameters:
    ///   - endpoint: The configured endpoint, such as `https://api.example.com/v2`.
    ///   - path: The path to append, such as `/moments`.
    /// - Returns: The request address.
    /// - Throws: ``AIRequestError/insecureEndpoint(url:)`` for another scheme, a missing host, or
    ///   plain `http` to a host that is not loopback.
    static func target(_ endpoint: URL, appending path: String) throws(AIRequestError) -> Target {
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let rawHost = components.host, !rawHost.isEmpty
        else { throw .insecureEndpoint(url: redacted(endpoint)) }
        let host = rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
        let loopback = isLoopback(host: host)
        guard scheme == "https" || loopback else { throw .insecureEndpoint(url: redacted(endpoint)) }
        var base = components.path
        while base.hasSuffix("/") { base.removeLast() }
        components.path = base + path
        guard let url = components.string else { throw .insecureEndpoint(url: redacted(endpoint)) }
        return Target(url: url, isLoopback: loopback, scheme: scheme, host: host, shown: redacted(endpoint))
    }

    /// Whether a host names this computer: `localhost`, an address in `127.0.0.0/8`, `::1`, or
    /// `127.0.0.0/8` mapped into IPv6.
    ///
    /// Host names other than `localhost` are not resolved: what a name resolves to can change
    /// between this check and the connection.
    static func isLoopback(host: String) -> Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "localhost." { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, lowered, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, lowered, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        let loopback: [UInt8] = Array(repeating: 0, count: 15) + [1]
        let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xff, 0xff]
        return bytes == loopback || (Array(bytes.prefix(12)) == mappedPrefix && bytes[12] == 127)
    }

    /// The endpoint as it may be shown: without user name, password, query or fragment.
    static func redacted(_ endpoint: URL) -> String {
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else {
            return "(an address that cannot be read)"
        }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string ?? "(an address that cannot be read)"
    }
}
