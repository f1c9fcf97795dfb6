import CLibNotify
import HoorayKit

// The C callbacks of libnotify and GDBus, and the user data that leads them back to the session.

/// The user data of bus callbacks: a weak way back to the session.
final class SessionReference {
    weak var session: LibNotifySession?

    private init(_ session: LibNotifySession) { self.session = session }

    static func retained(_ session: LibNotifySession) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(SessionReference(session)).toOpaque()
    }

    static func session(from data: UnsafeMutableRawPointer?) -> LibNotifySession? {
        guard let data else { return nil }
        return Unmanaged<SessionReference>.fromOpaque(data).takeUnretainedValue().session
    }

    static let release: GDestroyNotify = { data in
        if let data { Unmanaged<SessionReference>.fromOpaque(data).release() }
    }

    static let releaseClosure: GClosureNotify = { data, _ in
        if let data { Unmanaged<SessionReference>.fromOpaque(data).release() }
    }
}

/// The user data of notification callbacks: the notice and a weak way back to the session.
final class NotificationReference {
    weak var session: LibNotifySession?
    let notice: NoticeID

    private init(_ notice: NoticeID, session: LibNotifySession) {
        self.notice = notice
        self.session = session
    }

    static func retained(_ notice: NoticeID, session: LibNotifySession) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(NotificationReference(notice, session: session)).toOpaque()
    }

    static func from(_ data: UnsafeMutableRawPointer?) -> NotificationReference? {
        data.map { Unmanaged<NotificationReference>.fromOpaque($0).takeUnretainedValue() }
    }

    static let release: GFreeFunc = { data in
        if let data { Unmanaged<NotificationReference>.fromOpaque(data).release() }
    }

    static let releaseClosure: GClosureNotify = { data, _ in
        if let data { Unmanaged<NotificationReference>.fromOpaque(data).release() }
    }
}

let actionCallback: NotifyActionCallback = { _, action, data in
    guard let reference = NotificationReference.from(data), let action else { return }
    reference.session?.actionInvoked(on: reference.notice, key: String(cString: action))
}

let notificationClosedCallback:
    @convention(c) (UnsafeMutablePointer<NotifyNotification>?, UnsafeMutableRawPointer?) -> Void = {
        notification, data in
        guard let reference = NotificationReference.from(data), let notification else { return }
        reference.session?.notificationClosed(reference.notice, pointer: notification)
    }

let connectionClosedCallback:
    @convention(c) (OpaquePointer?, gboolean, UnsafeMutablePointer<GError>?, UnsafeMutableRawPointer?) -> Void = {
        _, _, _, data in
        SessionReference.session(from: data)?.connectionClosed()
    }

let nameAppearedCallback: GBusNameAppearedCallback = { _, _, _, data in
    SessionReference.session(from: data)?.serverAppeared()
}

let nameVanishedCallback: GBusNameVanishedCallback = { _, _, data in
    SessionReference.session(from: data)?.serverVanished()
}

/// `NotificationReplied(id, text)`: a reply typed into a notification.
let notificationRepliedCallback: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
    guard let parameters, String(cString: g_variant_get_type_string(parameters)) == "(us)" else { return }
    let id = g_variant_get_child_value(parameters, 0)
    let text = g_variant_get_child_value(parameters, 1)
    defer {
        g_variant_unref(id)
        g_variant_unref(text)
    }
    let serverID = g_variant_get_uint32(id)
    let typed = g_variant_get_string(text, nil).map { String(cString: $0) } ?? ""
    SessionReference.session(from: data)?.replied(serverID: serverID, text: typed)
}
