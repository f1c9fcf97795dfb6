import Foundation
import HoorayCalendar
import HoorayKit
import HoorayText

/// The members of a call's `params`, read one by one: a missing, mistyped or unknown member is a
/// -32602 error that names it, and nothing is done.
struct WireParams {
    let method: String
    let members: [String: JSONValue]
    private(set) var read: Set<String> = []

    init(method: String, members: [String: JSONValue]) {
        self.method = method
        self.members = members
    }

    mutating func value(_ name: String) -> JSONValue? {
        read.insert(name)
        guard let value = members[name], value != .null else { return nil }
        return value
    }

    mutating func required(_ name: String) throws(RPCError) -> JSONValue {
        guard let value = value(name) else { throw .invalidParams("\(method): `\(name)` is missing") }
        return value
    }

    mutating func string(_ name: String) throws(RPCError) -> String {
        guard case .string(let text) = try required(name) else {
            throw .invalidParams("\(method): `\(name)` must be a string")
        }
        return text
    }

    mutating func optionalString(_ name: String) throws(RPCError) -> String? {
        guard let value = value(name) else { return nil }
        guard case .string(let text) = value else { throw .invalidParams("\(method): `\(name)` must be a string") }
        return text
    }

    mutating func optionalNumber(_ name: String) throws(RPCError) -> Double? {
        guard let value = value(name) else { return nil }
        guard case .number(let number) = value, number.isFinite else {
            throw .invalidParams("\(method): `\(name)` must be a number")
        }
        return number
    }

    /// A key or id: text of 1 to 200 characters without control characters.
    mutating func key(_ name: String) throws(RPCError) -> String {
        let text = try string(name)
        guard !text.isEmpty, text.count <= 200,
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw .invalidParams("\(method): `\(name)` must be 1 to 200 characters without control characters")
        }
        return text
    }

    /// Refuses members that were not read: a plugin cannot name another plugin, or anything else.
    func finish() throws(RPCError) {
        let unknown = Set(members.keys).subtracting(read).sorted()
        guard let first = unknown.first else { return }
        let hint =
            first == "plugin" || first == "namespace"
            ? "; a plugin reaches only its own storage and reminders" : ""
        throw .invalidParams(
            "\(method) has no member `\(TerminalText.safe(String(first.prefix(40))))`\(hint)")
    }
}

/// Reminders, schedules and notices as the plugin protocol writes them.
enum Wire {
    static func schedule(_ value: JSONValue, now: Date, timeZone: TimeZone, method: String) throws(RPCError)
        -> Schedule
    {
        guard case .object(let object) = value else {
            throw .invalidParams("\(method): `schedule` must be an object such as {\"at\": \"2026-11-24T10:25:00Z\"}")
        }
        var params = WireParams(method: method + " schedule", members: object)
        var zone = timeZone
        if let name = try params.optionalString("zone") {
            guard let named = TimeZone(identifier: name) else {
                throw .invalidParams(
                    "\(method): `zone` \"\(TerminalText.safe(name))\" is no IANA time zone, such as Europe/Berlin")
            }
            zone = named
        }
        let schedule: Schedule
        if let at = try params.optionalString("at") {
            guard let date = WireInstant.date(at) else {
                throw .invalidParams("\(method): `at` must be an ISO 8601 instant such as 2026-11-24T10:25:00Z")
            }
            schedule = .once(at: date)
        } else if let seconds = try params.optionalNumber("in") {
            guard seconds >= 0, seconds <= 366 * 86400 else {
                throw .invalidParams("\(method): `in` must be 0 to 31622400 seconds")
            }
            schedule = .once(at: now.addingTimeInterval(seconds))
        } else if let daily = try params.optionalString("daily") {
            schedule = .daily(at: try time(daily, method: method), zone: zone)
        } else if let weekly = params.value("weekly") {
            guard case .array(let names) = weekly, !names.isEmpty else {
                throw .invalidParams("\(method): `weekly` must be a list of days such as [\"mon\", \"wed\"]")
            }
            var days = Set<Weekday>()
            for name in names {
                guard case .string(let text) = name, let day = Weekday(parsing: text) else {
                    throw .invalidParams("\(method): `weekly` holds \(name.text()), which is no day (mon … sun)")
                }
                days.insert(day)
            }
            schedule = .weekly(on: days, at: try time(try params.string("time"), method: method), zone: zone)
        } else {
            throw .invalidParams("\(method): `schedule` needs one of `at`, `in`, `daily` or `weekly`")
        }
        _ = params.value("time")
        try params.finish()
        return schedule
    }

