import Foundation
import HoorayCommandLine
import HoorayKit

/// Log a small win, get praise at once, and warmer AI praise a moment later (seeds 000 and 001).
///
/// `hooray win "Took a short walk"` saves a ``Moment`` and shows a "Moment logged" notification
/// with offline praise from the pool. In the background the plugin asks ``PluginContext/ai``;
/// when the service answers, the same notification is updated in place with its praise. When it
/// cannot, the offline praise stays, the notification adds "Couldn't fetch extra encouragement
/// this time.", and the moment is retried later with jittered exponential backoff.
///
/// On the first start, a welcome notification invites the user to log installing Hooray — its
/// "Log it" button does exactly that — and never appears again.
public struct WinsPlugin: CommandPlugin, StatusBarPlugin {
    public typealias Configuration = WinsConfiguration

    public var name: String { "wins" }
    /// What `hooray import` checks imported records against.
    public var recordTypes: [any PluginRecord.Type] { [Moment.self] }

    /// The rotation of recent offline praise, kept so that none repeats soon on this computer.
    public func isDeviceCache(valueKey key: String) -> Bool { key == MomentBook.recentPraiseKey }
    public var summary: String { "Log small wins (`hooray win`), get instant praise" }

    let state = WinsState()

    /// The id of the reminder that retries AI praise.
    static let syncReminder = "sync"
    /// The id of the one-time welcome reminder.
    static let welcomeReminder = "welcome"
    /// The welcome notification's button that logs the first moment.
    static let logInstallAction = "log-install"
    /// The id of the daily evening prompt (`evening_prompt`).
    static let eveningReminder = "evening"
    /// The evening prompt's reply: what went well, typed into the notification.
    static let eveningReply = "evening-reply"
    /// How far ahead "now" is scheduled: a one-time reminder is due strictly after the moment it is
    /// scheduled, so one meant for now is set a second ahead.
    static let soon: TimeInterval = 1

    /// The line added when no AI praise came.
    static let aiFailedLine = "Couldn't fetch extra encouragement this time."

    public init() {}

    public func activate(context: PluginContext, configuration: WinsConfiguration) async throws {
        state.pool = try configuration.praiseFile.map(PraisePool.init(contentsOf:)) ?? .builtIn
        let book = MomentBook(context: context)
        if configuration.welcome, try await !book.welcomeShown(), try await !book.hasCompletedFirstLog() {
            try await context.reminders.schedule(
                Reminder(
                    id: Self.welcomeReminder, schedule: .once(at: context.now.addingTimeInterval(Self.soon)),
                    notice: Notice(title: "Hey. Glad you're here.")))
        }
        if let time = configuration.eveningPrompt {
            try await context.reminders.schedule(
                Reminder(
                    id: Self.eveningReminder, schedule: .daily(at: time, zone: context.timeZone),
                    notice: Self.eveningNotice))
        } else {
            try await context.reminders.cancel(id: Self.eveningReminder)
        }
        try await scheduleSync(context: context, book: book)
    }

    public func reminderDue(_ due: DueReminder, context: PluginContext) async throws -> Notice? {
        let book = MomentBook(context: context)
        switch due.reminder.id {
        case Self.welcomeReminder:
            guard try await !book.hasCompletedFirstLog(), try await !book.setFlag(MomentBook.welcomeKey) else {
                return nil
            }
            return Self.welcomeNotice
        case Self.eveningReminder:
            return Self.eveningNotice
        case Self.syncReminder:
            context.background.start("retrying AI praise") {
                try await self.retryPending(context: context)
            }
            return nil
        default:
            return nil
        }
    }

    public func actionInvoked(_ action: InvokedAction, context: PluginContext) async throws {
        if action.actionID == Self.eveningReply {
            // Typed into the notification (or given to `hooray act`): logged as a win, as `hooray win` does.
            let words = action.answer?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            guard !words.isEmpty else {
                throw ActionDeclined("Nothing was logged: the reply had no words. `hooray win` logs one any time.")
            }
            _ = try await log(LogRequest(text: words), context: context)
            return
        }
        guard action.actionID == Self.logInstallAction else { return }
        let book = MomentBook(context: context)
        guard try await !book.hasCompletedFirstLog() else {
            throw ActionDeclined(
                "That button has expired: your first moment is already logged. `hooray win` logs another.")
        }
        _ = try await log(LogRequest(text: MomentRules.firstMomentText), context: context)
    }

    // MARK: Logging a moment

    /// The evening prompt: what went well today, answered in the notification where the server takes
    /// a typed reply; elsewhere its button opens the app to write it.
    static let eveningNotice = Notice(
        title: "What went well today?",
        body: "One small thing counts. Reply here, or log it with: hooray win",
        actions: [
            NoticeAction(id: eveningReply, label: "Log it", prompt: "What went well today?", answerOnly: true)
        ],
        category: "hooray.wins.evening", opens: .logMoment)

