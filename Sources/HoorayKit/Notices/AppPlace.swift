/// A place in Hooray's desktop app, which a click on a notification opens (``Notice/opens``).
///
/// The click opens the app there when the app is installed; where it is not, the notification has
/// no click action at all, so nothing surprising happens.
///
/// ```swift
/// Notice(title: "Moment logged", body: text, opens: .moment(id))
/// ```
public struct AppPlace: Sendable, Hashable, Codable, RawRepresentable {
    /// The place as the app's `show` action takes it, such as `moment/3f2a9c1b-…` or `today`.
    public let rawValue: String

    /// A place from its text, such as `habit/8c0e3f52-…`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The main window's first view.
    public static let home = AppPlace(rawValue: "home")
    /// The Today view: tonight's swap, Night Prep and Morning Focus.
    public static let today = AppPlace(rawValue: "today")
    /// Log a moment: the page to write what you did.
    public static let logMoment = AppPlace(rawValue: "log")
    /// The Recovery view's dashboard.
    public static let recovery = AppPlace(rawValue: "recovery")

    /// A moment, shown in the Moments view.
    public static func moment(_ id: String) -> AppPlace { AppPlace(rawValue: "moment/" + id) }
    /// A habit, opened with its calendar.
    public static func habit(_ id: String) -> AppPlace { AppPlace(rawValue: "habit/" + id) }
    /// A rejection's recovery plan.
    public static func recoveryPlan(_ rejection: String) -> AppPlace {
        AppPlace(rawValue: "recovery/plan/" + rejection)
    }
}
