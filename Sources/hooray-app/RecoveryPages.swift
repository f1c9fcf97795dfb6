import Foundation
import HoorayGtk

/// The recovery plan of seed 002 §3 (`RecoveryPlanCard`): after a rejection is logged (its
/// encouraging line first) or from its **Plan** button — the title fitting what happened, the
/// 5-minute plan, words for a reply, and **I'm okay now** while the user is not yet.
@MainActor
final class RecoveryPlanPage {
    let root = ScrolledWindow()
    /// Runs with the rejection's id when **I'm okay now** is clicked.
    var onOkay: @MainActor (String) -> Void = { _ in }
    /// Runs with the kind of rejection and the fitting template's number when **Words for a reply** is clicked.
    var onTemplates: @MainActor (String, Int?) -> Void = { _, _ in }
    /// Runs when the user goes back to the dashboard.
    var onBack: @MainActor () -> Void = {}

    private let encouragement = Label("")
    private let title = Label("")
    /// Holds the plan's group, made again for each plan.
    private let steps = Box(.vertical)
    private var stepGroup: PreferencesGroup?
    private let templates = Button(label: localized("_Words for a reply…"))
    private let okay = Button(label: localized("I'm _okay now"))
    private var shown: DaemonLink.Plan?

    init() {
        encouragement.addCSSClass("title-4")
        encouragement.wrapCentered()
        title.addCSSClass("title-2")
        title.wrapCentered()
        templates.addCSSClass("pill")
        templates.center()
        templates.onClicked { [unowned self] in
            guard let shown else { return }
            onTemplates(shown.type, shown.template?.number)
        }
        okay.addCSSClass("suggested-action")
        okay.addCSSClass("pill")
        okay.center()
        okay.onClicked { [unowned self] in
            guard let rejection = shown?.rejection else { return }
            onOkay(rejection)
        }
        let back = Button(label: localized("_Back to your resilience"))
        back.addCSSClass("flat")
        back.center()
        back.onClicked { [unowned self] in onBack() }
        let column = Box(.vertical, spacing: 18)
        column.setMargin(24)
        for widget in [encouragement, title, steps, templates, okay, back] as [Widget] { column.append(widget) }
        let clamp = Clamp(maximumWidth: 560)
        clamp.child = column
        root.child = clamp
        root.expand(horizontally: true, vertically: true)
    }

    /// Shows a plan; `encouragement` is the line hoorayd gave when the rejection was just logged;
    /// **I'm okay now** shows while `canMarkOkay`.
    func show(_ plan: DaemonLink.Plan, encouragement line: String?, canMarkOkay: Bool) {
        shown = plan
        encouragement.text = line ?? ""
        encouragement.isVisible = line != nil
        title.text = "\(plan.emoji) \(plan.title)"
        if let stepGroup { steps.remove(stepGroup) }
        let group = PreferencesGroup(title: plan.heading)
        for step in plan.steps { group.add(ActionRow(title: "✓ " + step)) }
        steps.append(group)
        stepGroup = group
        templates.label =
            plan.template.map { localized("_Words for a reply: %@", $0.title) } ?? localized("_Words for a reply…")
        okay.isVisible = canMarkOkay && plan.rejection != nil
        okay.isSensitive = true
    }

    /// Greys out **I'm okay now** while hoorayd saves it.
    func saving(_ isSaving: Bool) {
        okay.isSensitive = !isSaving
    }

    /// The rejection the plan is for, if any.
    var rejection: String? { shown?.rejection }

    /// The user said they are okay: the button goes.
    func markedOkay() {
        okay.isVisible = false
    }
}

/// Response templates (seed 002, `ResponseTemplatesView`): graceful words for a reply, for a kind
/// of rejection, each with its scenario, its tone and **Copy**, which puts its text on the clipboard.
@MainActor
final class TemplatesPage {
    let root = ScrolledWindow()
    /// Runs when the user goes back.
    var onBack: @MainActor () -> Void = {}
    /// Runs with what to tell the user, such as that a template was copied.
    var onNotice: @MainActor (String) -> Void = { _ in }
    /// Runs with the kind chosen: its templates are to be read.
    var onKind: @MainActor (String) -> Void = { _ in }

    private let kindButtons: [ToggleButton]
    private let list = Box(.vertical, spacing: 18)
    private var groups: [PreferencesGroup] = []
    /// The **Copy** buttons shown, kept: each one's click changes its label.
    private var copyButtons: [Button] = []
    /// Set while the page sets a kind's button itself: no reading is asked for.
    private var isChoosing = false
    private(set) var kind = "dating"

    init() {
        kindButtons = RejectionLogPage.kinds.map { ToggleButton(label: $0.label, name: $0.label) }
        for button in kindButtons.dropFirst() { button.join(kindButtons[0]) }
        // Three a row: the five side by side would not fit a narrow window.
        let kinds = Box(.vertical, spacing: 4)
        var row = Box(.horizontal, spacing: 4)
        for (index, (button, kind)) in zip(kindButtons, RejectionLogPage.kinds).enumerated() {
            if index % 3 == 0 {
                row = Box(.horizontal, spacing: 4)
                row.center()
                kinds.append(row)
            }
            row.append(button)
            button.onToggled { [unowned self, weak button] in
                guard let button, button.isActive, !isChoosing else { return }
                self.kind = kind.type
                onKind(kind.type)
            }
        }
        let title = Label(localized("Response Templates"))
        title.addCSSClass("title-2")
        let intro = Label(localized("Graceful words for a reply, if you want one. Fill the [brackets] with your own."))
        intro.addCSSClass("dim-label")
        intro.wrapCentered()
        let back = Button(label: localized("_Back"))
        back.addCSSClass("flat")
        back.center()
        back.onClicked { [unowned self] in onBack() }
        let column = Box(.vertical, spacing: 12)
        column.setMargin(24)
        for widget in [title, intro, kinds, list, back] as [Widget] { column.append(widget) }
        let clamp = Clamp(maximumWidth: 560)
        clamp.child = column
        root.child = clamp
        root.expand(horizontally: true, vertically: true)
    }

    /// Chooses a kind's button without asking for a reading: the caller reads its templates.
    func choose(kind: String) {
        self.kind = kind
        isChoosing = true
        for (button, listed) in zip(kindButtons, RejectionLogPage.kinds) where listed.type == kind {
            button.isActive = true
        }
        isChoosing = false
    }

    /// Shows a kind's templates, the one numbered `highlighted` first.
    func show(_ templates: [DaemonLink.ResponseTemplate], highlighted: Int?) {
        for group in groups { list.remove(group) }
        copyButtons = []
        let ordered =
            templates.filter { $0.number == highlighted } + templates.filter { $0.number != highlighted }
        groups = ordered.map { template in
            let group = PreferencesGroup(title: template.title)
            group.details = "\(template.scenario) · \(template.tone)"
            let text = Label(template.text)
            text.wrapStart()
            text.setMargin(6)
            group.add(text)
            let copy = Button(label: localized("_Copy"))
            copy.setAccessibleLabel(localized("Copy “%@”", template.title))
            copy.addCSSClass("pill")
            copy.center()
            copy.onClicked { [unowned self, weak copy] in
                guard let copy else { return }
                copy.copyToClipboard(template.text)
                copy.label = localized("Copied ✓")
                onNotice(localized("“%@” is on the clipboard: paste it where you reply.", template.title))
            }
            group.add(copy)
            copyButtons.append(copy)
            list.append(group)
            return group
        }
    }
}
