import HoorayDelivery
import HoorayKit
import HooraySystemTesting
import Testing

/// Do-not-disturb as delivery reads it and reports it, against servers shaped like KDE Plasma and mako.
///
/// In ``NotificationDeliveryTests``, whose tests run one at a time: they share the process's bus.
extension NotificationDeliveryTests {
    @Test func kdesInhibitedIsReadAndItsChangesAreReported() async throws {
        try await withDelivery { harness in
            let server = try await harness.startServer(name: "Plasma", inhibited: true)
            let on = DoNotDisturb(isOn: true, source: "KDE")
            // Reported as soon as the server is there, and answered when asked.
            #expect(await harness.events.waitFor(.doNotDisturbChanged(on)), "\(harness.events.all)")
            #expect(await harness.delivery.doNotDisturb() == on)

            let mark = harness.events.mark()
            try await server.setInhibited(false)
            let off = DoNotDisturb(isOn: false, source: "KDE")
            #expect(await harness.events.waitFor(.doNotDisturbChanged(off), after: mark), "\(harness.events.all)")
            #expect(await harness.delivery.doNotDisturb() == off)
        }
    }

    @Test func makosModeIsReadWhenAsked() async throws {
        try await withDelivery { harness in
            _ = try await harness.startServer(name: "mako", makoModes: ["default", "do-not-disturb"])
            #expect(await harness.delivery.doNotDisturb() == DoNotDisturb(isOn: true, source: "mako"))
        }
    }

    @Test func withNoServerItIsOff() async throws {
        try await withDelivery { harness in
            #expect(await harness.delivery.doNotDisturb() == .off)
        }
    }

    @Test func aServerThatLeavesInDoNotDisturbIsReportedOff() async throws {
        try await withDelivery { harness in
            let server = try await harness.startServer(name: "Plasma", inhibited: true)
            #expect(await harness.events.waitFor(.doNotDisturbChanged(DoNotDisturb(isOn: true, source: "KDE"))))
            let mark = harness.events.mark()
            await server.stop()
            #expect(await harness.events.waitFor(.doNotDisturbChanged(.off), after: mark), "\(harness.events.all)")
        }
    }
}
