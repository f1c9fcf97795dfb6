import ArgumentParser

/// `hooray plugin test PATH`: the conformance kit.
struct PluginTest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test", abstract: "Check that a plugin speaks the protocol.")

    func run() async throws {
        throw CommandFailure(message: "hooray plugin test: not built yet")
    }
}
