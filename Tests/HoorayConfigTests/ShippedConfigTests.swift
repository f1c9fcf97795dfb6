import Foundation
import HoorayAI
import HoorayConfig
import HoorayKit
import RecoveryPlugin
import RemindersPlugin
import SwapsPlugin
import Testing
import WinsPlugin

/// The documented configuration file installed as /etc/hooray/hooray.toml.
@Suite struct ShippedConfigTests {
    private let shippedFile: String = {
        // Tests/HoorayConfigTests/ShippedConfigTests.swift → the package root is three levels up.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent("Config/hooray.toml").path
    }()

    @Test func theShippedFileChecksClean() throws {
        let directory = try TemporaryDirectory()

        let ai = ExtraSection(name: AIConfiguration.sectionName, as: AIConfiguration.self, default: .defaults)
        let report = ConfigLoader(paths: directory.paths, extraSections: [ai]).check(onlyFile: shippedFile)

        #expect(report.files == [shippedFile])
        #expect(report.diagnostics.isEmpty, "\(report)")
    }

    @Test func everyCommentedSettingIsPresentWithItsBuiltInDefault() throws {
        let text = try String(contentsOfFile: shippedFile, encoding: .utf8)
        var uncommented: [String] = []
        var settings: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# [[plugins") || line.hasPrefix("# Plugins") { break }
            if line.hasPrefix("# "), let equals = line.firstIndex(of: "="),
                line[line.index(line.startIndex, offsetBy: 2)..<equals].allSatisfy({
                    $0.isLetter || $0 == "_" || $0 == " "
                })
            {
                uncommented.append(String(line.dropFirst(2)))
                settings.append(String(line.dropFirst(2).prefix(while: { $0 != " " })))
            } else {
                uncommented.append(String(line))
            }
        }

        let root = try ConfigFileParser.parse(uncommented.joined(separator: "\n"), file: "uncommented.toml")
        let (settingsFound, warnings) = try CoreSettings.decode(
            from: root, alsoPermitted: [AIConfiguration.sectionName])
        let aiNode = try #require(root[AIConfiguration.sectionName])
        let (aiFound, aiWarnings) = try ConfigDecoder().decode(AIConfiguration.self, from: aiNode)

