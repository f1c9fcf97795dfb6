import Foundation
import HoorayClient

/// A pause of notifications (`hooray pause`, the tray's and the desktop entry's "Pause
/// notifications"): for a while, the notices of reminders wait as they do in quiet hours, and go out
/// together when it ends. What answers something the user just did (a command's celebration) is
/// still shown, and so is an urgent notice. The pause is kept in the database, so it outlasts a
/// restart of hoorayd.
extension Engine {
    /// The longest pause hoorayd takes: a week. Longer than that is turning a plugin off.
    public static let longestPause: TimeInterval = 7 * 86_400

    /// The end of the pause in force at `now`; `nil` when notifications are not paused.
    func currentPause(at now: Date) async -> Date? {
        if !pauseLoaded {
            do {
                let stored = try await database.pausedUntil()
                // A pause set while the database was read is newer than what was read.
                if !pauseLoaded {
                    pausedUntil = stored
                    pauseLoaded = true
                }
            } catch {
                logger.error("cannot read whether notifications are paused, so they are not for now: \(error)")
            }
        }
        guard let until = pausedUntil, until > now else { return nil }
        return until
    }

    /// When notifications of reminders are shown again; `nil` when they are not paused.
    public var pausedUntilNow: Date? {
        get async { await currentPause(at: clock.now) }
    }

    /// Pauses the notifications of reminders until `until`, or ends the pause (`nil`, or an instant
    /// already past). A new pause takes the place of one in force, shorter or longer.
    ///
    /// - Parameter until: When notifications are shown again; at most ``longestPause`` from now.
    /// - Returns: The end of the pause now in force; `nil` when notifications are not paused.
    /// - Throws: ``PauseError`` for a pause longer than ``longestPause``; the database's error when
    ///   the pause cannot be kept (nothing changed then).
    @discardableResult
    public func pause(until: Date?) async throws -> Date? {
        let now = clock.now
        let end = until.flatMap { $0 > now ? $0 : nil }
        if let end, end.timeIntervalSince(now) > Self.longestPause + 60 {
            throw PauseError.tooLong
        }
        // Two pauses at once (the tray and a terminal): the database keeps them in the order they
        // came, and so does this, the later one counting.
        pauseChanges += 1
        let change = pauseChanges
        try await database.setPausedUntil(end)
        guard change == pauseChanges else { return await currentPause(at: clock.now) }
        pausedUntil = end
        pauseLoaded = true
        if let end {
            logger.notice("notifications of reminders are paused until \(localTime(end))")
            deliveryWake = [deliveryWake, end].compactMap { $0 }.min()
        } else {
            logger.notice("notifications of reminders are no longer paused")
        }
        // The scheduler sets its alarm for the pause's end; delivery holds or lets go what waits.
        loopContinuation.yield(.changed)
        deliveryContinuation.yield()
        changes.publish()
        return end
    }
}

/// Why a pause was refused.
public enum PauseError: Error, Equatable, CustomStringConvertible {
    /// Longer than ``Engine/longestPause``.
    case tooLong

    public var description: String {
        switch self {
        case .tooLong:
            "a pause lasts at most 7 days; to stop a plugin's notifications for longer, turn it off with `hooray config set plugins.NAME.enabled false`"
        }
    }
}

extension Engine {
    /// The control request `pause` answered: when notifications are shown again, or why the pause
    /// was refused.
    public func pauseAnswer(until: Date?) async -> ControlResponse {
        do {
            let end = try await pause(until: until)
            return ControlResponse(ok: true, pausedUntil: end)
        } catch let error as PauseError {
            return ControlResponse(ok: false, message: error.description, invalidValue: "until")
        } catch {
            return ControlResponse(
                ok: false, message: "the pause could not be kept (\(error)); nothing changed",
                pausedUntil: await pausedUntilNow)
        }
    }
}

/// How long a pause lasts, as `hooray pause`, the tray and the desktop entry ask for it.
public enum PauseLength: Sendable, Equatable {
    /// A length of time from now, such as an hour.
    case seconds(Int)
    /// Until tomorrow morning (``morningHour``): after a night (before ``nightEndsHour``) that is
    /// this morning, as the night still belongs to the day before.
    case untilTomorrow

    /// The hour "until tomorrow" ends at.
    public static let morningHour = 8
    /// Before this hour, "tomorrow" is still this morning.
    public static let nightEndsHour = 5

    /// When a pause of this length that starts at `now` ends.
    public func end(from now: Date, in timeZone: TimeZone) -> Date {
        switch self {
        case .seconds(let seconds):
            return now.addingTimeInterval(TimeInterval(seconds))
        case .untilTomorrow:
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let hour = calendar.component(.hour, from: now)
            let day = hour < Self.nightEndsHour ? now : calendar.date(byAdding: .day, value: 1, to: now) ?? now
            let start = calendar.startOfDay(for: day)
            // The first instant at or after 08:00 of that day, even across a change of the clocks.
            return calendar.nextDate(
                after: start, matching: DateComponents(hour: Self.morningHour, minute: 0, second: 0),
                matchingPolicy: .nextTime) ?? start.addingTimeInterval(TimeInterval(Self.morningHour * 3600))
        }
    }
}
