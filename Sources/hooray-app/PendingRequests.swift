import Foundation

/// The request ids of what the window asked hoorayd to change and whose outcome is not known yet (an
/// answer that did not come), by what was asked: asked again, the same thing is the same request,
/// which hoorayd runs once.
@MainActor
final class PendingRequests {
    private var ids: [String: String] = [:]

    /// The id to send `key` under: the one of its earlier try while that one's outcome is unknown,
    /// a new one otherwise.
    func id(for key: String) -> String {
        if let id = ids[key] { return id }
        let id = UUID().uuidString.lowercased()
        ids[key] = id
        return id
    }

    /// The outcome of `key` is known (done, done already, or refused): its next try is a new request.
    func settled(_ key: String) {
        ids[key] = nil
    }
}
