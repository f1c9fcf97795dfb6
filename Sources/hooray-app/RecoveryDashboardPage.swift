import Foundation
import HoorayGtk
import HoorayText

/// "Your Resilience" (seed 002 §2): **Log a rejection**, the rejections still healing, the score
/// ring, today's challenge, the check-in, this week's reality, the patterns, the recovery-time trend
/// and the streaks, and **Response templates**.
@MainActor
final class RecoveryDashboardPage {
    let root = ScrolledWindow()
    var onLog: @MainActor () -> Void = {}
    /// Runs with a rejection's id: its plan, or "I'm okay now".
    var onPlan: @MainActor (String) -> Void = { _ in }
    var onOkay: @MainActor (String) -> Void = { _ in }
    /// Runs with a mood: `low`, `okay`, `good` or `strong`.
    var onCheckIn: @MainActor (String) -> Void = { _ in }
    /// Runs with today's mood and the note written for it.
    var onNote: @MainActor (_ mood: String, _ note: String) -> Void = { _, _ in }
    /// Runs with `true` for **Done**, `false` for **Skip**.
    var onChallenge: @MainActor (Bool) -> Void = { _ in }
    var onTemplates: @MainActor () -> Void = {}

    /// The moods of the check-in, as `hooray recovery checkin` takes them, with the seed's faces.
    static var moods: [(mood: String, label: String)] {
        [
            ("low", localized("😔 Low")), ("okay", localized("😐 Okay")), ("good", localized("🙂 Good")),
            ("strong", localized("💪 Strong")),
        ]
    }

    private let content = Box(.vertical, spacing: 18)
    private let off = StatusPage(title: localized("Recovery is off"), iconName: "emblem-favorite-symbolic")
    private let logButton = Button(label: localized("_Log a rejection"))
    /// Groups made again at each reading, each in a box of its own to keep its place.
    private let healing = Box(.vertical)
    private let week = Box(.vertical)
    private let patterns = Box(.vertical)
    private var made: [ObjectIdentifier: PreferencesGroup] = [:]
    private let ring = ScoreRingView()
    private let score = Box(.vertical, spacing: 6)
    private let scoreMessage = Label("")
    private let challengeGroup = PreferencesGroup(title: localized("Today's Challenge"))
    private let challengeRow = ActionRow(title: "")
    private let challengeButtons = Box(.horizontal, spacing: 12)
    private let challengeStatus = Label("")
    private let checkInGroup = PreferencesGroup(title: localized("How are you feeling today?"))
    private let checkInLine = Label("")
    /// Today's note, once today's check-in exists; what a notification's **Add a note** opens.
    private let noteRow = EntryRow(title: localized("A note for today's check-in"))
    private let saveNote = Button(label: localized("Save note"))
    /// Today's mood and the note as hoorayd last told them.
    private var checkedIn: (mood: String, note: String)?
    /// Whether the note's field takes the focus once it shows (hoorayd's reading may come later).
    private var noteWanted = false
    private let moodButtons: [Button]
    private let trendGroup = PreferencesGroup(title: localized("Recovery Time Trends"))
    private let trend = RecoveryTrendView()
    private let streaks = Label("")
    private let templates = Button(label: localized("Response _templates"))

