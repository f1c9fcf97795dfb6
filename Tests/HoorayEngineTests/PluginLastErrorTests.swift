import Foundation
import HoorayKit
import Testing

@testable import HoorayEngine
@testable import HoorayExternalPlugins

/// What `hooray plugins` says went wrong last with a plugin in another language.
@Suite struct PluginLastErrorTests {
    func supervisor() -> PluginSupervisor {
        PluginSupervisor(
            manifest: PluginManifest(
                name: "hostile", version: "1.0.0", apiVersions: 1...1, description: "", exec: ["/bin/false"],
                folder: "/nonexistent"),
            hostVersion: "0.1.0", environment: [:], dataDirectory: "/nonexistent")
    }

    @Test func aCallRefusedAsThePluginsOwnFaultIsItsLastErrorNamingTheMethodOnce() async {
        let supervisor = supervisor()
        await supervisor.noteRefusal(
            of: "scheduleReminder",
            .limit("scheduleReminder: the plugin has 1000 reminders, the most it may keep; cancel some first"))
        #expect(
            await supervisor.status().lastError
                == "called scheduleReminder and was refused: the plugin has 1000 reminders, the most it may keep; cancel some first"
        )
        await supervisor.noteRefusal(
            of: "storageGet",
            .invalidParams("storageGet has no member `plugin`; a plugin reaches only its own storage and reminders"))
        #expect(
            await supervisor.status().lastError
                == "called storageGet and was refused: storageGet has no member `plugin`; a plugin reaches only its own storage and reminders"
        )
    }

    @Test func aRefusalThatIsNotThePluginsFaultLeavesTheLastErrorAlone() async {
        let supervisor = supervisor()
        await supervisor.noteRefusal(of: "askAI", .unavailable("askAI: the AI is not set up"))
        await supervisor.noteRefusal(of: "storagePut", .internalError("the disk is full"))
        #expect(await supervisor.status().lastError == nil)
    }

    @Test func aProgramThatIsNotRunningIsNotStoppedForAReason() async {
        // An initialize that failed because the program had exited must not replace the exit as the reason.
        let supervisor = supervisor()
        await supervisor.fail("refused initialize: the hostile plugin stopped", run: 0)
        #expect(await supervisor.status().lastError == nil)
    }
}
