import Glibc

// `hooray-app`: Hooray's desktop window. GTK runs on this, the main, thread.
let status = MainActor.assumeIsolated { HoorayApp().run() }
exit(status)
