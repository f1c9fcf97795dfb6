import CGtk
import Foundation
import HoorayGtk

// The Swift layer over GTK exercised the way the app uses it: in a process of its own, GTK on the
// main thread. `Tests/HoorayGtkTests` runs one check per process under Xvfb (GTK connects to the
// session bus when it starts, which tests of other targets in the test process must keep to
// themselves). Prints what it found, one line per expectation that failed, and exits 1 then.

var failures: [String] = []

@MainActor
func expect(_ condition: Bool, _ what: String) {
    if !condition { failures.append(what) }
}

@MainActor
func clicksReachTheirClosure() {
    let button = Button(label: "I _Did a Thing")
    var clicks = 0
    let connection = button.onClicked { clicks += 1 }
    button.emit("clicked")
    button.emit("clicked")
    expect(clicks == 2, "two clicks ran the closure twice (ran \(clicks))")
    expect(button.label == "I _Did a Thing", "the label is kept (\(button.label))")
    button.disconnect(connection)
    button.emit("clicked")
    expect(clicks == 2, "a disconnected closure no longer runs")
    button.disconnect(connection)
}

@MainActor
func closuresGoWithTheirObject() {
    final class Witness {}
    weak var captured: Witness?
    var freed = false
    var notified = 0
    do {
        let witness = Witness()
        captured = witness
        let label = Label("Well done")
        // `notify` passes a GParamSpec besides the object: the closure is still found and run.
        label.connect("notify::label") {
            _ = witness
            notified += 1
        }
        label.text = "Well walked"
        label.whenFreed { freed = true }
        expect(label.referenceCount == 1, "Swift holds the only reference of a widget in no container")
    }
    expect(notified == 1, "notify::label ran once (ran \(notified))")
    expect(freed, "the label was freed with its Swift object")
    expect(captured == nil, "the closure, and what it held, went with the label")
}

@MainActor
func aWindowHoldsItsChildAndFreesItWhenClosed() {
    var freedWindow = false
    var freedButton = false
    do {
        let window = Window(title: "Hooray")
        let button = Button(label: "Save this moment")
        expect(button.referenceCount == 1, "a new button has one reference")
        window.child = button
        expect(button.referenceCount == 2, "the window holds its child too")
        window.whenFreed { freedWindow = true }
        button.whenFreed { freedButton = true }
        window.present()
        expect(MainLoop.iterate(timeout: .seconds(10)) { window.isVisible }, "the window is shown")
        window.close()
        expect(MainLoop.iterate(timeout: .seconds(10)) { !window.isVisible }, "the window is hidden once closed")
        expect(!freedWindow, "a closed window held from Swift is not freed yet")
    }
    expect(MainLoop.iterate(timeout: .seconds(10)) { freedWindow && freedButton }, "window and child freed")
}

@MainActor
func aCloseRequestCanKeepTheWindow() {
    let window = Window(title: "Unsaved moment")
    var asked = 0
    window.onCloseRequest {
        asked += 1
        return asked == 1
    }
    window.present()
    expect(MainLoop.iterate(timeout: .seconds(10)) { window.isVisible }, "the window is shown")
    window.close()
    expect(asked == 1 && window.isVisible, "the first close was stopped")
    window.close()
    expect(asked == 2, "the second close was asked too")
    expect(MainLoop.iterate(timeout: .seconds(10)) { !window.isVisible }, "the second close closed it")
}

