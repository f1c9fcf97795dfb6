import Foundation
import HoorayKit

/// Log a small win, get praise at once, and warmer AI praise a moment later (seeds 000 and 001).
public struct WinsPlugin: HoorayPlugin {
    public var name: String { "wins" }
    public var summary: String { "Log small wins (`hooray win`) and get instant praise" }

    public init() {}

    public func activate(context: PluginContext, configuration: NoConfiguration) async throws {}
}