    init() {
        moodButtons = Self.moods.map { Button(label: $0.label) }
        content.setMargin(18)
        off.details = localized("Turn the Recovery plugin on in Settings to log a rejection and bounce back.")
        off.isVisible = false
        content.append(off)
        logButton.addCSSClass("suggested-action")
        logButton.addCSSClass("pill")
        logButton.center()
        logButton.onClicked { [unowned self] in onLog() }
        content.append(logButton)
        content.append(healing)

        score.append(ring.area)
        let scoreTitle = Label(localized("Resilience Score"))
        scoreTitle.addCSSClass("heading")
        score.append(scoreTitle)
        scoreMessage.addCSSClass("dim-label")
        scoreMessage.wrapCentered()
        score.append(scoreMessage)
        content.append(score)

        challengeGroup.add(challengeRow)
        let done = Button(label: localized("_Done"))
        done.addCSSClass("suggested-action")
        done.onClicked { [unowned self] in onChallenge(true) }
        let skip = Button(label: localized("S_kip"))
        skip.onClicked { [unowned self] in onChallenge(false) }
        for button in [done, skip] {
            button.addCSSClass("pill")
            challengeButtons.append(button)
        }
        challengeButtons.center()
        challengeButtons.setMargin(6)
        challengeGroup.add(challengeButtons)
        challengeStatus.wrapCentered()
        challengeGroup.add(challengeStatus)
        content.append(challengeGroup)

        checkInGroup.details = localized("Take 30 seconds to check in with yourself")
        // Two a row: large targets that fit a narrow window.
        let moods = Box(.vertical, spacing: 6)
        moods.setMargin(6)
        var row = Box(.horizontal, spacing: 6)
        for (index, (button, mood)) in zip(moodButtons, Self.moods).enumerated() {
            if index % 2 == 0 {
                row = Box(.horizontal, spacing: 6)
                row.setHomogeneous(true)
                moods.append(row)
            }
            row.append(button)
            button.onClicked { [unowned self] in onCheckIn(mood.mood) }
        }
        checkInGroup.add(moods)
        checkInLine.wrapCentered()
        checkInGroup.add(checkInLine)
        saveNote.addCSSClass("flat")
        noteRow.addSuffix(saveNote)
        noteRow.isVisible = false
        saveNote.onClicked { [unowned self] in noted() }
        noteRow.onActivated { [unowned self] in noted() }
        checkInGroup.add(noteRow)
        content.append(checkInGroup)

        content.append(week)
        content.append(patterns)
        trendGroup.details = localized("Hours until you were okay again, week by week: shorter is faster.")
        trendGroup.add(trend.area)
        content.append(trendGroup)
        streaks.wrapCentered()
        content.append(streaks)
        templates.addCSSClass("pill")
        templates.center()
        templates.onClicked { [unowned self] in onTemplates() }
        content.append(templates)

        // Nothing to say before hoorayd's reading.
        for part in parts { part.isVisible = false }
        logButton.isVisible = true
        let clamp = Clamp()
        clamp.child = content
        root.child = clamp
        root.expand(horizontally: true, vertically: true)
    }

    private var parts: [Widget] {
        [
            logButton, healing, ring.area, scoreMessage, challengeGroup, checkInGroup, week, patterns, trendGroup,
            streaks,
            templates,
        ]
    }

    /// The plugin is off: said on the page, with where to turn it on.
    func showOff() {
        for part in parts { part.isVisible = false }
        off.isVisible = true
    }

    /// Greys out the check-in and the challenge while hoorayd saves one.
    func busy(_ isBusy: Bool) {
        for button in moodButtons { button.isSensitive = !isBusy }
        saveNote.isSensitive = !isBusy
        challengeButtons.isSensitive = !isBusy
    }

    func show(_ reading: RecoveryScreen.Reading) {
        off.isVisible = false
        for part in parts { part.isVisible = true }
        let dashboard = reading.dashboard
        showHealing(reading.rejections.filter { $0.recoveredAt == nil }, anyLogged: !reading.rejections.isEmpty)
        ring.show(score: dashboard.score.total, message: dashboard.score.message)
        scoreMessage.text = dashboard.score.message
        showChallenge(reading.challenge)
        showCheckIn(dashboard.todayCheckIn?.mood, note: dashboard.todayCheckIn?.note)
        showWeek(dashboard.thisWeek)
        showPatterns(dashboard.patterns)
        trend.show(dashboard.trend.weeks)
        let challengeDays = localized(one: "%d day", other: "%d days", count: dashboard.streaks.challenge)
        let checkInDays = localized(one: "%d day", other: "%d days", count: dashboard.streaks.checkIn)
        streaks.text = localized("🔥 Challenge streak: %1$@ · Check-in streak: %2$@", challengeDays, checkInDays)
    }

    /// Replaces the group a box holds with a new one, headed `title`.
    private func group(in box: Box, title: String) -> PreferencesGroup {
        if let old = made[ObjectIdentifier(box)] { box.remove(old) }
        let group = PreferencesGroup(title: title)
        box.append(group)
        made[ObjectIdentifier(box)] = group
        return group
    }