@MainActor
func aThousandWindowsLeaveNothingBehind() {
    var freedWindows = 0
    var freedButtons = 0
    var clicks = 0
    for round in 0..<1000 {
        let window = Window(title: "Round \(round)")
        let button = Button(label: "Close")
        window.child = button
        // The handler holds its window weakly, as the layer asks.
        button.onClicked { [weak window] in
            clicks += 1
            window?.close()
        }
        window.whenFreed { freedWindows += 1 }
        button.whenFreed { freedButtons += 1 }
        window.present()
        button.emit("clicked")
    }
    expect(clicks == 1000, "each window's button was clicked once (\(clicks))")
    MainLoop.iterate(timeout: .seconds(60)) { freedWindows == 1000 && freedButtons == 1000 }
    expect(freedWindows == 1000, "1,000 windows freed (\(freedWindows))")
    expect(freedButtons == 1000, "1,000 buttons freed (\(freedButtons))")
    let toplevels = Int(g_list_model_get_n_items(gtk_window_get_toplevels()))
    expect(toplevels == 0, "no window left in GTK's list (\(toplevels))")
}

@MainActor
func workFromAnotherThreadRunsOnTheMainThread() {
    @MainActor final class Outcome {
        var onMainThread = false
        var done = false
    }
    let outcome = Outcome()
    Thread.detachNewThread {
        MainLoop.invoke {
            outcome.onMainThread = Thread.isMainThread
            outcome.done = true
        }
    }
    expect(MainLoop.iterate(timeout: .seconds(10)) { outcome.done }, "the work ran")
    expect(outcome.onMainThread, "the work ran on the main thread, GTK's")
}

@MainActor
func adwaitaWidgetsWorkTogether() {
    var freedWindow = false
    var freedEntry = false
    var changes = 0
    var dismissed = false
    do {
        let window = Window(title: "Hooray")
        let overlay = ToastOverlay()
        let column = Box(.vertical, spacing: 12)
        let header = HeaderBar()
        let stack = Stack()
        let status = StatusPage(
            title: "Hooray isn't running", description: "Start it to log a moment.", iconName: "dialog-warning-symbolic"
        )
        let start = Button(label: "_Start Hooray")
        status.child = start
        let form = Box(.vertical, spacing: 6)
        let entry = Entry(placeholder: "What did you do?")
        entry.setAccessibleLabel("What did you do?")
        entry.maximumLength = 2000
        entry.onChanged { changes += 1 }
        form.append(entry)
        let mood = DropDown(choices: ["No mood", "calm", "proud"])
        var moodChanges = 0
        mood.onSelected { moodChanges += 1 }
        form.append(mood)
        stack.add(status, name: "status")
        stack.add(form, name: "form")
        column.append(header)
        column.append(stack)
        overlay.child = column
        window.child = overlay
        window.whenFreed { freedWindow = true }
        entry.whenFreed { freedEntry = true }
        window.present()
        expect(MainLoop.iterate(timeout: .seconds(10)) { window.isVisible }, "the window is shown")
        expect(stack.visiblePage == "status", "the first page shows first (\(stack.visiblePage))")
        stack.visiblePage = "form"
        expect(stack.visiblePage == "form", "the stack switched pages (\(stack.visiblePage))")
        expect(status.title == "Hooray isn't running", "the status page's title (\(status.title))")
        expect(status.details == "Start it to log a moment.", "the status page's description (\(status.details))")
        entry.text = "Took a short walk"
        expect(entry.text == "Took a short walk", "the entry holds what was set (\(entry.text))")
        expect(changes == 1, "setting the text is one change (\(changes))")
        expect(entry.maximumLength == 2000, "the entry's limit (\(entry.maximumLength))")
        expect(mood.selected == 0, "the drop-down starts at its first choice (\(mood.selected))")
        mood.selected = 2
        expect(
            mood.selected == 2 && moodChanges == 1, "a choice made is kept and told (\(mood.selected), \(moodChanges))")
        let toast = Toast("Couldn't reach Hooray", timeout: 1)
        toast.onDismissed { dismissed = true }
        overlay.show(toast)
        expect(MainLoop.iterate(timeout: .seconds(20)) { dismissed }, "the toast went by itself")
        window.destroy()
    }
    expect(MainLoop.iterate(timeout: .seconds(10)) { freedWindow && freedEntry }, "window and entry freed")
}

