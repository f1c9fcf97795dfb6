import ArgumentParser
import Foundation
import HoorayCLIHost
import HoorayCalendar
import HoorayConfig
import HoorayDelivery
import HoorayEngine
import HoorayKit
import HoorayStorage
import HoorayTerminal
import HoorayText

struct Next: AsyncParsableCommand, OffersJSON {
    static let configuration = CommandConfiguration(
        abstract: "Show the upcoming reminders, in local time.",
        discussion: """
            Lists what will be shown. Reminders that will not be — of a disabled plugin, held by their \
            plugin (paused), or a plugin's internal work — are left out; --all lists them too, with a STATE column.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .shortAndLong, help: "Show at most this many.")
    var limit: Int = 20

    @Flag(help: "Also list what will not be shown (disabled plugins, paused reminders, internal work), marked as such.")
    var all = false

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func validate() throws {
        guard limit > 0 else {
            throw ValidationError("--limit must be at least 1; got \(limit). For example --limit 5")
        }
    }

    func run() async throws {
        let session = try CLISession(configFile: global.configFile)
        let (running, status) = session.daemonStatus()
        if running && status == nil {
            warn("hoorayd did not answer (it is stopped or very busy), so this is planned from the configuration.")
        }
        let database: HoorayDatabase
        let active: Set<String>
        let quietHours: QuietHours
        var cleanUp: @Sendable () -> Void = {}
        defer { cleanUp() }
        if let status, global.configFile == nil {
            database = try session.database()
            active = Set(status.plugins)
            // hoorayd's quiet hours are the configuration's; a broken file leaves them out here too.
            quietHours =
                (try? session.loadConfigurationLeniently(plugins: installedPlugins))?.0.settings.quietHours ?? .none
        } else {
            // Planned from the configuration, as hoorayd would at start: with --config while hoorayd
            // runs, in a copy of the database, so that the daemon's own plans stay as they are. The
            // parts that read well are planned; broken ones are left out, in a copy too, so that
            // reminders of a half-typed section are not taken from the database meanwhile.
            let (loaded, ignored) = try session.loadConfigurationLeniently(plugins: installedPlugins)
            for line in ignored { warn(TerminalText.safe(line, multiline: true)) }
            // The user's database, or a copy; with no data yet a temporary one: reading makes no data folder.
            let planning = try session.databaseForPlanning(copy: running || !ignored.isEmpty)
            (database, cleanUp) = (planning.database, planning.cleanUp)
            try await session.syncRules(from: loaded, into: database)
            active = loaded.enabledPlugins
            quietHours = loaded.settings.quietHours
        }
        let now = Date()
        // The same plan as the status bar's (`hooray bar`): what is held back says until when.
        // A pause outlasts hoorayd: while it is stopped, the pause it keeps still holds.
        let pausedUntil = status != nil ? status?.pausedUntil : try? await database.pausedUntil()
        let planned = UpcomingPlan.items(
            rules: try await database.rules(), waiting: try await database.heldNotices(),
            isActive: active.contains, quietHours: quietHours, doNotDisturb: status?.doNotDisturb?.isOn ?? false,
            pausedUntil: pausedUntil, now: now, timeZone: .current)
        let hidden = planned.filter { !$0.shown }.count
        let items = planned.filter { all || $0.shown }.map { NextItem($0, now: now) }.prefix(limit)
        if json {
            print(try Output.json(Array(items)))
        } else if items.isEmpty && hidden == 0 {
            print("No reminders are scheduled.")
            print("Add one to \(UserPaths.configFile), for example:\n")
            print(Output.reminderExample)
        } else if items.isEmpty {
            print("No reminders will be shown.")
        } else {
            var table = Output.Table(headers: ["WHEN", "REMINDER", "SCHEDULE", "PLUGIN"] + (all ? ["STATE"] : []))
            for item in items {
                var schedule = item.schedule
                if let zone = item.zone, zone != TimeZone.current.identifier {
                    schedule += " (\(zone))"
                }
                if item.heldBecause != nil, item.notice == nil {
                    // Held for quiet hours until their end; for do-not-disturb until it ends.
                    let why = item.heldBecause?.hasPrefix("notifications paused") == true ? "paused" : "quiet hours"
                    schedule +=
                        item.heldUntil.map { " · held until \(UpcomingPlan.clock($0, in: .current)) (\(why))" }
                        ?? " · held until do not disturb ends"
                }
                // A notice already waiting for do-not-disturb to end comes when it ends: no time to give.
                let when = item.notice != nil && item.heldUntil == nil ? "held" : Output.when(item.due)
                table.add(
                    [when, item.title, schedule, item.plugin]
                        + (all ? [item.notShownBecause.map { "not shown: \($0)" } ?? "coming"] : []))
            }
            print(table.render())
        }
        if !all && hidden > 0 && !json {
            print(
                "\n\(hidden == 1 ? "1 more is" : "\(hidden) more are") planned but will not be shown (held by their plugin, such as paused or done today; internal; or of a disabled plugin); `hooray next --all` lists \(hidden == 1 ? "it" : "them")."
            )
        }
        if !running && !json {
            warn(
                "\nhoorayd is not running, so these will not be shown until it starts (`make run` or `systemctl --user start hooray`)."
            )
        }
    }

}

/// A reminder as `hooray next --json` prints it: the `reminder` type of docs/json.md.
struct NextItem: Encodable {
    let plugin: String
    let id: String
    let title: String
    let due: Date
    let schedule: String
    let zone: String?
    /// Whether it will be shown as a notification.
    let shown: Bool
    /// Why it will not be shown (`plugin disabled`, `paused`, `internal`), when it will not.
    let notShownBecause: String?
    /// The notice this row is, when it is a notice held back (quiet hours, do-not-disturb) rather
    /// than a reminder.
    let notice: Int64?
    /// Why it waits past its due time (`quiet hours until 07:30`, `do not disturb is on`), if it does.
    let heldBecause: String?
    /// Until when it waits; `nil` while not held or until do-not-disturb ends.
    let heldUntil: Date?

    enum CodingKeys: String, CodingKey {
        case plugin, id, title, due, schedule, zone, shown, notShownBecause, notice, heldBecause, heldUntil
    }

    init(_ item: UpcomingItem, now: Date) {
        plugin = item.plugin
        id = item.id
        title = item.title
        due = item.due
        schedule = item.schedule?.summary(in: .current, now: now) ?? "waiting: \(item.heldBecause ?? "held back")"
        zone = item.zone
        shown = item.shown
        notShownBecause = item.notShownBecause
        notice = item.notice
        heldBecause = item.heldBecause
        heldUntil = item.heldUntil
    }

    /// Every key is written, `null` when absent, so every reminder has the same keys.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(plugin, forKey: .plugin)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(due, forKey: .due)
        try container.encode(schedule, forKey: .schedule)
        try container.encode(zone, forKey: .zone)
        try container.encode(shown, forKey: .shown)
        try container.encode(notShownBecause, forKey: .notShownBecause)
        try container.encode(notice, forKey: .notice)
        try container.encode(heldBecause, forKey: .heldBecause)
        try container.encode(heldUntil, forKey: .heldUntil)
    }
}