    /// The welcome notification of the first start (seed 001 §4.1–4.2).
    static let welcomeNotice = Notice(
        title: "Hey. Glad you're here.",
        body: """
            You're doing better than you think.
            Hey… installing the app counts too. Wanna log that tiny win? (Or run: hooray win)
            """,
        actions: [NoticeAction(id: logInstallAction, label: "Log it")],
        category: "hooray.welcome")

    func log(_ request: LogRequest, context: PluginContext) async throws -> LogReply {
        // Check everything before saving anything.
        let words = request.text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard words.count <= MomentRules.maxTextLength else {
            throw PluginCommandError.invalidValue(
                "<text>",
                "the text is \(words.count) characters long; a moment takes at most \(MomentRules.maxTextLength). Shorten it, or put the rest in --note"
            )
        }
        let ago =
            try request.ago.map { try context.timeInput.secondsAgo($0, option: "--ago", maximum: MomentRules.maxAgo) }
            ?? 0
        let mood = try request.mood.map(MomentRules.parseMood)
        let note = request.note?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let note, note.count > MomentRules.maxNoteLength {
            throw PluginCommandError.invalidValue(
                "--note", "the note is \(note.count) characters long; a note takes at most \(MomentRules.maxNoteLength)"
            )
        }
        try MomentRules.checkPhotos(request.photos)

        let book = MomentBook(context: context)
        let wasFirst = try await !book.hasCompletedFirstLog()
        let text: String
        let isPlaceholder: Bool
        if !words.isEmpty {
            (text, isPlaceholder) = (words, false)
        } else if wasFirst {
            (text, isPlaceholder) = (MomentRules.firstMomentText, false)
        } else {
            (text, isPlaceholder) = (Moment.placeholderText, true)
        }
        let now = context.now
        let retryFirst = try context.configuration(of: self).retryFirst
        let moment = Moment(
            text: text, isPlaceholder: isPlaceholder, submittedAt: now,
            happenedAt: now.addingTimeInterval(-Double(ago)), timeZone: context.timeZone.identifier,
            offlinePraise: try await book.pickPraise(from: state.pool), mood: mood,
            note: note?.isEmpty == false ? note : nil, photos: request.photos, sync: .pending,
            // Should this process stop before the request below ends, the retries pick it up then.
            nextSyncAt: now.addingTimeInterval(Double(retryFirst.seconds)))
        // The moment and its notice are saved together: a hoorayd killed in between would otherwise
        // leave a moment nobody is told about, while the command reports a failure.
        let notice = try await book.moments.insert(
            moment, announcing: Self.notice(for: moment), storing: [MomentBook.firstLogKey: Data("true".utf8)])
        context.background.start("asking for AI praise") {
            try await self.askForPraise(momentID: moment.id, notice: notice, context: context)
        }
        return LogReply(moment: moment, notice: notice.rawValue, wasFirst: wasFirst)
    }

    /// The "Moment logged" notification: the moment, when it happened, and its praise.
    static func notice(for moment: Moment, failedLine: Bool = false) -> Notice {
        var first = moment.text
        if moment.timeAgo >= 60 { first += " · " + agoPhrase(seconds: moment.timeAgo) }
        var lines = [first, moment.praise]
        if failedLine { lines.append(aiFailedLine) }
        return Notice(
            title: "Moment logged", body: lines.joined(separator: "\n"), category: "hooray.moment",
            opens: .moment(moment.id.uuidString.lowercased()))
    }

    /// "just now", "5 min ago", "2 h ago", "3 days ago".
    static func agoPhrase(seconds: Int) -> String {
        switch seconds {
        case ..<60: "just now"
        case ..<3600: "\(seconds / 60) min ago"
        case ..<86400: "\(seconds / 3600) h ago"
        case ..<(2 * 86400): "1 day ago"
        default: "\(seconds / 86400) days ago"
        }
    }

    // MARK: AI praise

    /// Asks for praise for a freshly logged moment and updates its notification in place.
    func askForPraise(momentID: UUID, notice: NoticeID, context: PluginContext) async throws {
        let book = MomentBook(context: context)
        guard let moment = try await book.moment(momentID), state.beginRequest(momentID) else { return }
        defer { state.endRequest(momentID) }
        // Cancelled (hoorayd is stopping): the moment stays pending and the retries take it up.
        let outcome = try await request(moment, context: context)
        guard let updated = try await record(outcome, for: momentID, book: book, context: context) else { return }
        switch outcome {
        case .success:
            try await context.notices.update(notice, to: Self.notice(for: updated))
        case .failure(.notConfigured):
            break  // AI is off: the offline praise is the whole answer, and nothing is missing.
        case .failure:
            try await context.notices.update(notice, to: Self.notice(for: updated, failedLine: true))
        }
        try await scheduleSync(context: context, book: book)
    }