/// A second launch of the same application id hands over to the first, which is activated again
/// (to raise its window) while the second exits.
@MainActor
func aSecondLaunchActivatesTheFirst() {
    let id = "org.hooray.GtkCheck.Instance\(getpid())"
    let application = Application(id: id)
    var activations = 0
    var window: ApplicationWindow?
    var second: Process?
    application.onActivate {
        activations += 1
        if let window {
            window.present()
            application.quit()
            return
        }
        let opened = ApplicationWindow(application: application, title: "Hooray")
        opened.content = Label("Home")
        opened.present()
        window = opened
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["second-instance", id]
        do { try process.run() } catch { failures.append("the second launch could not start: \(error)") }
        second = process
    }
    MainLoop.after(.seconds(60)) { application.quit() }
    let status = application.run()
    second?.waitUntilExit()
    expect(status == 0, "the first instance ran to its end (\(status))")
    expect(activations == 2, "the first instance was activated by its own launch and the second (\(activations))")
    expect(second?.terminationStatus == 0, "the second launch exited at once, handing over")
    expect(window?.title == "Hooray", "one window, the first")
}

/// What a second launch runs: the same id, so it only activates the first.
@MainActor
func secondInstance() {
    let application = Application(id: CommandLine.arguments[2])
    var activatedHere = false
    application.onActivate { activatedHere = true }
    expect(application.register(), "the second launch reached the session bus")
    expect(application.isRemote, "the second launch found the first on the session bus")
    let status = application.run()
    expect(status == 0, "the second launch ran (\(status))")
    expect(!activatedHere, "the second launch handed over instead of activating itself")
}

/// Home and Moments in a view stack with its switchers, a day's card of rows with a star and
/// buttons, scrolled and clamped: what the Moments view is made of.
@MainActor
func listsShowWhatTheyAreGiven() {
    var freedRow = false
    var freedGroup = false
    var changes = 0
    var toggles = 0
    do {
        let window = Window(title: "Hooray")
        let views = ViewStack()
        let title = ViewSwitcherTitle(stack: views, title: "Hooray")
        let bar = ViewSwitcherBar(stack: views)
        let header = HeaderBar()
        header.titleWidget = title
        let home = Label("Home")
        let scrolled = ScrolledWindow()
        let clamp = Clamp(maximumWidth: 600)
        let column = Box(.vertical, spacing: 12)
        let group = PreferencesGroup(title: "Today")
        // What a user typed is shown as typed, never read as markup.
        let row = ActionRow(title: "<b>Tom & Jerry</b>", subtitle: "5 min ago · “Nice move, champ.”")
        let star = ToggleButton(iconName: "non-starred-symbolic", name: "Favourite “Tom & Jerry”")
        let delete = Button(iconName: "user-trash-symbolic", name: "Delete “Tom & Jerry”")
        star.onToggled { toggles += 1 }
        row.addSuffix(star)
        row.addSuffix(delete)
        group.add(row)
        column.append(group)
        clamp.child = column
        scrolled.child = clamp
        views.add(home, name: "home", title: "Home", iconName: "go-home-symbolic")
        views.add(scrolled, name: "moments", title: "Moments", iconName: "view-list-symbolic")
        views.onViewChanged { changes += 1 }
        let page = Box(.vertical)
        page.append(header)
        page.append(views)
        page.append(bar)
        window.child = page
        row.whenFreed { freedRow = true }
        group.whenFreed { freedGroup = true }
        window.present()
        expect(MainLoop.iterate(timeout: .seconds(10)) { window.isVisible }, "the window is shown")
        expect(views.visibleView == "home", "the first view shows first (\(views.visibleView))")
        views.visibleView = "moments"
        expect(views.visibleView == "moments" && changes == 1, "the view switched, and said so (\(changes))")
        expect(title.isSwitcherEnabled, "the switcher is offered")
        title.isSwitcherEnabled = false
        expect(!title.isSwitcherEnabled, "the switcher can be turned off, leaving the title")
        bar.isRevealed = true
        expect(bar.isRevealed, "the bottom switcher shows when asked")
        expect(group.title == "Today", "the group's heading (\(group.title))")
        expect(row.title == "<b>Tom & Jerry</b>", "the row's title as given (\(row.title))")
        expect(row.subtitle == "5 min ago · “Nice move, champ.”", "the row's line below (\(row.subtitle))")
        expect(!star.isActive, "the star starts unpressed")
        star.isActive = true
        expect(star.isActive && toggles == 1, "the star pressed, and said so (\(toggles))")
        star.setIcon("starred-symbolic")
        group.remove(row)
        window.destroy()
    }
    expect(MainLoop.iterate(timeout: .seconds(10)) { freedRow && freedGroup }, "the row and its group freed")
}

