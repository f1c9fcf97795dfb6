import Foundation
import HooraySystemTesting
import Testing

/// `hooray identity`: the anonymous id a user can look up, as the real binary shows it.
@Suite(.timeLimit(.minutes(2)))
struct IdentityTests {
    /// The `--json` output, checked for exactly the documented keys.
    struct Printed: Decodable, Equatable {
        let userId: String
        let createdAt: String
    }

    func printed(_ output: ProcessOutput) throws -> Printed {
        let data = Data(output.standardOutput.utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["userId", "createdAt", "store"])
        // No Secret Service on the test's bus: the private file, as before keyrings.
        let store = object["store"] as? [String: Any]
        #expect(store?["kind"] as? String == "file")
        #expect((store?["path"] as? String)?.hasSuffix("/data/hooray/identity") == true)
        return try JSONDecoder().decode(Printed.self, from: data)
    }

    func identityFile(_ fixture: HoorayFixture) -> String {
        fixture.home.appending("data/hooray/identity")
    }

    @Test func theSameIdIsShownOnEveryRunAndKeptPrivately() async throws {
        try await HoorayFixture.with { fixture in
            let first = try await fixture.hooray("identity", "--json")
            #expect(first.status == .exited(0))
            let identity = try printed(first)
            #expect(
                identity.userId.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/)
                    != nil
            )
            #expect(ISO8601DateFormatter().date(from: identity.createdAt) != nil)

            let text = try await fixture.hooray("identity")
            #expect(text.status == .exited(0))
            #expect(text.standardOutput.contains("Your anonymous id: \(identity.userId)\n"))
            #expect(text.standardOutput.contains("x-user-id"))
            #expect(text.standardOutput.contains("hooray delete-my-data"))

            let again = try await fixture.hooray("identity", "--json")
            #expect(try printed(again) == identity)

            let attributes = try FileManager.default.attributesOfItem(atPath: identityFile(fixture))
            #expect(attributes[.posixPermissions] as? Int == 0o600)
            let contents = try String(contentsOfFile: identityFile(fixture), encoding: .utf8)
            #expect(contents.contains("user-id = \(identity.userId)\n"))
        }
    }

    @Test func twoFirstRunsAtOnceAgreeOnOneId() async throws {
        try await HoorayFixture.with { fixture in
            async let one = fixture.hooray("identity", "--json")
            async let two = fixture.hooray("identity", "--json")
            async let three = fixture.hooray("identity", "--json")
            let outputs = try await [one, two, three]
            #expect(outputs.allSatisfy { $0.status == .exited(0) })
            let ids = Set(try outputs.map { try printed($0).userId })
            #expect(ids.count == 1)
            let folder = fixture.home.appending("data/hooray")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["identity"])
        }
    }

    @Test func aDamagedFileFailsWithTheRecoveryAndIsKept() async throws {
        try await HoorayFixture.with { fixture in
            let path = try fixture.home.write(
                "hooray-identity v1\nuser-id = 3f2a8c1e-5b7d-", to: "data/hooray/identity")
            chmod(path, 0o600)
            let result = try await fixture.hooray("identity", "--json")
            #expect(result.status == .exited(1))
            #expect(result.standardOutput.isEmpty)
            #expect(result.standardError.contains("\(path) is incomplete"))
            #expect(result.standardError.contains("`mv \(path) \(path).damaged`"))
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "hooray-identity v1\nuser-id = 3f2a8c1e-5b7d-")

            // Following the advice gets a fresh id.
            try FileManager.default.moveItem(atPath: path, toPath: path + ".damaged")
            let recovered = try await fixture.hooray("identity")
            #expect(recovered.status == .exited(0))
            #expect(recovered.standardOutput.contains("Your anonymous id: "))
        }
    }

    @Test func aFileOthersCanReadFailsWithTheChmodFix() async throws {
        try await HoorayFixture.with { fixture in
            let made = try printed(try await fixture.hooray("identity", "--json"))
            let path = identityFile(fixture)
            chmod(path, 0o644)
            let refused = try await fixture.hooray("identity")
            #expect(refused.status == .exited(1))
            #expect(refused.standardError.contains("chmod 600 \(path)"))
            #expect(!refused.standardError.contains(made.userId))

            chmod(path, 0o600)
            #expect(try printed(try await fixture.hooray("identity", "--json")) == made)
        }
    }
}
