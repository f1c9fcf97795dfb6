import HoorayGtk

/// Praise (seed 001 §4.4): "Moment logged", the moment, and the praise hoorayd picked at once,
/// offline; the AI service's praise fades in in its place when it arrives (a crossfade, left out
/// when the desktop has animations off), and "Couldn't fetch extra encouragement this time." says
/// when it will not come.
@MainActor
final class PraiseScreen {
    /// The line shown when no AI praise came (seed 001 §4.4, as the notification says it).
    static let failedLine = "Couldn't fetch extra encouragement this time."
    /// The line shown while the AI praise is on its way (seed 001 §6, "Slow AI").
    static let waitingLine = "Finding a few more words for you…"
    /// How long to wait between asks for the AI praise: quick at first, then less often. The sum,
    /// about 45 s, covers the AI request's longest default time (a 5 s connect, a 15 s answer) twice.
    static let askDelays: [Duration] =
        [.milliseconds(300), .milliseconds(500), .seconds(1), .seconds(1)] + Array(repeating: .seconds(2), count: 20)

    let root = Box(.vertical, spacing: 18)
    /// Runs when **Done** is clicked.
    var onDone: @MainActor () -> Void = {}
    /// Runs when **View today's moments** is clicked.
    var onViewMoments: @MainActor () -> Void = {}

    private let moment = Label("")
    /// The offline praise, then the AI praise in its place.
    private let praises = Stack()
    private let offlinePraise = Label("")
    private let aiPraise = Label("")
    private let note = Label("")
    private let done = Button(label: "_Done")
    /// The moment shown; a newer one stops the asking for an older one's AI praise.
    private var shown: DaemonLink.LoggedMoment?

    init() {
        let header = Label("Moment logged")
        header.addCSSClass("title-1")
        moment.wrapCentered()
        moment.addCSSClass("card")
        moment.addCSSClass("hooray-moment")
        moment.setMargin(6)
        for label in [offlinePraise, aiPraise] {
            label.wrapCentered()
            label.addCSSClass("title-3")
        }
        praises.add(offlinePraise, name: "offline")
        praises.add(aiPraise, name: "ai")
        note.wrapCentered()
        note.addCSSClass("dim-label")
        note.isVisible = false
        done.addCSSClass("pill")
        done.onClicked { [unowned self] in onDone() }
        let viewMoments = Button(label: "_View today's moments")
        viewMoments.addCSSClass("flat")
        viewMoments.onClicked { [unowned self] in onViewMoments() }
        root.center()
        root.setMargin(24)
        for widget in [header, moment, praises, note, done, viewMoments] as [Widget] { root.append(widget) }
    }

    /// Shows a moment just logged, with its offline praise, and asks hoorayd for its AI praise
    /// until it comes, fails or is off.
    func show(_ logged: DaemonLink.LoggedMoment, link: DaemonLink) {
        shown = logged
        moment.text = logged.text + "\n· just now"
        offlinePraise.text = "“\(logged.offlinePraise)”"
        aiPraise.text = ""
        praises.visiblePage = "offline"
        note.isVisible = false
        done.grabFocus()
        guard !logged.id.isEmpty else { return }
        Task { @MainActor in await follow(logged, link: link) }
    }

    /// Asks after the AI praise of `logged` with back-off while it is the moment shown.
    private func follow(_ logged: DaemonLink.LoggedMoment, link: DaemonLink) async {
        for delay in Self.askDelays {
            try? await Task.sleep(for: delay)
            guard shown == logged else { return }
            let state: DaemonLink.AIPraise
            do throws(DaemonLink.Problem) {
                state = try await link.aiPraise(of: logged)
            } catch {
                // hoorayd went away or refused: the offline praise stays, and says no more is coming.
                break
            }
            guard shown == logged else { return }
            switch state {
            case .arrived(let praise):
                aiPraise.text = "“\(praise)”"
                praises.visiblePage = "ai"
                note.isVisible = false
                return
            case .off, .gone:
                note.isVisible = false
                return
            case .failed:
                say(Self.failedLine)
                return
            case .waiting:
                say(Self.waitingLine)
            }
        }
        if shown == logged { say(Self.failedLine) }
    }

    private func say(_ line: String) {
        note.text = line
        note.isVisible = true
    }
}