        #expect(settingsFound == CoreSettings.defaults)
        #expect(warnings.isEmpty)
        #expect(aiFound == AIConfiguration.defaults)
        #expect(aiWarnings.isEmpty)
        #expect(
            settings == [
                "catch_up_within", "icon", "server_timeout", "retry_every", "quiet_hours", "burst_limit", "tray",
                "keep_delivered", "level", "style", "window", "store", "provider", "connect_timeout", "timeout",
                "max_response_bytes",
            ])
    }

    @Test func theRemindersExampleIsAValidReminderOnceUncommented() throws {
        let text = try String(contentsOfFile: shippedFile, encoding: .utf8)
        let example = commentedExample(in: text, startingWith: "# [[plugins.reminders.reminder]]")

        let root = try ConfigFileParser.parse(example, file: "example.toml")

        let reminder = try #require(root.node(at: ["plugins", "reminders", "reminder", 0])?.table)
        #expect(reminder.keys == ["title", "body", "at", "days", "zone", "urgency"])
        #expect(reminder["at"]?.value == .string("15:00"))

        // The real plugin accepts it without a warning.
        let directory = try TemporaryDirectory()
        let file = directory.path + "/example.toml"
        try example.write(toFile: file, atomically: true, encoding: .utf8)
        let report = ConfigLoader(paths: directory.paths, plugins: [RemindersPlugin()]).check(onlyFile: file)
        #expect(report.diagnostics.isEmpty, "\(report)")
    }

    @Test func theWinsExampleIsValidOnceUncommented() throws {
        let text = try String(contentsOfFile: shippedFile, encoding: .utf8)
        let example = commentedExample(in: text, startingWith: "# [plugins.wins]")
        let root = try ConfigFileParser.parse(example, file: "example.toml")
        let wins = try #require(root.node(at: ["plugins", "wins"])?.table)
        #expect(
            wins.keys == [
                "welcome", "retry_first", "retry_max", "praise_file", "privacy_url", "terms_url", "support_url",
            ])
        // Everything but the praise file, which is the user's own and does not exist here.
        let directory = try TemporaryDirectory()
        let file = directory.path + "/example.toml"
        try example.split(separator: "\n").filter { !$0.hasPrefix("praise_file") }.joined(separator: "\n")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let report = ConfigLoader(paths: directory.paths, plugins: [WinsPlugin()]).check(onlyFile: file)
        #expect(report.diagnostics.isEmpty, "\(report)")
    }

    @Test func theRecoveryExampleIsValidOnceUncommentedAndItsDefaultsAreThePlugins() throws {
        let text = try String(contentsOfFile: shippedFile, encoding: .utf8)
        let example = commentedExample(in: text, startingWith: "# [plugins.recovery]")
        let root = try ConfigFileParser.parse(example, file: "example.toml")
        let recovery = try #require(root.node(at: ["plugins", "recovery"])?.table)
        #expect(
            recovery.keys == ["follow_up_min_impact", "follow_up_after", "checkin", "checkin_at", "challenge_at", "ai"])
        let directory = try TemporaryDirectory()
        let file = directory.path + "/example.toml"
        try example.write(toFile: file, atomically: true, encoding: .utf8)
        let report = ConfigLoader(paths: directory.paths, plugins: [RecoveryPlugin()]).check(onlyFile: file)
        #expect(report.diagnostics.isEmpty, "\(report)")
        // The example shows the defaults: decoding it gives what an empty section gives.
        let written = try JSONDecoder().decode(
            RecoveryConfiguration.self,
            from: Data(
                #"{"follow_up_min_impact":7,"follow_up_after":"24h","checkin":true,"checkin_at":"20:00","challenge_at":"09:00","ai":false}"#
                    .utf8))
        // Uncommented, the check-in and challenge lines switch them on at once; left out, they start on first use.
        #expect(written == RecoveryConfiguration(checkInStart: .now, challengeStart: .now))
        #expect(try JSONDecoder().decode(RecoveryConfiguration.self, from: Data("{}".utf8)) == RecoveryConfiguration())
        #expect(RecoveryConfiguration().checkInStart == .onFirstUse)
        #expect(RecoveryConfiguration().challengeStart == .onFirstUse)
    }

    @Test func theSwapsExampleIsValidOnceUncommentedAndItsDefaultsAreThePlugins() throws {
        let text = try String(contentsOfFile: shippedFile, encoding: .utf8)
        let example = commentedExample(in: text, startingWith: "# [plugins.swaps]")
        let root = try ConfigFileParser.parse(example, file: "example.toml")
        let swaps = try #require(root.node(at: ["plugins", "swaps"])?.table)
        #expect(swaps.keys == ["celebrations", "milestones", "inspiration", "night_prep", "morning_focus"])
        let directory = try TemporaryDirectory()
        let file = directory.path + "/example.toml"
        try example.write(toFile: file, atomically: true, encoding: .utf8)
        let report = ConfigLoader(paths: directory.paths, plugins: [SwapsPlugin()]).check(onlyFile: file)
        #expect(report.diagnostics.isEmpty, "\(report)")
        // The example shows the defaults: decoding it gives what an empty section gives.
        let written = try JSONDecoder().decode(
            SwapsConfiguration.self,
            from: Data(
                #"{"milestones":[3,7,14,30],"inspiration":true,"night_prep":"21:00","morning_focus":"08:00"}"#.utf8))
        // Uncommented, the Night Prep and Morning Focus lines switch them on at once; left out, they start on first use.
        #expect(written == SwapsConfiguration(nightPrepStart: .now, morningFocusStart: .now))
        #expect(try JSONDecoder().decode(SwapsConfiguration.self, from: Data("{}".utf8)) == SwapsConfiguration())
        #expect(SwapsConfiguration().nightPrepStart == .onFirstUse)
        #expect(SwapsConfiguration().morningFocusStart == .onFirstUse)
    }

    @Test func aBadSwapsSectionReportsEveryMistakeAtItsPlaceWithTheFix() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "config/hooray/hooray.toml",
            """
            [plugins.swaps]
            celebrations = "playfull"
            milestones = [7, 3]
            night_prep = "9pm"
            morning_focus = "08:00"
            """)

        let report = ConfigLoader(paths: directory.paths, plugins: [SwapsPlugin()]).check()

        #expect(
            report.diagnostics.map(\.description) == [
                "\(file):2:16: error: plugins.swaps.celebrations: \"playfull\" is not one of \"calm\", \"playful\" or \"off\""
                    + "\n    hint: did you mean \"playful\"?",
                "\(file):3:14: error: plugins.swaps.milestones: milestones must be positive numbers of days, ascending, such as [3, 7, 14, 30]",
                "\(file):4:14: error: plugins.swaps.night_prep: night_prep must be a time as HH:MM, such as \"21:00\", or \"off\" for no reminder",
            ])
    }

    /// The commented-out example that starts with `header`, up to the first line that is not a comment.
    private func commentedExample(in text: String, startingWith header: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix(header) }
            .prefix { $0.hasPrefix("#") }
            .map { $0.dropFirst(2) }.joined(separator: "\n")
    }
}