    static func time(_ text: String, method: String) throws(RPCError) -> TimeOfDay {
        guard let time = TimeOfDay(parsing: text) else {
            throw .invalidParams(
                "\(method): \"\(TerminalText.safe(text))\" is no time of day; write HH:MM, such as 08:30")
        }
        return time
    }

    static func scheduleJSON(_ schedule: Schedule) -> JSONValue {
        switch schedule {
        case .once(let at): .object(["at": .string(WireInstant.string(at))])
        case .daily(let time, let zone):
            .object(["daily": .string(time.description), "zone": .string(zone.identifier)])
        case .weekly(let days, let time, let zone):
            .object([
                "weekly": .array(days.sorted().map { .string($0.abbreviation) }), "time": .string(time.description),
                "zone": .string(zone.identifier),
            ])
        case .everyNDays(let interval, let anchor, let time, let zone):
            .object([
                "every_days": .number(Double(interval)), "from": .string(anchor.description),
                "time": .string(time.description), "zone": .string(zone.identifier),
            ])
        }
    }

    static func notice(_ value: JSONValue, method: String) throws(RPCError) -> Notice {
        guard case .object(let object) = value else {
            throw .invalidParams("\(method): `notice` must be an object such as {\"title\": \"Break time\"}")
        }
        var params = WireParams(method: method + " notice", members: object)
        let title = try params.string("title")
        guard !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, title.count <= 500 else {
            throw .invalidParams("\(method): a notice's `title` must be 1 to 500 characters")
        }
        let body = try params.optionalString("body") ?? ""
        guard body.count <= 4000 else { throw .invalidParams("\(method): a notice's `body` is over 4000 characters") }
        var urgency = Notice.Urgency.normal
        if let name = try params.optionalString("urgency") {
            guard let level = Notice.Urgency(rawValue: name) else {
                throw .invalidParams("\(method): `urgency` must be low, normal or critical")
            }
            urgency = level
        }
        var actions: [NoticeAction] = []
        if let list = params.value("actions") {
            guard case .array(let items) = list, items.count <= 4 else {
                throw .invalidParams("\(method): `actions` must be a list of at most 4 {\"id\", \"label\"} objects")
            }
            for item in items {
                guard case .object(let action) = item, case .string(let id)? = action["id"],
                    case .string(let label)? = action["label"], !id.isEmpty, id.count <= 64, !label.isEmpty,
                    label.count <= 64
                else {
                    throw .invalidParams(
                        "\(method): each action needs an `id` and a `label`, strings of 1 to 64 characters")
                }
                var prompt: String?
                switch action["prompt"] {
                case nil, .null?: break
                case .string(let question)?
                where !question.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && question.count <= 200
                    && !question.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }):
                    prompt = question
                default:
                    throw .invalidParams(
                        "\(method): an action's `prompt`, the question `hooray act` asks, must be a string of 1 to 200 characters, not only spaces, without control characters"
                    )
                }
                actions.append(NoticeAction(id: id, label: label, prompt: prompt))
            }
        }
        var timeout = Notice.Timeout.serverDefault
        switch params.value("timeout") {
        case nil: break
        case .string("never")?: timeout = .never
        case .number(let seconds)? where seconds > 0 && seconds <= 3600:
            timeout = .milliseconds(Int(seconds * 1000))
        default: throw .invalidParams("\(method): `timeout` must be seconds (up to 3600) or \"never\"")
        }
        let payload = params.value("payload")
        try params.finish()
        return Notice(title: title, body: body, urgency: urgency, actions: actions, timeout: timeout, payload: payload)
    }

    /// A button as the protocol writes it: `id`, `label`, and `prompt` when it asks a question.
    static func actionJSON(_ action: NoticeAction) -> JSONValue {
        var object: [String: JSONValue] = ["id": .string(action.id), "label": .string(action.label)]
        if let prompt = action.prompt { object["prompt"] = .string(prompt) }
        return .object(object)
    }

    static func noticeJSON(_ notice: Notice) -> JSONValue {
        var object: [String: JSONValue] = [
            "title": .string(notice.title), "body": .string(notice.body), "urgency": .string(notice.urgency.rawValue),
            "actions": .array(notice.actions.map(actionJSON)),
            "payload": notice.payload ?? .null,
        ]
        switch notice.timeout {
        case .serverDefault: break
        case .never: object["timeout"] = .string("never")
        case .milliseconds(let milliseconds): object["timeout"] = .number(Double(milliseconds) / 1000)
        }
        return .object(object)
    }
}
