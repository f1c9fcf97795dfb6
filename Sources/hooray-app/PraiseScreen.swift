import HoorayGtk

/// Praise (seed 001 §4.4): "Moment logged", the moment, and the praise hoorayd picked at once.
@MainActor
final class PraiseScreen {
    let root = Box(.vertical, spacing: 18)
    /// Runs when **Done** is clicked.
    var onDone: @MainActor () -> Void = {}

    private let moment = Label("")
    private let praise = Label("")
    private let done = Button(label: "_Done")

    init() {
        let header = Label("Moment logged")
        header.addCSSClass("title-1")
        moment.wrapCentered()
        moment.addCSSClass("card")
        moment.addCSSClass("hooray-moment")
        moment.setMargin(6)
        praise.wrapCentered()
        praise.addCSSClass("title-3")
        done.addCSSClass("pill")
        done.onClicked { [unowned self] in onDone() }
        root.center()
        root.setMargin(24)
        for widget in [header, moment, praise, done] as [Widget] { root.append(widget) }
    }

    /// Shows a moment just logged.
    func show(_ logged: DaemonLink.LoggedMoment) {
        moment.text = logged.text + "\n· just now"
        praise.text = "“\(logged.offlinePraise)”"
        done.grabFocus()
    }
}
