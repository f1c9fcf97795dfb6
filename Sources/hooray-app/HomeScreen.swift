import Foundation
import HoorayGtk
import HoorayMessages

/// Home (seed 001 §4.2): a supportive phrase that breathes and changes when clicked, the big
/// **I Did a Thing** button, and on the first run the hint that installing counts too.
@MainActor
final class HomeScreen {
    /// The hint under the button until the first moment is logged, as the CLI's `hooray` says it.
    static var firstRunHint: String { localized("Hey… installing the app counts too. Wanna log that tiny win?") }

    /// Set (to anything), Home opens on the pool's first phrase rather than a random one.
    static let firstPhraseVariable = "HOORAY_APP_FIRST_PHRASE"

    let root = Box(.vertical, spacing: 24)
    /// Runs when **I Did a Thing** is clicked.
    var onDidAThing: @MainActor () -> Void = {}

    private let phrases: [String]
    private var phraseIndex: Int
    private let phrase: Label
    private let didAThing = Button(label: localized("I _Did a Thing"))
    private let subtext = Label(localized("Tap to log something you did. Big or small, it counts."))
    private let hint = Label(firstRunHint)

    init(phrases: [String] = MessagePools.homePhrases) {
        self.phrases = phrases.isEmpty ? [localized("You're doing great.")] : phrases
        // `make screenshots` asks for the first phrase, so that the same window makes the same picture.
        let firstPhrase = ProcessInfo.processInfo.environment[Self.firstPhraseVariable].map { !$0.isEmpty } ?? false
        phraseIndex = firstPhrase ? 0 : Int.random(in: 0..<self.phrases.count)
        phrase = Label(self.phrases[phraseIndex])
        phrase.wrapCentered()
        phrase.addCSSClass("title-2")
        let phraseButton = Button(child: phrase)
        phraseButton.addCSSClass("flat")
        phraseButton.setAccessibleLabel(localized("Another kind word"))
        if Style.animationsEnabled { phrase.addCSSClass("hooray-breathing") }
        phraseButton.onClicked { [unowned self] in nextPhrase() }

        didAThing.addCSSClass("suggested-action")
        didAThing.addCSSClass("pill")
        didAThing.addCSSClass("hooray-big")
        didAThing.isSensitive = false
        didAThing.onClicked { [unowned self] in onDidAThing() }
        subtext.wrapCentered()
        subtext.addCSSClass("dim-label")
        hint.wrapCentered()
        hint.isVisible = false

        root.center()
        root.setMargin(24)
        for widget in [phraseButton, didAThing, subtext, hint] as [Widget] { root.append(widget) }
    }

    /// Shows what hoorayd said: the button works from now on, and the hint shows on the first run.
    func show(_ home: DaemonLink.Home) {
        didAThing.isSensitive = true
        hint.isVisible = home.isFirstRun
    }

    /// Gives the button the focus, for Enter and Space.
    func focus() {
        didAThing.grabFocus()
    }

    private func nextPhrase() {
        guard phrases.count > 1 else { return }
        phraseIndex = (phraseIndex + Int.random(in: 1..<phrases.count)) % phrases.count
        phrase.text = phrases[phraseIndex]
    }
}