/// "Delete this moment?" answered: the answer reaches its action once, and the dialog goes.
@MainActor
func aDialogTellsItsAnswer() {
    var answers: [String] = []
    var freedDialog = false
    let window = Window(title: "Hooray")
    window.present()
    do {
        let dialog = MessageDialog(parent: window, heading: "Delete this moment?", body: "It goes for good.")
        dialog.addResponse("cancel", label: "Cancel")
        dialog.addResponse("delete", label: "Delete", appearance: .destructive)
        dialog.defaultResponse = "cancel"
        dialog.closeResponse = "cancel"
        let field = Entry()
        field.activatesDefault = true
        dialog.extraChild = field
        dialog.onResponse { answers.append($0) }
        dialog.whenFreed { freedDialog = true }
        expect(dialog.heading == "Delete this moment?", "the question (\(dialog.heading))")
        expect(dialog.body == "It goes for good.", "the body (\(dialog.body))")
        expect(dialog.defaultResponse == "cancel" && dialog.closeResponse == "cancel", "Enter and Escape cancel")
        expect(field.activatesDefault, "Enter in the field gives the default answer")
        dialog.present()
        expect(MainLoop.iterate(timeout: .seconds(10)) { dialog.isVisible }, "the dialog is shown")
        dialog.respond("delete")
        expect(answers == ["delete"], "the answer reached its action once (\(answers))")
        expect(MainLoop.iterate(timeout: .seconds(10)) { !dialog.isVisible }, "the dialog closed once answered")
    }
    expect(MainLoop.iterate(timeout: .seconds(10)) { freedDialog }, "the dialog was freed once let go")
    window.destroy()
}

/// Ctrl+N: an action of the app with its shortcut, run as the shortcut runs it.
@MainActor
func anActionRunsByItsShortcut() {
    let application = Application(id: "org.hooray.GtkCheck.Action\(getpid())")
    var runs = 0
    var shortcuts: [String] = []
    application.onActivate {
        application.addAction("new-moment", shortcuts: ["<Control>n"]) { runs += 1 }
        shortcuts = application.shortcuts(of: "new-moment")
        application.activateAction("new-moment")
        MainLoop.after(.milliseconds(100)) { application.quit() }
    }
    MainLoop.after(.seconds(60)) { application.quit() }
    let status = application.run()
    expect(status == 0, "the app ran (\(status))")
    expect(shortcuts == ["<Control>n"], "the action has its shortcut (\(shortcuts))")
    expect(runs == 1, "the action ran once (\(runs))")
}

