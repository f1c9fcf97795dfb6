import Foundation
import HooraySystemTesting
import Testing

/// `hooray-app`, Hooray's window, driven as a screen reader user drives it: through the
/// accessibility tree (AT-SPI, with dogtail), on its own X server, against a real hoorayd on the
/// fixture's session bus. The app runs as a child process: GTK never starts in the test process.
// One window at a time: each brings its own X server, accessibility bus and dogtail, which a loaded
// machine (the whole suite at once) could not serve within the script's deadlines side by side.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct DesktopAppTests {
    /// The dogtail script that clicks, types and reads the window (Tests/Fixtures/app).
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/app/hooray_window.py").path

    /// What the script saw.
    struct Seen: Decodable {
        var prefilled: String?
        var praiseLabels: [String]?
        var aiLabels: [String]?
        var failedLabels: [String]?
        var momentsLabels: [String]?
        var deletedLabels: [String]?
        var starred: Bool?
        var editedLabels: [String]?
        var shortcutLabels: [String]?
        var notRunningLabels: [String]?
        var pausedLabels: [String]?
        var resumedLabels: [String]?
        var doneLabels: [String]?
        var addedLabels: [String]?
        var askedLabels: [String]?
        var againLabels: [String]?
        var home: Bool?
        var error: String?
        var detailsLabels: [String]?
        var timeProblemLabels: [String]?
        var photoProblemLabels: [String]?
        var kept: String?
        var journeyLabels: [String]?
        var searchLabels: [String]?
        var noMatchLabels: [String]?
        var translatedLabels: [String]?
        var pid: Int32?
        var toastLabels: [String]?
        var unnamed: [String]?
        var visited: [String]?
        var overflowing: [String]?
        var measured: [String]?
        var frameWidth: Int?
        var calendar: String?
        var calendarDays: String?
        var habitLabels: [String]?
        var tickedDays: String?
        var previousMonth: String?
        var previousDays: String?
        var noDaysLabels: [String]?
        var badTimeLabels: [String]?
        var badTimeInvalid: Bool?
        var badTimeFocused: Bool?
        var keptDays: [String]?
        var edited: EditedHabit?
        var editedDays: String?
        var settingsLabels: [String]?
        var waterWasOn: Bool?
        var waterOn: Bool?
        var afterWater: String?
        var quietLabels: [String]?
        var afterQuiet: String?
        var broken: String?
        var brokenLabels: [String]?
        var waterAfterBroken: Bool?
        var afterBroken: String?
        var sproutBefore: String?
        var sproutAfter: String?
        var swappedLabels: [String]?
        var prep: [String]?
        var morningLabels: [String]?
        var morningPrep: [String]?
        var beforeLabels: [String]?
        var cardLabels: [String]?
        var helpLabels: [String]?
        var answeredLabels: [String]?
        var scoreBefore: String?
        var logLabels: [String]?
        var planLabels: [String]?
        var logged: [LoggedRejection]?
        var okayLabels: [String]?
        var scoreLogged: Int?
        var scoreOkay: Int?
        var scoreAfter: String?
        var afterLabels: [String]?
        var templatesLabels: [String]?
        var copiedButton: String?
        var clipboard: String?
        var checkedLabels: [String]?
        var dashboard: RecoveryDashboard?
        var aboutLabels: [String]?
        var dataLabels: [String]?
        var suggestedName: String?
        var exportedLabels: [String]?
        var keptAfterCancel: [ListedMoment]?
        var identityAfter: String?
        var identityBefore: String?
        var pauseSaid: String?
        var aiSettingsLabels: [String]?
        var afterModel: String?
        var keyLabels: [String]?
        var keyField: String?
        var testLabels: [String]?
        var pluginsLabels: [String]?
        var checkinBefore: String?
        var badLabels: [String]?
        var afterBad: String?
        var checkin: ListedReminder?
        var afterTime: String?
        var inspirationWasOn: Bool?
        var afterSwitch: String?

        /// A reminder as `hooray next --json` listed it.
        struct ListedReminder: Decodable {
            var schedule: String
            var title: String
        }

        /// A rejection as `hooray recovery list --json` listed it after the window logged it.
        struct LoggedRejection: Decodable {
            var type: String
            var impact: Int
            var note: String?
            var recoveredAt: String?
            var encouragement: String
        }

        /// `hooray recovery --json` after the window's check-in and challenge.
        struct RecoveryDashboard: Decodable {
            struct Week: Decodable {
                var total: Int
                var recovered: Int
            }
            struct CheckIn: Decodable {
                var mood: String
                var note: String?
            }
            struct Streaks: Decodable {
                var challenge: Int
                var checkIn: Int
            }
            var thisWeek: Week
            var todayCheckIn: CheckIn?
            var streaks: Streaks
        }

        /// A habit as `hooray habit list --json` listed it after the window edited it.
        struct EditedHabit: Decodable {
            var schedule: String
            var remindAt: String?
        }

        enum CodingKeys: String, CodingKey {
            case prefilled, home, error
            case praiseLabels = "praise_labels"
            case aiLabels = "ai_labels"
            case failedLabels = "failed_labels"
            case momentsLabels = "moments_labels"
            case deletedLabels = "deleted_labels"
            case starred
            case editedLabels = "edited_labels"
            case shortcutLabels = "shortcut_labels"
            case notRunningLabels = "not_running_labels"
            case pausedLabels = "paused_labels"
            case doneLabels = "done_labels"
            case addedLabels = "added_labels"
            case askedLabels = "asked_labels"
            case againLabels = "again_labels"
            case resumedLabels = "resumed_labels"
            case detailsLabels = "details_labels"
            case timeProblemLabels = "time_problem_labels"
            case photoProblemLabels = "photo_problem_labels"
            case kept
            case journeyLabels = "journey_labels"
            case searchLabels = "search_labels"
            case noMatchLabels = "no_match_labels"
            case translatedLabels = "translated_labels"
            case pid
            case toastLabels = "toast_labels"
            case unnamed, visited, overflowing, measured
            case frameWidth = "frame_width"
            case calendar, edited
            case calendarDays = "calendar_days"
            case habitLabels = "habit_labels"
            case tickedDays = "ticked_days"
            case previousMonth = "previous_month"
            case previousDays = "previous_days"
            case noDaysLabels = "no_days_labels"
            case badTimeLabels = "bad_time_labels"
            case badTimeInvalid = "bad_time_invalid"
            case badTimeFocused = "bad_time_focused"
            case keptDays = "kept_days"
            case editedDays = "edited_days"
            case broken
            case settingsLabels = "settings_labels"
            case waterWasOn = "water_was_on"
            case waterOn = "water_on"
            case afterWater = "after_water"
            case quietLabels = "quiet_labels"
            case afterQuiet = "after_quiet"
            case brokenLabels = "broken_labels"
            case waterAfterBroken = "water_after_broken"
            case afterBroken = "after_broken"
            case prep
            case sproutBefore = "sprout_before"
            case sproutAfter = "sprout_after"
            case swappedLabels = "swapped_labels"
            case morningLabels = "morning_labels"
            case morningPrep = "morning_prep"
            case beforeLabels = "before_labels"
            case cardLabels = "card_labels"
            case helpLabels = "help_labels"
            case answeredLabels = "answered_labels"
            case scoreBefore = "score_before"
            case logLabels = "log_labels"
            case planLabels = "plan_labels"
            case logged
            case okayLabels = "okay_labels"
            case scoreLogged = "score_logged"
            case scoreOkay = "score_okay"
            case scoreAfter = "score_after"
            case afterLabels = "after_labels"
            case templatesLabels = "templates_labels"
            case copiedButton = "copied_button"
            case clipboard
            case checkedLabels = "checked_labels"
            case dashboard
            case aboutLabels = "about_labels"
            case dataLabels = "data_labels"
            case suggestedName = "suggested_name"
            case exportedLabels = "exported_labels"
            case keptAfterCancel = "kept_after_cancel"
            case identityAfter = "identity_after"
            case identityBefore = "identity_before"
            case pauseSaid = "pause_said"
            case aiSettingsLabels = "ai_settings_labels"
            case afterModel = "after_model"
            case keyLabels = "key_labels"
            case keyField = "key_field"
            case testLabels = "test_labels"
            case pluginsLabels = "plugins_labels"
            case checkinBefore = "checkin_before"
            case badLabels = "bad_labels"
            case afterBad = "after_bad"
            case checkin
            case afterTime = "after_time"
            case inspirationWasOn = "inspiration_was_on"
            case afterSwitch = "after_switch"
        }
    }

    /// A moment as `hooray moments --json` lists it.
    struct ListedMoment: Decodable {
        var text: String
        var offlinePraise: String
        var aiPraise: String?
        var favorite: Bool?
    }

    /// The line the Praise view shows when no AI praise came.
    static let failedLine = "Couldn't fetch extra encouragement this time."

    /// A configuration asking `endpoint` for AI praise.
    static func aiConfig(_ endpoint: URL, timeout: String) -> String {
        """
        [ai]
        provider = "hooray"
        endpoint = "\(endpoint.absoluteString)"
        timeout = "\(timeout)"
        connect_timeout = "2s"
        """
    }

    /// The moments `hooray moments --json` lists.
    static func moments(_ fixture: HoorayFixture) async throws -> [ListedMoment] {
        let listing = try await fixture.hooray("moments", "--json")
        return try JSONDecoder().decode([ListedMoment].self, from: Data(listing.standardOutput.utf8))
    }

    /// Starts an X server, the accessibility bus and `hooray-app` in the fixture's world, runs the
    /// script with `arguments` against the window, and stops them.
    ///
    /// - Returns: What the script saw, and what to show when an expectation fails.
    ///
    /// - Parameter whileOpen: What to do once the script is done, while the window is still open.
    static func drive(
        _ fixture: HoorayFixture, _ arguments: [String], environment extra: [String: String] = [:],
        whileOpen: (ProcessEnvironment, ChildProcess) async throws -> Void = { _, _ in }
    ) async throws -> (seen: Seen, context: Comment) {
        let display = try await XvfbDisplay()
        let desktop = fixture.environment(
            overriding: ["DISPLAY": display.name, "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo"].merging(extra) {
                _, new in new
            })
        let accessibility = try ChildProcess(
            "/usr/libexec/at-spi-bus-launcher", arguments: ["--launch-immediately"], environment: desktop)
        let busUp = try await ProcessRunner.run(
            "gdbus", arguments: ["wait", "--session", "--timeout", "20", "org.a11y.Bus"], environment: desktop,
            timeout: .seconds(30))
        #expect(busUp.status.isSuccess, "the accessibility bus did not start: \(busUp.standardError)")
        let app = try ChildProcess(HoorayFixture.binDirectory + "/hooray-app", environment: desktop)
        let run = try await ProcessRunner.run(
            "/usr/bin/python3", arguments: [script] + arguments, environment: desktop, timeout: .seconds(180))
        try await whileOpen(desktop, app)
        let appStatus = await app.stop()
        await accessibility.stop()
        await display.stop()
        let context = Comment(
            rawValue:
                "script (\(run.status)): \(run.standardOutput)\(run.standardError)\napp (\(appStatus)): \(app.standardError)"
        )
        let seen = try #require(try? JSONDecoder().decode(Seen.self, from: Data(run.standardOutput.utf8)), context)
        #expect(seen.error == nil, context)
        return (seen, context)
    }

    @Test(
        "I Did a Thing, a moment typed and Save this moment: the window shows its praise, and hooray moments lists it")
    func loggingAMomentInTheWindowShowsItsPraise() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            var secondLaunch: ProcessOutput?
            var firstStillOpen = false
            let (seen, context) = try await Self.drive(fixture, ["log", "Watered the plants"]) { desktop, app in
                // A second launch hands over to the open window and exits.
                secondLaunch = try await ProcessRunner.run(
                    HoorayFixture.binDirectory + "/hooray-app", environment: desktop, timeout: .seconds(30))
                firstStillOpen = app.isRunning
            }
            #expect(
                secondLaunch?.status == .exited(0) && secondLaunch?.timedOut == false,
                "\(String(describing: secondLaunch))")
            #expect(firstStillOpen, "the first window stays open")
            // The first moment starts as the CLI's first moment does.
            #expect(seen.prefilled == "I installed this app. A tiny step, but it counts.", context)

            let listing = try await fixture.hooray("moments", "--json")
            let moments = try JSONDecoder().decode([ListedMoment].self, from: Data(listing.standardOutput.utf8))
            await daemon.stop()
            await server.stop()
            #expect(moments.map(\.text) == ["Watered the plants"], "\(listing.standardOutput)")
            let labels = seen.praiseLabels ?? []
            #expect(labels.contains("Moment logged"), "\(labels)")
            #expect(labels.contains { $0.hasPrefix("Watered the plants") }, "\(labels)")
            let praise = try #require(moments.first?.offlinePraise)
            #expect(labels.contains("“\(praise)”"), "the window shows the praise hoorayd saved: \(labels)")
            // The other pages are hidden from a screen reader: Home's button is not on the praise page.
            #expect(!labels.contains("I Did a Thing") && !labels.contains("Hooray isn't running"), "\(labels)")
        }
    }

    @Test("With AI praise on, the Praise view shows the offline praise at once, then the AI's praise in its place")
    func aiPraiseTakesTheOfflinePraisesPlace() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try await withAIServer { ai in
                // The AI server holds its answer until the script has seen the offline praise.
                try fixture.writeConfig(Self.aiConfig(ai.endpoint("gated"), timeout: "60s"))
                let daemon = try await fixture.startDaemon()
                let (seen, context) = try await Self.drive(fixture, ["ai", "Watered the plants", ai.gateFile])
                let moments = try await Self.moments(fixture)
                await daemon.stop()
                await server.stop()
                let stored = try #require(moments.first, context)
                let aiPraise = try #require(stored.aiPraise, "hoorayd got the AI praise: \(moments)")
                let offline = seen.praiseLabels ?? []
                #expect(offline.contains("“\(stored.offlinePraise)”"), "the offline praise at once: \(context)")
                #expect(!offline.contains("“\(aiPraise)”"), "\(context)")
                let later = seen.aiLabels ?? []
                #expect(later.contains("“\(aiPraise)”"), "then the AI's: \(context)")
                #expect(!later.contains("“\(stored.offlinePraise)”"), "in the offline praise's place: \(context)")
                #expect(later.contains { $0.hasPrefix("Watered the plants") }, "on the same page: \(context)")
                #expect(!later.contains(Self.failedLine), "\(context)")
            }
        }
    }

    @Test("When the AI service fails, the Praise view keeps the offline praise and says it couldn't fetch more")
    func aFailingAIServiceIsSaidOnThePraiseView() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try await withAIServer { ai in
                try fixture.writeConfig(Self.aiConfig(ai.endpoint("status-500"), timeout: "5s"))
                let daemon = try await fixture.startDaemon()
                let (seen, context) = try await Self.drive(fixture, ["ai-fails", "Made the bed"])
                let moments = try await Self.moments(fixture)
                await daemon.stop()
                await server.stop()
                let stored = try #require(moments.first, context)
                #expect(stored.aiPraise == nil)
                let labels = seen.failedLabels ?? []
                #expect(labels.contains(Self.failedLine), "\(context)")
                #expect(labels.contains("“\(stored.offlinePraise)”"), "the offline praise stays: \(context)")
            }
        }
    }

    @Test("A moment logged with hooray win is listed under Today in Moments; Delete, confirmed, deletes it for good")
    func momentsListsAndDeletes() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let win = try await fixture.hooray("win", "Watered the plants", "--mood", "calm")
            #expect(win.status == .exited(0), "\(win.standardError)")
            let before = try await Self.moments(fixture)
            let (seen, context) = try await Self.drive(fixture, ["moments", "Watered the plants"])
            let after = try await Self.moments(fixture)
            await daemon.stop()
            await server.stop()
            let listed = seen.momentsLabels ?? []
            #expect(listed.contains("Today") && listed.contains("Watered the plants"), "\(context)")
            let praise = try #require(before.first?.offlinePraise)
            #expect(
                listed.contains {
                    $0.hasSuffix(" ago · feeling calm · “\(praise)”") || $0 == "just now · feeling calm · “\(praise)”"
                },
                "its time, mood and praise: \(context)")
            #expect(!listed.contains("I Did a Thing"), "Moments alone is on screen: \(context)")
            #expect(
                (seen.deletedLabels ?? []).contains("No moments yet… but you're here, so that's one."), "\(context)")
            #expect(after.isEmpty, "hooray moments no longer lists it: \(after)")
        }
    }

    @Test(
        "In Moments, a moment's star marks it a favourite and Edit gives it new words, as hooray moments then lists it")
    func momentsMarksAndEdits() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let win = try await fixture.hooray("win", "Watered the plant")
            #expect(win.status == .exited(0), "\(win.standardError)")
            let (seen, context) = try await Self.drive(
                fixture, ["edit", "Watered the plant", "Watered all the plants"])
            let after = try await Self.moments(fixture)
            await daemon.stop()
            await server.stop()
            #expect(seen.starred == true, "the star stays pressed once hoorayd marked it: \(context)")
            let edited = seen.editedLabels ?? []
            #expect(edited.contains("Watered all the plants") && !edited.contains("Watered the plant"), "\(context)")
            #expect(after.map(\.text) == ["Watered all the plants"], "\(after)")
            #expect(after.first?.favorite == true, "\(after)")
        }
    }

    @Test("Ctrl+N in Moments opens Log a moment")
    func controlNStartsANewMoment() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let (seen, context) = try await Self.drive(fixture, ["shortcut"])
            await daemon.stop()
            await server.stop()
            let labels = seen.shortcutLabels ?? []
            #expect(labels.contains("Nice — that counts. What did you do?"), "\(context)")
            #expect(!labels.contains("No moments yet… but you're here, so that's one."), "\(context)")
        }
    }

    @Test("Without hoorayd the window says Hooray isn't running, and Start Hooray starts it and opens Home")
    func startHoorayFromTheWindow() async throws {
        try await startHoorayd(["start"])
    }

    @Test("Without hoorayd the window says Hooray isn't running, and a hoorayd started from a terminal opens Home")
    func aHooraydStartedElsewhereIsNoticed() async throws {
        try await startHoorayd(["elsewhere"])
    }

    /// Opens the window without hoorayd, has the script start it (`start`: with the window's
    /// button; `elsewhere`: as a terminal would) and checks that Home opens.
    func startHoorayd(_ mode: [String]) async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            // `systemctl --user start hooray`, as the user's service manager would: it starts
            // hoorayd and returns at once (Type=exec), before hoorayd listens.
            let tools = fixture.home.appending("bin")
            try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
            let pidFile = fixture.home.appending("hoorayd.pid")
            try """
            #!/bin/sh
            [ "$*" = "--user start hooray" ] || { echo "unexpected: systemctl $*" >&2; exit 1; }
            '\(HoorayFixture.binDirectory)/hoorayd' > '\(fixture.home.appending("hoorayd.log"))' 2>&1 &
            echo $! > '\(pidFile)'
            """.write(toFile: tools + "/systemctl", atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tools + "/systemctl")
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"

            let (seen, context) = try await Self.drive(fixture, mode, environment: ["PATH": tools + ":" + path])
            let started = try? String(contentsOfFile: pidFile, encoding: .utf8)
            var stopped = false
            if let pid = started.flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
                kill(pid, SIGTERM)
                // Gone, or a zombie for whoever adopted it to reap. (/proc files read through a file
                // handle: they say they are empty.)
                stopped =
                    await pollUntil(timeout: .seconds(20)) {
                        let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/stat")
                        let stat = String(decoding: (try? handle?.readToEnd()) ?? Data(), as: UTF8.self)
                        try? handle?.close()
                        return stat.isEmpty || stat.contains(") Z") ? true : nil
                    } ?? false
                if !stopped { kill(pid, SIGKILL) }
            }
            await server.stop()
            #expect(seen.notRunningLabels?.contains("Hooray isn't running") == true, context)
            #expect(
                seen.notRunningLabels?.contains("I Did a Thing") == false, "only that page is on screen: \(context)")
            #expect(started != nil, "systemctl --user start hooray ran")
            // What systemctl starts begins with no signal blocked: hoorayd stops on SIGTERM.
            #expect(stopped, "the hoorayd systemctl started stops on SIGTERM")
            let log = (try? String(contentsOfFile: fixture.home.appending("hoorayd.log"), encoding: .utf8)) ?? ""
            #expect(seen.home == true, "\(context)\nhoorayd: \(log)")
        }
    }
}
