import CLibNotify
import HoorayKit

// MARK: - Mapping to libnotify

extension Notice.Urgency {
    var libnotify: NotifyUrgency {
        switch self {
        case .low: NOTIFY_URGENCY_LOW
        case .normal: NOTIFY_URGENCY_NORMAL
        case .critical: NOTIFY_URGENCY_CRITICAL
        }
    }
}

extension Notice.Timeout {
    /// Milliseconds as libnotify and the specification read them: -1 for the server's default, 0 for never.
    var libnotify: gint {
        switch self {
        case .serverDefault: -1
        case .never: 0
        // 0 would mean "never"; a timeout the caller asked for must still expire.
        case .milliseconds(let milliseconds): gint(clamping: max(1, milliseconds))
        }
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
