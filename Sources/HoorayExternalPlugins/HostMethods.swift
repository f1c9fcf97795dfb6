import Foundation
import HoorayKit
import HoorayText
import Logging

/// The host's methods a plugin calls, each in the plugin's own namespace and behind its permission.
extension PluginSupervisor {
    /// The methods, by the permission each needs (`nil`: none).
    static let hostMethods: [String: PluginPermission?] = [
        "scheduleReminder": .schedule, "cancelReminder": .schedule, "listReminders": .schedule,
        "postNotice": .notify, "updateNotice": .notify, "celebrate": .notify,
        "storageGet": .storage, "storagePut": .storage, "storageDelete": .storage, "storageQuery": .storage,
        "askAI": .ai, "log": nil,
    ]

    func perform(_ method: String, _ members: [String: JSONValue]) async throws -> JSONValue {
        guard let permission = Self.hostMethods[method] else {
            throw RPCError.methodNotFound(method, known: Array(Self.hostMethods.keys))
        }
        if let permission, !manifest.permissions.contains(permission) {
            throw RPCError.permission(
                "\(method) needs the `\(permission.rawValue)` permission; add it to `permissions` in plugin.toml")
        }
        guard let context else { throw RPCError.internalError("the plugin has no context yet") }
        var params = WireParams(method: method, members: members)
        let result: JSONValue
        switch method {
        case "scheduleReminder": result = try await scheduleReminder(&params, context: context)
        case "cancelReminder":
            let id = try params.key("id")
            try params.finish()
            try await context.reminders.cancel(id: id)
            reminderIDs?.remove(id)
            result = .object([:])
        case "listReminders":
            try params.finish()
            let reminders = try await context.reminders.list()
            result = .object([
                "reminders": .array(
                    reminders.map { scheduled in
                        .object([
                            "id": .string(scheduled.reminder.id),
                            "schedule": Wire.scheduleJSON(scheduled.reminder.schedule),
                            "notice": Wire.noticeJSON(scheduled.reminder.notice),
                            "payload": scheduled.reminder.payload ?? .null,
                            "next_due": WireInstant.json(scheduled.nextDue),
                        ])
                    })
            ])
        case "postNotice":
            let notice = try Wire.notice(try params.required("notice"), method: method)
            try params.finish()
            try await admitNotice()
            let id = try await context.notices.post(notice)
            result = .object(["id": .number(Double(id.rawValue))])
        case "updateNotice":
            guard case .number(let value) = try params.required("id"), let number = Int64(exactly: value),
                number > 0, number < 1 << 53
            else {
                throw RPCError.invalidParams("updateNotice: `id` must be a notice's id, a whole number")
            }
            let notice = try Wire.notice(try params.required("notice"), method: method)
            try params.finish()
            try await admitNotice()
            do {
                try await context.notices.update(NoticeID(rawValue: number), to: notice)
            } catch {
                throw RPCError.invalidParams("updateNotice: the plugin has no notice \(number)")
            }
            result = .object([:])
        case "celebrate":
            let title = try params.string("title")
            let detail = try params.optionalString("detail")
            let size = try params.optionalString("size") ?? "small"
            try params.finish()
            guard let celebrationSize = Celebration.Size(rawValue: size) else {
                throw RPCError.invalidParams("celebrate: `size` must be small or big")
            }
            try await admitNotice()
            let outcome = try await context.celebrations.celebrate(
                Celebration(size: celebrationSize, title: title, detail: detail))
            if case .shown = outcome {
                result = .object(["shown": .bool(true), "line": .string(outcome.line)])
            } else {
                result = .object(["shown": .bool(false), "line": .string(outcome.line)])
            }
        case "storageGet":
            let key = try params.key("key")
            try params.finish()
            result = .object(["value": try await context.storage.data(forKey: key).map(Self.decodeStored) ?? .null])
        case "storagePut":
            let key = try params.key("key")
            let value = params.value("value") ?? .null
            try params.finish()
            let data = Data(value.text().utf8)
            guard data.count <= limits.maximumValueBytes else {
                throw RPCError.limit("storagePut: the value is \(data.count) bytes; the most is 65536 (64 KiB)")
            }
            if try await context.storage.data(forKey: key) == nil,
                try await context.storage.keys().count >= limits.maximumKeys
            {
                throw RPCError.limit(
                    "storagePut: the plugin keeps \(limits.maximumKeys) keys, the most it may; delete some first")
            }
            try await context.storage.setData(data, forKey: key)
            result = .object([:])
        case "storageDelete":
            let key = try params.key("key")
            try params.finish()
            try await context.storage.setData(nil, forKey: key)
            result = .object([:])
        case "storageQuery":
            let prefix = try params.optionalString("prefix") ?? ""
            try params.finish()
            let values = try await context.storage.values(withPrefix: prefix)
            let size = values.reduce(0) { $0 + $1.key.utf8.count + $1.data.count + 16 }
            guard size <= Self.maximumAnswerBytes else {
                throw RPCError.limit(
                    "storageQuery: the values under \"\(TerminalText.safe(prefix))\" come to \(size) bytes, more than one answer may carry (\(Self.maximumAnswerBytes)); query a longer prefix"
                )
            }
            result = .object([
                "items": .array(
                    values.map { .object(["key": .string($0.key), "value": Self.decodeStored($0.data)]) })
            ])
        case "askAI":
            let text = try params.string("text")
            try params.finish()
            let now = context.now
            do {
                let praise = try await context.ai.praise(
                    for: MomentForPraise(
                        clientID: UUID(), text: text, happenedAt: now, submittedAt: now,
                        timeZone: context.timeZone.identifier, timeAgo: "just now"))
                result = .object(["text": .string(praise.text)])
            } catch let error as AIRequestError {
                throw RPCError.unavailable("askAI: \(error)")
            }
        case "log":
            let level = try params.optionalString("level") ?? "info"
            let message = try params.string("message")
            try params.finish()
            let safe = TerminalText.safe(String(message.prefix(2000)))
            guard ["debug", "info", "notice", "warning", "error"].contains(level) else {
                throw RPCError.invalidParams("log: `level` must be debug, info, notice, warning or error")
            }
            guard admitLogLine() else { return .object([:]) }
            switch level {
            case "debug": logger.debug("\(safe)")
            case "notice": logger.notice("\(safe)")
            case "warning": logger.warning("\(safe)")
            case "error": logger.error("\(safe)")
            default: logger.info("\(safe)")
            }
            result = .object([:])
        default:
            throw RPCError.methodNotFound(method, known: Array(Self.hostMethods.keys))
        }
        return result
    }

