import HoorayGtk

/// Praise (seed 001 §4.4): "Moment logged", the moment, and the praise hoorayd picked at once,
/// offline; the AI service's praise fades in in its place when it arrives (a crossfade, left out
/// when the desktop has animations off), and "Couldn't fetch extra encouragement this time." says
/// when it will not come.
@MainActor
final class PraiseScreen {
    /// The line shown when no AI praise came (seed 001 §4.4, as the notification says it).
    static var failedLine: String { localized("Couldn't fetch extra encouragement this time.") }
    /// The line shown while the AI praise is on its way (seed 001 §6, "Slow AI").
    static var waitingLine: String { localized("Finding a few more words for you…") }

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
    private let done = Button(label: localized("_Done"))
    /// The moment whose AI praise is awaited, until it came or is off; a newer moment shown stops
    /// the waiting for an older one's. After a failure it is still awaited: hoorayd tries again
    /// later, and praise that comes then fades in too.
    private var awaited: DaemonLink.LoggedMoment?
    private var link: DaemonLink?

    init() {
        let header = Label(localized("Moment logged"))
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
        let viewMoments = Button(label: localized("_View today's moments"))
        viewMoments.addCSSClass("flat")
        viewMoments.onClicked { [unowned self] in onViewMoments() }
        root.center()
        root.setMargin(24)
        for widget in [header, moment, praises, note, done, viewMoments] as [Widget] { root.append(widget) }
    }

    /// Shows a moment just logged, with its offline praise, and asks hoorayd for its AI praise:
    /// now, and again each time hoorayd says something changed (``changed()``: hoorayd updates the
    /// moment's notice when the praise comes and when the request fails, whatever its time limit),
    /// until it comes or is off.
    func show(_ logged: DaemonLink.LoggedMoment, link: DaemonLink) {
        moment.text = logged.text + "\n· " + localized("just now")
        offlinePraise.text = "“\(logged.offlinePraise)”"
        aiPraise.text = ""
        praises.visiblePage = "offline"
        note.isVisible = false
        done.grabFocus()
        awaited = nil
        guard !logged.id.isEmpty else { return }
        awaited = logged
        self.link = link
        ask()
    }

    /// hoorayd says something changed (its `changes`, pushed): the AI praise awaited may be there.
    func changed() {
        ask()
    }

    /// Asks hoorayd where the awaited AI praise stands, once, and shows it.
    private func ask() {
        guard let logged = awaited, let link else { return }
        Task { @MainActor in
            let state: DaemonLink.AIPraise
            do throws(DaemonLink.Problem) {
                state = try await link.aiPraise(of: logged)
            } catch {
                // hoorayd went away or refused: the offline praise stays, and says no more is coming.
                guard awaited == logged else { return }
                awaited = nil
                say(Self.failedLine)
                return
            }
            guard awaited == logged else { return }
            switch state {
            case .arrived(let praise):
                awaited = nil
                aiPraise.text = "“\(praise)”"
                praises.visiblePage = "ai"
                note.isVisible = false
            case .off, .gone:
                awaited = nil
                note.isVisible = false
            case .failed:
                say(Self.failedLine)
            case .waiting:
                say(Self.waitingLine)
            }
        }
    }

    private func say(_ line: String) {
        note.text = line
        note.isVisible = true
    }
}