/// The fields of Log a moment: a note's lines, a number typed and taken, a search bar shown and
/// told, a greyed-out answer; each freed with its closures once let go.
@MainActor
func inputsTellWhatIsTyped() {
    var freed = 0
    let window = Window(title: "Hooray")
    window.present()
    do {
        let note = TextView()
        var noteChanges = 0
        note.onChanged { noteChanges += 1 }
        note.text = "Sunny\nand quiet"
        expect(note.text == "Sunny\nand quiet", "the note keeps its lines (\(note.text))")
        expect(noteChanges == 1, "setting the note told its change once (\(noteChanges))")

        let number = SpinButton(minimum: 1, maximum: 999, value: 5)
        var typed = 0
        var taken = 0
        number.onTyped { typed += 1 }
        number.onChanged { taken += 1 }
        gtk_editable_set_text(OpaquePointer(number.object), "120")
        expect(number.text == "120" && typed >= 1, "what is typed is told at once (\(number.text), \(typed))")
        expect(number.value == 5 && taken == 0, "and is not taken before Enter (\(number.value))")
        number.update()
        expect(number.value == 120 && taken == 1, "update() takes it (\(number.value), \(taken))")
        gtk_editable_set_text(OpaquePointer(number.object), "5000")
        number.update()
        expect(number.value == 999, "a number past the range stops at its end (\(number.value))")

        let entry = SearchEntry(placeholder: "Search your moments")
        let bar = SearchBar(entry: entry)
        let box = Box(.vertical)
        box.append(bar)
        box.append(note)
        box.append(number)
        window.child = box
        var shownChanges = 0
        bar.onSearchingChanged { shownChanges += 1 }
        bar.isSearching = true
        expect(bar.isSearching && shownChanges == 1, "the bar shows, and says so (\(shownChanges))")
        var searched: [String] = []
        entry.onSearchChanged { [unowned entry] in searched.append(entry.text) }
        entry.text = "walk"
        expect(
            MainLoop.iterate(timeout: .seconds(10)) { searched == ["walk"] },
            "the search is told once typing pauses (\(searched))")

        let dialog = MessageDialog(parent: window, heading: "When did it happen?", body: "")
        dialog.addResponse("done", label: "Done")
        dialog.setResponseEnabled("done", false)
        expect(
            adw_message_dialog_get_response_enabled(
                UnsafeMutableRawPointer(dialog.object).assumingMemoryBound(to: AdwMessageDialog.self), "done") == 0,
            "Done is greyed out")
        dialog.setResponseEnabled("done", true)
        dialog.destroy()

        for object in [note, number, entry, bar] as [GObjectReference] { object.whenFreed { freed += 1 } }
        window.child = nil
    }
    expect(MainLoop.iterate(timeout: .seconds(10)) { freed == 4 }, "the fields were freed once let go (\(freed) of 4)")
    window.destroy()
}

/// Texts with no translation come back as written, their placeholders filled, in either order.
@MainActor
func textsAreFilledIn() {
    Localization.start(environment: ["HOORAY_LOCALE_DIR": "/nonexistent"], executable: "/nonexistent/bin/x")
    expect(localized("Moment logged") == "Moment logged", "a text as written (\(localized("Moment logged")))")
    let filled = localized("Couldn't %1$@: %2$@", "save your moment", "the disk is full")
    expect(filled == "Couldn't save your moment: the disk is full", "placeholders in order (\(filled))")
    let swapped = localized("%2$@, then %1$@", "first", "second")
    expect(swapped == "second, then first", "placeholders the other way round (\(swapped))")
    expect(localized("%ld min ago", 5) == "5 min ago", "a number (\(localized("%ld min ago", 5)))")
    let one = localized(one: "%d moment logged", other: "%d moments logged", count: 1)
    let three = localized(one: "%d moment logged", other: "%d moments logged", count: 3)
    expect(one == "1 moment logged" && three == "3 moments logged", "English plurals (\(one), \(three))")
    expect(
        localized("100% yours") == "100% yours", "a text without arguments is not a format (\(localized("100% yours")))"
    )
}