    func scheduleReminder(_ params: inout WireParams, context: PluginContext) async throws -> JSONValue {
        let id = try params.key("id")
        guard Snooze.reservedPrefix(of: id) == nil else {
            throw RPCError.invalidParams(
                "scheduleReminder: ids starting with \(Snooze.reservedPrefix(of: id)!) are the host's")
        }
        let schedule = try Wire.schedule(
            try params.required("schedule"), now: context.now, timeZone: context.timeZone, method: "scheduleReminder")
        let notice = try Wire.notice(try params.required("notice"), method: "scheduleReminder")
        let payload = params.value("payload")
        let catchUp = try params.optionalNumber("catch_up_within")
        try params.finish()
        if let catchUp, !(0...31_622_400).contains(catchUp) {
            throw RPCError.invalidParams("scheduleReminder: `catch_up_within` must be 0 to 31622400 seconds")
        }
        if let payload, payload.text().utf8.count > limits.maximumValueBytes {
            throw RPCError.limit("scheduleReminder: the payload is over 64 KiB; keep the bulk in storage")
        }
        if reminderIDs == nil {
            reminderIDs = Set(try await context.reminders.list().map(\.reminder.id))
        }
        if reminderIDs?.contains(id) != true, (reminderIDs?.count ?? 0) >= limits.maximumReminders {
            // One-offs that came and went do not count: read again which will still come due.
            reminderIDs = Set(try await context.reminders.list().filter { $0.nextDue != nil }.map(\.reminder.id))
        }
        if reminderIDs?.contains(id) != true, (reminderIDs?.count ?? 0) >= limits.maximumReminders {
            throw RPCError.limit(
                "scheduleReminder: the plugin has \(limits.maximumReminders) reminders, the most it may keep; cancel some first"
            )
        }
        let scheduled = try await context.reminders.schedule(
            Reminder(
                id: id, schedule: schedule, notice: notice, catchUpWithin: catchUp.map { .seconds($0) },
                payload: payload))
        reminderIDs?.insert(id)
        return .object(["id": .string(id), "next_due": WireInstant.json(scheduled.nextDue)])
    }

    /// Counts a reminder's notice against the plugin's allowance.
    ///
    /// - Returns: Whether to show it; past the allowance it is recorded without being shown.
    func admitsReminderNotice() async -> Bool {
        do {
            try await admitNotice()
            return true
        } catch {
            logger.notice("a reminder's notice was not shown: more than \(limits.noticesPerMinute) in a minute")
            return false
        }
    }

    /// Counts a notice against the plugin's allowance; past it, refuses it and tells the user once.
    func admitNotice() async throws {
        let now = ContinuousClock.now
        noticeTimes = noticeTimes.filter { now - $0 < .seconds(60) }
        guard noticeTimes.count >= limits.noticesPerMinute else {
            noticeTimes.append(now)
            return
        }
        if noisyNoticeShown.map({ now - $0 > .seconds(3600) }) ?? true, let context {
            noisyNoticeShown = now
            logger.warning("posted more than \(limits.noticesPerMinute) notices in a minute; holding the rest back")
            _ = try? await context.notices.post(
                Notice(
                    title: "\(manifest.name) is being noisy",
                    body:
                        "It tried to post more than \(limits.noticesPerMinute) notices in a minute, so Hooray is holding the rest back. `[plugins.\(manifest.name)] enabled = false` turns it off.",
                    urgency: .low))
        }
        throw RPCError.limit(
            "postNotice: more than \(limits.noticesPerMinute) notices in a minute; the rest are held back (`notices_per_minute`)"
        )
    }

    /// The most an answer to the plugin may carry, so that it fits in one frame.
    static let maximumAnswerBytes = 900 * 1024

    /// Counts a line the plugin has logged, at most 20 in 10 seconds; then says once how many were left out.
    func admitLogLine() -> Bool {
        let now = ContinuousClock.now
        if now - logWindow.start > .seconds(10) {
            if logWindow.dropped > 0 {
                logger.warning("(\(logWindow.dropped) more log line(s) of it were left out)")
            }
            logWindow = (now, 0, 0)
        }
        guard logWindow.lines < 20 else {
            logWindow.dropped += 1
            return false
        }
        logWindow.lines += 1
        return true
    }

    static func decodeStored(_ data: Data) -> JSONValue {
        (try? JSONDecoder().decode(JSONValue.self, from: data)) ?? .string(String(decoding: data, as: UTF8.self))
    }
}
