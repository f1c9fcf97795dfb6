import Foundation
import Testing

/// What `hooray moments --json` and `hooray habit list --json` say, for tests that check what a
/// front (a launcher, a menu) did as the command line would see it.
extension HoorayFixture {
    struct ListedMoment: Decodable {
        let text: String
    }

    struct ListedHabitState: Decodable {
        let name: String
        let today: String
    }

    /// The moments' texts, as `hooray moments --json` lists them.
    func momentTexts() async throws -> [String] {
        let output = try await hooray("moments", "--json")
        #expect(output.status == .exited(0), "\(output.standardError)")
        return try JSONDecoder().decode([ListedMoment].self, from: Data(output.standardOutput.utf8)).map(\.text)
    }

    /// The habits and what today is for each, as `hooray habit list --json` lists them.
    func habitStates() async throws -> [ListedHabitState] {
        let output = try await hooray("habit", "list", "--json")
        #expect(output.status == .exited(0), "\(output.standardError)")
        return try JSONDecoder().decode([ListedHabitState].self, from: Data(output.standardOutput.utf8))
    }
}