/// A picture the app draws: drawn when shown, at its size, in the style's colours, again when asked;
/// an image to screen readers; freed with its closure once let go.
@MainActor
func aDrawingIsDrawnInTheStylesColours() {
    var freed = 0
    var draws = 0
    var size = (width: 0.0, height: 0.0)
    var colours: [Color] = []
    let window = Window(title: "Hooray")
    do {
        let area = DrawingArea()
        area.setContentSize(width: 280, height: 200)
        area.setAccessibleLabel("Calendar of November 2026")
        area.setAccessibleDescription("November 2026. Done: 2, 3.")
        let fallback = Color(red: 1, green: 0, blue: 1)
        area.onDraw { canvas in
            draws += 1
            size = (canvas.width, canvas.height)
            colours = [canvas.foreground, canvas.color(named: "success_color", fallback: fallback)]
            canvas.setColor(colours[1])
            canvas.fillCircle(x: 20, y: 20, radius: 5)
            canvas.strokeArc(x: 40, y: 20, radius: 5, lineWidth: 1.5, dashes: [2, 2])
            canvas.strokeLine([(0, 0), (10, 10)], lineWidth: 2)
            canvas.fillRoundedRectangle(x: 50, y: 10, width: 3, height: 10, radius: 1)
            canvas.strokeRoundedRectangle(x: 60, y: 10, width: 30, height: 30, radius: 8, lineWidth: 2)
            let measured = canvas.measure("23", bold: true)
            expect(measured.width > 0 && measured.height > 0, "a text has a size (\(measured))")
            canvas.drawText("23", centeredAt: 100, 20, bold: true, scale: 0.85)
        }
        let role = gtk_accessible_get_accessible_role(OpaquePointer(area.object))
        expect(role == GTK_ACCESSIBLE_ROLE_IMG, "screen readers know it as an image (\(role))")
        window.child = area
        window.present()
        expect(MainLoop.iterate(timeout: .seconds(10)) { draws >= 1 }, "it was drawn when shown (\(draws))")
        expect(size.width >= 280 && size.height >= 200, "at its size at least (\(size))")
        expect(colours.count == 2 && colours[0].alpha > 0, "in the style's text colour (\(colours))")
        expect(colours.count == 2 && colours[1] != fallback, "libadwaita's named colours are found (\(colours))")
        let before = draws
        area.redraw()
        expect(MainLoop.iterate(timeout: .seconds(10)) { draws > before }, "and again when asked (\(draws))")
        area.whenFreed { freed += 1 }
        window.child = nil
    }
    expect(MainLoop.iterate(timeout: .seconds(10)) { freed == 1 }, "it was freed once let go (\(freed))")
    window.destroy()
}

let checks: [String: @MainActor () -> Void] = [
    "drawing": aDrawingIsDrawnInTheStylesColours,
    "adwaita": adwaitaWidgetsWorkTogether,
    "single-instance": aSecondLaunchActivatesTheFirst,
    "second-instance": secondInstance,
    "clicks": clicksReachTheirClosure,
    "closures": closuresGoWithTheirObject,
    "window": aWindowHoldsItsChildAndFreesItWhenClosed,
    "close-request": aCloseRequestCanKeepTheWindow,
    "thousand-windows": aThousandWindowsLeaveNothingBehind,
    "other-thread": workFromAnotherThreadRunsOnTheMainThread,
    "lists": listsShowWhatTheyAreGiven,
    "dialog": aDialogTellsItsAnswer,
    "app-action": anActionRunsByItsShortcut,
    "inputs": inputsTellWhatIsTyped,
    "localized": textsAreFilledIn,
]

let name = CommandLine.arguments.dropFirst().first ?? ""
guard let check = checks[name] else {
    print("usage: hooray-gtk-check \(checks.keys.sorted().joined(separator: "|"))")
    exit(2)
}
guard gtk_init_check() != 0 else {
    print("cannot start GTK on DISPLAY=\(ProcessInfo.processInfo.environment["DISPLAY"] ?? "")")
    exit(3)
}
adw_init()
check()
for failure in failures { print("failed: \(failure)") }
print(failures.isEmpty ? "passed \(name)" : "failed \(name)")
exit(failures.isEmpty ? 0 : 1)