    /// Retries every moment whose next try is due, one at a time, then plans the next retry.
    func retryPending(context: PluginContext) async throws {
        guard state.beginRetry() else { return }
        defer { state.endRetry() }
        let book = MomentBook(context: context)
        let due = try await book.all()
            .filter { $0.sync == .pending && ($0.nextSyncAt ?? .distantFuture) <= context.now }
            .sorted { $0.submittedAt < $1.submittedAt }
        for moment in due {
            try Task.checkCancellation()
            // The first request for a moment just logged may still be on its way.
            guard state.beginRequest(moment.id) else { continue }
            defer { state.endRequest(moment.id) }
            let outcome = try await request(moment, context: context)
            _ = try await record(outcome, for: moment.id, book: book, context: context)
            if case .failure(let error) = outcome, !error.isRetryable {
                // The same answer awaits every other moment; they wait for their own turn.
                if error == .notConfigured { break }
            }
        }
        context.logger.debug("retried AI praise for \(due.count) moment(s)")
        try await scheduleSync(context: context, book: book)
    }

    /// Asks the AI service for praise.
    ///
    /// - Throws: `CancellationError` only; every other failure is the result's.
    func request(_ moment: Moment, context: PluginContext) async throws -> Result<AIPraise, AIRequestError> {
        let asked = MomentForPraise(
            clientID: moment.id, text: moment.text, happenedAt: moment.happenedAt, submittedAt: moment.submittedAt,
            timeZone: moment.timeZone, timeAgo: Self.agoPhrase(seconds: moment.timeAgo))
        do {
            return .success(try await context.ai.praise(for: asked))
        } catch let error as AIRequestError {
            return .failure(error)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return .failure(.unreachable(reason: "\(error)"))
        }
    }

    /// Stores the outcome of a request on the moment.
    ///
    /// - Returns: The moment as saved; `nil` when it was deleted meanwhile.
    func record(
        _ outcome: Result<AIPraise, AIRequestError>, for id: UUID, book: MomentBook, context: PluginContext
    ) async throws -> Moment? {
        let now = context.now
        let configuration = try context.configuration(of: self)
        let updated = try await book.update(id) { moment in
            var random = SystemRandomNumberGenerator()
            switch outcome {
            case .success(let praise):
                moment.aiPraise = praise.text
                moment.serverID = praise.serverID ?? moment.serverID
                moment.action = praise.action ?? moment.action
                if !praise.tags.isEmpty { moment.tags = praise.tags }
                moment.sync = .synced
                moment.syncError = nil
                moment.nextSyncAt = nil
            case .failure(.notConfigured):
                moment.sync = .local
                moment.syncError = nil
                moment.nextSyncAt = nil
            case .failure(let error):
                moment.sync = .pending
                moment.syncError = error.description
                moment.syncAttempts += 1
                let delay = retryDelay(
                    attempt: moment.syncAttempts, base: .seconds(configuration.retryFirst.seconds),
                    cap: .seconds(configuration.retryMax.seconds), random: &random)
                let (seconds, attoseconds) = delay.components
                moment.nextSyncAt = now.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
            }
        }
        switch outcome {
        case .success: context.logger.info("AI praise arrived for a moment")
        case .failure(.notConfigured): break
        case .failure(let error):
            context.logger.notice(
                "no AI praise this time (\(error)); trying again at \(updated?.nextSyncAt.map { "\($0)" } ?? "-")")
        }
        return updated
    }

    /// Keeps one reminder due when the earliest pending moment's retry is, or none. With AI off
    /// there is none: the moments wait, still pending, until AI is configured again.
    func scheduleSync(context: PluginContext, book: MomentBook) async throws {
        let pending = context.ai.isConfigured ? try await book.all().filter { $0.sync == .pending } : []
        guard let next = pending.compactMap(\.nextSyncAt).min() else {
            try await context.reminders.cancel(id: Self.syncReminder)
            return
        }
        try await context.reminders.schedule(
            Reminder(
                id: Self.syncReminder, schedule: .once(at: max(next, context.now.addingTimeInterval(Self.soon))),
                notice: Notice(title: "Retry AI praise for logged moments"), isInternal: true))
    }
}

/// What a plugin instance keeps between calls that its configuration cannot tell: the praise read
/// from `praise_file` when it was activated, and which AI requests and retries are on their way.
final class WinsState: @unchecked Sendable {
    // @unchecked: every field is only touched while holding `lock`.
    private let lock = NSLock()
    private var praise = PraisePool.builtIn
    private var retrying = false
    private var requesting: Set<UUID> = []

    /// The offline praise: the built-in pool, or the lines of `praise_file`.
    var pool: PraisePool {
        get { lock.withLock { praise } }
        set { lock.withLock { praise = newValue } }
    }

    func beginRetry() -> Bool {
        lock.withLock {
            if retrying { return false }
            retrying = true
            return true
        }
    }

    func endRetry() { lock.withLock { retrying = false } }

    /// Marks a moment's AI request as on its way; `false` when one already is.
    func beginRequest(_ id: UUID) -> Bool {
        lock.withLock { requesting.insert(id).inserted }
    }

    func endRequest(_ id: UUID) { lock.withLock { _ = requesting.remove(id) } }
}
