import HoorayGtk

/// What the app shows when no hoorayd answers: it keeps the moments, so the app cannot work
/// without it. **Start Hooray** starts the user's service and tries again.
@MainActor
final class NotRunningScreen {
    let root = StatusPage(
        title: localized("Hooray isn't running"),
        description:
            localized(
                "Your moments are kept by hoorayd, Hooray's background service. Start it, and this window connects at once."
            ),
        iconName: "dialog-information-symbolic")
    /// Runs when **Start Hooray** is clicked.
    var onStart: @MainActor () -> Void = {}

    private let start = Button(label: localized("_Start Hooray"))

    init() {
        start.addCSSClass("suggested-action")
        start.addCSSClass("pill")
        start.center()
        start.onClicked { [unowned self] in onStart() }
        root.child = start
    }

    /// Greys the button out while hoorayd starts.
    func starting(_ busy: Bool) {
        start.isSensitive = !busy
        start.label = busy ? localized("Starting…") : localized("_Start Hooray")
    }
}