    /// The rejections not yet marked okay, newest first.
    private func showHealing(_ open: [DaemonLink.Rejection], anyLogged: Bool) {
        let group = group(in: healing, title: localized("Still healing"))
        group.details =
            open.isEmpty
            ? (anyLogged
                ? localized("You said you're okay about every rejection you logged. 🌱")
                : localized("Nothing logged yet. When a rejection stings, log it in 30 seconds."))
            : localized("Say you're okay when you are: how fast you bounce back is part of your score.")
        for rejection in open {
            let kind = RejectionLogPage.kinds.first { $0.type == rejection.type }?.label ?? rejection.type
            let face = ImpactFaces.face(forImpact: rejection.impact)
            let title = "\(kind) · \(rejection.impact)/10 \(face)"
            let row = ActionRow(title: title, subtitle: rejection.note ?? "")
            let plan = Button(child: Label(localized("Plan")))
            plan.setAccessibleLabel(localized("Plan for %@", title))
            plan.addCSSClass("flat")
            plan.onClicked { [unowned self] in onPlan(rejection.id) }
            let okay = Button(child: Label(localized("I'm okay now")))
            okay.setAccessibleLabel(localized("I'm okay now: %@", title))
            okay.onClicked { [unowned self] in onOkay(rejection.id) }
            row.addSuffix(plan)
            row.addSuffix(okay)
            group.add(row)
        }
    }

    private func showChallenge(_ challenge: DaemonLink.Challenge) {
        let details = challenge.challenge
        challengeRow.title = details.title
        let points = localized(one: "+%d point", other: "+%d points", count: details.points)
        challengeRow.subtitle = "\(details.description) · \(points) · \(details.timeEstimate)"
        challengeButtons.isVisible = challenge.status == "open"
        switch challenge.status {
        case "done":
            challengeStatus.text = localized(
                one: "Done ✓ — %d point from challenges so far.", other: "Done ✓ — %d points from challenges so far.",
                count: challenge.totalPoints)
        case "skipped":
            challengeStatus.text = localized("Skipped. Tomorrow brings another.")
        default:
            challengeStatus.text = ""
        }
        challengeStatus.isVisible = challenge.status != "open"
    }

    /// Puts the focus in the note's field, now when today's check-in is shown, or else once it is.
    func focusNote() {
        if noteRow.isVisible {
            noteRow.grabFocus()
        } else {
            noteWanted = true
        }
    }

    /// Saves the note typed, with today's mood.
    private func noted() {
        guard let checkedIn else { return }
        let note = noteRow.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !note.isEmpty, note != checkedIn.note else { return }
        onNote(checkedIn.mood, note)
    }

    private func showCheckIn(_ mood: String?, note: String?) {
        // The field shows the day's note, unless the user is writing another.
        let shown = checkedIn?.note ?? ""
        checkedIn = mood.map { ($0, note ?? "") }
        if noteRow.text == shown || mood == nil { noteRow.text = note ?? "" }
        noteRow.isVisible = mood != nil
        if noteWanted, mood != nil {
            noteWanted = false
            noteRow.grabFocus()
        }
        for (button, listed) in zip(moodButtons, Self.moods) {
            if listed.mood == mood {
                button.addCSSClass("suggested-action")
            } else {
                button.removeCSSClass("suggested-action")
            }
        }
        if let chosen = Self.moods.first(where: { $0.mood == mood }) {
            checkInLine.text = localized("Checked in today: %@. Checking in again changes it.", chosen.label)
        } else {
            checkInLine.text = localized("Not checked in today yet.")
        }
    }

    private func showWeek(_ week: DaemonLink.Dashboard.Week) {
        let group = group(in: self.week, title: localized("This Week's Reality"))
        group.details = DateNames.range(from: week.from, through: week.through)
        var rows: [(String, String)] = [(localized("Rejections"), String(week.total))]
        for kind in RejectionLogPage.kinds {
            if let count = week.counts[kind.type], count > 0 { rows.append((kind.label, String(count))) }
        }
        if let impact = week.averageImpact {
            rows.append(
                (localized("Average impact"), impact.formatted(.number.precision(.fractionLength(0...1))) + "/10"))
        }
        if week.total > 0 {
            rows.append((localized("Said okay"), localized("%1$ld of %2$ld", week.recovered, week.total)))
        }
        if let hours = week.averageRecoveryHours {
            let took = hours.formatted(.number.precision(.fractionLength(0...1)))
            rows.append((localized("Average time to okay"), localized("%@ h", took)))
        }
        for (title, value) in rows {
            let row = ActionRow(title: title)
            row.addSuffix(Label(value))
            group.add(row)
        }
    }

    private func showPatterns(_ found: [DaemonLink.Dashboard.Pattern]) {
        if let old = made[ObjectIdentifier(patterns)] {
            patterns.remove(old)
            made[ObjectIdentifier(patterns)] = nil
        }
        guard !found.isEmpty else { return }
        let group = group(in: patterns, title: localized("Patterns"))
        for pattern in found {
            group.add(
                ActionRow(
                    title: pattern.title,
                    subtitle: [pattern.description, pattern.insight, pattern.actionable].joined(separator: "\n")))
        }
    }
}
