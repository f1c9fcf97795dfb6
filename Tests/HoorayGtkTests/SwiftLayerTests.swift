import CGtk
import Foundation
import HoorayGtk
import Testing

/// The Swift layer over GTK 4, on a real GTK under Xvfb: signals reach their closures, closures are
/// let go with their objects, and windows opened and closed leave nothing behind.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct SwiftLayerTests {
    init() async throws {
        _ = try await GtkTestDisplay.start()
    }

    @MainActor @Test func aClickReachesItsClosureAndADisconnectedOneNoLonger() {
        let button = Button(label: "I _Did a Thing")
        var clicks = 0
        let connection = button.onClicked { clicks += 1 }
        button.emit("clicked")
        button.emit("clicked")
        #expect(clicks == 2)
        #expect(button.label == "I _Did a Thing")
        button.disconnect(connection)
        button.emit("clicked")
        #expect(clicks == 2)
        // Disconnecting twice is harmless.
        button.disconnect(connection)
    }

    @MainActor @Test func aHandlersClosureIsLetGoWhenItsObjectIsFreed() {
        final class Witness {}
        weak var captured: Witness?
        var freed = false
        do {
            let witness = Witness()
            captured = witness
            let label = Label("Well done")
            var notified = 0
            // `notify` passes a GParamSpec besides the object: the closure is still found and run.
            label.connect("notify::label") {
                _ = witness
                notified += 1
            }
            label.text = "Well walked"
            #expect(notified == 1)
            label.whenFreed { freed = true }
            #expect(label.referenceCount == 1, "Swift holds the only reference of a widget in no container")
        }
        #expect(freed)
        #expect(captured == nil, "the closure, and what it held, went with the label")
    }

    @MainActor @Test func aWindowHoldsItsChildAndFreesItWhenClosed() {
        var freedWindow = false
        var freedButton = false
        do {
            let window = Window(title: "Hooray")
            let button = Button(label: "Save this moment")
            #expect(button.referenceCount == 1)
            window.child = button
            #expect(button.referenceCount == 2, "the window holds its child too")
            window.whenFreed { freedWindow = true }
            button.whenFreed { freedButton = true }
            window.present()
            #expect(MainLoop.iterate(timeout: .seconds(10)) { window.isVisible })
            window.close()
            #expect(MainLoop.iterate(timeout: .seconds(10)) { !window.isVisible })
            // Still held from Swift: not freed yet.
            #expect(!freedWindow)
        }
        #expect(MainLoop.iterate(timeout: .seconds(10)) { freedWindow && freedButton })
    }

    @MainActor @Test func aWindowAskedToCloseStaysOpenWhenItsHandlerSaysSo() {
        let window = Window(title: "Unsaved moment")
        var asked = 0
        window.onCloseRequest {
            asked += 1
            return asked == 1
        }
        window.present()
        #expect(MainLoop.iterate(timeout: .seconds(10)) { window.isVisible })
        window.close()
        #expect(asked == 1)
        #expect(window.isVisible, "the first close was stopped")
        window.close()
        #expect(asked == 2)
        #expect(MainLoop.iterate(timeout: .seconds(10)) { !window.isVisible })
    }

    @MainActor @Test func aThousandWindowsOpenedAndClosedLeaveNothingBehind() {
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
        #expect(clicks == 1000)
        #expect(MainLoop.iterate(timeout: .seconds(60)) { freedWindows == 1000 && freedButtons == 1000 })
        #expect(freedWindows == 1000)
        #expect(freedButtons == 1000)
        #expect(gtk_window_get_toplevels().map { Int(g_list_model_get_n_items($0)) } == 0)
    }

    @MainActor @Test func workFromAnotherThreadRunsOnGtksThread() {
        @MainActor final class Outcome {
            var thread: pthread_t?
            var done = false
        }
        let outcome = Outcome()
        Thread.detachNewThread {
            MainLoop.invoke {
                outcome.thread = pthread_self()
                outcome.done = true
            }
        }
        // GTK's thread is the one turning its loop: here the test's (the app's is the main thread).
        #expect(MainLoop.iterate(timeout: .seconds(10)) { outcome.done })
        #expect(outcome.thread.map { pthread_equal($0, pthread_self()) != 0 } == true)
    }
}
