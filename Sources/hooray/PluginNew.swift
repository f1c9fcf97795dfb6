import ArgumentParser

/// `hooray plugin new NAME --lang python|sh`: a working scaffold.
struct PluginNew: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "new", abstract: "Make a new plugin's folder.")

    func run() async throws {
        throw CommandFailure(message: "hooray plugin new: not built yet")
    }
}
